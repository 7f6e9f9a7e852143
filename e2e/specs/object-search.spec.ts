import { expect, test, type Page } from '@playwright/test';
import { apiToken, createObject, expectAccessible, placeId, signedIn, openAsAdmin, openSignedIn } from '../fixtures.ts';
import { downloadWorkbook } from '../pages/list.ts';

/**
 * The property search: the form, the results as a list and on the map (markers work whether or not
 * the map's tiles load: the test machine has no internet), the filter kept in a cookie.
 */

/** A price no other property in the database has, so the search finds exactly ours. */
const uniquePrice = () => 3_000_000 + Math.floor(Math.random() * 900_000);

async function searchFor(page: Page, price: number, place: string) {
  await page.getByTestId('object-search-new').click();
  await page.getByTestId('object-search-forSale').check();
  await page.getByTestId('object-search-location').fill(place);
  await page.getByRole('option').first().click();
  await page.getByTestId('object-search-priceMin').fill(String(price - 1));
  await page.getByTestId('object-search-priceMax').fill(String(price + 1));
  await page.getByTestId('object-search-submit').click();
}

for (const language of ['en-UK', 'el'] as const) {
  test(`finds a property as a list and on the map, and remembers the search (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const token = await apiToken(request);
    const price = uniquePrice();
    const karabournaki = await placeId(request, token, 'Karabournaki');
    const title = language === 'el' ? 'Διαμέρισμα με θέα στη θάλασσα' : 'Sea-view flat';
    const found = await createObject(request, token, {
      title,
      subTypeObjectTypeId: 1,
      objectSubTypeId: 1,
      forSale: true,
      salePrice: price,
      area: 96,
      locationId: karabournaki,
      latitude: 40.5872,
      longitude: 22.9481,
      displayCoordinates: true,
    });
    // Same price, but for rent only: the "Sale" box leaves it out.
    await createObject(request, token, { forRent: true, rentPrice: price, locationId: karabournaki, latitude: 40.59, longitude: 22.95, displayCoordinates: true });

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Objects/Search');
    await expect(page.locator('main h1')).toHaveCount(1);
    await searchFor(page, price, 'Καραμπουρν');

    // As a list: our property, its link, area and sale price.
    const rows = page.getByTestId('object-search-table-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByTestId('object-search-ref')).toHaveText(`#${found.referenceNumber}`);
    await expect(rows.first()).toContainText('96');
    await expect(rows.first()).toContainText(title);
    await expect(page.getByTestId('object-search-count')).toHaveText('1');
    // The same one property in Properties.xlsx, with its price as a number.
    const ws = (await downloadWorkbook(page, page.getByTestId('object-search-download'), 'Properties.xlsx')).worksheets[0]!;
    expect(ws.getCell('A1').value).toBe(language === 'el' ? '1 ακίνητο' : '1 property');
    expect(ws.getRow(6).getCell(1).value).toBe(`#${found.referenceNumber}`);
    expect(ws.getRow(6).values as unknown[]).toContain(price);
    expect(ws.getRow(7).getCell(1).value ?? null).toBeNull();

    // On the map: one marker, reached by the keyboard, its popup links to the property.
    await page.getByTestId('object-search-output').getByText(language === 'el' ? 'Χάρτης' : 'Map').click();
    const map = page.getByTestId('object-search-map');
    await expect(map).toBeVisible();
    const markers = map.locator('.crm-map-pin-result');
    await expect(markers).toHaveCount(1);
    await expect(markers.first()).toBeVisible();
    await expect(markers.first()).toHaveAttribute('aria-label', new RegExp(`#${found.referenceNumber}`));
    await expect(page.getByTestId('object-search-map-list')).toContainText(`#${found.referenceNumber}`);
    await markers.first().focus();
    await page.keyboard.press('Enter');
    const link = page.getByTestId('map-popup-link');
    await expect(link).toHaveText(`#${found.referenceNumber}`);
    await expect(link).toBeFocused();

    // The search survives a reload (cookie, ten years): same form, same output, same marker.
    await page.reload();
    await expect(page.getByTestId('object-search-forSale')).toBeChecked();
    await expect(page.getByTestId('object-search-priceMax')).toHaveValue(new RegExp(String(price + 1).replace(/\B(?=(\d{3})+(?!\d))/g, '\\s?')));
    await expect(page.getByTestId('object-search-location')).toHaveValue(/Karabournaki|Καραμπουρνάκι/);
    await expect(page.getByTestId('object-search-map').locator('.crm-map-pin-result')).toHaveCount(1);
    const cookie = (await ctx.cookies()).find((c) => c.name === 'ObjectSearch.filter');
    expect(cookie, 'the search is kept in a cookie').toBeTruthy();
    // Ten years asked; Chromium keeps a cookie at most 400 days (renewed with every search).
    expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 399 * 24 * 3600 * 1000);
    expect(JSON.parse(decodeURIComponent(cookie!.value))).toMatchObject({ forSale: true, locationId: karabournaki, priceMin: price - 1, priceMax: price + 1, showOnMap: true, currentPage: 1 });

    // The marker opens the property.
    await expect(async () => {
      await page.getByTestId('object-search-map').locator('.crm-map-pin-result').first().click();
      await expect(page.getByTestId('map-popup-link')).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 15_000 });
    await page.getByTestId('map-popup-link').click();
    await expect(page).toHaveURL(new RegExp(`/Objects/View/${found.id}$`));

    // New search clears the form and shows every property again.
    await page.goto('/Objects/Search');
    await page.getByTestId('object-search-new').click();
    await expect(page.getByTestId('object-search-forSale')).not.toBeChecked();
    await expect(page.getByTestId('object-search-priceMax')).toHaveValue('');
    await ctx.close();
  });
}

