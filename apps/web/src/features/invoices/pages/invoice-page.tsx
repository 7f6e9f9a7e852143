import { Alert, Anchor, Button, Card, Group, Select, SimpleGrid, Skeleton, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link, useNavigate, useParams } from 'react-router';
import type { TInvoice, TInvoiceEdit } from '@crm/contract';
import { DEAL, href, INVOICE } from '@crm/contract/resources';
import { canonicalSeries, DEFAULT_SERIES, isRetail, kindLabel } from '@crm/contract/invoice-fields';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate } from '../../../lib/format.ts';
import { useGuardedMutation } from '../../../lib/use-guarded-mutation.ts';
import { creditInvoice, deleteInvoice, invoiceKeys, invoiceQuery, issueInvoice, saveInvoice, toEdit, transmitInvoice } from '../api/invoices.ts';
import { documentNumber, formatCents, InvoiceStatus } from '../components/invoice-bits.tsx';
import { CounterpartFields, LineFields } from '../components/invoice-form.tsx';
import { InvoicePdfButton } from '../components/invoice-pdf-button.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/** /Invoices/{id}: a document: its lines, totals, status, MARK and myDATA's errors; a draft written and issued, a rejected one corrected and sent again. */
export function InvoicePage() {
  const id = Number(useParams().id) || 0;
  const q = useQuery(invoiceQuery(id));
  if (q.isError) return <FailureAlert failure={q.error} />;
  if (!q.data) return <Skeleton h={200} />;
  return <InvoiceView key={`${q.data.id}-${q.data.version}`} invoice={q.data} />;
}

function InvoiceView({ invoice }: { invoice: TInvoice }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [form, setForm] = useState<TInvoiceEdit>(() => toEdit(invoice));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const draft = invoice.status === 'draft';
  const correctable = invoice.status === 'rejected';
  const done = (next: TInvoice) => {
    qc.setQueryData(invoiceKeys.one(next.id!), next);
    void qc.invalidateQueries({ queryKey: invoiceKeys.all });
  };
  const fail = (e: unknown) => {
    if (e instanceof ApiError) setErrors(e.fieldErrors);
    const d = describeError(e);
    showBanner(d.type, d.message, { details: d.details });
  };
  const run = useGuardedMutation({ mutationFn: (fn: () => Promise<TInvoice>) => fn(), onSuccess: done, onError: fail });
  const act = (fn: () => Promise<TInvoice>) => {
    setErrors({});
    run.mutate(fn);
  };
  const confirmIssue = () =>
    confirmAction(t, {
      title: t('invoices.action.issue'),
      text: t('invoices.action.issueConfirm'),
      confirm: t('invoices.action.issue'),
      color: '',
      testId: 'confirm-issue',
      onConfirm: () =>
        act(async () => {
          // Saved first: should the issue be refused, the form goes on from the saved version.
          const saved = await saveInvoice(form);
          done(saved);
          setForm(toEdit(saved));
          return issueInvoice(saved);
        }),
    });
  const confirmDelete = () =>
    confirmAction(t, {
      title: t('invoices.action.delete'),
      text: t('invoices.action.deleteConfirm'),
      onConfirm: () =>
        void deleteInvoice(invoice)
          .then(() => {
            void qc.invalidateQueries({ queryKey: invoiceKeys.all });
            void navigate(invoice.dealId ? href(DEAL.screens.view, { id: invoice.dealId }) : href(INVOICE.screens.list));
          })
          .catch(fail),
    });
  const credit = () =>
    confirmAction(t, {
      title: t('invoices.action.credit'),
      text: t('invoices.action.creditConfirm'),
      confirm: t('invoices.action.credit'),
      color: '',
      testId: 'confirm-credit',
      onConfirm: () =>
        act(async () => {
          const c = await creditInvoice(invoice);
          void navigate(href(INVOICE.screens.view, { id: c.id! }));
          return c;
        }),
    });
  const busy = run.isPending;

  return (
    <Stack gap="md" maw={1100} data-testid="invoice-page" data-status={invoice.status}>
      <InvoiceHead invoice={invoice} />
      {draft || correctable ? (
        <Card withBorder>
          <Stack gap="sm">
            {draft && (
              <Group grow>
                {invoice.kind !== 'credit' && (
                  <Select
                    label={t('invoices.field.kind')}
                    data={(['invoice', 'receipt'] as const).map((k) => ({ value: k, label: t(`invoices.kind.${k}`) }))}
                    value={form.kind}
                    onChange={(v) => v && setForm({ ...form, kind: v as TInvoiceEdit['kind'], series: changedSeries(form, v as 'invoice' | 'receipt') })}
                    allowDeselect={false}
                    data-testid="invoice-kind"
                  />
                )}
                <TextInput label={t('invoices.field.series')} value={form.series} onChange={(e) => setForm({ ...form, series: e.currentTarget.value })} error={errors.series} data-testid="invoice-series" />
              </Group>
            )}
            <Title order={2} size="h4">
              {t('invoices.field.counterpart')}
            </Title>
            <CounterpartFields value={form} onChange={setForm} errors={errors} />
            {draft && <LineFields value={form} onChange={setForm} errors={errors} retail={isRetail(invoice.kind, invoice.creditOf?.kind)} />}
          </Stack>
        </Card>
      ) : (
        <CounterpartCard invoice={invoice} />
      )}
      {!draft && <LinesTable invoice={invoice} />}
      <Totals invoice={invoice} />
      <InvoiceActions
        invoice={invoice}
        busy={busy}
        onSave={() => act(() => saveInvoice(form))}
        onIssue={confirmIssue}
        onTransmit={() => act(() => transmitInvoice(invoice))}
        onCredit={credit}
        onDelete={confirmDelete}
      />
    </Stack>
  );
}

