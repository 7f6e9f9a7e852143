import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, inject, vi } from 'vitest';
import pg from 'pg';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { apiClient, createTestApp } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { connectDb } from '../../db/client.ts';
import { accounts, objects, transactions } from '../../db/schema/index.ts';
import { BackupRefused, backupFailureReason, createBackup, listBackups, readJournal, readManifest, restoreBackup, type BackupManifest } from './backup.ts';
import { backupNow, BACKUP_JOB, nextDailyRun } from './backup.routes.ts';
import { endTar, writeTarEntry } from './tar.ts';
import { toLocalDateTime } from '../../lib/dates.ts';

const t = await createTestApp();
const { app, db } = t;
const admin = await t.user({ roles: ['admin'], email: 'office.admin@agency.test', password: 'restored admin passphrase' });
const agent = await t.user({ roles: ['employee'] });

const PNG = await sharp(randomBytes(64 * 48 * 3), { raw: { width: 64, height: 48, channels: 3 } }).png().toBuffer();
const PDF = Buffer.from(`%PDF-1.4\n1 0 obj<<>>endobj\n${randomBytes(64).toString('hex')}\ntrailer<<>>\n%%EOF\n`);

function form(fields: Record<string, string | number>, files: { name: string; data: Buffer; type: string }[]) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, String(v));
  for (const f of files) fd.append('files', new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
  return fd;
}

