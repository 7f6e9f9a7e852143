import { Button, Grid, Group, Select, Stack, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TClientRow } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconExclamationCircle, IconPlus } from '../../../components/icons.ts';
import { useSavedFilter, useSavedList } from '../../../lib/list-state.ts';
import { CLIENT_FILTER, CLIENT_LIST, NO_CLIENT_FILTER, clientsQuery, type TClientFilter } from '../api/account-lists.ts';
import { AccountLink, createdColumns, modifiedColumns, objectsColumn } from '../../../components/account-columns.tsx';
import { formatBudget } from '../components/budget.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { ChoicesFilter } from '../../../components/fields/choices-filter.tsx';


export function ClientsPage() {
  const { t } = useTranslation();
  const list = useSavedList(CLIENT_LIST);
  const [filter, setFilter] = useSavedFilter(CLIENT_FILTER);
  const [lastName] = useDebouncedValue(filter.lastName, SEARCH_DEBOUNCE_MS);
  const q = useQuery(clientsQuery({ ...filter, lastName }, list[0]));
  const lists = q.data?.filterLists;
  const change = (patch: Partial<TClientFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_CLIENT_FILTER);

  const serviceOptions = [
    { value: '0', label: t('accounts.ui.clients.allServices') },
    ...(lists?.serviceList ?? []).filter((o) => String(o.value) !== '0').map((o) => ({ value: String(o.value), label: o.text })),
  ];
  const sourceOptions = (lists?.sourceList ?? []).map((o) => ({ value: String(o.value), label: o.text }));

  const columns: DataTableColumn<TClientRow>[] = [
    ...createdColumns(t),
    {
      accessor: 'name',
      title: t('accounts.ui.col.name'),
      sortable: true,
      card: 'title',
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <AccountLink id={r.id} name={r.name} />
          {r.hasNotClosedLead && (
            <Tooltip label={t('accounts.ui.clients.openLead')}>
              <IconExclamationCircle size={16} color="var(--mantine-color-red-6)" aria-label={t('accounts.ui.clients.openLead')} data-testid="open-lead" />
            </Tooltip>
          )}
        </Group>
      ),
    },
    objectsColumn(t),
    {
      accessor: 'request',
      title: t('accounts.ui.col.request'),
      sortable: true,
      noWrap: true,
      render: (r) => formatBudget(t, r.purchaseBudgetRangeMin, r.purchaseBudgetRangeMax),
    },
    ...modifiedColumns(t),
  ];
  const add = (
    <Button component={Link} to="/Accounts/AddClient" leftSection={<IconPlus size={16} />} data-testid="clients-add">
      {t('accounts.ui.clients.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.clients')} count={q.data?.totalRows} testId="clients">
        {add}
      </ListHeader>
      <FilterCard active={filtered} testId="clients-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <Select
              label={t('accounts.ui.clients.service')}
              data={serviceOptions}
              value={String(filter.serviceFilter)}
              allowDeselect={false}
              onChange={(v) => change({ serviceFilter: Number(v ?? 0) })}
              data-testid="clients-filter-service"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <ChoicesFilter
              loaded={lists !== undefined}
              label={t('accounts.ui.clients.sources')}
              placeholder={filter.sources.length ? undefined : t('accounts.ui.clients.allSources')}
              data={sourceOptions}
              value={filter.sources.map(String)}
              onChange={(v) => change({ sources: v.map(Number) })}
              searchable
              clearable
              data-testid="clients-filter-sources"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DateField label={t('accounts.ui.clients.startDate')} value={filter.startDate} onChange={(v) => change({ startDate: v })} data-testid="clients-filter-start" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DateField label={t('accounts.ui.clients.endDate')} value={filter.endDate} onChange={(v) => change({ endDate: v })} data-testid="clients-filter-end" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8, lg: 'auto' }}>
            <TextInput
              label={t('accounts.ui.clients.lastName')}
              value={filter.lastName}
              onChange={(e) => change({ lastName: e.currentTarget.value })}
              data-testid="clients-filter-lastname"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4, lg: 'content' }}>
            <ClearFiltersButton fullWidth disabled={!filtered} onClear={() => change(NO_CLIENT_FILTER)} data-testid="clients-filter-clear" />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="clients-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={
          filtered
            ? {
                text: t('accounts.ui.clients.noMatch'),
                action: <ClearFiltersButton variant="light" onClear={() => change(NO_CLIENT_FILTER)} />,
              }
            : { text: t('accounts.ui.clients.empty'), action: add }
        }
      />
    </Stack>
  );
}
