import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { accounts } from '../db/schema/index.ts';
import { createTestApp, type SignIn, type TestApp } from '../../test/harness.ts';
import { startChild, type AppChild } from '../../test/app-children.ts';
import { s3Env, startS3Server } from '../../test/s3-server.ts';
import { getFileStorage } from './file-storage.ts';
import { sweepPendingFiles } from './pending-files.ts';

/**
 * Every module that writes stored files before the row naming them commits goes through
 * writeStoredFiles (decision 109): a photo's upload (the original and its two sizes) and a
 * payment's receipt here, made by a real second process (test/app-child.ts) held just before its
 * COMMIT. Killed -9 there, it leaves its files named pending and no row; the housekeeping (grace 0
 * here) removes them. Held there while the housekeeping runs, its files are claimed already: the
 * sweep leaves them, the row commits, and every row names a file that is there. On local disk and
 * on an S3 store (s3rver). A COMMIT that fails (a deferred constraint of the test's own) leaves
 * neither files nor row. A photo deleted by a second process killed -9 right after the delete's
 * COMMIT leaves its files named to remove, and the housekeeping removes them (decision 115).
 */
const s3 = await startS3Server('crm-pending');
const S3_ENV = s3Env(s3.settings, { S3_PREFIX: 'crm/' });
const stores = [
  { store: 'local disk', env: {} as Record<string, string> },
  { store: 'an S3 store', env: S3_ENV },
];
const apps = await Promise.all(stores.map((s) => createTestApp(s.env, undefined, { jobs: false })));
const children: AppChild[] = [];
afterAll(async () => {
  for (const c of children) await c.stop();
  await s3.stop();
});

const JPEG = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#7a9cc8' } }).jpeg().toBuffer();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

type Call = { url: string; fields?: Record<string, string>; files: { field: string; name: string; base64: string; type: string }[] };
/** What each module's write is, and the rows that name its stored files. */
const modules = [
  {
    module: 'a photo upload',
    files: 3, // the original, its thumbnail, its screen-size copy
    call: (): Call => ({ url: '/api/files', files: [{ field: 'files', name: 'σαλόνι.jpg', base64: JPEG.toString('base64'), type: 'image/jpeg' }] }),
    rows: (t: TestApp) => rowsOf<{ n: number }>(t, sql`select count(*)::int as n from files where user_name = 'σαλόνι.jpg'`),
  },
  {
    module: 'a payment receipt',
    files: 1,
    call: (accountId: number): Call => ({
      url: '/api/transactions/addIncome',
      fields: { accountId: String(accountId), amount: '950.00', transactionDate: '2026-03-01T10:00:00', paymentMethod: '1', categoryId: '1' },
      files: [{ field: 'files', name: 'απόδειξη.pdf', base64: PDF.toString('base64'), type: 'application/pdf' }],
    }),
    rows: (t: TestApp) => rowsOf<{ n: number }>(t, sql`select count(*)::int as n from transaction_attachments where user_name = 'απόδειξη.pdf'`),
  },
];

async function rowsOf<T>(t: TestApp, q: ReturnType<typeof sql>) {
  return (await t.db.execute(q)).rows as T[];
}
async function storedFiles(t: TestApp) {
  const out: string[] = [];
  for await (const f of getFileStorage(t.dataDir).list()) out.push(f.name);
  return out.sort();
}
const pending = (t: TestApp) => rowsOf<{ name: string }>(t, sql`select name from stored_files_pending order by name`);
/** Every stored name a row holds. */
async function namedByRows(t: TestApp) {
  const rows = await rowsOf<{ name: string }>(t, sql`
    select system_name as name from files union all select thumb_name from files where thumb_name is not null
    union all select web_name from files where web_name is not null union all select system_name from transaction_attachments`);
  return rows.map((r) => r.name).sort();
}

