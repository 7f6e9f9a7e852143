import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.ts';

/**
 * Drafts (decision 076, migration 0071): a property or a lead made by Add and not filled in yet.
 * The spec's add answers the new record's id at once, so the record exists, and its author opens
 * and fills it at its address; until then it is in no list, count, search, match, report or feed.
 * It stops being a draft when first saved with something in it or when anything is attached to it
 * (the database's triggers), and one left as it was is removed after a day.
 */
export type DraftTable = 'objects' | 'leads';

/** How long a draft nobody filled in is kept (by the app's clock): its author may still come back to it the same day. */
export const DRAFT_KEPT_MS = 24 * 3600_000;

/**
 * The condition that leaves drafts out, on the row's id. The drafts' ids (a handful: a day's
 * records left blank at most) are read once from their partial index and hashed, and the test needs
 * the id alone: an index that holds the id (the lists' order, the search form's) still answers a
 * page without reading the table. Where the row is read anyway (joined by its id), `not o.draft`
 * says the same.
 */
export const notDraft = (table: DraftTable, id: SQL | AnyPgColumn): SQL => sql`${id} not in (select d.id from ${sql.identifier(table)} d where d.draft)`;

/**
 * How many rows of `table` meet `where`, drafts left out, in one statement: the count read as it
 * always was (from the indexes its filter uses, many of them without the id) less the drafts that
 * meet it (read from the drafts' own index). `where` names the table's columns unaliased.
 */
export async function countListed(db: Db | Tx, table: DraftTable, where: SQL | undefined): Promise<number> {
  const t = sql.identifier(table);
  const w = where ?? sql`true`;
  const { rows } = await db.execute<{ n: number }>(sql`select
    (select count(*) from ${t} where ${w})::int - (select count(*) from ${t} where ${t}.draft and (${w}))::int as n`);
  return Number(rows[0]?.n ?? 0);
}

/** The table's whole count kept by the database (lib/row-counts.ts) less its drafts. */
export async function keptListedCount(db: Db | Tx, table: DraftTable): Promise<number> {
  const { rows } = await db.execute<{ n: string | number }>(sql`select
    coalesce((select n from row_counts where name = ${table}), 0) - (select count(*) from ${sql.identifier(table)} where draft) as n`);
  return Number(rows[0]?.n ?? 0);
}
