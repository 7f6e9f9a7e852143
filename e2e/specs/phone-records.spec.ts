import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiToken, createObject, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * A record's page on a phone (412 px, and 360 px for the narrowest): its header's buttons on one
 * line, every one of them reachable, no text left in another language and nothing to scroll
 * sideways.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const PHONE = { width: 412, height: 915 };

const TEXTS = {
  'en-UK': { actions: 'Actions', delete: 'Delete', cancel: 'Cancel', save: 'Save', deleteViewing: 'Delete viewing' },
  el: { actions: 'Ενέργειες', delete: 'Διαγραφή', cancel: 'Ακύρωση', save: 'Αποθήκευση', deleteViewing: 'Διαγραφή υπόδειξης' },
  ru: { actions: 'Действия', delete: 'Удалить', cancel: 'Отмена', save: 'Сохранить', deleteViewing: 'Удаление показа' },
} as const;

const ALERT_TEXTS = {
  el: { back: 'Επιστροφή στη λίστα', save: 'Αποθήκευση', unread: 'Σήμανση ως μη αναγνωσμένη' },
  ru: { back: 'Назад к списку', save: 'Сохранить', unread: 'Отметить как непрочитанное' },
} as const;

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** The buttons' boxes side by side on one line, each whole on the screen. */
async function expectOneLine(page: Page, buttons: Locator[], label: string) {
  const width = page.viewportSize()!.width;
  const boxes = [];
  for (const b of buttons) {
    await expect(b).toBeInViewport({ ratio: 1 });
    boxes.push((await b.boundingBox())!);
    // Its text whole, not cut at the button's edge.
    expect(await b.evaluate((el) => [el, ...el.querySelectorAll('*')].every((e) => e.scrollWidth <= e.clientWidth + 1)), `${label}: ${await b.textContent()} shown whole`).toBe(true);
  }
  for (const [i, box] of boxes.entries()) {
    expect(Math.abs(box.y + box.height / 2 - (boxes[0]!.y + boxes[0]!.height / 2)), `${label}: button ${i} on the first one's line`).toBeLessThanOrEqual(1);
    expect(box.x + box.width, `${label}: button ${i} ends on the screen`).toBeLessThanOrEqual(width);
    if (i > 0) expect(box.x, `${label}: button ${i} after the one before`).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width);
  }
}

for (const language of ['el', 'ru', 'en-UK'] as const) {
  test(`a viewing's form on a phone keeps its header's buttons on one line, Delete in its Actions menu (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const L = TEXTS[language];
    const token = await apiToken(request);
    const flat = await createObject(request, token, { forSale: true, title: 'Phone header flat', salePrice: 180_000 });
    const res = await request.post('/api/Viewing/update', { data: { dateOfViewing: '2031-04-10T11:00:00', results: [{ objectId: flat.id, result: 1 }] }, headers: auth(token) });
    expect(res.ok(), await res.text()).toBeTruthy();
    const viewing = ((await res.json()) as { id: number }).id;

    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: PHONE, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(`/Viewing/Edit/${viewing}`);
    const actions = page.getByRole('button', { name: L.actions, exact: true });
    const cancel = page.getByTestId('viewing-cancel');
    const save = page.getByTestId('viewing-save');
    await expect(cancel).toHaveText(L.cancel);
    await expect(save).toHaveText(L.save);
    await expectOneLine(page, [actions, cancel, save], `412 px ${language}`);
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page, `viewing form at 412 px ${language}`);
    // The narrowest phone in use: still one line.
    await page.setViewportSize({ width: 360, height: 800 });
    await expectOneLine(page, [actions, cancel, save], `360 px ${language}`);
    expect(await noSideScroll(page)).toBe(true);

    // The icon's name shows as its tooltip; its menu holds Delete, which asks first.
    await actions.hover();
    await expect(page.getByRole('tooltip', { name: L.actions })).toBeVisible();
    await actions.click();
    const del = page.getByRole('menuitem', { name: L.delete });
    await expect(del).toBeVisible();
    // Judged once the menu has faded in (mid-way its items are all but white).
    await expect(page.locator('.mantine-Menu-dropdown')).toHaveCSS('opacity', '1');
    await expectAccessible(page, `viewing form's Actions menu ${language}`);
    await del.click();
    const dialog = page.getByRole('dialog', { name: L.deleteViewing });
    await expect(dialog).toBeVisible();
    // Not deleted after all: the focus goes back to the menu's button.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(actions).toBeFocused();
    expect((await request.get(`/api/Viewing/edit/${viewing}`, { headers: auth(token) })).ok()).toBe(true);

    // From the keyboard too, and this time deleted.
    await page.keyboard.press('Enter');
    await expect(del).toBeFocused();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: L.delete, exact: true }).click();
    await expect(page).not.toHaveURL(new RegExp(`/Viewing/Edit/${viewing}$`));
    expect((await request.get(`/api/Viewing/edit/${viewing}`, { headers: auth(token) })).status()).toBe(404);
    await ctx.close();
  });
}

test('at 1280 px the record header keeps its Delete button beside Cancel and Save', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const flat = await createObject(request, token, { forSale: true, title: 'Desk header flat', salePrice: 190_000 });
  const res = await request.post('/api/Viewing/update', { data: { dateOfViewing: '2031-04-11T11:00:00', results: [{ objectId: flat.id, result: 1 }] }, headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  const viewing = ((await res.json()) as { id: number }).id;
  const ctx = await signedIn(browser, baseURL!, token, 'el');
  const page = await ctx.newPage();
  await page.goto(`/Viewing/Edit/${viewing}`);
  const del = page.getByTestId('viewing-delete');
  await expect(del).toHaveText(TEXTS.el.delete);
  await expect(page.getByRole('button', { name: TEXTS.el.actions, exact: true })).toHaveCount(0);
  await expectOneLine(page, [del, page.getByTestId('viewing-cancel'), page.getByTestId('viewing-save')], '1280 px');
  await ctx.close();
});

for (const language of ['el', 'ru'] as const) {
  test(`an alert on a phone: Back, Actions and Save notes on one line, Mark as unread and Delete in the menu (${language})`, async ({ browser, request, baseURL }) => {
    const L = TEXTS[language];
    const token = await apiToken(request);
    const list = await request.post('/api/alert/list', { data: { perPage: 5, currentPage: 1 }, headers: auth(token) });
    expect(list.ok(), await list.text()).toBeTruthy();
    const alert = ((await list.json()) as { items: { id: number }[] }).items[0]!;
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: PHONE, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(`/Alerts/${alert.id}`);
    const back = page.getByRole('button', { name: ALERT_TEXTS[language].back, exact: true });
    const actions = page.getByRole('button', { name: L.actions, exact: true });
    const save = page.getByRole('button', { name: ALERT_TEXTS[language].save, exact: true });
    await expectOneLine(page, [back, actions, save], `alert at 412 px ${language}`);
    await page.setViewportSize({ width: 360, height: 800 });
    await expectOneLine(page, [back, actions, save], `alert at 360 px ${language}`);
    expect(await noSideScroll(page)).toBe(true);
    await expectAccessible(page, `alert at 360 px ${language}`);
    await actions.click();
    await expect(page.getByRole('menuitem', { name: ALERT_TEXTS[language].unread })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: L.delete })).toBeVisible();
    await expect(page.locator('.mantine-Menu-dropdown')).toHaveCSS('opacity', '1');
    await expectAccessible(page, `alert's Actions menu ${language}`);
    await page.keyboard.press('Escape');
    // Back goes to the list.
    await back.click();
    await expect(page).toHaveURL(/\/Alerts$/);
    await ctx.close();
  });
}
