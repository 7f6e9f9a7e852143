import { describe, expect, it } from 'vitest';
import { desc, eq, isNotNull, sql } from 'drizzle-orm';
import { actionLog, loginFailures, users } from '../../db/schema/index.ts';
import { createTestApp, decodeMail } from '../../../test/harness.ts';
import { STAFF_NO_BRANCH } from '../../plugins/auth.ts';

// A route of the kind later screens add, to exercise the access rules end to end.
const t = await createTestApp({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' }, (a) => {
  a.get('/api/test/no-branch', { config: { access: STAFF_NO_BRANCH } }, async () => ({ ok: true }));
});
const { app } = t;

/** Waits for the work that runs after answers (reset mails). */
/** Waits for background work, including what it started (a queued mail). */
const settle = async () => {
  while (app.pendingWork.size) await Promise.all([...app.pendingWork]);
};
const anon = t.client();


describe('sign-in', () => {
  it('answers token, username, userroles and branchId for a right password, any letter case of the e-mail', async () => {
    const u = await t.user({ roles: ['admin'], email: 'Maria.Papadopoulou@agency.test' });
    const res = await anon.post('/api/authenticate/login', { username: 'maria.papadopoulou@AGENCY.test', password: u.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ username: 'Maria.Papadopoulou@agency.test', userroles: ['admin'], branchId: null });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await t.client(body.token).get('/api/authenticate/me');
    expect(me.json().email).toBe('Maria.Papadopoulou@agency.test');
  });

  it('gives the browser the page cookie (HttpOnly, SameSite=Strict, the whole site) beside the file cookie, and sign-out removes both', async () => {
    const u = await t.user({ roles: ['admin'] });
    const res = await anon.post('/api/authenticate/login', { username: u.email, password: u.password });
    const cookies = [res.headers['set-cookie']].flat().map(String);
    const page = cookies.find((c) => c.startsWith('crm_page='));
    expect(page).toBe(`crm_page=${res.json().token}; Path=/; HttpOnly; SameSite=Strict`);
    expect(cookies.some((c) => c.startsWith(`crm_files=${res.json().token}; Path=/api;`))).toBe(true);
    const out = await t.client(res.json().token).post('/api/authenticate/logout');
    const gone = [out.headers['set-cookie']].flat().map(String);
    expect(gone).toContain('crm_page=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict');
    expect(gone.some((c) => c.startsWith('crm_files=; Path=/api; Max-Age=0'))).toBe(true);
    // The page cookie opens no API route: it only lets the server draw a screen.
    expect((await app.inject({ url: '/api/authenticate/me', headers: { cookie: `crm_page=${res.json().token}` } })).statusCode).toBe(401);
  });

  it('refuses a wrong password and an unknown e-mail with the same answer, translated', async () => {
    const u = await t.user();
    const wrong = await anon.post('/api/authenticate/login', { username: u.email, password: 'not the password' }, { lang: 'el' });
    const unknown = await anon.post('/api/authenticate/login', { username: 'nobody@agency.test', password: 'whatever1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().code).toBe('login.incorrect');
    expect(wrong.json().title).toBe('Λάθος e-mail ή κωδικός πρόσβασης');
    expect(unknown.json().title).toBe('Incorrect email or password');
  });

  it('makes further tries wait once the free ones are used, even with the right password, and says for how long', async () => {
    const u = await t.user();
    for (let i = 0; i < 3; i++) expect((await anon.post('/api/authenticate/login', { username: u.email, password: 'wrong-password' })).statusCode).toBe(401);
    const res = await anon.post('/api/authenticate/login', { username: u.email, password: u.password });
    expect(res.statusCode).toBe(429);
    expect(res.json().title).toMatch(/^Too many failed sign-in attempts\. Please try again in [12] s\.$/);
    // The wait is short: once it has passed (its end moved into the past, as the clock would), the right password gets in.
    await t.db.update(loginFailures).set({ lockedUntil: sql`now() - interval '1 second'` }).where(isNotNull(loginFailures.lockedUntil));
    expect((await anon.post('/api/authenticate/login', { username: u.email, password: u.password })).statusCode).toBe(200);
  });

  it('rejects a missing password with a field error before any handler runs', async () => {
    const res = await anon.post('/api/authenticate/login', { username: 'a@b.c' }, { lang: 'ru' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.password).toEqual(['Обязательное поле']);
  });

  it('revokes the token on logout: the next call is a 401', async () => {
    const u = await t.user();
    expect((await u.get('/api/home')).statusCode).toBe(200);
    expect((await u.post('/api/authenticate/logout')).statusCode).toBe(200);
    const after = await u.get('/api/home');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ status: 401, code: 'errors.unauthorized' });
  });

  it('answers 401 without a token and for a made-up token', async () => {
    expect((await app.inject({ url: '/api/home' })).statusCode).toBe(401);
    expect((await t.client('x'.repeat(43)).get('/api/home')).statusCode).toBe(401);
  });

  it('writes the sign-in to the action log', async () => {
    const u = await t.user();
    const [row] = await t.db.select().from(actionLog).where(eq(actionLog.actionBy, u.id)).orderBy(desc(actionLog.id)).limit(1);
    expect(row).toMatchObject({ action: 'Login', entity: 'User', entityId: u.id });
  });
});

describe('roles and branches', () => {
  it('answers 403 "Access denied" to an employee calling an admin route', async () => {
    const emp = await t.user({ roles: ['employee'] });
    const res = await emp.post('/api/authenticate/setPassword', { email: emp.email, password: 'new-password-1' });
    expect(res.statusCode).toBe(403);
    expect(res.json().title).toBe('Access denied');
  });

  it('turns a branch user away from what the branch menu hides, and lets others through', async () => {
    const branch = await t.user({ branchId: 1 });
    const office = await t.user();
    const client = await t.user({ roles: ['clientPayments'] });
    expect((await branch.get('/api/test/no-branch')).statusCode).toBe(403);
    expect((await office.get('/api/test/no-branch')).statusCode).toBe(200);
    expect((await client.get('/api/test/no-branch')).statusCode).toBe(403);
    const login = await anon.post('/api/authenticate/login', { username: branch.email, password: branch.password });
    expect(login.json().branchId).toBe(1);
  });

  it('refuses to register an API route that declares no access rule', async () => {
    let thrown: unknown;
    await createTestApp({}, (a) => {
      try {
        a.get('/api/test/undeclared', async () => ({}));
      } catch (e) {
        thrown = e;
      }
    });
    expect(String(thrown)).toMatch(/declares no access rule/);
  });
});

describe('passwords', () => {
  it('says a mistyped address is no e-mail address, instead of "a link has been sent"', async () => {
    for (const email of ['bad@@', 'no-at-sign', 'two words@agency.test']) {
      const res = await anon.post('/api/authenticate/forgotPassword', { email }, { lang: 'el' });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().errors.email, email).toEqual(['Η διεύθυνση e-mail δεν είναι έγκυρη']);
    }
  });

  it('e-mails a reset link in the user\'s language; the code sets a new password once and ends old sessions', async () => {
    const u = await t.user({ language: 'ru' });
    const before = t.outbox().length;
    const res = await anon.post('/api/authenticate/forgotPassword', { email: u.email });
    expect(res.statusCode).toBe(200);
    await settle();
    const mails = t.outbox();
    expect(mails.length).toBe(before + 1);
    const mail = decodeMail(mails.at(-1)!.text);
    expect(mail).toContain(`To: ${u.email}`);
    expect(mail).toContain('Здравствуйте');
    const link = /(https?:\/\/\S+\/ResetPassword\?code=([^&\s]+)&email=\S+)/.exec(mail);
    expect(link).not.toBeNull();
    const code = decodeURIComponent(link![2]!);

    const mismatch = await anon.post('/api/authenticate/resetPassword', { email: u.email, code, password: 'new-password-1', confirmPassword: 'other-password' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.confirmPassword).toEqual(['Passwords should match']);

    const ok = await anon.post('/api/authenticate/resetPassword', { email: u.email, code, password: 'new-password-1', confirmPassword: 'new-password-1' });
    expect(ok.statusCode).toBe(200);
    expect((await u.get('/api/home')).statusCode).toBe(401);
    expect(await t.login(u.email, 'new-password-1')).toBeTruthy();

    const again = await anon.post('/api/authenticate/resetPassword', { email: u.email, code, password: 'other-password-2', confirmPassword: 'other-password-2' });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('errors.resetCodeInvalid');
  });

  it('sends at most three reset mails an hour to one address, then says to wait, known or not', async () => {
    const u = await t.user();
    const mailsTo = () => t.outbox().filter((m) => m.text.includes(`To: ${u.email}`)).length;
    for (let i = 0; i < 3; i++) expect((await anon.post('/api/authenticate/forgotPassword', { email: u.email }, { headers: { 'x-test': String(i) } })).statusCode).toBe(200);
    const fourth = await anon.post('/api/authenticate/forgotPassword', { email: u.email }, { lang: 'el' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().title).toMatch(/^Πάρα πολλά αιτήματα\. Δοκιμάστε ξανά σε \d+ λεπ\.$/);
    for (let i = 0; i < 3; i++) await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: 'ghost-limit@agency.test' }, remoteAddress: '10.9.9.9' });
    expect((await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: 'ghost-limit@agency.test' }, remoteAddress: '10.9.9.9' })).statusCode).toBe(429);
    await settle();
    expect(mailsTo()).toBe(3);
  });

  it('gives the same answer for an unknown e-mail and sends nothing', async () => {
    const before = t.outbox().length;
    const res = await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: 'nobody@agency.test' }, remoteAddress: '10.9.9.10' });
    expect(res.statusCode).toBe(200);
    await settle();
    expect(t.outbox().length).toBe(before);
  });

  it('lets an admin set any user\'s password, with the spec\'s success text', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const emp = await t.user();
    const res = await admin.post('/api/authenticate/setPassword', { email: emp.email, password: 'brand-new-pass' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(`Password set successfully for ${emp.email}`);
    expect(await t.login(emp.email, 'brand-new-pass')).toBeTruthy();
    expect((await emp.get('/api/home')).statusCode).toBe(401);
    expect((await admin.get('/api/home')).statusCode).toBe(200);
  });

  it('refuses a short password and an unknown e-mail, changing nothing', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const emp = await t.user();
    const short = await admin.post('/api/authenticate/setPassword', { email: emp.email, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.password[0]).toMatch(/at least 8/);
    expect(await t.login(emp.email, emp.password)).toBeTruthy();
    const unknown = await admin.post('/api/authenticate/setPassword', { email: 'ghost@agency.test', password: 'long-enough-1' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.email[0]).toContain('ghost@agency.test');
  });

  it('stores passwords as scrypt hashes, never as text', async () => {
    const u = await t.user();
    const [row] = await t.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, u.id));
    expect(row!.h).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(row!.h).not.toContain(u.password);
  });
});

