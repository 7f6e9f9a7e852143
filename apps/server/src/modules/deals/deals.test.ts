import { describe, expect, it, vi } from 'vitest';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { accounts, actionLog, dealParties, deals, leadObjects, leads, objectAccounts, objects, viewingObjects, viewings } from '../../db/schema/index.ts';
import { createTestApp, type Reply } from '../../../test/harness.ts';
import { DEAL_FIELDS, DEAL_MORE_COLUMNS, DEAL_ROW_FIELDS, ZDealRow } from '@crm/contract';
import { expireRentals, refreshObjectFlags } from './deals.service.ts';

const t = await createTestApp();
const { db } = t;
const agent = await t.user({ roles: ['employee'] });

async function newObject(title: string, extra: Record<string, unknown> = {}) {
  const [o] = await db.insert(objects).values({ title, ...extra } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  return { ...o!, refText: String(o!.ref).padStart(4, '0') };
}
async function person(firstName: string, lastName: string, extra: Record<string, unknown> = {}) {
  const [a] = await db.insert(accounts).values({ firstName, lastName, ...extra }).returning({ id: accounts.id });
  return a!.id;
}
const view = async (id: number) => (await agent.get(`/api/account/view/${id}`)).json();
/** Requests of this database waiting for a lock. */
const lockWaits = async () =>
  (await db.execute<{ n: number }>(sql`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`)).rows[0]!.n;
/** Returns once `n` requests wait for a lock another holds (they have got as far as that). */
const untilWaiting = (n: number) => vi.waitFor(async () => expect(await lockWaits()).toBeGreaterThanOrEqual(n), { timeout: 10_000, interval: 25 });
const flags = async (id: number) => (await db.execute<{ sold: boolean; rented: boolean }>(sql`select sold, rented from objects where id = ${id}`)).rows[0]!;

const seller = await person('Giorgos', 'Papadakis', { isOwner: true });
const buyer = await person('Maria', 'Oikonomou', { isClient: true });
const notary = await person('Eleni', 'Notara', { isProfessional: true, isNotary: true });
const lawyer = await person('Petros', 'Dikigoros', { isProfessional: true, isLawyer: true });
const employee = await person('Nikos', 'Georgiou', { isEmploye: true });
const flat = await newObject('Flat in Kalamaria', { forSale: true, salePrice: 185000 });
const studio = await newObject('Studio in Toumba', { forRent: true, rentPrice: 450 });

/** A deal closed on the board takes its signing date in the same move (DEAL_STAGE_NEEDS): tomorrow's, never before a deal's start today in the agency's time zone. */
const signedOn = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describe('a sale', () => {
  let id = 0;
  let version = 0;
  it('starts from an object with its price asked, and is stored on save with its parties (rows without an account dropped)', async () => {
    const blank = await agent.get(`/api/Deal/add?objectId=${flat.id}`);
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json()).toMatchObject({ id: null, dealType: 2, dealStage: 1, objectId: flat.id, objectReferenceNumber: flat.refText, askingPrice: 185000 });
    expect(blank.json().dealStageOptions).toHaveLength(6);
    expect(blank.json().dealAccountRelationOptions.map((o: { text: string }) => o.text)).toContain('Notary');

    const created = await agent.post('/api/Deal/update', {
      dealType: 2,
      dealStage: 1,
      objectId: flat.id,
      askingPrice: 185000,
      price: 178500.5,
      dateOfDeposit: '2026-10-02',
      contractDurationMonths: 2,
      accounts: [
        { accountId: seller, relation: 1 },
        { accountId: buyer, relation: 2 },
        { accountId: null, relation: 3 },
        { accountId: notary, relation: 4 },
        { accountId: lawyer, relation: 3 },
        { accountId: employee, relation: 6 },
        { accountId: buyer, relation: 2 },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const d = created.json();
    id = d.id;
    version = d.version;
    expect(d).toMatchObject({ version: 1, price: 178500.5, dateOfDeposit: '2026-10-02', contractDurationMonths: 2, objectReferenceNumber: flat.refText });
    expect(d.accounts.map((p: { accountId: number; relation: number }) => [p.accountId, p.relation])).toEqual([
      [seller, 1],
      [buyer, 2],
      [notary, 4],
      [lawyer, 3],
      [employee, 6],
    ]);
    expect(d.accounts[0].account).toBe('Papadakis Giorgos');
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Deal'), eq(actionLog.entityId, id)));
    expect(log).toMatchObject({ action: 'Create' });
  });

  it('opens for edit with its lists in the reader’s language', async () => {
    const el = await agent.get(`/api/Deal/edit/${id}`, { lang: 'el' });
    expect(el.statusCode).toBe(200);
    expect(el.json().dealTypeOptions.map((o: { text: string }) => o.text)).toEqual(['Πώληση', 'Μίσθωση']);
    expect(el.json().dealAccountRelationOptions.find((o: { value: number }) => o.value === 4).text).toBe('Συμβολαιογράφος');
  });

  it('updates with the version guard: a stale save is a 409 with the current deal, and nothing changes', async () => {
    const ok = await agent.post('/api/Deal/update', { id, version, dealStage: 2 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ version: version + 1, dealStage: 2, accounts: expect.arrayContaining([expect.objectContaining({ accountId: notary })]) });
    const stale = await agent.post('/api/Deal/update', { id, version, price: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ version: version + 1, price: 178500.5 });
    version += 1;
    // The form sends everything back; the log keeps what changed (the notes), not the price, dates and parties as they were.
    const again = (await agent.get(`/api/Deal/edit/${id}`)).json();
    const form = { id, version, dealType: again.dealType, dealStage: again.dealStage, price: again.price, dateOfDeposit: again.dateOfDeposit, notes: 'Keys with the notary', accounts: again.accounts.map((p: { accountId: number; relation: number }) => ({ accountId: p.accountId, relation: p.relation })) };
    expect((await agent.post('/api/Deal/update', form)).statusCode).toBe(200);
    version += 1;
    const [logged] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Deal'), eq(actionLog.entityId, id), eq(actionLog.action, 'Update'))).orderBy(desc(actionLog.id)).limit(1);
    expect(logged!.data).toEqual({ notes: 'Keys with the notary' });
  });

  it('is listed with the party columns linking to accounts, its row styled by stage, and filtered in SQL', async () => {
    const res = await agent.post('/api/Deal/search', { dealType: 2, stages: [2], depositFrom: '2026-10-01', depositTill: '2026-10-31', lastName: 'notar', object: `#${flat.refText}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totalRows).toBe(1);
    expect(res.json().items[0]).toMatchObject({
      id,
      type: 'Sale',
      stage: 'Deposit paid',
      rowClass: 'depositpaid',
      seller: 'Papadakis Giorgos',
      sellerId: seller,
      buyerId: buyer,
      notaryId: notary,
      lawerId: lawyer,
      civilEngeneer: '',
      civilEngeneerId: null,
      assignedId: employee,
      objectReferenceNumber: flat.refText,
    });
    for (const f of [{ stages: [1] }, { dealType: 1 }, { depositFrom: '2026-10-03' }, { endDateFrom: '2026-01-01' }, { lastName: 'nobody' }, { object: 'Toumba' }]) {
      const none = await agent.post('/api/Deal/search', f);
      expect(none.json().items.map((r: { id: number }) => r.id), JSON.stringify(f)).not.toContain(id);
    }
    expect((await agent.post('/api/Deal/search', { object: 'kalamaria' })).json().items[0].id).toBe(id);
    // A party's name counts in the page's own pass: the total holds on the page past the end too.
    expect((await agent.post('/api/Deal/search', { lastName: 'notar', perPage: 5, currentPage: 1 })).json()).toMatchObject({ totalRows: 1, items: [{ id }] });
    expect((await agent.post('/api/Deal/search', { lastName: 'notar', perPage: 5, currentPage: 2 })).json()).toMatchObject({ totalRows: 1, items: [] });
    expect((await agent.post('/api/Deal/search', { perPage: 1000000 })).statusCode).toBe(200);
  });

  it('answers the further columns asked for, each a described field the row does not hold, and refuses another name', async () => {
    const res = await agent.post('/api/Deal/search', { lastName: 'notar', more: ['notes', 'commission', 'startDate'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items[0]).toMatchObject({ id, more: { notes: 'Keys with the notary', commission: null, startDate: null } });
    await db.update(deals).set({ commission: 3700, startDate: '2026-11-02' } as never).where(eq(deals.id, id));
    const again = (await agent.post('/api/Deal/search', { lastName: 'notar', more: ['commission', 'startDate'] })).json();
    expect(again.items[0].more).toEqual({ commission: 3700, startDate: '2026-11-02' });
    await db.update(deals).set({ commission: null, startDate: null } as never).where(eq(deals.id, id));
    // Without `more` the row carries none; a name that is not a further column is a 400.
    expect((await agent.post('/api/Deal/search', { lastName: 'notar' })).json().items[0].more).toBeUndefined();
    for (const bad of ['price', 'objectId', 'nonsense']) expect((await agent.post('/api/Deal/search', { more: [bad] })).statusCode, bad).toBe(400);
  });

  it('offers as further columns every described field, but those its row holds', () => {
    const inRow = new Set(Object.keys(ZDealRow.shape));
    expect([...DEAL_ROW_FIELDS].sort()).toEqual(DEAL_FIELDS.filter((d) => inRow.has(d.name)).map((d) => d.name).sort());
    expect(DEAL_FIELDS.filter((d) => !inRow.has(d.name) && !DEAL_MORE_COLUMNS.includes(d.name)).map((d) => d.name)).toEqual([]);
  });

  it('sorts by the price the list shows: the final price, else the asking price', async () => {
    const made = await db
      .insert(deals)
      .values([
        { dealType: 2, dealStage: 1, askingPrice: 900000123 },
        { dealType: 2, dealStage: 1, price: 150000123 },
        { dealType: 2, dealStage: 1, price: 200000123, askingPrice: 1 },
      ] as never)
      .returning({ id: deals.id });
    const ids = made.map((d) => d.id);
    const order = async (sortDir: 'asc' | 'desc') =>
      ((await agent.post('/api/Deal/search', { sortBy: 'price', sortDir, perPage: 1000000 })).json().items as { id: number }[]).map((r) => r.id).filter((i) => ids.includes(i));
    expect(await order('desc')).toEqual([ids[0], ids[2], ids[1]]);
    expect(await order('asc')).toEqual([ids[1], ids[2], ids[0]]);
    await db.delete(deals).where(inArray(deals.id, ids));
  });

  it('closing it as a sale fills the buyer’s bought reference numbers, the specialists’ counts and the object’s sold flag; reopening undoes them', async () => {
    const before = (await view(notary)).numberOfSoldObjects;
    const board = await agent.post('/api/Deal/board', {});
    const card = board.json().columns.find((c: { stage: number }) => c.stage === 2).cards.find((c: { id: number }) => c.id === id);
    expect(card).toMatchObject({ version, objectReferenceNumber: flat.refText, price: 178500.5 });
    // The card names the deal's parties as the deal does, in its order.
    const record = (await agent.get(`/api/Deal/edit/${id}`)).json();
    expect(card.parties.length).toBeGreaterThan(1);
    expect(card.parties).toEqual(record.accounts.map((p: { accountId: number; account: string; relation: number }) => ({ accountId: p.accountId, account: p.account, relation: p.relation })));
    const moved = await agent.post('/api/Deal/move', { id, version, dealStage: 5, endDate: signedOn });
    expect(moved.statusCode, moved.body).toBe(200);
    version = moved.json().version;
    expect((await view(buyer)).boughtObjectsReferenceNumbers).toBe(flat.refText);
    expect((await view(notary)).numberOfSoldObjects).toBe(before + 1);
    expect((await view(lawyer)).numberOfSoldObjects).toBe(1);
    expect((await view(employee)).numberOfSoldObjects).toBe(0);
    expect(await flags(flat.id)).toEqual({ sold: true, rented: false });
    // a stale drag is refused
    expect((await agent.post('/api/Deal/move', { id, version: version - 1, dealStage: 4 })).statusCode).toBe(409);
    // saving the closed deal again counts nothing twice
    const again = await agent.post('/api/Deal/update', { id, version, notes: 'keys handed over' });
    version = again.json().version;
    expect((await view(notary)).numberOfSoldObjects).toBe(before + 1);
    const closed = (await agent.post('/api/Deal/board', {})).json().columns.find((c: { stage: number }) => c.stage === 5);
    const filtered = await agent.post('/api/Deal/board', { dealType: 2, lastName: 'notar', object: flat.refText });
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect(filtered.json().columns.find((c: { stage: number }) => c.stage === 5).cards.map((c: { id: number }) => c.id)).toEqual([id]);
    expect(closed.count).toBeGreaterThanOrEqual(1);
    expect(closed.saleTotal).toMatch(/^\d+(\.\d+)?$/);
    // Sales and rentals are summed apart: this sale alone, to the cent, and no rent.
    const mine = filtered.json().columns.find((c: { stage: number }) => c.stage === 5);
    expect([mine.saleTotal, mine.rentTotal]).toEqual(['178500.50', '0']);
    const asRental = await agent.post('/api/Deal/board', { dealType: 1, object: flat.refText });
    expect(asRental.json().columns.find((c: { stage: number }) => c.stage === 5)).toMatchObject({ count: 0, saleTotal: '0', rentTotal: '0' });

    // Back to the contract's signing, which takes its date in the same move (DEAL_STAGE_NEEDS).
    const reopened = await agent.post('/api/Deal/move', { id, version, dealStage: 4, endDate: '2026-10-20' });
    expect(reopened.statusCode, reopened.body).toBe(200);
    version = reopened.json().version;
    expect((await view(buyer)).boughtObjectsReferenceNumbers).toBe('');
    expect((await view(notary)).numberOfSoldObjects).toBe(before);
    expect(await flags(flat.id)).toEqual({ sold: false, rented: false });
    version = (await agent.post('/api/Deal/move', { id, version, dealStage: 5 })).json().version;
  });

  it('shows on the object’s view', async () => {
    const v = await agent.get(`/api/object/view/${flat.id}`);
    expect(v.json().deals).toEqual([expect.objectContaining({ id })]);
    expect(v.json().deals[0].descr).toContain('Sale · Closed');
  });

  it('follows a merge: the duplicate’s deal parties become the kept account’s', async () => {
    const dup = await person('Maria', 'Oikonomou');
    const d2 = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 5, objectId: studio.id, accounts: [{ accountId: dup, relation: 2 }, { accountId: buyer, relation: 2 }] });
    expect(d2.statusCode, d2.body).toBe(200);
    const k = await view(buyer);
    const merged = await agent.post('/api/account/merge', { account: { id: buyer, version: k.version }, duplicateId: dup });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(await db.select().from(dealParties).where(eq(dealParties.accountId, dup))).toEqual([]);
    expect((await agent.get(`/api/Deal/edit/${d2.json().id}`)).json().accounts.map((p: { accountId: number }) => p.accountId)).toEqual([buyer]);
    expect((await view(buyer)).boughtObjectsReferenceNumbers).toBe([flat.refText, studio.refText].sort().join(' '));
    expect((await agent.del(`/api/Deal/${d2.json().id}`)).statusCode).toBe(200);
    expect(await flags(studio.id)).toEqual({ sold: false, rented: false });
  });

  it('moved to another property locks both properties in id order, as every change of several does: two opposite moves, or a move and a delete, never wait on each other for ever', async () => {
    const first = await newObject('Flat in Pylaia', { forSale: true, salePrice: 120000 });
    const second = await newObject('Flat in Panorama', { forSale: true, salePrice: 240000 });
    // The first one changed since: its row is stored after the second's, so reading the table in
    // storage order meets the second first.
    await db.update(objects).set({ salePrice: 125000 } as never).where(eq(objects.id, first.id));
    const sale = async (objectId: number) =>
      (await agent.post('/api/Deal/update', { dealType: 2, dealStage: 5, objectId, price: 100000, accounts: [{ accountId: buyer, relation: 2 }] })).json();
    const onFirst = await sale(first.id);
    let moving: Promise<Reply> | undefined;
    let firstTaken = false;
    await db.transaction(async (tx) => {
      // Someone holds the second property while the deal moves to it: the move takes the first one
      // (lower id) before it waits for the second.
      await tx.execute(sql`select 1 from objects where id = ${second.id} for no key update`);
      moving = agent.post('/api/Deal/update', { id: onFirst.id, version: onFirst.version, objectId: second.id });
      await untilWaiting(1);
      firstTaken = await t.pool.query('select 1 from objects where id = $1 for no key update nowait', [first.id]).then(
        () => false,
        (err: { code?: string }) => err.code === '55P03',
      );
    });
    expect(firstTaken).toBe(true);
    const moved = await moving!;
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await flags(first.id)).toEqual({ sold: false, rented: false });
    expect(await flags(second.id)).toEqual({ sold: true, rented: false });
  });

  it('is deleted, and its closing undone', async () => {
    const notaryBefore = (await view(notary)).numberOfSoldObjects;
    expect((await agent.del(`/api/Deal/${id}`)).statusCode).toBe(200);
    expect(await db.select().from(deals).where(eq(deals.id, id))).toEqual([]);
    expect((await view(notary)).numberOfSoldObjects).toBe(notaryBefore - 1);
    expect(await flags(flat.id)).toEqual({ sold: false, rented: false });
    expect((await agent.del(`/api/Deal/${id}`)).statusCode).toBe(404);
  });
});

describe('the board', () => {
  it('shows the newest twenty of each stage at first, more when asked, with every stage counted', async () => {
    const flat = await newObject('Board flat');
    for (let i = 0; i < 23; i++) {
      const res = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 3, objectId: flat.id, askingPrice: 100000 + i });
      expect(res.statusCode, res.body).toBe(200);
    }
    const stage3 = (body: Record<string, unknown>) => agent.post('/api/Deal/board', body).then((r) => r.json().columns.find((c: { stage: number }) => c.stage === 3));
    const first = await stage3({});
    expect(first.count).toBeGreaterThanOrEqual(23);
    expect(first.cards).toHaveLength(20);
    // Newest first: the last one saved leads.
    expect(first.cards[0].askingPrice).toBe(100022);
    const more = await stage3({ perStage: 40 });
    expect(more.count).toBe(first.count);
    expect(more.cards.length).toBe(Math.min(40, first.count));
    expect((await agent.post('/api/Deal/board', { perStage: 501 })).statusCode).toBe(400);
  });
});

describe('a rental', () => {
  it('has rent start and expiration, not a contract duration; closing it fills the tenant’s rented reference numbers', async () => {
    const tenant = await person('Anna', 'Ivanova', { isClient: true });
    const blank = await agent.get(`/api/Deal/add?objectId=${studio.id}`);
    expect(blank.json()).toMatchObject({ dealType: 1, askingPrice: 450 });
    const res = await agent.post('/api/Deal/update', {
      dealType: 1,
      dealStage: 5,
      objectId: studio.id,
      price: 430,
      rentStart: '2026-11-01',
      rentExpiration: '2099-10-31',
      accounts: [{ accountId: tenant, relation: 2 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await view(tenant)).rentedObjectsReferenceNumbers).toBe(studio.refText);
    expect(await flags(studio.id)).toEqual({ sold: false, rented: true });
    // switching to a sale clears the rent dates; the tenant the closed rental put on the studio
    // stays there (and so among the tenant's rented properties), and the answer says so
    const sale = await agent.post('/api/Deal/update', { id: res.json().id, version: res.json().version, dealType: 2 });
    expect(sale.json()).toMatchObject({ rentStart: null, rentExpiration: null });
    expect(sale.json().notices).toEqual([
      { kind: 'warning', text: `Property #${studio.refText} still lists the tenant this deal put on it (01/11/2026 – 31/10/2099): Ivanova Anna. If the rental is not going ahead, remove the tenant in the property's Contacts.` },
    ]);
    expect(await flags(studio.id)).toEqual({ sold: true, rented: false });
    expect((await view(tenant)).rentedObjectsReferenceNumbers).toBe(studio.refText);
    await db.delete(objectAccounts).where(eq(objectAccounts.objectId, studio.id));
    expect((await view(tenant)).rentedObjectsReferenceNumbers).toBe('');
    await agent.del(`/api/Deal/${res.json().id}`);
  });

  it('names its deposit a security deposit, not a sale\'s earnest money: in the list, its options, the board and the property\'s view', async () => {
    const tenant = await person('Vera', 'Zalogova', { isClient: true });
    const flatToLet = await newObject('Flat in Harilaou', { forRent: true, forSale: true, rentPrice: 700, salePrice: 140000 });
    const rental = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 2, objectId: flatToLet.id, price: 700, deposit: 1400, accounts: [{ accountId: tenant, relation: 2 }] });
    const sale = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 2, objectId: flatToLet.id, price: 140000, deposit: 14000, accounts: [{ accountId: tenant, relation: 2 }] });
    expect([rental.statusCode, sale.statusCode]).toEqual([200, 200]);
    const stages = async (lang: string, dealType?: number) => {
      const res = (await agent.post('/api/Deal/search', { objectId: flatToLet.id, ...(dealType ? { dealType } : {}) }, { lang })).json();
      return { rows: res.items.map((r: { dealType: number; stage: string }) => [r.dealType, r.stage]).sort(), option: res.options.stages.find((o: { value: number }) => o.value === 2).text };
    };
    // Each row by its own type; the stage list by the type filtered to, both words while every type shows.
    expect(await stages('el')).toEqual({ rows: [[1, 'Δόθηκε εγγύηση'], [2, 'Δόθηκε αρραβώνας']], option: 'Δόθηκε αρραβώνας / εγγύηση' });
    expect(await stages('ru', 1)).toEqual({ rows: [[1, 'Залог внесён']], option: 'Залог внесён' });
    expect(await stages('ru', 2)).toEqual({ rows: [[2, 'Задаток внесён']], option: 'Задаток внесён' });
    expect(await stages('en')).toEqual({ rows: [[1, 'Deposit paid'], [2, 'Deposit paid']], option: 'Deposit paid' });
    const board = async (dealType: number) => (await agent.post('/api/Deal/board', { dealType, objectId: flatToLet.id, perStage: 5 }, { lang: 'el' })).json().columns[1].name;
    expect([await board(1), await board(2), await board(0)]).toEqual(['Δόθηκε εγγύηση', 'Δόθηκε αρραβώνας', 'Δόθηκε αρραβώνας / εγγύηση']);
    const viewed = (await agent.get(`/api/object/view/${flatToLet.id}`, { lang: 'el' })).json();
    expect(viewed.deals.map((d: { descr: string }) => d.descr).sort()).toEqual(['Μίσθωση · Δόθηκε εγγύηση · 700\u00a0€ · Zalogova Vera', 'Πώληση · Δόθηκε αρραβώνας · 140\u00a0000\u00a0€ · Zalogova Vera']);
    for (const id of [rental.json().id, sale.json().id]) await agent.del(`/api/Deal/${id}`);
  });

  it('stops making its object "rented" when it expires: at once when its end is moved into the past, and by the hourly job when the day passes', async () => {
    const tenant = await person('Olga', 'Petrova', { isClient: true });
    const flatToLet = await newObject('Flat in Neapoli', { forRent: true, rentPrice: 600 });
    const res = await agent.post('/api/Deal/update', {
      dealType: 1,
      dealStage: 5,
      objectId: flatToLet.id,
      rentStart: '2025-01-01',
      rentExpiration: '2099-12-31',
      accounts: [{ accountId: tenant, relation: 2 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await flags(flatToLet.id)).toEqual({ sold: false, rented: true });
    // The end moved to a past day: the object is free again, on the property and the tenant alike.
    const ended = await agent.post('/api/Deal/update', { id: res.json().id, version: res.json().version, rentExpiration: '2025-06-30' });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await flags(flatToLet.id)).toEqual({ sold: false, rented: false });
    expect((await view(tenant)).rentedObjectsReferenceNumbers).toBe('');
    // ... and back into the future: rented again.
    const extended = await agent.post('/api/Deal/update', { id: res.json().id, version: ended.json().version, rentExpiration: '2099-12-31' });
    expect(await flags(flatToLet.id)).toEqual({ sold: false, rented: true });

    // Nobody saves the deal; the last day passes. The job clears this object's flag and only this one.
    const letElsewhere = await newObject('Studio in Kalamaria', { forRent: true, rentPrice: 400 });
    const longer = await agent.post('/api/Deal/update', {
      dealType: 1,
      dealStage: 5,
      objectId: letElsewhere.id,
      rentStart: '2025-01-01',
      accounts: [{ accountId: tenant, relation: 2 }],
    });
    expect(longer.statusCode, longer.body).toBe(200);
    expect(await expireRentals(db, '2099-12-31')).not.toContain(flatToLet.id);
    expect(await flags(flatToLet.id)).toEqual({ sold: false, rented: true });
    const expired = await expireRentals(db, '2100-01-01');
    expect(expired).toContain(flatToLet.id);
    expect(expired).not.toContain(letElsewhere.id);
    expect(await flags(flatToLet.id)).toEqual({ sold: false, rented: false });
    expect(await flags(letElsewhere.id)).toEqual({ sold: false, rented: true });
    expect(extended.statusCode).toBe(200);
    await agent.del(`/api/Deal/${res.json().id}`);
    await agent.del(`/api/Deal/${longer.json().id}`);
  });

  it('cleared by the hourly job in id order, as every change of several properties takes them: the job beside a deal change of the same two, taken the other way round in the table, never wait on each other for ever', async () => {
    const tenant = await person('Svetlana', 'Orlova', { isClient: true });
    const first = await newObject('Flat in Evosmos', { forRent: true, rentPrice: 500 });
    const second = await newObject('Flat in Stavroupoli', { forRent: true, rentPrice: 550 });
    for (const o of [first, second]) {
      const let_ = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId: o.id, rentStart: '2025-01-01', rentExpiration: '2099-12-31', accounts: [{ accountId: tenant, relation: 2 }] });
      expect(let_.statusCode, let_.body).toBe(200);
    }
    // The first one changed since: its row is stored after the second's, so reading the table in
    // storage order meets the second first.
    await db.update(objects).set({ rentPrice: 520 } as never).where(eq(objects.id, first.id));
    let job: Promise<{ ids?: number[]; err?: unknown }> | undefined;
    await db.transaction(async (tx) => {
      // A deal change of both properties (on the last day of their rentals) holds the first while
      // the job starts, then takes the second: the job, waiting for the first, holds nothing else.
      await tx.execute(sql`select 1 from objects where id = ${first.id} for no key update`);
      job = expireRentals(db, '2100-01-01').then(
        (ids) => ({ ids }),
        (err: unknown) => ({ err }),
      );
      await untilWaiting(1);
      await refreshObjectFlags(tx, [first.id, second.id], '2099-12-31');
    });
    // A deadlock ends one of the two with an error as it happens: the change above committed, and
    // the job ended without one.
    const done = await job!;
    expect(done.err).toBeUndefined();
    expect(done.ids).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(await flags(first.id)).toEqual({ sold: false, rented: false });
    expect(await flags(second.id)).toEqual({ sold: false, rented: false });
  });
});

