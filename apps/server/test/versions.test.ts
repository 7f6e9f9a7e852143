import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { alerts } from '../src/db/schema/index.ts';
import { createTestApp } from './harness.ts';

/**
 * A version on every write (decision 002): a change of a record that does not say which version
 * it was based on is refused with 428 and changes nothing, on every path; two changes based on the
 * same version are one saved and one refused (409), never the last silently winning.
 */
const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const en = { lang: 'en' };

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const res = await admin.call(method, url, payload, en);
  return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Record<string, unknown>) : {} };
}
async function ok(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await call(method, url, payload);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as Record<string, unknown> & { id: number; version: number };
}
const versionOf = async (table: string, id: number) => ((await db.execute<{ version: number }>(sql`select version from ${sql.identifier(table)} where id = ${id}`)).rows[0]!).version;
const fields = (values: Record<string, string>) => Object.entries(values).map(([field, value]) => ({ field, value }));

const account = await ok('POST', '/api/account/add', { firstName: 'Μαρία', lastName: 'Ιωάννου', isOwner: true, hasTransactions: true });
const object = await ok('GET', '/api/object/add');
const lead = await ok('POST', '/api/lead/add', { accountId: account.id });
const activity = await ok('POST', '/api/activity/add', { entityType: 2, id: account.id });
const viewing = await ok('POST', '/api/Viewing/update', { demandId: lead.id, dateOfViewing: '2026-12-01T10:00:00' });
const deal = await ok('POST', '/api/Deal/update', { dealType: 1, dealStage: 1, objectId: object.id });
const key = await ok('POST', '/api/ObjectKeys/edit', { objectId: object.id, received: '2026-03-01' });
const [alert] = await db.insert(alerts).values({ source: 'Rent', kind: 'rent', content: 'Rent reminder' }).returning({ id: alerts.id });
const income = await (async () => {
  const res = await admin.upload('/api/transactions/addIncome', fields({ accountId: String(account.id), amount: '100.00', transactionDate: '2026-03-05T09:30:00', paymentMethod: '1', categoryId: '1' }), en);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number };
})();
const document = await (async () => {
  const res = await admin.upload('/api/Documents/update', fields({ name: 'Εντολή ανάθεσης', description: 'Υπόδειγμα' }), en);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number };
})();

describe('a change without the version it was based on', () => {
  const cases: [string, string, number, () => Promise<{ status: number; body: Record<string, unknown> }>][] = [
    ['the single-field editor (PATCH)', 'accounts', account.id, () => call('PATCH', `/api/account/patch/${account.id}`, [{ op: 'replace', path: '/lastName', value: 'Άλλο' }])],
    ['an account', 'accounts', account.id, () => call('POST', '/api/account/update', { id: account.id, lastName: 'Άλλο' })],
    ['an account’s erasure', 'accounts', account.id, () => call('POST', `/api/account/erase/${account.id}`, {})],
    ['an activity', 'activities', activity.id, () => call('POST', '/api/activity/update', { id: activity.id, description: 'Κλήση' })],
    ['a property', 'objects', object.id, () => call('POST', '/api/object/update', { id: object.id, title: 'Διαμέρισμα' })],
    ['a lead', 'leads', lead.id, () => call('POST', '/api/lead/update', { id: lead.id, description: 'Ζητά τριάρι' })],
    ['a viewing', 'viewings', viewing.id, () => call('POST', '/api/Viewing/update', { id: viewing.id, dateOfViewing: '2026-12-02T10:00:00' })],
    ['a viewing moved on the calendar', 'viewings', viewing.id, () => call('POST', '/api/Viewing/move', { id: viewing.id, dateOfViewing: '2026-12-03T10:00:00' })],
    ['a deal', 'deals', deal.id, () => call('POST', '/api/Deal/update', { id: deal.id, price: 1000 })],
    ['a deal moved on the board', 'deals', deal.id, () => call('POST', '/api/Deal/move', { id: deal.id, dealStage: 2 })],
    ['a key', 'object_keys', key.id, () => call('POST', '/api/ObjectKeys/edit', { id: key.id, objectId: object.id, received: '2026-03-01', description: 'Μπλε μπρελόκ' })],
    ['an alert’s notes', 'alerts', alert!.id, () => call('POST', `/api/alert/update-notes/${alert!.id}`, { notes: 'Πληρώθηκε' })],
    ['the agency’s details', 'site_settings', 1, () => call('POST', '/api/SiteSettings', { phone: '2310 000000' })],
    [
      'an income',
      'transactions',
      income.id,
      async () => {
        const res = await admin.upload('/api/transactions/editIncome', fields({ id: String(income.id), amount: '90.00', transactionDate: '2026-03-05T09:30:00', paymentMethod: '1', categoryId: '1' }), en);
        return { status: res.statusCode, body: res.json() };
      },
    ],
    [
      'a document',
      'documents',
      document.id,
      async () => {
        const res = await admin.upload('/api/Documents/update', fields({ id: String(document.id), name: 'Άλλο όνομα' }), en);
        return { status: res.statusCode, body: res.json() };
      },
    ],
  ];

  it.each(cases)('%s: 428, saying so in the reader’s language, and nothing changes', async (_name, table, id, send) => {
    if (table === 'site_settings') await db.execute(sql`insert into site_settings (id) values (1) on conflict do nothing`);
    const before = await versionOf(table, id);
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(428);
    expect(res.body.title).toBe('The change does not say which version of the record it was made on, so it was not saved. Reload the record and make the change again.');
    expect(await versionOf(table, id)).toBe(before);
  });
});

