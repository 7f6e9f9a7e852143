import { Badge, Group, Pagination, Paper, Select, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { DataTable as MantineDataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import 'mantine-datatable/styles.css';
import { useDeferredValue, useEffect, useMemo, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LIST_PAGE_SIZES, SHOW_ALL } from '@crm/contract/constants';
import type { ListState } from '../lib/list-state.ts';
import { IconInbox } from './icons.ts';

export type { DataTableColumn };

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
 * "Show all" of thousands of rows: mantine-datatable renders every row it is given, so the table
 * renders the first 200 and adds 200 more each time the user scrolls to the bottom of the 70vh
 * area; cells are plain text and links. The page stays responsive at 100k rows.
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
  // Until the new rows are drawn, the table keeps the space they will take (nothing below moves).
  const drawing = records === undefined || shownRows !== visible;

  const total = totalRows ?? rows.length;
  const perPage = state.perPage;
  const pages = perPage >= SHOW_ALL ? 1 : Math.max(1, Math.ceil(total / perPage));
  // The list shrank (a filter, a delete elsewhere): stay on a page that exists.
  useEffect(() => {
    if (totalRows !== undefined && state.currentPage > pages) setState((s) => ({ ...s, currentPage: pages }));
  }, [totalRows, pages, state.currentPage, setState]);

  const sortStatus = useMemo<DataTableSortStatus<T>>(() => {
    const col = columns.find((c) => (c.sortKey ?? String(c.accessor)) === state.sortBy);
    return { columnAccessor: col ? col.accessor : state.sortBy, sortKey: col?.sortKey, direction: state.sortDir };
  }, [columns, state.sortBy, state.sortDir]);

  const sizeOptions = pageSizes.map((n) => ({ value: String(n), label: n === SHOW_ALL ? t('accounts.ui.list.showAll') : String(n) }));
  const from = total === 0 ? 0 : perPage >= SHOW_ALL ? 1 : (state.currentPage - 1) * perPage + 1;
  const to = perPage >= SHOW_ALL ? total : Math.min(total, state.currentPage * perPage);

  const loadedEmpty = records !== undefined && rows.length === 0 && !fetching;
  const settled = useSettled(!drawing);
  // The table itself is kept (memoized) across renders that change none of its inputs.
  const table = useMemo(
    () => (
      <MantineDataTable<T>
        withTableBorder
        borderRadius="sm"
        striped
        highlightOnHover
        verticalAlign="top"
        // While loading, the space the page of rows will take (up to the 70vh scroll area), so
        // nothing below jumps when they arrive.
        minHeight={drawing ? `min(70vh, ${48 + Math.min(perPage, 50) * 40}px)` : undefined}
        fetching={fetching}
        records={shownRows}
        columns={columns}
        idAccessor={idAccessor as never}
        sortStatus={sortStatus}
        onSortStatusChange={(s) =>
          setState((prev) => {
            const sortBy = s.sortKey ?? String(s.columnAccessor);
            // A first click on a column sorts it ascending; further clicks on it toggle.
            return { ...prev, sortBy, sortDir: sortBy === prev.sortBy ? s.direction : 'asc', currentPage: 1 };
          })
        }
        // The viewport (not the root) carries the 70vh limit: it scrolls under the sticky header.
        scrollAreaProps={{
          viewportProps: {
            ...(scrollLabel ? { tabIndex: 0, role: 'region', 'aria-label': scrollLabel } : {}),
            style: { maxHeight: '70vh' },
            onScroll: (e) => {
              const el = e.currentTarget;
              if (rows.length > shown && el.scrollTop + el.clientHeight >= el.scrollHeight - 400) setShown((n) => n + RENDER_CHUNK);
            },
          },
        }}
        customRowAttributes={() => ({ 'data-testid': `${testId}-row` })}
        rowClassName={rowClassName ? (r) => rowClassName(r) : undefined}
        onRowClick={onRowClick ? ({ record }) => onRowClick(record) : undefined}
        {...(selection ? { selectedRecords: selection.selected, onSelectedRecordsChange: selection.onChange } : {})}
      />
    ),
    [drawing, perPage, fetching, shownRows, columns, idAccessor, sortStatus, setState, rows.length, shown, scrollLabel, testId, rowClassName, onRowClick, selection],
  );

  return (
    <Stack gap="xs" data-testid={testId} data-total={total} data-loading={fetching ? 'true' : 'false'}>
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
        // The table lays itself out again once it has measured its rows: shown after that. The
        // wrapper carries the visibility, so showing it does not render every row once more.
        <div style={settled ? undefined : { visibility: 'hidden' }}>{table}</div>
      )}
      {!noPaging && !loadedEmpty && (
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed" data-testid={`${testId}-range`}>
            {t('accounts.ui.list.range', { from, to, total })}
          </Text>
          <Group gap="sm" wrap="wrap">
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed">
                {t('accounts.ui.list.perPage')}
              </Text>
              <Select
                size="xs"
                w={110}
                data={sizeOptions}
                value={String(perPage)}
                allowDeselect={false}
                aria-label={t('accounts.ui.list.perPage')}
                data-testid={`${testId}-page-size`}
                onChange={(v) => v && setState((s) => ({ ...s, perPage: Number(v), currentPage: 1 }))}
              />
            </Group>
            {/* While loading, a pager stands in (most lists have pages), so the row does not grow when they come. */}
            {(pages > 1 || records === undefined) && (
              <Pagination
                size="sm"
                total={pages}
                disabled={records === undefined}
                value={Math.min(state.currentPage, pages)}
                onChange={(p) => setState((s) => ({ ...s, currentPage: p }))}
                withEdges={pages > 5}
                getItemProps={(page) => ({ 'aria-label': t('table.pageN', { page }) })}
                getControlProps={(control) => ({ 'aria-label': t(`table.${control}Page`) })}
                data-testid={`${testId}-pager`}
              />
            )}
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/**
 * False from the moment `ready` turns true until two frames later: long enough for the table's own
 * measurements (scroll area, sticky header) to settle, so rows never visibly jump into place.
 */
function useSettled(ready: boolean): boolean {
  const [settled, setSettled] = useState(ready);
  useEffect(() => {
    if (!ready) return setSettled(false);
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => setSettled(true));
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [ready]);
  return settled || !ready;
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
