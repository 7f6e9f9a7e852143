import { Button, Group, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { INVOICE_KINDS, INVOICE_STATUSES, type TInvoiceKind, type TInvoiceStatus } from '@crm/contract/invoice-fields';
import type { TInvoiceFilter, TInvoiceListSums } from '@crm/contract';
import { INVOICE, urlOf } from '@crm/contract/resources';
import { DateField } from '../../../components/fields/date-field.tsx';
import { IconDownload } from '../../../components/icons.ts';
import { formatCents } from './invoice-bits.tsx';

type Props = { filter: TInvoiceFilter; onChange: (next: TInvoiceFilter) => void };

/** The list's filter: issue dates from and to, customer (name or ΑΦΜ), status, kind, series. */
export function InvoiceFilters({ filter, onChange }: Props) {
  const { t } = useTranslation();
  const set = (patch: Partial<TInvoiceFilter>) => onChange({ ...filter, ...patch });
  const blank = (v: string | null | undefined) => (v ? v : undefined);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3, lg: 6 }} spacing="sm" data-testid="invoices-filter">
      <DateField label={t('invoices.filter.dateFrom')} value={filter.dateFrom ?? null} onChange={(v) => set({ dateFrom: blank(v as string | null) })} data-testid="invoices-date-from" />
      <DateField label={t('invoices.filter.dateTo')} value={filter.dateTo ?? null} onChange={(v) => set({ dateTo: blank(v as string | null) })} data-testid="invoices-date-to" />
      <TextInput label={t('invoices.filter.customer')} value={filter.customer ?? ''} onChange={(e) => set({ customer: blank(e.currentTarget.value) })} data-testid="invoices-customer" />
      <Select
        label={t('invoices.filter.status')}
        data={[{ value: '', label: t('invoices.filter.all') }, ...INVOICE_STATUSES.map((s) => ({ value: s, label: t(`invoices.status.${s}`) }))]}
        value={filter.status ?? ''}
        onChange={(v) => set({ status: (v || undefined) as TInvoiceStatus | undefined })}
        allowDeselect={false}
        data-testid="invoices-status"
      />
      <Select
        label={t('invoices.filter.kind')}
        data={[{ value: '', label: t('invoices.filter.all') }, ...INVOICE_KINDS.map((k) => ({ value: k, label: t(`invoices.kind.${k}`) }))]}
        value={filter.kind ?? ''}
        onChange={(v) => set({ kind: (v || undefined) as TInvoiceKind | undefined })}
        allowDeselect={false}
        data-testid="invoices-kind"
      />
      <TextInput label={t('invoices.filter.series')} value={filter.series ?? ''} onChange={(e) => set({ series: blank(e.currentTarget.value) })} data-testid="invoices-series" />
    </SimpleGrid>
  );
}

/** The sums of the documents the filter matches (from the server), and the accountant's xlsx of them. */
export function InvoiceSums({ sums, filter }: { sums: TInvoiceListSums; filter: TInvoiceFilter }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap" data-testid="invoices-sums">
      <Group gap="lg">
        <Text size="sm" fw={500}>
          {t('invoices.sums', { count: sums.count })}
        </Text>
        <Text size="sm">
          {t('invoices.field.net')}: <b data-testid="invoices-sum-net">{formatCents(sums.netCents)}</b>
        </Text>
        <Text size="sm">
          {t('invoices.field.vatAmount')}: <b data-testid="invoices-sum-vat">{formatCents(sums.vatCents)}</b>
        </Text>
        <Text size="sm">
          {t('invoices.field.gross')}: <b data-testid="invoices-sum-gross">{formatCents(sums.grossCents)}</b>
        </Text>
      </Group>
      <Button component="a" variant="light" size="compact-sm" href={urlOf(INVOICE.calls.download, { query: filter })} download leftSection={<IconDownload size={14} />} data-testid="invoices-download">
        {t('invoices.action.download')}
      </Button>
    </Group>
  );
}