describe('a rental closing', () => {
  const tenantLinks = async (objectId: number) =>
    (
      await db
        .select({ accountId: objectAccounts.accountId, relation: objectAccounts.relation, startDate: objectAccounts.startDate, endDate: objectAccounts.endDate, price: objectAccounts.price, rentPaymentDay: objectAccounts.rentPaymentDay })
        .from(objectAccounts)
        .where(eq(objectAccounts.objectId, objectId))
        .orderBy(objectAccounts.startDate, objectAccounts.accountId)
    ).map((l) => ({ ...l, price: l.price == null ? null : Number(l.price) }));
  const contactLog = async (objectId: number) =>
    (await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Object'), eq(actionLog.entityId, objectId))).orderBy(actionLog.id)).map((l) => ({
      action: l.action,
      data: l.data as Record<string, unknown>,
    }));

  it('puts its tenant on the property for the rent dates, once, logged on the property; the link follows a corrected expiration', async () => {
    const landlord = await person('Kostas', 'Spitis', { isOwner: true });
    const tenant = await person('Irina', 'Smirnova', { isClient: true });
    const flatToLet = await newObject('Flat in Ano Poli', { forRent: true, rentPrice: 850 });
    const open = await agent.post('/api/Deal/update', {
      dealType: 1,
      dealStage: 4,
      objectId: flatToLet.id,
      price: 850,
      deposit: 1700,
      rentStart: '2027-01-01',
      rentExpiration: '2029-12-31',
      accounts: [
        { accountId: landlord, relation: 1 },
        { accountId: tenant, relation: 2 },
      ],
    });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().notices).toEqual([]);
    expect(await tenantLinks(flatToLet.id)).toEqual([]);

    // Closed on the board: the tenant is the property's tenant for the rent's dates, at the rent, no payment day yet.
    const closed = await agent.post('/api/Deal/move', { id: open.json().id, version: open.json().version, dealStage: 5, endDate: signedOn });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().notices).toEqual([
      {
        kind: 'info',
        text: `Smirnova Irina is now the tenant of property #${flatToLet.refText}, from 01/01/2027 to 31/12/2029. For rent reminders, set the rent payment day in the property's Contacts.`,
      },
    ]);
    expect(await tenantLinks(flatToLet.id)).toEqual([{ accountId: tenant, relation: 4, startDate: '2027-01-01', endDate: '2029-12-31', price: 850, rentPaymentDay: null }]);
    expect(await contactLog(flatToLet.id)).toEqual([
      { action: 'AddContact', data: { accountId: tenant, relation: 4, startDate: '2027-01-01', endDate: '2029-12-31', price: 850, rentPaymentDay: null, dealId: open.json().id } },
    ]);
    // The property's contacts show the tenant as its Contacts add one.
    const viewed = (await agent.get(`/api/object/view/${flatToLet.id}`)).json();
    expect(viewed.contacts.map((c: { accountId: number; relation: number }) => [c.accountId, c.relation])).toContainEqual([tenant, 4]);

    // Saved again as it is: nothing more.
    const again = await agent.post('/api/Deal/update', { id: closed.json().id, version: closed.json().version, notes: 'Keys handed over.' });
    expect(again.json().notices).toEqual([]);
    // The expiration corrected on the closed deal: the link the deal made follows it.
    const corrected = await agent.post('/api/Deal/update', { id: again.json().id, version: again.json().version, rentExpiration: '2029-12-30' }, { lang: 'ru' });
    expect(corrected.json().notices).toEqual([{ kind: 'info', text: `Smirnova Irina: аренда объекта #${flatToLet.refText} теперь действует с 01.01.2027 по 30.12.2029, как в сделке.` }]);
    expect(await tenantLinks(flatToLet.id)).toEqual([{ accountId: tenant, relation: 4, startDate: '2027-01-01', endDate: '2029-12-30', price: 850, rentPaymentDay: null }]);
    expect((await contactLog(flatToLet.id)).at(-1)).toEqual({
      action: 'UpdateContact',
      data: { accountId: tenant, relation: 4, from: { startDate: '2027-01-01', endDate: '2029-12-31', price: 850 }, to: { startDate: '2027-01-01', endDate: '2029-12-30', price: 850 }, dealId: open.json().id },
    });

    // Reopened: the link stays (the tenant may have moved in), and the answer says so in the reader's language.
    const reopened = await agent.post('/api/Deal/move', { id: corrected.json().id, version: corrected.json().version, dealStage: 4, endDate: '2026-12-20' }, { lang: 'el' });
    expect(reopened.json().notices).toEqual([
      {
        kind: 'warning',
        text: `Στο ακίνητο #${flatToLet.refText} παραμένει καταχωρισμένος μισθωτής (01/01/2027 – 30/12/2029): Smirnova Irina. Αν η μίσθωση δεν προχωρά, αφαιρέστε τον από τις Επαφές του ακινήτου.`,
      },
    ]);
    expect(await tenantLinks(flatToLet.id)).toHaveLength(1);
    // Closed again: the tenant is there already for these dates, so no second link and nothing said.
    const reclosed = await agent.post('/api/Deal/move', { id: reopened.json().id, version: reopened.json().version, dealStage: 5 });
    expect(reclosed.json().notices).toEqual([]);
    expect(await tenantLinks(flatToLet.id)).toHaveLength(1);
    expect((await contactLog(flatToLet.id)).filter((l) => l.action === 'AddContact')).toHaveLength(1);
  });

  it('puts a second tenant on for overlapping dates but says who else lets the property then; a returning tenant’s tenancy is stretched, or moved when another let it between', async () => {
    const first = await person('Sofia', 'Karali', { isClient: true });
    const second = await person('Boris', 'Volkov', { isClient: true });
    const house = await newObject('House in Panorama', { forRent: true, rentPrice: 1200 });
    const close = async (tenant: number, rentStart: string, rentExpiration: string, lang = 'en') => {
      const res = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId: house.id, price: 1200, rentStart, rentExpiration, accounts: [{ accountId: tenant, relation: 2 }] }, { lang });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().notices as { kind: string; text: string }[];
    };
    expect((await close(first, '2027-01-01', '2027-12-31')).map((n) => n.kind)).toEqual(['info']);
    const overlapping = await close(second, '2027-10-01', '2028-09-30');
    expect(overlapping).toEqual([
      expect.objectContaining({ kind: 'info' }),
      {
        kind: 'warning',
        text: `Property #${house.refText} already has a tenant for some of these dates: Karali Sofia. Both are now listed in its Contacts: check the dates.`,
      },
    ]);
    // The first tenant comes back after the second: a property holds one tenant link per account, and
    // stretched over Boris's lease it would list her as tenant through it; it moves to the new tenancy.
    const back = await close(first, '2028-10-01', '2029-09-30', 'ru');
    expect(back).toEqual([
      {
        kind: 'info',
        text: `Karali Sofia: аренда объекта #${house.refText} теперь действует с 01.10.2028 по 30.09.2029 (была 01.01.2027 – 31.12.2027). В промежутке объект сдавался: Volkov Boris, поэтому прежняя аренда осталась только в своей сделке.`,
      },
    ]);
    expect(await tenantLinks(house.id)).toEqual([
      { accountId: second, relation: 4, startDate: '2027-10-01', endDate: '2028-09-30', price: 1200, rentPaymentDay: null },
      { accountId: first, relation: 4, startDate: '2028-10-01', endDate: '2029-09-30', price: 1200, rentPaymentDay: null },
    ]);
    // She renews for the year after, nobody else between: her tenancy is stretched over both.
    const renewed = await close(first, '2029-10-01', '2030-09-30');
    expect(renewed).toEqual([{ kind: 'info', text: `Karali Sofia's earlier tenancy of property #${house.refText} (01/10/2028 – 30/09/2029) is extended: it now runs from 01/10/2028 to 30/09/2030.` }]);
  });

  it('without a tenant or without the rent dates puts nobody on the property, and says why', async () => {
    const tenant = await person('Dimitra', 'Lazou', { isClient: true });
    const studioToLet = await newObject('Studio in Pylaia', { forRent: true, rentPrice: 400 });
    const noTenant = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId: studioToLet.id, rentStart: '2027-01-01', rentExpiration: '2027-12-31' });
    expect(noTenant.json().notices).toEqual([{ kind: 'warning', text: `The rental is closed without a tenant among its parties: nobody was added to property #${studioToLet.refText} as a tenant.` }]);
    const noDates = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId: studioToLet.id, rentStart: '2027-01-01', accounts: [{ accountId: tenant, relation: 2 }] }, { lang: 'el' });
    expect(noDates.json().notices).toEqual([
      { kind: 'warning', text: `Συμπληρώστε την έναρξη και τη λήξη της μίσθωσης: ο μισθωτής καταχωρίζεται στο ακίνητο #${studioToLet.refText} για αυτές τις ημερομηνίες.` },
    ]);
    expect(await tenantLinks(studioToLet.id)).toEqual([]);
    // The expiration added to the closed rental: now the tenant is put on (no rent typed, none on the link).
    const dated = await agent.post('/api/Deal/update', { id: noDates.json().id, version: noDates.json().version, rentExpiration: '2027-12-31' });
    expect(dated.json().notices.map((n: { kind: string }) => n.kind)).toEqual(['info']);
    expect(await tenantLinks(studioToLet.id)).toEqual([{ accountId: tenant, relation: 4, startDate: '2027-01-01', endDate: '2027-12-31', price: null, rentPaymentDay: null }]);
  });

  it('deleted, takes off the property the tenant it put there that nobody changed since; keeps one changed since or one it did not add, and says which before and after', async () => {
    const close = async (objectId: number, tenant: number, lang = 'en') => {
      const res = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId, price: 900, rentStart: '2027-03-01', rentExpiration: '2028-02-29', accounts: [{ accountId: tenant, relation: 2 }] }, { lang });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    const onDelete = async (id: number, lang = 'en') => (await agent.get(`/api/Deal/edit/${id}`, { lang })).json().onDelete;
    const remove = async (id: number, lang = 'en') => {
      const res = await agent.del(`/api/Deal/${id}`, { lang });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().notices;
    };

    // A mistaken rental, closed and deleted: its tenant goes with it, said before and after, logged on the property.
    const mistaken = await person('Nadia', 'Oshibkina', { isClient: true });
    const flatA = await newObject('Flat in Evosmos', { forRent: true, rentPrice: 900 });
    const first = await close(flatA.id, mistaken);
    expect(await tenantLinks(flatA.id)).toHaveLength(1);
    // The link saved as it was in the property's Contacts is not a change.
    const same = await agent.post('/api/objectAccount/update', { objectId: flatA.id, accountId: mistaken, relation: 4, startDate: '2027-03-01', endDate: '2028-02-29', price: 900, rentPaymentDay: null });
    expect(same.statusCode, same.body).toBe(200);
    expect(await onDelete(first)).toEqual([
      { kind: 'info', text: `The tenant this deal put on property #${flatA.refText} (01/03/2027 – 29/02/2028), unchanged since, will be removed with it: Oshibkina Nadia.` },
    ]);
    expect(await remove(first, 'ru')).toEqual([{ kind: 'info', text: `Из контактов объекта #${flatA.refText} удалён арендатор, которого добавила эта сделка (01.03.2027 – 29.02.2028): Oshibkina Nadia.` }]);
    expect(await tenantLinks(flatA.id)).toEqual([]);
    expect((await contactLog(flatA.id)).at(-1)).toEqual({ action: 'RemoveContact', data: { accountId: mistaken, relations: [4], dealId: first } });

    // The payment day set in the property's Contacts: the tenancy is the agent's now, and stays.
    const settled = await person('Pavlos', 'Enoikos', { isClient: true });
    const flatB = await newObject('Flat in Stavroupoli', { forRent: true, rentPrice: 900 });
    const second = await close(flatB.id, settled);
    const payDay = await agent.post('/api/objectAccount/update', { objectId: flatB.id, accountId: settled, relation: 4, startDate: '2027-03-01', endDate: '2028-02-29', price: 900, rentPaymentDay: 5 });
    expect(payDay.statusCode, payDay.body).toBe(200);
    const kept = `Στο ακίνητο #${flatB.refText} παραμένει ο μισθωτής Enoikos Pavlos (01/03/2027 – 29/02/2028): τον καταχώρισε η συμφωνία, αλλά η μίσθωση άλλαξε από τότε. Αν η μίσθωση δεν προχωρά, αφαιρέστε τον από τις Επαφές του ακινήτου.`;
    expect(await onDelete(second, 'el')).toEqual([{ kind: 'warning', text: kept }]);
    expect(await remove(second, 'el')).toEqual([{ kind: 'warning', text: kept }]);
    expect(await tenantLinks(flatB.id)).toEqual([{ accountId: settled, relation: 4, startDate: '2027-03-01', endDate: '2028-02-29', price: 900, rentPaymentDay: 5 }]);

    // A tenant already on the property for those dates (added by hand): the rental added nothing, and its delete takes nothing.
    const sitting = await person('Lida', 'Mesa', { isClient: true });
    const flatC = await newObject('Flat in Kalamaria', { forRent: true, rentPrice: 900 });
    const byHand = await agent.post('/api/objectAccount/add', { objectId: flatC.id, accountId: sitting, relation: 4, startDate: '2027-01-01', endDate: '2027-12-31', price: 850 });
    expect(byHand.statusCode, byHand.body).toBe(200);
    const third = await close(flatC.id, sitting);
    expect(await onDelete(third)).toEqual([{ kind: 'warning', text: `Property #${flatC.refText} keeps its tenant Mesa Lida (01/01/2027 – 31/12/2027): that tenancy was not added by this deal.` }]);
    expect((await remove(third)).map((n: { kind: string }) => n.kind)).toEqual(['warning']);
    expect(await tenantLinks(flatC.id)).toHaveLength(1);

    // A returning tenant's tenancy stretched by a second rental is no longer the first rental's to take away.
    const returning = await person('Eva', 'Vozvrat', { isClient: true });
    const flatD = await newObject('Flat in Pylaia', { forRent: true, rentPrice: 900 });
    const before = await close(flatD.id, returning);
    const again = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId: flatD.id, price: 950, rentStart: '2029-03-01', rentExpiration: '2030-02-28', accounts: [{ accountId: returning, relation: 2 }] });
    expect(again.json().notices.map((n: { kind: string }) => n.kind)).toEqual(['info']);
    expect((await onDelete(again.json().id)).map((n: { text: string }) => n.text)).toEqual([
      `Property #${flatD.refText} keeps its tenant Vozvrat Eva (01/03/2027 – 28/02/2030): that tenancy was not added by this deal.`,
    ]);
    expect((await onDelete(before)).map((n: { kind: string }) => n.kind)).toEqual(['warning']);
    await remove(before);
    expect(await tenantLinks(flatD.id)).toEqual([{ accountId: returning, relation: 4, startDate: '2027-03-01', endDate: '2030-02-28', price: 950, rentPaymentDay: null }]);
    // A rental never closed has nothing to say, its tenant's tenancy there or not.
    const open = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 1, objectId: flatD.id, accounts: [{ accountId: returning, relation: 2 }] });
    expect(await onDelete(open.json().id)).toEqual([]);
  });

  it('deleted while another rental of the property closes, both go through (neither waits on the other for ever)', async () => {
    const leaving = await person('Anna', 'Fevgousa', { isClient: true });
    const coming = await person('Vasilis', 'Erchomenos', { isClient: true });
    const flatE = await newObject('Flat in Neapoli', { forRent: true, rentPrice: 700 });
    const deal = (tenant: number, dealStage: number, rentStart: string, rentExpiration: string) =>
      agent.post('/api/Deal/update', { dealType: 1, dealStage, objectId: flatE.id, price: 700, rentStart, rentExpiration, accounts: [{ accountId: tenant, relation: 2 }] });
    const mistaken = (await deal(leaving, 5, '2027-03-01', '2028-02-29')).json();
    const next = (await deal(coming, 4, '2028-03-01', '2029-02-28')).json();
    expect(await tenantLinks(flatE.id)).toHaveLength(1);
    // Someone holds the property's row (any save of it) while the closing and the delete arrive, the
    // closing first: once it is free, each must still get what the other holds.
    let closing: Promise<Reply> | undefined;
    let removing: Promise<Reply> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from objects where id = ${flatE.id} for no key update`);
      closing = agent.post('/api/Deal/move', { id: next.id, version: next.version, dealStage: 5, endDate: signedOn });
      await untilWaiting(1);
      removing = agent.del(`/api/Deal/${mistaken.id}`);
      await untilWaiting(2);
    });
    const [closed, removed] = await Promise.all([closing!, removing!]);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await tenantLinks(flatE.id)).toEqual([{ accountId: coming, relation: 4, startDate: '2028-03-01', endDate: '2029-02-28', price: 700, rentPaymentDay: null }]);
  });

  it('deleted while a closed rental of the property gets another tenant, both go through (neither waits on the other for ever)', async () => {
    const leaving = await person('Anna', 'Fevgousa', { isClient: true });
    const named = await person('Vasilis', 'Lathos', { isClient: true });
    const right = await person('Yiannis', 'Sostos', { isClient: true });
    const flatF = await newObject('Flat in Evosmos', { forRent: true, rentPrice: 650 });
    const deal = (tenant: number, rentStart: string, rentExpiration: string) =>
      agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId: flatF.id, price: 650, rentStart, rentExpiration, accounts: [{ accountId: tenant, relation: 2 }] });
    const mistaken = (await deal(leaving, '2027-03-01', '2028-02-29')).json();
    const lease = (await deal(named, '2028-03-01', '2029-02-28')).json();
    expect(await tenantLinks(flatF.id)).toHaveLength(2);
    // Someone holds the property's row while the delete of one rental and the correction of the
    // other's tenant (the closing itself unchanged) arrive, the delete first.
    let removing: Promise<Reply> | undefined;
    let correcting: Promise<Reply> | undefined;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from objects where id = ${flatF.id} for no key update`);
      removing = agent.del(`/api/Deal/${mistaken.id}`);
      await untilWaiting(1);
      correcting = agent.post('/api/Deal/update', { id: lease.id, version: lease.version, accounts: [{ accountId: right, relation: 2 }] });
      await untilWaiting(2);
    });
    const [removed, corrected] = await Promise.all([removing!, correcting!]);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(corrected.statusCode, corrected.body).toBe(200);
    // The deleted rental's tenant is gone; the mistaken name's link stays (said), the right tenant is on.
    expect((await tenantLinks(flatF.id)).map((l) => l.accountId).sort((a, b) => a - b)).toEqual([named, right].sort((a, b) => a - b));
  });

  it('a sale closing puts nobody on the property', async () => {
    const buyerToo = await person('Ilias', 'Agorastis', { isClient: true });
    const shop = await newObject('Shop in Kalamaria', { forSale: true, salePrice: 90000 });
    const res = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 5, objectId: shop.id, price: 90000, accounts: [{ accountId: buyerToo, relation: 2 }] });
    expect(res.json().notices).toEqual([]);
    expect(await tenantLinks(shop.id)).toEqual([]);
  });
});

