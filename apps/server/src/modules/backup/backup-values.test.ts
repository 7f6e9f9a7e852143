import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, inject } from 'vitest';
import pg from 'pg';
import { createTestApp } from '../../../test/harness.ts';
import { withDatabase } from '../../../test/global-setup.ts';
import zlib from 'node:zlib';
import { BackupRefused, createBackup, readJournal, readManifest, restoreBackup, verifyBackup } from './backup.ts';
import { endTar, writeTarEntry } from './tar.ts';

const t = await createTestApp();
const serverUrl = inject('serverUrl');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('a backup restored', () => {
  it('gives back every value as it was: tabs, newlines, backslashes, empty and missing texts, json, lists, bytes, times, whatever the date style of the connection that made it', async () => {
    const tricky = 'Οδός\tΕρμού 5\nδιαμ. 3\\Β  \\N';
    const acc = await t.pool.query(
      `insert into accounts (first_name, last_name, middle_name, emails, phones) values ($1, '', null, $2, $3) returning id`,
      [tricky, ['a@b.gr', 'with,comma "q"', ''], ['{brace}', 'null']],
    );
    const log = await t.pool.query(`insert into action_log (date, action, entity, message, data) values ('2026-10-25 03:30:00.123456+02', 'Create', 'Account', $1, $2) returning id`, [
      '\\\\server\\share\r\n',
      { note: 'tab\there', nested: { list: [1, null, 'x\\y'] } },
    ]);
    await t.user({ roles: ['admin'] }); // signed in: a session whose token hash is bytes
    expect(Number((await t.pool.query(`select count(*) from sessions`)).rows[0].count)).toBeGreaterThan(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-values-'));
    dirs.push(dir);
    const client = await t.pool.connect();
    try {
      // A server (or PGOPTIONS) that writes dates day first: '25/10/2026 03:30:00.123456 EET'.
      await client.query(`set datestyle = 'SQL, DMY'; set intervalstyle = 'sql_standard'`);
      const b = await createBackup({ client, dataDir: t.dataDir, dir, keep: 0, timeZone: 'Europe/Athens', appVersion: 'test' });
      const name = `crm_t_values_${randomBytes(5).toString('hex')}`;
      await client.query(`create database ${name}`);
      const url = withDatabase(serverUrl, name);
      await restoreBackup({ file: b.file, url, dataDir: fs.mkdtempSync(path.join(dir, 'data-')) });
      const r = new pg.Client({ connectionString: url });
      await r.connect();
      try {
        for (const q of [`select * from accounts where id = ${acc.rows[0].id}`, `select * from action_log where id = ${log.rows[0].id}`, `select * from users order by id`, `select * from sessions order by 1`]) {
          expect((await r.query(q)).rows, q).toEqual((await t.pool.query(q)).rows);
        }
        const row = (await r.query(`select first_name, last_name, middle_name from accounts where id = ${acc.rows[0].id}`)).rows[0];
        expect(row).toEqual({ first_name: tricky, last_name: '', middle_name: null });
      } finally {
        await r.end();
      }
    } finally {
      client.release();
    }
  });
});

describe('two backups made at the same moment (the daily one and npm run backup)', () => {
  it('are two whole backups under two names', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-twice-'));
    dirs.push(dir);
    const [c1, c2] = [await t.pool.connect(), await t.pool.connect()];
    try {
      const made = await Promise.allSettled([c1, c2].map((client) => createBackup({ client, dataDir: t.dataDir, dir, keep: 0, timeZone: 'Europe/Athens', appVersion: 'test' })));
      expect(made.map((m) => (m.status === 'rejected' ? String(m.reason) : 'ok'))).toEqual(['ok', 'ok']);
      const names = made.map((m) => (m as PromiseFulfilledResult<{ name: string }>).value.name);
      expect(new Set(names).size).toBe(2);
      expect(fs.readdirSync(dir).sort()).toEqual([...names].sort());
      for (const m of made) {
        const b = (m as PromiseFulfilledResult<Awaited<ReturnType<typeof createBackup>>>).value;
        await verifyBackup(b.file, await readManifest(b.file));
      }
    } finally {
      c1.release();
      c2.release();
    }
  });
});

describe('a crafted backup', () => {
  it('with a file entry leading out of the files folder is refused and writes nothing outside it', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-crafted-'));
    dirs.push(base);
    const last = readJournal().entries.at(-1)!;
    const manifest = { format: 1, app: 'agency-crm', appVersion: 'x', migration: { tag: last.tag, when: last.when }, createdAt: new Date().toISOString(), timeZone: 'Europe/Athens', tables: [], sequences: [], files: { count: 1, bytes: 4 } };
    for (const evil of ['files/../../escaped.txt', 'files/ab/../../../escaped.txt', '/tmp/escaped.txt', 'files/ab/./x']) {
      const file = path.join(base, `crm-${randomBytes(3).toString('hex')}.tar.gz`);
      const gzip = zlib.createGzip();
      const out = fs.createWriteStream(file);
      gzip.pipe(out);
      const json = Buffer.from(JSON.stringify(manifest));
      await writeTarEntry(gzip, { path: 'manifest.json', size: json.length, mtime: new Date() }, json);
      await writeTarEntry(gzip, { path: evil, size: 4, mtime: new Date() }, Buffer.from('evil'));
      await endTar(gzip);
      gzip.end();
      await new Promise<void>((r) => out.on('close', () => r()));
      const name = `crm_t_crafted_${randomBytes(5).toString('hex')}`;
      await t.pool.query(`create database ${name}`);
      const dataDir = path.join(base, 'data', 'inner');
      fs.mkdirSync(dataDir, { recursive: true });
      const err = await restoreBackup({ file, url: withDatabase(serverUrl, name), dataDir }).catch((e: unknown) => e);
      expect(err, evil).toBeInstanceOf(BackupRefused);
      expect((err as Error).message).toContain('unexpected entry');
      await expect(verifyBackup(file, manifest as never)).rejects.toBeInstanceOf(BackupRefused);
      expect(fs.existsSync(path.join(base, 'data', 'escaped.txt'))).toBe(false);
      expect(fs.existsSync(path.join(base, 'escaped.txt'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'escaped.txt'))).toBe(false);
    }
  });
});
