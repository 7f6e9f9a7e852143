import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { accounts, users } from '../../db/schema/index.ts';
import { createTestApp, type Reply } from '../../../test/harness.ts';
import { accountStaff } from '../../../test/records.ts';

const t = await createTestApp();
const { admin, emp, branchUser, branchAdmin, addAccount, stored } = await accountStaff(t);
const setPassword = (email: string, password = 'harbour lemon tree') => admin.post('/api/authenticate/setPassword', { email, password });

describe('what a change can grant is the office admins\' alone', () => {
  it("refuses the e-mail of any account someone signs in with, and the employee flag, to non-office-admins", async () => {
    const id = await addAccount({ email: 'client.pays@agency.test' });
    await t.db.insert(users).values({ email: 'client.pays@agency.test', username: 'Client', roles: ['clientPayments'], accountId: id });
    expect((await emp.post('/api/account/update', { id, version: 1, email: 'other@evil.test' })).statusCode).toBe(403);
    const plain = await addAccount({ email: 'plain@agency.test' });
    // A plain account's e-mail stays open to employees ...
    expect((await emp.post('/api/account/update', { id: plain, version: 1, email: 'plain2@agency.test' })).statusCode).toBe(200);
    // ... but not the employee flag, neither on update nor when adding.
    expect((await emp.post('/api/account/update', { id: plain, version: 2, isEmploye: true })).statusCode).toBe(403);
    expect((await emp.post('/api/account/add', { firstName: 'A', lastName: 'B', isEmploye: true })).statusCode).toBe(403);
    expect((await stored(plain)).isEmploye).toBe(false);
  });
});

