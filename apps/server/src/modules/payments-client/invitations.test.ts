import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { actionLog, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appVariant } from '../../lib/variant.ts';
import { loadConfig } from '../../config.ts';

/** Invitations to the payments-only app, Set password for a payments client, and which app a host gets. */
const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test', PAYMENTS_HOST: 'pay.agency.test' });
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const emp = await t.user({ roles: ['employee'] });
const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });

let seq = 0;
async function addAccount(fields: Record<string, unknown> = {}): Promise<number> {
  seq++;
  const res = await admin.post('/api/account/add', { firstName: `Ιωάννα${seq}`, lastName: `Παππά${seq}`, hasTransactions: true, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

const lastMailTo = (to: string) => t.lastMailTo(to);

describe('which app a host gets', () => {
  it('is the payments app on exactly the payments host (letter case aside), the CRM elsewhere, for anybody', async () => {
    expect((await app.inject({ url: '/api/config', headers: { host: 'pay.agency.test' } })).json().variant).toBe('payments');
    expect((await app.inject({ url: '/api/config', headers: { host: 'PAY.agency.test:8443' } })).json().variant).toBe('payments');
    expect((await app.inject({ url: '/api/config', headers: { host: 'crm.agency.test' } })).json().variant).toBe('crm');
    expect((await app.inject({ url: '/api/config', headers: { host: 'pay.agency.test.evil.test' } })).json().variant).toBe('crm');
    expect((await app.inject({ url: '/api/config', headers: { host: 'www.pay.agency.test' } })).json().variant).toBe('crm');
    expect((await admin.get('/api/config', { headers: { host: 'pay.agency.test' } })).json().variant).toBe('payments');
  });

  it('matches the port too when the setting names one, and the flag makes every host the payments app', () => {
    const withPort = { paymentsHost: 'localhost:3001', paymentsOnly: false };
    expect(appVariant(withPort, { host: 'localhost:3001', hostname: 'localhost' })).toBe('payments');
    expect(appVariant(withPort, { host: 'localhost:3000', hostname: 'localhost' })).toBe('crm');
    expect(appVariant({ paymentsHost: undefined, paymentsOnly: true }, { host: 'anything', hostname: 'anything' })).toBe('payments');
    expect(appVariant({ paymentsHost: undefined, paymentsOnly: false }, { host: 'anything', hostname: 'anything' })).toBe('crm');
  });

  it('mails links to the payments host with PUBLIC_URL\'s scheme and port, and refuses a malformed host setting', () => {
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:47140', PAYMENTS_HOST: '127.0.0.1' }).paymentsUrl).toBe('http://127.0.0.1:47140');
    expect(loadConfig({ PUBLIC_URL: 'https://crm.example.com/', PAYMENTS_HOST: 'Pay.Example.com' }).paymentsUrl).toBe('https://pay.example.com');
    expect(loadConfig({ PUBLIC_URL: 'https://crm.example.com' }).paymentsUrl).toBe('https://crm.example.com');
    expect(() => loadConfig({ PAYMENTS_HOST: 'https://pay.example.com/' })).toThrow(/PAYMENTS_HOST/);
  });
});

describe('Send email invitation', () => {
  it('gives the account a clientPayments sign-in and mails, in its language, a set-password link on the payments host', async () => {
    const id = await addAccount({ email: 'owner.one@example.gr', language: 'el' });
    const res = await admin.get(`/api/transactions/sendInvitation/${id}`, { lang: 'en', headers: { host: 'evil.example.com' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Invitation sent');
    const [u] = await t.db.select().from(users).where(eq(users.accountId, id));
    expect(u).toMatchObject({ email: 'owner.one@example.gr', roles: ['clientPayments'], branchId: null, disabled: false, passwordHash: null });
    const mail = await lastMailTo('owner.one@example.gr');
    expect(mail).toContain('Ανοίξτε τον παρακάτω σύνδεσμο');
    const link = /https:\/\/pay\.agency\.test\/ResetPassword\?code=([A-Za-z0-9_-]+)&email=([^\s&]+)&invite=1/.exec(mail);
    expect(link, mail).not.toBeNull();
    expect(mail).not.toContain('evil.example.com');
    // The link sets the password; the client signs in and reaches its own account only.
    const reset = await app.inject({ method: 'POST', url: '/api/authenticate/resetPassword', payload: { email: decodeURIComponent(link![2]!), code: link![1], password: 'owner-password-42', confirmPassword: 'owner-password-42' } });
    expect(reset.statusCode, reset.body).toBe(200);
    const token = await t.login('owner.one@example.gr', 'owner-password-42');
    const me = (await t.client(token).get('/api/authenticate/me')).json();
    expect(me).toMatchObject({ userroles: ['clientPayments'], accountId: id, language: 'el' });
    expect((await t.client(token).get(`/api/account/view/${id}`)).statusCode).toBe(403);
    // Forgot password: the owner resets it on the payments host, not on the staff's CRM.
    expect((await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: 'owner.one@example.gr' } })).statusCode).toBe(200);
    const resetMail = await lastMailTo('owner.one@example.gr');
    expect(resetMail).toMatch(/https:\/\/pay\.agency\.test\/ResetPassword\?code=/);
    expect(resetMail).not.toContain(`${t.config.publicUrl}/ResetPassword`);
    const [log] = await t.db.select().from(actionLog).where(eq(actionLog.action, 'SendInvitation')).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ entity: 'Account', entityId: id, actionBy: admin.id });
  });

  it('names the sign-in as its account is named: after a rename, and after a merge into another account', async () => {
    const id = await addAccount({ email: `renamed${seq + 1}@example.gr` });
    const email = `renamed${seq}@example.gr`;
    expect((await admin.get(`/api/transactions/sendInvitation/${id}`)).statusCode).toBe(200);
    await admin.post('/api/authenticate/setPassword', { email, password: 'owner-password-47' });
    const me = async () => (await t.client(await t.login(email, 'owner-password-47')).get('/api/authenticate/me')).json().username;
    expect(await me()).toBe(`Παππά${seq} Ιωάννα${seq}`);

    // Renamed (married name): the navbar's name, the action log's "by whom" follow.
    const version = (await admin.get(`/api/account/edit/${id}`)).json().dto.version as number;
    expect((await admin.post('/api/account/update', { id, version, lastName: `Αλεξίου${seq}` })).statusCode).toBe(200);
    expect(await me()).toBe(`Αλεξίου${seq} Ιωάννα${seq}`);
    const [login] = await t.db.select().from(actionLog).where(eq(actionLog.action, 'Login')).orderBy(desc(actionLog.id)).limit(1);
    expect(login).toMatchObject({ entityId: (await t.db.select().from(users).where(eq(users.email, email)))[0]!.id, actionByName: `Αλεξίου${seq} Ιωάννα${seq}` });
    // The sign-in's name cannot be set apart from its account's.
    await t.db.update(users).set({ username: 'Someone else' }).where(eq(users.email, email));
    expect(await me()).toBe(`Αλεξίου${seq} Ιωάννα${seq}`);

    // Merged into the account kept for her: the sign-in moves there, with that account's name.
    const n = seq;
    const kept = await addAccount({ firstName: 'Joanna', lastName: `Alexiou${n}` });
    const keptVersion = (await admin.get(`/api/account/edit/${kept}`)).json().dto.version as number;
    const merged = await admin.post('/api/account/merge', { account: { id: kept, version: keptVersion }, duplicateId: id });
    expect(merged.statusCode, merged.body).toBe(200);
    expect(await me()).toBe(`Alexiou${n} Joanna`);
  });

  it('sent again, keeps the one sign-in and only the newest link works', async () => {
    const id = await addAccount({ email: 'owner.two@example.gr' });
    await admin.get(`/api/transactions/sendInvitation/${id}`);
    const first = /code=([A-Za-z0-9_-]+)/.exec(await lastMailTo('owner.two@example.gr'))![1]!;
    expect((await admin.get(`/api/transactions/sendInvitation/${id}`)).statusCode).toBe(200);
    const second = /code=([A-Za-z0-9_-]+)/.exec(await lastMailTo('owner.two@example.gr'))![1]!;
    expect(second).not.toBe(first);
    expect(await t.db.select().from(users).where(eq(users.accountId, id))).toHaveLength(1);
    const tryCode = (code: string) =>
      app.inject({ method: 'POST', url: '/api/authenticate/resetPassword', payload: { email: 'owner.two@example.gr', code, password: 'owner-password-43', confirmPassword: 'owner-password-43' } });
    expect((await tryCode(first)).statusCode).toBe(400);
    expect((await tryCode(second)).statusCode).toBe(200);
    // An account in English: its client signs in with the app's English.
    const en = await addAccount({ email: 'owner.english@example.gr', language: 'en' });
    await admin.get(`/api/transactions/sendInvitation/${en}`);
    const code = /code=([A-Za-z0-9_-]+)/.exec(await lastMailTo('owner.english@example.gr'))![1]!;
    await app.inject({ method: 'POST', url: '/api/authenticate/resetPassword', payload: { email: 'owner.english@example.gr', code, password: 'owner-password-46', confirmPassword: 'owner-password-46' } });
    const enToken = await t.login('owner.english@example.gr', 'owner-password-46');
    expect((await t.client(enToken).get('/api/authenticate/me')).json()).toMatchObject({ accountId: en, language: 'en-UK' });
    // An account without a language: the mail is in the one its name's script suggests (Greek), kept on the account.
    expect(await lastMailTo('owner.two@example.gr')).toContain('Ανοίξτε τον παρακάτω σύνδεσμο');
    expect((await admin.get(`/api/account/edit/${id}`)).json().dto.language).toBe('el');
    const unset = await addAccount({ email: 'owner.latin@example.gr', firstName: 'Joanna', lastName: 'Papa' });
    await admin.get(`/api/transactions/sendInvitation/${unset}`, { lang: 'el' });
    const latin = await lastMailTo('owner.latin@example.gr');
    expect(latin).toContain('Open the link below to choose your password');
    // Greeted by the first name, as people are addressed.
    expect(latin).toContain('Dear Joanna,');
  });

  it('refuses an account without e-mail, an e-mail somebody else signs in with, and an account that does not exist', async () => {
    const none = await addAccount();
    const r1 = await admin.get(`/api/transactions/sendInvitation/${none}`);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().title).toMatch(/no e-mail/);
    const clash = await addAccount({ email: emp.email });
    const r2 = await admin.get(`/api/transactions/sendInvitation/${clash}`);
    expect(r2.statusCode).toBe(409);
    expect((await t.db.select().from(users).where(eq(users.accountId, clash)))).toHaveLength(0);
    expect((await admin.get('/api/transactions/sendInvitation/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/transactions/sendInvitation/0')).statusCode).toBe(400);
  });

  it('is the office admins\' alone', async () => {
    const id = await addAccount({ email: 'owner.three@example.gr' });
    expect((await emp.get(`/api/transactions/sendInvitation/${id}`)).statusCode).toBe(403);
    expect((await branchAdmin.get(`/api/transactions/sendInvitation/${id}`)).statusCode).toBe(403);
    expect((await app.inject({ url: `/api/transactions/sendInvitation/${id}` })).statusCode).toBe(401);
    expect(await t.db.select().from(users).where(eq(users.accountId, id))).toHaveLength(0);
  });
});

