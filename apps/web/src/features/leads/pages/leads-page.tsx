import { Anchor, Badge, Button, Grid, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TLeadRow } from '@crm/contract';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { FilterCard } from '../../../components/filter-card.tsx';
import { DataTable, ListHeader, type DataTableColumn } from '../../../components/data-table.tsx';
import { IconPlus } from '../../../components/icons.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSavedFilter, useSavedList } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { DecimalField } from '../../../components/fields/decimal-field.tsx';
import { LEAD_FILTER, LEAD_LIST, NO_LEAD_FILTER, leadsQuery, type TLeadFilter } from '../api/leads.ts';
import { ChoicesFilter } from '../../../components/fields/choices-filter.tsx';
import { SearchPicker } from '../../../components/search-picker.tsx';
import { searchEmployees } from '../../../lib/pickers.ts';

/** Page sizes of the leads list (spec: 5, 20, 100; default 20). */
const PAGE_SIZES = [5, 20, 100] as const;
const CLOSED = new Set([6, 7]);

/** /Leads: the client demands, filtered as the spec lists; filters and page kept in cookies. */
export function LeadsPage() {
  const { t } = useTranslation();
  const list = useSavedList(LEAD_LIST);
  const [filter, setFilter] = useSavedFilter(LEAD_FILTER);
  const [lastName] = useDebouncedValue(filter.lastName, SEARCH_DEBOUNCE_MS);
  const q = useQuery(leadsQuery({ ...filter, lastName }, list[0]));
  const options = q.data?.options;
  const change = (patch: Partial<TLeadFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_LEAD_FILTER);
  const toData = (o: { value: string | number; text: string }[] | undefined) => (o ?? []).map((x) => ({ value: String(x.value), label: x.text }));
  const stageText = new Map((options?.stageList ?? []).map((o) => [Number(o.value), o.text]));
  const priorityText = new Map((options?.priorityList ?? []).map((o) => [Number(o.value), o.text]));

  const columns: DataTableColumn<TLeadRow>[] = [
    {
      accessor: 'createdOn',
      title: t('leads.ui.col.created'),
      sortable: true,
      noWrap: true,
      render: (r) => formatDateTime(r.createdOn),
    },
    {
      accessor: 'name',
      title: t('leads.ui.col.name'),
      sortable: true,
      card: 'title',
      render: (r) => (
        <Anchor component={Link} to={`/Leads/View/${r.id}`} data-testid="lead-link">
          {r.name}
        </Anchor>
      ),
    },
    { accessor: 'type', title: t('leads.ui.col.type'), render: (r) => t(`leads.type.${r.type}`) },
    { accessor: 'budgetRange', title: t('leads.ui.col.budget'), noWrap: true, render: (r) => r.budgetRange },
    {
      accessor: 'stage',
      title: t('leads.ui.col.stage'),
      sortable: true,
      render: (r) =>
        r.stage == null ? '' : (
          <Badge variant="light" color={CLOSED.has(r.stage) ? 'gray' : 'blue'}>
            {stageText.get(r.stage) ?? r.stage}
          </Badge>
        ),
    },
    { accessor: 'priority', title: t('leads.ui.col.priority'), sortable: true, render: (r) => (r.priority == null ? '' : (priorityText.get(r.priority) ?? r.priority)) },
  ];
  const add = (
    <Button component={Link} to="/Leads/Add" leftSection={<IconPlus size={16} />} data-testid="leads-add">
      {t('leads.ui.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.leads')} count={q.data?.totalRows} testId="leads">
        {add}
      </ListHeader>
      <FilterCard active={filtered} testId="leads-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <Select
              label={t('leads.ui.filter.service')}
              data={toData(options?.serviceList)}
              value={String(filter.service)}
              allowDeselect={false}
              onChange={(v) => change({ service: Number(v ?? 0) })}
              data-testid="leads-filter-service"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <ChoicesFilter
              loaded={options !== undefined}
              label={t('leads.ui.filter.sources')}
              placeholder={filter.sources.length ? undefined : t('leads.ui.filter.all')}
              data={toData(options?.sourceList)}
              value={filter.sources.map(String)}
              onChange={(v) => change({ sources: v.map(Number) })}
              searchable
              clearable
              data-testid="leads-filter-sources"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <MultiSelect
              label={t('leads.ui.filter.stages')}
              placeholder={filter.stages.length ? undefined : t('leads.ui.filter.all')}
              data={toData(options?.stageList)}
              value={filter.stages.map(String)}
              onChange={(v) => change({ stages: v.map(Number) })}
              clearable
              data-testid="leads-filter-stages"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <SearchPicker
              label={t('leads.ui.filter.agent')}
              value={filter.agentId ? { id: filter.agentId, text: filter.agentText } : null}
              onChange={(v) => change({ agentId: v?.id ?? null, agentText: v?.text ?? '' })}
              search={searchEmployees}
              queryKey="employee"
              testId="leads-filter-agent"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <MultiSelect
              label={t('leads.ui.filter.priorities')}
              placeholder={filter.priorities.length ? undefined : t('leads.ui.filter.all')}
              data={toData(options?.priorityList)}
              value={filter.priorities.map(String)}
              onChange={(v) => change({ priorities: v.map(Number) })}
              clearable
              data-testid="leads-filter-priorities"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DateField label={t('leads.ui.filter.startDate')} value={filter.startDate} onChange={(v) => change({ startDate: v })} data-testid="leads-filter-start" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DateField label={t('leads.ui.filter.endDate')} value={filter.endDate} onChange={(v) => change({ endDate: v })} data-testid="leads-filter-end" />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DecimalField
              label={t('leads.ui.filter.budgetMin')}
              value={filter.budgetRangeMin ?? ''}
              onChange={(v) => change({ budgetRangeMin: v === '' ? null : v })}
              scale={0}
              unit="€"
              data-testid="leads-filter-budget-min"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, lg: 2 }}>
            <DecimalField
              label={t('leads.ui.filter.budgetMax')}
              value={filter.budgetRangeMax ?? ''}
              onChange={(v) => change({ budgetRangeMax: v === '' ? null : v })}
              scale={0}
              unit="€"
              data-testid="leads-filter-budget-max"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8, lg: 'auto' }}>
            <TextInput
              label={t('leads.ui.filter.lastName')}
              value={filter.lastName}
              onChange={(e) => change({ lastName: e.currentTarget.value })}
              data-testid="leads-filter-lastname"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4, lg: 'content' }}>
            <ClearFiltersButton fullWidth disabled={!filtered} onClear={() => change(NO_LEAD_FILTER)} data-testid="leads-filter-clear" />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="leads-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={PAGE_SIZES}
        empty={
          filtered
            ? { text: t('leads.ui.noMatch'), action: <ClearFiltersButton variant="light" onClear={() => change(NO_LEAD_FILTER)} /> }
            : { text: t('leads.ui.empty'), action: add }
        }
      />
    </Stack>
  );
}
