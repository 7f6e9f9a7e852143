import { Badge } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TInvoiceStatus } from '@crm/contract/invoice-fields';
import { formatMoney2 } from '../../../lib/format.ts';

const STATUS_COLOR: Record<TInvoiceStatus, string> = { draft: 'gray', issued: 'orange', sent: 'blue', accepted: 'green', rejected: 'red' };

/** A document's status as a badge: draft, issued (not transmitted), sent, accepted, rejected. */
export function InvoiceStatus({ status, testId }: { status: TInvoiceStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" data-testid={testId} data-status={status}>
      {t(`invoices.status.${status}`)}
    </Badge>
  );
}

/** Cents as money (1 234,50 €). */
export const formatCents = (cents: number | null | undefined) => (cents == null ? '' : formatMoney2(cents / 100));

/** A document's series and number ("ΑΠΥ 12"), or its series alone while a draft. */
export const documentNumber = (i: { series: string; number: number | null }) => (i.number == null ? i.series : `${i.series} ${i.number}`);
