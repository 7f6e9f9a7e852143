import { Checkbox, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { WEBHOOK_RECORDS, WEBHOOK_URL_MAX, webhookEventsOf, type TWebhookEvent, type TWebhookRecord } from '@crm/contract/integration-constants';
import { DialogForm, useDialogValues } from '../../../kit/dialog-form.tsx';
import { createWebhook } from '../api/integrations.ts';

const RECORDS = Object.keys(WEBHOOK_RECORDS) as TWebhookRecord[];

/** An event as a reader names it: "Lead: created". */
export function useEventLabel() {
  const { t } = useTranslation();
  return (event: string) => {
    const [record, change] = event.split('.');
    return `${t(`webhooks.record.${record}`)}: ${t(`webhooks.change.${change}`)}`;
  };
}

/** The "New webhook" dialog: an https address and the events it hears of. Answers the signing secret. */
export function WebhookForm({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (secret: string) => void }) {
  const { t } = useTranslation();
  const eventLabel = useEventLabel();
  const { values, set, state } = useDialogValues(() => ({ url: '', events: [] as TWebhookEvent[] }), createWebhook, (made) => onCreated(made.secret));
  const { url, events } = values;
  const toggle = (e: TWebhookEvent, on: boolean) => set('events', (list) => (on ? [...list, e] : list.filter((x) => x !== e)));
  const { errors } = state;

  return (
    <DialogForm
      opened={opened}
      onClose={onClose}
      title={t('webhooks.ui.new')}
      size="xl"
      testId="webhook-form"
      submit={{ label: t('webhooks.ui.form.create'), testId: 'webhook-create', disabled: !events.length }}
      state={state}
      error={errors.events ?? errors.form}
    >
      <TextInput
        type="url"
        label={t('webhooks.ui.form.url')}
        placeholder="https://"
        value={url}
        onChange={(e) => set('url', e.currentTarget.value)}
        maxLength={WEBHOOK_URL_MAX}
        required
        error={errors.url}
        data-testid="webhook-url"
      />
      <Text size="sm" fw={500} id="webhook-events-label">
        {t('webhooks.ui.form.events')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="xs" role="group" aria-labelledby="webhook-events-label">
        {RECORDS.map((record) => (
          <Stack key={record} gap={4}>
            <Text size="sm" fw={500}>
              {t(`webhooks.record.${record}`)}
            </Text>
            {webhookEventsOf(record).map((change) => {
              const event = `${record}.${change}` as TWebhookEvent;
              return (
                <Checkbox
                  key={event}
                  label={eventLabel(event)}
                  checked={events.includes(event)}
                  onChange={(e) => toggle(event, e.currentTarget.checked)}
                  data-testid={`webhook-event-${event}`}
                />
              );
            })}
          </Stack>
        ))}
      </SimpleGrid>
    </DialogForm>
  );
}
