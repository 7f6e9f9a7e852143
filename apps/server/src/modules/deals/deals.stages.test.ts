import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { accounts, actionLog, deals, objectAccounts, objects } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';

const t = await createTestApp();
const { db } = t;
const agent = await t.user({ roles: ['employee'] });
const admin = await t.user({ roles: ['admin'] });

async function newObject(title: string, extra: Record<string, unknown> = {}) {
  const [o] = await db.insert(objects).values({ title, ...extra } as never).returning({ id: objects.id });
  return o!.id;
}
async function person(firstName: string, lastName: string, extra: Record<string, unknown> = {}) {
  const [a] = await db.insert(accounts).values({ firstName, lastName, ...extra }).returning({ id: accounts.id });
  return a!.id;
}
/** The agency's fees as an administrator sets them in the settings. */
async function setFees(saleFeePercent: number | null, rentFeeMonths: number | null) {
  const current = (await admin.get('/api/SiteSettings')).json();
  const res = await admin.post('/api/SiteSettings', { ...current, saleFeePercent, rentFeeMonths });
  expect(res.statusCode, res.body).toBe(200);
}

const owner = await person('Kostas', 'Vlachos', { isOwner: true });
const flat = await newObject('Flat in Neapoli', { forSale: true, salePrice: 185000 });
await db.insert(objectAccounts).values({ objectId: flat, accountId: owner, relation: 1 } as never);
const studio = await newObject('Studio in Pylaia', { forRent: true, rentPrice: 450 });
await db.insert(objectAccounts).values({ objectId: studio, accountId: owner, relation: 1 } as never);

describe('a deal started from a property', () => {
  it('has the property’s owner as seller and its asking price, and no commission while the settings set no fee', async () => {
    await setFees(null, null);
    const blank = await agent.get(`/api/Deal/add?objectId=${flat}`);
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json()).toMatchObject({ id: null, dealType: 2, objectId: flat, askingPrice: 185000, commission: null });
    expect(blank.json().accounts).toEqual([{ accountId: owner, account: 'Vlachos Kostas', relation: 1 }]);
    // Saved as the form sends it back, the seller and the price are the deal's.
    const saved = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat, askingPrice: blank.json().askingPrice, accounts: blank.json().accounts });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ askingPrice: 185000, accounts: [{ accountId: owner, relation: 1 }] });
  });

  it('has the commission the settings’ fees give (a sale’s percentage, a rental’s months of rent), which the agent may change', async () => {
    await setFees(2.5, 1);
    const sale = (await agent.get(`/api/Deal/add?objectId=${flat}`)).json();
    expect(sale).toMatchObject({ dealType: 2, askingPrice: 185000, commission: 4625 });
    const rental = (await agent.get(`/api/Deal/add?objectId=${studio}`)).json();
    expect(rental).toMatchObject({ dealType: 1, askingPrice: 450, commission: 450 });
    // Without a property there is no price to take a fee of.
    expect((await agent.get('/api/Deal/add')).json().commission).toBeNull();
    const saved = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat, askingPrice: 185000, commission: 4000, accounts: sale.accounts });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().commission).toBe(4000);
    const [row] = (await db.select().from(deals).where(eq(deals.id, saved.json().id))) as unknown as { commission: number }[];
    expect(Number(row!.commission)).toBe(4000);
  });
});

