import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts, transactions, users } from '../../db/schema/index.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { createTestApp } from '../../../test/harness.ts';

/**
 * A payments client (role clientPayments) reaches its own statement and nothing else of the CRM.
 * The route rules decide most of it: this walks every registered route and lists those whose rule
 * lets a clientPayments sign-in in at all. A new route that does must be added here on purpose
 * (and, if it names an account, prove its own-account check in its tests).
 */
const t = await createTestApp();
const { app } = t;
const client = await t.user({ roles: ['clientPayments'] });

/** Signed-in routes a client may call: its session, its language, and what carries no CRM data. */
const CLIENT_ROUTES = [
  'GET /api/Alert/unreadCount',
  'GET /api/authenticate/me',
  'GET /api/home',
  'POST /api/authenticate/changePassword',
  'POST /api/authenticate/logout',
  'POST /api/UserSettings/Language',
];
/** The payments calls a client's sign-in may make: each checks the account (tested below for every one). */
const CLIENT_PAYMENTS_ROUTES = [
  'GET /api/transactions',
  'GET /api/transactions/accounts',
  'GET /api/transactions/download/:accountId',
  'GET /api/transactions/editExpense/:id',
  'GET /api/transactions/editIncome/:id',
  'GET /api/transactions/files/:id',
  'GET /api/transactions/files/:id/:name',
  'POST /api/transactions/statement/approveExpense/:id',
  'POST /api/transactions/statement/revertApprovalExpense/:id',
];
/** Public payments calls: the client's approval page, opened by the mailed link's token alone. */
const APPROVAL_ROUTES = [
  'GET /api/transactions/viewExpense/:id',
  'GET /api/transactions/viewExpense/:id/files/:fileId',
  'GET /api/transactions/viewExpense/:id/files/:fileId/:name',
  'POST /api/transactions/approveExpense/:id',
  'POST /api/transactions/revertApprovalExpense/:id',
];

