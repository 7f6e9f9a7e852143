import { Badge, Checkbox, Group, Loader, Paper, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState, useSyncExternalStore, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LIST_PAGE_SIZES } from '@crm/contract/constants';
import type { ListState } from '../lib/list-state.ts';
import { IconInbox } from './icons.ts';
import './table.css';
import { assumedMatches } from '../lib/first-paint.ts';
import { ListPager, pageCount } from './list-pager.tsx';
export { ListPager, pageCount } from './list-pager.tsx';

/** One column of a list: the record's field it shows, its title, how a cell is drawn. */
export type DataTableColumn<T> = {
  /** The record's field (the cell's text unless `render` draws it; the sort key unless `sortKey`). */
  accessor: (keyof T & string) | (string & {});
  title?: ReactNode;
  render?: (record: T, index: number) => ReactNode;
  sortable?: boolean;
  /** The server's sort key, when it differs from the accessor. */
  sortKey?: string;
  /** The cells stay on one line (the title may still wrap). */
  noWrap?: boolean;
  width?: number | string;
  textAlign?: 'left' | 'center' | 'right';
  /** The column is shown only where this media query matches (e.g. '(min-width: 48em)'). */
  visibleMediaQuery?: string;
  /**
   * Its place on a phone, where each row is drawn as a card (the list narrower than 600 px):
   * 'title' cells head the card, side by side and without a label (the first column when no column
   * says so); an 'action' cell (an edit button) sits at the card's top right; a 'hidden' cell is
   * not drawn (screen readers still have it). Every other cell is a line with the column's title
   * as its label; an empty one is not drawn. Within a cell, elements of the class `crm-card-only`
   * are drawn on the card only, those of `crm-table-only` in the table only.
   */
  card?: 'title' | 'action' | 'hidden';
  /**
   * The card line's label where the column's title is not plain text, or where it depends on the
   * row (a rental's landlord in the column of sellers).
   */
  cardLabel?: string | ((record: T) => string);
};

