import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { createTestApp, decodeMail } from '../../../test/harness.ts';
import { initialAdminPasswordFile } from './auth.service.ts';

// Small limits so the tests stay short, and a short queue for the password checks. The users made
// below use the fast hash; so do unknown e-mails here (a real check costs 0.7-2 s on a busy 2-core
// machine, and the growing waits of the throttle tests are 1-4 s: they must not run out between
// two tries). The flood test has its own app with the real cost.
const limits = { LOGIN_MAX_FAILURES_PER_ACCOUNT: '5', LOGIN_MAX_FAILURES_PER_IP: '10', LOGIN_HASH_QUEUE: '8' };
const t = await createTestApp({ PASSWORD_HASH_FAST: 'true', ...limits });
const slow = await createTestApp({ PASSWORD_HASH_FAST: 'false', ...limits });
const { app } = t;

let ipSeq = 0;
/** A client address of its own for each caller, unless one is given. */
const login = (username: string, password: string, opts: { ip?: string; cookie?: string; on?: typeof t } = {}) =>
  (opts.on ?? t).app.inject({
    method: 'POST',
    url: '/api/authenticate/login',
    payload: { username, password },
    remoteAddress: opts.ip ?? `10.1.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`,
    headers: opts.cookie ? { cookie: opts.cookie } : {},
  });
const deviceCookie = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;
/** Waits for background work, including what it started (a queued mail). */
const settle = async () => {
  while (app.pendingWork.size) await Promise.all([...app.pendingWork]);
};

