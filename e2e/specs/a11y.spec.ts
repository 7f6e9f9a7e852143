import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import { apiToken, createObject, expectAccessible, expectBadgesReadable, expectNamesWhereAllowed, signedIn } from '../fixtures.ts';

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
      const titles = language === 'el' ? ['Σύνδεση στον λογαριασμό σας', 'Ξεχάσατε τον κωδικό σας;', 'Ορίστε νέο κωδικό πρόσβασης'] : ['Sign in to your account', 'Forgot your password?', 'Choose a new password'];
      for (const [index, path] of ['/login', '/ForgotPassword', '/ResetPassword?code=abc&email=someone%40example.com'].entries()) {
        await page.goto(path);
        // One main landmark, and the page's one h1 in it, saying what the page is for.
        await expect.soft(page.getByRole('main')).toHaveCount(1);
        await expect.soft(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(titles[index]!);
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

/**
 * Badges, status chips and counts read at 4.5:1 wherever they show (the theme's colours, not each
 * screen's), measured by axe one by one: the navbar's count of unread alerts, an expense's Paid and
 * Not paid, an account's kinds, a lead's stage in the list, a match's New and score. And nothing is
 * named that takes no name: the match's score, the lists' totals, the results' table.
 */
for (const language of LANGUAGES) {
  test(`badges, status chips and counts read at 4.5:1, and only what takes a name is named (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(180_000);
    const el = language === 'el';
    const token = await apiToken(request);
    const auth = { authorization: `Bearer ${token}` };
    const mark = `${el ? 'Σήμανση' : 'Badge'}${Date.now() % 1000000}`;
    // An owner who keeps payments: an expense paid, and a later one not paid yet.
    const owner = await addAccount(request, token, { firstName: 'Σοφία', lastName: mark, isOwner: true, hasTransactions: true });
    const form = await request.get('/api/transactions/addExpense', { params: { accountId: owner }, headers: auth });
    expect(form.ok(), await form.text()).toBeTruthy();
    const category = String(((await form.json()) as { lists: { categoryId: { value: number | string }[] } }).lists.categoryId[0]!.value);
    for (const [status, day] of [['1', '04'], ['0', '05']] as const) {
      const res = await request.post('/api/transactions/addExpense', {
        multipart: { accountId: String(owner), amount: '80.20', transactionDate: `2026-03-${day}T09:15:00`, paymentMethod: '1', categoryId: category, status, expirationDate: '2026-03-20' },
        headers: auth,
      });
      expect(res.ok(), await res.text()).toBeTruthy();
    }
    // One of the agency's alerts unread again: the navbar counts it.
    const alerts = await request.post('/api/alert/list', { data: { perPage: 1, currentPage: 1 }, headers: auth });
    expect(alerts.ok(), await alerts.text()).toBeTruthy();
    const alert = ((await alerts.json()) as { items: { id: number }[] }).items[0]!;
    expect((await request.post(`/api/alert/mark-as-unread/${alert.id}`, { headers: auth })).ok()).toBeTruthy();
    // A lead whose matches were seen, and a flat listed since at its price (no other property has it): a new match.
    const price = 6_200_000 + Math.floor(Math.random() * 100_000);
    const lead = ((await (await request.post('/api/lead/add', { data: { accountId: owner }, headers: auth })).json()) as { id: number }).id;
    const upd = await request.post('/api/lead/update', { data: { id: lead, version: 1, forPurchase: true, purchaseBudgetRangeMin: price - 1000, purchaseBudgetRangeMax: price + 1000 }, headers: auth });
    expect(upd.ok(), await upd.text()).toBeTruthy();
    expect((await request.post(`/api/lead/${lead}/matches/seen`, { headers: auth })).ok()).toBeTruthy();
    const flat = await createObject(request, token, { forSale: true, subTypeObjectTypeId: 1, objectSubTypeId: 1, title: `Flat ${mark}`, salePrice: price, area: 90 });

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();

    // The statement: the two expenses' status, the count of the unpaid, and the navbar's count.
    await page.goto(`/Payments/View/${owner}`);
    const statuses = el ? ['Απλήρωτο', 'Εξοφλημένο'] : ['Not paid', 'Paid'];
    await expect(page.getByTestId('statement-status')).toHaveText(statuses);
    await expect(page.getByTestId('statement-unpaid-count')).toHaveText('1');
    const badge = page.getByTestId('alerts-badge');
    await expect(badge).toHaveAttribute('data-count', /^[1-9]\d*$/);
    const unread = Number(await badge.getAttribute('data-count'));
    const count = unread > 99 ? '99+' : String(unread);
    await expect(page.locator('.mantine-Indicator-indicator')).toHaveText(count);
    expect(await expectBadgesReadable(page, `statement ${language}`)).toEqual(expect.arrayContaining([...statuses, '1', count]));
    await expectAccessible(page, `statement with a paid and an unpaid expense ${language}`);

    // The payments list, found by the owner's name.
    await page.goto('/Payments');
    await page.getByTestId('payments-search').fill(mark);
    await expect(page.getByTestId('payments-table-row')).toHaveCount(1);
    expect(await expectBadgesReadable(page, `payments list ${language}`)).toContain(count);
    await expectAccessible(page, `payments list ${language}`);

    // The account: its kinds, the owner and the payments (yellow, 2.8:1 before).
    await page.goto(`/Accounts/View/${owner}`);
    const kinds = el ? ['Ιδιοκτήτης', 'Πληρωμές'] : ['Owner', 'Payments'];
    await expect(page.getByTestId('kind-badges').first()).toContainText(kinds[1]!);
    expect(await expectBadgesReadable(page, `account ${language}`)).toEqual(expect.arrayContaining(kinds));

    // The leads list's stages, and the lead's new match: New (filled green, 3.5:1 before) and its score.
    await page.goto('/Leads');
    await expect(page.getByTestId('leads-table-row').first()).toBeVisible();
    expect((await expectBadgesReadable(page, `leads list ${language}`)).length).toBeGreaterThan(1);
    await expectAccessible(page, `leads list ${language}`);
    await page.goto(`/Leads/View/${lead}`);
    const match = page.getByTestId('lead-matches').locator(`[data-object-id="${flat.id}"]`);
    await expect(match.getByText(el ? 'Νέο' : 'New', { exact: true })).toBeVisible();
    const score = match.getByTestId('lead-match-score');
    await expect(score).toContainText(el ? /Ταίριασμα \d+ στα 100/ : /Match \d+ of 100/);
    expect(await expectBadgesReadable(page, `lead's matches ${language}`)).toEqual(expect.arrayContaining([el ? 'Νέο' : 'New', ((await score.locator('[aria-hidden="true"]').textContent()) ?? '').trim()]));
    await expectNamesWhereAllowed(page, `lead's matches ${language}`);
    await expectAccessible(page, `lead's matches ${language}`);

    // The deals' totals and the agents' results: named groups and regions.
    await page.goto('/Deals');
    await expect(page.getByRole('group', { name: el ? /^Σύνολα (όλων των \d+ συμφωνιών|της 1 συμφωνίας) του φίλτρου$/ : /^Totals of (all \d+ matching deals|the 1 matching deal)$/ })).toBeVisible();
    await expectNamesWhereAllowed(page, `deals list ${language}`);
    await page.goto('/Reports');
    await expect(page.getByRole('region', { name: el ? 'Απόδοση συνεργατών' : "Agents' results", exact: true })).toBeVisible();
    await expectNamesWhereAllowed(page, `results ${language}`);
    await ctx.close();
  });
}
