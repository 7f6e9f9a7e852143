import { Alert, Card, Pagination, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TInvoiceFilter } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { href, INVOICE } from '@crm/contract/resources';
import { useCookieState } from '../../../lib/list-state.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDate } from '../../../lib/format.ts';
import { invoicesQuery } from '../api/invoices.ts';
import { documentNumber, formatCents, InvoiceStatus } from '../components/invoice-bits.tsx';
import { InvoiceFilters, InvoiceSums } from '../components/invoice-filters.tsx';
import '../../../components/table.css';

const PER_PAGE = 20;

const NO_FILTER: TInvoiceFilter = {};

/**
 * /Invoices: the agency's invoices, receipts and credit notes, newest first, filtered by issue dates,
 * customer, status, kind and series (kept in a cookie), with the sums of the matches and their xlsx.
 */
export function InvoicesPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useCookieState<TInvoiceFilter>('Invoices.filter', NO_FILTER);
  const [page, setPage] = useCookieState<number>('Invoices.page', 1);
  const [asked] = useDebouncedValue(filter, SEARCH_DEBOUNCE_MS);
  const q = useQuery(invoicesQuery(asked, page, PER_PAGE));
  const items = q.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((q.data?.totalRows ?? 0) / PER_PAGE));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('invoices.title')}
      </Title>
      <InvoiceFilters
        filter={filter}
        onChange={(next) => {
          setFilter(next);
          setPage(1);
        }}
      />
      {q.data && <InvoiceSums sums={q.data.sums} filter={asked} />}
      <Card withBorder>
        {q.isError ? (
          <Alert color="red">{describeError(q.error).message}</Alert>
        ) : q.isPending ? (
          <Skeleton h={60} />
        ) : items.length === 0 ? (
          <Text c="dimmed" data-testid="invoices-empty">
            {t('invoices.empty')}
          </Text>
        ) : (
          <div className="crm-list">
            <div className="crm-table-x">
              <table className="crm-table crm-table-striped crm-table-cards" style={{ minWidth: 640 }} data-testid="invoices">
                <thead>
                  <tr>
                    <th>{t('invoices.col.document')}</th>
                    <th>{t('invoices.col.date')}</th>
                    <th>{t('invoices.col.customer')}</th>
                    <th>{t('invoices.col.total')}</th>
                    <th>{t('invoices.col.status')}</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((i) => (
                    <tr key={i.id} data-testid="invoice-row" data-id={i.id ?? undefined}>
                      <td data-card="title">
                        <Link to={href(INVOICE.screens.view, { id: i.id! })} className="cell-link mantine-focus-auto" data-testid="invoice-number">
                          {t(`invoices.kind.${i.kind}`)} {documentNumber(i)}
                        </Link>
                      </td>
                      <td data-label={t('invoices.col.date')} {...(i.issueDate ? {} : { 'data-empty': '' })}>
                        {formatDate(i.issueDate)}
                      </td>
                      <td data-label={t('invoices.col.customer')}>{i.counterpartName}</td>
                      <td data-label={t('invoices.col.total')} data-testid="invoice-total">
                        {formatCents(i.grossCents)}
                      </td>
                      <td data-label={t('invoices.col.status')}>
                        <InvoiceStatus status={i.status} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </Card>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