test('the Realties menu leads to the property search and to the keys', async ({ browser, request, baseURL }) => {
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'en-UK', '/CRM');
  await page.getByTestId('menu-nav.realties').click();
  await page.getByRole('menuitem', { name: 'Property search' }).click();
  await expect(page).toHaveURL(/\/Objects\/Search$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Property search' })).toBeVisible();
  await page.getByTestId('menu-nav.realties').click();
  await page.getByRole('menuitem', { name: 'Keys' }).click();
  await expect(page).toHaveURL(/\/ObjectKeys$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Keys' })).toBeVisible();
  await ctx.close();
});

for (const language of ['en-UK', 'el'] as const) {
  test(`the search filters by bedrooms, and a municipality and its town of the same name are offered once (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const price = uniquePrice();
    const three = await createObject(request, token, { forSale: true, salePrice: price, bedrooms: 3 });
    await createObject(request, token, { forSale: true, salePrice: price, bedrooms: 1 });
    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Objects/Search');
    await page.getByTestId('object-search-new').click();
    await page.getByTestId('object-search-location').fill(language === 'el' ? 'Καλαμαρ' : 'Kalamar');
    const town = language === 'el' ? 'Καλαμαριά, Θεσσαλονίκη' : 'Kalamaria, Thessaloniki';
    await expect(page.getByRole('option', { name: town, exact: true })).toHaveCount(1);
    await expect(page.getByRole('option', { name: /^(Kalamaria|Καλαμαριά) \(/ })).toHaveCount(0);
    await page.getByTestId('object-search-location').fill('');
    await page.getByTestId('object-search-priceMin').fill(String(price));
    await page.getByTestId('object-search-priceMax').fill(String(price));
    await page.getByTestId('object-search-bedrooms').click();
    await page.getByRole('option', { name: '3+', exact: true }).click();
    await page.getByTestId('object-search-submit').click();
    const rows = page.getByTestId('object-search-table-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByTestId('object-search-ref')).toHaveText(`#${three.referenceNumber}`);
    await expectAccessible(page, `object search by bedrooms ${language}`);
    await ctx.close();
  });
}

