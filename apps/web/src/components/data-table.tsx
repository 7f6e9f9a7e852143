import { Badge, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type Key, type ReactNode, type UIEvent } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { LIST_PAGE_SIZES } from '@crm/contract/constants';
import type { ListState } from '../lib/list-state.ts';
import { IconInbox } from './icons.ts';
import './table.css';
import { ListPager, pageCount } from './list-pager.tsx';
import { HeadRow, Row, useMediaQueries, type CellSpec, type DataTableColumn, type RowSelection } from './data-table-rows.tsx';
export type { DataTableColumn } from './data-table-rows.tsx';
export { ListPager, pageCount } from './list-pager.tsx';

/**
 * Media queries for a column's `visibleMediaQuery`: a wide screen (1600 px and more) shows columns
 * apart that narrower screens combine, so every column of a list fits an office laptop's 1280 px.
 */
export const WIDE_SCREEN = '(min-width: 100em)';
export const NOT_WIDE_SCREEN = '(max-width: 99.99em)';

/** Rows rendered at first, and added each time the user scrolls near the bottom of a long page. */
const RENDER_CHUNK = 200;

export type DataTableProps<T> = {
  /** data-testid of the table (rows get `${testId}-row`). */
  testId: string;
  /** The list's paging and sorting, remembered in a cookie (useListState). */
  list: [ListState, (next: ListState | ((prev: ListState) => ListState)) => void];
  records: T[] | undefined;
  totalRows: number | undefined;
  fetching: boolean;
  columns: DataTableColumn<T>[];
  idAccessor?: keyof T | ((record: T) => Key);
  /** Shown instead of the table when the list is empty: what it means and the next action. */
  empty: { text: string; action?: ReactNode };
  /** Select mode: a checkbox per row. */
  selection?: { selected: T[]; onChange: (rows: T[]) => void };
  /** Paging off: the answer is the whole list (e.g. a short list without server paging). */
  noPaging?: boolean;
  /** The page sizes offered (default 5, 10, 20, 50, Show all). */
  pageSizes?: readonly number[];
  /** A style class per row (e.g. from a viewing's result). */
  rowClassName?: (record: T) => string | undefined;
  /** A click on a row (keep a link in the row for keyboard users). */
  onRowClick?: (record: T) => void;
  /**
   * For tables whose rows hold nothing to focus (no link, no button): the scrolling area becomes a
   * named, focusable region, so it can be scrolled from the keyboard (WCAG 2.1.1).
   */
  scrollLabel?: string;
};

/**
 * The shared list table: server paging (page sizes 5, 10, 20, 50, Show all), sortable columns
 * (sortBy/sortDir go to the server; a column's `sortKey` names the server's sort key when it
 * differs from the accessor), a sticky header in a 70vh scroll area, loading and empty states.
 *
 * It is a plain HTML table drawn by one component per row (see decision 025): a list is on
 * nearly every screen, and a component per cell was most of what a phone rendered on its first
 * visit. A column's `visibleMediaQuery` is answered once per table, not once per cell.
 *
 * "Show all" of thousands of rows: the table renders the first 200 and adds 200 more each time
 * the user scrolls to the bottom of the 70vh area. The page stays responsive at 100k rows.
 *
 * On a phone (the list narrower than 600 px, a container query in table.css) each row is drawn as
 * a card: its title cells, then a line per cell labelled with the column's title (see a column's
 * `card`), and the header row becomes a row of sort buttons. Nothing is measured by script and the
 * desktop table is unchanged.
 */