/** The document's title, status and links, what myDATA said of it, its date, MARK and the document it credits. */
function InvoiceHead({ invoice }: { invoice: TInvoice }) {
  const { t } = useTranslation();
  return (
    <>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2" data-testid="invoice-title">
          {t(`invoices.kind.${kindLabel(invoice)}`)} {documentNumber(invoice)}
        </Title>
        <InvoiceStatus status={invoice.status} testId="invoice-status" />
      </Group>
      <Group gap="lg">
        <Anchor component={Link} to={href(INVOICE.screens.list)}>
          {t('invoices.title')}
        </Anchor>
        {invoice.dealId && (
          <Anchor component={Link} to={href(DEAL.screens.view, { id: invoice.dealId })}>
            {t('deals.ui.title', { id: invoice.dealId })}
          </Anchor>
        )}
      </Group>
      {invoice.number != null && invoice.id != null && <InvoicePdfButton id={invoice.id} />}
      {invoice.status === 'issued' && (
        <Alert color="orange" data-testid="invoice-not-transmitted">
          {t('invoices.notTransmitted')}
        </Alert>
      )}
      {invoice.errors.length > 0 && (
        <Alert color={invoice.status === 'rejected' ? 'red' : 'orange'} title={t('invoices.errorsTitle')} data-testid="invoice-errors">
          {invoice.errors.map((e, i) => (
            <Text key={i} size="sm">
              <b>{e.code}</b>: {e.message}
            </Text>
          ))}
        </Alert>
      )}
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Fact label={t('invoices.field.issueDate')} value={formatDate(invoice.issueDate)} />
          <Fact label={t('invoices.field.mark')} value={invoice.mark ?? ''} testId="invoice-mark" />
          {invoice.creditOf && <Fact label={t('invoices.field.creditOf')} value={`${invoice.creditOf.series} ${invoice.creditOf.number ?? ''} · ${invoice.creditOf.mark ?? ''}`} />}
        </SimpleGrid>
      </Card>
    </>
  );
}

/** The counterpart and the payment method of a document no longer edited. */
function CounterpartCard({ invoice }: { invoice: TInvoice }) {
  const { t } = useTranslation();
  return (
    <Card withBorder>
      <Text fw={600}>{invoice.counterpart.name}</Text>
      <Text size="sm">{[invoice.counterpart.vatNumber && `${t('invoices.field.vatNumber')} ${invoice.counterpart.vatNumber}`, invoice.counterpart.street, [invoice.counterpart.postalCode, invoice.counterpart.city].filter(Boolean).join(' '), invoice.counterpart.country].filter(Boolean).join(' · ')}</Text>
      <Text size="sm">
        {t('invoices.field.paymentMethod')}: {t(`invoices.payment.${invoice.paymentMethod}`)}
      </Text>
    </Card>
  );
}