/** How a column's cells are drawn, worked out once per table. */
type CellSpec<T> = {
  col: DataTableColumn<T>;
  card: 'title' | 'action' | 'hidden' | undefined;
  label: string | ((record: T) => string) | undefined;
};

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

  const total = totalRows ?? rows.length;
  const perPage = state.perPage;
  const pages = pageCount(total, perPage);
  // The list shrank (a filter, a delete elsewhere): stay on a page that exists.
  useEffect(() => {
    if (totalRows !== undefined && state.currentPage > pages) setState((s) => ({ ...s, currentPage: pages }));
  }, [totalRows, pages, state.currentPage, setState]);

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
  const sortable = shownColumns.some((c) => c.sortable);

  const keyOf = useMemo<(record: T) => Key>(() => {
    if (typeof idAccessor === 'function') return idAccessor;
    const field = (idAccessor ?? 'id') as keyof T;
    return (record) => record[field] as Key;
  }, [idAccessor]);

  const loadedEmpty = records !== undefined && rows.length === 0 && !fetching;

  const sortBy = (col: DataTableColumn<T>) =>
    setState((prev) => {
      const key = col.sortKey ?? col.accessor;
      // A first click on a column sorts it ascending; further clicks on it toggle.
      return { ...prev, sortBy: key, sortDir: key === prev.sortBy && prev.sortDir === 'asc' ? 'desc' : 'asc', currentPage: 1 };
    });

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

  return (
    <Stack gap="xs" className="crm-list" data-testid={testId} data-total={total} data-loading={fetching ? 'true' : 'false'}>
      {loadedEmpty ? (
        <Paper withBorder p="xl" data-testid={`${testId}-empty`}>
          <Stack align="center" gap="sm">
            <ThemeIcon size={48} radius="xl" variant="light" color="gray">
              <IconInbox size={28} />
            </ThemeIcon>
            <Text c="dimmed" ta="center">
              {empty.text}
            </Text>
            {empty.action}
          </Stack>
        </Paper>
      ) : (
        <div className="crm-table-frame">
          <div
            className="crm-table-scroll"
            // While loading, the space the page of rows will take (up to the 70vh scroll area), so
            // nothing below jumps when they arrive.
            style={drawing ? { minHeight: `min(70vh, ${48 + Math.min(perPage, 50) * 40}px)` } : undefined}
            {...(scrollLabel ? { tabIndex: 0, role: 'region', 'aria-label': scrollLabel } : {})}
            onScroll={(e) => {
              const el = e.currentTarget;
              if (rows.length > shown && el.scrollTop + el.clientHeight >= el.scrollHeight - 400) setShown((n) => n + RENDER_CHUNK);
            }}
          >
            {/* The roles are spelt out: on a phone the rows are drawn as cards (display: flex), and
                some browsers drop a table's semantics once its parts are not displayed as a table. */}
            <table role="table" className="crm-table crm-table-striped" aria-busy={fetching || undefined}>
              <thead role="rowgroup">
                {/* On a phone the header row is a row of sort buttons, after this label. */}
                <tr role="row" data-sort-label={sortable ? t('table.sortBy') : undefined}>
                  {selection && (
                    <th role="columnheader" className="crm-table-check">
                      <Checkbox size="xs" aria-label={t('table.selectAll')} checked={allSelected} indeterminate={someSelected} onChange={(e) => selectAll(e.currentTarget.checked)} />
                    </th>
                  )}
                  {shownColumns.map((col) => {
                    const sorted = state.sortBy === (col.sortKey ?? col.accessor) ? state.sortDir : undefined;
                    return (
                      <th
                        key={col.accessor}
                        scope="col"
                        role="columnheader"
                        data-sortable={col.sortable || undefined}
                        style={col.textAlign || col.width !== undefined ? { textAlign: col.textAlign, width: col.width } : undefined}
                        aria-sort={col.sortable ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}
                      >
                        {col.sortable ? (
                          <button type="button" className="crm-table-sort" data-sorted={sorted} onClick={() => sortBy(col)}>
                            <span>{col.title}</span>
                            <SortMark dir={sorted} />
                          </button>
                        ) : col.card === 'action' && typeof col.title === 'string' ? (
                          // A column of buttons (Edit): its title is for screen readers; the icons say it to the eye.
                          <VisuallyHidden>{col.title}</VisuallyHidden>
                        ) : (
                          col.title
                        )}
                      </th>
                    );
                  })}
                </tr>
              </thead>
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
                      selected={selectedKeys?.has(key)}
                      onSelect={onSelect}
                      selectLabel={onSelect ? t('table.selectRow') : undefined}
                    />
                  );
                })}
              </tbody>
            </table>
            {rows.length > shown && <div ref={more} aria-hidden="true" className="crm-table-more" />}
          </div>
          {fetching && (
            <div className="crm-table-busy">
              <Loader size="sm" />
            </div>
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


/** Nothing to show: a cell the phone's card leaves out (its place stays for screen readers). */
function isEmpty(content: ReactNode): boolean {
  return content == null || content === false || content === '' || (Array.isArray(content) && content.length === 0);
}

type RowProps<T> = {
  record: T;
  index: number;
  cells: CellSpec<T>[];
  testId: string;
  className: string | undefined;
  onClick: ((record: T) => void) | undefined;
  selected: boolean | undefined;
  onSelect: ((record: T, checked: boolean) => void) | undefined;
  selectLabel: string | undefined;
};

/**
 * One row: its cells are plain elements, so a row is one component whatever its columns. Each cell
 * says how the phone's card draws it (data-card, data-label, data-empty); its content sits in one
 * element, the value beside the label.
 */
const Row = memo(function Row<T>({ record, index, cells, testId, className, onClick, selected, onSelect, selectLabel }: RowProps<T>) {
  return (
    <tr role="row" data-testid={testId} className={className} data-clickable={onClick ? true : undefined} onClick={onClick ? () => onClick(record) : undefined}>
      {onSelect && (
        <td role="cell" className="crm-table-check" onClick={(e) => e.stopPropagation()}>
          <Checkbox size="xs" aria-label={selectLabel} checked={!!selected} onChange={(e) => onSelect(record, e.currentTarget.checked)} />
        </td>
      )}
      {cells.map(({ col, card, label }) => {
        const content = col.render ? col.render(record, index) : ((record as Record<string, ReactNode>)[col.accessor] ?? null);
        return (
          <td key={col.accessor} role="cell" data-card={card} data-label={typeof label === 'function' ? label(record) : label} data-empty={isEmpty(content) || undefined} data-align={col.textAlign} data-nowrap={col.noWrap || undefined}>
            <div className="crm-cell">{content}</div>
          </td>
        );
      })}
    </tr>
  );
}) as <T>(props: RowProps<T>) => ReactNode;

/** The sort state drawn beside a sortable column's title (the header cell's aria-sort says it). */
function SortMark({ dir }: { dir: 'asc' | 'desc' | undefined }) {
  return (
    <svg className="crm-table-sort-mark" aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      {dir === 'asc' ? <path d="M12 19V5M6 11l6-6 6 6" /> : dir === 'desc' ? <path d="M12 5v14M18 13l-6 6-6-6" /> : <path d="M8 9l4-4 4 4M16 15l-4 4-4-4" />}
    </svg>
  );
}

/** Which of the given media queries match now (one listener each, for the whole table). */
function useMediaQueries(queries: string[]): Set<string> {
  const key = queries.join('\n');
  const subscribe = useMemo(
    () => (notify: () => void) => {
      const lists = (key ? key.split('\n') : []).map((q) => window.matchMedia(q));
      for (const l of lists) l.addEventListener('change', notify);
      return () => {
        for (const l of lists) l.removeEventListener('change', notify);
      };
    },
    [key],
  );
  const snapshot = useSyncExternalStore(
    subscribe,
    () => (key ? key.split('\n') : []).filter((q) => window.matchMedia(q).matches).join('\n'),
    // Drawn on the server, and the browser's first render over it: for the width it was drawn for.
    () => (key ? key.split('\n') : []).filter(assumedMatches).join('\n'),
  );
  return useMemo(() => new Set(snapshot ? snapshot.split('\n') : []), [snapshot]);
}

/** The title row of a list: title, a badge with the row count, and the list's actions. */
export function ListHeader({ title, count, children, testId }: { title: string; count: number | undefined; children?: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" align="center" gap="sm">
      <Group gap="xs" align="center">
        <Title order={2}>{title}</Title>
        <Badge size="lg" variant="light" color="gray" data-testid={testId ? `${testId}-count` : 'list-count'}>
          {count ?? '…'}
        </Badge>
      </Group>
      <Group gap="xs">{children}</Group>
    </Group>
  );
}
