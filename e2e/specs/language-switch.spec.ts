import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, auth, createObject, expectAccessible } from '../fixtures.ts';

/**
 * Switching the language in the header reads again what the screen shows from the server: the
 * names it supplies (a lead's stage, a property's type, a deal's stage) change language at once,
 * without a reload; and what is being typed in a form stays as typed.
 *
 * The header's menu also saves the choice as the user's own language: these tests sign in as an
 * employee of their own, so the admin's language (which other specs sign in with) is not touched.
 */
type Language = 'en-UK' | 'el';
const other = (l: Language): Language => (l === 'el' ? 'en-UK' : 'el');
const TEXTS = {
  'en-UK': { leadStage: 'Contacted', maisonette: 'Maisonette', dealStage: 'Deposit paid' },
  el: { leadStage: 'Σε επικοινωνία', maisonette: 'Μεζονέτα', dealStage: 'Δόθηκε αρραβώνας' },
} as const;

/** An employee of the test's own, signed in through the API, in a browser context reading `language`. */
async function employeePage(browser: Browser, request: APIRequestContext, baseURL: string, adminToken: string, language: Language, viewport = { width: 1280, height: 800 }) {
  const email = `switch-${Date.now()}-${Math.floor(Math.random() * 1e6)}@agency.test`;
  const add = await request.post('/api/account/add', { headers: auth(adminToken), data: { firstName: 'Ελένη', lastName: 'Μαυρίδου', isEmploye: true } });
  expect(add.ok(), await add.text()).toBeTruthy();
  const { id } = (await add.json()) as { id: number };
  const view = (await (await request.get(`/api/account/view/${id}`, { headers: auth(adminToken) })).json()) as { version: number };
  const upd = await request.post('/api/account/update', { headers: auth(adminToken), data: { id, version: view.version, email, role: 'employee' } });
  expect(upd.ok(), await upd.text()).toBeTruthy();
  const pw = await request.post('/api/authenticate/setPassword', { headers: auth(adminToken), data: { email, password: 'switch-pass-1' } });
  expect(pw.ok(), await pw.text()).toBeTruthy();
  const login = await request.post('/api/authenticate/login', { data: { username: email, password: 'switch-pass-1' } });
  expect(login.ok(), await login.text()).toBeTruthy();
  const session = await login.json();
  const phone = viewport.width < 600;
  const ctx = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
  await ctx.addCookies([{ name: 'language', value: language, url: baseURL }]);
  await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
  return { ctx, page: await ctx.newPage() };
}

/** Chooses the language in the header's menu. */
async function switchTo(page: Page, language: Language) {
  await page.getByTestId('language-menu').click();
  await page.getByTestId(`language-${language}`).click();
  await expect(page.locator('html')).toHaveAttribute('lang', language === 'el' ? 'el' : 'en');
}

/** A mark on the page's window: gone if the page reloads. */
const markWindow = (page: Page) => page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

for (const from of ['en-UK', 'el'] as const) {
  const to = other(from);
  test(`switching ${from} -> ${to} renames what the server named on the screen, without a reload (a property list, a lead)`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const maisonette = await createObject(request, token, { subTypeObjectTypeId: 1, objectSubTypeId: 3, forSale: true, salePrice: 310000 });
    const added = await request.post('/api/lead/add', { data: {}, headers: auth(token) });
    const lead = ((await added.json()) as { id: number }).id;
    const staged = await request.post('/api/lead/update', { data: { id: lead, version: 1, stage: 2 }, headers: auth(token) });
    expect(staged.ok(), await staged.text()).toBeTruthy();
    const { ctx, page } = await employeePage(browser, request, baseURL!, token, from);

    // The properties list, newest first: the new maisonette's type as the server names it.
    await page.goto('/Objects');
    const row = page.getByTestId('objects-table-row').filter({ has: page.locator(`a[href="/Objects/View/${maisonette.id}"]`) });
    await expect(row).toContainText(TEXTS[from].maisonette);
    await markWindow(page);
    await switchTo(page, to);
    await expect(row).toContainText(TEXTS[to].maisonette);
    await expect(row).not.toContainText(TEXTS[from].maisonette);
    expect(await notReloaded(page)).toBe(true);
    await expectAccessible(page, `properties list after switching to ${to}`);

    // The lead's stage, named by the server, and back to the first language.
    await page.goto(`/Leads/View/${lead}`);
    await expect(page.getByTestId('lead-value-stage')).toContainText(TEXTS[to].leadStage);
    await markWindow(page);
    await switchTo(page, from);
    await expect(page.getByTestId('lead-value-stage')).toContainText(TEXTS[from].leadStage);
    await expect(page.getByTestId('lead-value-stage')).not.toContainText(TEXTS[to].leadStage);
    expect(await notReloaded(page)).toBe(true);
    await expectAccessible(page, `lead ${lead} after switching back to ${from}`);
    await ctx.close();
  });
}

