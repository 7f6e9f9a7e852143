import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, publishedWithPhotos, openAsAdmin } from '../fixtures.ts';

/**
 * The agency's details on its public site (decision 022): set by an office admin on the Settings
 * page, then shown in the footer of the public pages and beside a property's enquiry form as phone
 * and mail links. And the photo gallery's previous/next buttons on a desktop, by mouse and by
 * keyboard, with the list's own arrow keys kept, and the gallery as before without script.
 */
test.describe.configure({ mode: 'serial' });

const DETAILS = { name: 'Thermaikos Homes', nameEl: 'Θερμαϊκός Ακίνητα', phone: '+30 2310 123 456', email: 'info@thermaikos-homes.gr', address: 'Tsimiski 45, 546 23 Thessaloniki' };

const scrollOf = (page: Page) => page.locator('ul.gallery').evaluate((el) => el.scrollLeft);
/** Waits, from now on, for the gallery's next scroll to end (its smooth scroll too); the answer waits for that end. */
async function nextScrollEnd(page: Page) {
  await page.locator('ul.gallery').evaluate((el) => {
    (window as unknown as { scrollEnded: Promise<void> }).scrollEnded = new Promise((resolve) => el.addEventListener('scrollend', () => resolve(), { once: true }));
  });
  return () => page.evaluate(() => (window as unknown as { scrollEnded: Promise<void> }).scrollEnded);
}

test('an office admin sets the agency phone, e-mail and address for the public site', async ({ browser, request, baseURL }) => {
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'el', '/Settings');
  const card = page.getByTestId('settings-site');
  await expect(card.getByRole('heading', { name: 'Δημόσια ιστοσελίδα' })).toBeVisible();
  await expect(card.getByTestId('settings-site-save')).toBeEnabled();
  // A phone and an e-mail as no agency writes them: the reasons, in Greek, under the boxes; nothing saved.
  await card.getByLabel('Τηλέφωνο').fill('τηλεφωνήστε μας');
  await card.getByLabel('Διεύθυνση e-mail').fill('info@thermaikos');
  await card.getByTestId('settings-site-save').click();
  await expect(card.getByText('Γράψτε έναν αριθμό τηλεφώνου: 7 έως 15 ψηφία, με κενά αν θέλετε και + μόνο στην αρχή (π.χ. +30 2310 123 456)')).toBeVisible();
  await expect(card.getByText('Η διεύθυνση e-mail δεν είναι έγκυρη')).toBeVisible();
  await expect(card.getByLabel('Τηλέφωνο')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'settings, site details refused');

  await card.getByLabel('Επωνυμία γραφείου').fill(DETAILS.name);
  await card.getByLabel('Επωνυμία στα ελληνικά').fill(DETAILS.nameEl);
  await card.getByLabel('Τηλέφωνο').fill(DETAILS.phone);
  await card.getByLabel('Διεύθυνση e-mail').fill(DETAILS.email);
  await card.getByLabel('Διεύθυνση γραφείου').fill(DETAILS.address);
  await card.getByTestId('settings-site-save').click();
  await expect(card.getByTestId('settings-site-saved')).toHaveText('Αποθηκεύτηκε. Οι δημόσιες σελίδες δείχνουν τα νέα στοιχεία μέσα σε ένα λεπτό.');
  // Stored: a reload shows them.
  await page.reload();
  await expect(page.getByTestId('settings-site').getByLabel('Τηλέφωνο')).toHaveValue(DETAILS.phone);
  await expect(page.getByTestId('settings-site').getByLabel('Διεύθυνση e-mail')).toHaveValue(DETAILS.email);
  // The site's enquiries come from the demo agency's own website, a source it can change.
  await expect(page.getByTestId('settings-site').getByLabel('Πηγή των αιτημάτων από την ιστοσελίδα')).toHaveValue('Ιστοσελίδα thermaikos-homes.gr');
  await ctx.close();
});

