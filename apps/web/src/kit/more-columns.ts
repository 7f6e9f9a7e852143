import type { DataTableColumn } from '../components/data-table.tsx';

/** The column chooser's further fields (a list's `offered` ones): each by its label, in the order of the labels. */
export const moreColumnOptions = (offered: readonly string[], label: (key: string) => string): { key: string; label: string }[] =>
  offered.map((key) => ({ key, label: label(key) })).sort((a, b) => a.label.localeCompare(b.label));

/** Field types written at the right of their column: amounts, numbers, areas. */
const NUMERIC = new Set(['currency', 'number', 'area']);

/**
 * A further column of a list (its row's `more` answer, by field name): the described field's value
 * as `write` writes it, titled `title`; an amount or a number at the right, neither it nor a date
 * wrapped.
 */
export function moreColumn<R extends { more?: Record<string, string | number | null> }>(field: { name: string; type: string }, title: string, write: (value: string | number | null) => string): DataTableColumn<R> {
  const numeric = NUMERIC.has(field.type);
  return {
    accessor: `more.${field.name}`,
    title,
    noWrap: numeric || field.type === 'date',
    textAlign: numeric ? 'right' : undefined,
    render: (r) => write(r.more?.[field.name] ?? null),
  };
}
