import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { accounts, actionLog, transactionAttachments, transactions, users } from '../../db/schema/index.ts';
import { accountMaker } from '../../../test/records.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';
import { agencyToday } from '../../lib/dates.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { app, db } = t;

const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });

const newAccount = accountMaker(db, 'Maria', 'Owner', { hasTransactions: true });
/** A clientPayments sign-in that belongs to an account. */
async function clientOf(accountId: number) {
  const u = await t.user({ roles: ['clientPayments'] });
  await db.update(users).set({ accountId }).where(eq(users.id, u.id));
  return u;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

type Fields = Record<string, string | number | undefined>;
function form(fields: Fields, files: { name: string; data: Buffer; type?: string }[] = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.append(k, String(v));
  for (const f of files) fd.append('files', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return fd;
}
async function addIncome(accountId: number, fields: Fields = {}, files: { name: string; data: Buffer }[] = [], as: Client = admin) {
  const res = await as.post('/api/transactions/addIncome', form({ accountId, amount: '1000.00', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1, ...fields }, files));
  return res;
}
async function addExpense(accountId: number, fields: Fields = {}, files: { name: string; data: Buffer }[] = [], as: Client = admin) {
  return as.post('/api/transactions/addExpense', form({ accountId, amount: '80.50', transactionDate: '2026-03-05T09:30:00', paymentMethod: 2, categoryId: 22, status: 0, ...fields }, files));
}

describe('income and expense', () => {
  it('are added with a receipt, and the statement shows exact totals, running balances and the unpaid count', async () => {
    const owner = await newAccount({ hasTransactions: false });
    const inc = await addIncome(owner.id, { amount: '1 200,10', internalNotes: '  March rent  ' });
    expect(inc.statusCode).toBe(200);
    const exp = await addExpense(owner.id, { amount: '0.20' }, [{ name: 'ΔΕΗ λογαριασμός.png', data: PNG }]);
    expect(exp.statusCode).toBe(200);
    const exp2 = await addExpense(owner.id, { amount: '0.10', transactionDate: '2026-03-06T09:30:00', status: 1, categoryId: 25, paymentMethod: 1 });
    expect(exp2.statusCode).toBe(200);

    const st = (await admin.get(`/api/transactions?accountId=${owner.id}`)).json();
    // 0.1 + 0.2 is exactly 0.30 here, never 0.30000000000000004.
    // The balance counts what was paid (issue 45): the unpaid 0.20 is apart, to pay, and leaves its row's balance as it was.
    expect(st).toMatchObject({ balance: '1200.00', balanceState: 'owed', toPay: '0.20', totalDebit: '0.30', totalCredit: '1200.10', totalRows: 3, unpaidCount: 1, canEdit: true });
    expect(st.items.map((i: { balance: string }) => i.balance)).toEqual(['1200.00', '1200.10', '1200.10']);
    expect(st.items[1]).toMatchObject({ isDebit: true, debit: '0.20', credit: null, status: 'Not paid', statusId: 0, categoryName: 'Electricity', paymentMethod: 'Cash', transactionDate: '2026-03-05T09:30:00' });
    expect(st.items[1].attachments).toEqual([{ id: expect.any(Number), name: 'ΔΕΗ λογαριασμός.png' }]);
    expect(st.items[2]).toMatchObject({ isDebit: false, credit: '1200.10', debit: null, status: null, categoryName: 'Rent', paymentMethod: 'Banking' });

    // The account now keeps payments: it is in the payments list.
    const [acc] = await db.select({ has: accounts.hasTransactions }).from(accounts).where(eq(accounts.id, owner.id));
    expect(acc!.has).toBe(true);
    const [stored] = await db.select({ amount: sql<string>`${transactions.amount}::text`, internalNotes: transactions.internalNotes, type: transactions.type, status: transactions.status }).from(transactions).where(eq(transactions.id, inc.json().id));
    expect(stored).toMatchObject({ amount: '1200.10', internalNotes: 'March rent', type: 'income', status: null });
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, inc.json().id)));
    expect(log).toMatchObject({ action: 'Create', actionBy: admin.id });
    // The moment is logged as the statement shows it (agency time), not as JSON writes a Date (UTC).
    const [exp2Log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, exp2.json().id)));
    expect(exp2Log!.data).toMatchObject({ transactionDate: '2026-03-06T09:30:00' });

    const el = (await admin.get(`/api/transactions?accountId=${owner.id}`, { lang: 'el' })).json();
    expect(el.items[1]).toMatchObject({ status: 'Απλήρωτο', categoryName: 'Ρεύμα' });

    const file = await admin.get(`/api/transactions/files/${st.items[1].attachments[0].id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    // By the address the screens link to: the file's name its last part (what the browser names the tab and the saved file after).
    const named = await admin.get(`/api/transactions/files/${st.items[1].attachments[0].id}/${encodeURIComponent('ΔΕΗ λογαριασμός.png')}`);
    expect(named.statusCode).toBe(200);
    expect(named.headers['content-type']).toBe('image/png');
    expect(named.headers['content-disposition']).toMatch(new RegExp(`^inline; .*filename\\*=UTF-8''${encodeURIComponent('ΔΕΗ λογαριασμός.png')}$`));
    expect(named.rawPayload.equals(PNG)).toBe(true);
  });

  it('filters the statement by type, payment method, category and unpaid only, 25 rows a page to start', async () => {
    const owner = await newAccount();
    for (let i = 0; i < 27; i++) expect((await addIncome(owner.id, { transactionDate: `2026-01-${String(i + 1).padStart(2, '0')}T08:00:00`, amount: '10' })).statusCode).toBe(200);
    await addExpense(owner.id, { amount: '5', status: 0, categoryId: 21 });
    await addExpense(owner.id, { amount: '7', status: 1, categoryId: 22, paymentMethod: 1 });
    const q = (s: string) => admin.get(`/api/transactions?accountId=${owner.id}${s}`).then((r) => r.json());
    const all = await q('');
    expect(all.items).toHaveLength(25);
    expect(all).toMatchObject({ totalRows: 29, totalCredit: '270.00', totalDebit: '12.00', balance: '263.00', toPay: '5.00', shownSum: null, unpaidCount: 1 });
    expect((await q('&currentPage=2')).items).toHaveLength(4);
    // A filter chooses the rows shown; the balance stays the account's, and the shown rows' sum comes apart.
    expect(await q('&type=expense')).toMatchObject({ totalRows: 2, totalDebit: '12.00', totalCredit: '0.00', balance: '263.00', shownSum: '-12.00' });
    const unpaid = await q('&unpaidOnly=true');
    expect(unpaid).toMatchObject({ totalRows: 1, balance: '263.00', shownSum: '-5.00', unpaidCount: 1 });
    // A row's balance is the account's after it (270 in, this 5 not paid: nothing out yet), not the shown rows' running sum.
    expect(unpaid.items[0].balance).toBe('270.00');
    expect(await q('&paymentMethod=2')).toMatchObject({ totalRows: 1, totalDebit: '5.00' });
    expect(await q('&categoryId=22')).toMatchObject({ totalRows: 1, totalDebit: '7.00' });
    expect(await q('&type=&paymentMethod=&categoryId=&unpaidOnly=')).toMatchObject({ totalRows: 29 });
  });

  it('opens in its form, saves an edit with attachments deleted and added, and refuses a stale version (409)', async () => {
    const owner = await newAccount();
    const { id } = (await addExpense(owner.id, {}, [{ name: 'a.png', data: PNG }, { name: 'b.pdf', data: PDF }])).json();
    const f = (await admin.get(`/api/transactions/editExpense/${id}`)).json();
    expect(f.displayFields).toMatchObject({ accountDisplayName: owner.displayName, referenceNumber: expect.any(String) });
    expect(f.updateFields).toMatchObject({ id, version: 1, amount: '80.50', transactionDate: '2026-03-05T09:30:00', paymentMethod: 2, categoryId: 22, status: 0 });
    expect(f.lists.categoryId.every((o: { parent: string }) => o.parent === 'expense')).toBe(true);
    expect(f.lists.status.map((o: { value: number }) => o.value)).toEqual([0, 1, 2]);
    expect(f.attachments.map((a: { name: string; state: number }) => [a.name, a.state])).toEqual([
      ['a.png', 1],
      ['b.pdf', 1],
    ]);
    const [a, b] = f.attachments as { id: number }[];
    const res = await admin.post(
      '/api/transactions/editExpense',
      form(
        { id, version: 1, amount: '81', transactionDate: '2026-03-05T09:45:00', paymentMethod: 1, categoryId: 25, status: 1, paymentDate: '2026-03-10', startDate: '2026-02-01', endDate: '2026-02-28', attachments: JSON.stringify([{ id: a!.id, state: 0 }, { id: b!.id, state: 1 }]) },
        [{ name: 'c.png', data: PNG }],
      ),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, version: 2, accountId: owner.id });
    const after = (await admin.get(`/api/transactions/editExpense/${id}`)).json();
    expect(after.updateFields).toMatchObject({ amount: '81.00', status: 1, paymentDate: '2026-03-10', startDate: '2026-02-01', endDate: '2026-02-28', categoryId: 25 });
    expect(after.attachments.map((x: { name: string }) => x.name)).toEqual(['b.pdf', 'c.png']);
    expect((await admin.get(`/api/transactions/files/${a!.id}`)).statusCode).toBe(404);

    const stale = await admin.post('/api/transactions/editExpense', form({ id, version: 1, amount: '99', transactionDate: '2026-03-05T09:45:00', paymentMethod: 1, categoryId: 25 }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.updateFields).toMatchObject({ version: 2, amount: '81.00' });
    // An income is not opened as an expense.
    expect((await admin.get(`/api/transactions/editIncome/${id}`)).statusCode).toBe(404);
  });

  it('takes the first and the last day of the ledger\'s days', async () => {
    const owner = await newAccount();
    const last = `${Number(agencyToday(t.config.timeZone).slice(0, 4)) + 10}-12-31`;
    const first = await addExpense(owner.id, { transactionDate: '2000-01-01T00:00:00', expirationDate: last, startDate: '2000-01-01', endDate: last, paymentDate: last });
    expect(first.statusCode, first.body).toBe(200);
    expect((await addIncome(owner.id, { transactionDate: `${last}T23:59:00` })).statusCode).toBe(200);
  });

  it('refuses bad input with a translated field error and stores nothing', async () => {
    const owner = await newAccount();
    const cases: [Fields, string, string][] = [
      [{ amount: '-5' }, 'amount', 'The amount must be greater than zero.'],
      [{ amount: '0' }, 'amount', 'The amount must be greater than zero.'],
      [{ amount: '10.0055' }, 'amount', 'The amount can have at most two decimals (cents).'],
      [{ amount: '1e3' }, 'amount', 'Write the amount as a number, e.g. 1250.50.'],
      [{ amount: '1234567890123' }, 'amount', 'The amount is too large.'],
      [{ transactionDate: '2026-03-01' }, 'transactionDate', 'Enter both the date and the time.'],
      [{ transactionDate: '2026-03-01T10:00' }, 'transactionDate', 'Enter both the date and the time.'],
      [{ transactionDate: '2026-02-30T10:00:00' }, 'transactionDate', ''],
      [{ categoryId: 22 }, 'categoryId', ''],
      [{ categoryId: 77 }, 'categoryId', ''],
      [{ paymentMethod: 3 }, 'paymentMethod', ''],
      [{ internalNotes: 'a\u0000b' }, 'internalNotes', ''],
      [{ accountId: 2147483648 }, 'accountId', ''],
    ];
    for (const [fields, field, message] of cases) {
      const res = await addIncome(owner.id, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      const errors = res.json().errors as Record<string, string[]>;
      expect(Object.keys(errors), JSON.stringify(fields)).toContain(field);
      if (message) expect(errors[field]).toContain(message);
    }
    const el = await admin.post('/api/transactions/addIncome', form({ accountId: owner.id, amount: '10,0055', transactionDate: '2026-03-01T10:00:00', paymentMethod: 1, categoryId: 1 }), { lang: 'el' });
    expect(el.json().errors.amount).toContain('Το ποσό μπορεί να έχει έως δύο δεκαδικά (λεπτά).');
    const expenseCases: [Fields, string][] = [
      [{ status: 7 }, 'status'],
      [{ categoryId: 1 }, 'categoryId'],
      [{ startDate: '2026-03-10', endDate: '2026-03-01' }, 'endDate'],
      [{ paymentDate: '2026-13-01' }, 'paymentDate'],
    ];
    for (const [fields, field] of expenseCases) {
      const res = await addExpense(owner.id, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    // A date out of the ledger's days (a typing slip: 1900, 2206) is refused at its field, naming the
    // days allowed: from 1 January 2000 to the end of the year ten years on (the agency's today).
    const last = `${Number(agencyToday(t.config.timeZone).slice(0, 4)) + 10}`;
    const outOfRange = `Enter a date from 01/01/2000 to 31/12/${last}.`;
    for (const [fields, field] of [
      [{ transactionDate: '1900-01-01T10:00:00' }, 'transactionDate'],
      [{ transactionDate: '1999-12-31T23:59:00' }, 'transactionDate'],
      [{ transactionDate: `${Number(last) + 1}-01-01T00:00:00` }, 'transactionDate'],
      [{ transactionDate: '2206-03-05T09:30:00' }, 'transactionDate'],
      [{ expirationDate: '1901-02-03' }, 'expirationDate'],
      [{ paymentDate: '2999-12-31' }, 'paymentDate'],
      [{ startDate: '1900-01-01', endDate: '2026-03-31' }, 'startDate'],
      [{ startDate: '2026-03-01', endDate: `${Number(last) + 1}-03-31` }, 'endDate'],
    ] as [Fields, string][]) {
      const res = await addExpense(owner.id, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(fields)).toEqual([outOfRange]);
    }
    const ru = await admin.post('/api/transactions/addIncome', form({ accountId: owner.id, amount: '10', transactionDate: '1900-01-01T10:00:00', paymentMethod: 1, categoryId: 1 }), { lang: 'ru' });
    expect(ru.json().errors.transactionDate).toEqual([`Укажите дату с 01.01.2000 по 31.12.${last}.`]);
    // An unknown file type, JSON instead of form-data, an unknown account.
    expect((await addIncome(owner.id, {}, [{ name: 'x.exe', data: Buffer.from([0x4d, 0x5a, 0, 0, 1, 2, 3]) }])).statusCode).toBe(415);
    expect((await admin.post('/api/transactions/addIncome', { accountId: owner.id })).statusCode).toBe(400);
    expect((await addIncome(2147483000)).statusCode).toBe(404);
    const rows = await db.select().from(transactions).where(eq(transactions.accountId, owner.id));
    expect(rows).toHaveLength(0);
    expect(await db.select().from(transactionAttachments)).not.toContainEqual(expect.objectContaining({ userName: 'x.exe' }));
  });

  it('is deleted with its attachments, logged', async () => {
    const owner = await newAccount();
    const { id } = (await addExpense(owner.id, { transactionDate: '2026-03-15T00:30:00' }, [{ name: 'r.png', data: PNG }])).json();
    const del = await admin.del(`/api/transactions/${id}`);
    expect(del.statusCode).toBe(200);
    expect(await db.select().from(transactions).where(eq(transactions.id, id))).toHaveLength(0);
    expect(await db.select().from(transactionAttachments).where(eq(transactionAttachments.transactionId, id))).toHaveLength(0);
    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, id)));
    expect(logs.map((l) => l.action).sort()).toEqual(['Create', 'Delete']);
    // 00:30 in Athens is the 15th; as UTC it would have read the 14th.
    expect(logs.find((l) => l.action === 'Delete')!.data).toMatchObject({ transactionDate: '2026-03-15T00:30:00' });
    expect((await admin.del(`/api/transactions/${id}`)).statusCode).toBe(404);
  });
});

describe('who reaches payments', () => {
  it('employees read but do not write; branch users and other clients are refused', async () => {
    const owner = await newAccount();
    const { id } = (await addExpense(owner.id, {}, [{ name: 'r.png', data: PNG }])).json();
    const st = await agent.get(`/api/transactions?accountId=${owner.id}`);
    expect(st.statusCode).toBe(200);
    expect(st.json().canEdit).toBe(false);
    expect((await addIncome(owner.id, {}, [], agent)).statusCode).toBe(403);
    expect((await agent.get(`/api/transactions/addIncome?accountId=${owner.id}`)).statusCode).toBe(403);
    expect((await agent.del(`/api/transactions/${id}`)).statusCode).toBe(403);
    expect((await branchAdmin.get(`/api/transactions?accountId=${owner.id}`)).statusCode).toBe(403);
    expect((await branchAdmin.get(`/api/transactions/accounts`)).statusCode).toBe(403);
  });

  it('a clientPayments user reads its own account only, through every call', async () => {
    const mine = await newAccount();
    const other = await newAccount();
    const me = await clientOf(mine.id);
    const { id: myExpense } = (await addExpense(mine.id, { internalNotes: 'agency only' }, [{ name: 'mine.png', data: PNG }])).json();
    const { id: theirs } = (await addExpense(other.id, {}, [{ name: 'theirs.png', data: PNG }])).json();
    const { id: theirIncome } = (await addIncome(other.id)).json();

    const own = await me.get(`/api/transactions?accountId=${mine.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ canEdit: false, totalRows: 1 });
    const myFile = own.json().items[0].attachments[0].id;
    expect((await me.get(`/api/transactions/files/${myFile}`)).statusCode).toBe(200);
    const myForm = (await me.get(`/api/transactions/editExpense/${myExpense}`)).json();
    expect(myForm.updateFields.internalNotes).toBeNull();
    expect((await me.get(`/api/transactions/download/${mine.id}`)).statusCode).toBe(200);
    const list = (await me.get('/api/transactions/accounts')).json();
    expect(list.items.map((i: { id: number }) => i.id)).toEqual([mine.id]);

    const theirFile = (await db.select().from(transactionAttachments).where(eq(transactionAttachments.transactionId, theirs)))[0]!.id;
    const refused = [
      `/api/transactions?accountId=${other.id}`,
      `/api/transactions?accountId=2147483000`,
      `/api/transactions/download/${other.id}`,
      `/api/transactions/files/${theirFile}`,
      `/api/transactions/editExpense/${theirs}`,
      `/api/transactions/editIncome/${theirIncome}`,
      // Unknown ones too: a client cannot probe which ids exist.
      `/api/transactions/editExpense/2147483000`,
      `/api/transactions/files/2147483000`,
      `/api/transactions/addIncome?accountId=${mine.id}`,
      `/api/transactions/addExpense?accountId=${mine.id}`,
    ];
    for (const url of refused) expect((await me.get(url)).statusCode, url).toBe(403);
    // The named address the statement links to (a plain link, so the file cookie alone): its own
    // attachment, under its own name; another account's by the same address is refused.
    const named = await app.inject({ url: `/api/transactions/files/${myFile}/mine.png`, headers: { cookie: `crm_files=${me.token}` } });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.headers['content-disposition']).toBe(`inline; filename="mine.png"; filename*=UTF-8''mine.png`);
    expect((await app.inject({ url: `/api/transactions/files/${theirFile}/theirs.png`, headers: { cookie: `crm_files=${me.token}` } })).statusCode).toBe(403);
    expect((await app.inject({ url: `/api/transactions/files/${myFile}/mine.png` })).statusCode).toBe(401);
    expect((await addIncome(mine.id, {}, [], me)).statusCode).toBe(403);
    expect((await me.del(`/api/transactions/${myExpense}`)).statusCode).toBe(403);
    // A client sign-in without an account reads nothing.
    const lost = await t.user({ roles: ['clientPayments'] });
    expect((await lost.get(`/api/transactions?accountId=${mine.id}`)).statusCode).toBe(403);
    expect((await lost.get('/api/transactions/accounts')).json().items).toEqual([]);
  });
});

