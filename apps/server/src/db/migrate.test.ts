import { describe, expect, it } from 'vitest';
import { migrateDb } from './migrate.ts';
import { createTestApp } from '../../test/harness.ts';

describe('migrations', () => {
  it('vacuum a table a migration rewrote, so index-only scans do not read it again row by row', async () => {
    const t = await createTestApp();
    const q = (text: string) => t.pool.query(text);
    // The database as it was before 0029, with accounts in it (a few pages).
    await q(`insert into accounts (first_name, last_name, is_client) select 'F' || i, 'Last' || i, true from generate_series(1, 3000) i`);
    await q(`drop index if exists accounts_client_last_name_norm_trgm_idx`);
    await q(`drop index if exists accounts_client_last_name_latin_trgm_idx`);
    await q(`alter table accounts drop column last_name_norm`);
    await q(`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`);
    await q(`vacuum accounts`);
    const visible = async () => (await q(`select relpages, relallvisible from pg_class where relname = 'accounts'`)).rows[0] as { relpages: number; relallvisible: number };
    expect((await visible()).relallvisible).toBeGreaterThan(10);

    await migrateDb(t.dbUrl);
    const after = await visible();
    expect(after.relpages).toBeGreaterThan(10);
    expect(after.relallvisible).toBe(after.relpages);
    expect((await q(`select count(*)::int as n from accounts where last_name_norm = 'last42'`)).rows[0]).toEqual({ n: 1 });
    // Applied once: a second start changes nothing.
    await migrateDb(t.dbUrl);
    await t.app.close();
  });
});
