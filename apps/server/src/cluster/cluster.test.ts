import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { connectDb } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { DatabaseNewerError, MigrationSkippedError, migrateDb } from '../db/migrate.ts';
import { TEXTS_CHANNEL } from '../lib/i18n.ts';
import * as RESOURCES from '@crm/contract/resources';
import { appInstances, createTestApp } from '../../test/harness.ts';
import { isReadRoute } from './read-routing.plugin.ts';

const t = await createTestApp();
const instance = appInstances(t, { serveWeb: false, jobs: false });

/** Returns once `check` holds (asked again every 50 ms, for at most 15 s). */
const until = (check: () => Promise<boolean> | boolean) =>
  vi.waitFor(
    async () => {
      if (!(await check())) throw new Error('not yet');
    },
    { timeout: 15_000, interval: 50 },
  );

describe('what a load balancer asks', () => {
  it('is live; ready once started and migrated; not ready, with the reason, while draining', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'live' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', instance: t.app.jobs.instanceId });
    expect(ready.headers['cache-control']).toBe('no-store');
    t.app.lifecycle.draining = true;
    try {
      const draining = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toMatchObject({ status: 'notReady', reason: 'draining' });
      // Still serving what reaches it meanwhile.
      expect((await t.app.inject({ method: 'GET', url: '/api/config' })).statusCode).toBe(200);
    } finally {
      t.app.lifecycle.draining = false;
    }
  });

  it('is not ready on a database not migrated as far as this version', async () => {
    await t.pool.query(`update drizzle.__drizzle_migrations set created_at = created_at - 1 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ reason: 'notMigrated' });
    } finally {
      await t.pool.query(`update drizzle.__drizzle_migrations set created_at = created_at + 1 where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
    }
  });
});

describe('an instance older than its database', () => {
  it('refuses to start, saying a newer version migrated it', async () => {
    const other = await createTestApp();
    await other.pool.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', 4102444800000)`);
    const err = await migrateDb(other.dbUrl).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseNewerError);
    expect((err as Error).message).toMatch(/^The database was migrated by a newer version of the CRM \(1 migration this version does not have, the newest of 2100-01-01T00:00:00\.000Z\); this version knows migrations up to 0129_accounts_display_name_norm\. Start the newer version instead/);
  });

  it('refuses to start when one of its migrations sorts before the newest applied and was never applied', async () => {
    const other = await createTestApp();
    // As if 0102's branch was merged after 0103 had run here: its row is not there.
    const row = (await other.pool.query<{ created_at: string }>('select created_at::text from drizzle.__drizzle_migrations order by created_at desc offset 1 limit 1')).rows[0]!;
    await other.pool.query('delete from drizzle.__drizzle_migrations where created_at = $1', [row.created_at]);
    const err = await migrateDb(other.dbUrl).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationSkippedError);
    expect((err as Error).message).toMatch(/^Migration \d{4}_\w+ is older than the newest one this database has and was never applied; it would be skipped\./);
  });

  it('migrates once when started together: the others wait on the lock and find nothing to do', async () => {
    const other = await createTestApp();
    const before = (await other.pool.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]!.n;
    await Promise.all([migrateDb(other.dbUrl), migrateDb(other.dbUrl), migrateDb(other.dbUrl)]);
    expect((await other.pool.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]!.n).toBe(before);
  });
});