describe("an employee's e-mail is nobody else's sign-in", () => {
  const emailError = async (res: Reply) => {
    expect(res.statusCode, res.body).toBe(400);
    return res.json().errors.email as string[];
  };

  it("refuses the office admin's sign-in e-mail on an employee, in the reader's language, and changes nothing", async () => {
    const id = await addAccount({ isEmploye: true, role: 'employee', email: 'nikos@agency.test' });
    // The first administrator signs in without an account: its e-mail is nobody's contact, and was taken silently.
    const [first] = await t.db.select().from(users).where(eq(users.id, admin.id));
    expect(first!.accountId).toBeNull();
    const res = await admin.post('/api/account/update', { id, version: 1, email: `nikos@agency.test; ${admin.email.toUpperCase()}` });
    expect(await emailError(res)).toEqual([`${admin.email} is already the sign-in of another user (${first!.username}): give this employee an e-mail address of their own.`]);
    expect((await stored(id)).emails).toEqual(['nikos@agency.test']);
    const el = await admin.post('/api/account/add', { firstName: 'Νίκος', lastName: 'Νέος', isEmploye: true, role: 'employee', email: admin.email }, { lang: 'el' });
    expect(await emailError(el)).toEqual([`Με το ${admin.email} συνδέεται ήδη άλλος χρήστης (${first!.username}): δώστε στον υπάλληλο δική του διεύθυνση e-mail.`]);
    expect(await t.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.lastName, 'Νέος'))).toEqual([]);
  });

  it("refuses another employee's e-mail, with or without its sign-in, and names whose it is", async () => {
    const maria = await addAccount({ firstName: 'Maria', lastName: 'Signs', isEmploye: true, role: 'employee', email: 'maria.signs@agency.test' });
    expect((await setPassword('maria.signs@agency.test')).statusCode).toBe(200);
    await addAccount({ firstName: 'Eleni', lastName: 'Waits', isEmploye: true, role: 'employee', email: 'eleni.waits@agency.test' });
    const id = await addAccount({ isEmploye: true, role: 'employee', email: 'kostas@agency.test' });
    const ru = { lang: 'ru' };
    expect(await emailError(await admin.post('/api/account/update', { id, version: 1, email: 'Maria.Signs@agency.test' }, ru))).toEqual([
      'С адресом maria.signs@agency.test уже входит другой пользователь (Signs Maria): укажите для сотрудника его собственный e-mail.',
    ]);
    expect(await emailError(await admin.post('/api/account/update', { id, version: 1, email: 'eleni.waits@agency.test' }))).toEqual([
      'eleni.waits@agency.test is already the e-mail of another employee (Waits Eleni): each employee signs in with an address of their own.',
    ]);
    expect((await stored(id)).emails).toEqual(['kostas@agency.test']);
    // Set password for that address still goes to Maria's sign-in alone.
    expect((await t.db.select().from(users).where(eq(users.email, 'maria.signs@agency.test')))[0]!.accountId).toBe(maria);
  });

  it('gives one new address to one of two employees saved with it at the same moment', async () => {
    const a = await addAccount({ firstName: 'Anna', lastName: 'Same', isEmploye: true, role: 'employee', email: 'anna.same@agency.test' });
    const b = await addAccount({ firstName: 'Vasso', lastName: 'Same', isEmploye: true, role: 'employee', email: 'vasso.same@agency.test' });
    const both = await Promise.all([
      admin.post('/api/account/update', { id: a, version: 1, email: 'anna.same@agency.test;front.desk@agency.test' }),
      admin.post('/api/account/update', { id: b, version: 1, email: 'vasso.same@agency.test;front.desk@agency.test' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const holders = [await stored(a), await stored(b)].filter((x) => x.emails.includes('front.desk@agency.test'));
    expect(holders).toHaveLength(1);
  });

  it('lets a client share a sign-in e-mail (a couple, an office), but not become an employee with it', async () => {
    const client = await addAccount({ isClient: true, email: admin.email });
    expect((await stored(client)).emails).toEqual([admin.email]);
    expect(await emailError(await admin.post('/api/account/update', { id: client, version: 1, isEmploye: true, role: 'employee' }))).toHaveLength(1);
    expect((await stored(client)).isEmploye).toBe(false);
    // The employee's own e-mails stay its own: saving it again, or adding one of its own, is fine.
    const own = await addAccount({ isEmploye: true, role: 'employee', email: 'own.one@agency.test' });
    expect((await setPassword('own.one@agency.test')).statusCode).toBe(200);
    expect((await admin.post('/api/account/update', { id: own, version: 1, email: 'own.one@agency.test;own.two@agency.test', notes: 'x' })).statusCode).toBe(200);
  });

  it("merges two records of one employee, keeping the duplicate's sign-in e-mail", async () => {
    const dup = await addAccount({ firstName: 'Petros', lastName: 'Twice', isEmploye: true, role: 'employee', email: 'petros.twice@agency.test' });
    expect((await setPassword('petros.twice@agency.test')).statusCode).toBe(200);
    const kept = await addAccount({ firstName: 'Petros', lastName: 'Twice', isEmploye: true, role: 'employee', email: 'petros.home@agency.test' });
    const res = await admin.post('/api/account/merge', { account: { id: kept, version: 1, email: 'petros.twice@agency.test' }, duplicateId: dup });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(kept)).emails).toEqual(['petros.twice@agency.test']);
  });
});

