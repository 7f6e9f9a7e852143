import { inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
/**
 * Lists page in two steps: the page's ids from the filtered, sorted table alone (its indexes, no
 * joins), then the rows of just those ids with their names, parties and other per-row lookups.
 * With OFFSET, per-row lookups in the first query would run for every skipped row too (page 45 of
 * the viewings computed 900 rows' assignees to show 20).
 */

/** The rows in the order of the page's ids (rows whose id is not among them are left out). */
export function inIdOrder<R>(ids: readonly number[], rows: readonly R[], idOf: (r: R) => number): R[] {
  const byId = new Map(rows.map((r) => [idOf(r), r]));
  return ids.map((id) => byId.get(id)).filter((r): r is R => r !== undefined);
}

/**
 * Up to this many ids, a page's rows are read by one placeholder per id (`in ($1, ..., $50)`): a
 * statement whose plan does not depend on the values, so db/auto-prepare.ts prepares it and PostgreSQL
 * plans it once a connection (an objects page's rows with their joins: 3-5 ms of planning a run,
 * measured at full size). Past it, one array parameter (`= any($1::int[])`), planned at every run:
 * "Show all" past 65,535 rows (PostgreSQL's limit of parameters) still answers.
 */
export const IDS_AS_PLACEHOLDERS = 1000;

/** The page's rows by their ids (see IDS_AS_PLACEHOLDERS). */
export function idAmong(column: SQL.Aliased | AnyColumn, ids: readonly number[]): SQL {
  if (ids.length <= IDS_AS_PLACEHOLDERS) return ids.length ? inArray(column as AnyColumn, [...ids]) : sql`false`;
  return sql`${column} = any(${sql.param([...ids])}::int[])`;
}