describe('sign-in throttle', () => {
  it('counts parallel wrong passwords one after the other: a burst of 60 gets no more than the free tries, and then the right one waits too', async () => {
    const u = await t.user();
    const ip = '10.2.0.1';
    const burst = await Promise.all(Array.from({ length: 60 }, (_, i) => login(u.email, `wrong-password-${i}`, { ip })));
    const checked = burst.filter((r) => r.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(burst.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(55);
    expect((await login(u.email, u.password, { ip })).statusCode).toBe(429);
  });

  it("does not let an attacker's failures stop the owner on a browser that signed in before", async () => {
    const u = await t.user();
    const first = await login(u.email, u.password);
    expect(first.statusCode).toBe(200);
    const cookie = deviceCookie(first);
    expect(cookie).toMatch(/^crm_device=[A-Za-z0-9_-]{43}$/);
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly/);
    expect(String(first.headers['set-cookie'])).toMatch(/SameSite=Strict/);
    for (let i = 0; i < 12; i++) await login(u.email, `guess-${i}`, { ip: '10.3.0.1' });
    // A long attack has pushed the account's wait far out (the first waits are short, and a slow
    // machine must not let them run out before the checks below).
    await t.db.execute(sql`update login_failures set locked_until = now() + interval '10 minutes' where key = ${`a:${u.email.toLowerCase()}`}`);
    // A new browser waits ...
    expect((await login(u.email, u.password)).statusCode).toBe(429);
    // ... the owner's own browser does not.
    const owner = await login(u.email, u.password, { cookie });
    expect(owner.statusCode).toBe(200);
    expect(owner.json().token).toBeTruthy();
    // A device cookie of another account is no way around the wait.
    const other = await t.user();
    const otherCookie = deviceCookie(await login(other.email, other.password));
    expect((await login(u.email, 'yet-another-guess', { cookie: otherCookie })).statusCode).toBe(429);
  });

  it('slows down one client address trying many accounts, but not the owners elsewhere or on their own browsers', async () => {
    const owner = await t.user();
    const cookie = deviceCookie(await login(owner.email, owner.password, { ip: '10.4.0.1' }));
    const ip = '10.4.0.1';
    const answers: number[] = [];
    for (let i = 0; i < 13; i++) answers.push((await login(`someone${i}@agency.test`, 'guess-guess', { ip })).statusCode);
    expect(answers.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(answers.slice(10)).toContain(429);
    expect((await login(owner.email, owner.password, { ip: '10.4.0.2' })).statusCode).toBe(200);
    expect((await login(owner.email, owner.password, { ip, cookie })).statusCode).toBe(200);
  });

  it('keeps a real sign-in quick while a flood of unknown e-mails waits for password checks', async () => {
    const owner = await slow.user();
    const cookie = deviceCookie(await login(owner.email, owner.password, { on: slow }));
    // When each flood sign-in that got a password check was answered.
    const checkedAt: number[] = [];
    let refused = 0;
    const flood = Array.from({ length: 150 }, (_, i) =>
      login(`flood${i}@agency.test`, 'not-the-password', { on: slow }).then((r) => {
        if (r.statusCode === 401) checkedAt.push(Date.now());
        if (r.statusCode === 429) refused++;
        return r;
      }),
    );
    // The owner comes once the flood fills what may wait for a check (the first of it is refused as busy).
    await vi.waitFor(() => expect(refused).toBeGreaterThan(0), { timeout: 30_000, interval: 10 });
    const res = await login(owner.email, owner.password, { cookie, on: slow });
    const answered = Date.now();
    expect(res.statusCode).toBe(200);
    const answers = await Promise.all(flood);
    // Queued behind the flood it was answered last (28 s); now it waits for the checks already
    // running, not for those queued before it. Order, not milliseconds: a busy machine slows both.
    expect(checkedAt.length).toBeGreaterThan(4);
    expect(checkedAt.filter((t) => t > answered).length).toBeGreaterThanOrEqual(checkedAt.length / 2);
    const busy = answers.filter((r) => r.statusCode === 429);
    expect(busy.length).toBeGreaterThan(100);
    expect(busy[0]!.json().code).toBe('errors.serverBusy');
  }, 90_000);
});

describe('password reset mail', () => {
  it('builds the link from the configured address, never from the Host header', async () => {
    const u = await t.user();
    const res = await app.inject({
      method: 'POST',
      url: '/api/authenticate/forgotPassword',
      payload: { email: u.email },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(res.statusCode).toBe(200);
    await settle();
    const mail = decodeMail(t.outbox().filter((m) => m.text.includes(u.email)).at(-1)!.text);
    expect(mail).not.toContain('evil.example');
    expect(mail).toContain(`${t.config.publicUrl}/ResetPassword?code=`);
    expect(t.config.publicUrl).toBe('http://localhost:3000');
  });

  it('answers a known and an unknown address alike, before looking either up', async () => {
    const u = await t.user();
    const known = await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: u.email }, remoteAddress: '10.5.0.1' });
    const pendingAfterKnown = app.pendingWork.size;
    const unknown = await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: 'not-here@agency.test' }, remoteAddress: '10.5.0.1' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(pendingAfterKnown).toBeGreaterThan(0);
    await settle();
    expect(t.outbox().some((m) => m.text.includes(`To: ${u.email}`))).toBe(true);
  });

  it('limits one client to ten requests an hour, whatever the addresses', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) answers.push((await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: `x${i}@agency.test` }, remoteAddress: '10.5.0.2' })).statusCode);
    expect(answers.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
  });

  it('keeps the outbox readable by its owner only, even when the folder existed before', async () => {
    const dir = path.join(t.dataDir, 'outbox');
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o755);
    const u = await t.user();
    await app.inject({ method: 'POST', url: '/api/authenticate/forgotPassword', payload: { email: u.email }, remoteAddress: '10.5.0.3' });
    await settle();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const file = fs.readdirSync(dir).map((f) => path.join(dir, f)).find((f) => fs.readFileSync(f, 'utf8').includes(u.email))!;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('new passwords', () => {
  it('refuses the most common passwords, blanks, runs, repeats and the e-mail itself, in the reader\'s language', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const emp = await t.user();
    const set = (password: string, lang = 'en') =>
      admin.post('/api/authenticate/setPassword', { email: emp.email, password }, { lang });
    for (const weak of ['password', '12345678', 'Qwerty123', 'iloveyou', 'aaaaaaaaaa', 'abcdefgh', '87654321', emp.email, emp.email.split('@')[0]!]) {
      const res = await set(weak);
      expect(res.statusCode, weak).toBe(400);
      expect(res.json().errors.password[0]).toMatch(/too common|cannot be your e-mail/);
    }
    const blank = await set('          ', 'ru');
    expect(blank.json().errors.password).toEqual(['Пароль не может состоять только из пробелов']);
    expect((await set('password1', 'el')).json().errors.password).toEqual(['Αυτός ο κωδικός είναι πολύ συνηθισμένος και μαντεύεται εύκολα. Επιλέξτε άλλον.']);
    expect(await t.login(emp.email, emp.password)).toBeTruthy();
    expect((await set('lemon tree by the harbour')).statusCode).toBe(200);
  });

  it('refuses a common ADMIN_PASSWORD at start-up', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'password123' })).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'harbour lemon tree 7' })).not.toThrow();
  });
});

