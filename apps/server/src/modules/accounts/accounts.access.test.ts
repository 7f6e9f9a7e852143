import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, actionLog, sessions, transactions, users } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { createTestApp, patchField } from '../../../test/harness.ts';
import { accountStaff } from '../../../test/records.ts';

/** Who may change what on employee accounts, and what branch users see of them (issue 6). */
const t = await createTestApp();
const { admin, emp, branchUser, branchAdmin, addAccount, stored } = await accountStaff(t);

let seq = 0;
async function signInFor(accountId: number, roles: ('admin' | 'employee' | 'clientPayments')[] = ['employee']) {
  const email = `signin${++seq}@agency.test`;
  await t.db.insert(users).values({ email, username: email, roles, accountId, passwordHash: await hashPassword('a-long-password-1', true) });
  const login = await t.client().post('/api/authenticate/login', { username: email, password: 'a-long-password-1' });
  expect(login.statusCode, login.body).toBe(200);
  const token = login.json().token as string;
  return { email, token, ...t.client(token) };
}

describe('granting fields of employee accounts are the office admins\'', () => {
  it('refuses a plain employee who changes the e-mail of an admin-role employee without a sign-in; the admin\'s sign-in goes to the real address', async () => {
    const id = await addAccount({ isEmploye: true, role: 'admin', email: 'real.admin@agency.test' });
    const res = await emp.post('/api/account/update', { id, version: 1, email: 'attacker@evil.test' });
    expect(res.statusCode).toBe(403);
    expect(res.json().title).toBe('Access denied');
    expect((await stored(id)).emails).toEqual(['real.admin@agency.test']);
    // Branch admins are not office admins either.
    expect((await branchAdmin.post('/api/account/update', { id, version: 1, email: 'attacker@evil.test' })).statusCode).toBe(403);
    // An office admin may: the address corrected, then set back before the sign-in is made.
    expect((await admin.post('/api/account/update', { id, version: 1, email: 'corrected.admin@agency.test' })).statusCode).toBe(200);
    expect((await stored(id)).emails).toEqual(['corrected.admin@agency.test']);
    expect((await admin.post('/api/account/update', { id, version: 2, email: 'real.admin@agency.test' })).statusCode).toBe(200);
    // The admin now sets the password: the sign-in is for the real address, not the attacker's.
    expect((await admin.post('/api/authenticate/setPassword', { email: 'attacker@evil.test', password: 'a-long-password-1' })).statusCode).toBe(400);
    expect(await t.db.select().from(users).where(eq(users.email, 'attacker@evil.test'))).toEqual([]);
    expect((await admin.post('/api/authenticate/setPassword', { email: 'real.admin@agency.test', password: 'a-long-password-1' })).statusCode).toBe(200);
    const [u] = await t.db.select().from(users).where(eq(users.accountId, id));
    expect(u).toMatchObject({ email: 'real.admin@agency.test', roles: ['admin'] });
  });

  it('refuses e-mail, role, branch and employee-flag changes by employees and branch admins on every path, changing nothing', async () => {
    const id = await addAccount({ isEmploye: true, role: 'employee', email: 'eleni@agency.test' });
    const before = await stored(id);
    for (const who of [emp, branchUser, branchAdmin]) {
      for (const change of [{ email: 'x@evil.test' }, { role: 'admin' }, { branchId: 1 }, { isEmploye: false }]) {
        const res = await who.post('/api/account/update', { id, version: before.version, ...change });
        expect(res.statusCode, `${JSON.stringify(change)}`).toBe(403);
      }
      // Merge: the kept account's granting fields, and folding an employee account away.
      const other = await addAccount({ isClient: true });
      expect((await who.post('/api/account/merge', { account: { id, version: before.version, email: 'x@evil.test' }, duplicateId: other })).statusCode).toBe(403);
      expect((await who.post('/api/account/merge', { account: { id: other, version: 1 }, duplicateId: id })).statusCode).toBe(403);
      // The single-field editor has no such field; the role page is the office admins'.
      expect((await who.patch(`/api/account/patch/${id}`, [{ op: 'replace', path: '/email', value: 'x@evil.test' }])).statusCode).toBe(400);
      expect((await who.post(`/api/UserRole/${id}`, { role: 'admin' })).statusCode).toBe(403);
      // Making an account an employee's is the same grant.
      expect((await who.post('/api/account/update', { id: other, version: 1, isEmploye: true })).statusCode).toBe(403);
      expect((await who.post('/api/account/add', { firstName: 'New', lastName: 'Hire', isEmploye: true, email: 'x@evil.test' })).statusCode).toBe(403);
    }
    expect(await stored(id)).toEqual(before);
    // An account that has a sign-in counts as an employee's even without the flag.
    const client = await addAccount({ isClient: true, email: 'payer@example.gr' });
    await t.db.insert(users).values({ email: 'payer@example.gr', username: 'Payer', roles: ['clientPayments'], accountId: client });
    expect((await emp.post('/api/account/update', { id: client, version: 1, email: 'x@evil.test' })).statusCode).toBe(403);
    // Other fields stay open to employees, and the office admin changes everything.
    expect((await emp.post('/api/account/update', { id, version: before.version, notes: 'Speaks Greek' })).statusCode).toBe(200);
    const ok = await admin.post('/api/account/update', { id, version: before.version + 1, email: 'eleni.k@agency.test', role: 'admin' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ email: 'eleni.k@agency.test', role: 'admin' });
  });

  it('lets employees change the e-mail of an account that is not an employee\'s', async () => {
    const id = await addAccount({ isClient: true, email: 'old@example.gr' });
    const res = await emp.post('/api/account/update', { id, version: 1, email: 'new@example.gr' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(id)).emails).toEqual(['new@example.gr']);
  });
});

