import { ActionIcon, Anchor, Button, Grid, MultiSelect, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TDealRow } from '@crm/contract';
import { DEAL_LIST_PARTIES, DEAL_RELATION, dealTextKey } from '@crm/contract/deal-fields';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { FilterCard } from '../../../components/filter-card.tsx';
import { DataTable, ListHeader, type DataTableColumn, NOT_WIDE_SCREEN, WIDE_SCREEN } from '../../../components/data-table.tsx';
import { IconPencil, IconPlus } from '../../../components/icons.ts';
import { DownloadButton } from '../../../components/download-button.tsx';
import { SearchPicker } from '../../../components/search-picker.tsx';
import { TotalsCard } from '../../../components/totals-card.tsx';
import { IconLayoutKanban } from '../icons.ts';
import { formatDate, formatMoney2 } from '../../../lib/format.ts';
import { useSavedFilter, useSavedList } from '../../../lib/list-state.ts';
import { ClearFiltersButton } from '../../../components/clear-filters.tsx';
import { DateField } from '../../../components/fields/date-field.tsx';
import { DEAL_FILTER, DEAL_LIST, NO_DEAL_FILTER, dealsQuery, downloadDeals, type TDealListFilter } from '../api/deals.ts';
import { partyRelationText } from '../party-relation.ts';
import './deals.css';
import { searchEmployees } from '../../../lib/pickers.ts';

/** Page sizes of the deal list (spec: 5, 10, 20, 50, Show all; default 20). */
const PAGE_SIZES = [5, 10, 20, 50, 1000000] as const;

/** A deal as its card names it: the type, then the property's reference number and place. */
const cardHeading = (r: TDealRow) =>
  [r.type, r.objectReferenceNumber ? [`#${r.objectReferenceNumber}`, r.objectPlace].filter(Boolean).join(' ') : null].filter(Boolean).join(' · ');

const money = (n: number | null) => (n == null ? '' : formatMoney2(n).replace(/,00(?=\u00a0€)/, ''));

/** /Deals: the deals with the spec's filters (kept in a cookie; the page goes back to 1 on a change). */
/** The three specialists' columns, shown apart on a wide screen only. */
const SPECIALISTS: readonly (typeof DEAL_LIST_PARTIES)[number][] = ['lawer', 'notary', 'civilEngeneer'];

