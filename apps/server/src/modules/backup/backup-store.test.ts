import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { apiClient } from '../../../test/harness.ts';
import { startS3Instances } from '../../../test/s3-instances.ts';
import { withDatabase } from '../../../test/global-setup.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { S3Storage } from '../../storage/s3-storage.ts';
import { fetchKeptBackup, listBackups, restoreBackup } from './backup.ts';
import { backupNow } from './backup.routes.ts';
import { readTar } from './tar.ts';

/**
 * Backups with STORAGE=s3 (decision 093): written into the store's backups/ by whichever instance
 * makes them, listed, downloaded and pruned by every other, and restored from there; against s3rver,
 * a real S3 protocol server that checks signatures. `other` is a second machine: its own DATA_DIR
 * (and backups folder), the same database and store.
 */
const { s3, env, t, other } = await startS3Instances('crm-backups', { S3_PREFIX: 'agency/', BACKUP_KEEP: '2' });
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function bytesOf(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}
/** The files/ entries of a backup archive, by stored name, as SHA-256. */
async function archivedFiles(archive: Buffer): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of readTar(Readable.from([zlib.gunzipSync(archive)]))) {
    const body = await bytesOf(e.body);
    if (e.path.startsWith('files/')) out.set(path.basename(e.path), sha(body));
  }
  return out;
}