describe.each(stores.map((s, i) => ({ ...s, i })))('stored files written before their row commits, on $store', ({ env: storeEnv, i }) => {
  const t = apps[i]!;
  let admin: SignIn;
  let accountId: number;
  beforeAll(async () => {
    admin = await t.user({ roles: ['admin'] });
    const [a] = await t.db.insert(accounts).values({ firstName: 'Μαρία', lastName: 'Οικονόμου', isOwner: true, hasTransactions: true }).returning({ id: accounts.id });
    accountId = a!.id;
  });
  /** The module's call made by a second process, held just before its COMMIT. */
  async function heldBeforeCommit(call: Call) {
    const child = startChild(t, 'call', [JSON.stringify({ method: 'POST', token: admin.token, ...call })], { CRM_PAUSE_AT: 'files.beforeCommit', CHILD_ENV: JSON.stringify(storeEnv) });
    children.push(child);
    await child.said((l) => l === 'paused files.beforeCommit');
    return child;
  }

  describe.each(modules)('$module', (m) => {
    it('killed -9 before its commit: no row, and the housekeeping removes its files and their names', async () => {
      const before = await storedFiles(t);
      const child = await heldBeforeCommit(m.call(accountId));
      // Written, and named only as pending.
      const left = (await pending(t)).map((p) => p.name);
      expect(left).toHaveLength(m.files);
      expect(await storedFiles(t)).toEqual([...before, ...left].sort());
      await child.killHard();
      expect(await child.exited).toBe('SIGKILL');
      expect(await m.rows(t)).toEqual([{ n: 0 }]);
      expect((await pending(t)).map((p) => p.name)).toEqual(left);

      expect(await sweepPendingFiles(t.app, 0)).toBe(m.files);
      expect(await storedFiles(t)).toEqual(before);
      expect(await pending(t)).toEqual([]);
    }, 120_000);

    it('held before its commit while the housekeeping sweeps: its files are kept and its row names files that are there', async () => {
      const child = await heldBeforeCommit(m.call(accountId));
      const inFlight = (await pending(t)).map((p) => p.name);
      expect(inFlight).toHaveLength(m.files);
      // Claimed by the transaction still open: not the housekeeping's to take.
      expect(await sweepPendingFiles(t.app, 0)).toBe(0);
      for (const name of inFlight) expect(await getFileStorage(t.dataDir).stat(name), name).toBeDefined();
      child.send('go');
      await child.said((l) => l === 'done');
      expect(JSON.parse(child.lines.find((l) => l.startsWith('{"status"'))!).status).toBe(200);
      expect(await m.rows(t)).toEqual([{ n: 1 }]);
      expect(await pending(t)).toEqual([]);
      expect(await sweepPendingFiles(t.app, 0)).toBe(0);
      const named = await namedByRows(t);
      expect(named).toEqual(expect.arrayContaining(inFlight));
      expect(await storedFiles(t)).toEqual(named);
    }, 120_000);
  });

  it('a photo deleted, killed -9 right after the COMMIT: no row, and the housekeeping removes its three files', async () => {
    const up = await admin.upload('/api/files', [{ field: 'files', name: 'deleted-photo.jpg', data: JPEG, type: 'image/jpeg' }]);
    expect(up.statusCode, up.body).toBe(200);
    const [photo] = up.json() as { systemName: string }[];
    const [row] = await rowsOf<{ names: string[] }>(t, sql`select array[system_name, thumb_name, web_name] as names from files where system_name = ${photo!.systemName}`);
    const names = [...row!.names].sort();
    const before = await storedFiles(t);
    expect(before).toEqual(expect.arrayContaining(names));

    const child = startChild(t, 'call', [JSON.stringify({ method: 'DELETE', url: `/api/files/${photo!.systemName}`, token: admin.token })], {
      CRM_PAUSE_AT: 'files.afterDeleteCommit',
      CHILD_ENV: JSON.stringify(storeEnv),
    });
    children.push(child);
    await child.said((l) => l === 'paused files.afterDeleteCommit');
    await child.killHard();
    expect(await child.exited).toBe('SIGKILL');
    // Committed: the row is gone, its files are still in the store, named to remove.
    expect(await rowsOf(t, sql`select id from files where user_name = 'deleted-photo.jpg'`)).toEqual([]);
    expect(await storedFiles(t)).toEqual(before);
    expect((await pending(t)).map((p) => p.name)).toEqual(names);

    // Taken whatever their age (a grace of an hour), as a sweep that did not finish.
    expect(await sweepPendingFiles(t.app, 3600)).toBe(3);
    expect(await storedFiles(t)).toEqual(before.filter((n) => !names.includes(n)));
    expect(await pending(t)).toEqual([]);
  }, 120_000);

  it('a photo upload whose COMMIT fails (a deferred constraint) leaves no row, no file and no pending name', async () => {
    // Checked only at COMMIT, after the upload's transaction did all its work (claim included).
    await rowsOf(t, sql`create function refuse_at_commit() returns trigger language plpgsql as $$
      begin if new.user_name = 'refused-at-commit.jpg' then raise exception 'refused at commit' using errcode = '23514'; end if; return null; end $$`);
    await rowsOf(t, sql`create constraint trigger files_refused_at_commit after insert on files deferrable initially deferred for each row execute function refuse_at_commit()`);
    try {
      const before = await storedFiles(t);
      const res = await admin.upload('/api/files', [{ field: 'files', name: 'refused-at-commit.jpg', data: JPEG, type: 'image/jpeg' }]);
      expect(res.statusCode).toBe(500);
      expect(await rowsOf(t, sql`select id from files where user_name = 'refused-at-commit.jpg'`)).toEqual([]);
      expect(await storedFiles(t)).toEqual(before);
      expect(await pending(t)).toEqual([]);
      // The same upload under another name commits, with its three files.
      const ok = await admin.upload('/api/files', [{ field: 'files', name: 'accepted.jpg', data: JPEG, type: 'image/jpeg' }]);
      expect(ok.statusCode, ok.body).toBe(200);
      expect((await storedFiles(t)).length).toBe(before.length + 3);
    } finally {
      await rowsOf(t, sql`drop trigger files_refused_at_commit on files`);
      await rowsOf(t, sql`drop function refuse_at_commit()`);
    }
  });
});