type Actions = { invoice: TInvoice; busy: boolean; onSave: () => void; onIssue: () => void; onTransmit: () => void; onCredit: () => void; onDelete: () => void };

/** What can be done with the document in its status: a draft saved, issued or deleted; sent (again); credited once accepted. */
function InvoiceActions({ invoice, busy, onSave, onIssue, onTransmit, onCredit, onDelete }: Actions) {
  const { t } = useTranslation();
  const draft = invoice.status === 'draft';
  const correctable = invoice.status === 'rejected';
  const unanswered = invoice.status === 'sent' && invoice.errors.length > 0;
  return (
    <Group>
      {(draft || correctable) && (
        <Button variant="default" loading={busy} onClick={onSave} data-testid="invoice-save">
          {draft ? t('invoices.action.save') : t('invoices.action.saveCounterpart')}
        </Button>
      )}
      {draft && (
        <Button onClick={onIssue} loading={busy} data-testid="invoice-issue">
          {t('invoices.action.issue')}
        </Button>
      )}
      {(invoice.status === 'issued' || correctable || unanswered) && (
        <Button onClick={onTransmit} loading={busy} data-testid="invoice-transmit">
          {invoice.status === 'issued' ? t('invoices.action.transmit') : t('invoices.action.resend')}
        </Button>
      )}
      {invoice.status === 'accepted' && invoice.kind !== 'credit' && (
        <Button variant="light" onClick={onCredit} data-testid="invoice-credit">
          {t('invoices.action.credit')}
        </Button>
      )}
      {draft && (
        <Button variant="subtle" color="red" onClick={onDelete} data-testid="invoice-delete">
          {t('invoices.action.delete')}
        </Button>
      )}
    </Group>
  );
}

/** A draft's series when its kind changes: the new kind's default if the old kind's was kept (each series is one document type). */
function changedSeries(form: TInvoiceEdit, kind: 'invoice' | 'receipt') {
  return form.kind !== 'credit' && canonicalSeries(form.series) === DEFAULT_SERIES[form.kind] ? DEFAULT_SERIES[kind] : form.series;
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text data-testid={testId}>{value || '—'}</Text>
    </div>
  );
}

function LinesTable({ invoice }: { invoice: TInvoice }) {
  const { t } = useTranslation();
  return (
    <Card withBorder>
      <Table.ScrollContainer minWidth={560}>
        <Table data-testid="invoice-lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('invoices.field.description')}</Table.Th>
              <Table.Th>{t('invoices.field.net')}</Table.Th>
              <Table.Th>{t('invoices.field.vatCategory')}</Table.Th>
              <Table.Th>{t('invoices.field.vatAmount')}</Table.Th>
              <Table.Th>{t('invoices.field.gross')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invoice.lines.map((l, i) => (
              <Table.Tr key={i}>
                <Table.Td>{l.description}</Table.Td>
                <Table.Td>{formatCents(l.netCents)}</Table.Td>
                <Table.Td>{t(`invoices.vat.${l.vatCategory}`)}</Table.Td>
                <Table.Td>{formatCents(l.vatCents)}</Table.Td>
                <Table.Td>{formatCents(l.grossCents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function Totals({ invoice }: { invoice: TInvoice }) {
  const { t } = useTranslation();
  return (
    <Card withBorder>
      <SimpleGrid cols={3} spacing="sm">
        <Fact label={t('invoices.totals.net')} value={formatCents(invoice.netCents)} testId="invoice-net" />
        <Fact label={t('invoices.totals.vat')} value={formatCents(invoice.vatCents)} testId="invoice-vat" />
        <Fact label={t('invoices.totals.gross')} value={formatCents(invoice.grossCents)} testId="invoice-gross" />
      </SimpleGrid>
    </Card>
  );
}
