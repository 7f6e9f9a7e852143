import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { actionLog, objectColumns, objectKeyLoans, objectKeys, objects } from '../../db/schema/index.ts';
import { createTestApp, type CallOptions, type Client } from '../../../test/harness.ts';
import { agencyToday } from '../../lib/dates.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const branchUser = await t.user({ roles: ['employee'], branchId: 1 });

const el = { lang: 'el' };

const addObject = async () => (await admin.get('/api/object/add')).json() as { id: number; referenceNumber: string };
const hasKey = async (id: number) => (await t.db.select({ hasKey: objectColumns.hasKey! }).from(objects).where(eq(objects.id, id)))[0]!.hasKey;
const agent = (await admin.post('/api/account/add', { firstName: 'Kostas', lastName: 'Agent', isEmploye: true })).json().id as number;
const client = (await admin.post('/api/account/add', { firstName: 'Eleni', lastName: 'Tenant', isClient: true })).json().id as number;
const other = (await admin.post('/api/account/add', { firstName: 'Μαρία', lastName: 'Παπαδοπούλου', isClient: true })).json().id as number;

describe('the keys register', () => {
  it('creates a key, lists it with the object number and holder, and hasKey follows received and given away', async () => {
    const o = await addObject();
    expect(await hasKey(o.id)).toBe(false);
    const res = await admin.post('/api/ObjectKeys/edit', { objectId: o.id, accountId: agent, received: '2026-03-01', description: ' Two keys, blue tag ' });
    expect(res.statusCode, res.body).toBe(200);
    const key = res.json();
    expect(key).toMatchObject({ objectId: o.id, objectReferenceNumber: o.referenceNumber, accountId: agent, account: 'Agent Kostas', received: '2026-03-01', givenAway: null, description: 'Two keys, blue tag', version: 1 });
    expect(await hasKey(o.id)).toBe(true);
    expect((await admin.get(`/api/object/view/${o.id}`)).json().hasKey).toBe(true);
    // given away after it was received: no longer held
    type Key = Record<string, unknown>;
    let upd = await admin.post('/api/ObjectKeys/edit', { ...key, givenAway: '2026-03-10' });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().version).toBe(2);
    expect(await hasKey(o.id)).toBe(false);
    // received back after it was given away: held again
    upd = await admin.post('/api/ObjectKeys/edit', { ...(upd.json() as Key), received: '2026-04-02' });
    expect(await hasKey(o.id)).toBe(true);
    // the same day: counts as given away
    upd = await admin.post('/api/ObjectKeys/edit', { ...(upd.json() as Key), givenAway: '2026-04-02' });
    expect(await hasKey(o.id)).toBe(false);
    expect((await admin.get(`/api/ObjectKeys/edit/${key.id}`)).json()).toMatchObject({ received: '2026-04-02', givenAway: '2026-04-02', version: 4 });
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'ObjectKey'), eq(actionLog.entityId, key.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Update', data: { givenAway: '2026-04-02' } });
    expect((await admin.del(`/api/ObjectKeys/${key.id}`)).statusCode).toBe(200);
    expect(await t.db.select().from(objectKeys).where(eq(objectKeys.id, key.id))).toEqual([]);
    expect((await admin.del(`/api/ObjectKeys/${key.id}`)).statusCode).toBe(404);
  });

  it("names the key's property by its title in the reader's language, in the key's answer and in the list", async () => {
    const o = await addObject();
    await t.db.execute(sql`update objects set title = 'Διαμέρισμα στην Καλαμαριά', title_ru = 'Квартира в Каламарии' where id = ${o.id}`);
    const made = await admin.post('/api/ObjectKeys/edit', { objectId: o.id, received: '2026-03-01' }, { lang: 'ru' });
    expect(made.statusCode, made.body).toBe(200);
    const key = made.json();
    expect(key).toMatchObject({ objectReferenceNumber: o.referenceNumber, objectTitle: 'Квартира в Каламарии' });
    expect((await admin.get(`/api/ObjectKeys/edit/${key.id}`, el)).json().objectTitle).toBe('Διαμέρισμα στην Καλαμαριά');
    const listed = (await admin.get(`/api/ObjectKeys?objectId=${o.id}`, { lang: 'en' })).json();
    expect(listed.items).toMatchObject([{ id: key.id, objectTitle: 'Διαμέρισμα στην Καλαμαριά' }]);
    // Without a title: null, the number alone.
    const bare = await addObject();
    const plain = (await admin.post('/api/ObjectKeys/edit', { objectId: bare.id, received: '2026-03-01' })).json();
    expect(plain.objectTitle).toBeNull();
  });

  it('answers a stale change 409 with the current key and changes nothing', async () => {
    const o = await addObject();
    const key = (await admin.post('/api/ObjectKeys/edit', { objectId: o.id, received: '2026-01-01' })).json();
    expect((await admin.post('/api/ObjectKeys/edit', { ...key, description: 'first' })).statusCode).toBe(200);
    const stale = await admin.post('/api/ObjectKeys/edit', { ...key, description: 'second' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ description: 'first', version: 2 });
  });

  it('filters by reference-number prefix, pages in SQL, default 10 a page', async () => {
    const made = [];
    for (let i = 0; i < 12; i++) {
      const o = await addObject();
      made.push(o);
      await admin.post('/api/ObjectKeys/edit', { objectId: o.id, accountId: agent, received: '2026-02-01' });
    }
    const all = (await admin.get('/api/ObjectKeys')).json();
    expect(all.items).toHaveLength(10);
    const total = (await t.db.select().from(objectKeys)).length;
    expect(all.totalRows).toBe(total);
    const page2 = (await admin.get('/api/ObjectKeys?currentPage=2')).json();
    expect(page2.items.map((k: { id: number }) => k.id)).not.toContain(all.items[0].id);
    const ref = made[11]!.referenceNumber;
    const byRef = (await admin.get(`/api/ObjectKeys?referenceNumber=${ref}`)).json();
    expect(byRef.items.map((k: { objectReferenceNumber: string }) => k.objectReferenceNumber)).toEqual([ref]);
    const prefix = ref.slice(0, 3);
    const byPrefix = (await admin.get(`/api/ObjectKeys?referenceNumber=${prefix}&perPage=100`)).json();
    expect(byPrefix.items.length).toBeGreaterThan(0);
    expect(byPrefix.items.every((k: { objectReferenceNumber: string }) => k.objectReferenceNumber.startsWith(prefix))).toBe(true);
    expect((await admin.get('/api/ObjectKeys?referenceNumber=abc')).json()).toEqual({ items: [], totalRows: 0 });
    expect((await branchUser.get('/api/ObjectKeys')).statusCode).toBe(200);
  });

  it("lists one property's keys by its id: #7770's page does not take the keys of #77700", async () => {
    const [small, large] = await t.db.insert(objects).values([{ referenceNumber: 7770 }, { referenceNumber: 77700 }] as never).returning({ id: objects.id });
    for (const [o, description] of [
      [small!, 'Front door'],
      [large!, 'Garage'],
    ] as const) {
      expect((await admin.post('/api/ObjectKeys/edit', { objectId: o.id, description })).statusCode).toBe(200);
    }
    const own = (await admin.get(`/api/ObjectKeys?objectId=${small!.id}`)).json();
    expect(own).toMatchObject({ totalRows: 1, items: [{ objectId: small!.id, description: 'Front door' }] });
    // The number typed in the keys list still finds both, as a prefix does.
    expect((await admin.get('/api/ObjectKeys?referenceNumber=7770&perPage=100')).json().items.map((k: { description: string }) => k.description).sort()).toEqual(['Front door', 'Garage']);
    expect((await admin.get('/api/ObjectKeys?objectId=0')).statusCode).toBe(400);
  });

  it('refuses unknown objects and holders, impossible dates and ids past 2^31 with clear errors', async () => {
    const o = await addObject();
    const noObject = await admin.post('/api/ObjectKeys/edit', { objectId: 2147483000 }, el);
    expect(noObject.statusCode).toBe(400);
    expect(noObject.json().errors.objectId).toEqual(['Επιλέξτε υπαρκτό ακίνητο']);
    const noHolder = await admin.post('/api/ObjectKeys/edit', { objectId: o.id, accountId: 2147483000 }, el);
    expect(noHolder.json().errors.accountId).toEqual(['Επιλέξτε υπαρκτή επαφή']);
    // A key that says nothing (no holder, no date, no description) is not a record.
    const empty = await admin.post('/api/ObjectKeys/edit', { objectId: o.id, description: '   ' }, el);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.accountId).toEqual(['Συμπληρώστε ποιος έχει το κλειδί, πότε παραλήφθηκε ή δόθηκε, ή μια περιγραφή του.']);
    for (const body of [{ objectId: o.id, received: '2026-13-01' }, { objectId: 2 ** 31 }, { objectId: o.id, accountId: 0 }]) {
      expect((await admin.post('/api/ObjectKeys/edit', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.post('/api/ObjectKeys/edit', { id: 2147483000, version: 1, objectId: o.id })).statusCode).toBe(404);
    expect((await admin.get('/api/ObjectKeys/edit/2147483000')).statusCode).toBe(404);
    expect((await admin.get(`/api/ObjectKeys/edit/${2 ** 31}`)).statusCode).toBe(400);
    expect(await t.db.select().from(objectKeys).where(eq(objectKeys.objectId, o.id))).toEqual([]);
  });
});