describe('deleting or un-flagging an employee ends its sign-in', () => {
  it('deletes the account, disables and unlinks the sign-in, revokes its sessions in the same transaction', async () => {
    const id = await addAccount({ isEmploye: true, role: 'admin' });
    const s = await signInFor(id, ['admin']);
    expect((await s.get('/api/account/view/' + id)).statusCode).toBe(200);
    expect((await admin.del(`/api/account/${id}`)).statusCode).toBe(200);
    expect((await s.get('/api/account')).statusCode).toBe(401);
    expect((await t.client().post('/api/authenticate/login', { username: s.email, password: 'a-long-password-1' })).statusCode).not.toBe(200);
    const [u] = await t.db.select().from(users).where(eq(users.email, s.email));
    expect(u).toMatchObject({ disabled: true, accountId: null });
    const open = await t.db.select().from(sessions).where(eq(sessions.userId, u!.id));
    expect(open.every((x) => x.revokedOn !== null)).toBe(true);
  });

  it('ends the staff sign-in when the employee flag is taken off, and keeps it when the change is refused', async () => {
    const id = await addAccount({ isEmploye: true, role: 'employee' });
    const s = await signInFor(id);
    expect((await emp.post('/api/account/update', { id, version: 1, isEmploye: false })).statusCode).toBe(403);
    expect((await s.get('/api/account')).statusCode).toBe(200);
    const res = await admin.post('/api/account/update', { id, version: 1, isEmploye: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().signIn).toBeNull();
    expect((await s.get('/api/account')).statusCode).toBe(401);
    expect((await t.db.select().from(users).where(eq(users.email, s.email)))[0]).toMatchObject({ disabled: true });
  });

  it('does not delete the account of the last active administrator, and nothing changes', async () => {
    const solo = await createTestApp();
    const boss = await solo.user({ roles: ['admin'] });
    const add = await boss.post('/api/account/add', { firstName: 'Only', lastName: 'Admin', isEmploye: true, role: 'admin' });
    const id = add.json().id as number;
    await solo.db.update(users).set({ accountId: id }).where(eq(users.id, boss.id));
    const res = await boss.del(`/api/account/${id}`, { lang: 'el' });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toMatch(/διαχειριστ/);
    expect((await solo.db.select().from(accounts).where(eq(accounts.id, id))).length).toBe(1);
    expect((await solo.db.select().from(users).where(eq(users.id, boss.id)))[0]).toMatchObject({ disabled: false, accountId: id });
  });
});

describe('branch users', () => {
  it('cannot create employee or payment accounts, nor set those flags', async () => {
    for (const flags of [{ isEmploye: true }, { hasTransactions: true }]) {
      const res = await branchUser.post('/api/account/add', { firstName: 'Branch', lastName: 'Made', ...flags });
      expect(res.statusCode, JSON.stringify(flags)).toBe(403);
      expect(res.json().title).toBe('Access denied');
    }
    expect((await t.db.select().from(accounts).where(eq(accounts.lastName, 'Made'))).length).toBe(0);
    const id = await addAccount({ isClient: true });
    expect((await branchUser.post('/api/account/update', { id, version: 1, hasTransactions: true })).statusCode).toBe(403);
    expect((await stored(id)).hasTransactions).toBe(false);
    // A plain client is theirs to add.
    expect((await branchUser.post('/api/account/add', { firstName: 'Branch', lastName: 'Client', isClient: true, hasTransactions: false })).statusCode).toBe(200);
  });

  it('do not see an employee\'s role, sign-in, branch or work period in view, edit, update, patch or search answers', async () => {
    const id = await addAccount({ firstName: 'Sofia', lastName: 'Vlachou', isEmploye: true, role: 'admin', branchId: 1, startDate: '2020-01-01', email: 'sofia.v@agency.test', phone: '+30 231 000 1111' });
    await t.db.insert(users).values({ email: 'sofia.v@agency.test', username: 'Sofia', roles: ['admin'], branchId: 1, accountId: id });
    const full = (await admin.get(`/api/account/view/${id}`)).json();
    expect(full).toMatchObject({ role: 'admin', branchId: 1, signIn: 'sofia.v@agency.test', startDate: '2020-01-01', email: 'sofia.v@agency.test' });
    const hidden = { role: null, branchId: null, signIn: null, startDate: null, endDate: null, email: null };
    expect((await branchUser.get(`/api/account/view/${id}`)).json()).toMatchObject({ ...hidden, lastName: 'Vlachou' });
    expect((await branchAdmin.get(`/api/account/edit/${id}`)).json().dto).toMatchObject(hidden);
    const upd = await branchUser.post('/api/account/update', { id, version: full.version, notes: 'Desk by the window' });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).toMatchObject(hidden);
    const patch = (field: string, value: unknown) => patchField(branchUser, 'account', id, field, value);
    const notes = await patch('notes', 'Moved upstairs');
    expect(notes.statusCode, notes.body).toBe(200);
    expect(notes.json().dto.startDate).toBeNull();
    expect((await patch('startDate', '2021-01-01')).statusCode).toBe(403);
    expect((await branchUser.get(`/api/account/editRequestSelectList?id=${id}&fieldName=startDate`)).statusCode).toBe(403);
    // The whole-record save the same: the period sent back empty, as read, changes nothing; a date is refused.
    const v = (await stored(id)).version;
    const asRead = await branchUser.post('/api/account/update', { id, version: v, startDate: null, endDate: null, notes: 'Back downstairs' });
    expect(asRead.statusCode, asRead.body).toBe(200);
    const period = await branchUser.post('/api/account/update', { id, version: v + 1, startDate: '2020-01-01', endDate: '2020-06-30' });
    expect(period.statusCode).toBe(403);
    expect(await stored(id)).toMatchObject({ startDate: '2020-01-01', endDate: null, notes: 'Back downstairs' });
    expect((await stored(id)).emails).toEqual(['sofia.v@agency.test']);
    // The Employes list (the office's) shows a sign-in only while it works.
    const employes = async () => (await admin.get('/api/employe?perPage=1000000')).json().items.find((r: { id: number }) => r.id === id)?.signIn;
    expect(await employes()).toBe('sofia.v@agency.test');
    await t.db.update(users).set({ disabled: true }).where(eq(users.accountId, id));
    expect(await employes()).toBeNull();
    await t.db.update(users).set({ disabled: false }).where(eq(users.accountId, id));
    const search = (await branchUser.get('/api/search?searchStr=sofia.v')).json();
    expect(JSON.stringify(search)).not.toContain('sofia.v@agency.test');
    expect(JSON.stringify((await admin.get('/api/search?searchStr=sofia.v')).json())).toContain('sofia.v@agency.test');
  });
});