describe('the payments list', () => {
  it('finds an account when any word of a name starts with the text, in any script, accents ignored', async () => {
    const greek = await newAccount({ firstName: 'Μαρία', lastName: 'Παπαδοπούλου' });
    const russian = await newAccount({ firstName: 'Юлия', lastName: 'Иванова' });
    await newAccount({ firstName: 'Μαρία', lastName: 'Παπαδοπούλου', hasTransactions: false });
    const find = async (s: string) => ((await admin.get(`/api/transactions/accounts?searchStr=${encodeURIComponent(s)}&perPage=100`)).json().items as { id: number }[]).map((i) => i.id);
    expect(await find('παπαδ')).toEqual([greek.id]);
    expect(await find('ΠΑΠΑΔΌ')).toEqual([greek.id]);
    expect(await find('μαρι')).toEqual([greek.id]);
    expect(await find('papad')).toEqual([greek.id]);
    expect(await find('ivan')).toEqual([russian.id]);
    expect(await find('ива')).toEqual([russian.id]);
    // Inside a word is not a word start.
    expect(await find('δοπου')).toEqual([]);
    // The name as the list shows it (last name first), whole or cut, and with an initial.
    expect(await find('Παπαδοπούλου Μαρία')).toEqual([greek.id]);
    expect(await find('Μαρία Παπαδοπούλου')).toEqual([greek.id]);
    expect(await find('Иванова Ю.')).toEqual([russian.id]);
    expect(await find('Иванова Мария')).toEqual([]);
    const page = (await admin.get('/api/transactions/accounts?sortBy=name&sortDir=asc&perPage=1000000')).json();
    expect(page.totalRows).toBe(page.items.length);
    expect(page.items[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), transactionModifiedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/) });
  });

  it('lists, newest change first, exactly the accounts that keep payments: one that stops leaves it and comes back with its date', async () => {
    const ids = async (query = 'perPage=1000000') => {
      const body = (await admin.get(`/api/transactions/accounts?${query}`)).json() as { items: { id: number; transactionModifiedOn: string }[]; totalRows: number };
      expect(body.totalRows).toBe(body.items.length);
      return body.items;
    };
    const older = await newAccount();
    const newer = await newAccount();
    await db.execute(sql`update payment_accounts set transactions_modified_on = now() - interval '1 day' where account_id = ${older.id}`);
    let list = await ids();
    expect(list.findIndex((i) => i.id === newer.id)).toBeLessThan(list.findIndex((i) => i.id === older.id));
    const before = list.find((i) => i.id === older.id)!.transactionModifiedOn;
    const [{ n }] = (await db.execute(sql`select count(*)::int as n from accounts where has_transactions`)).rows as [{ n: number }];
    expect(list).toHaveLength(n);

    await db.update(accounts).set({ hasTransactions: false }).where(eq(accounts.id, older.id));
    list = await ids();
    expect(list.map((i) => i.id)).not.toContain(older.id);
    expect(list).toHaveLength(n - 1);
    // The second page starts where the first ended.
    const first = (await admin.get('/api/transactions/accounts?perPage=1&currentPage=1')).json().items[0];
    const second = (await admin.get('/api/transactions/accounts?perPage=1&currentPage=2')).json().items[0];
    expect([first.id, second.id]).toEqual(list.slice(0, 2).map((i) => i.id));

    await db.update(accounts).set({ hasTransactions: true }).where(eq(accounts.id, older.id));
    list = await ids();
    expect(list.find((i) => i.id === older.id)?.transactionModifiedOn).toBe(before);
    expect(list).toHaveLength(n);
  });
});

