import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import pg from 'pg';
import { createTestApp } from '../../../test/harness.ts';
import { withDatabase } from '../../../test/global-setup.ts';
import { BackupRefused, createBackup, readManifest, restoreBackup, verifyBackup } from './backup.ts';
import { endTar, readTar, tarHeader, writeTarEntry } from './tar.ts';

/** npm run restore, as an administrator runs it, into a database of DATABASE_URL that holds an agency already. */
const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const serverUrl = inject('serverUrl');
const t = await createTestApp();

const tmpDirs: string[] = [];
const tmp = (label: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), `crm-${label}-`));
  tmpDirs.push(d);
  return d;
};
/** A DATA_DIR holding one stored file, a lease (files/ab/abcdef.pdf), that a restore moves aside or leaves in place. */
const dataDirWithLease = () => {
  const d = tmp('data');
  fs.mkdirSync(path.join(d, 'files', 'ab'), { recursive: true });
  fs.writeFileSync(path.join(d, 'files', 'ab', 'abcdef.pdf'), 'the lease');
  return d;
};
const roles: string[] = [];
const databases: string[] = [];

async function asServer<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A database holding the agency's one precious table and file (owned by `owner`, else the server's user). */
async function occupiedDatabase(owner?: { name: string; password: string }): Promise<string> {
  const name = `crm_t_occupied_${randomBytes(5).toString('hex')}`;
  databases.push(name);
  await asServer((c) => c.query(`create database ${name}${owner ? ` owner ${owner.name}` : ''}`));
  const u = new URL(withDatabase(serverUrl, name));
  if (owner) {
    u.username = owner.name;
    u.password = owner.password;
  }
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  await c.query(`create table accounts (id int primary key, name text); insert into accounts values (1, 'Ελένη Παπαδοπούλου')`);
  await c.end();
  return u.toString();
}

async function precious(url: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(`select name from accounts order by id`)).rows.map((r: { name: string }) => r.name);
  } finally {
    await c.end();
  }
}

async function asUrl<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Every table's row count. */
const counts = (url: string) =>
  asUrl(url, async (c) => {
    const out: Record<string, number> = {};
    const tables = (await c.query(`select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`)).rows as { relname: string }[];
    for (const { relname } of tables) out[relname] = (await c.query(`select count(*)::int as n from "${relname}"`)).rows[0].n as number;
    return out;
  });

/** A copy of a backup with some entries' bodies changed, and entries added at its end. */
async function rewriteBackup(from: string, to: string, change: (path: string, body: Buffer) => Buffer, add: { path: string; body: Buffer }[] = []) {
  const gzip = zlib.createGzip();
  const written = pipeline(gzip, fs.createWriteStream(to));
  for await (const entry of readTar(fs.createReadStream(from).pipe(zlib.createGunzip()))) {
    const chunks: Buffer[] = [];
    for await (const c of entry.body as AsyncIterable<Buffer>) chunks.push(c);
    const body = change(entry.path, Buffer.concat(chunks));
    await writeTarEntry(gzip, { path: entry.path, size: body.length, mtime: entry.mtime }, body);
  }
  for (const a of add) await writeTarEntry(gzip, { path: a.path, size: a.body.length, mtime: new Date() }, a.body);
  await endTar(gzip);
  gzip.end();
  await written;
}

function restore(file: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/restore.ts', file, '--force'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (b: Buffer) => (out += b.toString()));
    p.stderr.on('data', (b: Buffer) => (out += b.toString()));
    // A restore that hangs fails the test with what it said so far.
    const timer = setTimeout(() => p.kill('SIGKILL'), 60_000);
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

let backupFile = '';
beforeAll(async () => {
  const client = await t.pool.connect();
  try {
    const b = await createBackup({ client, dataDir: t.dataDir, dir: tmp('backups'), keep: 0, timeZone: 'Europe/Athens', appVersion: 'test' });
    backupFile = b.file;
  } finally {
    client.release();
  }
});

afterAll(async () => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
  await asServer(async (c) => {
    for (const d of databases) await c.query(`drop database if exists ${d} with (force)`);
    for (const r of roles) await c.query(`drop role if exists ${r}`);
  });
});