describe('Set password for a payments client', () => {
  it('creates the clientPayments sign-in of a payments account with that e-mail', async () => {
    const id = await addAccount({ email: 'owner.four@example.gr' });
    const preview = await admin.get('/api/authenticate/setPassword/preview?email=owner.four@example.gr');
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ hasSignIn: false, roles: ['clientPayments'], accountId: id });
    const res = await admin.post('/api/authenticate/setPassword', { email: 'owner.four@example.gr', password: 'owner-password-44' });
    expect(res.statusCode, res.body).toBe(200);
    const token = await t.login('owner.four@example.gr', 'owner-password-44');
    expect((await t.client(token).get('/api/authenticate/me')).json()).toMatchObject({ userroles: ['clientPayments'], accountId: id });
  });

  it('still refuses an e-mail of an account that keeps no payments, and says who can be given a sign-in', async () => {
    await addAccount({ email: 'just.a.client@example.gr', hasTransactions: false, isClient: true });
    const res = await admin.post('/api/authenticate/setPassword', { email: 'just.a.client@example.gr', password: 'owner-password-45' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.email[0]).toMatch(/only an employee's e-mail or the e-mail of a contact that keeps payments/);
    const el = await admin.post('/api/authenticate/setPassword', { email: 'just.a.client@example.gr', password: 'owner-password-45' }, { lang: 'el' });
    expect(el.json().errors.email[0]).toMatch(/^Κανείς δεν συνδέεται με το just\.a\.client@example\.gr .*μόνο το e-mail υπαλλήλου ή επαφής για την οποία τηρούνται πληρωμές/);
    const preview = await admin.get('/api/authenticate/setPassword/preview?email=just.a.client@example.gr', { lang: 'ru' });
    expect(preview.statusCode).toBe(400);
    expect(preview.json().errors.email[0]).toMatch(/только для e-mail сотрудника или контакта, по которому ведутся платежи/);
  });
});
