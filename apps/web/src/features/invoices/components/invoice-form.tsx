import { Button, Group, NumberInput, Select, SimpleGrid, Table, TextInput, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TInvoiceEdit } from '@crm/contract';
import { invoiceSums, MYDATA_PAYMENT_METHODS, VAT_CATEGORIES, VAT_CATEGORY_EXEMPT, WITHHELD_CATEGORIES } from '@crm/contract/invoice-fields';
import { formatCents } from './invoice-bits.tsx';
import { RemoveButton } from '../../../components/remove-button.tsx';

type Line = TInvoiceEdit['lines'][number];
export type InvoiceFormProps = {
  value: TInvoiceEdit;
  onChange: (v: TInvoiceEdit) => void;
  errors: Record<string, string>;
  /** A rejected document: only its counterpart and payment method change. */
  counterpartOnly: boolean;
  /** A receipt or a receipt's credit note (11.4): a private person withholds nothing. */
  retail?: boolean;
};

/** The customer's details and the payment method of a document being written or corrected. */
export function CounterpartFields({ value, onChange, errors }: Omit<InvoiceFormProps, 'counterpartOnly'>) {
  const { t } = useTranslation();
  const c = value.counterpart;
  const set = (k: keyof typeof c, v: string) => onChange({ ...value, counterpart: { ...c, [k]: k === 'country' ? v.toUpperCase() : v || (k === 'name' ? '' : null) } });
  const text = (k: keyof typeof c, label: string, span = false) => (
    <TextInput
      label={t(label)}
      value={c[k] ?? ''}
      onChange={(e) => set(k, e.currentTarget.value)}
      error={errors[`counterpart.${k}`]}
      data-testid={`invoice-${k}`}
      style={span ? { gridColumn: '1 / -1' } : undefined}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {text('name', 'invoices.field.name', true)}
      {text('vatNumber', 'invoices.field.vatNumber')}
      {text('country', 'invoices.field.country')}
      {text('street', 'invoices.field.street', true)}
      {text('postalCode', 'invoices.field.postalCode')}
      {text('city', 'invoices.field.city')}
      <Select
        label={t('invoices.field.paymentMethod')}
        data={MYDATA_PAYMENT_METHODS.map((m) => ({ value: String(m), label: t(`invoices.payment.${m}`) }))}
        value={String(value.paymentMethod)}
        onChange={(v) => v && onChange({ ...value, paymentMethod: Number(v) as TInvoiceEdit['paymentMethod'] })}
        allowDeselect={false}
        data-testid="invoice-payment"
      />
    </SimpleGrid>
  );
}

/** A draft's lines: description, net amount (euro, kept in cents), VAT rate, a withholding (an invoice's only), and what they add up to. */
export function LineFields({ value, onChange, errors, retail }: Omit<InvoiceFormProps, 'counterpartOnly'>) {
  const { t } = useTranslation();
  const setLine = (i: number, patch: Partial<Line>) => onChange({ ...value, lines: value.lines.map((l, j) => (j === i ? { ...l, ...patch } : l)) });
  const sums = invoiceSums(value.lines.map((l) => ({ netCents: l.netCents || 0, vatCategory: l.vatCategory })));
  return (
    <>
      <Table.ScrollContainer minWidth={640}>
        <Table data-testid="invoice-lines-edit">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('invoices.field.description')}</Table.Th>
              <Table.Th>{t('invoices.field.net')}</Table.Th>
              <Table.Th>{t('invoices.field.vatCategory')}</Table.Th>
              <Table.Th>{t('invoices.field.gross')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('invoices.action.removeLine')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {value.lines.map((l, i) => (
              <Table.Tr key={i}>
                <Table.Td>
                  <TextInput aria-label={t('invoices.field.description')} value={l.description} onChange={(e) => setLine(i, { description: e.currentTarget.value })} error={errors[`lines.${i}.description`]} />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={t('invoices.field.net')}
                    value={l.netCents / 100}
                    decimalScale={2}
                    min={0}
                    onChange={(v) => setLine(i, { netCents: Math.round(Number(v || 0) * 100) })}
                    error={errors[`lines.${i}.netCents`]}
                    data-testid="invoice-line-net"
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={t('invoices.field.vatCategory')}
                    data={VAT_CATEGORIES.map((c) => ({ value: String(c), label: t(`invoices.vat.${c}`) }))}
                    value={String(l.vatCategory)}
                    onChange={(v) => v && setLine(i, { vatCategory: Number(v) as Line['vatCategory'], vatExemption: Number(v) === VAT_CATEGORY_EXEMPT ? (l.vatExemption ?? null) : null })}
                    allowDeselect={false}
                  />
                  {l.vatCategory === VAT_CATEGORY_EXEMPT && (
                    <NumberInput
                      mt={4}
                      label={t('invoices.field.vatExemption')}
                      value={l.vatExemption ?? ''}
                      min={1}
                      max={31}
                      onChange={(v) => setLine(i, { vatExemption: v === '' ? null : Number(v) })}
                      error={errors[`lines.${i}.vatExemption`]}
                    />
                  )}
                  {!retail && value.kind !== 'receipt' && (
                    <Select
                      mt={4}
                      aria-label={t('invoices.field.withheld')}
                      data={[{ value: '', label: t('invoices.withheld.none') }, ...WITHHELD_CATEGORIES.map((c) => ({ value: String(c), label: t(`invoices.withheld.${c}`) }))]}
                      value={l.withheldCategory ? String(l.withheldCategory) : ''}
                      onChange={(v) => setLine(i, { withheldCategory: v ? (Number(v) as Line['withheldCategory']) : null })}
                      allowDeselect={false}
                      error={errors[`lines.${i}.withheldCategory`]}
                      data-testid="invoice-line-withheld"
                    />
                  )}
                </Table.Td>
                <Table.Td>{formatCents(sums.lines[i]?.grossCents)}</Table.Td>
                <Table.Td>
                  {value.lines.length > 1 && (
                    <RemoveButton label={t('invoices.action.removeLine')} onClick={() => onChange({ ...value, lines: value.lines.filter((_, j) => j !== i) })} />
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Button variant="light" size="xs" onClick={() => onChange({ ...value, lines: [...value.lines, { description: '', netCents: 0, vatCategory: 1, vatExemption: null }] })}>
          {t('invoices.action.addLine')}
        </Button>
      </Group>
    </>
  );
}