describe('a deal made from a lead', () => {
  it('wins the lead when it closes, once, logged; a deal still open leaves it as it was', async () => {
    const client = await person('Sofia', 'Lazarou', { isClient: true });
    const [lead] = await db.insert(leads).values({ accountId: client, stage: 5 } as never).returning({ id: leads.id, version: leads.version });
    const house = await newObject('House in Pylaia', { forSale: true, salePrice: 320000 });
    const stageOf = async () => (await db.execute<{ stage: number; version: number }>(sql`select stage, version from leads where id = ${lead!.id}`)).rows[0]!;
    const res = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 3, objectId: house.id, demandId: lead!.id, accounts: [{ accountId: client, relation: 2 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stageOf()).toEqual({ stage: 5, version: lead!.version });

    const closed = await agent.post('/api/Deal/move', { id: res.json().id, version: res.json().version, dealStage: 5, endDate: signedOn });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await stageOf()).toEqual({ stage: 6, version: lead!.version + 1 });
    const logged = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.entityId, lead!.id)));
    expect(logged.map((l) => l.message)).toEqual([`Won: deal #${res.json().id} closed`]);
    // The lead's page says so.
    const leadView = await agent.get(`/api/lead/view/${lead!.id}`);
    expect(leadView.statusCode, leadView.body).toBe(200);
    expect(JSON.stringify(leadView.json())).toContain('"stage":6');

    // Saved again while closed: the lead is not touched a second time.
    const again = await agent.post('/api/Deal/update', { id: res.json().id, version: closed.json().version, price: 318000 });
    expect(again.statusCode, again.body).toBe(200);
    expect(await stageOf()).toEqual({ stage: 6, version: lead!.version + 1 });
  });
});

