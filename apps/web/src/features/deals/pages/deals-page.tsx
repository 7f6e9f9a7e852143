import { Anchor, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Fragment } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import type { TDealRow } from '@crm/contract';
import { DEAL_FIELDS, DEAL_LIST_PARTIES, DEAL_RELATION, dealTextKey } from '@crm/contract/deal-fields';
import { formatFieldValue } from '../../../components/fields/field-values.ts';
import { type DataTableColumn, NOT_WIDE_SCREEN, WIDE_SCREEN } from '../../../components/data-table.tsx';
import { TotalsCard } from '../../../components/totals-card.tsx';
import { ListScreen } from '../../../kit/list-screen.tsx';
import { IconLayoutKanban } from '../icons.ts';
import { formatDate, formatMoney2 } from '../../../lib/format.ts';
import { DEALS, downloadDeals, type TDealListFilter } from '../api/deals.ts';
import { partyRelationText } from '../party-relation.ts';
import './deals.css';
import { searchEmployees } from '../../../lib/pickers.ts';
import { ACCOUNT, DEAL, OBJECT, href } from '@crm/contract/resources';
import { editColumn } from '../../../kit/edit-column.tsx';
import { moreColumn } from '../../../kit/more-columns.ts';


/** A deal as its card names it: the type, then the property's reference number and place. */
const cardHeading = (r: TDealRow) =>
  [r.type, r.objectReferenceNumber ? [`#${r.objectReferenceNumber}`, r.objectPlace].filter(Boolean).join(' ') : null].filter(Boolean).join(' · ');

const money = (n: number | null) => (n == null ? '' : formatMoney2(n).replace(/,00(?=\u00a0€)/, ''));

/** The three specialists' columns, shown apart on a wide screen only. */
const SPECIALISTS: readonly (typeof DEAL_LIST_PARTIES)[number][] = ['lawer', 'notary', 'civilEngeneer'];

/** /Deals: the deals with the spec's filters (kept in a cookie; the page goes back to 1 on a change). */
export function DealsPage() {
  const { t } = useTranslation();
  return (
    <ListScreen
      {...DEALS}
      views={[{ to: '/Deals/Board', icon: IconLayoutKanban, label: t('deals.ui.board'), testId: 'deals-board-link' }]}
      download={{ label: t('deals.sums.download'), testId: 'deals-download', run: (filter, page) => downloadDeals(filter, { sortBy: page.sortBy, sortDir: page.sortDir }) }}
      rowClassName={(r) => `deal-row ${r.rowClass}`}
      fields={({ answer, filter }) => [
        { kind: 'select', name: 'dealType', label: t('deals.ui.filter.type'), options: [{ value: 0, text: t('deals.ui.filter.allTypes') }, ...(answer?.options.types ?? [])], numeric: true, testId: 'deals-filter-type' },
        { kind: 'multi', name: 'stages', label: t('deals.ui.filter.stages'), options: answer?.options.stages, allLabel: t('leads.ui.filter.all') },
        { kind: 'picker', name: 'agentId', textName: 'agentText', label: t('deals.ui.filter.agent'), search: searchEmployees, queryKey: 'employee', testId: 'deals-filter-agent' },
        { kind: 'text', name: 'lastName', label: t('deals.ui.filter.lastName'), testId: 'deals-filter-name', span: { base: 12, sm: 6, lg: 3 } },
        { kind: 'text', name: 'object', label: t('deals.ui.filter.object'), placeholder: t('deals.ui.filter.objectPlaceholder') },
        { kind: 'date', name: 'depositFrom', label: t(dealTextKey('deals.ui.filter.depositFrom', filter.dealType)) },
        { kind: 'date', name: 'depositTill', label: t(dealTextKey('deals.ui.filter.depositTill', filter.dealType)) },
        { kind: 'date', name: 'endDateFrom', label: t('deals.ui.filter.endFrom') },
        { kind: 'date', name: 'endDateTill', label: t('deals.ui.filter.endTill') },
      ]}
      columns={({ filter }) => dealColumns(t, filter)}
      more={{ label: (key) => t(`fields.deal.${key}`), column: (key) => dealMoreColumn(t, key) }}
      after={({ answer }) =>
        answer && answer.totalRows > 0 ? (
          <TotalsCard
            title={t('deals.sums.title', { count: answer.totalRows })}
            totals={[
              { key: 'sales', label: t('deals.sums.sales', { count: answer.sums.saleCount }), amount: answer.sums.saleTotal },
              { key: 'rentals', label: t('deals.sums.rentals', { count: answer.sums.rentCount }), amount: answer.sums.rentTotal },
              { key: 'commission', label: t('fields.deal.commission'), amount: answer.sums.commission },
            ]}
            // The count above keeps them; the money does not (a cancelled deal earns nothing).
            note={answer.sumsWithCancelled ? null : t('deals.sums.noCancelled')}
            cols={{ base: 1, xs: 3 }}
            testId="deals-sums"
            sumTestId={(k) => `deals-sum-${k}`}
          />
        ) : null
      }
    />
  );
}

/** A further column of the list (DEAL_MORE_COLUMNS): the field's value as the deal's view writes it, an amount as the price column does. */
function dealMoreColumn(t: TFunction, key: string): DataTableColumn<TDealRow> {
  const d = DEAL_FIELDS.find((x) => x.name === key)!;
  return moreColumn(d, t(`fields.deal.${key}`), (v) => (d.type === 'currency' ? money(v == null ? null : Number(v)) : formatFieldValue(d.type, v, t)));
}

/** The list's columns; the parties' roles are named by the type the filter shows. */
function dealColumns(t: TFunction, filter: TDealListFilter): DataTableColumn<TDealRow>[] {
  type PartyKey = (typeof DEAL_LIST_PARTIES)[number];
  const links = (r: TDealRow, key: PartyKey) =>
    r.parties
      .filter((p) => p.relation === DEAL_RELATION[key])
      .map((p, i) => (
        <Fragment key={p.accountId}>
          {i > 0 && ', '}
          <Anchor component={Link} to={href(ACCOUNT.screens.view, { id: p.accountId })} data-testid={`deal-${key}`}>
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
  return [
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
          <Anchor component={Link} to={href(DEAL.screens.view, { id: r.id })} data-testid="deal-link">
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
          <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.objectId })}>
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
    editColumn(t('deals.ui.col.edit'), (r) => href(DEAL.screens.edit, { id: r.id }), (r) => t('deals.ui.editOne', { id: r.id })),
  ];
}
