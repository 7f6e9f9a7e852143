import { expect, test } from '@playwright/test';
import { apiToken, auth, createObject, expectAccessible, placeId, signedIn } from '../fixtures.ts';

/**
 * A property's title in the reader's language: a maisonette with a Greek title and a Russian one
 * reads in Russian on Russian screens (the search list, the search box, the property's card, a
 * lead's offered properties) and in Greek on English and Greek ones; a flat with no Russian title
 * reads in Greek on every screen, and a studio with only a Russian title in Russian on every screen
 * (marked as Russian for screen readers on the others).
 */

for (const language of ['ru', 'en-UK', 'el'] as const) {
  test(`a property's title in the reader's language (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    const mark = String(Date.now() % 1000000);
    const greek = `Μεζονέτα με θέα ${mark}`;
    const russian = `Мезонет с видом ${mark}`;
    const flatTitle = `Διαμέρισμα Καραμπουρνάκι ${mark}`;
    const shown = language === 'ru' ? russian : greek;
    const hidden = language === 'ru' ? greek : russian;
    // A price no other property has, so the search finds exactly these two.
    const price = 5_100_000 + Math.floor(Math.random() * 800_000);
    const place = await placeId(request, token, 'Karabournaki');
    const common = { subTypeObjectTypeId: 1, forSale: true, locationId: place, latitude: 40.5872, longitude: 22.9481, displayCoordinates: true };
    const maisonette = await createObject(request, token, { ...common, objectSubTypeId: 3, title: greek, titleRu: russian, descriptionRu: `Описание ${mark}`, salePrice: price });
    const flat = await createObject(request, token, { ...common, objectSubTypeId: 1, title: flatTitle, salePrice: price + 1 });
    const studioTitle = `Студия у моря ${mark}`;
    const studio = await createObject(request, token, { ...common, objectSubTypeId: 1, titleRu: studioTitle, descriptionRu: `Студия ${mark}`, salePrice: price + 2 });
    const lead = ((await (await request.post('/api/lead/add', { data: {}, headers: auth(token) })).json()) as { id: number }).id;
    for (const o of [maisonette, flat, studio]) {
      const offered = await request.post('/api/lead/addObject', { data: { leadId: lead, objectId: o.id }, headers: auth(token) });
      expect(offered.ok(), await offered.text()).toBeTruthy();
    }

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();

    // The search list.
    await page.goto('/Objects/Search');
    await page.getByTestId('object-search-new').click();
    await page.getByTestId('object-search-forSale').check();
    await page.getByTestId('object-search-priceMin').fill(String(price));
    await page.getByTestId('object-search-priceMax').fill(String(price + 2));
    await page.getByTestId('object-search-submit').click();
    const rows = page.getByTestId('object-search-table-row');
    await expect(rows).toHaveCount(3);
    const row = (ref: string) => rows.filter({ has: page.getByTestId('object-search-ref').getByText(`#${ref}`, { exact: true }) });
    await expect(row(maisonette.referenceNumber)).toContainText(shown);
    await expect(row(maisonette.referenceNumber)).not.toContainText(hidden);
    await expect(row(flat.referenceNumber)).toContainText(flatTitle);
    await expect(row(studio.referenceNumber)).toContainText(studioTitle);

    // The search box in the header.
    await page.getByTestId('global-search').fill(`#${maisonette.referenceNumber}`);
    await expect(page.getByTestId('search-hit').filter({ hasText: `#${maisonette.referenceNumber}` })).toContainText(shown);
    await page.keyboard.press('Escape');

    // The property's card heads with the reader's title; the other one is kept (and editable) among the texts.
    await page.goto(`/Objects/View/${maisonette.id}`);
    await expect(page.getByTestId('object-title')).toHaveText(shown);
    await expect(page.getByTestId('object-texts')).toContainText(hidden);
    await expectAccessible(page, `property ${maisonette.referenceNumber} (${language})`);
    await page.goto(`/Objects/View/${flat.id}`);
    await expect(page.getByTestId('object-title')).toHaveText(flatTitle);
    // Only a Russian title: it heads the card on every screen, said in Russian where the screen is not.
    await page.goto(`/Objects/View/${studio.id}`);
    await expect(page.getByTestId('object-title')).toHaveText(studioTitle);
    if (language === 'ru') await expect(page.getByTestId('object-title')).not.toHaveAttribute('lang', /./);
    else await expect(page.getByTestId('object-title')).toHaveAttribute('lang', 'ru');
    await expectAccessible(page, `property ${studio.referenceNumber} with only a Russian title (${language})`);

    // The lead's offered properties, on a phone too.
    await page.setViewportSize({ width: 412, height: 915 });
    await page.goto(`/Leads/View/${lead}`);
    const offered = page.getByTestId('lead-object');
    await expect(offered).toHaveCount(3);
    await expect(offered.filter({ hasText: `#${maisonette.referenceNumber}` })).toHaveText(`#${maisonette.referenceNumber} · ${shown}`);
    await expect(offered.filter({ hasText: `#${flat.referenceNumber}` })).toHaveText(`#${flat.referenceNumber} · ${flatTitle}`);
    await expect(offered.filter({ hasText: `#${studio.referenceNumber}` })).toHaveText(`#${studio.referenceNumber} · ${studioTitle}`);
    await expectAccessible(page, `lead ${lead} on a phone (${language})`);
    await ctx.close();
  });
}