describe('a key records what happened', () => {
  it('refuses a received or given-away date after the agency\'s today, as the history editor does; a stored one is not judged again', async () => {
    const o = await addObject();
    const today = agencyToday(app.config.timeZone);
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const ru = { lang: 'ru' };
    const early = await admin.post('/api/ObjectKeys/edit', { objectId: o.id, received: tomorrow }, ru);
    expect(early.statusCode).toBe(400);
    expect(early.json().errors.received).toEqual(['Дата получения не может быть позже сегодняшней.']);
    const lent = await admin.post('/api/ObjectKeys/edit', { objectId: o.id, accountId: client, givenAway: tomorrow }, el);
    expect(lent.json().errors.givenAway).toEqual(['Η ημερομηνία παράδοσης δεν μπορεί να είναι μεταγενέστερη της σημερινής.']);
    expect(await t.db.select().from(objectKeys).where(eq(objectKeys.objectId, o.id))).toEqual([]);
    // Today is fine; a key stored with a later date (before this rule) keeps it through other edits.
    const key = (await admin.post('/api/ObjectKeys/edit', { objectId: o.id, received: today })).json();
    expect(key.received).toBe(today);
    await t.db.update(objectKeys).set({ received: tomorrow }).where(eq(objectKeys.id, key.id));
    const edited = await admin.post('/api/ObjectKeys/edit', { id: key.id, version: key.version, objectId: o.id, received: tomorrow, description: 'Back door' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ received: tomorrow, description: 'Back door' });
  });
});