describe('a move on the board to a stage that needs data', () => {
  const newDeal = async () => {
    const res = await agent.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat, askingPrice: 185000, startDate: '2026-09-01', accounts: [{ accountId: owner, relation: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; version: number };
  };
  const stored = async (id: number) => (await db.select().from(deals).where(eq(deals.id, id)))[0] as unknown as Record<string, unknown>;

  it('to deposit paid, is refused without the amount and the date, saying so in the reader’s language, and changes nothing', async () => {
    const d = await newDeal();
    const en = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 2 });
    expect(en.statusCode).toBe(400);
    expect(en.json().errors).toEqual({
      deposit: ['Enter the amount to move the deal to “Deposit paid”.'],
      dateOfDeposit: ['Enter the date it was paid to move the deal to “Deposit paid”.'],
    });
    const el = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 2, deposit: 10000 }, { lang: 'el' });
    expect(el.statusCode).toBe(400);
    expect(el.json().errors).toEqual({ dateOfDeposit: ['Συμπληρώστε την ημερομηνία καταβολής για να μεταφέρετε τη συμφωνία στο στάδιο «Δόθηκε αρραβώνας».'] });
    const ru = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 2, dateOfDeposit: '2026-10-01' }, { lang: 'ru' });
    expect(ru.json().errors).toEqual({ deposit: ['Укажите сумму, чтобы перевести сделку на этап «Задаток внесён».'] });
    expect(await stored(d.id)).toMatchObject({ dealStage: 1, version: d.version, deposit: null, dateOfDeposit: null });
  });

  it('to deposit paid, with them, moves the deal and stores them, logged with the move; the board’s card carries them', async () => {
    const d = await newDeal();
    const moved = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 2, deposit: 18500, dateOfDeposit: '2026-10-02' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ dealStage: 2, deposit: 18500, dateOfDeposit: '2026-10-02', version: d.version + 1 });
    expect(await stored(d.id)).toMatchObject({ dealStage: 2, dateOfDeposit: '2026-10-02' });
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Deal'), eq(actionLog.entityId, d.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log!.data).toMatchObject({ dealStage: 2, deposit: 18500, dateOfDeposit: '2026-10-02' });
    const board = (await agent.post('/api/Deal/board', { object: '' })).json();
    const card = board.columns.find((c: { stage: number }) => c.stage === 2).cards.find((c: { id: number }) => c.id === d.id);
    expect(card).toMatchObject({ deposit: 18500, dateOfDeposit: '2026-10-02', endDate: null });
    // A deal that has them already moves there again without being asked.
    const back = await agent.post('/api/Deal/move', { id: d.id, version: d.version + 1, dealStage: 1 });
    expect((await agent.post('/api/Deal/move', { id: d.id, version: back.json().version, dealStage: 2 })).statusCode).toBe(200);
  });

  it('to contract signing, needs the signing date, not before the negotiations began; a stage that needs nothing asks nothing', async () => {
    const d = await newDeal();
    const without = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 4 });
    expect(without.statusCode).toBe(400);
    expect(without.json().errors).toEqual({ endDate: ['Enter the contract signing date to move the deal to “Contract signing”.'] });
    const early = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 4, endDate: '2026-08-01' });
    expect(early.statusCode).toBe(400);
    expect(Object.keys(early.json().errors)).toEqual(['endDate']);
    const signed = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 4, endDate: '2026-11-15' });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ dealStage: 4, endDate: '2026-11-15' });
    const checks = await agent.post('/api/Deal/move', { id: d.id, version: signed.json().version, dealStage: 3 });
    expect(checks.statusCode, checks.body).toBe(200);
  });

  it('straight to closed, needs the signing date the signing stage would have asked; a deal that has it is closed as it is', async () => {
    const d = await newDeal();
    const without = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 5 }, { lang: 'el' });
    expect(without.statusCode).toBe(400);
    expect(without.json().errors).toEqual({ endDate: ['Συμπληρώστε την ημερομηνία υπογραφής του συμβολαίου για να μεταφέρετε τη συμφωνία στο στάδιο «Ολοκληρώθηκε».'] });
    expect(await stored(d.id)).toMatchObject({ dealStage: 1, endDate: null, version: d.version });
    const closed = await agent.post('/api/Deal/move', { id: d.id, version: d.version, dealStage: 5, endDate: '2026-11-20' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ dealStage: 5, endDate: '2026-11-20' });
    // Reopened and closed again: the date it has is enough.
    const reopened = await agent.post('/api/Deal/move', { id: d.id, version: closed.json().version, dealStage: 3 });
    expect((await agent.post('/api/Deal/move', { id: d.id, version: reopened.json().version, dealStage: 5 })).statusCode).toBe(200);
  });
});
