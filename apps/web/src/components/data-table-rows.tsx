import { Checkbox, VisuallyHidden } from '@mantine/core';
import { memo, useMemo, useSyncExternalStore, type Key, type ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import type { ListState } from '../lib/list-state.ts';
import { assumedMatches } from '../lib/first-paint.ts';

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
export type CellSpec<T> = {
  col: DataTableColumn<T>;
  card: 'title' | 'action' | 'hidden' | undefined;
  label: string | ((record: T) => string) | undefined;
};

/** The selection of a table in select mode (see useRowSelection). */
export type RowSelection<T> = {
  selectedKeys: Set<Key> | undefined;
  onSelect: ((record: T, checked: boolean) => void) | undefined;
  allSelected: boolean;
  someSelected: boolean;
  selectAll: (checked: boolean) => void;
};

/** The header row: sortable titles as buttons (on a phone a row of sort buttons), and select mode's "all". */
export function HeadRow<T>({ columns, list: [state, setState], selection }: { columns: DataTableColumn<T>[]; list: [ListState, (next: (prev: ListState) => ListState) => void]; selection: RowSelection<T> | undefined }) {
  const { t } = useTranslation();
  const sortBy = (col: DataTableColumn<T>) =>
    setState((prev) => {
      const key = col.sortKey ?? col.accessor;
      // A first click on a column sorts it ascending; further clicks on it toggle.
      return { ...prev, sortBy: key, sortDir: key === prev.sortBy && prev.sortDir === 'asc' ? 'desc' : 'asc', currentPage: 1 };
    });
  return (
    // On a phone the header row is a row of sort buttons, after this label.
    <tr role="row" data-sort-label={columns.some((c) => c.sortable) ? t('table.sortBy') : undefined}>
      {selection && (
        <th role="columnheader" className="crm-table-check">
          <Checkbox size="xs" aria-label={t('table.selectAll')} checked={selection.allSelected} indeterminate={selection.someSelected} onChange={(e) => selection.selectAll(e.currentTarget.checked)} />
        </th>
      )}
      {columns.map((col) => {
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
export const Row = memo(function Row<T>({ record, index, cells, testId, className, onClick, selected, onSelect, selectLabel }: RowProps<T>) {
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
export function useMediaQueries(queries: string[]): Set<string> {
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