describe('a payments statement goes only where an office admin sends it', () => {
  const ledger = async (accountId: number, amount = '1234.00') => {
    const [tx] = await t.db.insert(transactions).values({ accountId, type: 'income', amount, transactionDate: new Date(), paymentMethod: 1, categoryId: 1 } as never).returning({ id: transactions.id });
    await t.db.update(accounts).set({ hasTransactions: true }).where(eq(accounts.id, accountId));
    return tx!.id;
  };
  const txOf = async (accountId: number) => (await t.db.select({ id: transactions.id }).from(transactions).where(eq(transactions.accountId, accountId))).map((r) => r.id);

  it('refuses to delete an account with transactions for anyone but an office admin, whose delete says how many went with it', async () => {
    const id = await addAccount({ isOwner: true });
    const txId = await ledger(id);
    for (const who of [emp, branchUser, branchAdmin]) {
      const res = await who.del(`/api/account/${id}`, { lang: 'el' });
      expect(res.statusCode).toBe(403);
      expect(res.json().title).toBe('Η επαφή έχει καρτέλα πληρωμών (κινήσεις: 1). Μόνο διαχειριστής του κεντρικού γραφείου μπορεί να τη διαγράψει, μαζί με την καρτέλα της.');
    }
    expect(await txOf(id)).toEqual([txId]);
    expect((await admin.del(`/api/account/${id}`)).statusCode).toBe(200);
    expect(await txOf(id)).toEqual([]);
    const [logged] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Account'), eq(actionLog.entityId, id), eq(actionLog.action, 'Delete')));
    expect(logged!.data).toMatchObject({ deletedTransactions: 1 });
    // Without transactions any staff member deletes an account, as before.
    const plain = await addAccount({ isOwner: true });
    expect((await branchUser.del(`/api/account/${plain}`)).statusCode).toBe(200);
  });

  it("refuses a merge that would move one account's transactions into another unless an office admin does it", async () => {
    const victim = await addAccount({ isOwner: true });
    const txId = await ledger(victim, '9999.00');
    const client = await addAccount({ isOwner: true });
    for (const who of [emp, branchUser, branchAdmin]) {
      const res = await who.post('/api/account/merge', { account: { id: client, version: (await stored(client)).version }, duplicateId: victim });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(await txOf(victim)).toEqual([txId]);
    const ok = await admin.post('/api/account/merge', { account: { id: client, version: (await stored(client)).version }, duplicateId: victim });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await txOf(client)).toEqual([txId]);
  });

  it("keeps a branch from changing where a payments account's mail goes", async () => {
    const id = await addAccount({ isOwner: true, email: 'real.owner@example.gr' });
    await ledger(id);
    for (const who of [branchUser, branchAdmin]) {
      expect((await who.post('/api/account/update', { id, version: (await stored(id)).version, email: 'branch.attacker@evil.test' })).statusCode).toBe(403);
    }
    expect((await stored(id)).emails).toEqual(['real.owner@example.gr']);
    // The office changes it.
    const res = await emp.post('/api/account/update', { id, version: (await stored(id)).version, email: 'new.owner@example.gr' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(id)).emails).toEqual(['new.owner@example.gr']);
  });
});