export function DealsPage() {
  const { t } = useTranslation();
  const list = useSavedList(DEAL_LIST);
  const [filter, setFilter] = useSavedFilter(DEAL_FILTER);
  const [lastName] = useDebouncedValue(filter.lastName, SEARCH_DEBOUNCE_MS);
  const [object] = useDebouncedValue(filter.object, SEARCH_DEBOUNCE_MS);
  const q = useQuery(dealsQuery({ ...filter, lastName, object }, list[0]));
  const change = (patch: Partial<TDealListFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const filtered = JSON.stringify(filter) !== JSON.stringify(NO_DEAL_FILTER);

  const toData = (o: { value: string | number; text: string }[] | undefined) => (o ?? []).map((x) => ({ value: String(x.value), label: x.text }));

  type PartyKey = (typeof DEAL_LIST_PARTIES)[number];
  const links = (r: TDealRow, key: PartyKey) =>
    r.parties
      .filter((p) => p.relation === DEAL_RELATION[key])
      .map((p, i) => (
        <Fragment key={p.accountId}>
          {i > 0 && ', '}
          <Anchor component={Link} to={`/Accounts/View/${p.accountId}`} data-testid={`deal-${key}`}>
            {p.account}
          </Anchor>
        </Fragment>
      ));
  // The seller and buyer of a sale are the landlord and tenant of a rental (the same relations 1
  // and 2): the column says both while the list shows every type, and one when it is filtered to a
  // type; on a phone each row's card names them as its own type does.
  const role = (key: PartyKey, dealType: number | null | undefined) =>
    key === 'seller' || key === 'buyer' ? partyRelationText(t, DEAL_RELATION[key], dealType, t(`deals.relation.${DEAL_RELATION[key]}`)) : t(`deals.ui.col.${key}`);
  const party = (key: PartyKey): DataTableColumn<TDealRow> => ({
    accessor: key,
    title: role(key, filter.dealType),
    ...(key === 'seller' || key === 'buyer' ? { cardLabel: (r: TDealRow) => role(key, r.dealType) } : {}),
    render: (r) => links(r, key),
    ...(SPECIALISTS.includes(key) ? { visibleMediaQuery: WIDE_SCREEN } : {}),
  });
  // Under 1600 px the lawyer, notary and engineer share one column, each on a line under its
  // role: the list's every column then fits an office laptop's 1280 px.
  const specialists: DataTableColumn<TDealRow> = {
    accessor: 'specialists',
    title: t('deals.ui.col.specialists'),
    visibleMediaQuery: NOT_WIDE_SCREEN,
    render: (r) =>
      SPECIALISTS.filter((key) => r.parties.some((p) => p.relation === DEAL_RELATION[key])).map((key) => (
        <div key={key}>
          <Text span size="xs" c="dimmed">
            {t(`deals.ui.col.${key}`)}:{' '}
          </Text>
          {links(r, key)}
        </div>
      )),
  };
  const columns: DataTableColumn<TDealRow>[] = [
    {
      accessor: 'id',
      title: '#',
      sortable: true,
      sortKey: 'createdOn',
      card: 'title',
      // A card heads with what an agent knows the deal by, its type and property ("Πώληση · #0042
      // Γλυφάδα"), the deal's number on a line below; the table's column is the number alone.
      render: (r) => (
        <>
          <Anchor component={Link} to={`/Deals/${r.id}`} data-testid="deal-link">
            <span className="crm-table-only">{r.id}</span>
            <span className="crm-card-only" data-testid="deal-card-heading">
              {cardHeading(r)}
            </span>
          </Anchor>
          <Text size="xs" c="dimmed" fw={400} className="crm-card-only" data-testid="deal-card-number">
            {t('deals.ui.cardNumber', { id: r.id })}
          </Text>
        </>
      ),
    },
    { accessor: 'type', title: t('deals.ui.col.type'), card: 'title', visibleMediaQuery: WIDE_SCREEN },
    { accessor: 'stage', title: t('deals.ui.col.stage'), sortable: true, visibleMediaQuery: WIDE_SCREEN, render: (r) => r.stage },
    // Under 1600 px the type is a small line under the stage.
    {
      accessor: 'stageAndType',
      sortKey: 'stage',
      title: t('deals.ui.col.stage'),
      sortable: true,
      visibleMediaQuery: NOT_WIDE_SCREEN,
      render: (r) => (
        <>
          {r.stage}
          <Text size="xs" c="dimmed" className="crm-table-only" data-testid="deal-type">
            {r.type}
          </Text>
        </>
      ),
    },
    {
      accessor: 'objectReferenceNumber',
      title: t('deals.ui.col.object'),
      render: (r) =>
        r.objectId ? (
          <Anchor component={Link} to={`/Objects/View/${r.objectId}`}>
            #{r.objectReferenceNumber}
          </Anchor>
        ) : (
          ''
        ),
    },
    ...DEAL_LIST_PARTIES.filter((key) => key !== 'assigned').map(party),
    specialists,
    party('assigned'),
    { accessor: 'price', title: t('deals.ui.col.price'), sortable: true, noWrap: true, textAlign: 'right', render: (r) => money(r.price ?? r.askingPrice) },
    // A sale's earnest money, a rental's security deposit: named as the parties are (both while every type shows).
    {
      accessor: 'dateOfDeposit',
      title: t(dealTextKey('deals.ui.col.dateOfDeposit', filter.dealType)),
      cardLabel: (r: TDealRow) => t(dealTextKey('deals.ui.col.dateOfDeposit', r.dealType)),
      sortable: true,
      noWrap: true,
      render: (r) => formatDate(r.dateOfDeposit),
    },
    { accessor: 'endDate', title: t('deals.ui.col.endDate'), sortable: true, noWrap: true, render: (r) => formatDate(r.endDate) },
    {
      accessor: 'edit',
      title: t('deals.ui.col.edit'),
      card: 'action',
      render: (r) => (
        <ActionIcon component={Link} to={`/Deals/Edit/${r.id}`} variant="subtle" aria-label={t('deals.ui.editOne', { id: r.id })}>
          <IconPencil size={16} />
        </ActionIcon>
      ),
    },
  ];
  const add = (
    <Button component={Link} to="/Deals/Add" leftSection={<IconPlus size={16} />} data-testid="deals-add">
      {t('deals.ui.add')}
    </Button>
  );
  return (
    <Stack gap="md">
      <ListHeader title={t('title.deals')} count={q.data?.totalRows} testId="deals">
        <Button component={Link} to="/Deals/Board" variant="default" leftSection={<IconLayoutKanban size={16} />} data-testid="deals-board-link">
          {t('deals.ui.board')}
        </Button>
        <DownloadButton
          download={() => downloadDeals(filter, { sortBy: list[0].sortBy, sortDir: list[0].sortDir })}
          label={t('deals.sums.download')}
          disabled={!q.data?.totalRows}
          testId="deals-download"
        />
        {add}
      </ListHeader>
      <FilterCard active={filtered} testId="deals-filter">
        <Grid gap="sm" align="flex-end">
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <Select
              label={t('deals.ui.filter.type')}
              data={[{ value: '0', label: t('deals.ui.filter.allTypes') }, ...toData(q.data?.options.types)]}
              value={String(filter.dealType)}
              onChange={(v) => change({ dealType: Number(v ?? 0) })}
              allowDeselect={false}
              data-testid="deals-filter-type"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <MultiSelect
              label={t('deals.ui.filter.stages')}
              placeholder={filter.stages.length ? undefined : t('leads.ui.filter.all')}
              data={toData(q.data?.options.stages)}
              value={filter.stages.map(String)}
              onChange={(v) => change({ stages: v.map(Number) })}
              clearable
              data-testid="deals-filter-stages"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <SearchPicker
              label={t('deals.ui.filter.agent')}
              value={filter.agentId ? { id: filter.agentId, text: filter.agentText } : null}
              onChange={(v) => change({ agentId: v?.id ?? null, agentText: v?.text ?? '' })}
              search={searchEmployees}
              queryKey="employee"
              testId="deals-filter-agent"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
            <TextInput label={t('deals.ui.filter.lastName')} value={filter.lastName} onChange={(e) => change({ lastName: e.currentTarget.value })} data-testid="deals-filter-name" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
            <TextInput
              label={t('deals.ui.filter.object')}
              placeholder={t('deals.ui.filter.objectPlaceholder')}
              value={filter.object}
              onChange={(e) => change({ object: e.currentTarget.value })}
              data-testid="deals-filter-object"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t(dealTextKey('deals.ui.filter.depositFrom', filter.dealType))} value={filter.depositFrom} onChange={(v) => change({ depositFrom: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t(dealTextKey('deals.ui.filter.depositTill', filter.dealType))} value={filter.depositTill} onChange={(v) => change({ depositTill: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t('deals.ui.filter.endFrom')} value={filter.endDateFrom} onChange={(v) => change({ endDateFrom: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
            <DateField label={t('deals.ui.filter.endTill')} value={filter.endDateTill} onChange={(v) => change({ endDateTill: v })} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6, lg: 'content' }}>
            <ClearFiltersButton fullWidth disabled={!filtered} onClear={() => change(NO_DEAL_FILTER)} />
          </Grid.Col>
        </Grid>
      </FilterCard>
      <DataTable
        testId="deals-table"
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={columns}
        pageSizes={PAGE_SIZES}
        rowClassName={(r) => `deal-row ${r.rowClass}`}
        empty={
          filtered
            ? { text: t('deals.ui.noMatch'), action: <ClearFiltersButton variant="light" onClear={() => change(NO_DEAL_FILTER)} /> }
            : { text: t('deals.ui.empty'), action: add }
        }
      />
      {q.data && q.data.totalRows > 0 && (
        <TotalsCard
          title={t('deals.sums.title', { count: q.data.totalRows })}
          totals={[
            { key: 'sales', label: t('deals.sums.sales', { count: q.data.sums.saleCount }), amount: q.data.sums.saleTotal },
            { key: 'rentals', label: t('deals.sums.rentals', { count: q.data.sums.rentCount }), amount: q.data.sums.rentTotal },
            { key: 'commission', label: t('fields.deal.commission'), amount: q.data.sums.commission },
          ]}
          // The count above keeps them; the money does not (a cancelled deal earns nothing).
          note={q.data.sumsWithCancelled ? null : t('deals.sums.noCancelled')}
          cols={{ base: 1, xs: 3 }}
          testId="deals-sums"
          sumTestId={(k) => `deals-sum-${k}`}
        />
      )}
    </Stack>
  );
}