describe("a key's lending history", () => {
  type Loan = { id: number; accountId: number | null; account: string | null; givenAway: string | null; received: string | null; recordedBy: string | null; recordedOn: string };
  type KeyAnswer = Record<string, unknown> & { id: number; version: number; history: Loan[]; lastLoan: Omit<Loan, 'id' | 'recordedBy' | 'recordedOn'> | null };
  const loansOf = async (keyId: number) =>
    (await t.db.select().from(objectKeyLoans).where(eq(objectKeyLoans.keyId, keyId)).orderBy(objectKeyLoans.id)).map((l) => [l.accountId, l.givenAway, l.received]);
  const save = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/ObjectKeys/edit', body);
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
    const read = (await admin.get(`/api/ObjectKeys/edit/${key.id}`)).json() as KeyAnswer;
    expect(read.history.map((l) => [l.account, l.givenAway, l.received])).toEqual([
      ['Tenant Eleni', '2026-05-20', null],
      ['Agent Kostas', '2026-05-04', '2026-05-06'],
    ]);
    // The list carries the newest loan: the last holder.
    const listed = (await admin.get(`/api/ObjectKeys?referenceNumber=${o.referenceNumber}`)).json().items as KeyAnswer[];
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
    const before = (await admin.get(`/api/ObjectKeys/edit/${row!.id}`)).json() as KeyAnswer;
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
    const stale = await admin.post('/api/ObjectKeys/edit', { ...key, accountId: client, givenAway: '2026-07-03' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ accountId: agent, received: '2026-07-02', version: 2, history: [{ accountId: agent, received: '2026-07-02' }] });
    expect(await loansOf(key.id)).toEqual([[agent, '2026-07-01', '2026-07-02']]);
    // The action log refuses this key's next entry: the key, its new loan and the log go back together.
    await t.pool.query(`create function refuse_key_log() returns trigger language plpgsql as $$ begin if new.entity = 'ObjectKey' and new.entity_id = ${key.id} then raise exception 'refused'; end if; return new; end $$`);
    await t.pool.query(`create trigger refuse_key_log before insert on action_log for each row execute function refuse_key_log()`);
    try {
      const failed = await admin.post('/api/ObjectKeys/edit', { ...key, version: 2, accountId: client, givenAway: '2026-07-03', received: null });
      expect(failed.statusCode).toBe(500);
    } finally {
      await t.pool.query(`drop trigger refuse_key_log on action_log`);
      await t.pool.query(`drop function refuse_key_log()`);
    }
    expect(await loansOf(key.id)).toEqual([[agent, '2026-07-01', '2026-07-02']]);
    expect((await admin.get(`/api/ObjectKeys/edit/${key.id}`)).json()).toMatchObject({ accountId: agent, version: 2 });
  });

  it('answers the history to staff only, and deletes it with the key', async () => {
    const o = await addObject();
    const key = await save({ objectId: o.id, accountId: agent, givenAway: '2026-08-01' });
    expect((await t.client().get(`/api/ObjectKeys/edit/${key.id}`)).statusCode).toBe(401);
    const payments = await t.user({ roles: ['clientPayments'] });
    expect((await payments.get(`/api/ObjectKeys/edit/${key.id}`)).statusCode).toBe(403);
    expect((await branchUser.get(`/api/ObjectKeys/edit/${key.id}`)).json().history).toHaveLength(1);
    expect((await admin.del(`/api/ObjectKeys/${key.id}`)).statusCode).toBe(200);
    expect(await loansOf(key.id)).toEqual([]);
  });
});

