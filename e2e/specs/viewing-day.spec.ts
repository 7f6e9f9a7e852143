import { expect, test } from '@playwright/test';
import { agencyToday, apiToken, auth, clientWithLead, createObject, expectAccessible, newEmployee } from '../fixtures.ts';

/**
 * The agent's day on a phone: a viewing they arrange is theirs, it is the first thing their home
 * shows today (time, the client a tap from a call, the property's address), and the viewing says
 * how to reach the client and where each property and its key are.
 */
const PHONE = { width: 412, height: 915 };
/** The agency's today ("YYYY-MM-DD", Europe/Athens). */

const TEXTS = {
  'en-UK': { today: 'Today', quick: 'Quick actions', client: 'Client', call: 'Call +30 694 555 0101', message: 'Send a message to +30 694 555 0101' },
  el: { today: 'Σήμερα', quick: 'Γρήγορες ενέργειες', client: 'Πελάτης', call: 'Κλήση στο +30 694 555 0101', message: 'Μήνυμα στο +30 694 555 0101' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`an agent's viewing of today is theirs, first on their phone's home with the client to call, and shows the address and the key (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const L = TEXTS[language];
    const admin = await apiToken(request);
    const stamp = `${Date.now() % 1000000}${language === 'el' ? 1 : 2}`;
    // The agent, signed in on their phone.
    const email = `day-${stamp}@example.com`;
    const { token: agent, session } = await newEmployee(request, admin, { email, lastName: `Agent${stamp}` });
    // The client with a phone, their lead, and a flat with its address and a key in the office.
    const { leadId: lead } = await clientWithLead(request, agent, `Client${stamp}`);
    const address = `Egnatias ${stamp}`;
    const flat = await createObject(request, admin, { forSale: true, title: `Day flat ${stamp}`, salePrice: 190_000, address });
    const key = await request.post('/api/ObjectKeys/edit', { data: { objectId: flat.id, received: agencyToday(), description: `Blue tag ${stamp}` }, headers: auth(admin) });
    expect(key.ok(), await key.text()).toBeTruthy();
    const time = `05:5${language === 'el' ? 5 : 6}`;
    const res = await request.post('/api/Viewing/update', {
      data: { demandId: lead, dateOfViewing: `${agencyToday()}T${time}:00`, results: [{ objectId: flat.id, result: 1 }] },
      headers: auth(agent),
    });
    expect(res.ok(), await res.text()).toBeTruthy();
    const viewingId = ((await res.json()) as { id: number }).id;

    const ctx = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    await ctx.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
    const page = await ctx.newPage();
    await page.goto('/CRM');
    const card = page.getByTestId('home-today');
    await expect(card.getByRole('heading', { name: L.today })).toBeVisible();
    // Theirs without being assigned by hand: the day shows the agent's own viewings.
    const item = card.getByTestId('home-today-item').filter({ has: page.locator(`a[href="/Viewing/${viewingId}"]`) });
    await expect(item).toHaveCount(1, { timeout: 20_000 });
    await expect(item).toContainText(time);
    await expect(item.getByTestId('home-today-call')).toHaveText(`Client${stamp} Eleni`);
    await expect(item.getByTestId('home-today-call')).toHaveAttribute('href', 'tel:+306945550101');
    await expect(item.getByTestId('home-today-address')).toContainText(address);
    // First on the phone: above the quick actions.
    const quick = page.getByRole('heading', { name: L.quick });
    const above = async () => (await card.boundingBox())!.y < (await quick.boundingBox())!.y;
    expect(await above()).toBe(true);
    await expectAccessible(page, `home on a phone ${language}`);
    // A desktop keeps its order: the quick actions first.
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(above).toBe(false);
    await page.setViewportSize(PHONE);

    await item.locator(`a[href="/Viewing/${viewingId}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/Viewing/${viewingId}$`));
    const who = page.getByTestId('viewing-client');
    await expect(who).toContainText(L.client);
    await expect(who.getByRole('link', { name: L.call })).toHaveAttribute('href', 'tel:+306945550101');
    await expect(who.getByRole('link', { name: L.message })).toHaveAttribute('href', 'sms:+306945550101');
    const row = page.getByTestId('viewing-object');
    await expect(row.getByTestId('viewing-object-address')).toContainText(address);
    await expect(row.getByTestId('viewing-object-key')).toContainText(`Blue tag ${stamp}`);
    // Assigned to who arranged it.
    await expect(page.getByTestId('assignments')).toContainText(`Agent${stamp} Stefanos`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await expectAccessible(page, `viewing on a phone ${language}`);

    // A new viewing names its agent before it is saved: the one making it, whom another can replace.
    await page.goto(`/Viewing/Add?demandId=${lead}`);
    await expect(page.getByTestId('viewing-agent-picker')).toHaveValue(`Agent${stamp} Stefanos`);
    await expectAccessible(page, `new viewing on a phone ${language}`);
    await ctx.close();
  });
}
