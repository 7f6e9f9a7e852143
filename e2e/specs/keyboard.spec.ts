import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, apiToken, expectAccessible, signedIn, openAsAdmin, openSignedIn } from '../fixtures.ts';

/**
 * Keyboard only (WCAG 2.1.1): sign in, add a client and an activity on it with Tab, Enter, Space
 * and typing; the mouse is never used.
 */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('sign in, add a client and an activity on it with the keyboard alone', async ({ page, request, baseURL }) => {
  // Up to a few hundred key presses, each answered by the page: slow on a busy machine.
  test.setTimeout(90_000);
  await page.context().addCookies([{ name: 'language', value: 'en-UK', url: baseURL! }]);
  await page.goto('/login');
  await tabTo(page, page.getByTestId('login-email'));
  await page.keyboard.type(ADMIN.email);
  await tabTo(page, page.getByTestId('login-password'));
  await page.keyboard.type(ADMIN.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/CRM$/);
  // The home screen drawn (a Tab pressed before it would start from the sign-in form's leftovers).
  await expect(page.locator('main h1')).toBeVisible();

  // The first Tab reaches the skip link, which shows itself and moves focus to the content.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  await tabTo(page, page.locator('main a[href="/Accounts/AddClient"]'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/Accounts\/AddClient$/);
  const lastName = `Keyboard${Date.now().toString(36).replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!)}`;
  await expect(page.getByTestId('add-lastName')).toBeFocused();
  await page.keyboard.type(lastName);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('add-firstName')).toBeFocused();
  await page.keyboard.type('Anna');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/Accounts\/View\/\d+\/2$/);
  const id = Number(/\/View\/(\d+)/.exec(page.url())![1]);

  const list = page.getByTestId('activity-list');
  await tabTo(page, list.getByTestId('activity-add'), 200);
  await page.keyboard.press('Space');
  const editor = list.getByTestId('activity-editor');
  await expect(editor).toBeVisible();
  // The new activity's description has the focus.
  await expect(editor.getByTestId('activity-description')).toBeFocused();
  const text = 'Wants a two-bedroom flat near the sea';
  await page.keyboard.type(text);
  await expect(editor.getByTestId('activity-save-status')).toHaveAttribute('data-status', 'saved');
  await expectAccessible(page, 'activity editor');

  // Stored as typed, on the new client.
  const token = await apiToken(request);
  const account = await (await request.get(`/api/account/view/${id}`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(account).toMatchObject({ lastName, firstName: 'Anna', isClient: true });
  const activities = await (await request.get(`/api/activity?parent=2&parentId=${id}`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(activities.items).toHaveLength(1);
  expect(activities.items[0]).toMatchObject({ description: text });
});

for (const [index, language] of (['en-UK', 'el'] as const).entries()) {
  test(`Ctrl+K reaches the global search from anywhere, typing in a field included (${language})`, async ({ browser, request, baseURL }) => {
    const el = language === 'el';
    const token = await apiToken(request);
    const lastName = `Shortcut${Date.now().toString(36).replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!)}`;
    const add = await request.post('/api/account/add', { data: { lastName, firstName: 'Eleni', isClient: true }, headers: { authorization: `Bearer ${token}` } });
    expect(add.ok(), await add.text()).toBeTruthy();
    const id = (await add.json()).id as number;

    // At a desk: from a list's filter box, the shortcut moves the focus to the header's search box,
    // which says so (the key shown while it is empty, and aria-keyshortcuts for assistive technology).
    const desk = await signedIn(browser, baseURL!, token, language, { viewport: index === 0 ? { width: 1280, height: 800 } : { width: 1366, height: 768 } });
    const page = await desk.newPage();
    await page.goto('/Clients');
    const search = page.getByTestId('global-search');
    await expect(page.getByTestId('global-search-shortcut')).toHaveText('Ctrl K');
    await expect(search).toHaveAttribute('aria-keyshortcuts', 'Control+K');
    const filter = page.getByTestId('clients-filter-lastname');
    // A screen 768 px high folds the filters behind their button, so that the list's rows show.
    if (index === 1) await page.getByTestId('clients-filter-toggle').click();
    await filter.fill('typed here');
    await page.keyboard.press('Control+K');
    await expect(search).toBeFocused();
    await expect(filter).toHaveValue('typed here');
    await page.keyboard.type(lastName);
    await expect(page.getByTestId('global-search-shortcut')).toHaveCount(0);
    const hit = page.getByTestId('search-hit').filter({ hasText: lastName });
    await expect(hit).toHaveCount(1);
    await expectAccessible(page, `search reached by Ctrl+K ${language}`);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/Accounts/View/${id}`));
    // The box is emptied and shows the key again; pressed once more, it is back in the search.
    await expect(page.getByTestId('global-search-shortcut')).toBeVisible();
    await page.keyboard.press('Control+K');
    await expect(search).toBeFocused();
    await desk.close();

    // On a phone with a keyboard: the menu opens with the search box ready to type in.
    const phone = await signedIn(browser, baseURL!, token, language, { viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await small.goto('/Clients');
    await expect(small.locator('main h1')).toBeVisible();
    await small.keyboard.press('Control+K');
    const drawerSearch = small.getByRole('dialog').getByTestId('global-search');
    await expect(drawerSearch).toBeFocused();
    await small.keyboard.type(lastName);
    await expect(small.getByTestId('search-hit').filter({ hasText: lastName })).toHaveCount(1);
    await expect(small.getByRole('dialog')).toContainText(el ? 'Αρχική' : 'Home');
    await phone.close();
  });
}

test('a picked value is cleared with the keyboard: the × after each clearable field is reached with Tab, named, and gives the focus back', async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const added = await request.post('/api/lead/add', { data: {}, headers });
  expect(added.ok(), await added.text()).toBeTruthy();
  const id = (await added.json()).id as number;
  const year = new Date().getFullYear() + 1;
  const set = await request.post('/api/lead/update', { data: { id, version: 1, priority: 3, endDate: `${year}-06-30`, description: 'Cleared by keyboard' }, headers });
  expect(set.ok(), await set.text()).toBeTruthy();
  const stored = async () => (await (await request.get(`/api/lead/get/${id}`, { headers })).json()) as { priority: number | null; endDate: string | null };

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', `/Leads/View/${id}/1`);
  await expect(page.getByTestId('lead-editor')).toBeVisible();

  // A select: Tab from the field reaches its ×, named in Greek; Enter empties the field and the focus
  // is back in it (the × has gone with the value).
  const priority = page.getByTestId('lead-priority');
  await expect(priority).not.toHaveValue('');
  await tabTo(page, priority);
  await page.keyboard.press('Tab');
  const clearPriority = page.getByTestId('lead-field-priority').getByRole('button', { name: 'Διαγραφή επιλογής' });
  await expect(clearPriority).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(priority).toHaveValue('');
  await expect(priority).toBeFocused();
  await page.keyboard.press('Escape');

  // A date: the same, its × named for a date.
  const until = page.getByTestId('lead-endDate');
  await expect(until).toHaveValue(`30/06/${year}`);
  await tabTo(page, until);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('lead-field-endDate').getByRole('button', { name: 'Διαγραφή ημερομηνίας' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(until).toHaveValue('');
  await expect(until).toBeFocused();
  // The calendar stays closed: only the date was to go.
  await expect(page.locator('[data-dates-dropdown]')).toHaveCount(0);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await expect.poll(stored).toMatchObject({ priority: null, endDate: null });

  // A list's filter of several choices: emptied at once, the whole list back.
  await page.goto('/Leads');
  const stages = page.getByTestId('leads-filter-stages');
  await tabTo(page, stages);
  // The first arrow opens the list, the second marks its first stage.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('leads-filter').locator('.mantine-Pill-root')).toHaveCount(1);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('leads-filter').getByRole('button', { name: 'Διαγραφή επιλογής' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('leads-filter').locator('.mantine-Pill-root')).toHaveCount(0);
  await expect(stages).toBeFocused();
  await ctx.close();
});

test('a searchable choice emptied with the keyboard keeps its list closed until it is asked for', async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const added = await request.post('/api/account/add', { data: { firstName: 'Eleni', lastName: `Closedlist${Date.now() % 100000}`, language: 'el' }, headers });
  expect(added.ok(), await added.text()).toBeTruthy();
  const id = (await added.json()).id as number;

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', `/Accounts/View/${id}/2`);
  const language = page.getByTestId('field-language');
  await expect(language).toHaveValue('Greek');
  // The record's sections show together once all have loaded: focus() does not wait for that.
  await expect(language).toBeVisible();
  await language.focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Clear the choice' })).toBeFocused();
  await page.keyboard.press('Enter');
  // Emptied, the focus back in the field, and no list shown for it.
  await expect(language).toHaveValue('');
  await expect(language).toBeFocused();
  await expect(language).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  // The list comes when asked for: the arrow key, or typing.
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await page.keyboard.type('Germ');
  await expect(page.getByRole('option', { name: 'German' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A list filter's several choices: the same (the sources filter of the clients is searchable).
  await page.goto('/Clients');
  const sources = page.getByTestId('clients-filter-sources');
  await sources.click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('clients-filter').locator('.mantine-Pill-root')).toHaveCount(1);
  await page.getByTestId('clients-filter').getByRole('button', { name: 'Clear the choice' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('clients-filter').locator('.mantine-Pill-root')).toHaveCount(0);
  await expect(sources).toBeFocused();
  await expect(sources).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await ctx.close();
});

test('each chosen value of a multi-select has a × of its own, named after it and reached with Tab', async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'el', '/Leads');
  const filter = page.getByTestId('leads-filter');
  const stages = page.getByTestId('leads-filter-stages');
  const pills = filter.locator('.mantine-Pill-root');
  await stages.click();
  const options = page.getByRole('option');
  const names: string[] = [];
  for (let i = 0; i < 3; i++) {
    names.push((await options.nth(i).innerText()).trim());
    await options.nth(i).click();
  }
  await page.keyboard.press('Escape');
  await expect(pills).toHaveText(names);
  await expectAccessible(page, 'a filter of three chosen stages');
  const remove = (name: string) => filter.getByRole('button', { name: `Αφαίρεση «${name}»`, exact: true });

  // In the tab order one after the other, each named in Greek after its value.
  await tabTo(page, remove(names[0]!));
  await page.keyboard.press('Tab');
  await expect(remove(names[1]!)).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(remove(names[0]!)).toBeFocused();
  // Enter takes out that one value only; the focus goes on to the next value's ×.
  await page.keyboard.press('Enter');
  await expect(pills).toHaveText([names[1]!, names[2]!]);
  await expect(remove(names[1]!)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(pills).toHaveText([names[2]!]);
  await expect(remove(names[2]!)).toBeFocused();
  // The last one gone, the focus is back in the field, its list closed.
  await page.keyboard.press('Enter');
  await expect(pills).toHaveCount(0);
  await expect(stages).toBeFocused();
  await expect(page.getByRole('listbox')).toHaveCount(0);

  // The mouse still takes a value out with its ×.
  await stages.click();
  await options.nth(1).click();
  await page.keyboard.press('Escape');
  await expect(pills).toHaveText([names[1]!]);
  await remove(names[1]!).click();
  await expect(pills).toHaveCount(0);
  await ctx.close();
});