describe('Transactions.xlsx', () => {
  it('holds exactly the filtered rows, in the reader language, with real numbers and dates, and no formulas', async () => {
    const owner = await newAccount({ firstName: '=HYPERLINK("http://evil")', lastName: 'Owner' });
    await addIncome(owner.id, { amount: '1500.25' });
    await addExpense(owner.id, { amount: '200.10', status: 0 });
    await addExpense(owner.id, { amount: '99.99', status: 1, transactionDate: '2026-03-07T12:00:00' });
    const res = await admin.get(`/api/transactions/download/${owner.id}?type=expense`, { lang: 'el' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('Transactions.xlsx');
    const wb = await workbookOf(res);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Καρτέλα');
    expect(String(ws.getCell('A1').value)).toMatch(/^'?Καρτέλα λογαριασμού: /);
    // The account name starting with "=" is text, never a formula.
    expect(ws.getCell('A1').formula).toBeUndefined();
    expect(ws.getCell('A3').value).toBe('Σύνολο χρεώσεων');
    expect(ws.getCell('B3').value).toBe(300.09);
    expect(ws.getCell('B3').numFmt).toContain('€');
    expect(ws.getCell('E3').value).toBe(0);
    // "Balance" is the account's (1 500,25 in, 99,99 paid out), whatever the filter; the 200,10 not
    // paid is apart, to pay (issue 45); the expenses shown add up to −300,09, on the filter's line and named as such.
    expect(ws.getCell('G3').value).toBe('Υπόλοιπο');
    expect(ws.getCell('H3').value).toBe(1400.26);
    expect([ws.getCell('G4').value, ws.getCell('H4').value]).toEqual(['Προς πληρωμή', 200.1]);
    // The issued line's amount in euro, its time as a date and time.
    expect(ws.getCell('H4').numFmt).toContain('€');
    expect(ws.getCell('B4').numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(ws.getCell('G2').value).toBe('Σύνολο εμφανιζόμενων κινήσεων');
    expect(ws.getCell('H2').value).toBe(-300.09);
    expect(ws.getCell('H2').numFmt).toContain('€');
    expect(ws.getCell('A6').value).toBe('Ημερομηνία');
    const rows = [7, 8].map((r) => ws.getRow(r));
    expect(rows[0]!.getCell(1).value).toEqual(new Date('2026-03-07T12:00:00Z'));
    expect(rows[0]!.getCell(7).value).toBe(99.99);
    // Each row's balance is the account's after it: 1 500,25 after the unpaid 200,10, then 1 400,26 after the paid 99,99.
    expect(rows[0]!.getCell(9).value).toBe(1400.26);
    expect(rows[1]!.getCell(6).value).toBe('Απλήρωτο');
    expect(rows[1]!.getCell(9).value).toBe(1500.25);
    expect(ws.getRow(9).getCell(1).value ?? null).toBeNull();
    for (let r = 1; r <= 8; r++) ws.getRow(r).eachCell((c) => expect(c.formula).toBeUndefined());
    // Labels are texts, not euro amounts, whatever their column.
    for (const cell of ['A3', 'D3', 'G3', 'G6', 'G2']) expect(ws.getCell(cell).numFmt ?? 'General', cell).toBe('General');
  });

  it('"Balance" is the account\'s with "Unpaid only" too; the shown rows\' sum is named apart, on the statement and in the file (en, ru)', async () => {
    const owner = await newAccount();
    await addIncome(owner.id, { amount: '6089.07' });
    await addExpense(owner.id, { amount: '145.22', status: 0 });
    const st = (await admin.get(`/api/transactions?accountId=${owner.id}&unpaidOnly=true`)).json();
    expect(st).toMatchObject({ balance: '6089.07', shownSum: '-145.22', totalDebit: '145.22', totalRows: 1 });
    const sheet = async (query: string, lang: string) => {
      const wb = await workbookOf((await admin.get(`/api/transactions/download/${owner.id}${query}`, { lang })).rawPayload);
      return wb.worksheets[0]!;
    };
    const all = await sheet('', 'en');
    expect(all.getCell('A2').value).toBe('Showing: All transactions');
    expect(all.getCell('G2').value ?? null).toBeNull();
    expect(all.getCell('H2').value ?? null).toBeNull();
    expect([all.getCell('G3').value, all.getCell('H3').value]).toEqual(['Balance', 6089.07]);
    const unpaid = await sheet('?unpaidOnly=true', 'en');
    expect(unpaid.getCell('A2').value).toBe('Showing: Unpaid only');
    expect([unpaid.getCell('G2').value, unpaid.getCell('H2').value]).toEqual(['Sum of the shown rows', -145.22]);
    expect([unpaid.getCell('G3').value, unpaid.getCell('H3').value]).toEqual(['Balance', 6089.07]);
    const ru = await sheet('?unpaidOnly=true', 'ru');
    expect([ru.getCell('G2').value, ru.getCell('H2').value]).toEqual(['Итого по показанным операциям', -145.22]);
    expect([ru.getCell('G3').value, ru.getCell('H3').value]).toEqual(['Остаток', 6089.07]);
    // The unpaid expense apart from the balance, to pay (issue 45).
    expect([ru.getCell('G4').value, ru.getCell('H4').value]).toEqual(['К оплате', 145.22]);
  });

  it('leaves a cell with nothing in it empty (an income has no status), not an empty text', async () => {
    const owner = await newAccount();
    await addIncome(owner.id, { amount: '10.00' });
    const res = await admin.get(`/api/transactions/download/${owner.id}`, { lang: 'en' });
    const wb = await workbookOf(res);
    const ws = wb.worksheets[0]!;
    expect(ws.getCell('F6').value).toBe('Status');
    expect(ws.getCell('F7').value ?? null).toBeNull();
    expect(ws.getCell('F7').type).toBe(ExcelJS.ValueType.Null);
  });

  it('opens in a spreadsheet whatever the office made of the sheet\'s name in its texts (no : / [ ], at most 31 characters)', async () => {
    const owner = await newAccount();
    await addIncome(owner.id, { amount: '10.00' });
    const shipped = app.translator.t('ru', 'payments.xlsx.sheet');
    const rename = async (text: string) => {
      await db.execute(sql`update localization set text = ${text} where key = 'payments.xlsx.sheet' and culture = 'ru'`);
      await app.translator.load(db);
    };
    try {
      await rename('Выписка: счёт/клиент [2026] — все строки');
      const res = await admin.get(`/api/transactions/download/${owner.id}`, { lang: 'ru' });
      expect(res.statusCode).toBe(200);
      // What the file itself says: a spreadsheet program refuses (or "repairs") any other name.
      const wb = await workbookOf(res);
      expect(wb.worksheets[0]!.name).toBe('Выписка счёт-клиент 2026 — все');
      expect(wb.worksheets[0]!.getCell('A6').value).toBe('Дата');
    } finally {
      await rename(shipped);
    }
  });
});

describe('the forms made from the field description', () => {
  it('a blank expense form: no amount, now as its date, Bank, no category, not paid, the expense lists in the reader language', async () => {
    const owner = await newAccount();
    const f = (await admin.get(`/api/transactions/addExpense?accountId=${owner.id}`, { lang: 'el' })).json();
    expect(f.updateFields).toEqual({
      id: null,
      accountId: owner.id,
      version: null,
      amount: '',
      transactionDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00$/),
      paymentMethod: 1,
      categoryId: null,
      objectId: null,
      status: 0,
      paymentDate: null,
      expirationDate: null,
      startDate: null,
      endDate: null,
      internalNotes: null,
    });
    expect(f.lists.paymentMethod).toEqual([
      { value: 1, text: 'Τράπεζα', parent: null },
      { value: 2, text: 'Μετρητά', parent: null },
    ]);
    expect(f.lists.categoryId).toContainEqual({ value: 22, text: 'Ρεύμα', parent: 'expense' });
    expect(f.lists.categoryId.every((o: { parent: string }) => o.parent === 'expense')).toBe(true);
    expect(f.lists.status.map((o: { text: string }) => o.text)).toEqual(['Απλήρωτο', 'Εξοφλημένο', 'Εξοφλήθηκε από τον ιδιοκτήτη']);
    expect(f).toMatchObject({ attachments: [], canEdit: true, confirmedByClientDate: null, approvalRequestedOn: null });

    const income = (await admin.get(`/api/transactions/addIncome?accountId=${owner.id}`)).json();
    expect(Object.keys(income.updateFields).sort()).toEqual(['accountId', 'amount', 'categoryId', 'id', 'internalNotes', 'objectId', 'paymentMethod', 'transactionDate', 'version']);
    expect(Object.keys(income.lists).sort()).toEqual(['categoryId', 'paymentMethod']);
    expect(income.lists.categoryId.every((o: { parent: string }) => o.parent === 'income')).toBe(true);
  });

  it('reads an amount as Greek, Russian and English staff type it, and stores the exact cents', async () => {
    const owner = await newAccount();
    for (const typed of ['1.234,56', '1 234,56', '1,234.56', '1234.56']) {
      const res = await addIncome(owner.id, { amount: typed });
      expect(res.statusCode, typed).toBe(200);
      const [row] = await db.select({ amount: sql<string>`${transactions.amount}::text` }).from(transactions).where(eq(transactions.id, res.json().id));
      expect(row!.amount, typed).toBe('1234.56');
    }
    // A lone dot or comma before three digits groups thousands, as in every number box of the app
    // (a booking's "2.000" is 2 000 €): an amount has two decimals at most, so it is no decimal mark.
    for (const [typed, exact] of [
      ['1.500', '1500.00'],
      ['1.500,50', '1500.50'],
      ['1,500.50', '1500.50'],
      ['1,500', '1500.00'],
    ]) {
      const res = await addIncome(owner.id, { amount: typed! });
      expect(res.statusCode, typed).toBe(200);
      const [row] = await db.select({ amount: sql<string>`${transactions.amount}::text` }).from(transactions).where(eq(transactions.id, res.json().id));
      expect(row!.amount, typed).toBe(exact);
    }
    // Half a euro typed with three decimals ("0,500") is refused, never stored as 500 €.
    for (const typed of ['1.500,505', '0,500', '0.500']) {
      const tooPrecise = await addIncome(owner.id, { amount: typed });
      expect(tooPrecise.statusCode, typed).toBe(400);
      expect(tooPrecise.json().errors.amount, typed).toContain('The amount can have at most two decimals (cents).');
    }
    expect((await admin.get(`/api/transactions?accountId=${owner.id}`)).json()).toMatchObject({ totalRows: 8, totalCredit: '10939.24' });
  });

  it('an income leaves the expense-only fields unset, whatever the form-data carries', async () => {
    const owner = await newAccount();
    const res = await addIncome(owner.id, { status: 1, paymentDate: '2026-03-10', startDate: '2026-03-01' });
    expect(res.statusCode).toBe(200);
    const [row] = await db.select({ status: transactions.status, paymentDate: transactions.paymentDate, startDate: transactions.startDate }).from(transactions).where(eq(transactions.id, res.json().id));
    expect(row).toEqual({ status: null, paymentDate: null, startDate: null });
  });
});
