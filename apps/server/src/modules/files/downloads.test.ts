import { describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { desc, eq, sql } from 'drizzle-orm';
import { accounts, actionLog, objects } from '../../db/schema/index.ts';
import { apiClient, appInstances, createTestApp } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { connectDb } from '../../db/client.ts';
import { takeLease, takePlace } from '../../lib/work-leases.ts';
import { exportPlaceKind } from './files.service.ts';

const t = await createTestApp();
const instance = appInstances(t, { serveWeb: false, jobs: false });
const { db } = t;
const admin = await t.user({ roles: ['admin'] });

const downloads = () => db.select().from(actionLog).where(eq(actionLog.action, 'Download')).orderBy(desc(actionLog.id));
/** Downloads `url`, and returns the one log row it added. */
async function logged(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const before = (await downloads()).length;
  const res = await admin.call(method, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  const after = await downloads();
  expect(after).toHaveLength(before + 1);
  return after[0]!;
}

const [buyer] = await db.insert(accounts).values({ firstName: 'Maria', lastName: 'Exportaki', emails: ['maria@exportaki.test'], hasTransactions: true }).returning();
const [flat] = await db.insert(objects).values({ title: 'Flat for the list', forSale: true, salePrice: '150000' } as never).returning();
for (const dealStage of [1, 5]) {
  const res = await admin.post('/api/Deal/update', { objectId: flat!.id, dealType: 2, dealStage, accounts: [{ accountId: buyer!.id, relation: 2 }] });
  expect(res.statusCode, res.body).toBe(200);
}

describe('every download is in the action log', () => {
  it('Deals.xlsx: who, which list, how many rows, and its filter in every language', async () => {
    const row = await logged('POST', '/api/Deal/download', { dealType: 2, lastName: 'Exportaki' });
    expect(row).toMatchObject({ actionBy: admin.id, action: 'Download', entity: 'Deal', entityId: null, message: 'Deals.xlsx' });
    expect(row.data).toEqual({
      rows: 2,
      filter: {
        en: 'Showing: Sale; Last name (any party): Exportaki',
        el: 'Εμφανίζονται: Πώληση; Επώνυμο (οποιουδήποτε μέρους): Exportaki',
        ru: 'Показаны: Продажа; Фамилия (любого участника): Exportaki',
      },
    });
  });

  it('Properties.xlsx', async () => {
    const row = await logged('POST', '/api/object/download', { forSale: true });
    expect(row).toMatchObject({ actionBy: admin.id, entity: 'Object', message: 'Properties.xlsx' });
    expect(row.data).toMatchObject({ rows: 1, filter: { en: 'Showing: For sale' } });
  });

  it('Reservations.xlsx', async () => {
    const row = await logged('POST', '/api/Reservation/download', { startDate: '2031-01-01', endDate: '2031-12-31', clientName: 'Nobody' });
    expect(row).toMatchObject({ actionBy: admin.id, entity: 'Reservation', message: 'Reservations.xlsx' });
    expect(row.data).toMatchObject({ rows: 0, filter: { en: expect.stringContaining('Nobody') } });
  });

  it('Transactions.xlsx names the account', async () => {
    const row = await logged('GET', `/api/transactions/download/${buyer!.id}?type=income`);
    expect(row).toMatchObject({ actionBy: admin.id, entity: 'Transaction', message: 'Transactions.xlsx' });
    expect(row.data).toMatchObject({ accountId: buyer!.id, rows: 0, filter: { en: 'Showing: Income' } });
  });

  it('the mailing list and the interface texts', async () => {
    const emails = await logged('GET', '/api/DataExport?language=russian&except=true');
    expect(emails).toMatchObject({ entity: 'Account', message: 'Emails-Other.xlsx' });
    expect(emails.data).toMatchObject({ rows: 1, filter: { en: 'Other languages' } });
    const texts = await logged('GET', '/api/LocalizationExport');
    expect(texts).toMatchObject({ entity: 'Localization', message: 'Localization.xlsx' });
    expect((texts.data as { rows: number }).rows).toBeGreaterThan(1000);
  });

  it('a download refused (a bad filter, a record not readable) records nothing', async () => {
    const before = (await downloads()).length;
    expect((await admin.post('/api/Deal/download', { stages: [9] })).statusCode).toBe(400);
    expect((await admin.post('/api/object/download', { priceMin: 10, priceMax: 5 })).statusCode).toBe(400);
    expect((await admin.post('/api/Reservation/download', { stages: [99] })).statusCode).toBe(400);
    expect((await admin.get('/api/transactions/download/999999')).statusCode).toBe(404);
    expect(await downloads()).toHaveLength(before);
  });
});

describe('a file is made once at a time for a sign-in', () => {
  it('the same file (list, language, filter) asked for again while it is made (a second tab) is refused, with a clear word; made once, logged once', async () => {
    const before = (await downloads()).length;
    const [a, b] = await Promise.all([admin.post('/api/Deal/download', {}, { lang: 'el' }), admin.post('/api/Deal/download', {}, { lang: 'el' })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json().title).toBe('Το αρχείο αυτό ετοιμάζεται ήδη για εσάς σε άλλη καρτέλα ή παράθυρο· θα κατέβει εκεί μόλις είναι έτοιμο.');
    expect(await downloads()).toHaveLength(before + 1);
    // Once made, it can be asked for again; another filter, another file or another sign-in is never
    // held up (up to EXPORTS_PER_USER of a user's at once).
    expect((await admin.post('/api/Deal/download', {})).statusCode).toBe(200);
    const other = await t.user({ roles: ['admin'] });
    const [mine, sales, theirs, properties] = await Promise.all([
      admin.post('/api/Deal/download', {}),
      admin.post('/api/Deal/download', { dealType: 2 }),
      other.post('/api/Deal/download', {}),
      other.post('/api/object/download', {}),
    ]);
    expect([mine.statusCode, sales.statusCode, theirs.statusCode, properties.statusCode]).toEqual([200, 200, 200, 200]);
  });
});

describe('a file is made once at a time for a sign-in across instances', () => {
  it('two instances on one database: the same file asked of each at once is made by one, refused by the other', async () => {
    const { app: second } = await instance();
    const there = apiClient(second, admin.token);
    const before = (await downloads()).length;
    // The deals held by another transaction: whichever instance takes the file's lease first is
    // still making the file when the other asks (on a fast machine it could otherwise be done).
    const holder = await t.pool.connect();
    let a, b;
    try {
      await holder.query('begin');
      await holder.query('lock table deals in access exclusive mode');
      const asked = [admin.post('/api/Deal/download', {}, { lang: 'el' }), there.post('/api/Deal/download', {}, { lang: 'el' })];
      // The first answer is the refused one: the other waits for the deals.
      expect((await Promise.race(asked)).statusCode).toBe(409);
      await holder.query('commit');
      [a, b] = await Promise.all(asked);
    } finally {
      holder.release();
    }
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect((a.statusCode === 409 ? a : b).json().title).toBe('Το αρχείο αυτό ετοιμάζεται ήδη για εσάς σε άλλη καρτέλα ή παράθυρο· θα κατέβει εκεί μόλις είναι έτοιμο.');
    expect(await downloads()).toHaveLength(before + 1);
    // Made: the lease is given back, and either instance makes it again.
    expect((await there.post('/api/Deal/download', {}, { lang: 'el' })).statusCode).toBe(200);
    expect((await admin.post('/api/Deal/download', {}, { lang: 'el' })).statusCode).toBe(200);
    expect((await db.execute(sql`select count(*)::int as n from work_leases`)).rows[0]).toEqual({ n: 0 });
  });

  it('a lease is held against every other instance until given back, and taken over once its instance stopped renewing it', async () => {
    const handle = connectDb(t.dbUrl, 2, { timeZone: t.config.timeZone });
    try {
      const one = await takeLease(db, 'test:the same file', 'instance-1');
      expect(one).toBeDefined();
      expect(await takeLease(handle.db, 'test:the same file', 'instance-2')).toBeUndefined();
      await one!.release();
      const two = await takeLease(handle.db, 'test:the same file', 'instance-2', { seconds: 1 });
      expect(two).toBeDefined();
      // instance-2 dies: nothing renews its lease, which lapses; then the next who asks takes it.
      await db.execute(sql`update work_leases set until = now() - interval '1 second' where key = ${two!.key}`);
      const three = await takeLease(db, 'test:the same file', 'instance-1');
      expect(three).toBeDefined();
      // The dead instance's late release does not give away the lease it no longer holds.
      await two!.release();
      expect(await takeLease(handle.db, 'test:the same file', 'instance-2')).toBeUndefined();
      await three!.release();
    } finally {
      await handle.close();
    }
  });
});

describe('exports made at once across all instances are limited (EXPORTS_AT_ONCE)', () => {
  const busy = {
    en: 'Many files are being prepared for download right now. Please try again in a few seconds.',
    el: 'Αυτή τη στιγμή ετοιμάζονται πολλά αρχεία για λήψη. Δοκιμάστε ξανά σε λίγα δευτερόλεπτα.',
    ru: 'Сейчас готовится много файлов для скачивания. Попробуйте ещё раз через несколько секунд.',
  };

  it('past the limit a different export on any instance is answered 429 with Retry-After and "busy, try again shortly" in its language; a place given back or lapsed is taken by the next', async () => {
    const u = await createTestApp({ EXPORTS_AT_ONCE: '2' });
    const handle = connectDb(u.dbUrl, 3, { timeZone: u.config.timeZone });
    const second = await buildApp({ config: u.config, db: handle.db, serveWeb: false, jobs: false });
    await second.ready();
    try {
      const boss = await u.user({ roles: ['admin'] });
      const there = apiClient(second, boss.token);
      const logRows = async () => (await u.db.select().from(actionLog).where(eq(actionLog.action, 'Download'))).length;
      const leases = async () => ((await u.db.execute(sql`select key from work_leases order by key`)).rows as { key: string }[]).map((r) => r.key);
      const holders = async () => ((await u.db.execute(sql`select holder from work_leases order by key`)).rows as { holder: string }[]).map((r) => r.holder.split('#')[0]);
      // A backup kept in the backups folder, to be downloaded.
      fs.mkdirSync(u.config.backup.dir, { recursive: true });
      fs.writeFileSync(path.join(u.config.backup.dir, 'crm-2030-01-01-0300.tar.gz'), Buffer.alloc(2048, 7));
      const [account] = await u.db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Limitou', emails: ['eleni@limitou.test'] }).returning();

      // Two exports are being made by other instances: every place is held.
      const one = await takePlace(u.db, 'export', 2, 'instance-1');
      const two = await takePlace(u.db, 'export', 2, 'instance-2');
      expect(one && two).toBeTruthy();
      expect(await takePlace(u.db, 'export', 2, 'instance-3')).toBeUndefined();

      const refusals = [
        { res: await boss.post('/api/Deal/download', {}, { lang: 'ru' }), lang: 'ru' as const },
        { res: await there.post('/api/object/download', {}, { lang: 'el' }), lang: 'el' as const },
        { res: await there.get(`/api/account/personal-data/${account!.id}`), lang: 'en' as const },
      ];
      for (const { res, lang } of refusals) {
        expect(res.statusCode, res.body).toBe(429);
        expect(res.headers['retry-after']).toBe('10');
        expect(res.json().title).toBe(busy[lang]);
      }
      // Nothing was made, nothing logged, no lease of a refused file (nor its user's place) left behind.
      expect(await logRows()).toBe(0);
      expect(await leases()).toEqual(['export:0', 'export:1']);
      // A backup's download takes no export place (decision 098): sent, and only its own lease came and went.
      const backup = await boss.get('/api/backups/crm-2030-01-01-0300.tar.gz');
      expect(backup.statusCode, backup.body).toBe(200);
      expect(backup.rawPayload.length).toBe(2048);
      expect(await logRows()).toBe(1);
      expect(await leases()).toEqual(['export:0', 'export:1']);

      // One of them is finished: the next export, from either instance, is made and logged.
      await one!.release();
      const made = await there.post('/api/Deal/download', {}, { lang: 'ru' });
      expect(made.statusCode, made.body).toBe(200);
      expect(made.headers['content-disposition']).toContain('Deals.xlsx');
      expect(await logRows()).toBe(2);
      // It gave its place back once made: the other instance's export still holds its own.
      expect(await leases()).toHaveLength(1);

      // The instance making the other one dies: its place lapses, and is taken over by the next (who
      // take both places).
      await u.db.execute(sql`update work_leases set until = now() - interval '1 second'`);
      const three = await takePlace(u.db, 'export', 2, 'instance-3');
      const four = await takePlace(u.db, 'export', 2, 'instance-4');
      expect(three && four).toBeTruthy();
      // The dead instance's late release, while its old place is held by another, gives away nothing.
      await two!.release();
      expect(await leases()).toEqual(['export:0', 'export:1']);
      expect((await holders()).sort()).toEqual(['instance-3', 'instance-4']);
      expect((await boss.get(`/api/account/personal-data/${account!.id}`)).statusCode).toBe(429);
      await three!.release();
      await four!.release();
      const personal = await boss.get(`/api/account/personal-data/${account!.id}`);
      expect(personal.statusCode, personal.body).toBe(200);
      expect(await leases()).toEqual([]);
      expect(await logRows()).toBe(3);
    } finally {
      await second.close();
      await handle.close();
    }
  });

  it('one user cannot take every place: past their own 2 at once theirs is refused with a 429 saying it is their own files to wait for, while another user is served', async () => {
    const u = await createTestApp({ EXPORTS_AT_ONCE: '4' });
    const greedy = await u.user({ roles: ['admin'] });
    const other = await u.user({ roles: ['admin'] });
    // Two of greedy's exports are being made (on any instance): both of their places are held.
    const held = [await takePlace(u.db, `export-user:${greedy.id}`, 2, 'instance-1'), await takePlace(u.db, `export-user:${greedy.id}`, 2, 'instance-2')];
    expect(held.every(Boolean)).toBe(true);
    const refused = await greedy.post('/api/Deal/download', {}, { lang: 'el' });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json().title).toBe('Ετοιμάζονται ήδη 2 αρχεία σας. Περιμένετε να ολοκληρωθεί ένα από αυτά και δοκιμάστε ξανά.');
    // Two general places are still free, and another user takes one.
    expect((await other.post('/api/Deal/download', {})).statusCode).toBe(200);
    expect((await u.db.execute(sql`select key from work_leases order by key`)).rows).toEqual([{ key: `export-user:${greedy.id}:0` }, { key: `export-user:${greedy.id}:1` }]);
    await held[0]!.release();
    expect((await greedy.post('/api/Deal/download', {})).statusCode).toBe(200);
    await held[1]!.release();
    expect((await u.db.execute(sql`select count(*)::int as n from work_leases`)).rows[0]).toEqual({ n: 0 });
  });

  it('callers without a user (an API key) each have their own places, never one shared set', async () => {
    const u = await createTestApp({ EXPORTS_AT_ONCE: '8' });
    const first = exportPlaceKind({ user: null, apiKeyId: 11 });
    const second = exportPlaceKind({ user: null, apiKeyId: 12 });
    expect([first, second]).toEqual(['export-key:11', 'export-key:12']);
    // The first key's two places are held: the second key still takes both of its own.
    const held = [await takePlace(u.db, first, 2, 'instance-1'), await takePlace(u.db, first, 2, 'instance-1')];
    expect(held.every(Boolean)).toBe(true);
    expect(await takePlace(u.db, first, 2, 'instance-1')).toBeUndefined();
    const theirs = [await takePlace(u.db, second, 2, 'instance-2'), await takePlace(u.db, second, 2, 'instance-2')];
    expect(theirs.every(Boolean)).toBe(true);
    expect((await u.db.execute(sql`select key from work_leases order by key`)).rows).toEqual(
      ['export-key:11:0', 'export-key:11:1', 'export-key:12:0', 'export-key:12:1'].map((key) => ({ key })),
    );
    // A call made with a key takes the key's places, not its maker's: an integration never fills the person's own.
    expect(exportPlaceKind({ user: { id: 5 } as never, apiKeyId: 11 })).toBe('export-key:11');
    expect(exportPlaceKind({ user: { id: 5 } as never, apiKeyId: null })).toBe('export-user:5');
    for (const l of [...held, ...theirs]) await l!.release();
    // A key whose maker was deleted (its created_by set null) is refused outright: it exports nothing.
    const boss = await u.user({ roles: ['admin'] });
    const none = { accounts: 'none', properties: 'none', leads: 'none', deals: 'read', payments: 'none' };
    const made = await boss.post('/api/ApiKeys', { name: 'Orphan', scopes: none, expiresOn: new Date(Date.now() + 7 * 86400_000).toISOString().slice(0, 10) });
    expect(made.statusCode, made.body).toBe(200);
    const { key, secret } = made.json() as { key: { id: number }; secret: string };
    expect((await u.client(secret).post('/api/Deal/download', {})).statusCode).toBe(200);
    await u.db.execute(sql`update api_keys set created_by = null where id = ${key.id}`);
    expect((await u.client(secret).post('/api/Deal/download', {})).statusCode).toBe(401);
    expect((await u.db.execute(sql`select count(*)::int as n from work_leases`)).rows[0]).toEqual({ n: 0 });
  });

  it('places asked for all at once from several connections: exactly N are taken, each once, and the rest refused', async () => {
    const handle = connectDb(t.dbUrl, 4, { timeZone: t.config.timeZone });
    try {
      const asks = await Promise.all(Array.from({ length: 8 }, (_, i) => takePlace(i % 2 ? handle.db : db, 'test-race', 3, `instance-${i}`)));
      const taken = asks.filter((a) => a !== undefined);
      expect(taken.map((a) => a.key).sort()).toEqual(['test-race:0', 'test-race:1', 'test-race:2']);
      for (const a of taken) await a.release();
      expect((await db.execute(sql`select count(*)::int as n from work_leases where key like 'test-race:%'`)).rows[0]).toEqual({ n: 0 });
    } finally {
      await handle.close();
    }
  });

  it('a place and a lease are given back when the answer closes, even if its file stream is dropped unclosed (an onSend hook that failed) or its reader goes mid-way', async () => {
    const u = await createTestApp({ EXPORTS_AT_ONCE: '2' });
    const boss = await u.user({ roles: ['admin'] });
    const leases = async () => ((await u.db.execute(sql`select key from work_leases order by key`)).rows as { key: string }[]).map((r) => r.key);
    const handle = connectDb(u.dbUrl, 3, { timeZone: u.config.timeZone });
    const second = await buildApp({ config: u.config, db: handle.db, serveWeb: false, jobs: false });
    // A hook that fails on a file's body: Fastify answers the error and drops the body without closing it.
    second.addHook('onSend', async (req, _reply, payload) => {
      if (req.headers['x-fail-send'] && payload && typeof (payload as { pipe?: unknown }).pipe === 'function') throw new Error('the hook failed');
      return payload;
    });
    await second.listen({ port: 0, host: '127.0.0.1' });
    try {
      const there = apiClient(second, boss.token);
      const failed = await there.get('/api/LocalizationExport', { headers: { 'x-fail-send': '1' } });
      expect(failed.statusCode).toBe(500);
      await vi.waitFor(async () => expect(await leases()).toEqual([]), { timeout: 20_000, interval: 50 });

      // Real requests whose reader goes as soon as the answer begins (the socket destroyed).
      const port = (second.server.address() as AddressInfo).port;
      const cutShort = (url: string) =>
        new Promise<number>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${boss.token}` } }, (res) => {
            req.destroy();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
        });
      // A backup far larger than what the sockets buffer: cut off mid-way, it can never finish by itself.
      fs.mkdirSync(u.config.backup.dir, { recursive: true });
      fs.writeFileSync(path.join(u.config.backup.dir, 'crm-2030-02-01-0300.tar.gz'), Buffer.alloc(64 * 1024 * 1024, 7));
      expect(await cutShort('/api/backups/crm-2030-02-01-0300.tar.gz')).toBe(200);
      expect(await cutShort('/api/LocalizationExport')).toBe(200);
      await vi.waitFor(async () => expect(await leases()).toEqual([]), { timeout: 20_000, interval: 50 });
      // And the same backup is sent again to the same sign-in (its lease was given back, no 409).
      expect((await there.call('HEAD', '/api/backups/crm-2030-02-01-0300.tar.gz')).statusCode).toBe(200);
      expect(await cutShort('/api/backups/crm-2030-02-01-0300.tar.gz')).toBe(200);
      await vi.waitFor(async () => expect(await leases()).toEqual([]), { timeout: 20_000, interval: 50 });
    } finally {
      await second.close();
      await handle.close();
    }
  });
});
