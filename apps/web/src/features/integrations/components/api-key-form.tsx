import { Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { API_KEY_AREAS, API_KEY_LEVELS, API_KEY_MAX_DAYS, API_KEY_NAME_MAX, type TApiKeyLevel, type TApiKeyScopes } from '@crm/contract/integration-constants';
import { DialogForm, useDialogValues } from '../../../kit/dialog-form.tsx';
import { createApiKey } from '../api/integrations.ts';

const NONE = Object.fromEntries(API_KEY_AREAS.map((a) => [a, 'none'])) as TApiKeyScopes;

/** A day `days` after today on this computer's calendar, YYYY-MM-DD. */
function dayAfter(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The "New API key" dialog: a name, a level per area (none by default), the last day it works. Answers the new key's secret. */
export function ApiKeyForm({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (secret: string) => void }) {
  const { t } = useTranslation();
  const { values, set, state } = useDialogValues(() => ({ name: '', scopes: NONE, expiresOn: dayAfter(365) }), createApiKey, (made) => onCreated(made.secret));
  const { name, scopes, expiresOn } = values;
  const { errors } = state;

  return (
    <DialogForm
      opened={opened}
      onClose={onClose}
      title={t('apiKeys.ui.new')}
      size="lg"
      testId="api-key-form"
      submit={{ label: t('apiKeys.ui.form.create'), testId: 'api-key-create' }}
      state={state}
      error={errors.form}
    >
      <TextInput
        label={t('apiKeys.ui.form.name')}
        description={t('apiKeys.ui.form.nameHint')}
        value={name}
        onChange={(e) => set('name', e.currentTarget.value)}
        maxLength={API_KEY_NAME_MAX}
        required
        error={errors.name}
        data-testid="api-key-name"
      />
      <Stack gap={6} role="group" aria-labelledby="api-key-scopes-label">
        <Text size="sm" fw={500} id="api-key-scopes-label">
          {t('apiKeys.ui.form.scopes')}
        </Text>
        {API_KEY_AREAS.map((area) => (
          <Group key={area} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" id={`api-key-area-${area}`}>
              {t(`apiKeys.area.${area}`)}
            </Text>
            <SegmentedControl
              size="xs"
              value={scopes[area]}
              onChange={(v) => set('scopes', (s) => ({ ...s, [area]: v as TApiKeyLevel }))}
              data={API_KEY_LEVELS.map((l) => ({ value: l, label: t(`apiKeys.level.${l}`) }))}
              aria-labelledby={`api-key-area-${area}`}
              data-testid={`api-key-scope-${area}`}
            />
          </Group>
        ))}
        {errors.scopes && (
          <Text size="sm" c="red" data-testid="api-key-scopes-error">
            {errors.scopes}
          </Text>
        )}
      </Stack>
      <TextInput
        type="date"
        label={t('apiKeys.ui.form.expiresOn')}
        value={expiresOn}
        min={dayAfter(0)}
        max={dayAfter(API_KEY_MAX_DAYS - 1)}
        onChange={(e) => set('expiresOn', e.currentTarget.value)}
        required
        error={errors.expiresOn}
        data-testid="api-key-expires"
      />
    </DialogForm>
  );
}