/** Fresh, empty databases on the test server (dropped at the end with the others of the run). */
const serverUrl = inject('serverUrl');
async function emptyDatabase(): Promise<string> {
  const name = `crm_t_restore_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
const tmpDirs: string[] = [];
const tmp = (label: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `crm-${label}-`));
  tmpDirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * Points the app's backups at a folder that cannot be written (one under a file, `blocked`):
 * `writable` points them back, `restore` does so and clears the backup jobs (a test's finally).
 */
function unwritableBackups(label: string) {
  const blocked = path.join(tmp(label), 'a-file');
  fs.writeFileSync(blocked, 'not a folder');
  const backup = app.config.backup as { dir: string };
  const dir = backup.dir;
  backup.dir = path.join(blocked, 'backups');
  const writable = () => {
    backup.dir = dir;
  };
  return {
    blocked,
    writable,
    restore: async () => {
      writable();
      await db.execute(sql`delete from jobs where name = ${BACKUP_JOB}`);
    },
  };
}

async function counts(client: { query: (q: string) => Promise<{ rows: unknown[] }> }) {
  const tables = (await client.query(`select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`)).rows as { relname: string }[];
  const out: Record<string, number> = {};
  for (const { relname } of tables) out[relname] = Number(((await client.query(`select count(*)::int as n from "${relname}"`)).rows[0] as { n: number }).n);
  return out;
}

function filesUnder(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const visit = (dir: string, rel: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory()) visit(path.join(dir, e.name), `${rel}${e.name}/`);
      else out.set(`${rel}${e.name}`, fs.readFileSync(path.join(dir, e.name)));
    }
  };
  visit(root, '');
  return out;
}

describe('a backup restored into a new database and data folder', () => {
  it('has every table with the same rows, the files byte for byte, sequences past the restored ids, and its admin signs in', async () => {
    // An owner with a payment and its receipt; a property with a photo (the log records both).
    const [owner] = await db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Παπαδοπούλου', hasTransactions: true }).returning({ id: accounts.id });
    const pay = await admin.post(
      '/api/transactions/addExpense',
      form({ accountId: owner!.id, amount: '80.50', transactionDate: '2026-03-05T09:30:00', paymentMethod: 2, categoryId: 22, status: 0 }, [{ name: 'ΔΕΗ.pdf', data: PDF, type: 'application/pdf' }]),
    );
    expect(pay.statusCode, pay.body).toBe(200);
    const [obj] = (await db.execute(sql`insert into ${objects} default values returning id`)).rows as { id: number }[];
    const up = await agent.post('/api/files', form({}, [{ name: 'σαλόνι.png', data: PNG, type: 'image/png' }]));
    expect(up.statusCode, up.body).toBe(200);
    const photo = (up.json() as { id: number }[])[0]!;
    const attach = await agent.post('/api/files/setParent', { entityType: LinkKind.Object, id: obj!.id, fileNames: [photo.id], type: 'image' });
    expect(attach.statusCode, attach.body).toBe(200);
    // The owner's mandate for the property (decision 079): backed up as every table is.
    const [mandate] = (await db.execute(sql`insert into object_mandates (object_id, kind, start_date, end_date, exceptions)
      values (${obj!.id}, 'exclusive', '2026-03-01', '2026-10-31', '[{"name":"Νίκος Γεωργίου","note":null}]'::jsonb) returning id`)).rows as { id: number }[];
    await db.execute(sql`insert into object_mandate_owners (mandate_id, account_id, tax_office) values (${mandate!.id}, ${owner!.id}, 'Δ΄ Θεσσαλονίκης')`);
    const source = await counts(t.pool);
    expect(source.action_log).toBeGreaterThan(0);
    expect(source.transaction_attachments).toBe(1);
    expect([source.object_mandates, source.object_mandate_owners]).toEqual([1, 1]);

    const b = await backupNow(app);
    expect(b.name).toMatch(/^crm-\d{4}-\d{2}-\d{2}-\d{4}\.tar\.gz$/);
    expect(path.dirname(b.file)).toBe(path.join(t.dataDir, 'backups'));
    expect(b.manifest.migration.tag).toBe(readJournal().entries.at(-1)!.tag);
    expect(Object.fromEntries(b.manifest.tables.map((x) => [x.name, x.rows]))).toEqual(source);
    expect(fs.readdirSync(path.dirname(b.file))).toEqual([b.name]); // nothing half-written left beside it

    const url = await emptyDatabase();
    const dataDir = tmp('restored');
    const restored = await restoreBackup({ file: b.file, url, dataDir });
    expect(restored.rows).toBe(Object.values(source).reduce((n, x) => n + x, 0));

    const h = connectDb(url, 3);
    try {
      expect(await counts(h.pool)).toEqual(source);
      const sample = `select id, first_name, last_name, created_on from accounts where id = ${owner!.id}`;
      expect((await h.pool.query(sample)).rows).toEqual((await t.pool.query(sample)).rows);
      const log = 'select * from action_log order by id';
      expect((await h.pool.query(log)).rows).toEqual((await t.pool.query(log)).rows);
      // The stored files, byte for byte, under the same names.
      const before = filesUnder(path.join(t.dataDir, 'files'));
      const after = filesUnder(path.join(dataDir, 'files'));
      expect(before.size).toBeGreaterThanOrEqual(2);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [k, v] of before) expect(after.get(k)!.equals(v), k).toBe(true);
      // The next rows get ids after the restored ones.
      const maxAccount = Number((await h.pool.query('select max(id) as m from accounts')).rows[0].m);
      const [added] = await h.db.insert(accounts).values({ firstName: 'Νέος', lastName: 'Πελάτης' }).returning({ id: accounts.id });
      expect(added!.id).toBeGreaterThan(maxAccount);
      const maxLog = Number((await h.pool.query('select max(id) as m from action_log')).rows[0].m);
      const nextLog = await h.pool.query(`insert into action_log (action, entity) values ('Create', 'Account') returning id`);
      expect(Number(nextLog.rows[0].id)).toBeGreaterThan(maxLog);

      // The CRM on the restored database and folder: the admin signs in and the photo is there.
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PASSWORD_HASH_FAST: 'true', LOG_LEVEL: 'silent' });
      const app2 = await buildApp({ config, db: h.db, serveWeb: false, jobs: false });
      try {
        await app2.ready();
        const login = await app2.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: admin.email, password: admin.password } });
        expect(login.statusCode, login.body).toBe(200);
        const file = await apiClient(app2, login.json().token as string).get(`/api/files/${photo.id}`);
        expect(file.statusCode).toBe(200);
        expect(file.rawPayload.equals(PNG)).toBe(true);
      } finally {
        await app2.close();
      }
    } finally {
      await h.close();
    }
  });

  it('is refused when it was made by a newer CRM, with the reason, and changes nothing', async () => {
    const last = readJournal().entries.at(-1)!;
    const manifest: BackupManifest = {
      format: 1,
      app: 'agency-crm',
      appVersion: '9.0.0',
      migration: { tag: '9999_from_the_future', when: last.when + 86400000 },
      createdAt: new Date().toISOString(),
      timeZone: 'Europe/Athens',
      tables: [],
      sequences: [],
      files: { count: 0, bytes: 0 },
    };
    const file = path.join(tmp('newer'), 'crm-2030-01-01-0330.tar.gz');
    const gzip = zlib.createGzip();
    const out = fs.createWriteStream(file);
    gzip.pipe(out);
    const json = Buffer.from(JSON.stringify(manifest));
    await writeTarEntry(gzip, { path: 'manifest.json', size: json.length, mtime: new Date() }, json);
    await endTar(gzip);
    gzip.end();
    await new Promise<void>((r) => out.on('close', () => r()));

    const url = await emptyDatabase();
    const dataDir = tmp('newer-target');
    const err = await restoreBackup({ file, url, dataDir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupRefused);
    expect((err as Error).message).toContain('made by a newer version of the CRM (9.0.0, database migration 9999_from_the_future)');
    expect((err as Error).message).toContain(`this CRM knows migrations up to ${last.tag}`);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    expect((await c.query(`select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`)).rows[0].n).toBe(0);
    await c.end();
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('backups kept', () => {
  it('are the newest BACKUP_KEEP: older ones go only once a new one is complete', async () => {
    const dir = tmp('keep');
    const made: string[] = [];
    const client = await t.pool.connect();
    try {
      for (let i = 0; i < 4; i++) {
        const b = await createBackup({ client, dataDir: t.dataDir, dir, keep: 2, timeZone: 'Europe/Athens', appVersion: 'test' });
        made.push(b.name);
        expect(listBackups(dir).map((x) => x.name)).toEqual(made.slice(-2).reverse());
      }
    } finally {
      client.release();
    }
    expect(fs.readdirSync(dir).sort()).toEqual(made.slice(-2).sort());
  });
});

describe('a backup taken while rows are added', () => {
  it('is one moment of the database: every payment\'s account is in it', async () => {
    let stop = false;
    let added = 0;
    const writer = (async () => {
      while (!stop) {
        // The account and then its payment, in two transactions: a table-by-table copy would catch a payment without its account.
        const [a] = await db.insert(accounts).values({ firstName: 'Busy', lastName: `Owner${added}`, hasTransactions: true }).returning({ id: accounts.id });
        await db.insert(transactions).values({ accountId: a!.id, type: 'income', amount: '10.00', transactionDate: new Date() });
        added++;
      }
    })();
    // The backup starts once the writer is under way.
    await vi.waitFor(() => expect(added).toBeGreaterThan(0), { timeout: 5000, interval: 10 });
    const dir = tmp('busy');
    const client = await t.pool.connect();
    let b;
    try {
      b = await createBackup({ client, dataDir: t.dataDir, dir, keep: 0, timeZone: 'Europe/Athens', appVersion: 'test' });
    } finally {
      client.release();
      stop = true;
      await writer;
    }
    expect(added).toBeGreaterThan(3);
    const url = await emptyDatabase();
    await restoreBackup({ file: b.file, url, dataDir: tmp('busy-target') });
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      const orphans = await c.query(`select count(*)::int as n from transactions t where not exists (select 1 from accounts a where a.id = t.account_id)`);
      expect(orphans.rows[0].n).toBe(0);
      const rows = await counts(c);
      for (const x of b.manifest.tables) expect(rows[x.name], x.name).toBe(x.rows);
    } finally {
      await c.end();
    }
  });
});

describe('the daily backup', () => {
  it('runs at BACKUP_AT on the agency\'s clock, the next day once that time has passed', () => {
    // 03:30 in Athens is 00:30 UTC in summer (UTC+3) and 01:30 UTC in winter (UTC+2).
    expect(nextDailyRun(new Date('2026-07-10T00:00:00Z'), '03:30', 'Europe/Athens').toISOString()).toBe('2026-07-10T00:30:00.000Z');
    expect(nextDailyRun(new Date('2026-07-10T00:30:00Z'), '03:30', 'Europe/Athens').toISOString()).toBe('2026-07-11T00:30:00.000Z');
    expect(nextDailyRun(new Date('2026-01-10T12:00:00Z'), '03:30', 'Europe/Athens').toISOString()).toBe('2026-01-11T01:30:00.000Z');
  });

  it('is not scheduled by the test suite, and "Back up now" is for office admins, makes one and shows it', async () => {
    const jobs = await db.execute(sql`select count(*)::int as n from jobs where name = ${BACKUP_JOB}`);
    expect((jobs.rows[0] as { n: number }).n).toBe(0);
    const denied = await agent.post('/api/backups');
    expect(denied.statusCode).toBe(403);

    const before = (await admin.get('/api/backups')).json();
    expect(before).toMatchObject({ daily: false, at: '03:30', keep: 14, dir: path.join(t.dataDir, 'backups'), next: null });
    const res = await admin.post('/api/backups');
    expect(res.statusCode, res.body).toBe(200);
    await app.jobs.drain(60000);
    const after = (await admin.get('/api/backups', { lang: 'en' })).json();
    expect(after.pending).toBe(false);
    expect(after.failure).toBeNull();
    expect(after.items.length).toBe(before.items.length + 1);
    expect(after.items[0].size).toBe(fs.statSync(path.join(t.dataDir, 'backups', after.items[0].name)).size);
    const logged = await db.execute(sql`select message from action_log where entity = 'Job' order by id desc limit 1`);
    expect(logged.rows[0]).toEqual({ message: 'Backup asked for' });
  });

  it('that fails keeps why: a folder that cannot be written is "notWritable", with the technical message beside it', async () => {
    const backups = unwritableBackups('blocked');
    try {
      const res = await admin.post('/api/backups');
      expect(res.statusCode, res.body).toBe(200);
      await app.jobs.drain(60000);
      const stored = await db.execute(sql`select state, last_error_reason, last_error from jobs where name = ${BACKUP_JOB} and singleton_key = 'now' order by id desc limit 1`);
      expect(stored.rows[0]).toMatchObject({ state: 'queued', last_error_reason: 'notWritable', last_error: expect.stringContaining('ENOTDIR') });
      const answer = (await admin.get('/api/backups')).json();
      expect(answer.failure).toMatchObject({ reason: 'notWritable', error: expect.stringContaining('ENOTDIR') });
      // Its next try waits ten minutes: not "being made", and "Back up now" tries it at once.
      expect(answer.pending).toBe(false);
      // Tried again by itself ten minutes later (the agency's clock).
      const retry = (await db.execute(sql`select run_at from jobs where name = ${BACKUP_JOB} and state = 'queued'`)).rows[0] as { run_at: Date | string };
      expect(answer.failure.retryAt).toBe(toLocalDateTime(new Date(retry.run_at), app.config.timeZone));
      expect(new Date(retry.run_at).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
      backups.writable();
      const again = await admin.post('/api/backups');
      expect(again.statusCode, again.body).toBe(200);
      await app.jobs.drain(60000);
      const after = (await admin.get('/api/backups')).json();
      expect(after.failure).toBeNull();
      expect(after.items[0].name).toMatch(/^crm-/);
    } finally {
      await backups.restore();
    }
  });

  it('names the reason of a failure from its error or the error it wraps', () => {
    const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(backupFailureReason(err('ENOSPC'))).toBe('diskFull');
    expect(backupFailureReason(err('53100', 'could not extend file: No space left on device'))).toBe('diskFull');
    expect(backupFailureReason(new Error('pipeline', { cause: err('EDQUOT') }))).toBe('diskFull');
    expect(backupFailureReason(err('EACCES'))).toBe('notWritable');
    expect(backupFailureReason(err('EROFS'))).toBe('notWritable');
    expect(backupFailureReason(err('ECONNREFUSED'))).toBe('databaseUnreachable');
    expect(backupFailureReason(err('57P01', 'terminating connection due to administrator command'))).toBe('databaseUnreachable');
    expect(backupFailureReason(new Error('Connection terminated unexpectedly'))).toBe('databaseUnreachable');
    expect(backupFailureReason(err('42P01', 'relation does not exist'))).toBe('other');
    expect(backupFailureReason('something')).toBe('other');
  });
});

describe('a disk too full', () => {
  it('refuses a backup before anything is written, with the "diskFull" reason, and keeps the backups there are', async () => {
    const dir = path.join(tmp('full'), 'backups');
    const client = await t.pool.connect();
    try {
      const kept = await createBackup({ client, dataDir: t.dataDir, dir, keep: 1, timeZone: 'Europe/Athens', appVersion: 'test' });
      const before = fs.readdirSync(dir);
      const asked: string[] = [];
      const database = Number((await client.query('select pg_database_size(current_database())::text as n')).rows[0].n);
      const err = await createBackup({
        client, dataDir: t.dataDir, dir, keep: 1, timeZone: 'Europe/Athens', appVersion: 'test',
        freeSpace: async (d) => (asked.push(d), database - 1),
      }).catch((e: unknown) => e);
      expect(asked).toEqual([dir]);
      expect((err as Error).message).toMatch(/^Not enough free space for a backup in .*: about [\d.]+ MB needed \(the database [\d.]+ MB, the stored files [\d.]+ MB\), [\d.]+ MB free\. Nothing was written\.$/);
      expect(backupFailureReason(err)).toBe('diskFull');
      // No working folder, no half-written archive; the one backup there was is still there.
      expect(fs.readdirSync(dir)).toEqual(before);
      expect(listBackups(dir).map((b) => b.name)).toEqual([kept.name]);
      // A folder not made yet is not made either.
      const fresh = path.join(tmp('full-fresh'), 'backups');
      await expect(createBackup({ client, dataDir: t.dataDir, dir: fresh, keep: 1, timeZone: 'Europe/Athens', appVersion: 'test', freeSpace: async () => 0 })).rejects.toThrow(/Not enough free space/);
      expect(fs.existsSync(fresh)).toBe(false);
      // Room enough: it is made.
      const made = await createBackup({ client, dataDir: t.dataDir, dir, keep: 2, timeZone: 'Europe/Athens', appVersion: 'test', freeSpace: async () => database * 3 + 1e9 });
      expect(listBackups(dir).map((b) => b.name)).toEqual([made.name, kept.name]);
    } finally {
      client.release();
    }
  });

  it('refuses a restore before anything is unpacked, nothing changed in the database or DATA_DIR', async () => {
    const stored = path.join(t.dataDir, 'files', 'ph', 'photo.bin');
    fs.mkdirSync(path.dirname(stored), { recursive: true });
    fs.writeFileSync(stored, randomBytes(64 * 1024));
    const client = await t.pool.connect();
    let b;
    try {
      b = await createBackup({ client, dataDir: t.dataDir, dir: tmp('full-src'), keep: 0, timeZone: 'Europe/Athens', appVersion: 'test' });
    } finally {
      client.release();
      fs.rmSync(stored, { force: true });
    }
    expect(b.manifest.files.bytes).toBeGreaterThanOrEqual(64 * 1024);
    const tables = b.manifest.tables.reduce((n, x) => n + (x.bytes ?? 0), 0);
    const url = await emptyDatabase();
    const dataDir = tmp('full-target');
    // The files alone do not fit.
    const asked: string[] = [];
    const err = await restoreBackup({ file: b.file, url, dataDir, freeSpace: async (d) => (asked.push(d), b.manifest.files.bytes - 1) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupRefused);
    expect((err as Error).message).toMatch(/^There is not enough free space in .* for it: about [\d.]+ MB needed \(the stored files [\d.]+ MB\), [\d.]+ MB free\. Free some space and try again; nothing was changed\.$/);
    expect(asked).toEqual([dataDir]);
    // The database in DATA_DIR (embedded): its tables count too.
    await expect(restoreBackup({ file: b.file, url, dataDir, databaseInDataDir: true, freeSpace: async () => b.manifest.files.bytes + tables - 1 })).rejects.toThrow(/the tables [\d.]+ MB, the stored files/);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      expect((await c.query(`select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`)).rows[0].n).toBe(0);
    } finally {
      await c.end();
    }
    expect(fs.readdirSync(dataDir)).toEqual([]);
    // Exactly enough: restored.
    const r = await restoreBackup({ file: b.file, url, dataDir, databaseInDataDir: true, freeSpace: async () => b.manifest.files.bytes + tables });
    expect(r.files).toBe(b.manifest.files.count);
    expect(fs.readFileSync(path.join(dataDir, 'files', 'ph', 'photo.bin')).length).toBe(64 * 1024);
  });
});

describe('the manifest of a backup', () => {
  async function archive(manifest: Buffer): Promise<string> {
    const file = path.join(tmp('manifest'), 'crm-2026-01-01-0000.tar.gz');
    const gzip = zlib.createGzip();
    const out = fs.createWriteStream(file);
    gzip.pipe(out);
    await writeTarEntry(gzip, { path: 'manifest.json', size: manifest.length, mtime: new Date() }, manifest);
    await endTar(gzip);
    gzip.end();
    await new Promise<void>((r) => out.on('close', () => r()));
    return file;
  }

  it('is read up to 4 MB, and one larger is refused as not ours', async () => {
    const json = JSON.stringify({ format: 1, app: 'agency-crm', tables: [] });
    const limit = 4 * 1024 * 1024;
    // Padded with spaces (still JSON) to exactly the limit: read.
    const atLimit = Buffer.from(json + ' '.repeat(limit - json.length));
    expect(atLimit.length).toBe(limit);
    expect(await readManifest(await archive(atLimit))).toEqual({ format: 1, app: 'agency-crm', tables: [] });
    // One byte more: refused from its header, before it is read.
    const over = await readManifest(await archive(Buffer.concat([atLimit, Buffer.from(' ')]))).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(BackupRefused);
    expect((over as Error).message).toBe(`This file is not a backup of the agency CRM, or it is damaged (its manifest.json has ${limit + 1} bytes).`);
  });
});

describe('"Back up now" while a backup is being made', () => {
  it('is refused with the reason in the reader\'s language, and queues nothing', async () => {
    const running = (await db.execute(sql`insert into jobs (name, singleton_key, state, attempts, max_attempts, locked_by, locked_until, started_on)
      values (${BACKUP_JOB}, 'daily', 'running', 1, 3, 'another-instance', now() + interval '1 hour', now()) returning id`)).rows[0] as { id: number };
    try {
      const res = await admin.post('/api/backups', undefined, { lang: 'el' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().title).toBe('Δημιουργείται ήδη αντίγραφο ασφαλείας αυτή τη στιγμή. Περιμένετε να ολοκληρωθεί.');
      const queued = await db.execute(sql`select count(*)::int as n from jobs where name = ${BACKUP_JOB} and state = 'queued'`);
      expect((queued.rows[0] as { n: number }).n).toBe(0);
      const answer = (await admin.get('/api/backups')).json();
      expect(answer.pending).toBe(true);
    } finally {
      await db.execute(sql`delete from jobs where id = ${running.id}`);
    }
  });
});

describe('a backup that fails for good', () => {
  it('is an alert every employee reads without the server\'s folders in it; the office admin has the details on the Jobs page', async () => {
    const backups = unwritableBackups('alert');
    const { blocked } = backups;
    try {
      // Its last attempt.
      await db.execute(sql`insert into jobs (name, singleton_key, payload, attempts, max_attempts) values (${BACKUP_JOB}, 'now', '{"manual":true}', 2, 3)`);
      await app.jobs.drain(60000);
      const stored = await db.execute(sql`select id, state, last_error from jobs where name = ${BACKUP_JOB} order by id desc limit 1`);
      const job = stored.rows[0] as { id: number; state: string; last_error: string };
      expect(job.state).toBe('failed');
      expect(job.last_error).toContain(blocked);
      for (const [lang, text] of [
        ['en', 'The background job “Backup” failed (attempts: 3). An office administrator sees why on the Background jobs page.'],
        ['el', 'Η εργασία παρασκηνίου «Αντίγραφο ασφαλείας» απέτυχε (προσπάθειες: 3). Ο διαχειριστής του γραφείου βλέπει την αιτία στη σελίδα «Εργασίες παρασκηνίου».'],
      ] as const) {
        const list = await agent.post('/api/alert/list', { perPage: 50, currentPage: 1 }, { lang });
        expect(list.statusCode, list.body).toBe(200);
        expect((list.json() as { items: { content: string }[] }).items.map((a) => a.content)).toContain(text);
        expect(list.body).not.toContain(blocked);
      }
      const answer = (await admin.get('/api/backups')).json();
      expect(answer.failure).toMatchObject({ reason: 'notWritable', error: expect.stringContaining(blocked) });
    } finally {
      await backups.restore();
    }
  });
});

describe('a backup while a restore runs into the same database', () => {
  it('is not made (its session would make the restore roll back), nothing written; once the restore is over it is', async () => {
    const dir = path.join(tmp('beside-restore'), 'backups');
    const restoring = new pg.Client({ connectionString: t.dbUrl, application_name: 'agency-crm restore' });
    await restoring.connect();
    const client = await t.pool.connect();
    try {
      await expect(createBackup({ client, dataDir: t.dataDir, dir, keep: 1, timeZone: 'Europe/Athens', appVersion: 'test' })).rejects.toThrow(
        'A restore into this database is running: no backup is made until it has finished. Nothing was written.',
      );
      expect(fs.existsSync(dir)).toBe(false);
      await restoring.end();
      const b = await createBackup({ client, dataDir: t.dataDir, dir, keep: 1, timeZone: 'Europe/Athens', appVersion: 'test' });
      expect(listBackups(dir).map((x) => x.name)).toEqual([b.name]);
    } finally {
      client.release();
      await restoring.end().catch(() => {});
    }
  });
});
