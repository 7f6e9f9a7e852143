import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, createObject, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * What clients said at viewings, where the office looks for it: the Viewings list shows each
 * property's comment beside its reference (one line at 1280 px, whole in its title; a few lines in a
 * phone's card), its filter finds viewings by words of the comments whatever their accents and case
 * and remembers them (the route's loader and the screen ask once, for the same thing), and a lead's
 * Viewings block shows how many there are and loads the ones past the first 20.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const TEXTS = {
  'en-UK': {
    search: 'Words in the comments',
    column: 'Properties and comments',
    dark: (mark: string) => `Too dark, it faces the light well. ${mark}`,
    long: 'Liked the garden and the big kitchen very much, but wants to see it again with his wife on Saturday before he makes an offer',
    typed: (mark: string) => `  LIGHT   ${mark.toUpperCase()} `,
    found: 'light',
    showMore: (shown: number, total: number) => `Show more (${shown} of ${total} shown)`,
    count: (n: number) => `${n} viewings`,
  },
  el: {
    search: 'Λέξεις στα σχόλια',
    column: 'Ακίνητα και σχόλια',
    dark: (mark: string) => `Πολύ σκοτεινό, βλέπει σε φωταγωγό. ${mark}`,
    long: 'Του άρεσε πολύ ο κήπος και η μεγάλη κουζίνα, αλλά θέλει να το ξαναδεί με τη γυναίκα του το Σάββατο πριν κάνει προσφορά',
    typed: (mark: string) => `  ΦΩΤΑΓΩΓΟ   ${mark.toUpperCase()} `,
    found: 'φωταγωγό',
    showMore: (shown: number, total: number) => `Περισσότερες (φαίνονται ${shown} από ${total})`,
    count: (n: number) => `${n} υποδείξεις`,
  },
} as const;

async function post<T>(request: APIRequestContext, token: string, url: string, data: unknown): Promise<T> {
  const res = await request.post(url, { data, headers: auth(token) });
  expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

/** The Viewing/search requests the page sends from now on, with what each asked for. */
function watchSearches(page: Page) {
  const asked: Record<string, unknown>[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/Viewing/search') asked.push(r.postDataJSON() as Record<string, unknown>);
  });
  return asked;
}

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const language of ['en-UK', 'el'] as const) {
  test(`the Viewings list shows what the client said of each property and finds it by its words, at 1280 px and on a phone; the lead shows all its viewings (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(180_000);
    const L = TEXTS[language];
    const token = await apiToken(request);
    const mark = `Vc${language === 'el' ? 'el' : 'en'}${Date.now() % 1000000}`;
    const client = await post<{ id: number }>(request, token, '/api/account/add', { firstName: 'Άννα', lastName: mark, isClient: true });
    const flat = { forSale: true, subTypeObjectTypeId: 1, objectSubTypeId: 1, area: 80, bedrooms: 2, salePrice: 210000 };
    const dark = await createObject(request, token, { ...flat, title: `Dark flat ${mark}` });
    const garden = await createObject(request, token, { ...flat, title: `Garden flat ${mark}` });
    const lead = await post<{ id: number }>(request, token, '/api/lead/add', { accountId: client.id });
    const said = { dark: L.dark(mark), long: L.long };
    const viewing = await post<{ id: number }>(request, token, '/api/Viewing/update', {
      demandId: lead.id,
      dateOfViewing: '2031-03-14T18:00:00',
      results: [
        { objectId: dark.id, result: 5, comment: said.dark },
        { objectId: garden.id, result: 3, comment: said.long },
      ],
    });

    // At 1280 px: typed words (another case, no accents, extra spaces) find the viewing.
    const desk = await signedIn(browser, baseURL!, token, language, { viewport: { width: 1280, height: 900 } });
    const page = await desk.newPage();
    const asked = watchSearches(page);
    await page.goto('/Viewing');
    await expect(page.locator('[data-testid="viewings-table"][data-loading="false"]')).toBeVisible();
    await page.getByRole('textbox', { name: L.search }).fill(L.typed(mark));
    const rows = page.getByTestId('viewings-table-row');
    await expect(page.getByTestId('viewings-table')).toHaveAttribute('data-total', '1');
    await expect(rows).toHaveCount(1);
    await expect(rows.first().getByTestId('viewing-link')).toHaveText(String(viewing.id));
    await expect(page.getByRole('columnheader', { name: L.column })).toBeVisible();
    const lines = rows.first().getByTestId('viewing-list-object');
    await expect(lines).toHaveCount(2);
    await expect(lines.nth(0).getByRole('link')).toHaveText(`#${dark.referenceNumber}`);
    await expect(lines.nth(1).getByRole('link')).toHaveText(`#${garden.referenceNumber}`);
    // The words found are marked as the comment spells them; the comment is whole in its title.
    const darkSaid = lines.nth(0).getByTestId('viewing-list-comment');
    await expect(darkSaid.locator('mark')).toHaveText([L.found, mark]);
    await expect(darkSaid).toHaveAttribute('title', said.dark);
    // The long comment takes one line, cut at its end, and is whole in its title (and for screen readers).
    const longSaid = lines.nth(1).getByTestId('viewing-list-comment');
    await expect(longSaid).toHaveAttribute('title', said.long);
    await expect(longSaid).toHaveText(`“${said.long}”`);
    const cut = await longSaid.evaluate((el) => ({ lines: el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight), cut: el.scrollWidth > el.clientWidth }));
    expect(cut.lines).toBeLessThan(1.5);
    expect(cut.cut).toBe(true);
    expect(await noSideScroll(page)).toBe(true);
    expect(await page.locator('.crm-table-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`viewings-comments-1280-${language}.png`) });
    await expectAccessible(page, `viewings list searched by a comment at 1280 px ${language}`);

    // Reloaded: the words are still in the filter, and the list is asked for once, with them.
    asked.length = 0;
    await page.reload();
    await expect(page.getByRole('textbox', { name: L.search })).toHaveValue(L.typed(mark));
    await expect(rows).toHaveCount(1);
    await expect(page.locator('[data-testid="viewings-table"][data-loading="false"]')).toBeVisible();
    expect(asked.map((a) => a.comment)).toEqual([L.typed(mark).trim().replace(/\s+/g, ' ')]);

    // On a 412 px phone, with the filter the office left: the card shows the comments across its width.
    const phone = await signedIn(browser, baseURL!, token, language, { viewport: { width: 412, height: 915 }, isMobile: true });
    await phone.addCookies((await desk.cookies()).filter((c) => c.name === 'ViewingList.filter'));
    const mobile = await phone.newPage();
    const mobileAsked = watchSearches(mobile);
    await mobile.goto('/Viewing');
    const cards = mobile.getByTestId('viewings-table-row');
    await expect(cards).toHaveCount(1);
    // The filters fold away on a phone, marked as on.
    await mobile.getByTestId('viewings-filter-toggle').click();
    await expect(mobile.getByRole('textbox', { name: L.search })).toHaveValue(L.typed(mark));
    const card = cards.first();
    await expect(card.getByTestId('viewing-list-comment')).toHaveCount(2);
    const longCard = card.getByTestId('viewing-list-comment').nth(1);
    const box = (await longCard.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(412);
    expect(box.width).toBeGreaterThan(250);
    const shown = await longCard.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
    expect(shown).toBeGreaterThanOrEqual(2);
    expect(shown).toBeLessThanOrEqual(3);
    expect(await noSideScroll(mobile)).toBe(true);
    await card.scrollIntoViewIfNeeded();
    await mobile.screenshot({ path: test.info().outputPath(`viewings-comments-412-${language}.png`), fullPage: true });
    await expectAccessible(mobile, `viewings list searched by a comment on a phone ${language}`);
    expect(mobileAsked).toHaveLength(1);

    // Words said of two different properties are no one comment: nothing found, and the list says so.
    await mobile.getByRole('textbox', { name: L.search }).fill(`${L.found} ${language === 'el' ? 'κήπος' : 'garden'} ${mark}`);
    await expect(mobile.getByTestId('viewings-table-empty')).toBeVisible();
    await mobile.getByRole('textbox', { name: L.search }).fill('');
    await expect(mobile.getByTestId('viewings-table')).not.toHaveAttribute('data-total', '1');

    // The lead with 23 viewings: the newest 20, the total, and the rest on asking.
    for (let day = 1; day <= 22; day++) {
      await post(request, token, '/api/Viewing/update', { demandId: lead.id, dateOfViewing: `2030-01-${String(day).padStart(2, '0')}T10:00:00`, results: [{ objectId: dark.id, result: 1 }] });
    }
    await mobile.goto(`/Leads/View/${lead.id}`);
    const block = mobile.getByTestId('lead-viewings');
    await expect(block.getByTestId('lead-viewing')).toHaveCount(20);
    await expect(block.getByTestId('lead-viewings-count')).toHaveText('23');
    await expect(block.getByText(L.count(23))).toBeAttached();
    // The newest first: the viewing with the comments (2031) heads the list.
    await expect(block.getByTestId('lead-viewing-link').first()).toContainText(`#${viewing.id} · `);
    await expect(block.getByTestId('lead-viewing-comment').first()).toHaveText(`“${said.dark}”`);
    await expectAccessible(mobile, `a lead's 23 viewings on a phone ${language}`);
    await block.getByRole('button', { name: L.showMore(20, 23) }).click();
    await expect(block.getByTestId('lead-viewing')).toHaveCount(23);
    await expect(block.getByTestId('lead-viewings-more')).toHaveCount(0);
    await expect(block.getByTestId('lead-viewing-link').last()).toContainText('01/01/2030');
    expect(await noSideScroll(mobile)).toBe(true);
    await desk.close();
    await phone.close();
  });
}

test("someone else sets a property's result while I type a comment on another: both are kept, row by row", async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `Rows${Date.now() % 1000000}`;
  const client = await post<{ id: number }>(request, token, '/api/account/add', { firstName: 'Eleni', lastName: mark, isClient: true });
  const flat = { forSale: true, subTypeObjectTypeId: 1, objectSubTypeId: 1, area: 80, bedrooms: 2, salePrice: 210000 };
  const first = await createObject(request, token, { ...flat, title: `First flat ${mark}` });
  const second = await createObject(request, token, { ...flat, title: `Second flat ${mark}` });
  const lead = await post<{ id: number }>(request, token, '/api/lead/add', { accountId: client.id });
  const viewing = await post<{ id: number; version: number }>(request, token, '/api/Viewing/update', {
    demandId: lead.id,
    dateOfViewing: '2031-04-10T11:00:00',
    results: [
      { objectId: first.id, result: null },
      { objectId: second.id, result: null },
    ],
  });
  const ctx = await signedIn(browser, baseURL!, token, 'en-UK');
  const page = await ctx.newPage();
  await page.goto(`/Viewing/Edit/${viewing.id}`);
  const rows = page.getByTestId('viewing-object');
  await expect(rows).toHaveCount(2);
  await rows.filter({ hasText: first.referenceNumber }).getByTestId('viewing-object-comment').fill('Too dark for her');
  // A colleague records the second property's result meanwhile.
  await post(request, token, '/api/Viewing/update', {
    id: viewing.id,
    version: viewing.version,
    demandId: lead.id,
    dateOfViewing: '2031-04-10T11:00:00',
    results: [
      { objectId: first.id, result: null },
      { objectId: second.id, result: 2 },
    ],
  });
  await page.getByTestId('viewing-save').click();
  await expect(page.getByTestId('banner')).toHaveAttribute('data-type', 'warning');
  await expect(rows.filter({ hasText: first.referenceNumber }).getByTestId('viewing-object-comment')).toHaveValue('Too dark for her');
  await page.getByTestId('viewing-save').click();
  await expect(page).toHaveURL(new RegExp(`/Viewing/${viewing.id}$`));
  const stored = (await (await request.get(`/api/Viewing/edit/${viewing.id}`, { headers: auth(token) })).json()) as { results: { objectId: number; result: number | null; comment: string | null }[] };
  expect(stored.results.map((r) => [r.objectId, r.result, r.comment ?? ''])).toEqual([
    [first.id, null, 'Too dark for her'],
    [second.id, 2, ''],
  ]);
  await ctx.close();
});