describe('several instances on one database', () => {
  it("reload their copy of the interface texts when another instance's import changed them", async () => {
    const { app: second } = await instance();
    expect(second.translator.t('el', 'errors.badRequest')).not.toBe('Κείμενο από άλλο μηχάνημα');
    // What the import does, in its transaction: the rows, then the notice.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`update localization set text = 'Κείμενο από άλλο μηχάνημα', custom = true where key = 'errors.badRequest' and culture = 'el'`);
      await tx.execute(sql`select pg_notify(${TEXTS_CHANNEL}, '')`);
    });
    await until(() => second.translator.t('el', 'errors.badRequest') === 'Κείμενο από άλλο μηχάνημα');
  });

  it('send no statement by name when prepared statements are off (a pooler in transaction mode)', async () => {
    const handle = connectDb(t.dbUrl, 1, { timeZone: t.config.timeZone, preparedStatements: false });
    try {
      const q = handle.db.select({ n: sql<number>`1` }).from(sql`(select 1) x`).prepare('crm_cluster_probe');
      for (let i = 0; i < 5; i++) await q.execute();
      for (let i = 0; i < 5; i++) await handle.db.execute(sql`select ${i}::int as n from accounts where id = ${i}`);
      const named = await handle.pool.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements');
      expect(named.rows[0]!.n).toBe(0);
    } finally {
      await handle.close();
    }
    // On (the default), the same statements are kept by name on the connection.
    const prepared = connectDb(t.dbUrl, 1, { timeZone: t.config.timeZone });
    try {
      const q = prepared.db.select({ n: sql<number>`1` }).from(sql`(select 1) x`).prepare('crm_cluster_probe');
      await q.execute();
      const named = await prepared.pool.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where name = 'crm_cluster_probe'`);
      expect(named.rows[0]!.n).toBe(1);
    } finally {
      await prepared.close();
    }
  });

  it("keep the agency's zone as the database's default, for connections through a pooler that drops start-up options", async () => {
    const other = await createTestApp({ TIME_ZONE: 'Europe/Moscow' });
    await migrateDb(other.dbUrl, { timeZone: 'Europe/Moscow' });
    // A connection that sends no zone of its own reads the database's.
    const c = new pg.Client({ connectionString: other.dbUrl });
    await c.connect();
    try {
      expect((await c.query(`select current_setting('crm.time_zone', true) as z`)).rows[0].z).toBe('Europe/Moscow');
    } finally {
      await c.end();
    }
  });
});

describe('a replica (DATABASE_READ_URL)', () => {
  it('serves every export of records (the lists\' spreadsheets, a person\'s data, the invoices, the mailing list)', () => {
    const exports: string[] = [];
    for (const [resource, r] of Object.entries(RESOURCES)) {
      const calls = (r as { calls?: Record<string, { method: string; path: string }> }).calls ?? {};
      for (const [name, c] of Object.entries(calls)) {
        // A backup is read from the store, not the database; the interface texts' file shares its address with their import.
        if (resource === 'BACKUP' || name === 'localizationExport') continue;
        if (/^(download|personalData|dataExport)$/.test(name)) exports.push(`${c.method} ${c.path}`);
      }
    }
    expect(exports.length).toBeGreaterThanOrEqual(8);
    expect(exports.filter((e) => !isReadRoute(e.split(' ')[0]!, e.split(' ')[1]!))).toEqual([]);
  });
});

describe('a change whose instance was killed while it ran', () => {
  it("is not stuck on its Idempotency-Key: the balancer's retry takes the key over once the claim's lease ran out", async () => {
    const u = await t.user({ roles: ['admin'] });
    const body = { firstName: 'Retried', lastName: `Elsewhere${Date.now() % 100000}` };
    const hash = createHash('sha256').update(`POST /api/account/add\n${JSON.stringify(body)}`).digest();
    const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, u.email));
    // The first attempt's claim, left by an instance killed mid-change: still leased for a second.
    const key = `killed-${Date.now()}`;
    await t.pool.query(`insert into idempotent_requests (user_id, key, request_hash, claimed_until) values ($1, $2, $3, now() + interval '1 second')`, [row!.id, key, hash]);
    const res = await t.app.inject({ method: 'POST', url: '/api/account/add', payload: body, headers: { authorization: `Bearer ${u.token}`, 'idempotency-key': key } });
    expect(res.statusCode, res.body).toBe(200);
    const found = await t.pool.query(`select count(*)::int as n from accounts where last_name = $1`, [body.lastName]);
    expect(found.rows[0].n).toBe(1);
    // Its answer is kept now: sent again, the same answer, nothing made twice.
    const again = await t.app.inject({ method: 'POST', url: '/api/account/add', payload: body, headers: { authorization: `Bearer ${u.token}`, 'idempotency-key': key } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(res.json());
    expect((await t.pool.query(`select count(*)::int as n from accounts where last_name = $1`, [body.lastName])).rows[0].n).toBe(1);
  });
});

describe('the settings of several instances', () => {
  it('want a bucket for the S3 store, both keys or neither, and DATABASE_URL with a replica', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (e) {
        return (e as ConfigError).problems;
      }
    };
    expect(problems({ STORAGE: 's3' })).toEqual(['S3_BUCKET="": is required when STORAGE=s3']);
    expect(problems({ STORAGE: 's3', S3_BUCKET: 'crm-files', S3_ACCESS_KEY_ID: 'x' })[0]).toMatch(/give both, or neither/);
    expect(problems({ DATABASE_READ_URL: 'postgres://replica/crm' })[0]).toMatch(/^DATABASE_URL="": is required with DATABASE_READ_URL/);
    expect(problems({ STORAGE: 'nfs', S3_BUCKET: 'Not_A_Bucket', S3_PRESIGN_SECONDS: '-1', DATABASE_PREPARED_STATEMENTS: 'maybe' }).map((p) => p.split('=')[0])).toEqual(
      expect.arrayContaining(['STORAGE', 'S3_BUCKET', 'S3_PRESIGN_SECONDS', 'DATABASE_PREPARED_STATEMENTS']),
    );
    const c = loadConfig({ DATABASE_URL: 'postgres://pooler/crm', DATABASE_READ_URL: 'postgres://replica/crm', STORAGE: 's3', S3_BUCKET: 'crm-files', S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_FORCE_PATH_STYLE: 'true' });
    expect(c.s3).toMatchObject({ bucket: 'crm-files', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, prefix: '', presignSeconds: 0 });
    expect(c.database).toMatchObject({ readUrl: 'postgres://replica/crm', preparedStatements: true, poolSize: 20 });
    expect(loadConfig({}).s3).toBeUndefined();
  });
});