export function DataTable<T>({ testId, list, records, totalRows, fetching, columns, idAccessor, empty, selection, noPaging, pageSizes = LIST_PAGE_SIZES, rowClassName, onRowClick, scrollLabel }: DataTableProps<T>) {
  const { t } = useTranslation();
  const [state, setState] = list;
  const { rows, shownRows, drawing, more, hasMore, onScroll } = useRenderChunks(records);

  const total = totalRows ?? rows.length;
  const perPage = state.perPage;
  const pages = pageCount(total, perPage);
  // The list shrank (a filter, a delete elsewhere): stay on a page that exists.
  useEffect(() => {
    if (totalRows !== undefined && state.currentPage > pages) setState((s) => ({ ...s, currentPage: pages }));
  }, [totalRows, pages, state.currentPage, setState]);

  const { shownColumns, cells } = useCells(columns);
  const keyOf = useMemo<(record: T) => Key>(() => {
    if (typeof idAccessor === 'function') return idAccessor;
    const field = (idAccessor ?? 'id') as keyof T;
    return (record) => record[field] as Key;
  }, [idAccessor]);
  const picked = useRowSelection(selection, keyOf, shownRows);
  const loadedEmpty = records !== undefined && rows.length === 0 && !fetching;

  return (
    <Stack gap="xs" className="crm-list" data-testid={testId} data-total={total} data-loading={fetching ? 'true' : 'false'}>
      {loadedEmpty ? (
        <EmptyList testId={testId} empty={empty} />
      ) : (
        <div className="crm-table-frame">
          <div
            className="crm-table-scroll"
            // While loading, the space the page of rows will take (up to the 70vh scroll area), so
            // nothing below jumps when they arrive.
            style={drawing ? { minHeight: `min(70vh, ${48 + Math.min(perPage, 50) * 40}px)` } : undefined}
            {...(scrollLabel ? { tabIndex: 0, role: 'region', 'aria-label': scrollLabel } : {})}
            onScroll={onScroll}
          >
            {/* The roles are spelt out: on a phone the rows are drawn as cards (display: flex), and
                some browsers drop a table's semantics once its parts are not displayed as a table. */}
            <table role="table" className="crm-table crm-table-striped" aria-busy={fetching || undefined}>
              <thead role="rowgroup"><HeadRow columns={shownColumns} list={list} selection={selection && picked} /></thead>
              <tbody role="rowgroup">
                {shownRows.map((record, index) => {
                  const key = keyOf(record);
                  return (
                    <Row
                      key={key}
                      record={record}
                      index={index}
                      cells={cells}
                      testId={`${testId}-row`}
                      className={rowClassName?.(record)}
                      onClick={onRowClick}
                      selected={picked.selectedKeys?.has(key)}
                      onSelect={picked.onSelect}
                      selectLabel={picked.onSelect ? t('table.selectRow') : undefined}
                    />
                  );
                })}
              </tbody>
            </table>
            {hasMore && <div ref={more} aria-hidden="true" className="crm-table-more" />}
          </div>
          {fetching && (
            <div className="crm-table-busy"><Loader size="sm" /></div>
          )}
        </div>
      )}
      {!noPaging && !loadedEmpty && (
        <ListPager
          testId={testId}
          total={total}
          page={state.currentPage}
          perPage={perPage}
          pageSizes={pageSizes}
          loading={records === undefined}
          onPage={(p) => setState((s) => ({ ...s, currentPage: p }))}
          onPerPage={(n) => setState((s) => ({ ...s, perPage: n, currentPage: 1 }))}
        />
      )}
    </Stack>
  );
}

/** What an empty list says, and its next action. */
function EmptyList({ testId, empty }: { testId: string; empty: DataTableProps<unknown>['empty'] }) {
  return (
    <Paper withBorder p="xl" data-testid={`${testId}-empty`}>
      <Stack align="center" gap="sm">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray"><IconInbox size={28} /></ThemeIcon>
        <Text c="dimmed" ta="center">{empty.text}</Text>
        {empty.action}
      </Stack>
    </Paper>
  );
}

/**
 * The rows drawn: the first 200, and 200 more each time the end of them comes near (the table's
 * own scroll area, or on a phone the screen's bottom).
 */
