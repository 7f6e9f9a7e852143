import { Badge, Button, Grid, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TPartnerRow } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { FilterCard } from '../../../components/filter-card.tsx';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { useSavedFilter, useSavedList } from '../../../lib/list-state.ts';
import { NO_PARTNER_FILTER, PARTNER_FILTER, PARTNER_LIST, partnersQuery, type TPartnerFilter } from '../api/account-lists.ts';
import { AccountPicker } from '../../../components/account-picker.tsx';
import { createdColumns, modifiedColumns, nameColumn } from '../../../components/account-columns.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';


export function PartnersPage() {
  const { t } = useTranslation();
  const list = useSavedList(PARTNER_LIST);
  const [filter, setFilter] = useSavedFilter(PARTNER_FILTER);
  const [country] = useDebouncedValue(filter.country, SEARCH_DEBOUNCE_MS);
  const q = useQuery(partnersQuery({ ...filter, country }, list[0]));
  const change = (patch: Partial<TPartnerFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_PARTNER_FILTER);

  const columns: DataTableColumn<TPartnerRow>[] = [
    ...createdColumns(t),
    nameColumn(t),
    {
      accessor: 'category',
      title: t('accounts.ui.col.category'),
      render: (r) => (
        <Group gap={4}>
          {r.isPartnerRealEstate && (
            <Badge variant="light" size="sm" tt="none">
              {t('accounts.ui.partner.realEstate')}
            </Badge>
          )}
          {r.isPartnerTourism && (
            <Badge variant="light" color="teal" c="teal.9" bg="teal.0" size="sm" tt="none">
              {t('accounts.ui.partner.tourism')}
            </Badge>
          )}
        </Group>
      ),
    },
    { accessor: 'country', title: t('accounts.ui.col.country') },
    ...modifiedColumns(t),
  ];
  const add = (
    <Button component={Link} to="/Accounts/AddPartner" leftSection={<IconPlus size={16} />} data-testid="partners-add">
      {t('accounts.ui.partners.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.partners')} count={q.data?.totalRows} testId="partners">
        {add}
      </ListHeader>
      <FilterCard active={filtered} testId="partners-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <AccountPicker
              key={filter.createdBy ?? 'none'}
              label={t('accounts.ui.col.createdBy')}
              filter={1}
              value={filter.createdBy != null ? { id: filter.createdBy, text: filter.createdByText } : null}
              onChange={(v) => change({ createdBy: v?.id ?? null, createdByText: v?.text ?? '' })}
              testId="partners-filter-createdby"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput label={t('accounts.ui.col.country')} value={filter.country} onChange={(e) => change({ country: e.currentTarget.value })} data-testid="partners-filter-country" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DateField label={t('accounts.ui.partners.createdFrom')} value={filter.createdOnStart} onChange={(v) => change({ createdOnStart: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DateField label={t('accounts.ui.partners.createdTo')} value={filter.createdOnEnd} onChange={(v) => change({ createdOnEnd: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 'auto' }}>
            <ClearFiltersButton fullWidth disabled={!filtered} onClear={() => change(NO_PARTNER_FILTER)} />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="partners-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        empty={
          filtered
            ? {
                text: t('accounts.ui.partners.noMatch'),
                action: <ClearFiltersButton variant="light" onClear={() => change(NO_PARTNER_FILTER)} />,
              }
            : { text: t('accounts.ui.partners.empty'), action: add }
        }
      />
    </Stack>
  );
}
