import { describe, expect, it } from 'vitest';
import { migrateDb } from './migrate.ts';
import { createTestApp } from '../../test/harness.ts';

describe('migrations', () => {
  it('vacuum a table a migration rewrote, so index-only scans do not read it again row by row; later ones fill what they add from the rows there', async () => {
    const t = await createTestApp();
    const q = (text: string) => t.pool.query(text);
    // The database as it was before 0029 (and the ones after it), with accounts in it (a few pages).
    await q(`insert into accounts (first_name, last_name, is_client) select 'F' || i, 'Last' || i, true from generate_series(1, 3000) i`);
    await q(`drop index if exists accounts_client_last_name_norm_trgm_idx`);
    await q(`drop index if exists accounts_client_last_name_latin_trgm_idx`);
    await q(`alter table accounts drop column last_name_norm`);
    await q(`drop trigger accounts_last_names_sync on accounts`);
    await q(`drop table account_last_names`);
    await q(`drop index leads_account_idx`);
    await q(`create index leads_account_idx on leads (account_id)`);
    await q(`delete from drizzle.__drizzle_migrations where created_at >= 1795479485623`);
    await q(`vacuum accounts`);
    const visible = async () => (await q(`select relpages, relallvisible from pg_class where relname = 'accounts'`)).rows[0] as { relpages: number; relallvisible: number };
    expect((await visible()).relallvisible).toBeGreaterThan(10);

    await migrateDb(t.dbUrl);
    const after = await visible();
    expect(after.relpages).toBeGreaterThan(10);
    expect(after.relallvisible).toBe(after.relpages);
    expect((await q(`select count(*)::int as n from accounts where last_name_norm = 'last42'`)).rows[0]).toEqual({ n: 1 });
    // 0031 filled the last-name table from the accounts already there, and keeps it from then on.
    expect((await q(`select (select count(*) from account_last_names)::int as names, (select count(*) from accounts)::int as accounts`)).rows[0]).toEqual({ names: 3000, accounts: 3000 });
    expect((await q(`select count(*)::int as n from account_last_names where names like '%last42%'`)).rows[0]).toEqual({ n: 11 });
    await q(`update accounts set last_name = 'Changed' where last_name = 'Last42'`);
    expect((await q(`select count(*)::int as n from account_last_names where names = 'changed'`)).rows[0]).toEqual({ n: 1 });
    // Applied once: a second start changes nothing.
    await migrateDb(t.dbUrl);
    await t.app.close();
  });
});
