import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { actionLog, loginFailures, users } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';

/** A signed-in user changes the own password (the user menu's Change password). */
const t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
const { app } = t;

let ipSeq = 0;
/** Each call from a client address of its own unless one is given, so tries counted per address stay apart. */
const change = (as: Client, payload: Record<string, string>, opts: { language?: string; ip?: string } = {}) =>
  as.post('/api/authenticate/changePassword', payload, { lang: opts.language, remoteAddress: opts.ip ?? `10.9.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });
const signIn = (email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: email, password }, remoteAddress: `10.8.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` });
const me = (as: Client) => as.get('/api/authenticate/me');

describe('Change password', () => {
  it('sets the new password, keeps this session, ends the others and writes the action log', async () => {
    const u = await t.user();
    const other = await t.login(u.email, u.password);
    const res = await change(u, { currentPassword: u.password, password: 'quiet harbour lamp', confirmPassword: 'quiet harbour lamp' }, { language: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Ο κωδικός πρόσβασής σας άλλαξε. Όπου αλλού ήσασταν συνδεδεμένοι, θα χρειαστεί να συνδεθείτε ξανά.');
    expect((await me(u)).statusCode).toBe(200);
    expect((await me(t.client(other))).statusCode).toBe(401);
    expect((await signIn(u.email, u.password)).statusCode).toBe(401);
    expect((await signIn(u.email, 'quiet harbour lamp')).statusCode).toBe(200);
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.action, 'ChangePassword'), eq(actionLog.entityId, u.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ actionBy: u.id, entity: 'User', message: u.email });
  });

  it('is every signed-in user\'s: an administrator\'s and a payments client\'s too', async () => {
    for (const roles of [['admin'], ['clientPayments'], ['employee']] as const) {
      const u = await t.user({ roles: [...roles], branchId: roles[0] === 'employee' ? 1 : null });
      const res = await change(u, { currentPassword: u.password, password: 'seven silver spoons', confirmPassword: 'seven silver spoons' });
      expect(res.statusCode, `${roles[0]}: ${res.body}`).toBe(200);
      expect((await signIn(u.email, 'seven silver spoons')).statusCode).toBe(200);
    }
    expect((await app.inject({ method: 'POST', url: '/api/authenticate/changePassword', payload: { currentPassword: 'x', password: 'y', confirmPassword: 'y' } })).statusCode).toBe(401);
  });

  it('refuses a wrong current password at its field, in the reader\'s language, and changes nothing', async () => {
    const u = await t.user();
    const before = (await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, u.id)))[0]!.hash;
    const body = { currentPassword: 'not my password', password: 'quiet harbour lamp', confirmPassword: 'quiet harbour lamp' };
    const en = await change(u, body, { language: 'en' });
    expect(en.statusCode).toBe(400);
    expect(en.json().errors).toEqual({ currentPassword: ['The current password is not correct'] });
    expect((await change(u, body, { language: 'el' })).json().errors.currentPassword).toEqual(['Ο τρέχων κωδικός πρόσβασης δεν είναι σωστός']);
    expect((await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, u.id)))[0]!.hash).toBe(before);
    expect((await me(u)).statusCode).toBe(200);
  });

  it('applies the rules of a new password: confirmation, common passwords, the e-mail itself', async () => {
    const u = await t.user();
    const mismatch = await change(u, { currentPassword: u.password, password: 'quiet harbour lamp', confirmPassword: 'quiet harbour lump' }, { language: 'ru' });
    expect(mismatch.json().errors).toEqual({ confirmPassword: ['Пароли должны совпадать'] });
    const common = await change(u, { currentPassword: u.password, password: 'password', confirmPassword: 'password' });
    expect(common.statusCode).toBe(400);
    expect(common.json().errors.password).toEqual(['This password is too common and easy to guess. Choose another one.']);
    const email = await change(u, { currentPassword: u.password, password: u.email, confirmPassword: u.email });
    expect(email.json().errors.password).toEqual(['The password cannot be your e-mail address']);
    expect((await signIn(u.email, u.password)).statusCode).toBe(200);
  });

  it('counts wrong current passwords against the sign-in throttle: a session cannot guess freely', async () => {
    const u = await t.user();
    const body = (guess: string) => ({ currentPassword: guess, password: 'quiet harbour lamp', confirmPassword: 'quiet harbour lamp' });
    for (let i = 0; i < 3; i++) expect((await change(u, body(`guess-${i}`))).statusCode).toBe(400);
    const [row] = await t.db.select().from(loginFailures).where(eq(loginFailures.key, `a:${u.email.toLowerCase()}`));
    expect(row?.failures).toBe(3);
    // A long guessing run has pushed the account's wait out (the first waits are a second or two).
    await t.db.execute(sql`update login_failures set locked_until = now() + interval '10 minutes' where key = ${`a:${u.email.toLowerCase()}`}`);
    const right = await change(u, body(u.password), { language: 'en' });
    expect(right.statusCode).toBe(429);
    expect(right.json().title).toMatch(/10 min/);
    // The sign-in from a new browser waits just the same.
    expect((await signIn(u.email, u.password)).statusCode).toBe(429);
    expect((await signIn(u.email, 'quiet harbour lamp')).statusCode).toBe(429);
  });
});
