import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { OWNER_RELATION } from '@crm/contract';
import { accounts, actionLog, objectAccounts, objects, transactions, users } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';

// Issue 45, payments: who owes whom on the accounts list, an income or expense tied to one of the
// owner's properties (and the statement filtered by it), and unpaid expenses apart from the balance.
const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'] });

let seq = 0;
async function newAccount(lastName: string) {
  seq++;
  const [a] = await db.insert(accounts).values({ firstName: `Eleni${seq}`, lastName, isOwner: true }).returning({ id: accounts.id });
  return a!.id;
}
async function property(ownerId: number, title: string) {
  const [o] = await db.insert(objects).values({ title } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  await db.insert(objectAccounts).values({ objectId: o!.id, accountId: ownerId, relation: OWNER_RELATION });
  return { id: o!.id, label: `${String(o!.ref).padStart(4, '0')} ${title}` };
}
function form(fields: Record<string, string | number | undefined>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.append(k, String(v));
  return fd;
}
const income = (accountId: number, fields: Record<string, string | number | undefined> = {}, as: Client = admin, lang?: string) =>
  as.post('/api/transactions/addIncome', form({ accountId, amount: '100.00', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1, ...fields }), lang ? { lang } : undefined);
const expense = (accountId: number, fields: Record<string, string | number | undefined> = {}) =>
  admin.post('/api/transactions/addExpense', form({ accountId, amount: '10.00', transactionDate: '2026-03-02T10:00:00', paymentMethod: 1, categoryId: 22, status: 1, ...fields }));

describe('the payments list', () => {
  it('says each account balance of what the agency received and paid, who owes whom, and its unpaid expenses apart, for the page in one go', async () => {
    const owed = await newAccount('Balanceowed');
    expect((await income(owed, { amount: '1240' })).statusCode).toBe(200);
    expect((await expense(owed, { amount: '300', status: 0 })).statusCode).toBe(200);
    // Paid by the owner directly: on the statement, but nothing the agency paid out of what it holds.
    expect((await expense(owed, { amount: '75', status: 2 })).statusCode).toBe(200);
    const owes = await newAccount('Balanceowes');
    await income(owes, { amount: '20' });
    await expense(owes, { amount: '100', status: 1 });
    const settled = await newAccount('Balancesettled');
    await income(settled, { amount: '55.50' });
    await expense(settled, { amount: '55.50', status: 1 });

    const rows = async (q: string) => (await admin.get(`/api/transactions/accounts?${q}&perPage=100`)).json().items as { id: number; balance: string; balanceState: string; toPay: string }[];
    const expected = [
      { id: owed, balance: '1240.00', balanceState: 'owed', toPay: '300.00' },
      { id: owes, balance: '-80.00', balanceState: 'owes', toPay: '0.00' },
      { id: settled, balance: '0.00', balanceState: 'settled', toPay: '0.00' },
    ];
    // Searched by name (the page read from the name index) and the usual list, newest change first.
    const searched = await rows('searchStr=Balance&sortBy=name&sortDir=asc');
    expect(searched.map(({ id, balance, balanceState, toPay }) => ({ id, balance, balanceState, toPay }))).toEqual(expected);
    const usual = await rows('sortBy=transactionModifiedOn&sortDir=desc');
    for (const e of expected) expect(usual.find((r) => r.id === e.id)).toMatchObject(e);
    // The statement says the same: the balance counts what the agency received and paid; the unpaid 300 is to pay, and the 75 the owner paid is in the debits only.
    const st = (await admin.get(`/api/transactions?accountId=${owed}`)).json();
    expect(st).toMatchObject({ balance: '1240.00', balanceState: 'owed', toPay: '300.00', unpaidCount: 1, totalDebit: '375.00' });
    expect((await admin.get(`/api/transactions?accountId=${owes}`)).json()).toMatchObject({ balance: '-80.00', balanceState: 'owes', toPay: '0.00' });
  });
});

describe('a transaction tied to a property', () => {
  it('is accepted for one of the account own properties, which the form offers alone', async () => {
    const owner = await newAccount('Tiedowner');
    const flat = await property(owner, 'Flat in Kalamaria');
    const shop = await property(owner, 'Shop on Tsimiski');
    const other = await newAccount('Otherowner');
    await property(other, 'Villa in Chalkidiki');
    const blank = (await admin.get(`/api/transactions/addIncome?accountId=${owner}`)).json();
    expect(blank.updateFields.objectId).toBeNull();
    expect(blank.objects).toEqual([
      { value: flat.id, text: flat.label, parent: null },
      { value: shop.id, text: shop.label, parent: null },
    ]);
    const res = await income(owner, { objectId: flat.id, amount: '650' });
    expect(res.statusCode).toBe(200);
    const [row] = await db.select({ objectId: transactions.objectId }).from(transactions).where(eq(transactions.id, res.json().id));
    expect(row!.objectId).toBe(flat.id);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, res.json().id)));
    expect(log!.data).toMatchObject({ objectId: flat.id });
    const edit = (await admin.get(`/api/transactions/editIncome/${res.json().id}`)).json();
    expect(edit.updateFields).toMatchObject({ objectId: flat.id, version: 1 });
    // Moved to the other property of the same owner (the version guarded), then untied.
    const moved = await admin.post('/api/transactions/editIncome', form({ id: res.json().id, version: 1, amount: '650', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1, objectId: shop.id }));
    expect(moved.statusCode).toBe(200);
    const stale = await admin.post('/api/transactions/editIncome', form({ id: res.json().id, version: 1, amount: '650', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1, objectId: '' }));
    expect(stale.statusCode).toBe(409);
    const untied = await admin.post('/api/transactions/editIncome', form({ id: res.json().id, version: 2, amount: '650', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1, objectId: '' }));
    expect(untied.statusCode).toBe(200);
    const [after] = await db.select({ objectId: transactions.objectId, version: transactions.version }).from(transactions).where(eq(transactions.id, res.json().id));
    expect(after).toEqual({ objectId: null, version: 3 });
  });

  it("is refused for another owner's property, with a translated error and nothing changed", async () => {
    const owner = await newAccount('Refusedowner');
    const flat = await property(owner, 'Flat in Pylaia');
    const other = await newAccount('Strangerowner');
    const villa = await property(other, 'Villa in Kassandra');
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(transactions).where(eq(transactions.accountId, owner)))[0]!.n;
    const logs = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(actionLog).where(eq(actionLog.entity, 'Transaction')))[0]!.n;
    const logsBefore = await logs();
    const refused = await income(owner, { objectId: villa.id }, admin, 'el');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.objectId).toEqual(['Το ακίνητο δεν ανήκει σε αυτόν τον ιδιοκτήτη: επιλέξτε ένα από τα δικά του ή κανένα.']);
    const en = await income(owner, { objectId: villa.id });
    expect(en.json().errors.objectId).toEqual(["This property is not one of this owner's properties: choose one of theirs, or none."]);
    // A property that does not exist is refused the same way.
    expect((await income(owner, { objectId: 2_000_000_000 })).json().errors.objectId).toHaveLength(1);
    expect(await count()).toBe(0);
    expect(await logs()).toBe(logsBefore);
    // An edit to another's property: refused, the stored row as it was.
    const { id } = (await income(owner, { objectId: flat.id })).json();
    const edit = await admin.post('/api/transactions/editIncome', form({ id, version: 1, amount: '999', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1, objectId: villa.id }));
    expect(edit.statusCode).toBe(400);
    expect(edit.json().errors.objectId).toHaveLength(1);
    const [row] = await db.select({ objectId: transactions.objectId, version: transactions.version, amount: sql<string>`${transactions.amount}::text` }).from(transactions).where(eq(transactions.id, id));
    expect(row).toEqual({ objectId: flat.id, version: 1, amount: '100.00' });
  });
});

