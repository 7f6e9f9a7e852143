import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, auth, createObject, expectAccessible, placeId, signedIn } from '../fixtures.ts';

/**
 * The viewing sheet a client signs (decision 044): from a viewing's page, a print-ready page with
 * the agency's details, the client, the properties shown and the declaration with the fee terms set
 * in the settings; in the client's or the chosen language; only the sheet is printed.
 */

async function post<T>(request: APIRequestContext, token: string, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { data, headers: auth(token) });
  expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

/** The sheet's details in the settings (both tests set the same, so running side by side they agree). */
const SHEET = { licence: 'ΓΕΜΗ 123456701000', taxNumber: '094014201', saleFeePercent: 2.5, rentFeeMonths: 1 };
async function setSheetDetails(request: APIRequestContext, token: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { sourceList: _s, ...current } = (await (await request.get('/api/SiteSettings', { headers: auth(token) })).json()) as Record<string, unknown>;
    const res = await request.post('/api/SiteSettings', { data: { ...current, ...SHEET }, headers: auth(token) });
    if (res.ok()) return;
    expect(res.status(), await res.text()).toBe(409);
  }
  throw new Error('the site settings kept changing');
}

const TEXTS = {
  'en-UK': {
    printSheet: 'Print viewing sheet',
    title: 'Property viewing sheet',
    fees: "on a purchase, 2,5% of the price plus VAT; on a rental, one month's rent plus VAT",
    greekTitle: 'Δελτίο υπόδειξης ακινήτων',
    taxLabel: 'Tax number (AFM)',
    badTax: 'Not a valid Greek tax number (AFM)',
    badLicence: "Write the registry number as it appears on the agency's papers",
  },
  el: {
    printSheet: 'Εκτύπωση δελτίου υπόδειξης',
    title: 'Δελτίο υπόδειξης ακινήτων',
    fees: 'για αγορά, 2,5% επί του τιμήματος πλέον ΦΠΑ· για μίσθωση, ένα (1) μηνιαίο μίσθωμα πλέον ΦΠΑ',
    greekTitle: 'Δελτίο υπόδειξης ακινήτων',
    taxLabel: 'ΑΦΜ',
    badTax: 'Ο ΑΦΜ δεν είναι έγκυρος',
    badLicence: 'Γράψτε τον αριθμό μητρώου όπως αναγράφεται στα έγγραφα του γραφείου',
  },
} as const;

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const language of ['en-UK', 'el'] as const) {
  test(`a viewing's sheet shows the client, both properties and the fee terms, prints without the app around it, and works on a phone (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(180_000);
    const L = TEXTS[language];
    const token = await apiToken(request);
    await setSheetDetails(request, token);
    const mark = `Vs${language === 'el' ? 'el' : 'en'}${Date.now() % 1000000}`;
    const client = await post<{ id: number }>(request, token, '/api/account/add', { firstName: 'Anna', lastName: mark, isClient: true, phone: '+30 694 555 1234' });
    const flat = await createObject(request, token, { forSale: true, subTypeObjectTypeId: 1, objectSubTypeId: 1, area: 80, salePrice: 210000, title: `Flat ${mark}` });
    const studio = await createObject(request, token, { forRent: true, subTypeObjectTypeId: 1, objectSubTypeId: 2, area: 35, rentPrice: 450, title: `Studio ${mark}` });
    const lead = await post<{ id: number }>(request, token, '/api/lead/add', { accountId: client.id });
    const viewing = await post<{ id: number }>(request, token, '/api/Viewing/update', {
      demandId: lead.id,
      dateOfViewing: '2031-03-14T18:00:00',
      results: [
        { objectId: flat.id, result: 1 },
        { objectId: studio.id, result: 1 },
      ],
    });

    // From the viewing's page, its sheet.
    const desk = await signedIn(browser, baseURL!, token, language, { viewport: { width: 1280, height: 1000 } });
    const page = await desk.newPage();
    await page.goto(`/Viewing/${viewing.id}`);
    await page.getByRole('link', { name: L.printSheet }).click();
    await expect(page).toHaveURL(new RegExp(`/Viewing/${viewing.id}/Sheet$`));
    const sheet = page.getByTestId('viewing-sheet');
    await expect(page.getByTestId('viewing-sheet-title')).toHaveText(L.title);
    await expect(page.getByTestId('viewing-sheet-client-name')).toHaveText(`Anna ${mark}`);
    await expect(page.getByTestId('viewing-sheet-ref')).toHaveText([flat.referenceNumber, studio.referenceNumber]);
    await expect(page.getByTestId('viewing-sheet-declaration')).toContainText(L.fees);
    await expect(sheet).toContainText(SHEET.licence);
    await expect(sheet).toContainText(SHEET.taxNumber);
    await expect(page.getByTestId('viewing-sheet-date')).toHaveText('14/03/2031, 18:00');
    await page.screenshot({ path: test.info().outputPath(`viewing-sheet-1280-${language}.png`), fullPage: true });
    await expectAccessible(page, `viewing sheet ${language}`);

    // Printed: the sheet alone, no header, no buttons; laid out at an A4 page's printable width (180 mm).
    const A4 = { width: Math.round((180 / 25.4) * 96), height: Math.round((269 / 25.4) * 96) };
    await page.setViewportSize(A4);
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByTestId('viewing-sheet-print')).toBeHidden();
    await expect(page.getByTestId('viewing-sheet-language')).toBeHidden();
    await expect(page.getByTestId('viewing-sheet-title')).toBeVisible();
    // One A4 page (297 mm less the margins, at 96 px an inch) holds it.
    expect(await sheet.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(A4.height);
    // Nothing runs past the page's right edge (a long label and its line to fill in).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(A4.width);
    await page.screenshot({ path: test.info().outputPath(`viewing-sheet-print-${language}.png`), fullPage: true });
    if (language === 'en-UK') {
      // Eight properties with their places still fit one page.
      const place = await placeId(request, token, 'Karabournaki');
      const more = [];
      for (let i = 0; i < 8; i++) more.push(await createObject(request, token, { forSale: true, subTypeObjectTypeId: 1, objectSubTypeId: 1, area: 60 + i, salePrice: 150000 + i * 1000, locationId: place, title: `Flat ${i} ${mark}` }));
      const eight = await post<{ id: number }>(request, token, '/api/Viewing/update', { demandId: lead.id, dateOfViewing: '2031-03-15T10:00:00', results: more.map((o) => ({ objectId: o.id, result: 1 })) });
      await page.goto(`/Viewing/${eight.id}/Sheet`);
      await expect(page.getByTestId('viewing-sheet-ref')).toHaveCount(8);
      expect(await sheet.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(A4.height);
      await page.screenshot({ path: test.info().outputPath('viewing-sheet-print-eight.png'), fullPage: true });
      await page.goto(`/Viewing/${viewing.id}/Sheet`);
    }
    await page.emulateMedia({ media: 'screen' });
    await page.setViewportSize({ width: 1280, height: 1000 });

    if (language === 'en-UK') {
      // The sheet in Greek for a Greek client, while the screen stays in English.
      await page.getByTestId('viewing-sheet-language').getByText('Ελληνικά').click();
      await expect(page.getByTestId('viewing-sheet-title')).toHaveText(L.greekTitle);
      await expect(page.getByTestId('viewing-sheet-print')).toHaveText('Print');
      await expect(page).toHaveURL(/culture=el/);
      // In Russian every label of the client's details stays on one line, on the screen and printed.
      await page.getByTestId('viewing-sheet-language').getByText('Русский').click();
      await expect(page.getByTestId('viewing-sheet-title')).toHaveText('Акт показа объектов недвижимости');
      const wrapped = () =>
        page.locator('.viewing-sheet-label').evaluateAll((els) =>
          els.filter((e) => e.getBoundingClientRect().height > parseFloat(getComputedStyle(e).lineHeight) * 1.5).map((e) => e.textContent),
        );
      expect(await wrapped()).toEqual([]);
      await page.setViewportSize(A4);
      await page.emulateMedia({ media: 'print' });
      expect(await wrapped()).toEqual([]);
      await page.screenshot({ path: test.info().outputPath('viewing-sheet-print-ru.png'), fullPage: true });
      await page.emulateMedia({ media: 'screen' });
      await page.setViewportSize({ width: 1280, height: 1000 });
    }

    // The settings page keeps the sheet's details, and refuses an ΑΦΜ that is no tax number.
    await page.goto('/Settings');
    const card = page.getByTestId('settings-site');
    await expect(card.getByTestId('settings-site-licence')).toHaveValue(SHEET.licence);
    await expect(card.getByTestId('settings-site-sale-fee')).toHaveValue('2,5');
    await card.getByLabel(L.taxLabel, { exact: true }).fill('123456789');
    // A registry number without a number is refused too.
    await card.getByTestId('settings-site-licence').fill('ΓΕΜΗ');
    await card.getByTestId('settings-site-save').click();
    await expect(card.getByText(L.badTax)).toBeVisible();
    await expect(card.getByText(L.badLicence)).toBeVisible();
    await card.screenshot({ path: test.info().outputPath(`settings-sheet-details-${language}.png`) });
    await expectAccessible(page, `settings with the sheet's details ${language}`);
    await desk.close();

    // On a phone: the sheet is read and printed from there, without scrolling the page sideways.
    const phone = await signedIn(browser, baseURL!, token, language, { viewport: { width: 412, height: 915 }, isMobile: true });
    const small = await phone.newPage();
    await small.goto(`/Viewing/${viewing.id}`);
    await small.getByRole('link', { name: L.printSheet }).click();
    await expect(small.getByTestId('viewing-sheet-title')).toHaveText(L.title);
    await expect(small.getByTestId('viewing-sheet-print')).toBeVisible();
    await expect(small.getByTestId('viewing-sheet-ref')).toHaveText([flat.referenceNumber, studio.referenceNumber]);
    expect(await noSideScroll(small)).toBe(true);
    await small.screenshot({ path: test.info().outputPath(`viewing-sheet-412-${language}.png`), fullPage: true });
    await expectAccessible(small, `viewing sheet on a phone ${language}`);
    await phone.close();
  });
}
