import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { accounts, actionLog, objectAccounts, objectKeys, objects } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { refreshEndedOwners } from './object-accounts.service.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });

const el = { lang: 'el' };

const addObject = async (fields: Record<string, unknown> = {}) => {
  const o = (await admin.get('/api/object/add')).json();
  if (Object.keys(fields).length) expect((await admin.post('/api/object/update', { id: o.id, version: o.version, ...fields })).statusCode).toBe(200);
  return o as { id: number; referenceNumber: string };
};
let n = 0;
const addAccount = async (lastName: string, fields: Record<string, unknown> = {}) => {
  const res = await admin.post('/api/account/add', { firstName: `F${++n}`, lastName, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const stored = async (id: number) => (await t.db.select().from(objects).where(eq(objects.id, id)))[0]!;
const yearsAgo = (y: number) => `${new Date().getFullYear() - y}-06-30`;

describe('object contacts', () => {
  it('links an owner: the account becomes an owner, the object knows its owner and is found by the owner\'s name; logged', async () => {
    const o = await addObject({ title: 'Flat in Kalamaria' });
    const owner = await addAccount('Papadopoulou');
    const res = await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: owner, relation: 1, startDate: '2020-01-01' }, el);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ objectId: o.id, accountId: owner, account: `Papadopoulou F${n}`, relation: 1, relationName: 'Ιδιοκτήτης', startDate: '2020-01-01', endDate: null });
    const row = await stored(o.id);
    expect(row.ownerId).toBe(owner);
    expect(row.searchText).toContain('papadopoulou');
    const acc = (await admin.get(`/api/account/view/${owner}`)).json();
    expect(acc).toMatchObject({ isOwner: true, ownedObjectsReferenceNumbers: o.referenceNumber, rentedObjectsReferenceNumbers: '' });
    expect(acc.isOwnerDate).toMatch(/^\d{4}-/);
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Object'), eq(actionLog.entityId, o.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'AddContact', data: expect.objectContaining({ accountId: owner, relation: 1 }) });
    // the owners list shows the object's number, and the global search finds the object by the owner
    const owners = (await admin.get('/api/owner?perPage=100')).json();
    expect(owners.items.find((i: { id: number }) => i.id === owner).objectReferenceNumbers).toBe(o.referenceNumber);
    const hits = (await admin.get(`/api/search?searchStr=${'papadopoulou'}`)).json().items;
    expect(hits).toContainEqual({ id: o.id, entity: 'Object', description: `#${o.referenceNumber} · Flat in Kalamaria · Papadopoulou F${n}` });
  });

  it('keeps the first current owner: an ended owner link gives way, a removed one too, and renaming the owner follows into search', async () => {
    const o = await addObject();
    const old = await addAccount('Oldowner');
    const cur = await addAccount('Newowner');
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: old, relation: 1, startDate: '2001-01-01', endDate: yearsAgo(2) });
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: cur, relation: 1, startDate: yearsAgo(1) });
    expect((await stored(o.id)).ownerId).toBe(cur);
    expect((await admin.post('/api/account/update', { id: cur, version: (await admin.get(`/api/account/view/${cur}`)).json().version, lastName: 'Renamed' })).statusCode).toBe(200);
    expect((await stored(o.id)).searchText).toContain('renamed');
    expect((await admin.call('DELETE', '/api/objectAccount', { objectId: o.id, accountId: cur, relation: 1 })).statusCode).toBe(200);
    expect((await stored(o.id)).ownerId).toBeNull();
    expect((await admin.get(`/api/account/view/${old}`)).json().ownedObjectsReferenceNumbers).toBe('');
  });

  it("lets an owner go when the link's end date passes with nobody touching the property (the hourly job)", async () => {
    const o = await addObject();
    const former = await addAccount('Formerowner');
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: former, relation: 1, startDate: '2001-01-01', endDate: yearsAgo(-1) });
    expect((await stored(o.id)).ownerId).toBe(former);
    // The day passes: the link's end date is now behind (written without the triggers' refresh, as time does).
    await t.db.execute(sql`alter table object_accounts disable trigger user`);
    await t.db.update(objectAccounts).set({ endDate: yearsAgo(1) }).where(and(eq(objectAccounts.objectId, o.id), eq(objectAccounts.accountId, former)));
    await t.db.execute(sql`alter table object_accounts enable trigger user`);
    expect((await stored(o.id)).ownerId).toBe(former);
    expect(await refreshEndedOwners(app.db)).toBe(1);
    expect((await stored(o.id)).ownerId).toBeNull();
    expect((await stored(o.id)).searchText).not.toContain('formerowner');
    expect(await refreshEndedOwners(app.db)).toBe(0);
  });

  it('shows tenants as rented, current ones only; updates dates, price and the payment day', async () => {
    const o = await addObject();
    const tenant = await addAccount('Tenant');
    const add = await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: tenant, relation: 4, startDate: yearsAgo(1), price: 650, rentPaymentDay: 0 });
    expect(add.statusCode, add.body).toBe(200);
    expect((await admin.get(`/api/account/view/${tenant}`)).json().rentedObjectsReferenceNumbers).toBe(o.referenceNumber);
    const upd = await admin.post('/api/objectAccount/update', { objectId: o.id, accountId: tenant, relation: 4, startDate: yearsAgo(1), endDate: `${new Date().getFullYear() - 1}-12-31`, price: 700, rentPaymentDay: -3 });
    expect(upd.statusCode, upd.body).toBe(200);
    const [link] = await t.db.select().from(objectAccounts).where(and(eq(objectAccounts.objectId, o.id), eq(objectAccounts.accountId, tenant)));
    expect(link).toMatchObject({ price: 700, rentPaymentDay: -3 });
    const view = (await admin.get(`/api/object/view/${o.id}`)).json();
    expect(view.contacts).toEqual([expect.objectContaining({ accountId: tenant, relation: 4, relationName: 'Tenant', price: 700, rentPaymentDay: -3 })]);
    expect(view.accounts).toEqual([{ id: tenant, descr: expect.stringContaining('Tenant') }]);
    // the contract ended last year: no longer rented
    expect((await admin.get(`/api/account/view/${tenant}`)).json().rentedObjectsReferenceNumbers).toBe('');
  });

  it('refuses duplicates, unknown records, bad relations, days and date order with clear translated errors; nothing is stored', async () => {
    const o = await addObject();
    const acc = await addAccount('Dup');
    expect((await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: acc, relation: 5 })).statusCode).toBe(200);
    const dup = await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: acc, relation: 5 }, el);
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors.accountId[0]).toContain('ήδη συνδεδεμένη');
    // another relation of the same person is fine
    expect((await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: acc, relation: 9 })).statusCode).toBe(200);
    const cases: [Record<string, unknown>, number, string?][] = [
      [{ objectId: 2147483000, accountId: acc, relation: 1 }, 404],
      [{ objectId: o.id, accountId: 2147483000, relation: 1 }, 404],
      [{ objectId: 2 ** 31, accountId: acc, relation: 1 }, 400, 'objectId'],
      [{ objectId: o.id, accountId: acc, relation: 10 }, 400, 'relation'],
      [{ objectId: o.id, accountId: acc, relation: 4, rentPaymentDay: -28 }, 400, 'rentPaymentDay'],
      [{ objectId: o.id, accountId: acc, relation: 4, rentPaymentDay: 32 }, 400, 'rentPaymentDay'],
      [{ objectId: o.id, accountId: acc, relation: 4, startDate: '2025-02-29' }, 400, 'startDate'],
      [{ objectId: o.id, accountId: acc, relation: 4, startDate: '2025-05-01', endDate: '2025-04-30' }, 400, 'endDate'],
    ];
    for (const [body, status, field] of cases) {
      const res = await admin.post('/api/objectAccount/add', body, el);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (field) expect(Object.keys(res.json().errors), JSON.stringify(body)).toEqual([field]);
      else expect(res.json().title).toMatch(/δεν υπάρχει/);
    }
    const order = await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: acc, relation: 4, startDate: '2025-05-01', endDate: '2025-04-30' }, el);
    expect(order.json().errors.endDate).toEqual(['Η ημερομηνία λήξης δεν μπορεί να είναι πριν από την ημερομηνία έναρξης']);
    const links = await t.db.select().from(objectAccounts).where(eq(objectAccounts.objectId, o.id));
    expect(links.map((l) => l.relation).sort()).toEqual([5, 9]);
    expect((await admin.post('/api/objectAccount/update', { objectId: o.id, accountId: acc, relation: 1 })).statusCode).toBe(404);
    expect((await admin.call('DELETE', '/api/objectAccount', { objectId: o.id, accountId: acc, relation: 1 })).statusCode).toBe(404);
    // without a relation, every link between the two goes
    expect((await admin.call('DELETE', '/api/objectAccount', { objectId: o.id, accountId: acc })).statusCode).toBe(200);
    expect(await t.db.select().from(objectAccounts).where(eq(objectAccounts.objectId, o.id))).toEqual([]);
  });

  it('deleting an owner\'s account removes its links and the next current owner takes over', async () => {
    const o = await addObject();
    const first = await addAccount('Firstowner');
    const second = await addAccount('Secondowner');
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: first, relation: 1, startDate: '2010-01-01' });
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: second, relation: 1, startDate: '2015-01-01' });
    expect((await stored(o.id)).ownerId).toBe(first);
    expect((await admin.del(`/api/account/${first}`)).statusCode).toBe(200);
    expect((await stored(o.id)).ownerId).toBe(second);
    expect((await stored(o.id)).searchText).toContain('secondowner');
    expect(await t.db.select().from(objectAccounts).where(eq(objectAccounts.accountId, first))).toEqual([]);
  });

  it('merging accounts moves the duplicate\'s links (one per object and relation) and keys', async () => {
    const a = await addObject();
    const b = await addObject();
    const kept = await addAccount('Kept');
    const dup = await addAccount('Duplicate');
    await admin.post('/api/objectAccount/add', { objectId: a.id, accountId: kept, relation: 1 });
    await admin.post('/api/objectAccount/add', { objectId: a.id, accountId: dup, relation: 1 });
    await admin.post('/api/objectAccount/add', { objectId: b.id, accountId: dup, relation: 4 });
    const key = (await admin.post('/api/ObjectKeys/edit', { objectId: b.id, accountId: dup, received: '2026-01-05' })).json();
    const keptDto = (await admin.get(`/api/account/view/${kept}`)).json();
    const res = await admin.post('/api/account/merge', { account: { id: kept, version: keptDto.version }, duplicateId: dup });
    expect(res.statusCode, res.body).toBe(200);
    const links = await t.db.select().from(objectAccounts).where(eq(objectAccounts.accountId, kept));
    expect(links.map((l) => [l.objectId, l.relation]).sort()).toEqual([[a.id, 1], [b.id, 4]].sort());
    expect(await t.db.select().from(objectAccounts).where(eq(objectAccounts.accountId, dup))).toEqual([]);
    expect((await t.db.select().from(objectKeys).where(eq(objectKeys.id, key.id)))[0]!.accountId).toBe(kept);
    expect((await t.db.select().from(accounts).where(eq(accounts.id, dup)))).toEqual([]);
    expect(res.json()).toMatchObject({ ownedObjectsReferenceNumbers: a.referenceNumber, rentedObjectsReferenceNumbers: b.referenceNumber });
  });
});
