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
 * and the record views got 30-100 % slower after 0029 until `VACUUM accounts`. Vacuumed right after,
 * with its indexes' pass however few rows a migration updated: a vacuum skips that pass for a handful
 * of dead rows, and their pages stay out of the visibility map until the next one.
 */
const REWRITTEN_TABLES: Record<string, string[]> = {
  '0029_client_last_name_norm': ['accounts'],
  // Filled whole: the global search reads account_words from its index alone.
  '0033_account_words': ['account_words'],
  // A stored search form of each comment (the Viewings list's search).
  '0040_viewing_comment_search': ['viewing_objects'],
  // Filled whole: the agents' results read the cells by their key, planned from their statistics.
  '0064_kept_report_figures': ['report_lines', 'report_cells'],
  // The page's ids are read from the new indexes alone (index-only scans need the visibility map).
  '0066_action_log_page_indexes': ['action_log'],
  // The search form's count and page from its new indexes alone.
  '0069_object_search_indexes': ['objects'],
  // The accounts with a dotted word (Α.Ε.) in their names, their search text computed again.
  '0070_dotted_words': ['accounts'],
  // Filled whole: the global search reads a word's newest open leads from its index alone.
  '0103_search_fragments_ranked': ['lead_words'],
  // Filled whole: the global search reads a word's first properties from its index alone.
  '0124_object_words': ['object_words'],
  // The search text of the properties numbered from 10000 written again, their cut word removed.
  '0126_object_search_text_whole_reference': ['objects', 'object_words'],
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

type JournalEntry = { tag: string; when: number };
const journalEntries = (): JournalEntry[] =>
  (JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: JournalEntry[] }).entries;

/** The time stamp of the newest migration this version of the CRM has (the database is ready at or past it). */
export function latestMigrationWhen(): number {
  return journalEntries().at(-1)?.when ?? 0;
}

/** The database was migrated by a newer CRM than this one: starting would run old code on a newer schema. */
export class DatabaseNewerError extends Error {}

/** The time stamps of the migrations applied to the database, oldest first (none before the first). */
async function appliedMigrations(client: pg.ClientBase): Promise<number[]> {
  return client
    .query<{ when: string }>('select created_at::text as when from drizzle.__drizzle_migrations order by created_at')
    .then((r) => r.rows.map((x) => Number(x.when)))
    .catch(() => [] as number[]);
}

/**
 * Refuses to go on when the database holds a migration this version does not know (a newer CRM
 * migrated it): an old instance started by mistake, or left behind in an upgrade, says why and stops
 * rather than write what the new schema does not expect.
 */
async function refuseNewerDatabase(client: pg.ClientBase): Promise<void> {
  const rows = await appliedMigrations(client);
  const known = new Set(journalEntries().map((e) => e.when));
  const unknown = rows.filter((w) => !known.has(w) && w > latestMigrationWhen());
  if (unknown.length) {
    const last = journalEntries().at(-1);
    throw new DatabaseNewerError(
      `The database was migrated by a newer version of the CRM (${unknown.length} migration${unknown.length > 1 ? 's' : ''} this version does not have, the newest of ${new Date(Math.max(...unknown)).toISOString()}); ` +
        `this version knows migrations up to ${last?.tag ?? 'none'}. Start the newer version instead (or restore a backup made by this one).`,
    );
  }
}

/** A migration of this version that sorts before the newest one applied but was never applied. */
export class MigrationSkippedError extends Error {}

/**
 * The migrator runs only the migrations newer than the newest applied: one added to the journal with
 * an older time stamp (two branches merged, the later-merged one numbered first) would be skipped for
 * good on every database already past it, its tables missing without a word. Refuses, naming it.
 */
async function refuseSkippedMigration(client: pg.ClientBase): Promise<void> {
  const rows = await appliedMigrations(client);
  if (!rows.length) return;
  const applied = new Set(rows);
  const newest = Math.max(...rows);
  const skipped = journalEntries().filter((e) => e.when < newest && !applied.has(e.when));
  if (skipped.length) {
    throw new MigrationSkippedError(
      `Migration ${skipped.map((e) => e.tag).join(', ')} is older than the newest one this database has and was never applied; ` +
        `it would be skipped. Give it a time stamp ("when" in meta/_journal.json) after the newest applied migration's.`,
    );
  }
}

/**
 * Applies the committed migrations; an advisory lock keeps concurrent instances from racing (the
 * first migrates, the others wait and then find nothing to do). Refuses a database migrated by a
 * newer CRM. `timeZone`: kept as the database's default of crm.time_zone too, so that connections
 * made through a pooler that drops start-up options still read the agency's day (decision 061).
 */
export async function migrateDb(url: string, opts: { timeZone?: string } = {}): Promise<void> {
  const folder = MIGRATIONS_DIR;
  const client = new pg.Client({ connectionString: url, application_name: 'agency-crm migrate' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    await refuseNewerDatabase(client);
    await refuseSkippedMigration(client);
    const pending = await pendingTags(client);
    await migrate(drizzle(client), { migrationsFolder: folder });
    // A new database (every migration pending) has nothing to vacuum yet.
    const fresh = pending.length && pending[0] === '0000_extensions';
    for (const table of new Set(fresh ? [] : pending.flatMap((tag) => REWRITTEN_TABLES[tag] ?? []))) {
      await client.query(`vacuum (analyze, index_cleanup on) ${table}`);
    }
    if (opts.timeZone) await keepZoneDefault(client, opts.timeZone);
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {});
    await client.end();
  }
}

/** Sets the database's default crm.time_zone when it differs (only its owner may; otherwise left as it is). */
async function keepZoneDefault(client: pg.ClientBase, zone: string) {
  const r = await client.query<{ zone: string | null }>(
    `select (select split_part(c, '=', 2) from pg_db_role_setting s, unnest(s.setconfig) c
       where s.setdatabase = (select oid from pg_database where datname = current_database()) and s.setrole = 0 and c like 'crm.time_zone=%') as zone`,
  );
  if (r.rows[0]?.zone === zone) return;
  const db = (await client.query<{ name: string }>('select current_database() as name')).rows[0]!.name;
  await client
    .query(`alter database "${db.replace(/"/g, '""')}" set crm.time_zone = '${zone.replace(/'/g, "''")}'`)
    .catch(() => undefined); // not the owner: connections carry the zone themselves (start-up options)
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
