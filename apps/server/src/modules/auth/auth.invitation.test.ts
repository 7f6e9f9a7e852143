import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { actionLog, users } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';

/** An office admin invites an employee to choose a password (Send invitation beside Set password). */
const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test', PAYMENTS_HOST: 'pay.agency.test' });
const { app } = t;
const admin = await t.user({ roles: ['admin'] });

const invite = (email: string, opts: { as?: Client; language?: string; host?: string } = {}) =>
  (opts.as ?? admin).post('/api/authenticate/sendInvitation', { email }, { lang: opts.language ?? 'en', headers: opts.host ? { host: opts.host } : {} });

let seq = 0;
async function addEmployee(fields: Record<string, unknown> = {}): Promise<{ id: number; email: string }> {
  seq++;
  const email = `staff${seq}-${Date.now()}@agency.test`;
  const res = await admin.post('/api/account/add', { firstName: `Νίκος${seq}`, lastName: `Οικονόμου${seq}`, isEmploye: true, role: 'employee', email, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().id, email: (fields.email as string | undefined) ?? email };
}

const lastMailTo = (to: string) => t.lastMailTo(to);
const linkIn = (mail: string) => {
  const m = /https:\/\/crm\.agency\.test\/ResetPassword\?code=([A-Za-z0-9_-]+)&email=([^\s&]+)&invite=1/.exec(mail);
  expect(m, mail).not.toBeNull();
  return { code: m![1]!, email: decodeURIComponent(m![2]!) };
};
const choose = (link: { code: string; email: string }, password: string) =>
  app.inject({ method: 'POST', url: '/api/authenticate/resetPassword', payload: { email: link.email, code: link.code, password, confirmPassword: password } });

describe('Send invitation to an employee', () => {
  it('mails, in the account\'s language, a one-time link to the CRM; the employee chooses a password and signs in with the account\'s role and branch', async () => {
    const e = await addEmployee({ language: 'ru', branchId: 1 });
    const res = await invite(e.email, { language: 'el', host: 'evil.example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`Η πρόσκληση στάλθηκε στο ${e.email}`);
    const [u] = await t.db.select().from(users).where(eq(users.accountId, e.id));
    expect(u).toMatchObject({ email: e.email, roles: ['employee'], branchId: 1, disabled: false, passwordHash: null });
    const mail = await lastMailTo(e.email);
    expect(mail).toContain('Агентство открыло для вас доступ к Agency CRM');
    // A Greek name in a Russian letter: greeted without a name Russian cannot decline.
    expect(mail).toContain('Здравствуйте!');
    expect(mail).not.toContain('Νίκος1');
    expect(mail).not.toContain('evil.example.com');
    expect(mail).not.toContain('pay.agency.test');
    expect((await choose(linkIn(mail), 'staff chosen pass 1')).statusCode).toBe(200);
    const token = await t.login(e.email, 'staff chosen pass 1');
    expect((await t.client(token).get('/api/authenticate/me')).json()).toMatchObject({ userroles: ['employee'], branchId: 1, accountId: e.id });
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.action, 'SendInvitation'), eq(actionLog.entityId, u!.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ entity: 'User', actionBy: admin.id, message: e.email });
  });

  it('writes to an account without a language of its own in the one its name suggests, kept on the account; sent again before it is used, only the newest link works', async () => {
    const e = await addEmployee({ role: 'admin', firstName: 'Иван', lastName: `Смирнов${seq}` });
    expect((await invite(e.email, { language: 'el' })).statusCode).toBe(200);
    const first = linkIn(await lastMailTo(e.email));
    const res = await invite(e.email, { language: 'ru' });
    expect(res.json().message).toBe(`Приглашение отправлено на ${e.email}`);
    const mail = await lastMailTo(e.email);
    expect(mail).toContain('Агентство открыло для вас доступ к Agency CRM');
    expect(mail).toContain('Здравствуйте, Иван!');
    expect((await admin.get(`/api/account/edit/${e.id}`)).json().dto.language).toBe('ru');
    const second = linkIn(mail);
    expect(second.code).not.toBe(first.code);
    expect(await t.db.select().from(users).where(eq(users.accountId, e.id))).toHaveLength(1);
    expect((await choose(first, 'staff chosen pass 2')).statusCode).toBe(400);
    expect((await choose(second, 'staff chosen pass 2')).statusCode).toBe(200);
    const token = await t.login(e.email, 'staff chosen pass 2');
    expect((await t.client(token).get('/api/authenticate/me')).json()).toMatchObject({ userroles: ['admin'], branchId: null });
    // Once the administrator has chosen a password, it is that administrator's alone.
    expect((await invite(e.email)).statusCode).toBe(403);
    // In English it says so too.
    expect((await invite((await addEmployee()).email)).json().message).toMatch(/^Invitation sent to staff\d+-\d+@agency\.test$/);
  });

  it('stops working once the password is set another way: by the admin\'s Set password, or by the employee\'s own Change password', async () => {
    for (const how of ['setPassword', 'changePassword'] as const) {
      const e = await addEmployee();
      expect((await invite(e.email)).statusCode).toBe(200);
      const link = linkIn(await lastMailTo(e.email));
      expect((await admin.post('/api/authenticate/setPassword', { email: e.email, password: 'set by the admin 1' })).statusCode).toBe(200);
      if (how === 'changePassword') {
        const token = await t.login(e.email, 'set by the admin 1');
        const changed = await t.client(token).post('/api/authenticate/changePassword', { currentPassword: 'set by the admin 1', password: 'my own secret 22', confirmPassword: 'my own secret 22' });
        expect(changed.statusCode, changed.body).toBe(200);
      }
      const late = await choose(link, 'taken over 333');
      expect(late.statusCode, `${how}: ${late.body}`).toBe(400);
      await t.login(e.email, how === 'setPassword' ? 'set by the admin 1' : 'my own secret 22');
    }
  });

  it('is the office admins\' alone, and never for another administrator\'s sign-in or a payments client', async () => {
    const e = await addEmployee();
    const emp = await t.user({ roles: ['employee'] });
    const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
    expect((await invite(e.email, { as: emp })).statusCode).toBe(403);
    expect((await invite(e.email, { as: branchAdmin })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/authenticate/sendInvitation', payload: { email: e.email } })).statusCode).toBe(401);
    expect(await t.db.select().from(users).where(eq(users.accountId, e.id))).toHaveLength(0);
    // Another administrator's password is that administrator's: no link to choose it.
    const otherAdmin = await t.user({ roles: ['admin'] });
    expect((await invite(otherAdmin.email)).statusCode).toBe(403);
    // A payments client is invited to the payments app from its statement, not here.
    const client = await admin.post('/api/account/add', { firstName: 'Ιωάννα', lastName: 'Παππά', hasTransactions: true, email: 'owner.pays@example.gr' });
    const refused = await invite('owner.pays@example.gr');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.email).toEqual(['owner.pays@example.gr is not the e-mail of an employee: invite a payments client from its statement.']);
    expect(await t.db.select().from(users).where(eq(users.accountId, client.json().id))).toHaveLength(0);
    expect((await invite('nobody@example.gr')).statusCode).toBe(400);
  });
});