describe('backups kept in the S3 store', () => {
  it('one instance makes it into the store; another lists it, streams it whole, and its files match the store checksum for checksum', async () => {
    const store = getFileStorage(t.dataDir);
    expect(store.kind).toBe('s3');
    const stored = new Map<string, string>();
    for (const [name, data] of [
      ['aa11bb22cc33.jpg', randomBytes(300 * 1024)],
      ['dd44ee55ff66.pdf', Buffer.from('%PDF-1.4 a signed mandate')],
      ['0123456789ab.webp', randomBytes(40 * 1024)],
      // Past one 8 MB part: the archive goes up in parts.
      ['fedcba987654.mp4', randomBytes(9 * 1024 * 1024)],
    ] as const) {
      await store.put(name, Readable.from([data]));
      stored.set(name, sha(data));
    }

    const made = await backupNow(t.app);
    expect(made.file).toBe(`s3://crm-backups/agency/backups/${made.name}`);
    expect(made.size).toBeGreaterThan(9 * 1024 * 1024);
    // Nothing on the disk of the instance that made it.
    expect(listBackups(t.config.backup.dir)).toEqual([]);

    const there = apiClient(other, admin.token);
    const listed = await there.get('/api/backups');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({ inStore: true, dir: 's3://crm-backups/agency/backups/', keep: 2 });
    expect(listed.json().items[0]).toMatchObject({ name: made.name, size: made.size });

    // Its size asked first (a download manager's HEAD): answered, sent nothing, not a download.
    const asked = await there.call('HEAD', `/api/backups/${made.name}`);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(Number(asked.headers['content-length'])).toBe(made.size);
    const got = await there.get(`/api/backups/${made.name}`);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.headers['content-type']).toBe('application/gzip');
    expect(got.headers['content-disposition']).toBe(`attachment; filename="${made.name}"; filename*=UTF-8''${made.name}`);
    expect(Number(got.headers['content-length'])).toBe(made.size);
    const archive = got.rawPayload;
    const direct = await new S3Storage({ ...s3.settings, prefix: 'agency/' }).backups().get(made.name);
    expect(sha(archive)).toBe(sha(await bytesOf(direct!.body)));
    expect(await archivedFiles(archive)).toEqual(stored);

    // The whole database leaving the system is on the record; staff cannot take it, nor a name not made here.
    const logged = await t.pool.query(`select entity, message from action_log where action = 'Download' and action_by = $1`, [admin.id]);
    expect(logged.rows).toEqual([{ entity: 'Backup', message: made.name }]);
    expect((await apiClient(other, agent.token).get(`/api/backups/${made.name}`)).statusCode).toBe(403);
    expect((await there.get('/api/backups/crm-2001-01-01-0000.tar.gz')).statusCode).toBe(404);
    expect((await there.get('/api/backups/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(400);
  }, 60_000);

  it('keeps the newest BACKUP_KEEP in the store, whichever instance made them', async () => {
    await backupNow(other);
    const third = await backupNow(t.app);
    const items = (await apiClient(t.app, admin.token).get('/api/backups')).json().items as { name: string }[];
    expect(items).toHaveLength(2);
    expect(items[0]!.name).toBe(third.name);
  }, 60_000);

  it('is restored from the store: fetched, then put back into a new database and store, files equal', async () => {
    const area = getFileStorage(t.dataDir).backups!();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-restore-from-store-'));
    try {
      const file = path.join(dir, 'fetched.tar.gz');
      const latest = (await apiClient(t.app, admin.token).get('/api/backups')).json().items[0] as { name: string; size: number };
      expect(await fetchKeptBackup(area, 'latest', file)).toEqual({ name: latest.name, size: latest.size });
      await expect(fetchKeptBackup(area, 'crm-2001-01-01-0000.tar.gz', path.join(dir, 'none'))).rejects.toThrow(/There is no backup crm-2001-01-01-0000\.tar\.gz in s3:\/\/crm-backups\/agency\/backups\//);

      const target = `crm_t_from_store_${randomBytes(4).toString('hex')}`;
      const c = new pg.Client({ connectionString: t.dbUrl });
      await c.connect();
      await c.query(`create database ${target}`);
      await c.end();
      const into = new S3Storage({ ...s3.settings, prefix: 'restored/' });
      const r = await restoreBackup({ file, url: withDatabase(t.dbUrl, target), dataDir: dir, storage: into });
      const from = getFileStorage(t.dataDir);
      const names: string[] = [];
      for await (const f of from.list()) names.push(f.name);
      expect(r.files).toBe(names.length);
      for (const n of names) expect(sha(await bytesOf((await into.get(n))!)), n).toBe(sha(await bytesOf((await from.get(n))!)));
      const d = new pg.Client({ connectionString: t.dbUrl });
      await d.connect();
      await d.query(`drop database ${target} with (force)`);
      await d.end();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('restored into a store that refuses a file half-way: what it put is taken out, what the store held stays, the database stays empty', async () => {
    const area = getFileStorage(t.dataDir).backups!();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-restore-refused-'));
    try {
      const file = path.join(dir, 'fetched.tar.gz');
      await fetchKeptBackup(area, 'latest', file);
      const inBackup = [...(await archivedFiles(fs.readFileSync(file))).keys()];
      // The store holds the backup's first file already (a restore into the store it was made from),
      // then takes one file (still on its way when the next is refused).
      expect(inBackup.length).toBeGreaterThan(3);
      const prefix = `refused-${randomBytes(4).toString('hex')}/`;
      const held = new S3Storage({ ...s3.settings, prefix });
      await held.put(inBackup[0]!, (await getFileStorage(t.dataDir).get(inBackup[0]!))!);
      await held.put('ffeeddccbbaa.txt', Readable.from([Buffer.from('a file of its own')]));
      const target = `crm_t_refused_${randomBytes(4).toString('hex')}`;
      const c = new pg.Client({ connectionString: t.dbUrl });
      await c.connect();
      await c.query(`create database ${target}`);
      /** The real store, refusing its second file (as a full bucket or a lapsed key would). */
      class RefusesTheSecond extends S3Storage {
        puts = 0;
        refused = (() => {
          let resolve!: () => void;
          const promise = new Promise<void>((r) => (resolve = r));
          return { promise, resolve };
        })();
        override async put(name: string, source: Readable | { path: string }): Promise<void> {
          const n = ++this.puts;
          if (n === 2) {
            this.refused.resolve();
            throw new Error('The store refused the file.');
          }
          // The first file is slow to store: still on its way when the restore gives up (its undo
          // must wait for it, or the file would land after the undo and stay).
          if (n !== 1) return super.put(name, source);
          this.first = this.refused.promise.then(() => new Promise((r) => setTimeout(r, 500))).then(() => super.put(name, source));
          return this.first;
        }
        first: Promise<void> | undefined;
      }
      const into = new RefusesTheSecond({ ...s3.settings, prefix });
      await expect(restoreBackup({ file, url: withDatabase(t.dbUrl, target), dataDir: dir, storage: into })).rejects.toThrow('The store refused the file.');
      // Nothing more was put after the refusal (the held file was not put again).
      expect(into.puts).toBeLessThan(inBackup.length - 1);
      // Whenever the first file landed (after the restore gave up, were it not waited for), it is not left.
      await into.first?.catch(() => undefined);
      const left: string[] = [];
      for await (const f of into.list()) left.push(f.name);
      expect(left.sort()).toEqual([inBackup[0]!, 'ffeeddccbbaa.txt'].sort());
      const d = new pg.Client({ connectionString: withDatabase(t.dbUrl, target) });
      await d.connect();
      expect((await d.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0]!.n).toBe(0);
      await d.end();
      await c.query(`drop database ${target} with (force)`);
      await c.end();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('npm run restore -- --from-store latest: fetched from the store, restored into an empty database, its copy removed', async () => {
    const target = `crm_t_cli_store_${randomBytes(4).toString('hex')}`;
    const c = new pg.Client({ connectionString: t.dbUrl });
    await c.connect();
    await c.query(`create database ${target}`);
    await c.end();
    const url = withDatabase(t.dbUrl, target);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-cli-from-store-'));
    const latest = (await apiClient(t.app, admin.token).get('/api/backups')).json().items[0] as { name: string };
    try {
      const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/restore.ts', '--from-store', 'latest', '--force'], {
          cwd: path.resolve(import.meta.dirname, '../../../../..'),
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, DATA_DIR: dataDir, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let said = '';
        p.stdout.on('data', (b: Buffer) => (said += b.toString()));
        p.stderr.on('data', (b: Buffer) => (said += b.toString()));
        p.on('error', reject);
        p.on('close', (n) => resolve({ code: n, out: said }));
      });
      expect(out).toContain(`Fetching latest from s3://crm-backups/agency/backups/...`);
      expect(out).toContain(`Restored ${latest.name} into ${dataDir}`);
      expect(code, out).toBe(0);
      // The fetched copy is gone; the restored database has the office's sign-ins.
      expect(fs.readdirSync(dataDir).filter((n) => n.endsWith('.tar.gz'))).toEqual([]);
      const r = new pg.Client({ connectionString: url });
      await r.connect();
      expect((await r.query('select email from users where id = $1', [admin.id])).rows).toEqual([{ email: admin.email }]);
      await r.end();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const d = new pg.Client({ connectionString: t.dbUrl });
      await d.connect();
      await d.query(`drop database if exists ${target} with (force)`);
      await d.end();
    }
  }, 120_000);

  it('two instances making one in the same minute never give it the same name: each is kept whole', async () => {
    // The daily backup on one instance beside one asked for on another: a name is claimed in the
    // database until its backup is whole in the store, so the second takes the next name.
    const [a, b] = await Promise.all([backupNow(t.app), backupNow(other)]);
    expect(a.name).not.toBe(b.name);
    const area = new S3Storage({ ...s3.settings, prefix: 'agency/' }).backups();
    for (const made of [a, b]) {
      const kept = await area.get(made.name);
      expect((await bytesOf(kept!.body)).length).toBe(made.size);
    }
    // No claim outlives its backup.
    expect((await t.pool.query(`select key from work_leases where key like 'backup-name:%'`)).rows).toEqual([]);
  }, 120_000);
});
