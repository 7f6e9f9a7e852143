import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/**
 * Migrations that rewrite a table (a stored generated column added): the rewritten table starts with
 * an empty visibility map, so every index-only scan on it reads the table again until a vacuum, which
 * nothing triggers (a rewrite leaves no dead rows). On the bench agency the account lists' page walks
 * and the record views got 30-100 % slower after 0029 until `VACUUM accounts`. Vacuumed right after.
 */
const REWRITTEN_TABLES: Record<string, string[]> = {
  '0029_client_last_name_norm': ['accounts'],
  // Filled whole: the global search reads account_words from its index alone.
  '0033_account_words': ['account_words'],
  // A stored search form of each comment (the Viewings list's search).
  '0040_viewing_comment_search': ['viewing_objects'],
  // Filled whole: the agents' results read the cells by their key, planned from their statistics.
  '0062_kept_report_figures': ['report_lines', 'report_cells'],
  // The page's ids are read from the new indexes alone (index-only scans need the visibility map).
  '0064_action_log_page_indexes': ['action_log'],
  // The search form's count and page from its new indexes alone.
  '0067_object_search_indexes': ['objects'],
};

/** The tags of the journal's migrations created after the newest one applied (those about to run). */
async function pendingTags(client: pg.Client): Promise<string[]> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  const applied = await client
    .query<{ last: string | null }>('select max(created_at)::text as last from drizzle.__drizzle_migrations')
    .then((r) => Number(r.rows[0]?.last ?? 0))
    .catch(() => 0); // a new database: no table yet
  return journal.entries.filter((e) => e.when > applied).map((e) => e.tag);
}

/** Applies the committed migrations; an advisory lock keeps concurrent instances from racing. */
export async function migrateDb(url: string): Promise<void> {
  const folder = MIGRATIONS_DIR;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    const pending = await pendingTags(client);
    await migrate(drizzle(client), { migrationsFolder: folder });
    // A new database (every migration pending) has nothing to vacuum yet.
    const fresh = pending.length && pending[0] === '0000_extensions';
    for (const table of new Set(fresh ? [] : pending.flatMap((tag) => REWRITTEN_TABLES[tag] ?? []))) {
      await client.query(`vacuum (analyze) ${table}`);
    }
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {});
    await client.end();
  }
}

/**
 * Applies the journal's migrations after the newest one applied, up to and including `upTo` (a
 * journal tag; all when not given), on `client` and inside the transaction its caller holds (a
 * restore: the drop, the schema and the data commit together or not at all). Recorded as drizzle's
 * migrator records them, so that migrateDb carries on from there.
 */
export async function applyMigrationsInTransaction(client: pg.ClientBase, upTo?: string): Promise<string[]> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  const end = upTo === undefined ? journal.entries.length - 1 : journal.entries.findIndex((e) => e.tag === upTo);
  if (end < 0) throw new Error(`unknown migration ${upTo}`);
  const files = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  await client.query('create schema if not exists drizzle');
  await client.query('create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
  const last = Number((await client.query<{ last: string | null }>('select max(created_at)::text as last from drizzle.__drizzle_migrations')).rows[0]?.last ?? 0);
  const applied: string[] = [];
  for (let i = 0; i <= end; i++) {
    const m = files[i]!;
    if (m.folderMillis <= last) continue;
    for (const stmt of m.sql) if (stmt.trim()) await client.query(stmt);
    await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [m.hash, m.folderMillis]);
    applied.push(journal.entries[i]!.tag);
  }
  return applied;
}
