import { Pagination, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TInvoiceFilter } from '@crm/contract';
import { kindLabel } from '@crm/contract/invoice-fields';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { href, INVOICE } from '@crm/contract/resources';
import { useCookieState } from '../../../lib/list-state.ts';
import { formatDate } from '../../../lib/format.ts';
import { invoicesQuery } from '../api/invoices.ts';
import { documentNumber, formatCents, InvoiceStatus } from '../components/invoice-bits.tsx';
import { InvoiceFilters, InvoiceSums } from '../components/invoice-filters.tsx';
import { CardsTable } from '../../../components/cards-table.tsx';
import { QueryCard } from '../../../components/query-card.tsx';

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
      <QueryCard query={q} empty={items.length === 0} emptyText={t('invoices.empty')} emptyTestId="invoices-empty">
        <CardsTable testId="invoices" minWidth={640} headers={[t('invoices.col.document'), t('invoices.col.date'), t('invoices.col.customer'), t('invoices.col.total'), t('invoices.col.status')]}>
          {items.map((i) => (
            <tr key={i.id} data-testid="invoice-row" data-id={i.id ?? undefined}>
              <td data-card="title">
                <Link to={href(INVOICE.screens.view, { id: i.id! })} className="cell-link mantine-focus-auto" data-testid="invoice-number">
                  {t(`invoices.kind.${kindLabel(i)}`)} {documentNumber(i)}
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
        </CardsTable>
      </QueryCard>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