describe('a lead moves on as things are done for it', () => {
  const newLead = async (stage: number) => {
    const client = await person('Anna', `Stage${stage}`, { isClient: true });
    const [lead] = await db.insert(leads).values({ accountId: client, stage } as never).returning({ id: leads.id });
    return lead!.id;
  };
  const stageOf = async (id: number) => (await db.execute<{ stage: number; version: number }>(sql`select stage, version from leads where id = ${id}`)).rows[0]!;
  const leadLog = async (id: number) =>
    (await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.entityId, id))).orderBy(actionLog.id)).map((l) => ({ message: l.message, data: l.data, actionBy: l.actionBy }));
  const arrange = (demandId: number | null, objectId: number) => agent.post('/api/Viewing/update', { demandId, dateOfViewing: '2026-12-05T11:00:00', results: [{ objectId, result: null }] });
  const openDeal = (demandId: number, objectId: number, dealStage = 1) => agent.post('/api/Deal/update', { dealType: 2, dealStage, objectId, demandId });

  it('a new lead: Viewings when a viewing is arranged, Negotiating when a deal is made, Won when it closes; each logged', async () => {
    const lead = await newLead(1);
    const house = await newObject('House in Thermi', { forSale: true, salePrice: 240000 });
    const v = await arrange(lead, house.id);
    expect(v.statusCode, v.body).toBe(200);
    expect(await stageOf(lead)).toEqual({ stage: 4, version: 2 });
    // Saved again (its result filled in): the lead is not touched again.
    expect((await agent.post('/api/Viewing/update', { id: v.json().id, version: v.json().version, results: [{ objectId: house.id, result: 4 }] })).statusCode).toBe(200);
    expect(await stageOf(lead)).toEqual({ stage: 4, version: 2 });
    const d = await openDeal(lead, house.id);
    expect(d.statusCode, d.body).toBe(200);
    expect(await stageOf(lead)).toEqual({ stage: 5, version: 3 });
    const closed = await agent.post('/api/Deal/move', { id: d.json().id, version: d.json().version, dealStage: 5, endDate: signedOn });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await stageOf(lead)).toEqual({ stage: 6, version: 4 });
    expect(await leadLog(lead)).toEqual([
      { message: `Viewing #${v.json().id} arranged`, data: { stage: 4, viewingId: v.json().id }, actionBy: agent.id },
      { message: `Deal #${d.json().id} opened`, data: { stage: 5, dealId: d.json().id }, actionBy: agent.id },
      { message: `Won: deal #${d.json().id} closed`, data: { stage: 6, dealId: d.json().id }, actionBy: agent.id },
    ]);
    // The lead's page shows the stage it is at.
    expect((await agent.get(`/api/lead/get/${lead}`)).json()).toMatchObject({ stage: 6 });
  });

  it('a viewing given its lead later moves it too; a deal straight from a new lead makes it Negotiating', async () => {
    const flatF = await newObject('Flat in Evosmos', { forSale: true, salePrice: 120000 });
    const lead = await newLead(1);
    const v = await arrange(null, flatF.id);
    expect(await stageOf(lead)).toEqual({ stage: 1, version: 1 });
    expect((await agent.post('/api/Viewing/update', { id: v.json().id, version: v.json().version, demandId: lead })).statusCode).toBe(200);
    expect((await stageOf(lead)).stage).toBe(4);
    const direct = await newLead(1);
    expect((await openDeal(direct, flatF.id)).statusCode).toBe(200);
    expect((await stageOf(direct)).stage).toBe(5);
  });

  it('never moves a stage the agent chose (Contacted, Offering, On hold), nor back, nor out of Won or Lost', async () => {
    const flatG = await newObject('Flat in Neapoli', { forSale: true, salePrice: 99000 });
    for (const stage of [2, 3, 8, 5, 6, 7]) {
      const lead = await newLead(stage);
      expect((await arrange(lead, flatG.id)).statusCode).toBe(200);
      expect((await openDeal(lead, flatG.id)).statusCode).toBe(200);
      expect(await stageOf(lead), `stage ${stage}`).toEqual({ stage, version: 1 });
      expect(await leadLog(lead)).toEqual([]);
    }
    // Viewings (by hand or by a viewing) is the step before negotiating: a deal moves it on; a viewing leaves it.
    const atViewings = await newLead(4);
    expect((await arrange(atViewings, flatG.id)).statusCode).toBe(200);
    expect(await stageOf(atViewings)).toEqual({ stage: 4, version: 1 });
    expect((await openDeal(atViewings, flatG.id)).statusCode).toBe(200);
    expect(await stageOf(atViewings)).toEqual({ stage: 5, version: 2 });
  });

  it('a deal entered as cancelled (a sale that fell through) leaves a new lead as it was', async () => {
    const flatH = await newObject('Flat in Toumba', { forSale: true, salePrice: 110000 });
    const lead = await newLead(1);
    const d = await openDeal(lead, flatH.id, 6);
    expect(d.statusCode, d.body).toBe(200);
    expect(await stageOf(lead)).toEqual({ stage: 1, version: 1 });
    expect(await leadLog(lead)).toEqual([]);
  });

  it('a refused viewing or deal moves nothing', async () => {
    const lead = await newLead(1);
    const refused = await agent.post('/api/Viewing/update', { demandId: lead, results: [] });
    expect(refused.statusCode).toBe(400);
    const noDeal = await agent.post('/api/Deal/update', { dealType: 2, demandId: lead });
    expect(noDeal.statusCode).toBe(400);
    expect(await stageOf(lead)).toEqual({ stage: 1, version: 1 });
  });
});