describe('who sets passwords', () => {
  it('lets only office admins set passwords: a branch admin may not, not even an employee\'s', async () => {
    const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
    const emp = await t.user();
    const res = await branchAdmin.post('/api/authenticate/setPassword', { email: emp.email, password: 'harbour lemon tree' });
    expect(res.statusCode).toBe(403);
    expect(res.json().title).toBe('Access denied');
    expect(await t.login(emp.email, emp.password)).toBeTruthy();
  });

  it("changes an administrator's password only by that administrator", async () => {
    const officeAdmin = await t.user({ roles: ['admin'] });
    const otherAdmin = await t.user({ roles: ['admin'] });
    const other = await officeAdmin.post('/api/authenticate/setPassword', { email: otherAdmin.email, password: 'harbour lemon tree' });
    expect(other.statusCode).toBe(403);
    expect(other.json().title).toMatch(/An administrator's password can be changed only by that administrator/);
    expect(await t.login(otherAdmin.email, otherAdmin.password)).toBeTruthy();
    const preview = await officeAdmin.get(`/api/authenticate/setPassword/preview?email=${encodeURIComponent(otherAdmin.email)}`);
    expect(preview.statusCode).toBe(403);
    const own = await officeAdmin.post('/api/authenticate/setPassword', { email: officeAdmin.email, password: 'harbour lemon tree' });
    expect(own.statusCode).toBe(200);
    expect((await officeAdmin.get('/api/home')).statusCode).toBe(200);
  });

  it('says whose sign-in a password sets or creates, with which role and branch', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const add = await admin.post('/api/account/add', { firstName: 'Eleni', lastName: 'Georgiou', isEmploye: true, role: 'admin', branchId: 1, email: 'eleni.georgiou@agency.test' });
    expect(add.statusCode).toBe(200);
    const preview = await admin.get('/api/authenticate/setPassword/preview?email=Eleni.Georgiou@agency.test', { lang: 'el' });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ name: 'Georgiou Eleni', roles: ['admin'], roleNames: ['Διαχειριστής'], branchId: 1, hasSignIn: false });
    expect(preview.json().branch).toBeTruthy();
    const emp = await t.user();
    const existing = await admin.get(`/api/authenticate/setPassword/preview?email=${encodeURIComponent(emp.email)}`);
    expect(existing.json()).toMatchObject({ hasSignIn: true, roles: ['employee'], roleNames: ['Employee'], branch: null });
    const ghost = await admin.get('/api/authenticate/setPassword/preview?email=ghost@agency.test');
    expect(ghost.statusCode).toBe(400);
  });
});

describe('the generated first password', () => {
  it('is removed from the data folder once the administrator changes the password', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const file = initialAdminPasswordFile(t.dataDir);
    fs.writeFileSync(file, `${admin.email}\n${admin.password}\n`, { mode: 0o600 });
    const other = await t.user();
    await admin.post('/api/authenticate/setPassword', { email: other.email, password: 'harbour lemon tree' });
    expect(fs.existsSync(file)).toBe(true);
    const res = await admin.post('/api/authenticate/setPassword', { email: admin.email, password: 'harbour lemon tree' });
    expect(res.statusCode).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    const [row] = await t.db.select({ changed: users.passwordChangedOn }).from(users).where(eq(users.id, admin.id));
    expect(row!.changed).toBeTruthy();
  });
});
