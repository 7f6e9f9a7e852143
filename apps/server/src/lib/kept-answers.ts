import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Answers kept in this process's memory while the tables they were made from have not changed
 * (decision 072). Every statement that writes such a table adds a row to data_changes in its own
 * transaction (migration 0063), so the sum of the tables' weights grows exactly when a change to one
 * of them is committed. An answer is kept with the sum read before it was made, and only when the
 * sum read after it is the same: no change was committed meanwhile, so every statement that made it
 * saw the state that sum stands for. A later request whose reading of the sum is the same gets it
 * as it was sent (already written as JSON, checked once against its schema when it was made).
 *
 * Each app instance keeps its own, and each reads the sum from the database, so several instances
 * on one database never serve one another's stale answers.
 */
export type KeptAnswers = {
  /** The kept answer (JSON text) for `key` made from `tables`, or the one `make` makes now (kept if nothing changed meanwhile). */
  get(key: string, tables: readonly string[], make: () => Promise<unknown>): Promise<string>;
  /** How many answers are kept and their size (the bench and the tests). */
  size(): { entries: number; bytes: number };
};

type Entry = { version: string; body: string };

export function createKeptAnswers(db: Db, opts: { maxEntries?: number; maxBytes?: number } = {}): KeptAnswers {
  const maxEntries = opts.maxEntries ?? 500;
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  // Insertion order is use order: the least recently used first.
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const version = async (tables: readonly string[]) => {
    const res = await db.execute<{ v: string }>(sql`select crm_data_version(${sql.param([...tables])}::text[])::text as v`);
    return res.rows[0]!.v;
  };
  const forget = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    bytes -= e.body.length;
    entries.delete(key);
  };

  return {
    async get(key, tables, make) {
      const full = `${[...tables].sort().join(',')}|${key}`;
      const before = await version(tables);
      const kept = entries.get(full);
      if (kept && kept.version === before) {
        entries.delete(full);
        entries.set(full, kept);
        return kept.body;
      }
      const body = JSON.stringify(await make());
      const after = await version(tables);
      forget(full);
      if (after === before && body.length <= maxBytes / 4) {
        entries.set(full, { version: before, body });
        bytes += body.length;
        for (const [k] of entries) {
          if (entries.size <= maxEntries && bytes <= maxBytes) break;
          forget(k);
        }
      }
      return body;
    },
    size: () => ({ entries: entries.size, bytes }),
  };
}

/**
 * The count of committed changes to every table counted (migrations 0063, 0065, 0066): what a drawn
 * page can show (ssr/first-paint.ts keeps pages while it is the same).
 */
export async function dataVersionOfAll(db: Db): Promise<string> {
  const res = await db.execute<{ v: string }>(sql`select coalesce(sum(weight), 0)::text as v from data_changes`);
  return res.rows[0]!.v;
}

/** Folds each table's change rows into one (the sums stay as they are): the job every few minutes. */
export const DATA_CHANGES_COMPACT_JOB = 'data.changesCompact';
export async function compactDataChanges(db: Db): Promise<void> {
  await db.execute(sql`select crm_data_changes_compact()`);
}
