import { Badge, Button, Modal, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TWebhook, TWebhookDelivery } from '@crm/contract';
import { WholeListTable, type DataTableColumn } from '../../../components/data-table.tsx';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useListState } from '../../../lib/list-state.ts';
import { deliveriesQuery, resendDelivery } from '../api/integrations.ts';
import { useEventLabel } from './webhook-form.tsx';

const COLOR = { pending: 'yellow', delivered: 'teal', failed: 'red' } as const;

/** An endpoint's delivery log (the newest 100): event, when, outcome, attempts, last error, and "Send again". */
export function Deliveries({ webhook, onClose }: { webhook: TWebhook | null; onClose: () => void }) {
  const { t } = useTranslation();
  const label = useEventLabel();
  const qc = useQueryClient();
  const list = useListState('WebhookDeliveries', { perPage: 1000, sortBy: '', sortDir: 'desc' });
  const q = useQuery({ ...deliveriesQuery(webhook?.id ?? 0), enabled: !!webhook, refetchInterval: 5000 });
  const resend = useMutation({
    mutationFn: (d: TWebhookDelivery) => resendDelivery(d.id),
    onSuccess: () => showBanner('success', t('webhooks.ui.resent')),
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  const columns: DataTableColumn<TWebhookDelivery>[] = [
    { accessor: 'event', title: t('webhooks.ui.col.event'), card: 'title', render: (d) => `${label(d.event)} #${d.entityId ?? ''}` },
    { accessor: 'createdOn', title: t('webhooks.ui.col.made'), noWrap: true, render: (d) => formatDateTime(d.createdOn) },
    {
      accessor: 'state',
      title: t('webhooks.ui.col.outcome'),
      render: (d) => (
        <Badge color={COLOR[d.state]} variant="light" data-testid="delivery-state">
          {t(`webhooks.ui.delivery.${d.state}`)}
          {d.lastStatus ? ` (${d.lastStatus})` : ''}
        </Badge>
      ),
    },
    { accessor: 'attempts', title: t('webhooks.ui.col.attempts'), noWrap: true },
    {
      accessor: 'lastError',
      title: t('webhooks.ui.col.lastError'),
      render: (d) =>
        d.lastError ? (
          <Text size="xs" ff="monospace" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
            {d.lastError.startsWith('webhooks.errors.') ? t(d.lastError) : d.lastError}
          </Text>
        ) : d.state === 'pending' && d.attempts > 0 && d.lastStatus === null ? (
          // A try sent (or cut short by a stopped sender) whose answer has not come.
          <Text size="xs" c="dimmed" data-testid="delivery-no-answer">
            {t('webhooks.ui.noAnswerYet')}
          </Text>
        ) : null,
    },
    {
      accessor: 'resend',
      title: t('webhooks.ui.col.actions'),
      card: 'action',
      noWrap: true,
      render: (d) =>
        d.state === 'pending' ? null : (
          <Button size="xs" variant="light" disabled={!webhook?.enabled} loading={resend.isPending && resend.variables?.id === d.id} onClick={() => resend.mutate(d)} data-testid="delivery-resend">
            {t('webhooks.ui.resend')}
          </Button>
        ),
    },
  ];
  return (
    <Modal opened={!!webhook} onClose={onClose} title={t('webhooks.ui.deliveriesOf', { url: webhook?.url ?? '' })} size="80rem" closeButtonProps={{ 'aria-label': t('common.close') }} data-testid="webhook-deliveries">
      <WholeListTable
        testId="deliveries-table"
        list={list}
        query={q}
        columns={columns}
        empty={{ text: t('webhooks.ui.deliveriesEmpty') }}
      />
    </Modal>
  );
}
