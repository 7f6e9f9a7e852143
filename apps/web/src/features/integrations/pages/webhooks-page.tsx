import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TWebhook } from '@crm/contract';
import { WholeListTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useListState } from '../../../lib/list-state.ts';
import { deleteWebhook, setWebhookEnabled, webhooksQuery } from '../api/integrations.ts';
import { Deliveries } from '../components/deliveries.tsx';
import { SecretOnce } from '../components/secret-once.tsx';
import { WebhookForm, useEventLabel } from '../components/webhook-form.tsx';

/**
 * /Settings/Webhooks (office administrators, decision 080): the addresses told of the records'
 * changes, their state (on, failing since, switched off), a new one (its signing secret shown
 * once), on and off, delete, and each one's delivery log with "Send again".
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const label = useEventLabel();
  const qc = useQueryClient();
  const list = useListState('Webhooks', { perPage: 1000, sortBy: '', sortDir: 'desc' });
  const q = useQuery({ ...webhooksQuery(), refetchInterval: 15000 });
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<TWebhook | null>(null);
  const failed = (e: unknown) => {
    const d = describeError(e);
    showBanner(d.type, d.message, { details: d.details });
  };
  const refresh = () => void qc.invalidateQueries({ queryKey: ['webhooks'] });
  const onOff = useMutation({ mutationFn: (w: TWebhook) => setWebhookEnabled(w.id, !w.enabled, w.version), onError: failed, onSettled: refresh });
  const remove = useMutation({ mutationFn: (w: TWebhook) => deleteWebhook(w.id), onError: failed, onSettled: refresh });
  const confirmDelete = (w: TWebhook) =>
    confirmAction(t, {
      title: t('webhooks.ui.delete'),
      text: (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('webhooks.ui.deleteConfirm', { url: w.url })}
        </Text>
      ),
      testId: 'webhook-delete-confirm',
      onConfirm: () => remove.mutate(w),
    });
  const stateOf = (w: TWebhook) => (
    <Stack gap={2}>
      {w.enabled ? (
        <Badge color={w.failingSince ? 'orange' : 'teal'} variant="light" data-testid="webhook-state">
          {w.failingSince ? t('webhooks.ui.state.failing', { date: formatDateTime(w.failingSince) }) : t('webhooks.ui.state.on')}
        </Badge>
      ) : (
        <Badge color="gray" variant="light" data-testid="webhook-state">
          {t('webhooks.ui.state.off', { date: w.disabledOn ? formatDateTime(w.disabledOn) : '' })}
        </Badge>
      )}
      {w.pending > 0 && <Text size="xs" c="dimmed">{t('webhooks.ui.pending', { count: w.pending })}</Text>}
    </Stack>
  );
  const columns: DataTableColumn<TWebhook>[] = [
    { accessor: 'url', title: t('webhooks.ui.col.url'), card: 'title', render: (w) => <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="webhook-url-cell">{w.url} <Text span size="xs" c="dimmed" ff="monospace">{w.hint}</Text></Text> },
    { accessor: 'events', title: t('webhooks.ui.col.events'), render: (w) => <Text size="sm">{w.events.map(label).join(' · ')}</Text> },
    { accessor: 'state', title: t('webhooks.ui.col.state'), render: stateOf },
    {
      accessor: 'actions',
      // On a phone a line of its own (three buttons do not fit beside the address).
      title: t('webhooks.ui.col.actions'),
      render: (w) => (
        <Group gap={6} wrap="wrap">
          <Button size="xs" variant="light" onClick={() => setLog(w)} data-testid="webhook-log">
            {t('webhooks.ui.deliveries')}
          </Button>
          <Button size="xs" variant="default" loading={onOff.isPending && onOff.variables?.id === w.id} onClick={() => onOff.mutate(w)} data-testid="webhook-switch">
            {w.enabled ? t('webhooks.ui.switchOff') : t('webhooks.ui.switchOn')}
          </Button>
          <Button size="xs" variant="light" color="red" onClick={() => confirmDelete(w)} data-testid="webhook-delete" aria-label={`${t('webhooks.ui.delete')}: ${w.url}`}>
            {t('webhooks.ui.delete')}
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="md" maw={1400}>
      <ListHeader title={t('title.webhooks')} count={q.data?.items.length} testId="webhooks">
        <Button onClick={() => setAdding(true)} data-testid="webhook-new">
          {t('webhooks.ui.new')}
        </Button>
      </ListHeader>
      <Text size="sm" c="dimmed">
        {t('webhooks.ui.intro')}
      </Text>
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      <WholeListTable testId="webhooks-table" list={list} query={q} columns={columns} empty={{ text: t('webhooks.ui.empty') }} />
      <WebhookForm
        opened={adding}
        onClose={() => setAdding(false)}
        onCreated={(s) => {
          setAdding(false);
          setSecret(s);
          refresh();
        }}
      />
      <SecretOnce title={t('webhooks.ui.created.title')} hint={t('webhooks.ui.created.hint')} secret={secret} onClose={() => setSecret(null)} testId="webhook-secret" />
      <Deliveries webhook={log ? (q.data?.items.find((w) => w.id === log.id) ?? log) : null} onClose={() => setLog(null)} />
    </Stack>
  );
}
