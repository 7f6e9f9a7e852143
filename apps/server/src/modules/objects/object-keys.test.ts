import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { actionLog, objectColumns, objectKeys, objects } from '../../db/schema/index.ts';
import { bearer, createTestApp } from '../../../test/harness.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const branchUser = await t.user({ roles: ['employee'], branchId: 1 });

type Headers = Record<string, string>;
const H = bearer(admin.token);
const post = (url: string, payload: unknown, headers: Headers = H) => app.inject({ method: 'POST', url, payload: payload as object, headers });
const get = (url: string, headers: Headers = H) => app.inject({ url, headers });
const del = (url: string, headers: Headers = H) => app.inject({ method: 'DELETE', url, headers });
const el = { ...H, 'accept-language': 'el' };

const addObject = async () => (await get('/api/object/add')).json() as { id: number; referenceNumber: string };
const hasKey = async (id: number) => (await t.db.select({ hasKey: objectColumns.hasKey! }).from(objects).where(eq(objects.id, id)))[0]!.hasKey;
const agent = (await post('/api/account/add', { firstName: 'Kostas', lastName: 'Agent', isEmploye: true })).json().id as number;

describe('the keys register', () => {
  it('creates a key, lists it with the object number and holder, and hasKey follows received and given away', async () => {
    const o = await addObject();
    expect(await hasKey(o.id)).toBe(false);
    const res = await post('/api/ObjectKeys/edit', { objectId: o.id, accountId: agent, received: '2026-03-01', description: ' Two keys, blue tag ' });
    expect(res.statusCode, res.body).toBe(200);
    const key = res.json();
    expect(key).toMatchObject({ objectId: o.id, objectReferenceNumber: o.referenceNumber, accountId: agent, account: 'Agent Kostas', received: '2026-03-01', givenAway: null, description: 'Two keys, blue tag', version: 1 });
    expect(await hasKey(o.id)).toBe(true);
    expect((await get(`/api/object/view/${o.id}`)).json().hasKey).toBe(true);
    // given away after it was received: no longer held
    type Key = Record<string, unknown>;
    let upd = await post('/api/ObjectKeys/edit', { ...key, givenAway: '2026-03-10' });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().version).toBe(2);
    expect(await hasKey(o.id)).toBe(false);
    // received back after it was given away: held again
    upd = await post('/api/ObjectKeys/edit', { ...(upd.json() as Key), received: '2026-04-02' });
    expect(await hasKey(o.id)).toBe(true);
    // the same day: counts as given away
    upd = await post('/api/ObjectKeys/edit', { ...(upd.json() as Key), givenAway: '2026-04-02' });
    expect(await hasKey(o.id)).toBe(false);
    expect((await get(`/api/ObjectKeys/edit/${key.id}`)).json()).toMatchObject({ received: '2026-04-02', givenAway: '2026-04-02', version: 4 });
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'ObjectKey'), eq(actionLog.entityId, key.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Update', data: { givenAway: '2026-04-02' } });
    expect((await del(`/api/ObjectKeys/${key.id}`)).statusCode).toBe(200);
    expect(await t.db.select().from(objectKeys).where(eq(objectKeys.id, key.id))).toEqual([]);
    expect((await del(`/api/ObjectKeys/${key.id}`)).statusCode).toBe(404);
  });

  it('answers a stale change 409 with the current key and changes nothing', async () => {
    const o = await addObject();
    const key = (await post('/api/ObjectKeys/edit', { objectId: o.id, received: '2026-01-01' })).json();
    expect((await post('/api/ObjectKeys/edit', { ...key, description: 'first' })).statusCode).toBe(200);
    const stale = await post('/api/ObjectKeys/edit', { ...key, description: 'second' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ description: 'first', version: 2 });
  });

  it('filters by reference-number prefix, pages in SQL, default 10 a page', async () => {
    const made = [];
    for (let i = 0; i < 12; i++) {
      const o = await addObject();
      made.push(o);
      await post('/api/ObjectKeys/edit', { objectId: o.id, accountId: agent, received: '2026-02-01' });
    }
    const all = (await get('/api/ObjectKeys')).json();
    expect(all.items).toHaveLength(10);
    const total = (await t.db.select().from(objectKeys)).length;
    expect(all.totalRows).toBe(total);
    const page2 = (await get('/api/ObjectKeys?currentPage=2')).json();
    expect(page2.items.map((k: { id: number }) => k.id)).not.toContain(all.items[0].id);
    const ref = made[11]!.referenceNumber;
    const byRef = (await get(`/api/ObjectKeys?referenceNumber=${ref}`)).json();
    expect(byRef.items.map((k: { objectReferenceNumber: string }) => k.objectReferenceNumber)).toEqual([ref]);
    const prefix = ref.slice(0, 3);
    const byPrefix = (await get(`/api/ObjectKeys?referenceNumber=${prefix}&perPage=100`)).json();
    expect(byPrefix.items.length).toBeGreaterThan(0);
    expect(byPrefix.items.every((k: { objectReferenceNumber: string }) => k.objectReferenceNumber.startsWith(prefix))).toBe(true);
    expect((await get('/api/ObjectKeys?referenceNumber=abc')).json()).toEqual({ items: [], totalRows: 0 });
    expect((await get('/api/ObjectKeys', bearer(branchUser.token))).statusCode).toBe(200);
  });

  it('refuses unknown objects and holders, impossible dates and ids past 2^31 with clear errors', async () => {
    const o = await addObject();
    const noObject = await post('/api/ObjectKeys/edit', { objectId: 2147483000 }, el);
    expect(noObject.statusCode).toBe(400);
    expect(noObject.json().errors.objectId).toEqual(['Επιλέξτε υπαρκτό ακίνητο']);
    const noHolder = await post('/api/ObjectKeys/edit', { objectId: o.id, accountId: 2147483000 }, el);
    expect(noHolder.json().errors.accountId).toEqual(['Επιλέξτε υπαρκτή επαφή']);
    // A key that says nothing (no holder, no date, no description) is not a record.
    const empty = await post('/api/ObjectKeys/edit', { objectId: o.id, description: '   ' }, el);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.accountId).toEqual(['Συμπληρώστε ποιος έχει το κλειδί, πότε παραλήφθηκε ή δόθηκε, ή μια περιγραφή του.']);
    for (const body of [{ objectId: o.id, received: '2026-13-01' }, { objectId: 2 ** 31 }, { objectId: o.id, accountId: 0 }]) {
      expect((await post('/api/ObjectKeys/edit', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await post('/api/ObjectKeys/edit', { id: 2147483000, version: 1, objectId: o.id })).statusCode).toBe(404);
    expect((await get('/api/ObjectKeys/edit/2147483000')).statusCode).toBe(404);
    expect((await get(`/api/ObjectKeys/edit/${2 ** 31}`)).statusCode).toBe(400);
    expect(await t.db.select().from(objectKeys).where(eq(objectKeys.objectId, o.id))).toEqual([]);
  });
});
