import { expect, test } from '@playwright/test';
import { apiToken, createObject, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * The records opened last: the global search offers them while its box is empty (newest first,
 * not the one on screen, a deleted one gone), the browser's tab is named by the record on screen,
 * and signing out removes the list from the browser.
 */
const TEXTS = {
  'en-UK': { recent: 'Recently opened', account: 'Account', object: 'Property', lead: 'Lead', brand: 'Agency CRM' },
  el: { recent: 'Ανοίξατε πρόσφατα', account: 'Επαφή', object: 'Ακίνητο', lead: 'Ενδιαφέρον', brand: 'Agency CRM' },
} as const;

for (const [index, language] of (['en-UK', 'el'] as const).entries()) {
  test(`the records opened last are one click away in the search, and the tab names the record (${language})`, async ({ browser, request, baseURL }) => {
    const L = TEXTS[language];
    const token = await apiToken(request);
    const auth = { authorization: `Bearer ${token}` };
    const mark = Date.now().toString(36).replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!);
    const lastName = `Recent${mark}`;
    const account = (await (await request.post('/api/account/add', { data: { lastName, firstName: 'Eleni', isClient: true }, headers: auth })).json()) as { id: number };
    const title = `Flat of ${lastName}`;
    const object = await createObject(request, token, { title, forSale: true, salePrice: 210000 });
    const lead = (await (await request.post('/api/lead/add', { data: { accountId: account.id }, headers: auth })).json()) as { id: number };

    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: index === 0 ? { width: 1280, height: 800 } : { width: 1366, height: 768 } });
    const page = await ctx.newPage();
    await page.goto(`/Accounts/View/${account.id}`);
    await expect(page.getByTestId('account-name')).toContainText(lastName);
    await expect(page).toHaveTitle(new RegExp(`^${lastName} Eleni · ${L.account} · ${L.brand}$`));
    await page.goto(`/Objects/View/${object.id}`);
    await expect(page.getByTestId('object-header')).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^#${object.referenceNumber} · ${title} · `));
    await page.goto(`/Leads/View/${lead.id}`);
    await expect(page.getByTestId('lead-title')).toContainText(lastName);
    await expect(page).toHaveTitle(new RegExp(`^#${lead.id} · ${lastName} Eleni · ${L.lead} · `));

    // On the home page: the empty search box offers the three, newest first, each named by its kind.
    await page.goto('/CRM');
    await expect(page).toHaveTitle(new RegExp(`^[^#]*· ${L.brand}$`));
    await page.getByTestId('global-search').click();
    const list = page.getByTestId('recent-list');
    await expect(list).toContainText(L.recent);
    const hits = list.getByTestId('recent-hit');
    await expect(hits.nth(0)).toContainText(`#${lead.id} · ${lastName} Eleni`);
    await expect(hits.nth(0)).toContainText(L.lead);
    await expect(hits.nth(1)).toContainText(title);
    await expect(hits.nth(1)).toContainText(L.object);
    await expect(hits.nth(2)).toContainText(`${lastName} Eleni`);
    await expect(hits.nth(2)).toContainText(L.account);
    await expectAccessible(page, `recently opened ${language}`);

    // Chosen by the keyboard: the account opens, and its own entry is not offered on its page.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/Accounts/View/${account.id}$`));
    await expect(page.getByTestId('account-name')).toContainText(lastName);
    await page.getByTestId('global-search').click();
    await expect(hits.first()).toContainText(`#${lead.id}`);
    await expect(hits.filter({ hasText: L.account })).toHaveCount(0);
    // Typing replaces them with what the search finds.
    await page.getByTestId('global-search').fill(lastName);
    await expect(page.getByTestId('search-hit').first()).toBeVisible();
    await expect(list).toHaveCount(0);
    await page.keyboard.press('Escape');

    // A property deleted meanwhile: its page says it is gone, and the list lets it go.
    const del = await request.delete(`/api/object/${object.id}`, { headers: auth });
    expect(del.ok(), await del.text()).toBeTruthy();
    await page.goto(`/Objects/View/${object.id}`);
    await expect(page.getByTestId('object-not-found')).toBeVisible();
    await page.goto('/Clients');
    await page.getByTestId('global-search').click();
    await expect(hits.first()).toBeVisible();
    await expect(hits.filter({ hasText: title })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // Signing out takes the list out of the browser.
    const key = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('crm.recent.')));
    expect(key).toHaveLength(1);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/login|\/$/);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('crm.recent.')))).toEqual([]);
    await ctx.close();
  });
}