describe('npm run restore --force into the database of DATABASE_URL', () => {
  it('works for a database user that is not a superuser but owns the database: the agency replaced, its files moved aside', async () => {
    const owner = { name: `crm_t_owner_${randomBytes(4).toString('hex')}`, password: 'owner pass' };
    roles.push(owner.name);
    await asServer((c) => c.query(`create role ${owner.name} login password '${owner.password}' nosuperuser`));
    const url = await occupiedDatabase(owner);
    const dataDir = dataDirWithLease();

    const r = await restore(backupFile, { DATABASE_URL: url, DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(0);
    const manifest = await readManifest(backupFile);
    expect(await counts(url)).toEqual(Object.fromEntries(manifest.tables.map((x) => [x.name, x.rows])));
    const replaced = fs.readdirSync(dataDir).filter((d) => d.startsWith('replaced-'));
    expect(fs.readFileSync(path.join(dataDir, replaced[0]!, 'files', 'ab', 'abcdef.pdf'), 'utf8')).toBe('the lease');
  });

  it('leaves an agency exactly as it was when a table of the backup cannot be loaded half-way, its files in place', async () => {
    // An agency restored from the backup, then changed: the state a failed restore must keep.
    const url = await occupiedDatabase();
    const dataDir = tmp('data');
    expect((await restore(backupFile, { DATABASE_URL: url, DATA_DIR: dataDir })).code).toBe(0);
    await asUrl(url, (c) => c.query(`insert into accounts (first_name, last_name) values ('Γιώργος', 'Νικολάου')`));
    fs.mkdirSync(path.join(dataDir, 'files', 'cd'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', 'cd', 'cdef01.pdf'), 'the deed');
    const before = await counts(url);
    expect(before.accounts).toBeGreaterThan(0);

    // The same backup with the first value of its last table with rows (loaded after the others)
    // made unreadable, its row count unchanged.
    const last = (await readManifest(backupFile)).tables.filter((x) => x.rows > 0).at(-1)!.name;
    const bad = path.join(tmp('bad'), 'crm-2026-05-02-0330.tar.gz');
    await rewriteBackup(backupFile, bad, (p, body) => (p === `db/${last}.copy` ? Buffer.from(body.toString('utf8').replace(/^[^\t]+/, (v) => '?'.repeat(v.length))) : body));

    const r = await restore(bad, { DATABASE_URL: url, DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(new RegExp(`Not restored: The table ${last} could not be loaded .*the backup is damaged`));
    expect(await counts(url)).toEqual(before);
    expect(await asUrl(url, async (c) => (await c.query(`select count(*)::int as n from accounts where last_name = 'Νικολάου'`)).rows[0].n)).toBe(1);
    expect(fs.readFileSync(path.join(dataDir, 'files', 'cd', 'cdef01.pdf'), 'utf8')).toBe('the deed');
    expect(fs.readdirSync(dataDir).filter((d) => d.startsWith('replaced-') || d.startsWith('.files-'))).toEqual([]);
  });

  it('refuses a backup cut short and leaves the agency as it was', async () => {
    const url = await occupiedDatabase();
    const cut = path.join(tmp('cut'), 'crm-2026-05-02-0330.tar.gz');
    const whole = fs.readFileSync(backupFile);
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const dataDir = tmp('data');

    const r = await restore(cut, { DATABASE_URL: url, DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/damaged|incomplete|cut short/);
    expect(await precious(url)).toEqual(['Ελένη Παπαδοπούλου']);
  });

  it('replaces a sound database with the backup, the files it replaces moved aside', async () => {
    const url = await occupiedDatabase();
    const dataDir = dataDirWithLease();

    const r = await restore(backupFile, { DATABASE_URL: url, DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Restored crm-/);
    const n = async (u: string) => {
      const c = new pg.Client({ connectionString: u });
      await c.connect();
      try {
        return (await c.query(`select count(*)::int as n from users`)).rows[0].n as number;
      } finally {
        await c.end();
      }
    };
    expect(await n(url)).toBe(Number((await t.pool.query(`select count(*)::int as n from users`)).rows[0].n));
    const replaced = fs.readdirSync(dataDir).filter((d) => d.startsWith('replaced-'));
    expect(replaced).toHaveLength(1);
    expect(fs.readFileSync(path.join(dataDir, replaced[0]!, 'files', 'ab', 'abcdef.pdf'), 'utf8')).toBe('the lease');
  });
});

describe('npm run restore --force into a DATA_DIR (the embedded PostgreSQL)', () => {
  it('puts the database and files it moved aside back where they were when the restore fails', async () => {
    const dataDir = dataDirWithLease();
    // What the folder held (the database folder stands for one: it is only moved, never started).
    fs.mkdirSync(path.join(dataDir, 'postgres', 'pgdata'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'postgres', 'pgdata', 'PG_VERSION'), 'the old database');
    const last = (await readManifest(backupFile)).tables.filter((x) => x.rows > 0).at(-1)!.name;
    const bad = path.join(tmp('bad'), 'crm-2026-05-02-0330.tar.gz');
    await rewriteBackup(backupFile, bad, (p, body) => (p === `db/${last}.copy` ? Buffer.from(body.toString('utf8').replace(/^[^\t]+/, (v) => '?'.repeat(v.length))) : body));

    const r = await restore(bad, { DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/Not restored: The table .* could not be loaded/);
    expect(fs.readFileSync(path.join(dataDir, 'postgres', 'pgdata', 'PG_VERSION'), 'utf8')).toBe('the old database');
    expect(fs.readFileSync(path.join(dataDir, 'files', 'ab', 'abcdef.pdf'), 'utf8')).toBe('the lease');
    expect(fs.readdirSync(dataDir).filter((d) => d.startsWith('replaced-') || d.startsWith('.files-'))).toEqual([]);
  }, 120_000);
});

describe('npm run restore beside a running CRM', () => {
  it('is refused while another session uses the database, --force or not, and works once it is closed', async () => {
    const url = await occupiedDatabase();
    const dataDir = tmp('data');
    // What a CRM running on another DATA_DIR with the same DATABASE_URL holds: a connection of its pool.
    const crm = new pg.Client({ connectionString: url, application_name: 'agency-crm' });
    await crm.connect();
    try {
      const r = await restore(backupFile, { DATABASE_URL: url, DATA_DIR: dataDir });
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/Not restored: Another session is connected to the database \(agency-crm from [^)]*\)\. Stop the CRM .* before restoring into it; nothing was changed\./);
      expect(await precious(url)).toEqual(['Ελένη Παπαδοπούλου']);
      // The restore's own transaction checks too (the script's check left aside).
      await expect(restoreBackup({ file: backupFile, url, dataDir, replace: true, replacedDir: path.join(dataDir, 'aside') })).rejects.toThrow(/Another session is connected/);
      expect(await precious(url)).toEqual(['Ελένη Παπαδοπούλου']);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      await crm.end();
    }
    const r = await restore(backupFile, { DATABASE_URL: url, DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(0);
    expect(await counts(url)).toEqual(Object.fromEntries((await readManifest(backupFile)).tables.map((x) => [x.name, x.rows])));
  });
});

describe('npm run restore beside a session of another database user', () => {
  it('counts it although its session is not shown in full to the restoring user', async () => {
    const owner = { name: `crm_t_owner_${randomBytes(4).toString('hex')}`, password: 'owner pass' };
    roles.push(owner.name);
    await asServer((c) => c.query(`create role ${owner.name} login password '${owner.password}' nosuperuser`));
    const url = await occupiedDatabase(owner);
    const other = new URL(url);
    const server = new URL(serverUrl);
    other.username = server.username;
    other.password = server.password;
    const crm = new pg.Client({ connectionString: other.toString(), application_name: 'agency-crm' });
    await crm.connect();
    try {
      const r = await restore(backupFile, { DATABASE_URL: url, DATA_DIR: tmp('data') });
      expect(r.code, r.out).toBe(1);
      expect(r.out).toMatch(/Not restored: Another session is connected to the database \(agency-crm of another database user, its address not shown to this one\)/);
      expect(await precious(url)).toEqual(['Ελένη Παπαδοπούλου']);
    } finally {
      await crm.end();
    }
  });
});

describe('an archive larger than its manifest says', () => {
  it('is refused at a pax header claiming 600 MB, at once and without reading it', async () => {
    // 600 MB of zeros after the header, as gzip members of 1 MB each: a file of some 600 KB.
    const h = tarHeader({ path: 'PaxHeaders/manifest.json', size: 600 * 1024 * 1024, mtime: new Date(), type: 'file' });
    h[156] = 'x'.charCodeAt(0);
    h.write('        ', 148, 8, 'ascii');
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
    const zeros = zlib.gzipSync(Buffer.alloc(1024 * 1024));
    const file = path.join(tmp('pax'), 'crm-2026-05-02-0330.tar.gz');
    fs.writeFileSync(file, Buffer.concat([zlib.gzipSync(h), ...Array.from({ length: 600 }, () => zeros)]));
    expect(fs.statSync(file).size).toBeLessThan(2 * 1024 * 1024);

    const rss = process.memoryUsage().rss;
    await expect(readManifest(file)).rejects.toThrow(/an extended header of 629145600 bytes, where at most 65536 are expected/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(100 * 1024 * 1024);
    const r = await restore(file, { DATABASE_URL: await occupiedDatabase(), DATA_DIR: tmp('data') });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/Not restored: .*extended header of 629145600 bytes/);
  });

  it('is refused when its files come to more than the manifest lists, nothing written', async () => {
    const manifest = await readManifest(backupFile);
    const big = path.join(tmp('big'), 'crm-2026-05-02-0330.tar.gz');
    await rewriteBackup(backupFile, big, (_p, body) => body, [{ path: 'files/ff/ffff00.bin', body: Buffer.alloc(manifest.files.bytes + 1024 * 1024, 1) }]);
    await expect(verifyBackup(big, manifest)).rejects.toThrow(new RegExp(`files come to more than the ${manifest.files.bytes} bytes its manifest lists \\(files/ff/ffff00.bin goes past it\\)`));

    const url = await occupiedDatabase();
    const dataDir = dataDirWithLease();
    const r = await restore(big, { DATABASE_URL: url, DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/Not restored: The backup's files come to more than/);
    expect(await precious(url)).toEqual(['Ελένη Παπαδοπούλου']);
    expect(fs.readdirSync(dataDir)).toEqual(['files']);
    expect(fs.readdirSync(path.join(dataDir, 'files'))).toEqual(['ab']);
    expect(fs.readdirSync(path.join(dataDir, 'files', 'ab'))).toEqual(['abcdef.pdf']);
  });

  it('is refused when a table holds more bytes than the backup recorded', async () => {
    const manifest = await readManifest(backupFile);
    const t = manifest.tables.find((x) => x.rows > 0)!;
    expect(t.bytes).toBeGreaterThan(0);
    const bloated = path.join(tmp('bloated'), 'crm-2026-05-02-0330.tar.gz');
    await rewriteBackup(backupFile, bloated, (p, body) => (p === `db/${t.name}.copy` ? Buffer.concat([Buffer.alloc(4096, 'x'.charCodeAt(0)), body]) : body));
    const err = await verifyBackup(bloated, manifest).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackupRefused);
    expect((err as Error).message).toBe(`The table ${t.name} holds ${t.bytes! + 4096} bytes where the backup says ${t.bytes}: it is damaged or not ours.`);
  });
});
