import { expect, test } from '@playwright/test';
import { agencyToday, apiToken, auth, createObject, expectAccessible, newEmployee, signedIn } from '../fixtures.ts';

/**
 * The home page's day: today's viewings and the short lets' check-ins and check-outs, each a link to
 * its record, first thing in the morning without opening the calendar.
 */
/** The agency's today ("YYYY-MM-DD", Europe/Athens). */

for (const language of ['en-UK', 'el'] as const) {
  test(`the home page lists today's viewings with their time, each opening its record (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const title = `Early viewing flat ${Date.now() % 1000000}`;
    const flat = await createObject(request, token, { forSale: true, title, salePrice: 150_000 });
    // 05:5x: before any viewing another test books today, so it is among the first the card lists.
    const time = `05:5${language === 'el' ? 1 : 2}`;
    const res = await request.post('/api/Viewing/update', { data: { dateOfViewing: `${agencyToday()}T${time}:00`, results: [{ objectId: flat.id, result: 1 }] }, headers: auth(token) });
    expect(res.ok(), await res.text()).toBeTruthy();
    const viewingId = ((await res.json()) as { id: number }).id;

    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto('/CRM');
    const card = page.getByTestId('home-today');
    await expect(card.getByRole('heading', { name: language === 'el' ? 'Σήμερα' : 'Today' })).toBeVisible();
    const item = card.getByTestId('home-today-item').filter({ has: page.locator(`a[href="/Viewing/${viewingId}"]`) });
    await expect(item).toHaveCount(1, { timeout: 20_000 });
    await expect(item).toContainText(time);
    // The calendar's title: the kind, the client, the properties.
    await expect(item).toContainText(new RegExp(`^${time}\\s*${language === 'el' ? 'Υπόδειξη' : 'Viewing'} · `));
    await expectAccessible(page, 'home with today');
    await item.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/Viewing/${viewingId}$`));
    await ctx.close();
  });
}

test("an employee's day shows their own viewings, everyone's at a click, and the choice is kept (el)", async ({ browser, request, baseURL }) => {
  const admin = await apiToken(request);
  const stamp = Date.now() % 1000000;
  const email = `today-${stamp}@example.com`;
  const { id: employeeId, session } = await newEmployee(request, admin, { email, lastName: `Today${stamp}`, firstName: 'Eleni' });
  const viewing = async (title: string, time: string) => {
    const flat = await createObject(request, admin, { forSale: true, title, salePrice: 150_000 });
    const res = await request.post('/api/Viewing/update', { data: { dateOfViewing: `${agencyToday()}T${time}:00`, results: [{ objectId: flat.id, result: 1 }] }, headers: auth(admin) });
    expect(res.ok(), await res.text()).toBeTruthy();
    return ((await res.json()) as { id: number }).id;
  };
  const hers = await viewing(`Hers ${stamp}`, '05:53');
  const other = await viewing(`Other ${stamp}`, '05:54');
  const assigned = await request.post('/api/assignment/viewing/add', { data: { assignedTo: employeeId, viewingId: hers }, headers: auth(admin) });
  expect(assigned.ok(), await assigned.text()).toBeTruthy();

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.addCookies([{ name: 'language', value: 'el', url: baseURL! }]);
  await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
  const page = await ctx.newPage();
  await page.goto('/CRM');
  const card = page.getByTestId('home-today');
  const link = (id: number) => card.locator(`a[href="/Viewing/${id}"]`);
  await expect(link(hers)).toHaveCount(1, { timeout: 20_000 });
  await expect(link(other)).toHaveCount(0);
  const whose = card.getByRole('radiogroup', { name: 'Ποιανού υποδείξεις' });
  await whose.getByText('Όλων').click();
  await expect(link(other)).toHaveCount(1);
  await expect(link(hers)).toHaveCount(1);
  await expectAccessible(page, 'home, everyone\'s day');
  // Kept: the next visit opens on everyone's.
  await page.reload();
  await expect(link(other)).toHaveCount(1, { timeout: 20_000 });
  await ctx.close();
});
