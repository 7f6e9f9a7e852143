import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { apiToken, expectAccessible } from '../fixtures.ts';

/**
 * Accessibility (WCAG 2.2 AA): axe on every screen, in English and in Greek, at desktop and at
 * phone size; any violation fails. Each signed-in screen is checked twice, covering both languages
 * and both sizes (every other screen English on the desktop and Greek on the phone, the rest the
 * other way round): an axe pass costs seconds, and all four pairs of every screen doubled the
 * suite's slowest part for no finding the two pairs miss.
 */
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;
const LANGUAGES = ['en-UK', 'el'] as const;

async function addAccount(request: APIRequestContext, token: string, data: Record<string, unknown>): Promise<number> {
  const res = await request.post('/api/account/add', { data, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).id as number;
}

async function context(browser: Browser, baseURL: string, size: (typeof SIZES)[number], language: string) {
  const ctx = await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.isMobile });
  await ctx.addCookies([{ name: 'language', value: language, url: baseURL }]);
  return ctx;
}

for (const [sizeIndex, size] of SIZES.entries()) {
  for (const [languageIndex, language] of LANGUAGES.entries()) {
    test(`signed-out screens pass axe (${size.name}, ${language})`, async ({ browser, baseURL }) => {
      const ctx = await context(browser, baseURL!, size, language);
      const page = await ctx.newPage();
      for (const path of ['/login', '/ForgotPassword', '/ResetPassword?code=abc&email=someone%40example.com']) {
        await page.goto(path);
        await expect.soft(page.locator('h1')).toHaveCount(1);
        await expectAccessible(page, `${path} ${size.name} ${language}`);
      }
      await ctx.close();
    });

    test(`signed-in screens pass axe (${size.name}, ${language})`, async ({ browser, request, baseURL }) => {
      test.setTimeout(300_000);
      const token = await apiToken(request);
      const id = await addAccount(request, token, { lastName: 'Axe', firstName: 'Eleni', isClient: true });
      const other = await addAccount(request, token, { lastName: 'Axe', firstName: 'Maria', isClient: true });
      const employee = await addAccount(request, token, { lastName: 'Axe', firstName: 'Nikos', isEmploye: true, role: 'employee', email: `axe${Date.now()}${size.name}${language}@example.com` });
      const ctx = await context(browser, baseURL!, size, language);
      const me = { token, username: 'admin@example.com', userroles: ['admin'], branchId: null, language: null, accountId: null };
      await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(me));
      const page = await ctx.newPage();
      const screens = [
        '/CRM',
        '/Owners',
        '/Clients',
        '/Partners',
        '/Professionals',
        '/Employes',
        '/Sources',
        '/Accounts',
        '/Accounts/AddClient',
        `/Accounts/View/${id}`,
        `/Accounts/View/${id}/1`,
        `/Accounts/View/${id}/2`,
        `/Accounts/Merge/a1/${id}/a2/${other}`,
        `/ChangeEmployeRole/${employee}`,
        `/SetPassword/${employee}`,
        '/ActionLog',
        '/Objects',
        '/Accounts/View/987654321',
        '/No/Such/Screen',
      ];
      for (const [index, path] of screens.entries()) {
        if ((index + sizeIndex + languageIndex) % 2 === 1) continue;
        await page.goto(path);
        await expect.soft(page.locator('main h1')).toHaveCount(1);
        await expectAccessible(page, `${path} ${size.name} ${language}`);
      }
      // An account with an activity: the activity table, its pager footer and the open editor.
      const added = await (await request.post('/api/activity/add', { data: { entityType: 2, id }, headers: { authorization: `Bearer ${token}` } })).json();
      const upd = await request.post('/api/activity/update', { data: { id: added.id, version: added.version, description: 'Called about the flat', done: false }, headers: { authorization: `Bearer ${token}` } });
      expect(upd.ok(), await upd.text()).toBeTruthy();
      await page.goto(`/Accounts/View/${id}`);
      await expect(page.getByTestId('activity-row')).toHaveCount(1);
      await expectAccessible(page, `account with an activity ${size.name} ${language}`);
      await page.getByTestId('activity-add').click();
      await expect(page.getByTestId('activity-editor')).toBeVisible();
      await expectAccessible(page, `activity editor ${size.name} ${language}`);
      if (size.name === 'desktop') {
        // The global search's results and the language menu, open.
        await page.goto('/CRM');
        await page.getByTestId('global-search').fill('Axe');
        await expect(page.getByTestId('search-hit').first()).toBeVisible();
        await expectAccessible(page, `search results ${language}`);
        await page.keyboard.press('Escape');
        await page.getByTestId('language-menu').click();
        await expect(page.getByTestId('language-el')).toBeVisible();
        await expectAccessible(page, `language menu ${language}`);
      }
      await ctx.close();
    });

    test(`access denied passes axe (${size.name}, ${language})`, async ({ browser, request, baseURL }) => {
      const token = await apiToken(request);
      const email = `axe-denied-${Date.now()}-${size.name}-${language}@example.com`;
      const employee = await addAccount(request, token, { lastName: 'Axe', firstName: 'Petros', isEmploye: true, role: 'employee', email });
      const pw = await request.post('/api/authenticate/setPassword', { headers: { authorization: `Bearer ${token}` }, data: { email, password: 'staff-pass-12' } });
      expect(pw.ok(), await pw.text()).toBeTruthy();
      const ctx = await context(browser, baseURL!, size, language);
      const own = await apiToken(request, email, 'staff-pass-12');
      const me = { token: own, username: email, userroles: ['employee'], branchId: null, language: null, accountId: employee };
      await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(me));
      const page = await ctx.newPage();
      await page.goto(`/ChangeEmployeRole/${employee}`);
      await expect(page.getByTestId('access-denied')).toBeVisible();
      await expectAccessible(page, `access denied ${size.name} ${language}`);
      await ctx.close();
    });
  }
}