for (const from of ['en-UK', 'el'] as const) {
  const to = other(from);
  test(`what is typed and not saved stays across a switch ${from} -> ${to} (a deal's form on a phone, a lead's auto-saved form)`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const flat = await createObject(request, token, { subTypeObjectTypeId: 1, objectSubTypeId: 1, forSale: true, salePrice: 180000 });
    const created = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 2, objectId: flat.id, askingPrice: 180000 }, headers: auth(token) });
    expect(created.ok(), await created.text()).toBeTruthy();
    const deal = (await created.json()) as { id: number };
    const { ctx, page } = await employeePage(browser, request, baseURL!, token, from, { width: 412, height: 915 });

    // A deal's form (saved by its button): notes and a price typed, not saved.
    await page.goto(`/Deals/Edit/${deal.id}`);
    await expect(page.getByTestId('deal-dealStage')).toHaveValue(TEXTS[from].dealStage);
    const notes = from === 'el' ? 'Ο αγοραστής θέλει παράδοση τον Μάιο' : 'The buyer wants the keys in May';
    await page.getByTestId('deal-notes').fill(notes);
    await page.getByTestId('deal-price').fill('175000');
    await switchTo(page, to);
    // The stage's name is read again in the new language; the typed values stay.
    await expect(page.getByTestId('deal-dealStage')).toHaveValue(TEXTS[to].dealStage);
    await expect(page.getByTestId('deal-notes')).toHaveValue(notes);
    await expect(page.getByTestId('deal-price')).toHaveValue(/^175\s?000/);
    await expectAccessible(page, `deal ${deal.id} form on a phone after switching to ${to}`);
    await page.getByTestId('deal-save').click();
    await expect(page).toHaveURL(new RegExp(`/Deals/${deal.id}$`));
    const saved = (await (await request.get(`/api/Deal/edit/${deal.id}`, { headers: auth(token) })).json()) as { notes: string; price: number; dealStage: number };
    expect(saved).toMatchObject({ notes, price: 175000, dealStage: 2 });
    await ctx.close();

    // A lead's auto-saved form: typed, and the language switched before the save is due.
    const added = await request.post('/api/lead/add', { data: {}, headers: auth(token) });
    const lead = ((await added.json()) as { id: number }).id;
    const desktop = await employeePage(browser, request, baseURL!, token, from);
    const p = desktop.page;
    await p.goto(`/Leads/View/${lead}/2`);
    await expect(p.getByTestId('lead-editor')).toBeVisible();
    const wish = from === 'el' ? 'Τριάρι με αποθήκη, κοντά σε σχολείο' : 'Three rooms with a storeroom, near a school';
    await p.getByTestId('lead-description').fill(wish);
    await switchTo(p, to);
    await expect(p.getByTestId('lead-description')).toHaveValue(wish);
    await expect(p.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
    await expect(p.getByTestId('lead-description')).toHaveValue(wish);
    const stored = (await (await request.get(`/api/lead/get/${lead}`, { headers: auth(token) })).json()) as { description: string };
    expect(stored.description).toBe(wish);
    await desktop.ctx.close();
  });
}
