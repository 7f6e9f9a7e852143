import { expect, test } from '@playwright/test';
import { ADMIN, apiToken, expectAccessible, signIn } from '../fixtures.ts';

test.describe('sign-in and the shell', () => {
  test('/ sends a visitor to /login; signing in lands on the home page', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    });
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-brand')).toHaveText('Agency CRM');
    await signIn(page);
    // The first administrator has no account (no name): greeted without the e-mail.
    await expect(page.getByTestId('home-welcome')).toHaveText('Welcome');
    await expect(page.getByTestId('page-title')).toHaveText('Home');
    // the demo agency's unread alerts show on the mail badge
    await expect(page.getByTestId('alerts-badge')).toHaveAttribute('data-count', /[1-9]/);
    // A reload of a screen with data of its own: the router has nothing to warn about.
    await page.goto('/Owners');
    await expect(page.getByTestId('page-title')).toHaveText('Owners');
    expect(warnings.filter((w) => /HydrateFallback/.test(w))).toEqual([]);
  });

  test('a wrong password shows the spec\'s text and keeps the visitor on /login', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('Incorrect email or password');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('once the free tries are used up, the sign-in page says how long to wait', async ({ page }) => {
    const email = `someone-${Date.now()}@agency.test`;
    await page.goto('/login');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('not-the-password');
    // Five wrong tries use up the free ones; each further one has to wait longer (1 s, 2 s, 4 s).
    const attempt = () => page.request.post('/api/authenticate/login', { data: { username: email, password: 'wrong-password' } });
    for (let i = 0; i < 5; i++) expect((await attempt()).status()).toBe(401);
    // A try within the wait is refused (429) and counts nothing: tried again until the wait is over.
    for (let i = 0; i < 2; i++) await expect.poll(async () => (await attempt()).status(), { timeout: 15_000, intervals: [250] }).toBe(401);
    // Within the 4 s wait the form is told how long to wait. On a busy machine the click may come
    // after it; that try counts too and the next wait (8 s) catches the following click.
    await expect(async () => {
      await page.getByTestId('login-submit').click();
      await expect(page.getByTestId('login-error')).toHaveText(/^Too many failed sign-in attempts\. Please try again in [1-8] s\.$/, { timeout: 3000 });
    }).toPass({ timeout: 30_000 });
    await expect(page).toHaveURL(/\/login$/);
  });

  test('empty fields are named under the inputs', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('Please enter your e-mail')).toBeVisible();
    await expect(page.getByText('Please enter your password')).toBeVisible();
  });

  test('a revoked token sends the user to /login on the next call', async ({ page }) => {
    await signIn(page);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('crm.session')!).token as string);
    const res = await page.request.post('/api/authenticate/logout', { headers: { authorization: `Bearer ${token}` } });
    expect(res.ok()).toBeTruthy();
    // The next call (a route change polls the alert count; open lists refetch) answers 401.
    await page.getByRole('link', { name: 'New client' }).click({ timeout: 3000 }).catch(() => undefined);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-return-note')).toHaveText('Your session has ended. Please sign in again.');
  });

  test('Logout ends the session and goes to the sign-in page', async ({ page }) => {
    await signIn(page);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/CRM');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('screens still to come show the coming-soon page, not a blank one', async ({ page }) => {
    await signIn(page);
    // Every menu screen is being built by now; the route table's test page stays a placeholder.
    await page.goto('/Test');
    await expect(page.getByTestId('coming-soon')).toContainText('is being built');
    await page.getByTestId('back').click();
    await expect(page).toHaveURL(/\/CRM$/);
  });

  test('on a phone the menu opens from the burger', async ({ browser }) => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await ctx.newPage();
    await signIn(page);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('link', { name: 'Deals' }).click();
    await expect(page).toHaveURL(/\/Deals$/);
    await ctx.close();
  });
});


