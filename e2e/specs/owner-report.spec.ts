import { expect, test } from '@playwright/test';
import { apiToken, createObject, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * The owner's report (issue 47, decision 087): on a flat under an exclusive mandate, the agent shares
 * a viewing's comment with the owner and makes the report link; the owner opens it on a phone without
 * signing in and sees the viewing with the shared comment, never the client's name nor the comment
 * not shared; the link revoked, the page says so.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const unique = (s: string) => `${s}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** The agency's day (Europe/Athens) moved by some days, as YYYY-MM-DD. */
function day(days = 0) {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Athens' }).format(new Date()).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const TEXT = {
  'en-UK': { culture: 'en', heading: 'Report on your property', aClient: 'A client', liked: 'Liked it', revoked: 'Link withdrawn', share: 'Show to the owner' },
  el: { culture: 'el', heading: 'Αναφορά για το ακίνητό σας', aClient: 'Ενδιαφερόμενος', liked: 'Του άρεσε', revoked: 'Ο σύνδεσμος ακυρώθηκε', share: 'Εμφάνιση στον ιδιοκτήτη' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`the owner opens the report link and sees a viewing with the shared comment (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(150_000);
    const say = TEXT[language];
    const token = await apiToken(request);
    const flat = await createObject(request, token, { area: 74, forSale: true, salePrice: 165000 });
    const owner = await request.post('/api/account/add', { data: { lastName: unique('Ιδιοκτήτης'), firstName: 'Σοφία', isOwner: true, email: `${unique('owner')}@example.gr`, language: say.culture }, headers: auth(token) });
    expect(owner.ok(), await owner.text()).toBeTruthy();
    const mandate = await request.post('/api/Mandate/update', {
      data: { objectId: flat.id, kind: 'exclusive', startDate: day(-20), endDate: day(100), owners: [{ accountId: (await owner.json()).id }] },
      headers: auth(token),
    });
    expect(mandate.ok(), await mandate.text()).toBeTruthy();
    const clientName = unique('Πελάτισσα');
    const client = await request.post('/api/account/add', { data: { lastName: clientName, firstName: 'Μαρία', isClient: true, phone: '6977001122' }, headers: auth(token) });
    const lead = await request.post('/api/lead/add', { data: { accountId: (await client.json()).id }, headers: auth(token) });
    const leadId = (await lead.json()).id as number;
    await request.post('/api/lead/addObject', { data: { leadId, objectId: flat.id }, headers: auth(token) });
    const shared = unique('Bright living room, kitchen needs work ');
    const hidden = unique('Client may offer less ');
    for (const [date, comment] of [[`${day(-4)}T11:00:00`, shared], [`${day(-2)}T18:30:00`, hidden]] as const) {
      const v = await request.post('/api/Viewing/update', { data: { demandId: leadId, dateOfViewing: date, results: [{ objectId: flat.id, result: 2, comment }] }, headers: auth(token) });
      expect(v.ok(), await v.text()).toBeTruthy();
    }

    // The agent, on the property's page: shares one comment, makes the link.
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Objects/View/${flat.id}`);
    const card = page.getByTestId('owner-report');
    // Each viewing's comment on the property, by its words (the comments hold no special characters).
    const box = (comment: string) => card.getByRole('checkbox', { name: new RegExp(comment) });
    await box(shared).click();
    await expect(box(shared)).toBeChecked();
    await expect(box(hidden)).not.toBeChecked();
    await card.getByTestId('owner-report-make').click();
    const url = await card.getByTestId('owner-report-url').inputValue();
    expect(url).toMatch(/\/OwnerReport\/[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page, `property with the owner's report card ${language}`);

    // The owner: a fresh phone, no session, in the test's language.
    const phone = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true, baseURL });
    await phone.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    const ownerPage = await phone.newPage();
    const opened = await ownerPage.goto(new URL(url).pathname);
    expect(opened?.headers()['x-robots-tag']).toContain('noindex');
    await expect(ownerPage.getByRole('heading', { level: 1 })).toHaveText(say.heading);
    await expect(ownerPage.getByTestId('owner-report-property')).toContainText(`#${flat.referenceNumber}`);
    const viewings = ownerPage.getByTestId('owner-report-viewing');
    await expect(viewings).toHaveCount(2);
    await expect(ownerPage.getByTestId('owner-report-comment')).toHaveText(`«${shared}»`);
    await expect(viewings.first()).toContainText(say.aClient);
    await expect(viewings.first()).toContainText(say.liked);
    const body = await ownerPage.locator('body').innerText();
    expect(body).not.toContain(clientName);
    expect(body).not.toContain(hidden);
    expect(body).not.toContain('6977001122');
    await expectAccessible(ownerPage, `owner's report on a phone ${language}`);
    expect(await ownerPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);

    // Revoked by the agent: the owner's page says so, and shows nothing of the property.
    await card.getByTestId('owner-report-revoke').click();
    const revoked = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/revoke'));
    await page.getByTestId('owner-report-revoke-confirm').click();
    expect((await revoked).ok()).toBeTruthy();
    await expect(card.getByTestId('owner-report-revoke')).toHaveCount(0);
    await ownerPage.reload();
    await expect(ownerPage.getByRole('heading', { level: 1 })).toHaveText(say.revoked);
    await expect(ownerPage.getByTestId('owner-report-viewing')).toHaveCount(0);
    await expectAccessible(ownerPage, `owner's report, revoked link ${language}`);
    await phone.close();
    await ctx.close();
  });
}