describe('a loan of the history corrected or deleted on its own', () => {
  type Loan = { id: number; accountId: number | null; account: string | null; givenAway: string | null; received: string | null; version: number };
  type KeyAnswer = Record<string, unknown> & { id: number; version: number; accountId: number | null; givenAway: string | null; received: string | null; history: Loan[] };
  const save = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/ObjectKeys/edit', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as KeyAnswer;
  };
  const correct = (body: Record<string, unknown>, as: Client = admin, opts?: CallOptions) => as.post('/api/ObjectKeys/loan', body, opts);
  const loansOf = async (keyId: number) =>
    (await t.db.select().from(objectKeyLoans).where(eq(objectKeyLoans.keyId, keyId)).orderBy(objectKeyLoans.id)).map((l) => [l.accountId, l.givenAway, l.received]);
  const keyRow = async (id: number) => (await t.db.select().from(objectKeys).where(eq(objectKeys.id, id)))[0]!;
  const lastLog = async (keyId: number) =>
    (await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'ObjectKey'), eq(actionLog.entityId, keyId))).orderBy(desc(actionLog.id)).limit(1))[0]!;
  /** A key lent to the agent (returned), then to the client (out): two loans. */
  const twoLoans = async () => {
    const o = await addObject();
    let key = await save({ objectId: o.id, accountId: agent, givenAway: '2026-03-02' });
    key = await save({ ...key, received: '2026-03-05' });
    key = await save({ ...key, accountId: client, givenAway: '2026-03-20', received: null });
    return { o, key };
  };

  it("corrects an earlier loan's holder and dates, leaves the key alone, and logs the loan before and after", async () => {
    const { key } = await twoLoans();
    const [newest, first] = key.history;
    expect(first).toMatchObject({ accountId: agent, givenAway: '2026-03-02', received: '2026-03-05', version: 2 });
    const res = await correct({ id: first!.id, version: first!.version, accountId: other, givenAway: '2026-03-01', received: '2026-03-04' });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as KeyAnswer;
    expect(answer.history.map((l) => [l.account, l.givenAway, l.received])).toEqual([
      ['Tenant Eleni', '2026-03-20', null],
      ['Παπαδοπούλου Μαρία', '2026-03-01', '2026-03-04'],
    ]);
    expect(answer.history[1]).toMatchObject({ version: 3, recordedBy: admin.email });
    expect(answer.history[0]).toEqual(newest);
    // An earlier loan is history only: the key (holder, dates, version) stays as it was.
    expect(answer).toMatchObject({ accountId: client, givenAway: '2026-03-20', received: null, version: key.version });
    expect(await lastLog(key.id)).toMatchObject({
      action: 'UpdateLoan',
      actionBy: admin.id,
      data: { loanId: first!.id, accountId: { from: agent, to: other }, givenAway: { from: '2026-03-02', to: '2026-03-01' }, received: { from: '2026-03-05', to: '2026-03-04' } },
    });
  });

  it('corrects the current loan and the key follows it in the same transaction: holder, return, a loan out again', async () => {
    const { o, key } = await twoLoans();
    const current = key.history[0]!;
    // The client was never the holder: it was Maria. The key now says so too, with a new version.
    let res = await correct({ id: current.id, version: current.version, accountId: other, givenAway: '2026-03-20', received: null });
    expect(res.statusCode, res.body).toBe(200);
    let answer = res.json() as KeyAnswer;
    expect(answer).toMatchObject({ accountId: other, account: 'Παπαδοπούλου Μαρία', givenAway: '2026-03-20', received: null, version: key.version + 1 });
    expect(answer.lastLoan).toMatchObject({ accountId: other, givenAway: '2026-03-20', received: null });
    expect(await lastLog(key.id)).toMatchObject({ action: 'UpdateLoan', data: { loanId: current.id, accountId: { from: client, to: other }, keyAccountId: { from: client, to: other } } });
    expect(await hasKey(o.id)).toBe(false);
    // She brought it back on the 22nd, which nobody recorded: the key is in the office from then.
    const loan = answer.history[0]!;
    res = await correct({ id: loan.id, version: loan.version, accountId: other, givenAway: '2026-03-20', received: '2026-03-22' });
    answer = res.json() as KeyAnswer;
    expect(answer).toMatchObject({ accountId: other, givenAway: '2026-03-20', received: '2026-03-22', version: key.version + 2 });
    expect(await hasKey(o.id)).toBe(true);
    // A later save of the key goes on with that loan: no loan made up by the correction.
    const saved = await save({ ...answer, description: 'Front door' });
    expect(saved.history).toHaveLength(2);
    expect(await loansOf(key.id)).toEqual([
      [agent, '2026-03-02', '2026-03-05'],
      [other, '2026-03-20', '2026-03-22'],
    ]);
  });

  it('a holder cleared on the return stays cleared, and a same-day return keeps its given-away date cleared', async () => {
    const o = await addObject();
    let key = await save({ objectId: o.id, accountId: client, givenAway: '2026-04-01' });
    key = await save({ ...key, accountId: null, received: '2026-04-03' });
    let loan = key.history[0]!;
    let answer = (await correct({ id: loan.id, version: loan.version, accountId: agent, givenAway: '2026-04-01', received: '2026-04-03' })).json() as KeyAnswer;
    expect(answer).toMatchObject({ accountId: null, givenAway: '2026-04-01', received: '2026-04-03', version: key.version });
    expect(answer.lastLoan).toMatchObject({ accountId: agent });
    // Back the day it went out (Key returned clears the key's given-away date): its holder corrected, still cleared.
    key = await save({ ...answer, accountId: client, givenAway: '2026-04-10', received: null });
    key = await save({ ...key, received: '2026-04-10', givenAway: null });
    expect(key.history).toHaveLength(2);
    loan = key.history[0]!;
    answer = (await correct({ id: loan.id, version: loan.version, accountId: other, givenAway: '2026-04-10', received: '2026-04-10' })).json() as KeyAnswer;
    expect(answer).toMatchObject({ accountId: other, givenAway: null, received: '2026-04-10' });
    expect(await hasKey(o.id)).toBe(true);
    // Given the day before after all: no longer the same day, the key has both dates again.
    loan = answer.history[0]!;
    answer = (await correct({ id: loan.id, version: loan.version, accountId: client, givenAway: '2026-04-09', received: '2026-04-10' })).json() as KeyAnswer;
    expect(answer).toMatchObject({ accountId: client, givenAway: '2026-04-09', received: '2026-04-10' });
    // Not back after all: out again with its given-away date.
    loan = answer.history[0]!;
    answer = (await correct({ id: loan.id, version: loan.version, accountId: client, givenAway: '2026-04-09', received: null })).json() as KeyAnswer;
    expect(answer).toMatchObject({ accountId: client, givenAway: '2026-04-09', received: null });
    expect(await hasKey(o.id)).toBe(false);
  });

  it('refuses a stale correction 409 with the key as it is, and writes nothing', async () => {
    const { key } = await twoLoans();
    const first = key.history[1]!;
    expect((await correct({ id: first.id, version: first.version, accountId: agent, givenAway: '2026-03-02', received: '2026-03-06' })).statusCode).toBe(200);
    const logsBefore = (await t.db.select().from(actionLog).where(eq(actionLog.entityId, key.id))).length;
    const stale = await correct({ id: first.id, version: first.version, accountId: other, givenAway: '2026-03-02', received: '2026-03-05' });
    expect(stale.statusCode).toBe(409);
    const current = stale.json().current as KeyAnswer;
    expect(current.history[1]).toMatchObject({ id: first.id, accountId: agent, received: '2026-03-06', version: first.version + 1 });
    expect(await loansOf(key.id)).toEqual([
      [agent, '2026-03-02', '2026-03-06'],
      [client, '2026-03-20', null],
    ]);
    expect((await t.db.select().from(actionLog).where(eq(actionLog.entityId, key.id))).length).toBe(logsBefore);
    // A stale delete too.
    expect((await admin.del(`/api/ObjectKeys/loan/${first.id}?version=${first.version}`)).statusCode).toBe(409);
    expect(await loansOf(key.id)).toHaveLength(2);
  });

  it('refuses bad dates and holders with the translated reason, and changes nothing', async () => {
    const { key } = await twoLoans();
    const [current, first] = key.history as [Loan, Loan];
    const before = await loansOf(key.id);
    const keyBefore = await keyRow(key.id);
    const tomorrow = new Date(Date.now() + 2 * 86400000).toISOString().slice(0, 10);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ id: first.id, version: first.version, accountId: agent, givenAway: '2026-03-02', received: '2026-03-01' }, 'received', 'Η ημερομηνία επιστροφής δεν μπορεί να είναι πριν από την ημερομηνία παράδοσης.'],
      [{ id: current.id, version: current.version, accountId: client, givenAway: '2026-03-20', received: tomorrow }, 'received', 'Η ημερομηνία επιστροφής δεν μπορεί να είναι μεταγενέστερη της σημερινής.'],
      [{ id: current.id, version: current.version, accountId: client, givenAway: tomorrow, received: null }, 'givenAway', 'Η ημερομηνία παράδοσης δεν μπορεί να είναι μεταγενέστερη της σημερινής.'],
      [{ id: first.id, version: first.version, accountId: null, givenAway: null, received: '2026-03-05' }, 'accountId', 'Συμπληρώστε ποιος είχε το κλειδί ή πότε δόθηκε.'],
      [{ id: first.id, version: first.version, accountId: 2147483000, givenAway: '2026-03-02', received: null }, 'accountId', 'Επιλέξτε υπαρκτή επαφή'],
    ];
    for (const [body, field, message] of cases) {
      const res = await correct(body, admin, el);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(body)).toEqual([message]);
    }
    const en = await correct(cases[0]![0], admin);
    expect(en.json().errors.received).toEqual(['The key cannot have come back before it was given.']);
    // Ill-typed input never reaches the rules.
    for (const body of [
      { id: first.id, version: first.version, accountId: agent, givenAway: '2026-02-30', received: null },
      { id: 2 ** 31, version: 1, accountId: agent, givenAway: null, received: null },
      { id: first.id, version: first.version, accountId: 0, givenAway: null, received: null },
    ]) {
      expect((await correct(body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    // A correction that does not say which version of the loan it was made on: 428.
    expect((await correct({ id: first.id, accountId: agent, givenAway: null, received: null })).statusCode).toBe(428);
    expect(await loansOf(key.id)).toEqual(before);
    expect(await keyRow(key.id)).toEqual(keyBefore);
    // A date already stored is not judged again: a loan stored as given "tomorrow" (before the key
    // form refused such a date) keeps it when its holder is corrected.
    const o = await addObject();
    const planned = await save({ objectId: o.id, accountId: client, givenAway: '2026-03-20' });
    await t.db.update(objectKeyLoans).set({ givenAway: tomorrow }).where(eq(objectKeyLoans.keyId, planned.id));
    const p = { ...planned.history[0]!, givenAway: tomorrow };
    expect((await correct({ id: p.id, version: p.version, accountId: agent, givenAway: tomorrow, received: null })).statusCode).toBe(200);
  });

  it('deletes a loan recorded by mistake: the key goes back to the loan before it, or to the office', async () => {
    const { o, key } = await twoLoans();
    const [current, first] = key.history as [Loan, Loan];
    const res = await admin.del(`/api/ObjectKeys/loan/${current.id}?version=${current.version}`);
    expect(res.statusCode, res.body).toBe(200);
    let answer = res.json() as KeyAnswer;
    expect(answer.history.map((l) => l.id)).toEqual([first.id]);
    expect(answer).toMatchObject({ accountId: agent, givenAway: '2026-03-02', received: '2026-03-05', version: key.version + 1 });
    expect(await hasKey(o.id)).toBe(true);
    expect(await lastLog(key.id)).toMatchObject({
      action: 'DeleteLoan',
      data: { loanId: current.id, accountId: client, givenAway: '2026-03-20', received: null, keyAccountId: { from: client, to: agent }, keyGivenAway: { from: '2026-03-20', to: '2026-03-02' } },
    });
    // The last one: no loan, the key in the office, its received date kept.
    answer = (await admin.del(`/api/ObjectKeys/loan/${first.id}?version=${first.version}`)).json() as KeyAnswer;
    expect(answer.history).toEqual([]);
    expect(answer).toMatchObject({ accountId: null, givenAway: null, received: '2026-03-05' });
    expect((await admin.del(`/api/ObjectKeys/loan/${first.id}?version=${first.version}`)).statusCode).toBe(404);
    expect((await admin.del(`/api/ObjectKeys/loan/${first.id}`)).statusCode).toBe(404);
  });

  it('is for staff, branch staff included (keys belong to no branch): 401, 403, 404 and 400 otherwise', async () => {
    const { key } = await twoLoans();
    const first = key.history[1]!;
    const body = { id: first.id, version: first.version, accountId: agent, givenAway: '2026-03-02', received: '2026-03-07' };
    expect((await correct(body, t.client())).statusCode).toBe(401);
    const payments = await t.user({ roles: ['clientPayments'] });
    expect((await correct(body, payments)).statusCode).toBe(403);
    expect((await payments.del(`/api/ObjectKeys/loan/${first.id}?version=${first.version}`)).statusCode).toBe(403);
    expect((await t.client().del(`/api/ObjectKeys/loan/${first.id}?version=${first.version}`)).statusCode).toBe(401);
    expect(await loansOf(key.id)).toHaveLength(2);
    expect((await correct({ ...body, id: 2147483000 })).statusCode).toBe(404);
    expect((await correct({ ...body, received: 'soon' })).statusCode).toBe(400);
    const res = await correct(body, branchUser);
    expect(res.statusCode, res.body).toBe(200);
    expect(await lastLog(key.id)).toMatchObject({ action: 'UpdateLoan', actionBy: branchUser.id });
  });

  it('a correction sent again with its Idempotency-Key after a lost answer is answered once, not refused as stale', async () => {
    const { key } = await twoLoans();
    const first = key.history[1]!;
    const body = { id: first.id, version: first.version, accountId: other, givenAway: '2026-03-02', received: '2026-03-05' };
    const once = { headers: { 'idempotency-key': 'loan-fix-0001' } };
    const a = await correct(body, admin, once);
    const b = await correct(body, admin, once);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect((await t.db.select().from(actionLog).where(and(eq(actionLog.entityId, key.id), eq(actionLog.action, 'UpdateLoan')))).length).toBe(1);
  });
});