for (const lang of ['el', 'en'] as const) {
  const words =
    lang === 'el'
      ? { prev: 'Προηγούμενη φωτογραφία', next: 'Επόμενη φωτογραφία', phone: 'Τηλέφωνο', direct: 'Ή επικοινωνήστε απευθείας μαζί μας:' }
      : { prev: 'Previous photo', next: 'Next photo', phone: 'Phone', direct: 'Or contact us directly:' };

  test(`a property page shows the agency's phone and e-mail, and the gallery has previous/next buttons (${lang})`, async ({ browser, request }) => {
    const o = await publishedWithPhotos(request);
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await visitor.newPage();
    await page.goto(`/listings/${o.ref}?lang=${lang}`);

    // The footer and the box beside the form: links that dial and write.
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: DETAILS.phone })).toHaveAttribute('href', 'tel:+302310123456');
    await expect(footer.getByRole('link', { name: DETAILS.email })).toHaveAttribute('href', `mailto:${DETAILS.email}`);
    await expect(footer).toContainText(DETAILS.address);
    await expect(footer).toContainText(`${words.phone}: ${DETAILS.phone}`);
    const direct = page.getByTestId('contact-direct');
    await expect(direct).toContainText(words.direct);
    await expect(direct.getByRole('link', { name: DETAILS.phone })).toHaveAttribute('href', 'tel:+302310123456');
    await expect(direct.getByRole('link', { name: DETAILS.email })).toHaveAttribute('href', new RegExp(`^mailto:${DETAILS.email}\\?subject=.*${o.ref}`));
    // The name in the reader's letters (issue 45): Greek readers the Greek one.
    await expect(page.locator('a.brand')).toHaveText(lang === 'el' ? DETAILS.nameEl : DETAILS.name);

    // The gallery's buttons: shown, at the start "previous" is disabled.
    const prev = page.getByRole('button', { name: words.prev });
    const next = page.getByRole('button', { name: words.next });
    await expect(prev).toBeVisible();
    await expect(next).toBeVisible();
    await expect(prev).toBeDisabled();
    await expect(next).toBeEnabled();
    for (const b of [prev, next]) {
      const box = (await b.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);
    }
    await expectAccessible(page, 'public object page with the agency details and gallery buttons');

    // One photo further by a click: the second photo is where the first was.
    const photos = page.locator('ul.gallery li');
    const step = await photos.nth(1).evaluate((li) => (li as HTMLElement).offsetLeft);
    await next.click();
    await expect.poll(() => scrollOf(page)).toBe(step);
    await expect(prev).toBeEnabled();
    await prev.click();
    await expect.poll(() => scrollOf(page)).toBe(0);
    await expect(prev).toBeDisabled();

    // By keyboard to the end: "next" is disabled there and the focus is on "previous", with a visible ring.
    await next.focus();
    const count = await photos.count();
    for (let i = 0; i < count && (await next.isEnabled()); i++) {
      const scrolled = await nextScrollEnd(page);
      await page.keyboard.press('Enter');
      await scrolled();
    }
    await expect(next).toBeDisabled();
    await expect(prev).toBeFocused();
    expect(await prev.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    const back = await nextScrollEnd(page);
    await page.keyboard.press('Enter');
    await expect(next).toBeEnabled();

    // The list's own arrow keys still scroll it when it has the focus: from where "previous" left it
    // (one photo back from the end, so there is room to the right) once its smooth scroll has ended.
    // (Read mid-scroll, "before" could be where the scroll was about to end: with two photos, 0.)
    await back();
    await page.locator('ul.gallery').focus();
    const before = await scrollOf(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => scrollOf(page)).toBeGreaterThan(before);
    await visitor.close();

    // Without script: no buttons, the list scrolls as before, the links are there.
    const plain = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    const p2 = await plain.newPage();
    await p2.goto(`/listings/${o.ref}?lang=${lang}`);
    await expect(p2.getByRole('button', { name: words.next })).toBeHidden();
    expect(await p2.locator('ul.gallery').evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
    await expect(p2.getByTestId('contact-direct').getByRole('link', { name: DETAILS.phone })).toBeVisible();
    await plain.close();
  });
}
