import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { actionLog, objectColumns, objectKeyLoans, objectKeys, objects } from '../../db/schema/index.ts';
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
const client = (await post('/api/account/add', { firstName: 'Eleni', lastName: 'Tenant', isClient: true })).json().id as number;

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

describe("a key's lending history", () => {
  type Loan = { id: number; accountId: number | null; account: string | null; givenAway: string | null; received: string | null; recordedBy: string | null; recordedOn: string };
  type KeyAnswer = Record<string, unknown> & { id: number; version: number; history: Loan[]; lastLoan: Omit<Loan, 'id' | 'recordedBy' | 'recordedOn'> | null };
  const loansOf = async (keyId: number) =>
    (await t.db.select().from(objectKeyLoans).where(eq(objectKeyLoans.keyId, keyId)).orderBy(objectKeyLoans.id)).map((l) => [l.accountId, l.givenAway, l.received]);
  const save = async (body: Record<string, unknown>) => {
    const res = await post('/api/ObjectKeys/edit', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as KeyAnswer;
  };

  it('keeps each loan: lent, returned, lent to another; the answer lists them newest first with who recorded them', async () => {
    const o = await addObject();
    let key = await save({ objectId: o.id, accountId: agent, givenAway: '2026-05-04', description: 'Front door' });
    expect(key.history).toMatchObject([{ accountId: agent, account: 'Agent Kostas', givenAway: '2026-05-04', received: null, recordedBy: admin.email }]);
    expect(key.history[0]!.recordedOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    // Back: the same loan, now with its return date.
    key = await save({ ...key, received: '2026-05-06' });
    expect(await loansOf(key.id)).toEqual([[agent, '2026-05-04', '2026-05-06']]);
    // A description changed alone is no loan.
    key = await save({ ...key, description: 'Front door and cellar' });
    expect(await loansOf(key.id)).toEqual([[agent, '2026-05-04', '2026-05-06']]);
    // Lent to the tenant: a second loan, the first one stays as it was.
    key = await save({ ...key, accountId: client, givenAway: '2026-05-20', received: null });
    expect(await loansOf(key.id)).toEqual([
      [agent, '2026-05-04', '2026-05-06'],
      [client, '2026-05-20', null],
    ]);
    const read = (await get(`/api/ObjectKeys/edit/${key.id}`)).json() as KeyAnswer;
    expect(read.history.map((l) => [l.account, l.givenAway, l.received])).toEqual([
      ['Tenant Eleni', '2026-05-20', null],
      ['Agent Kostas', '2026-05-04', '2026-05-06'],
    ]);
    // The list carries the newest loan: the last holder.
    const listed = (await get(`/api/ObjectKeys?referenceNumber=${o.referenceNumber}`)).json().items as KeyAnswer[];
    expect(listed.find((k) => k.id === key.id)!.lastLoan).toEqual({ accountId: client, account: 'Tenant Eleni', givenAway: '2026-05-20', received: null });
    // The action log has the change of the key, as before.
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'ObjectKey'), eq(actionLog.entityId, key.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Update', data: { accountId: client, givenAway: '2026-05-20', received: null } });
  });

  it('a key returned the day it was lent keeps both dates in its loan, and Lend again the same day starts a new one', async () => {
    const o = await addObject();
    let key = await save({ objectId: o.id, accountId: client, givenAway: '2026-06-01' });
    // Key returned the same day: received today and the given-away date cleared (the warning's advice); the loan keeps both.
    key = await save({ ...key, received: '2026-06-01', givenAway: null });
    expect(key).toMatchObject({ accountId: client, givenAway: null, received: '2026-06-01' });
    expect(await hasKey(o.id)).toBe(true);
    expect(await loansOf(key.id)).toEqual([[client, '2026-06-01', '2026-06-01']]);
    // The same client takes it again that day: without newLoan it would read as the same loan.
    key = await save({ ...key, givenAway: '2026-06-01', received: null, newLoan: true });
    expect(await loansOf(key.id)).toEqual([
      [client, '2026-06-01', '2026-06-01'],
      [client, '2026-06-01', null],
    ]);
    expect(await hasKey(o.id)).toBe(false);
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'ObjectKey'), eq(actionLog.entityId, key.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log!.data).toMatchObject({ newLoan: true });
    // The holder cleared on the return: the loan keeps who had it, and the list still names them.
    key = await save({ ...key, accountId: null, received: '2026-06-03' });
    expect(await loansOf(key.id)).toEqual([
      [client, '2026-06-01', '2026-06-01'],
      [client, '2026-06-01', '2026-06-03'],
    ]);
    expect(key.lastLoan).toEqual({ accountId: client, account: 'Tenant Eleni', givenAway: '2026-06-01', received: '2026-06-03' });
    // Equal dates typed in the form are saved (the form warns), and the loan has both.
    const same = await save({ objectId: o.id, accountId: agent, givenAway: '2026-06-05', received: '2026-06-05' });
    expect(same.history).toMatchObject([{ givenAway: '2026-06-05', received: '2026-06-05' }]);
  });

  it('a key from before the history keeps its state as the first loan when it changes', async () => {
    const o = await addObject();
    const [row] = await t.db.insert(objectKeys).values({ objectId: o.id, accountId: agent, givenAway: '2025-12-01', modifiedBy: admin.id }).returning();
    const before = (await get(`/api/ObjectKeys/edit/${row!.id}`)).json() as KeyAnswer;
    expect(before.history).toEqual([]);
    const key = await save({ ...before, accountId: client, givenAway: '2026-01-10' });
    expect(await loansOf(key.id)).toEqual([
      [agent, '2025-12-01', null],
      [client, '2026-01-10', null],
    ]);
    expect(key.history[1]).toMatchObject({ account: 'Agent Kostas', recordedBy: admin.email });
  });

  it('refuses a stale change and writes no loan; a loan written in a save that fails is rolled back with it', async () => {
    const o = await addObject();
    const key = await save({ objectId: o.id, accountId: agent, givenAway: '2026-07-01' });
    await save({ ...key, received: '2026-07-02' });
    const stale = await post('/api/ObjectKeys/edit', { ...key, accountId: client, givenAway: '2026-07-03' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ accountId: agent, received: '2026-07-02', version: 2, history: [{ accountId: agent, received: '2026-07-02' }] });
    expect(await loansOf(key.id)).toEqual([[agent, '2026-07-01', '2026-07-02']]);
    // The action log refuses this key's next entry: the key, its new loan and the log go back together.
    await t.pool.query(`create function refuse_key_log() returns trigger language plpgsql as $$ begin if new.entity = 'ObjectKey' and new.entity_id = ${key.id} then raise exception 'refused'; end if; return new; end $$`);
    await t.pool.query(`create trigger refuse_key_log before insert on action_log for each row execute function refuse_key_log()`);
    try {
      const failed = await post('/api/ObjectKeys/edit', { ...key, version: 2, accountId: client, givenAway: '2026-07-03', received: null });
      expect(failed.statusCode).toBe(500);
    } finally {
      await t.pool.query(`drop trigger refuse_key_log on action_log`);
      await t.pool.query(`drop function refuse_key_log()`);
    }
    expect(await loansOf(key.id)).toEqual([[agent, '2026-07-01', '2026-07-02']]);
    expect((await get(`/api/ObjectKeys/edit/${key.id}`)).json()).toMatchObject({ accountId: agent, version: 2 });
  });

  it('answers the history to staff only, and deletes it with the key', async () => {
    const o = await addObject();
    const key = await save({ objectId: o.id, accountId: agent, givenAway: '2026-08-01' });
    expect((await get(`/api/ObjectKeys/edit/${key.id}`, {})).statusCode).toBe(401);
    const payments = await t.user({ roles: ['clientPayments'] });
    expect((await get(`/api/ObjectKeys/edit/${key.id}`, bearer(payments.token))).statusCode).toBe(403);
    expect((await get(`/api/ObjectKeys/edit/${key.id}`, bearer(branchUser.token))).json().history).toHaveLength(1);
    expect((await del(`/api/ObjectKeys/${key.id}`)).statusCode).toBe(200);
    expect(await loansOf(key.id)).toEqual([]);
  });
});