describe('two people changing the same record at once', () => {
  it('two PATCHes without a version: neither is saved', async () => {
    const a = await ok('POST', '/api/account/add', { firstName: 'Γιώργος', lastName: 'Πρώτος' });
    const [x, y] = await Promise.all(['Δεύτερος', 'Τρίτος'].map((value) => call('PATCH', `/api/account/patch/${a.id}`, [{ op: 'replace', path: '/lastName', value }])));
    expect([x!.status, y!.status]).toEqual([428, 428]);
    expect((await db.execute<{ last_name: string }>(sql`select last_name from accounts where id = ${a.id}`)).rows[0]!.last_name).toBe('Πρώτος');
  });

  it('two PATCHes based on the same version: one is saved, the other told of it (409 with the record as it is)', async () => {
    const a = await ok('POST', '/api/account/add', { firstName: 'Γιώργος', lastName: 'Πρώτος' });
    const v = await versionOf('accounts', a.id);
    const results = await Promise.all(
      ['Δεύτερος', 'Τρίτος'].map((value) => admin.patch(`/api/account/patch/${a.id}`, [{ op: 'replace', path: '/lastName', value }], { ...en, headers: { 'if-match': `"${v}"` } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const saved = (await db.execute<{ last_name: string }>(sql`select last_name from accounts where id = ${a.id}`)).rows[0]!.last_name;
    const refused = results.find((r) => r.statusCode === 409)!.json() as { current: { lastName: string } };
    expect(refused.current.lastName).toBe(saved);
  });
});

describe('what GET .../add answers, posted back with what the form needs, creates: its version 0 or null is no obstacle', () => {
  it.each([
    ['a deal', '/api/Deal/add', '/api/Deal/update', 'deals', { objectId: object.id }],
    ['a viewing', `/api/Viewing/add?demandId=${lead.id}`, '/api/Viewing/update', 'viewings', { dateOfViewing: '2026-12-05T11:00:00' }],
  ])('%s', async (_name, add, update, table, filled) => {
    const blank = await ok('GET', add);
    expect([0, null]).toContain(blank.version);
    const made = await ok('POST', update, { ...blank, ...filled });
    expect(made.id).toBeGreaterThan(0);
    expect(await versionOf(table, made.id)).toBe(1);
  });

  it('a reservation: the blank with its property and dates filled in', async () => {
    const o = await ok('GET', '/api/object/add');
    await ok('POST', '/api/object/update', { id: o.id, version: o.version, forShortRent: true });
    const blank = await ok('GET', `/api/Reservation/add?objectId=${o.id}&checkIn=2027-08-01`);
    expect([0, null, undefined]).toContain(blank.version);
    const made = await ok('POST', '/api/Reservation/update', { ...blank, duration: 3, client: { ...(blank.client as object), lastName: 'Nikolaou' } });
    expect(made.id).toBeGreaterThan(0);
  });
});

describe('an amount with more decimals than cents', () => {
  it.each([
    ['a deal', 'deals', 'price', async () => ok('POST', '/api/Deal/update', { dealType: 2, dealStage: 1, objectId: object.id }), '/api/Deal/update'],
    ['a property', 'objects', 'sale_price', async () => ok('GET', '/api/object/add'), '/api/object/update'],
  ] as const)('%s: refused with a clear error on a whole-record save, and nothing is stored', async (_name, table, column, make, url) => {
    const r = await make();
    const field = column === 'price' ? 'price' : 'salePrice';
    const res = await call('POST', url, { id: r.id, version: r.version, [field]: 1.234 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ [field]: ['At most two decimals (cents).'] });
    expect((await db.execute<{ v: number | null }>(sql`select ${sql.identifier(column)} as v from ${sql.identifier(table)} where id = ${r.id}`)).rows[0]!.v).toBeNull();
    expect((await call('POST', url, { id: r.id, version: r.version, [field]: 1.23 })).status).toBe(200);
  });
});
