import { expect, test, type Page } from '@playwright/test';
import { apiToken, shortlistDemoLead, createObject, expectAccessible, signIn, signedIn } from '../fixtures.ts';

/**
 * A shortlist's loose ends: a property taken off the market shows as no longer available; "Send
 * again" makes a new link and withdraws the old; a dead link keeps its 404/410 where the app's
 * service worker is installed.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });


const TEXT = {
  'en-UK': { refused: "This property is no longer available, so it can't be answered.", gone: 'No longer available', again: 'Send again', withdrawn: 'Link withdrawn', heading: 'Properties selected for you', invalid: 'Link not found' },
  el: { refused: 'Αυτό το ακίνητο δεν είναι πλέον διαθέσιμο.', gone: 'Δεν είναι πλέον διαθέσιμο', again: 'Επαναποστολή', withdrawn: 'Ο σύνδεσμος ακυρώθηκε', heading: 'Ακίνητα που επιλέξαμε για εσάς', invalid: 'Ο σύνδεσμος δεν βρέθηκε' },
} as const;

async function phonePage(browser: import('@playwright/test').Browser, baseURL: string, language: string): Promise<Page> {
  const phone = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true, baseURL });
  await phone.addCookies([{ name: 'language', value: language, url: baseURL }]);
  return phone.newPage();
}

for (const [n, language] of (['en-UK', 'el'] as const).entries()) {
  test(`a property taken off the market shows as no longer available; Send again gives a new link and withdraws the old (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(150_000);
    const words = TEXT[language];
    const token = await apiToken(request);
    const lead = await shortlistDemoLead(request, token, n + 4);
    const first = lead.objects[0]!;
    // A property of our own on the list, then taken off the market.
    const gone = await createObject(request, token, { forRent: true, forSale: false, rentPrice: 650, subTypeObjectTypeId: 1, objectSubTypeId: 1, area: 55, active: true, title: `Gone ${language} ${Date.now() % 100000}` });
    expect((await request.post('/api/lead/addObject', { data: { leadId: lead.id, objectId: gone.id }, headers: auth(token) })).ok()).toBeTruthy();
    const made = await request.post(`/api/lead/${lead.id}/shortlist`, { data: { objectIds: [first.objectId, gone.id], channel: 'link' }, headers: auth(token) });
    expect(made.ok(), await made.text()).toBeTruthy();
    const oldPath = new URL(((await made.json()) as { url: string }).url).pathname;

    // The client has the page open; meanwhile the office takes the property off the market.
    const client = await phonePage(browser, baseURL!, language);
    await client.goto(oldPath);
    await expect(client.getByRole('heading', { level: 1 })).toHaveText(words.heading);
    const cards = client.getByTestId('shortlist-property');
    await expect(cards).toHaveCount(2);
    await expect(cards.nth(1).getByTestId('shortlist-price')).toBeVisible();
    const view = (await (await request.get(`/api/object/view/${gone.id}`, { headers: auth(token) })).json()) as { version: number };
    const off = await request.post('/api/object/update', { data: { id: gone.id, version: view.version, active: false }, headers: auth(token) });
    expect(off.ok(), await off.text()).toBeTruthy();
    // The client's tap is refused with the reason, and the card then shows it as no longer available:
    // no price, no answer buttons; the other card as before.
    await cards.nth(1).getByTestId('shortlist-interested').click();
    await expect(cards.nth(1).getByRole('alert')).toHaveText(words.refused);
    const goneCard = cards.filter({ has: client.getByTestId('shortlist-unavailable') });
    await expect(goneCard).toHaveCount(1);
    await expect(goneCard.getByTestId('shortlist-unavailable')).toHaveText(words.gone);
    await expect(goneCard).toHaveAttribute('data-available', 'false');
    await expect(goneCard.getByTestId('shortlist-price')).toHaveCount(0);
    await expect(goneCard.getByTestId('shortlist-interested')).toHaveCount(0);
    await expect(cards.first().getByTestId('shortlist-interested')).toBeVisible();
    await expectAccessible(client, 'shortlist page with a property no longer available');
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
    await client.screenshot({ path: test.info().outputPath(`shortlist-gone-412-${language}.png`), fullPage: true });
    await client.setViewportSize({ width: 1280, height: 900 });
    await client.screenshot({ path: test.info().outputPath(`shortlist-gone-1280-${language}.png`), fullPage: true });
    await client.setViewportSize({ width: 412, height: 915 });
    await cards.first().getByTestId('shortlist-interested').click();
    await expect(cards.first()).toHaveAttribute('data-answer', 'interested');

    // The agent sends the list again from the lead's page, after a confirmation.
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Leads/View/${lead.id}`);
    const sent = page.getByTestId('lead-shortlists').getByTestId('shortlist-sent').first();
    await expect(sent.getByTestId('shortlist-again')).toHaveText(words.again);
    await sent.getByTestId('shortlist-again').click();
    const confirm = page.getByRole('dialog');
    await expect(confirm.getByTestId('shortlist-again-confirm')).toHaveText(words.again);
    await page.screenshot({ path: test.info().outputPath(`shortlist-again-confirm-${language}.png`) });
    await expectAccessible(page, 'send again confirmation');
    await confirm.getByTestId('shortlist-again-confirm').click();
    const link = await page.getByTestId('shortlist-again-dialog').getByTestId('shortlist-link').inputValue();
    expect(link).toMatch(/\/Shortlist\/[A-Za-z0-9_-]{43}$/);
    expect(new URL(link).pathname).not.toBe(oldPath);
    await expectAccessible(page, 'sent again');
    await page.keyboard.press('Escape');
    // The newest sending first; the one sent again now reads withdrawn.
    const list = page.getByTestId('lead-shortlists').getByTestId('shortlist-sent');
    await expect(list.nth(1).getByTestId('shortlist-withdrawn')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`shortlist-sent-again-1280-${language}.png`), fullPage: true });
    await ctx.close();

    // The old link is withdrawn; the new one has the property still to be had, with the answer given.
    await client.reload();
    await expect(client.getByRole('heading', { level: 1 })).toHaveText(words.withdrawn);
    await client.goto(new URL(link).pathname);
    await expect(client.getByRole('heading', { level: 1 })).toHaveText(words.heading);
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toHaveAttribute('data-answer', 'interested');
    await expectAccessible(client, 'shortlist page sent again');
    await client.context().close();
  });
}

test.describe('a shortlist link where the service worker is installed', () => {
  test.use({ serviceWorkers: 'allow' });

  // What the client reads on these pages is checked in both languages above and in shortlist.spec.ts;
  // this is about who answers the address (the same in every language).
  {
    const language = 'en-UK';
    test('answers a dead link with its 404/410 and its page, and a working link with the page', async ({ browser, request, baseURL }) => {
      test.setTimeout(120_000);
      const words = TEXT[language];
      const token = await apiToken(request);
      const ctx = await browser.newContext({ baseURL, serviceWorkers: 'allow' });
      await ctx.addCookies([{ name: 'language', value: language, url: baseURL! }]);
      const page = await ctx.newPage();
      // The app is installed: the worker controls the page and answers other screens from its cache.
      await signIn(page);
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 15000 }).toBe('activated');
      const screen = await page.goto('/Owners');
      expect(screen?.fromServiceWorker()).toBe(true);

      // An unknown link: the server's 404, and the page says so.
      const unknown = await page.goto(`/Shortlist/${'y'.repeat(43)}`);
      expect(unknown?.status()).toBe(404);
      await expect(page.getByTestId('shortlist-error')).toHaveAttribute('data-status', '404');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.invalid);
      await expectAccessible(page, 'unknown shortlist link, service worker installed');

      // A withdrawn link: 410. A working one: 200 with its preview title.
      const lead = await shortlistDemoLead(request, token, 8);
      const made = await request.post(`/api/lead/${lead.id}/shortlist`, { data: { objectIds: [lead.objects[0]!.objectId], channel: 'link' }, headers: auth(token) });
      const path = new URL(((await made.json()) as { url: string }).url).pathname;
      const working = await page.goto(path);
      expect(working?.status()).toBe(200);
      await expect(page.getByTestId('shortlist-property')).toHaveCount(1);
      const sl = (await (await request.get(`/api/lead/${lead.id}/shortlists`, { headers: auth(token) })).json()) as { items: { id: number }[] };
      expect((await request.post(`/api/lead/${lead.id}/shortlist/${sl.items[0]!.id}/withdraw`, { headers: auth(token) })).ok()).toBeTruthy();
      const withdrawn = await page.goto(path);
      expect(withdrawn?.status()).toBe(410);
      await expect(page.getByTestId('shortlist-error')).toHaveAttribute('data-status', '410');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.withdrawn);
      await ctx.close();
    });
  }
});
