import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, publishedWithPhotos } from '../fixtures.ts';

/**
 * The public site's full-screen photos and the enquiry message's limit (decision 022), on a 412 px
 * phone and a 1280 px desktop, in Greek and English: "Full screen" (or a photo) opens a dialog named
 * for the property, previous/next by button, arrow key or swipe, "2 / 4" where it is, Escape or the
 * close button shut it and the focus goes back; the message's counter and the server's refusal of
 * a longer message keep every character typed.
 */

const WORDS = {
  el: { full: 'Πλήρης οθόνη', close: 'Κλείσιμο', next: 'Επόμενη φωτογραφία', prev: 'Προηγούμενη φωτογραφία', photos: 'Φωτογραφίες', of: 'από', over: 'Πολύ μεγάλο κείμενο: συντομέψτε το πριν το στείλετε.', refused: 'Το μήνυμα ξεπερνά το όριο των 2 000 χαρακτήρων: συντομέψτε το κατά 100 χαρακτήρες.' },
  en: { full: 'Full screen', close: 'Close', next: 'Next photo', prev: 'Previous photo', photos: 'Photos', of: 'of', over: 'Too long: please shorten it before sending.', refused: 'The message is longer than the 2 000 characters allowed: please shorten it by 100 characters.' },
} as const;

/** A one-finger swipe across the dialog, as a touch screen sends it. */
async function swipeLeft(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const y = 400;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 330, y }] });
  for (const x of [280, 200, 120]) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

for (const lang of ['el', 'en'] as const) {
  for (const phone of [true, false]) {
    const w = WORDS[lang];
    test(`a property's photos open full screen, and a long message is neither cut nor lost (${lang}, ${phone ? '412 px phone' : '1280 px desktop'})`, async ({ browser, request }) => {
      const o = await publishedWithPhotos(request, lang);
      const ctx = await browser.newContext(phone ? { viewport: { width: 412, height: 860 }, hasTouch: true, isMobile: true } : { viewport: { width: 1280, height: 800 } });
      const page = await ctx.newPage();
      await page.goto(`/listings/${o.ref}?lang=${lang}`);

      const full = page.getByRole('button', { name: w.full });
      await expect(full).toBeVisible();
      const dialog = page.getByRole('dialog', { name: `${w.photos}: ${o.title}` });
      await expect(dialog).toBeHidden();
      await full.click();
      await expect(dialog).toBeVisible();
      const count = dialog.getByTestId('lightbox-count');
      await expect(count).toHaveText(`1 / ${o.count}`);
      await expect(dialog.getByRole('button', { name: w.close })).toBeFocused();
      const img = dialog.getByTestId('lightbox-img');
      await expect(img).toHaveAttribute('alt', new RegExp(`1 ${w.of} ${o.count}$`));
      // The photo as large as the screen lets it be: the whole width of a phone, most of a desktop's height.
      const box = (await img.boundingBox())!;
      if (phone) expect(box.width).toBeGreaterThan(380);
      else expect(box.height).toBeGreaterThan(600);
      await expectAccessible(page, `public full-screen photos (${lang})`);

      // Next and previous, by button and by arrow key, round at the ends.
      await dialog.getByRole('button', { name: w.next }).click();
      await expect(count).toHaveText(`2 / ${o.count}`);
      await page.keyboard.press('ArrowRight');
      await expect(count).toHaveText(`3 / ${o.count}`);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      await expect(count).toHaveText(`${o.count} / ${o.count}`);
      await dialog.getByRole('button', { name: w.prev }).click();
      await expect(count).toHaveText(`${o.count - 1} / ${o.count}`);
      if (phone) {
        await swipeLeft(page);
        await expect(count).toHaveText(`${o.count} / ${o.count}`);
      }
      // Escape closes it; the focus is back on the button that opened it, and the page does not scroll sideways.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(full).toBeFocused();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      // A photo of the list opens it too, at that photo; the close button shuts it.
      await page.locator('ul.gallery img').first().click();
      await expect(dialog).toBeVisible();
      await expect(count).toHaveText(`1 / ${o.count}`);
      await dialog.getByRole('button', { name: w.close }).click();
      await expect(dialog).toBeHidden();

      // The message: 2 100 characters pasted are all there, the counter says so, and the server refuses them with the text kept.
      const message = page.locator('#c-message');
      const long = `${'Θέλω να δω το ακίνητο το Σάββατο. '.repeat(70)}`.slice(0, 2100);
      await message.fill(long);
      await expect(message).toHaveValue(long);
      await expect(page.getByTestId('contact-message-count')).toHaveText('2 100 / 2 000');
      await expect(page.locator('#c-message-over')).toHaveText(w.over);
      await page.locator('#c-name').fill('Maria Papadopoulou');
      await page.locator('#c-email').fill(`maria.lightbox.${lang}.${phone ? 'phone' : 'desk'}@example.gr`);
      await page.getByTestId('contact-form').getByRole('button').click();
      await expect(page.getByTestId('contact-message-error')).toHaveText(w.refused);
      await expect(page.locator('#c-message')).toHaveValue(long.trim());
      await expect(page.locator('#c-message')).toHaveAttribute('aria-invalid', 'true');
      // Shortened to the limit, it goes.
      await page.locator('#c-message').fill(long.slice(0, 2000));
      await expect(page.getByTestId('contact-message-count')).toHaveText('2 000 / 2 000');
      await expect(page.locator('#c-message-over')).toHaveText('');
      await page.getByTestId('contact-form').getByRole('button').click();
      await expect(page.getByTestId('contact-sent')).toBeVisible();
      await ctx.close();
    });
  }
}
