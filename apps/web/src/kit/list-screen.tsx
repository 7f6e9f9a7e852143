import { Button, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { href } from '@crm/contract/resources';
import { ClearFiltersButton } from '../components/clear-filters.tsx';
import { DataTable, ListHeader, type DataTableColumn } from '../components/data-table.tsx';
import { DownloadButton } from '../components/download-button.tsx';
import { FilterCard } from '../components/filter-card.tsx';
import { IconPlus } from '../components/icons.ts';
import { useTranslation } from '../lib/use-translation.tsx';
import { useSavedFilter, useSavedList, type ListState, type SavedFilter, type SavedList } from '../lib/list-state.ts';
import { FilterFields, type FilterField } from './filter-fields.tsx';
import { NO_FILTER, NO_LIST, type ListSource } from './list-source.ts';
import { ColumnChooser, useChosenColumns, useMoreColumns, type MoreColumns } from './column-chooser.tsx';
import { moreColumnOptions } from './more-columns.ts';

/** A list's answer: a page of rows and how many there are in all (and whatever else the call answers). */
export type ListAnswer<R> = { items: R[]; totalRows: number };
/** A list's row, as its answer gives it. */
export type RowOf<A extends ListAnswer<unknown>> = A['items'][number];

/** What a list screen's parts are drawn from: the answer (its options, sums), the filter, and a change of it. */
export type ListContext<F, A> = { answer: A | undefined; filter: F; change: (patch: Partial<F>) => void };

/** A list's page, page size and sort, and their change (as `useSavedList` answers them). */
export type ListTuple = [ListState, (next: ListState | ((prev: ListState) => ListState)) => void];
/** A filter the screen keeps itself (in a cookie of another shape, or beside more of its own): its value and change, and where it starts. */
export type HeldFilter<F> = { held: readonly [F, (next: F | ((prev: F) => F)) => void]; initial: F };

/**
 * A list screen's props: its source (ListSource: the list its resource declares, its cookies, its
 * typed boxes and its call), spread in, and what the screen declares itself.
 */
export type ListScreenProps<R, F extends Record<string, unknown>, A extends ListAnswer<R>> = Omit<ListSource<F, A>, 'saved'> & {
  /**
   * The page, page size and sort, and the filter (where the list has one): each in its cookie (the
   * spec's names), or a filter held by the screen where its cookie is of its own shape (payments).
   */
  saved?: { list?: SavedList; filter?: SavedFilter<F> | HeldFilter<F> };
  /** The paging and sort as the screen keeps them itself, where the spec gives them cookies of their own (the properties, the keys). */
  listState?: ListTuple;
  /**
   * The further columns the source offers (`offered`): their labels, and each column, shown before
   * the row's actions.
   */
  more?: { label: (key: string) => string; column: (key: string) => DataTableColumn<R> };
  fields?: (c: ListContext<F, A>) => FilterField<F>[];
  columns: (c: ListContext<F, A>) => DataTableColumn<R>[];
  /** false: the user may not add to this list (the declared Add is not shown). */
  addTo?: false;
  /** The same records seen another way (the board, the calendar, the availability, the search): a button each, before the actions. */
  views?: { to: string; icon: ComponentType<{ size?: number }>; label: string; testId?: string }[];
  /** Buttons before "Add", or what the answer says beside the count. */
  actions?: ReactNode | ((c: ListContext<F, A>) => ReactNode);
  /** The list's file, made from its filter and order (Deals.xlsx); there is none of an empty list. */
  download?: { label: string; testId: string; run: (filter: F, page: ListState) => Promise<void> };
  /** What stands between the filters and the table, and under the table (the totals of what the filter matched). */
  between?: (c: ListContext<F, A>) => ReactNode;
  after?: (c: ListContext<F, A>) => ReactNode;
  /** What an empty list says when nothing matches the filter (as asked: typing settled), where it names the filter. */
  noMatch?: (filter: F) => string;
  rowClassName?: (row: R) => string | undefined;
  idAccessor?: keyof R;
  /** A row opens its record wherever it is clicked (the alerts). */
  onRowClick?: (row: R) => void;
  /** Rows ticked for an action (merge two accounts). */
  selection?: { selected: R[]; onChange: (rows: R[]) => void };
  /** The test id of the filter card's "Clear filters" (`${testId}-filter-clear` unless a field's own clear button has it). */
  clearTestId?: string;
  /** What the screen adds under its list (a dialog of its own). */
  children?: ReactNode;
};

const NONE: readonly string[] = [];

/**
 * A list screen from its declaration (decision 057): the header with the count and the actions, the
 * filter card (its fields, Clear filters; folded away on a phone), the table with its sorting, pager
 * and page sizes (cards on a phone), and an empty state that offers the next action. The filter and
 * the page are kept in cookies; any change of the filter goes back to page 1.
 */
export function ListScreen<F extends Record<string, unknown>, A extends ListAnswer<unknown>>({ list: declared, addTo, noMatch, first: _loaders, ...p }: ListScreenProps<RowOf<A>, F, A>) {
  const { t } = useTranslation();
  const testId = declared.testId;
  const kept = useSavedList(p.saved?.list ?? NO_LIST);
  const list = p.listState ?? kept;
  const given = p.saved?.filter ?? (NO_FILTER as SavedFilter<F>);
  const held = 'held' in given ? given : null;
  const keptFilter = useSavedFilter(held ? (NO_FILTER as SavedFilter<F>) : (given as SavedFilter<F>));
  const [filter, setFilter] = held ? held.held : keptFilter;
  const typed = useDebouncedFields(filter, p.debounced ?? []);
  const further = useMoreColumns(testId, p.offered ?? NONE);
  const q = useQuery(p.query(typed, list[0], further.chosen));
  const change = (patch: Partial<F>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const c: ListContext<F, A> = { answer: q.data, filter, change };
  const chosen = useChosenColumns(testId);
  const own = p.columns(c);
  const actions = own.findIndex((col) => col.card === 'action');
  const columns = p.more ? [...own.slice(0, actions < 0 ? own.length : actions), ...further.chosen.map(p.more.column), ...(actions < 0 ? [] : own.slice(actions))] : own;
  const more: MoreColumns | undefined = p.more && { ...further, options: moreColumnOptions(p.offered ?? NONE, p.more.label) };
  const declaredAdd = addTo === false ? undefined : declared.add;
  const addButton = (id?: string) =>
    declaredAdd ? (
      <Button component={Link} to={href(declaredAdd.to)} leftSection={<IconPlus size={16} />} data-testid={id ?? declaredAdd.testId ?? `${testId}-add`}>
        {t(declaredAdd.label)}
      </Button>
    ) : null;
  const add = addButton();
  const empty = { none: t(declared.empty), noMatch: noMatch ?? t(declared.noMatch ?? declared.empty) };
  return (
    <Stack gap="md" data-testid={`${testId}-page`}>
      <ListHeader title={t(declared.title)} count={q.data?.totalRows} testId={testId}>
        {p.views?.map((v) => (
          <Button key={v.to} component={Link} to={v.to} variant="default" leftSection={<v.icon size={16} />} data-testid={v.testId}>
            {v.label}
          </Button>
        ))}
        {typeof p.actions === 'function' ? p.actions(c) : p.actions}
        <ColumnChooser columns={columns} hidden={chosen.hidden} setHidden={chosen.setHidden} testId={testId} more={more} />
        {p.download && <DownloadButton label={p.download.label} testId={p.download.testId} disabled={!q.data?.totalRows} download={() => p.download!.run(typed, list[0])} />}
        {add}
      </ListHeader>
      <ListBody {...p} columns={() => chosen.shown(columns)} list={list} q={q} filter={filter} typed={typed} change={change} initial={(held ?? (given as SavedFilter<F>)).initial} testId={testId} empty={empty} addButton={declaredAdd?.emptyTestId ? addButton(declaredAdd.emptyTestId) : add} />
      {p.children}
    </Stack>
  );
}

export type ListBodyProps<R, F extends Record<string, unknown>, A extends ListAnswer<R>> = Pick<
  ListScreenProps<R, F, A>,
  'fields' | 'columns' | 'pageSizes' | 'between' | 'after' | 'rowClassName' | 'idAccessor' | 'selection' | 'clearTestId' | 'onRowClick'
> & {
  /** The list's test id: the filter card, the table (`${testId}-table`). */
  testId: string;
  /** What an empty list says: none at all, or none matching the filter (as asked: typing settled). */
  empty: { none: string; noMatch: string | ((filter: F) => string) };
  list: ListTuple;
  /** The list's answer and whether a page is on its way. */
  q: { data: A | undefined; isFetching: boolean };
  filter: F;
  /** The filter as it was asked for (typing settled): what "nothing matches" names. */
  typed?: F;
  change: (patch: Partial<F>) => void;
  /** The filter's start: another is "filtered", and Clear filters goes back to it. */
  initial: F;
  /** The next action of a list with no rows at all. */
  addButton?: ReactNode;
};

/**
 * A list's filter card, what stands between it and the table, the table with its empty state, and
 * what is under it: the body of a list screen, for a screen that holds its list's state and answer
 * itself (an account's statement, headed by the account and its totals).
 */
export function ListBody<R, F extends Record<string, unknown>, A extends ListAnswer<R>>(p: ListBodyProps<R, F, A>) {
  const { filter, change, initial } = p;
  const filtered = JSON.stringify(filter) !== JSON.stringify(initial);
  const clear = () => change(initial);
  const c: ListContext<F, A> = { answer: p.q.data, filter, change };
  const fields = p.fields?.(c);
  const noMatch = typeof p.empty.noMatch === 'function' ? p.empty.noMatch(p.typed ?? filter) : p.empty.noMatch;
  return (
    <>
      {fields && (
        <FilterCard active={filtered} testId={`${p.testId}-filter`}>
          <FilterFields fields={fields} filter={filter} change={change} filtered={filtered} onClear={clear} testId={`${p.testId}-filter`} clearTestId={p.clearTestId} />
        </FilterCard>
      )}
      {p.between?.(c)}
      <DataTable
        testId={`${p.testId}-table`}
        list={p.list}
        records={p.q.data?.items}
        totalRows={p.q.data?.totalRows}
        fetching={p.q.isFetching}
        columns={p.columns(c)}
        pageSizes={p.pageSizes}
        rowClassName={p.rowClassName}
        idAccessor={p.idAccessor}
        selection={p.selection}
        onRowClick={p.onRowClick}
        empty={filtered ? { text: noMatch, action: <ClearFiltersButton variant="light" onClear={clear} /> } : { text: p.empty.none, action: p.addButton ?? undefined }}
      />
      {p.after?.(c)}
    </>
  );
}

/** The filter with its typed texts as they stood when typing stopped (one debounce for them all). */
export function useDebouncedFields<F extends Record<string, unknown>>(filter: F, names: (keyof F & string)[]): F {
  const texts = JSON.stringify(names.map((n) => filter[n]));
  const [settled] = useDebouncedValue(texts, SEARCH_DEBOUNCE_MS);
  if (!names.length) return filter;
  const values = JSON.parse(settled) as unknown[];
  return { ...filter, ...Object.fromEntries(names.map((n, i) => [n, values[i]])) };
}