describe('the statement filtered by property', () => {
  it('shows only the rows tied to it, for the office, for the account own client, and in Transactions.xlsx', async () => {
    const owner = await newAccount('Filterowner');
    const flat = await property(owner, 'Flat in Toumba');
    const shop = await property(owner, 'Shop in Ladadika');
    await income(owner, { objectId: flat.id, amount: '500' });
    await expense(owner, { objectId: flat.id, amount: '40', status: 0 });
    await income(owner, { objectId: shop.id, amount: '900' });
    await income(owner, { amount: '7' });
    const q = async (query: string, as: Client = admin) => (await as.get(`/api/transactions?accountId=${owner}${query}`)).json();
    const all = await q('');
    expect(all).toMatchObject({ totalRows: 4, balance: '1407.00', toPay: '40.00', shownSum: null });
    expect(all.objects.map((o: { value: number }) => o.value)).toEqual([flat.id, shop.id]);
    const byFlat = await q(`&objectId=${flat.id}`);
    // The balance stays the account's; the shown rows' sum is the flat's.
    expect(byFlat).toMatchObject({ totalRows: 2, totalCredit: '500.00', totalDebit: '40.00', shownSum: '460.00', balance: '1407.00', toPay: '40.00' });
    expect(byFlat.items.map((i: { objectId: number; objectTitle: string }) => [i.objectId, i.objectTitle])).toEqual([
      [flat.id, flat.label],
      [flat.id, flat.label],
    ]);
    expect(await q(`&objectId=${shop.id}&type=income`)).toMatchObject({ totalRows: 1, totalCredit: '900.00' });
    expect(await q('&objectId=')).toMatchObject({ totalRows: 4 });
    expect((await admin.get(`/api/transactions?accountId=${owner}&objectId=abc`)).statusCode).toBe(400);

    // The payments client of the account reads its own statement by property; another account's is not theirs.
    const client = await t.user({ roles: ['clientPayments'] });
    await db.update(users).set({ accountId: owner }).where(eq(users.id, client.id));
    expect(await q(`&objectId=${shop.id}`, client)).toMatchObject({ totalRows: 1, totalCredit: '900.00' });
    const stranger = await newAccount('Filterstranger');
    expect((await client.get(`/api/transactions?accountId=${stranger}&objectId=${shop.id}`)).statusCode).toBe(403);

    // Transactions.xlsx holds the same rows and names the property on its filter line.
    const wb = new ExcelJS.Workbook();
    const file = await admin.get(`/api/transactions/download/${owner}?objectId=${flat.id}`);
    expect(file.statusCode).toBe(200);
    await wb.xlsx.load(file.rawPayload as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getCell('A2').value).toBe(`Showing: Property: ${flat.label}`);
    expect([7, 8, 9].map((r) => ws.getRow(r).getCell(1).value != null)).toEqual([true, true, false]);
    expect([ws.getCell('G4').value, ws.getCell('H4').value]).toEqual(['To pay', 40]);
  });
});