describe('what a payments client reaches', () => {
  it('is its session, its language and its own payments, nothing else of the CRM', () => {
    const reachable = app.routeAccess
      .filter((r) => r.access !== 'public' && (r.access.roles as readonly string[]).includes('clientPayments'))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(reachable).toEqual([...CLIENT_ROUTES, ...CLIENT_PAYMENTS_ROUTES].sort());
    // The only public payments calls are the approval page's.
    const publicPayments = app.routeAccess.filter((r) => r.access === 'public' && r.url.startsWith('/api/transactions')).map((r) => `${r.method} ${r.url}`);
    expect(publicPayments.sort()).toEqual([...APPROVAL_ROUTES].sort());
  });

  it('never reads another account\'s statement, transaction, attachment, download or approval, through any payments call', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const [mine] = await t.db.insert(accounts).values({ firstName: 'Νίκος', lastName: 'Πελάτης', hasTransactions: true }).returning({ id: accounts.id });
    const [other] = await t.db.insert(accounts).values({ firstName: 'Άννα', lastName: 'Άλλη', hasTransactions: true, emails: ['anna.other@example.gr'] }).returning({ id: accounts.id });
    await t.db.update(users).set({ accountId: mine!.id }).where(eq(users.id, client.id));
    const fd = (type: 'income' | 'expense') => {
      const f = new FormData();
      const fields: Record<string, string> = { accountId: String(other!.id), amount: '99.00', transactionDate: '2026-04-01T10:00:00', paymentMethod: '1', categoryId: type === 'income' ? '1' : '22' };
      if (type === 'expense') fields.status = '0';
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), 'receipt.pdf');
      return f;
    };
    const add = async (type: 'income' | 'expense') => {
      const res = await admin.post(`/api/transactions/add${type === 'income' ? 'Income' : 'Expense'}`, fd(type));
      expect(res.statusCode, res.body).toBe(200);
      return res.json().id as number;
    };
    const income = await add('income');
    const expense = await add('expense');
    const st = (await admin.get(`/api/transactions?accountId=${other!.id}`)).json();
    const fileId = st.items[0].attachments[0].id as number;
    expect((await admin.post(`/api/transactions/sendExpenseForApproval/${expense}`)).statusCode).toBe(200);

    const refused: Record<string, string> = {
      'GET /api/transactions': `/api/transactions?accountId=${other!.id}`,
      'GET /api/transactions/download/:accountId': `/api/transactions/download/${other!.id}`,
      'GET /api/transactions/editExpense/:id': `/api/transactions/editExpense/${expense}`,
      'GET /api/transactions/editIncome/:id': `/api/transactions/editIncome/${income}`,
      'GET /api/transactions/files/:id': `/api/transactions/files/${fileId}`,
      'GET /api/transactions/files/:id/:name': `/api/transactions/files/${fileId}/receipt.pdf`,
      'POST /api/transactions/statement/approveExpense/:id': `/api/transactions/statement/approveExpense/${expense}`,
      'POST /api/transactions/statement/revertApprovalExpense/:id': `/api/transactions/statement/revertApprovalExpense/${expense}`,
    };
    const requested = (await t.db.select({ on: transactions.approvalRequestedOn }).from(transactions).where(eq(transactions.id, expense)))[0]!.on!;
    const bodies: Record<string, object> = { 'POST /api/transactions/statement/approveExpense/:id': { requestedOn: toLocalDateTime(requested, t.config.timeZone) } };
    for (const [route, url] of Object.entries(refused)) {
      const res = await client.call(route.split(' ')[0] as 'GET', url, bodies[route]);
      expect(res.statusCode, `${route}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain('99.00');
      expect(res.body).not.toContain('Άννα');
    }
    // The list shows its own account only.
    const list = (await client.get('/api/transactions/accounts')).json();
    expect(list.items.map((i: { id: number }) => i.id)).toEqual([mine!.id]);
    // Its own statement opens.
    expect((await client.get(`/api/transactions?accountId=${mine!.id}`)).statusCode).toBe(200);
    // The approval calls need the mailed link's token: a session is no key.
    const token = 'A'.repeat(43);
    expect((await client.get(`/api/transactions/viewExpense/${expense}`)).statusCode).toBe(400);
    expect((await client.get(`/api/transactions/viewExpense/${expense}?token=${token}`)).statusCode).toBe(404);
    expect((await client.get(`/api/transactions/viewExpense/${expense}/files/${fileId}?token=${token}`)).statusCode).toBe(404);
    expect((await client.get(`/api/transactions/viewExpense/${expense}/files/${fileId}/receipt.pdf?token=${token}`)).statusCode).toBe(404);
    expect((await client.post(`/api/transactions/approveExpense/${expense}?token=${token}`)).statusCode).toBe(404);
    expect((await client.post(`/api/transactions/revertApprovalExpense/${expense}?token=${token}`)).statusCode).toBe(404);
    // Every client-reachable payments call was tried above.
    expect(Object.keys(refused).concat('GET /api/transactions/accounts').sort()).toEqual([...CLIENT_PAYMENTS_ROUTES].sort());
  });

  it('is told nothing of the agency by the calls it may make', async () => {
    expect((await client.get('/api/Alert/unreadCount')).json()).toBe(0);
    const home = (await client.get('/api/home')).json();
    // Its own sign-ins at most: the home card lists the caller's own actions only.
    expect(home.unreadAlerts).toBe(0);
    expect(home.recent.filter((r: { action: string }) => r.action !== 'Login')).toEqual([]);
  });

  it('is refused the CRM: records, search, files, settings and staff screens', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/account/view/1'],
      ['GET', '/api/account'],
      ['POST', '/api/account/add'],
      ['GET', '/api/search?q=a'],
      ['GET', '/api/object/view/1'],
      ['POST', '/api/lead/search'],
      ['GET', '/api/files/1'],
      ['GET', '/api/UserRole/1'],
      ['POST', '/api/authenticate/setPassword'],
      ['GET', '/api/transactions/sendInvitation/1'],
      ['POST', '/api/transactions/sendExpenseForApproval/1'],
      ['GET', '/api/transactions/addExpense?accountId=1'],
      ['DELETE', '/api/transactions/1'],
    ];
    for (const [method, url] of calls) {
      const res = await client.call(method as 'GET', url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().title).toBe('Access denied');
    }
  });
});