test.describe('a branch employee', () => {
  test('sees the reduced menu and is refused the hidden screens', async ({ page, request }) => {
    const token = await apiToken(request);
    const auth = { authorization: `Bearer ${token}` };
    const email = `branch-${Date.now()}@agency.test`;
    const add = await request.post('/api/account/add', { headers: auth, data: { firstName: 'Νίκος', lastName: 'Βασιλείου', isEmploye: true } });
    expect(add.ok()).toBeTruthy();
    const { id } = await add.json();
    const view = await (await request.get(`/api/account/view/${id}`, { headers: auth })).json();
    const upd = await request.post('/api/account/update', { headers: auth, data: { id, version: view.version, email, branchId: 1, role: 'employee' } });
    expect(upd.ok()).toBeTruthy();
    const pw = await request.post('/api/authenticate/setPassword', { headers: auth, data: { email, password: 'branch-pass-1' } });
    expect(pw.ok()).toBeTruthy();

    await signIn(page, email, 'branch-pass-1');
    const nav = page.getByRole('navigation', { name: 'Menu' });
    await expect(nav.getByRole('link', { name: 'Viewings' })).toBeVisible();
    for (const hidden of ['Reservations', 'Payments', 'Settings']) await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
    await expect(page.getByTestId('alerts-badge')).toHaveCount(0);
    await page.getByTestId('menu-nav.accounts').hover();
    await expect(page.getByRole('menuitem', { name: 'Owners' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Employees' })).toHaveCount(0);
    await expect(page.getByRole('menuitem', { name: 'Alerts' })).toHaveCount(0);
    await page.goto('/Employes');
    await expect(page.getByTestId('access-denied')).toHaveText('Access denied');
    const list = await request.get('/api/employe', { headers: { authorization: `Bearer ${await apiToken(request, email, 'branch-pass-1')}` } });
    expect(list.status()).toBe(403);
  });
});

test.describe('an employee whose account is in Greek', () => {
  test('gets Greek at sign-in, unless another language is chosen on the sign-in page, which is then kept', async ({ browser, request }) => {
    const token = await apiToken(request);
    const auth = { authorization: `Bearer ${token}` };
    const email = `lang-${Date.now()}@agency.test`;
    const add = await request.post('/api/account/add', { headers: auth, data: { firstName: 'Άννα', lastName: 'Γλώσσα', isEmploye: true, role: 'employee', email } });
    expect(add.ok(), await add.text()).toBeTruthy();
    expect((await request.post('/api/authenticate/setPassword', { headers: auth, data: { email, password: 'lang-pass-12' } })).ok()).toBeTruthy();
    const own = { authorization: `Bearer ${await apiToken(request, email, 'lang-pass-12')}` };
    expect((await request.post('/api/UserSettings/Language', { headers: own, data: { language: 'el' } })).ok()).toBeTruthy();

    // Nothing chosen on the sign-in page: the account's Greek.
    const first = await browser.newContext();
    const page = await first.newPage();
    await signIn(page, email, 'lang-pass-12');
    await expect(page.getByTestId('page-title')).toHaveText('Αρχική');
    await first.close();

    // Russian chosen on the sign-in page: Russian after signing in, and saved for the next time.
    const second = await browser.newContext();
    const page2 = await second.newPage();
    await page2.goto('/login');
    await page2.getByTestId('language-ru').click();
    await expect(page2.getByTestId('login-submit')).toHaveText('Войти');
    await page2.getByTestId('login-email').fill(email);
    await page2.getByTestId('login-password').fill('lang-pass-12');
    await page2.getByTestId('login-submit').click();
    await expect(page2).toHaveURL(/\/CRM$/);
    await expect(page2.getByTestId('page-title')).toHaveText('Главная');
    await expect
      .poll(async () => ((await (await request.post('/api/authenticate/login', { data: { username: email, password: 'lang-pass-12' } })).json()) as { language: string }).language)
      .toBe('ru');
    await second.close();
  });
});

test('a first visit from a Greek browser opens the sign-in page in Greek, the password button named in Greek', async ({ browser }) => {
  const ctx = await browser.newContext({ locale: 'el-GR' });
  const page = await ctx.newPage();
  await page.goto('/login');
  await expect(page.getByTestId('login-submit')).toHaveText('Σύνδεση');
  await expect(page.getByRole('button', { name: 'Εμφάνιση ή απόκρυψη του κωδικού' })).toBeVisible();
  // Kept for the next visit.
  expect((await ctx.cookies()).find((c) => c.name === 'language')?.value).toBe('el');
  await expectAccessible(page, 'sign-in in a Greek browser');
  await ctx.close();
});
