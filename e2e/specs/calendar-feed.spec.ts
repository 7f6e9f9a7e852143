import { expect, test } from '@playwright/test';
import { agencyDay, apiToken, auth, clientWithLead, createObject, expectAccessible, newEmployee } from '../fixtures.ts';

/**
 * An agent's calendar on their phone (issue 46, decision 081): from the user menu they make their
 * calendar address, see it once with its QR code, and the address (fetched as a phone's calendar
 * would, no sign-in) holds the viewing they arranged for tomorrow; revoked, it answers 404.
 */

const TEXTS = {
  'en-UK': { menu: 'Calendar on your phone', create: 'Create address', revoke: 'Revoke address', qr: 'QR code of the calendar address', none: 'No address yet.', viewing: 'Viewing' },
  el: { menu: 'Ημερολόγιο στο κινητό', create: 'Δημιουργία διεύθυνσης', revoke: 'Ανάκληση διεύθυνσης', qr: 'Κωδικός QR της διεύθυνσης ημερολογίου', none: 'Δεν έχει δημιουργηθεί ακόμη διεύθυνση.', viewing: 'Υπόδειξη' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`an agent makes their calendar address, sees it once with its QR code, and it holds tomorrow's viewing until revoked (${language})`, async ({ browser, request, baseURL }) => {
    const L = TEXTS[language];
    const admin = await apiToken(request);
    const stamp = `${Date.now() % 1000000}${language === 'el' ? 1 : 2}`;
    // The agent, signed in, in their language.
    const email = `cal-${stamp}@example.com`;
    const { token: agent, session } = await newEmployee(request, admin, { email, lastName: `Agent${stamp}` });
    // Tomorrow's viewing the agent arranges: a client with a phone, their lead, a flat with its address.
    const { leadId: lead } = await clientWithLead(request, agent, `Client${stamp}`);
    const address = `Tsimiski ${stamp}`;
    const flat = await createObject(request, admin, { forSale: true, title: `Calendar flat ${stamp}`, salePrice: 210_000, address });
    const tomorrow = agencyDay(1);
    const made = await request.post('/api/Viewing/update', { data: { demandId: lead, dateOfViewing: `${tomorrow}T11:30:00`, results: [{ objectId: flat.id, result: 1 }] }, headers: auth(agent) });
    expect(made.ok(), await made.text()).toBeTruthy();
    const viewingId = ((await made.json()) as { id: number }).id;

    const ctx = await browser.newContext();
    await ctx.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
    const page = await ctx.newPage();
    await page.goto('/CRM');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-calendar-feed').click();
    await expect(page).toHaveURL(/\/CalendarFeed$/);
    await expect(page.getByRole('heading', { name: L.menu, level: 2 })).toBeVisible();
    const own = page.getByTestId('calendar-feed-own');
    await expect(own.getByTestId('calendar-feed-own-state')).toHaveText(L.none);
    // An agent has no office-wide address.
    await expect(page.getByTestId('calendar-feed-office')).toHaveCount(0);
    await expectAccessible(page, `the calendar address screen, none yet (${language})`);

    await own.getByRole('button', { name: L.create }).click();
    const shown = own.getByTestId('calendar-feed-own-shown');
    await expect(shown).toBeVisible();
    const url = await shown.getByTestId('calendar-feed-own-shown-url').inputValue();
    expect(url).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await expect(shown.getByRole('img', { name: L.qr })).toBeVisible();
    expect(await shown.getByRole('img', { name: L.qr }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(shown.getByTestId('calendar-feed-own-shown-webcal')).toHaveAttribute('href', url.replace(/^https?:\/\//, 'webcal://'));
    await expectAccessible(page, `a new calendar address with its QR code (${language})`);

    // Fetched as a phone's calendar fetches it: no session, the address alone (its path on this
    // server: another spec may have set the agency's public address, which links are built on).
    const path = new URL(url).pathname;
    const feed = await page.request.get(path);
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    const ics = (await feed.text()).replace(/\r\n[ \t]/g, '');
    expect(ics).toContain(`UID:viewing-${viewingId}@`);
    expect(ics).toContain(`DTSTART;TZID=Europe/Athens:${tomorrow.replace(/-/g, '')}T113000`);
    expect(ics).toContain(`SUMMARY:${L.viewing} · #${flat.referenceNumber} Calendar flat ${stamp} · Client${stamp} Eleni`);
    expect(ics).toContain(`LOCATION:${address}`);
    expect(ics).toContain('+30 694 555 0101');

    // Shown once: after a reload only its state is left, never the address.
    await page.reload();
    await expect(own.getByTestId('calendar-feed-own-state')).not.toHaveText(L.none);
    await expect(own.getByTestId('calendar-feed-own-shown')).toHaveCount(0);
    expect(await page.content()).not.toContain(url.split('/calendar/')[1]!);

    await own.getByRole('button', { name: L.revoke }).click();
    await page.getByTestId('calendar-feed-own-revoke-confirm').click();
    await expect(own.getByTestId('calendar-feed-own-state')).toHaveText(L.none);
    expect((await page.request.get(path)).status()).toBe(404);
    await expectAccessible(page, `the calendar address screen after revoking (${language})`);
    await ctx.close();
  });
}