describe('the keys list searched by anyone who held the key', () => {
  const save = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/ObjectKeys/edit', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown> & { id: number };
  };
  type Row = { id: number; accountId: number | null; heldBy?: { accountId: number | null; account: string | null; givenAway: string | null; received: string | null } | null };
  const list = async (query: string) => {
    const res = await admin.get(`/api/ObjectKeys?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Row[]; totalRows: number };
  };

  it('finds a key by a past holder, in Greek or in Greeklish, and says which loan was theirs', async () => {
    const past = (await admin.post('/api/account/add', { firstName: 'Αναστασία', lastName: 'Χατζηγεωργίου', isClient: true })).json().id as number;
    const now = (await admin.post('/api/account/add', { firstName: 'Nikos', lastName: 'Keyholder', isEmploye: true })).json().id as number;
    const o = await addObject();
    let key = await save({ objectId: o.id, accountId: past, givenAway: '2026-02-01' });
    key = await save({ ...key, received: '2026-02-04' });
    key = await save({ ...key, accountId: now, givenAway: '2026-02-10', received: null });
    const other = await save({ objectId: (await addObject()).id, accountId: now, givenAway: '2026-02-11' });

    for (const typed of ['Χατζηγεωργ', 'χατζηγεωργιου', 'hatzigeorgiou', 'chatzigeorgiou']) {
      const found = await list(`holder=${encodeURIComponent(typed)}`);
      expect(found.items.map((k) => k.id), typed).toEqual([key.id]);
      expect(found.totalRows, typed).toBe(1);
      expect(found.items[0]).toMatchObject({ accountId: now, heldBy: { accountId: past, account: 'Χατζηγεωργίου Αναστασία', givenAway: '2026-02-01', received: '2026-02-04' } });
    }
    // The current holder finds both of theirs, the one lent to them last first, a page at a time; with the number's prefix, one.
    const current = await list('holder=Keyholder&perPage=50');
    expect(current.items.map((k) => k.id)).toEqual([other.id, key.id]);
    expect(current.totalRows).toBe(2);
    expect(current.items.every((k) => k.heldBy?.accountId === now)).toBe(true);
    expect(await list('holder=Keyholder&perPage=1&currentPage=2')).toMatchObject({ items: [{ id: key.id }], totalRows: 2 });
    expect(await list(`holder=Keyholder&referenceNumber=${o.referenceNumber}`)).toMatchObject({ items: [{ id: key.id }], totalRows: 1 });
    // Nobody of that name ever held a key.
    expect(await list('holder=Tenant%20Nobody')).toEqual({ items: [], totalRows: 0 });
    // Without the filter, no heldBy.
    expect((await list(`referenceNumber=${o.referenceNumber}`)).items[0]).not.toHaveProperty('heldBy');
    // A correction of the loan's holder is what the search finds from then on.
    const edited = (await admin.get(`/api/ObjectKeys/edit/${key.id}`)).json() as { history: { id: number; version: number }[] };
    const loan = edited.history[1]!;
    expect((await admin.post('/api/ObjectKeys/loan', { id: loan.id, version: loan.version, accountId: client, givenAway: '2026-02-01', received: '2026-02-04' })).statusCode).toBe(200);
    expect(await list('holder=hatzigeorgiou')).toEqual({ items: [], totalRows: 0 });
    expect((await list('holder=Tenant&perPage=1000')).items.map((k) => k.id)).toContain(key.id);
    expect((await admin.get(`/api/ObjectKeys?holder=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });
});