describe('bad input', () => {
  it('is refused with a clear 400 and changes nothing', async () => {
    const [{ n: before }] = (await db.execute<{ n: number }>(`select count(*)::int as n from deals`)).rows as [{ n: number }];
    for (const body of [
      { askingPrice: -1 },
      { price: 1e13 },
      { price: 10.005 },
      { dealStage: 9 },
      { dealType: 3 },
      { objectId: 2147483648 },
      { objectId: 2147483647 },
      { demandId: 2147483647 },
      { accounts: [{ accountId: 2147483647, relation: 2 }] },
      { accounts: [{ accountId: seller, relation: 8 }] },
      { dateOfDeposit: '2026-02-30' },
      { startDate: '2026-05-02', endDate: '2026-05-01' },
      { dealType: 2, rentStart: '2026-05-01' },
      { dealType: 1, contractDurationMonths: 12 },
      { dealType: 1, rentStart: '2026-05-02', rentExpiration: '2026-05-01' },
      { contractDurationMonths: -1 },
    ]) {
      const res = await agent.post('/api/Deal/update', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().title ?? res.json().detail, JSON.stringify(body)).toBeTruthy();
    }
    const [{ n: after }] = (await db.execute<{ n: number }>(`select count(*)::int as n from deals`)).rows as [{ n: number }];
    expect(after).toBe(before);
    for (const body of [{ stages: [0] }, { dealType: 7 }, { depositFrom: '2026-13-01' }, { perPage: 0 }, { currentPage: 2147483648 }]) {
      expect((await agent.post('/api/Deal/search', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await agent.post('/api/Deal/move', { id: 1, version: 1, dealStage: 0 })).statusCode).toBe(400);
    expect((await agent.get('/api/Deal/edit/2147483648')).statusCode).toBe(400);
    expect((await agent.get('/api/Deal/edit/2147483647')).statusCode).toBe(404);
    expect((await agent.get('/api/Deal/add?objectId=2147483647')).statusCode).toBe(404);
  });

  it('names every period out of order at once, the contract\'s and the rent\'s', async () => {
    const res = await agent.post('/api/Deal/update', { dealType: 1, startDate: '2026-05-02', endDate: '2026-05-01', rentStart: '2026-06-02', rentExpiration: '2026-06-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ endDate: ['The end cannot be before the start.'], rentExpiration: ['The end cannot be before the start.'] });
  });

  it('says what is wrong in the reader’s language', async () => {
    const res = await agent.post('/api/Deal/update', { dealType: 2, rentStart: '2026-05-01' }, { lang: 'el' });
    expect(JSON.stringify(res.json())).toContain('μόνο μισθώσεις');
  });
});

describe('an empty deal', () => {
  it('is refused until it has a property or a party, and an edit cannot empty a deal', async () => {
    const count = async () => ((await db.execute<{ n: number }>(`select count(*)::int as n from deals`)).rows[0] as { n: number }).n;
    const before = await count();
    const empty = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, price: 1000, accounts: [{ accountId: null, relation: 2 }] }, { lang: 'el' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toMatchObject({ objectId: [expect.stringContaining('τουλάχιστον ένα συμβαλλόμενο μέρος')] });
    expect(await count()).toBe(before);

    const withParty = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, accounts: [{ accountId: buyer, relation: 2 }] });
    expect(withParty.statusCode, withParty.body).toBe(200);
    const d = withParty.json();
    const emptied = await agent.post('/api/Deal/update', { id: d.id, version: d.version, accounts: [] });
    expect(emptied.statusCode).toBe(400);
    expect((await agent.get(`/api/Deal/edit/${d.id}`)).json().accounts).toHaveLength(1);
  });
});

describe('a deal started from a lead', () => {
  it('has the lead’s client as buyer, and the property the lead made an offer on with its owner as seller', async () => {
    const client = await person('Sofia', 'Alexiou', { isClient: true });
    const [lead] = await db.insert(leads).values({ accountId: client } as never).returning({ id: leads.id });
    const house = await newObject('House in Panorama', { forSale: true, salePrice: 320000 });
    await db.insert(objectAccounts).values({ objectId: house.id, accountId: seller, relation: 1 } as never);
    // Two offered: unclear which, so no property yet.
    await db.insert(leadObjects).values([
      { leadId: lead!.id, objectId: flat.id, position: 0 },
      { leadId: lead!.id, objectId: house.id, position: 1 },
    ]);
    const unclear = (await agent.get(`/api/Deal/add?demandId=${lead!.id}`)).json();
    expect(unclear).toMatchObject({ demandId: lead!.id, objectId: null });
    expect(unclear.accounts).toEqual([{ accountId: client, account: 'Alexiou Sofia', relation: 2 }]);

    // An offer on the house in a viewing: that is the property.
    const [v] = await db.insert(viewings).values({ demandId: lead!.id, dateOfViewing: new Date('2026-11-20T10:00:00Z') } as never).returning({ id: viewings.id });
    await db.insert(viewingObjects).values([
      { viewingId: v!.id, objectId: flat.id, result: 5, position: 0 },
      { viewingId: v!.id, objectId: house.id, result: 4, position: 1 },
    ]);
    const blank = (await agent.get(`/api/Deal/add?demandId=${lead!.id}`)).json();
    expect(blank).toMatchObject({ demandId: lead!.id, objectId: house.id, objectReferenceNumber: house.refText, askingPrice: 320000, dealType: 2 });
    expect(blank.accounts.map((p: { accountId: number; relation: number }) => [p.accountId, p.relation])).toEqual([
      [seller, 1],
      [client, 2],
    ]);
  });

  it('is a rental for a lead that wants to rent, about the property offered for rent, at its rent', async () => {
    const tenant = await person('Lars', 'Jensen', { isClient: true });
    const [lead] = await db.insert(leads).values({ accountId: tenant, forRent: true } as never).returning({ id: leads.id });
    // Offered a flat for sale only and the studio for rent: the studio is the one.
    await db.insert(leadObjects).values([
      { leadId: lead!.id, objectId: flat.id, position: 0 },
      { leadId: lead!.id, objectId: studio.id, position: 1 },
    ]);
    const blank = (await agent.get(`/api/Deal/add?demandId=${lead!.id}`)).json();
    expect(blank).toMatchObject({ dealType: 1, objectId: studio.id, askingPrice: 450 });
    expect(blank.accounts).toContainEqual({ accountId: tenant, account: 'Jensen Lars', relation: 2 });
  });
});