function useRenderChunks<T>(records: T[] | undefined) {
  const rows = useMemo(() => records ?? [], [records]);
  const [shown, setShown] = useState(RENDER_CHUNK);
  useEffect(() => setShown(RENDER_CHUNK), [records]);
  const visible = useMemo(() => (rows.length > shown ? rows.slice(0, shown) : rows), [rows, shown]);
  // The rows are rendered at low priority, in slices: typing in a filter or the page's other
  // updates stay quick while a page of rows (or 200 of "Show all") is drawn.
  const shownRows = useDeferredValue(visible);
  // On a phone the cards scroll with the page, not in the table's own area (table.css), so the
  // next slice is also added when the end of the rows comes near the bottom of the screen.
  const more = useRef<HTMLDivElement>(null);
  // Until the new rows are drawn, the table keeps the space they will take (nothing below moves).
  const drawing = records === undefined || shownRows !== visible;
  useEffect(() => {
    const el = more.current;
    // Not while a slice is still being drawn: the end of the rows is near only because they are not
    // there yet, and a busy phone added slice after slice (501 rows where 200 were due).
    if (!el || rows.length <= shown || drawing) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setShown((n) => n + RENDER_CHUNK), { rootMargin: '400px 0px' });
    seen.observe(el);
    return () => seen.disconnect();
  }, [rows.length, shown, drawing]);
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (rows.length > shown && el.scrollTop + el.clientHeight >= el.scrollHeight - 400) setShown((n) => n + RENDER_CHUNK);
  };
  return { rows, shownRows, drawing, more, hasMore: rows.length > shown, onScroll };
}

/** The columns shown (their media queries answered once per table) and how their cells are drawn. */
function useCells<T>(columns: DataTableColumn<T>[]) {
  const matches = useMediaQueries(useMemo(() => [...new Set(columns.flatMap((c) => (c.visibleMediaQuery ? [c.visibleMediaQuery] : [])))], [columns]));
  const shownColumns = useMemo(() => columns.filter((c) => !c.visibleMediaQuery || matches.has(c.visibleMediaQuery)), [columns, matches]);
  const cells = useMemo<CellSpec<T>[]>(() => {
    const titled = shownColumns.some((c) => c.card === 'title');
    return shownColumns.map((col, i) => {
      const card = col.card ?? (!titled && i === 0 ? 'title' : undefined);
      const label = card === 'title' || card === 'action' ? undefined : (col.cardLabel ?? (typeof col.title === 'string' ? col.title : undefined));
      return { col, card, label };
    });
  }, [shownColumns]);
  return { shownColumns, cells };
}

/** Select mode: which rows are checked, a row's check and the header's "all of this page". */
function useRowSelection<T>(selection: DataTableProps<T>['selection'], keyOf: (record: T) => Key, shownRows: T[]): RowSelection<T> {
  const selectedKeys = useMemo(() => (selection ? new Set(selection.selected.map(keyOf)) : undefined), [selection, keyOf]);
  const onSelect = useMemo(() => {
    if (!selection) return undefined;
    return (record: T, checked: boolean) => {
      const key = keyOf(record);
      const others = selection.selected.filter((r) => keyOf(r) !== key);
      selection.onChange(checked ? [...others, record] : others);
    };
  }, [selection, keyOf]);
  const allSelected = selectedKeys !== undefined && shownRows.length > 0 && shownRows.every((r) => selectedKeys.has(keyOf(r)));
  const someSelected = selectedKeys !== undefined && !allSelected && shownRows.some((r) => selectedKeys.has(keyOf(r)));
  const selectAll = (checked: boolean) => {
    if (!selection) return;
    const onPage = new Set(shownRows.map(keyOf));
    const others = selection.selected.filter((r) => !onPage.has(keyOf(r)));
    selection.onChange(checked ? [...others, ...shownRows] : others);
  };
  return { selectedKeys, onSelect, allSelected, someSelected, selectAll };
}

/** The title row of a list: title, a badge with the row count, and the list's actions. */
export function ListHeader({ title, count, children, testId }: { title: string; count: number | undefined; children?: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" align="center" gap="sm">
      <Group gap="xs" align="center">
        <Title order={2}>{title}</Title>
        <Badge size="lg" variant="light" color="gray" data-testid={testId ? `${testId}-count` : 'list-count'}>{count ?? '…'}</Badge>
      </Group>
      <Group gap="xs">{children}</Group>
    </Group>
  );
}

/** A short list its call answers whole (no server paging): the table of the query's items. */
export function WholeListTable<T>({ query, ...props }: Omit<DataTableProps<T>, 'records' | 'totalRows' | 'fetching' | 'noPaging'> & { query: { data?: { items: T[] }; isFetching: boolean } }) {
  return <DataTable {...props} records={query.data?.items} totalRows={query.data?.items.length} fetching={query.isFetching} noPaging />;
}
