import { Anchor, Button, Grid, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TPaymentListRow } from '@crm/contract';
import { PAYMENT_LIST_PAGE_SIZES } from '@crm/contract/payment-constants';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { IconPlus, IconSearch } from '../../../components/icons.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { isOfficeAdmin, useSession } from '../../../lib/session.ts';
import { variantStore } from '../../../lib/variant.ts';
import { useSavedFilter, useSavedList } from '../../../lib/list-state.ts';
import { PAYMENT_LIST, PAYMENT_SEARCH, paymentAccountsQuery } from '../api/payments.ts';

/** /Payments: the accounts that keep payments, with a count and a search by the start of any word of the name. */
export function PaymentsPage() {
  const { t } = useTranslation();
  const session = useSession();
  const variant = variantStore.use();
  const list = useSavedList(PAYMENT_LIST);
  const [search, setSearch] = useSavedFilter(PAYMENT_SEARCH);
  const [searchStr] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const q = useQuery(paymentAccountsQuery(searchStr, list[0]));
  const columns: DataTableColumn<TPaymentListRow>[] = [
    {
      accessor: 'transactionModifiedOn',
      title: t('payments.ui.col.modifiedOn'),
      sortable: true,
      noWrap: true,
      width: 170,
      render: (r) => formatDateTime(r.transactionModifiedOn),
    },
    {
      accessor: 'name',
      title: t('payments.ui.col.name'),
      sortable: true,
      card: 'title',
      render: (r) => (
        <Anchor component={Link} to={`/Payments/View/${r.id}`} data-testid="payment-account-link">
          {r.name}
        </Anchor>
      ),
    },
  ];
  // New payments account is the CRM's account form: not where only the payments app is served (decision 056).
  const add = isOfficeAdmin(session) && variant !== 'payments' ? (
    <Button component={Link} to="/Accounts/AddPayment" leftSection={<IconPlus size={16} />} data-testid="payments-add-account">
      {t('payments.ui.addAccount')}
    </Button>
  ) : null;
  return (
    <Stack gap="md">
      <ListHeader title={t('title.payments')} count={q.data?.totalRows} testId="payments">
        {add}
      </ListHeader>
      <FilterCard active={!!search.trim()} testId="payments-filter">
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 8, md: 6 }}>
            <TextInput
              label={t('payments.ui.search')}
              placeholder={t('payments.ui.searchHint')}
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                list[1]((s) => ({ ...s, currentPage: 1 }));
              }}
              data-testid="payments-search"
            />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="payments-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={PAYMENT_LIST_PAGE_SIZES}
        empty={search.trim() ? { text: t('payments.ui.noMatch') } : { text: t('payments.ui.empty'), action: add }}
      />
    </Stack>
  );
}