test('a lower limit above the upper one is refused in the form', async ({ browser, request, baseURL }) => {
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'en-UK', '/Objects/Search');
  await page.getByTestId('object-search-new').click();
  await page.getByTestId('object-search-areaMin').fill('120');
  await page.getByTestId('object-search-areaMax').fill('80');
  await expect(page.getByText('The lower limit must not be higher than the upper one.')).toBeVisible();
  await expect(page.getByTestId('object-search-submit')).toBeDisabled();
  await ctx.close();
});

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const) {
  for (const language of ['en-UK', 'el'] as const) {
    test(`the property search passes axe as a list and as a map (${size.name}, ${language})`, async ({ browser, request, baseURL }) => {
      test.setTimeout(90_000);
      const token = await apiToken(request);
      const price = uniquePrice();
      await createObject(request, token, { title: 'Axe flat', forSale: true, salePrice: price, area: 70, latitude: 40.6, longitude: 22.96, displayCoordinates: true });
      const ctx = await signedIn(browser, baseURL!, token, language, { viewport: size.viewport, isMobile: size.isMobile });
      await ctx.addCookies([
        {
          name: 'ObjectSearch.filter',
          value: encodeURIComponent(JSON.stringify({ forSale: true, priceMin: price, priceMax: price, showOnMap: false, perPage: 20, currentPage: 1 })),
          url: baseURL!,
        },
      ]);
      const page = await ctx.newPage();
      await page.goto('/Objects/Search');
      await expect(page.getByTestId('object-search-table-row')).toHaveCount(1);
      await expectAccessible(page, `object search list ${size.name} ${language}`);
      await page.getByTestId('object-search-output').getByText(language === 'el' ? 'Χάρτης' : 'Map').click();
      await expect(page.getByTestId('object-search-map').locator('.crm-map-pin-result')).toHaveCount(1);
      await expectAccessible(page, `object search map ${size.name} ${language}`);
      await ctx.close();
    });
  }
}

for (const [language, floor, bedrooms] of [['en-UK', 'Floor', 'Bedrooms'], ['el', 'Όροφος', 'Υπνοδωμάτια']] as const) {
  test(`any field of a property can be a column of the search list, kept across a reload (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const price = uniquePrice();
    const karabournaki = await placeId(request, token, 'Karabournaki');
    await createObject(request, token, { subTypeObjectTypeId: 1, objectSubTypeId: 1, forSale: true, salePrice: price, floor: 3, bedrooms: 4, locationId: karabournaki });
    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Objects/Search');
    await searchFor(page, price, 'Καραμπουρν');
    const rows = page.getByTestId('object-search-table-row');
    await expect(rows).toHaveCount(1);

    // Columns: the list's own, then every other field of a property, found by typing a part of its name.
    await page.getByTestId('object-search-columns').click();
    await page.getByTestId('object-search-columns-find').fill(floor.slice(0, 3));
    await expect(page.getByTestId('object-search-more-bedrooms')).toHaveCount(0);
    await page.getByTestId('object-search-more-floor').check();
    await page.getByTestId('object-search-columns-find').fill(bedrooms.slice(0, 4));
    await page.getByTestId('object-search-more-bedrooms').check();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    const table = page.getByTestId('object-search-table');
    await expect(table.getByRole('columnheader', { name: floor })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: bedrooms })).toBeVisible();
    await expect(rows.first().locator('td[data-label="' + floor + '"]')).toHaveText('3');
    await expect(rows.first().locator('td[data-label="' + bedrooms + '"]')).toHaveText('4');

    // Kept in a cookie: still there after a reload; taken off again from the same menu.
    await page.reload();
    await expect(rows.first().locator('td[data-label="' + floor + '"]')).toHaveText('3');
    await page.getByTestId('object-search-columns').click();
    await page.getByTestId('object-search-more-floor').uncheck();
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader', { name: floor })).toHaveCount(0);
    await expect(rows.first().locator('td[data-label="' + bedrooms + '"]')).toHaveText('4');
    await ctx.close();
  });
}