describe('one sign-in per account, ended with the account it belonged to', () => {
  it("ends a staff sign-in folded away by a merge (its sessions too), so it cannot act as the kept account's person", async () => {
    const employee = await addAccount({ isEmploye: true, role: 'admin', email: `fold${seq}@agency.test` });
    const s = await signInFor(employee, ['admin']);
    const kept = await addAccount({ isClient: true });
    const res = await admin.post('/api/account/merge', { account: { id: kept, version: (await stored(kept)).version }, duplicateId: employee });
    expect(res.statusCode, res.body).toBe(200);
    expect((await s.get('/api/authenticate/me')).statusCode).toBe(401);
    expect((await t.client().post('/api/authenticate/login', { username: s.email, password: 'a-long-password-1' })).statusCode).toBe(401);
    const [u] = await t.db.select().from(users).where(eq(users.email, s.email));
    expect(u).toMatchObject({ disabled: true });
  });

  it("refuses a second sign-in for an account that has one (another of its e-mails), an administrator's included", async () => {
    const other = await addAccount({ isEmploye: true, role: 'admin', email: `second.admin${seq}@agency.test` });
    const s = await signInFor(other, ['admin']);
    const alias = `alias${seq}@agency.test`;
    expect((await admin.post('/api/account/update', { id: other, version: (await stored(other)).version, email: `${s.email};${alias}` })).statusCode).toBe(200);
    // The preview (before a password is typed) says so already.
    const preview = await admin.get(`/api/authenticate/setPassword/preview?email=${encodeURIComponent(alias)}`, { lang: 'en' });
    expect(preview.statusCode).toBe(400);
    expect(JSON.stringify(preview.json())).toContain(`This account signs in already, with ${s.email}`);
    const set = await admin.post('/api/authenticate/setPassword', { email: alias, password: 'another-long-password-2' }, { lang: 'en' });
    expect(set.statusCode).toBe(400);
    expect(JSON.stringify(set.json())).toContain(`This account signs in already, with ${s.email}`);
    expect((await t.db.select().from(users).where(eq(users.email, alias))).length).toBe(0);
    expect((await t.client().post('/api/authenticate/login', { username: alias, password: 'another-long-password-2' })).statusCode).toBe(401);
  });
});
