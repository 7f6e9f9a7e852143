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
import { createBackup, readManifest } from './backup.ts';
import { endTar, readTar, writeTarEntry } from './tar.ts';

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

/** A copy of a backup with some entries' bodies changed. */
async function rewriteBackup(from: string, to: string, change: (path: string, body: Buffer) => Buffer) {
  const gzip = zlib.createGzip();
  const written = pipeline(gzip, fs.createWriteStream(to));
  for await (const entry of readTar(fs.createReadStream(from).pipe(zlib.createGunzip()))) {
    const chunks: Buffer[] = [];
    for await (const c of entry.body as AsyncIterable<Buffer>) chunks.push(c);
    const body = change(entry.path, Buffer.concat(chunks));
    await writeTarEntry(gzip, { path: entry.path, size: body.length, mtime: entry.mtime }, body);
  }
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
    const dataDir = tmp('data');
    fs.mkdirSync(path.join(dataDir, 'files', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', 'ab', 'abcdef.pdf'), 'the lease');

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
    await rewriteBackup(backupFile, bad, (p, body) => (p === `db/${last}.copy` ? Buffer.from(body.toString('utf8').replace(/^[^\t]+/, 'not-a-number')) : body));

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
    const dataDir = tmp('data');
    fs.mkdirSync(path.join(dataDir, 'files', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', 'ab', 'abcdef.pdf'), 'the lease');

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
    const dataDir = tmp('data');
    // What the folder held (the database folder stands for one: it is only moved, never started).
    fs.mkdirSync(path.join(dataDir, 'postgres', 'pgdata'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'postgres', 'pgdata', 'PG_VERSION'), 'the old database');
    fs.mkdirSync(path.join(dataDir, 'files', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'files', 'ab', 'abcdef.pdf'), 'the lease');
    const last = (await readManifest(backupFile)).tables.filter((x) => x.rows > 0).at(-1)!.name;
    const bad = path.join(tmp('bad'), 'crm-2026-05-02-0330.tar.gz');
    await rewriteBackup(backupFile, bad, (p, body) => (p === `db/${last}.copy` ? Buffer.from(body.toString('utf8').replace(/^[^\t]+/, 'not-a-number')) : body));

    const r = await restore(bad, { DATA_DIR: dataDir });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/Not restored: The table .* could not be loaded/);
    expect(fs.readFileSync(path.join(dataDir, 'postgres', 'pgdata', 'PG_VERSION'), 'utf8')).toBe('the old database');
    expect(fs.readFileSync(path.join(dataDir, 'files', 'ab', 'abcdef.pdf'), 'utf8')).toBe('the lease');
    expect(fs.readdirSync(dataDir).filter((d) => d.startsWith('replaced-') || d.startsWith('.files-'))).toEqual([]);
  }, 120_000);
});
