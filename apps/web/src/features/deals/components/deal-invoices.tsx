import { Anchor, Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useNavigate } from 'react-router';
import { DEAL_STAGE_CLOSED } from '@crm/contract/deal-fields';
import { kindLabel } from '@crm/contract/invoice-fields';
import { href, INVOICE } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatMoney2 } from '../../../lib/format.ts';

type Kind = 'invoice' | 'receipt';

/**
 * A closed deal's commission documents (decision 085): "Issue invoice" asks invoice (a business) or
 * receipt (a private person), makes the draft with the deal's client and commission filled in, and
 * opens it; the deal's documents are listed with their numbers and totals.
 */
export function DealInvoices({ dealId, dealStage }: { dealId: number; dealStage: number | null | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const closed = dealStage === DEAL_STAGE_CLOSED;
  const list = useQuery({
    queryKey: ['invoices', 'deal', dealId],
    queryFn: ({ signal }) => call(INVOICE.calls.list, { query: { dealId, perPage: 100 } }, { signal }),
    enabled: closed,
  });
  if (!closed) return null;
  const start = async (kind: Kind) => {
    try {
      const blank = await call(INVOICE.calls.add, { query: { dealId, kind } });
      const draft = await call(INVOICE.calls.update, {
        body: { ...blank, lines: blank.lines.map((l) => ({ description: l.description, netCents: Math.max(l.netCents, 1), vatCategory: 1 as const, vatExemption: null })), paymentMethod: 1 },
      });
      void qc.invalidateQueries({ queryKey: ['invoices'] });
      void navigate(href(INVOICE.screens.view, { id: draft.id! }));
    } catch (e) {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    }
  };
  const open = async () => {
    let suggested: Kind = 'receipt';
    try {
      suggested = (await call(INVOICE.calls.add, { query: { dealId } })).kind === 'invoice' ? 'invoice' : 'receipt';
    } catch (e) {
      const d = describeError(e);
      return showBanner(d.type, d.message, { details: d.details });
    }
    const id = modals.open({
      title: t('invoices.issueTitle'),
      children: <KindChoice initial={suggested} onChoose={(k) => (modals.close(id), void start(k))} />,
    });
  };
  const items = list.data?.items ?? [];
  return (
    <Card withBorder data-testid="deal-invoices">
      <Group justify="space-between" mb={items.length ? 'sm' : 0}>
        <Title order={2} size="h4">
          {t('invoices.onDeal')}
        </Title>
        <Button size="xs" onClick={() => void open()} data-testid="deal-issue-invoice">
          {t('invoices.issueFromDeal')}
        </Button>
      </Group>
      <Stack gap={4}>
        {items.map((i) => (
          <Group key={i.id} gap="md" data-testid="deal-invoice">
            <Anchor component={Link} to={href(INVOICE.screens.view, { id: i.id! })}>
              {t(`invoices.kind.${kindLabel(i)}`)} {i.number == null ? i.series : `${i.series} ${i.number}`}
            </Anchor>
            <Text size="sm">{formatMoney2(i.grossCents / 100)}</Text>
            <Text size="sm" c="dimmed">
              {t(`invoices.status.${i.status}`)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

function KindChoice({ initial, onChoose }: { initial: Kind; onChoose: (k: Kind) => void }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<Kind>(initial);
  return (
    <Stack>
      <Radio.Group value={kind} onChange={(v) => setKind(v as Kind)} label={t('invoices.field.kind')}>
        <Stack gap="xs" mt="xs">
          <Radio value="invoice" label={t('invoices.kind.invoice')} data-testid="issue-kind-invoice" />
          <Radio value="receipt" label={t('invoices.kind.receipt')} data-testid="issue-kind-receipt" />
        </Stack>
      </Radio.Group>
      <Group justify="flex-end">
        <Button onClick={() => onChoose(kind)} data-testid="issue-kind-go">
          {t('invoices.issueFromDeal')}
        </Button>
      </Group>
    </Stack>
  );
}
