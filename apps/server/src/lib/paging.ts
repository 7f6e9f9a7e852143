import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
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
 * The page's rows by their ids as one array parameter (`= any($1::int[])`): one statement text
 * whatever the page's size, and "Show all" past 65,535 rows (PostgreSQL's limit of parameters,
 * which `inArray` spends one per id) still answers.
 */
export function idAmong(column: SQL.Aliased | AnyColumn, ids: readonly number[]): SQL {
  return sql`${column} = any(${sql.param([...ids])}::int[])`;
}