describe('language', () => {
  it('stores the user\'s language and returns it at the next sign-in', async () => {
    const u = await t.user();
    const res = await u.post('/api/UserSettings/Language', { language: 'el' });
    expect(res.statusCode).toBe(200);
    const again = await anon.post('/api/authenticate/login', { username: u.email, password: u.password });
    expect(again.json().language).toBe('el');
    const n = await t.db.execute(sql`select count(*)::int as n from action_log where action_by = ${u.id} and action = 'Update' and data->>'language' = 'el'`);
    expect((n.rows[0] as { n: number }).n).toBe(1);
  });

  it('refuses a language that is not en-UK, el or ru', async () => {
    const u = await t.user();
    const res = await u.post('/api/UserSettings/Language', { language: 'de' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.language).toBeDefined();
  });
});

describe('session cookies on an https address', () => {
  it('carry Secure whenever PUBLIC_URL is https, even when the proxy in front says nothing of https', async () => {
    const secure = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test' });
    const u = await secure.user({ roles: ['employee'] });
    const res = await secure.app.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: u.email, password: u.password } });
    expect(res.statusCode).toBe(200);
    const cookies = [res.headers['set-cookie']].flat().filter((c): c is string => typeof c === 'string');
    expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual(['crm_device', 'crm_files', 'crm_page']);
    for (const c of cookies) expect(c, c).toMatch(/; Secure(;|$)/);
    await secure.app.close();
  });
});
