import { Button, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '@crm/contract/constants';
import { ClearFiltersButton } from '../components/clear-filters.tsx';
import { DataTable, ListHeader, type DataTableColumn } from '../components/data-table.tsx';
import { DownloadButton } from '../components/download-button.tsx';
import { FilterCard } from '../components/filter-card.tsx';
import { IconPlus } from '../components/icons.ts';
import { useSavedFilter, useSavedList, type ListState, type SavedFilter, type SavedList } from '../lib/list-state.ts';
import { FilterFields, type FilterField } from './filter-fields.tsx';

/** A list's answer: a page of rows and how many there are in all (and whatever else the call answers). */
export type ListAnswer<R> = { items: R[]; totalRows: number };

/** What a list screen's parts are drawn from: the answer (its options, sums), the filter, and a change of it. */
export type ListContext<F, A> = { answer: A | undefined; filter: F; change: (patch: Partial<F>) => void };

export type ListScreenProps<R, F extends Record<string, unknown>, A extends ListAnswer<R>> = {
  /** The list's test id: the header's count, the filter card, the table (`${testId}-table`). */
  testId: string;
  title: string;
  /** The page, page size and sort, and the filter (where the list has one): each in its cookie (the spec's names). */
  saved: { list: SavedList; filter?: SavedFilter<F> };
  /** The paging and sort as the screen keeps them itself, where the spec gives them cookies of their own (the properties). */
  listState?: ListStateOf;
  /** The filter's texts typed into a box: asked for once typing stops. */
  debounced?: (keyof F & string)[];
  /** The call of a page of the list for a filter (the same the route's loader asks while the code loads). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each list's own key
  query: (filter: F, page: ListState) => UseQueryOptions<A, Error, A, any>;
  fields?: (c: ListContext<F, A>) => FilterField<F>[];
  columns: (c: ListContext<F, A>) => DataTableColumn<R>[];
  pageSizes?: readonly number[];
  /** The next action of an empty list, and the header's main button (`emptyTestId`: the empty list's own, where it differs). */
  add?: { to: string; label: string; testId?: string; emptyTestId?: string };
  /** Buttons before "Add" (the board, the calendar). */
  actions?: ReactNode;
  /** The list's file, made from its filter and order (Deals.xlsx); there is none of an empty list. */
  download?: { label: string; testId: string; run: (filter: F, page: ListState) => Promise<void> };
  /** What stands between the filters and the table, and under the table (the totals of what the filter matched). */
  between?: (c: ListContext<F, A>) => ReactNode;
  after?: (c: ListContext<F, A>) => ReactNode;
  empty: { none: string; noMatch: string };
  rowClassName?: (row: R) => string | undefined;
  idAccessor?: keyof R;
  /** A row opens its record wherever it is clicked (the alerts). */
  onRowClick?: (row: R) => void;
  /** Rows ticked for an action (merge two accounts). */
  selection?: { selected: R[]; onChange: (rows: R[]) => void };
  /** What the screen adds under its list (a dialog of its own). */
  children?: ReactNode;
};

type ListStateOf = [ListState, (next: ListState | ((prev: ListState) => ListState)) => void];

/** A list without filters keeps no filter cookie: this one is never written. */
const NO_FILTER: SavedFilter<Record<string, unknown>> = { cookie: 'NoFilter', initial: {} };

/**
 * A list screen from its declaration (decision 057): the header with the count and the actions, the
 * filter card (its fields, Clear filters; folded away on a phone), the table with its sorting, pager
 * and page sizes (cards on a phone), and an empty state that offers the next action. The filter and
 * the page are kept in cookies; any change of the filter goes back to page 1.
 */
export function ListScreen<R, F extends Record<string, unknown>, A extends ListAnswer<R>>(p: ListScreenProps<R, F, A>) {
  const kept = useSavedList(p.saved.list);
  const list = p.listState ?? kept;
  const [filter, setFilter] = useSavedFilter((p.saved.filter ?? NO_FILTER) as SavedFilter<F>);
  const typed = useDebouncedFields(filter, p.debounced ?? []);
  const q = useQuery(p.query(typed, list[0]));
  const change = (patch: Partial<F>) => {
    setFilter((f) => ({ ...f, ...patch }));
    list[1]((s) => ({ ...s, currentPage: 1 }));
  };
  const initial = (p.saved.filter ?? NO_FILTER).initial as F;
  const filtered = JSON.stringify(filter) !== JSON.stringify(initial);
  const clear = () => change(initial);
  const c: ListContext<F, A> = { answer: q.data, filter, change };
  const addButton = (testId?: string) =>
    p.add ? (
      <Button component={Link} to={p.add.to} leftSection={<IconPlus size={16} />} data-testid={testId ?? p.add.testId ?? `${p.testId}-add`}>
        {p.add.label}
      </Button>
    ) : null;
  const add = addButton();
  const fields = p.fields?.(c);
  return (
    <Stack gap="md" data-testid={`${p.testId}-page`}>
      <ListHeader title={p.title} count={q.data?.totalRows} testId={p.testId}>
        {p.actions}
        {p.download && <DownloadButton label={p.download.label} testId={p.download.testId} disabled={!q.data?.totalRows} download={() => p.download!.run(typed, list[0])} />}
        {add}
      </ListHeader>
      {fields && (
        <FilterCard active={filtered} testId={`${p.testId}-filter`}>
          <FilterFields fields={fields} filter={filter} change={change} filtered={filtered} onClear={clear} testId={`${p.testId}-filter`} />
        </FilterCard>
      )}
      {p.between?.(c)}
      <DataTable
        testId={`${p.testId}-table`}
        list={list}
        records={q.data?.items}
        totalRows={q.data?.totalRows}
        fetching={q.isFetching}
        columns={p.columns(c)}
        pageSizes={p.pageSizes}
        rowClassName={p.rowClassName}
        idAccessor={p.idAccessor}
        selection={p.selection}
        onRowClick={p.onRowClick}
        empty={filtered ? { text: p.empty.noMatch, action: <ClearFiltersButton variant="light" onClear={clear} /> } : { text: p.empty.none, action: addButton(p.add?.emptyTestId) ?? undefined }}
      />
      {p.after?.(c)}
      {p.children}
    </Stack>
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
