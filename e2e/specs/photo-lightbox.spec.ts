import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * The enlarged photo of a property is browsable: on a 412 px phone by its previous / next buttons
 * and by a swipe, on a desktop by the arrow keys; it says where it is ("2 / 5"), turns round at the
 * ends, keeps the focus inside, and gives it back to the photo on close.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const L = {
  'en-UK': { next: 'Next photo', previous: 'Previous photo', close: 'Close' },
  el: { next: 'Επόμενη φωτογραφία', previous: 'Προηγούμενη φωτογραφία', close: 'Κλείσιμο' },
} as const;

/** A demo property with at least three photos (the n-th found from the newest down). */
async function demoWithPhotos(request: APIRequestContext, token: string, n: number) {
  const list = await request.post('/api/object', { data: { perPage: 60, currentPage: 1, sortBy: 'referenceNumber', sortDir: 'asc' }, headers: auth(token) });
  expect(list.ok(), await list.text()).toBeTruthy();
  let seen = 0;
  for (const row of ((await list.json()) as { items: { id: number }[] }).items) {
    const view = (await (await request.get(`/api/object/view/${row.id}`, { headers: auth(token) })).json()) as { images?: unknown[] };
    if ((view.images?.length ?? 0) >= 3 && seen++ === n) return { id: row.id, count: view.images!.length };
  }
  throw new Error('no demo property with three photos');
}

/** A one-finger swipe across the element, as a touch screen sends it (through the browser's own input). */
async function swipe(page: Page, selector: string, dir: 'left' | 'right') {
  const box = (await page.locator(selector).boundingBox())!;
  const y = box.y + box.height / 2;
  const [from, to] = dir === 'left' ? [box.x + box.width * 0.8, box.x + box.width * 0.2] : [box.x + box.width * 0.2, box.x + box.width * 0.8];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from, y }] });
  for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from + ((to - from) * i) / 5, y: y + i }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

for (const language of ['en-UK', 'el'] as const) {
  test(`the enlarged photo goes to the next and previous one on a phone and a desktop (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    const { id, count } = await demoWithPhotos(request, token, language === 'el' ? 1 : 0);
    const at = (n: number) => `${n} / ${count}`;

    // On a 412 px phone.
    const phone = await signedIn(browser, baseURL!, token, language, { viewport: { width: 412, height: 915 }, isMobile: true });
    const page = await phone.newPage();
    await page.goto(`/Objects/View/${id}`);
    await expect(page.getByTestId('photo-counter')).toHaveText(at(1));
    await page.getByTestId('photo-open').tap();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('lightbox-position')).toHaveText(at(1));
    // Both buttons are on the screen and at least 44 px square (WCAG 2.2 target size).
    for (const name of [L[language].previous, L[language].next]) {
      const box = (await dialog.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(412);
    }
    await expectAccessible(page, `enlarged photo on a phone (${language})`);

    await dialog.getByRole('button', { name: L[language].next, exact: true }).tap();
    await expect(dialog.getByTestId('lightbox-position')).toHaveText(at(2));
    await expect(dialog.getByTestId('photo-img')).toHaveAttribute('alt', new RegExp(`2\\D+${count}$`));
    await swipe(page, '[data-testid="lightbox-stage"]', 'left');
    await expect(dialog.getByTestId('lightbox-position')).toHaveText(at(3));
    await swipe(page, '[data-testid="lightbox-stage"]', 'right');
    await expect(dialog.getByTestId('lightbox-position')).toHaveText(at(2));
    // Back past the first photo: it turns round to the last.
    await dialog.getByRole('button', { name: L[language].previous, exact: true }).tap();
    await dialog.getByRole('button', { name: L[language].previous, exact: true }).tap();
    await expect(dialog.getByTestId('lightbox-position')).toHaveText(at(count));

    // Closed: the carousel shows the photo last looked at, and the focus is back on it.
    await dialog.getByRole('button', { name: L[language].close, exact: true }).tap();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('photo-open')).toBeFocused();
    await expect(page.getByTestId('photo-counter')).toHaveText(at(count));
    await phone.close();

    // On a desktop, by the keyboard alone.
    const desk = await signedIn(browser, baseURL!, token, language);
    const dpage = await desk.newPage();
    await dpage.goto(`/Objects/View/${id}`);
    await dpage.getByTestId('photo-open').focus();
    await dpage.keyboard.press('Enter');
    const ddialog = dpage.getByRole('dialog');
    await expect(ddialog.getByTestId('lightbox-position')).toHaveText(at(1));
    await expect.poll(() => dpage.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null)).toBe(true);
    await dpage.keyboard.press('ArrowRight');
    await expect(ddialog.getByTestId('lightbox-position')).toHaveText(at(2));
    await dpage.keyboard.press('ArrowRight');
    await dpage.keyboard.press('ArrowLeft');
    await expect(ddialog.getByTestId('lightbox-position')).toHaveText(at(2));
    // Tab stays inside the dialog.
    for (let i = 0; i < 4; i++) {
      await dpage.keyboard.press('Tab');
      expect(await dpage.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null)).toBe(true);
    }
    for (const name of [L[language].previous, L[language].next]) await expect(ddialog.getByRole('button', { name, exact: true })).toBeInViewport();
    await expectAccessible(dpage, `enlarged photo on a desktop (${language})`);
    await dpage.keyboard.press('Escape');
    await expect(ddialog).toHaveCount(0);
    await expect(dpage.getByTestId('photo-open')).toBeFocused();
    await expect(dpage.getByTestId('photo-counter')).toHaveText(at(2));
    await desk.close();
  });
}