describe('an employee who goes cannot sign in', () => {
  async function employeeWithSignIn(email: string, role = 'employee') {
    const id = await addAccount({ isEmploye: true, role, email });
    expect((await setPassword(email)).statusCode).toBe(200);
    const token = await t.login(email, 'harbour lemon tree');
    expect((await t.client(token).get('/api/home')).statusCode).toBe(200);
    return { id, token };
  }

  it('ends the sign-in and its sessions when the account is deleted', async () => {
    const { id, token } = await employeeWithSignIn('leaving@agency.test');
    expect((await admin.del(`/api/account/${id}`)).statusCode).toBe(200);
    expect((await t.client(token).get('/api/home')).statusCode).toBe(401);
    const login = await t.client().post('/api/authenticate/login', { username: 'leaving@agency.test', password: 'harbour lemon tree' });
    expect(login.statusCode).toBe(401);
    const [u] = await t.db.select().from(users).where(eq(users.email, 'leaving@agency.test'));
    expect(u).toMatchObject({ disabled: true, accountId: null });
  });

  it('ends the sign-in when the account stops being an employee, and gives it back with a new password when it is one again', async () => {
    const { id, token } = await employeeWithSignIn('seasonal@agency.test');
    const off = await admin.post('/api/account/update', { id, version: (await stored(id)).version, isEmploye: false });
    expect(off.statusCode).toBe(200);
    expect((await t.client(token).get('/api/home')).statusCode).toBe(401);
    expect((await t.client().post('/api/authenticate/login', { username: 'seasonal@agency.test', password: 'harbour lemon tree' })).statusCode).toBe(401);
    expect((await admin.post('/api/account/update', { id, version: (await stored(id)).version, isEmploye: true, role: 'employee' })).statusCode).toBe(200);
    expect((await setPassword('seasonal@agency.test', 'back for the summer')).statusCode).toBe(200);
    expect(await t.login('seasonal@agency.test', 'back for the summer')).toBeTruthy();
  });

  it('never removes the last active administrator that way', async () => {
    const { id } = await employeeWithSignIn('only.admin@agency.test', 'admin');
    await t.db.update(users).set({ disabled: true }).where(inArray(users.id, [admin.id, branchAdmin.id]));
    try {
      const res = await t.client(await t.login('only.admin@agency.test', 'harbour lemon tree')).post('/api/account/update', { id, version: (await stored(id)).version, isEmploye: false });
      expect(res.statusCode).toBe(400);
      expect((await stored(id)).isEmploye).toBe(true);
    } finally {
      await t.db.update(users).set({ disabled: false }).where(inArray(users.id, [admin.id, branchAdmin.id]));
    }
  });
});

describe('a branch sees no more than its menu', () => {
  it('cannot create employee or payment accounts, nor open payments on one', async () => {
    expect((await branchUser.post('/api/account/add', { firstName: 'A', lastName: 'B', isEmploye: true, role: 'employee' })).statusCode).toBe(403);
    expect((await branchUser.post('/api/account/add', { firstName: 'A', lastName: 'B', hasTransactions: true })).statusCode).toBe(403);
    const id = await addAccount();
    expect((await branchUser.post('/api/account/update', { id, version: 1, hasTransactions: true })).statusCode).toBe(403);
    expect((await branchUser.post('/api/account/add', { firstName: 'A', lastName: 'B', isClient: true })).statusCode).toBe(200);
  });

  it("does not read an employee's role, branch, work period or sign-in, nor find employees in the generic list", async () => {
    const id = await addAccount({ isEmploye: true, role: 'admin', branchId: 1, startDate: '2024-01-15', email: 'boss@agency.test' });
    await setPassword('boss@agency.test');
    const office = (await admin.get(`/api/account/view/${id}`)).json();
    expect(office).toMatchObject({ role: 'admin', branchId: 1, startDate: '2024-01-15', signIn: 'boss@agency.test' });
    for (const url of [`/api/account/view/${id}`, `/api/account/edit/${id}`]) {
      const res = await branchUser.get(url);
      expect(res.statusCode).toBe(200);
      const dto = url.includes('/edit/') ? res.json().dto : res.json();
      expect(dto).toMatchObject({ role: null, branchId: null, startDate: null, endDate: null, signIn: null, lastName: office.lastName });
    }
    const all = await branchUser.get('/api/account?perPage=1000000');
    expect(all.json().items.some((r: { id: number }) => r.id === id)).toBe(false);
    expect(all.json().totalRows).toBe(all.json().items.length);
    const officeList = await admin.get('/api/account?perPage=1000000');
    expect(officeList.json().items.some((r: { id: number }) => r.id === id)).toBe(true);
  });
});
