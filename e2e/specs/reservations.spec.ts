import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { apiToken, auth, expectAccessible, signedIn, openSignedIn } from '../fixtures.ts';
import { downloadWorkbook } from '../pages/list.ts';

/**
 * A short let booked on a phone call: the guest, the stay (check-in and nights give the
 * check-out), the money split and the commissions (the final one computed); the list finds it by
 * the property's website code, styles it by stage, warns of its problem and sums its money in the
 * footer; a second booking over the same nights is refused, naming the first.
 */

async function createShortLet(request: APIRequestContext, token: string, fields: Record<string, unknown>) {
  const add = await request.get('/api/object/add', { headers: auth(token) });
  expect(add.ok(), await add.text()).toBeTruthy();
  const blank = (await add.json()) as { id: number; version: number; referenceNumber: string };
  const upd = await request.post('/api/object/update', { data: { id: blank.id, version: blank.version, forShortRent: true, shortRentPrice: 90, ...fields }, headers: auth(token) });
  expect(upd.ok(), await upd.text()).toBeTruthy();
  return { id: blank.id, referenceNumber: blank.referenceNumber };
}

/** A booking of the short let through the API, for three nights unless `more` says otherwise: its id. */
async function bookStay(request: APIRequestContext, token: string, objectId: number, checkIn: string, client: Record<string, string>, more: Record<string, unknown> = {}) {
  const res = await request.post('/api/Reservation/update', { data: { objectId, checkIn, duration: 3, ...more, client }, headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { id: number }).id;
}

const money = (s: string) => new RegExp(s.replace(/ /g, '\\s'));

for (const language of ['en-UK', 'el'] as const) {
  test(`a short let booked, summed in the list and never double-booked (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const token = await apiToken(request);
    const mark = `STR${language === 'el' ? 'G' : 'E'}${Date.now() % 10000000}`;
    const flat = await createShortLet(request, token, { title: `Seaside studio with a sea-view balcony, two steps from the beach of Nea Moudania ${mark}`, websiteCode: mark });
    const year = new Date().getFullYear();
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();

    // Without a property the booking is not saved, and the property's field says why.
    await page.goto('/Reservations/Add');
    await expect(page.getByTestId('reservation-page')).toHaveAttribute('data-mode', 'create', { timeout: 20_000 });
    await page.getByTestId('reservation-client.lastName').fill(`Müller ${mark}`);
    await page.getByTestId('reservation-save').click();
    const picker = page.getByTestId('reservation-object-picker');
    await expect(picker).toHaveAccessibleDescription(language === 'el' ? 'Επιλέξτε το ακίνητο της κράτησης.' : 'Choose the property that is booked.');
    await expect(picker).toBeFocused();

    // The booking, from the property: check-in and nights give the check-out.
    await page.goto(`/Reservations/Add?objectId=${flat.id}`);
    await expect(page.getByTestId('reservation-page')).toHaveAttribute('data-mode', 'create', { timeout: 20_000 });
    await page.getByTestId('reservation-checkIn').fill(`10/12/${year}`);
    await page.getByTestId('reservation-duration').fill('3');
    await expect(page.getByTestId('reservation-checkOut')).toHaveValue(`13/12/${year}`);
    await page.getByTestId('reservation-client.lastName').fill(`Müller ${mark}`);
    await page.getByTestId('reservation-client.phone').fill('+49 170 1234567');
    await page.getByTestId('reservation-total').fill('1234,50');
    await page.getByTestId('reservation-prepaymentBank').fill('400');
    await page.getByTestId('reservation-comission').fill('250');
    await page.getByTestId('reservation-comission3rdParty').fill('37,25');
    // 10.000 for 1.000 to the owner: a typing mistake said at once (over the total of 1 234,50).
    await page.getByTestId('reservation-paymentToOwner').fill('10.000');
    await expect(page.getByTestId('reservation-owner-over')).toContainText(money('8 765,50 €'));
    await page.getByTestId('reservation-paymentToOwner').fill('1.000');
    await expect(page.getByTestId('reservation-owner-over')).toHaveCount(0);
    await expect(page.getByTestId('reservation-final-commission')).toHaveText(money('212,75 €'));
    await page.getByTestId('reservation-problem').fill('Key with the neighbour');
    // Arrival times as 24-hour HH:mm: digits alone are read, and a text that is no time is refused.
    const planned = page.getByTestId('reservation-arrivalTimePlanned');
    await planned.fill('1530');
    await planned.press('Tab');
    await expect(planned).toHaveValue('15:30');
    const actual = page.getByTestId('reservation-arrivalTimeActual');
    await actual.fill('abc');
    await actual.press('Tab');
    await expect(page.getByText(language === 'el' ? 'Μη έγκυρη ώρα (ΩΩ:ΛΛ, π.χ. 09:30)' : 'Not a valid time (HH:MM, e.g. 09:30)')).toBeVisible();
    await expectAccessible(page, 'reservation form');
    await page.getByTestId('reservation-save').click();
    await expect(actual).toBeFocused();
    await expect(actual).toHaveValue('abc');
    await expect(page).toHaveURL(/\/Reservations\/Add/);
    await actual.fill('');
    await page.getByTestId('reservation-save').click();
    await expect(page).toHaveURL(/\/Reservations\/\d+$/, { timeout: 20_000 });
    const number = /\/Reservations\/(\d+)$/.exec(page.url())![1]!;
    await expect(page.getByTestId('reservation-checkOut')).toContainText(`13/12/${year}`);
    await expect(page.getByTestId('reservation-attention')).toBeVisible();
    await expect(page.getByTestId('reservation-arrivalTimePlanned')).toHaveText('15:30');
    await expectAccessible(page, 'reservation view');

    // The list: found by the website code, styled by stage, the warning, and the footer's sums.
    await page.goto('/Reservations');
    await page.getByTestId('reservations-filter-code').fill(mark);
    const row = page.getByTestId('reservations-table-row').filter({ hasText: mark });
    await expect(row).toHaveCount(1, { timeout: 20_000 });
    await expect(row).toHaveClass(/reservation-row inquiry/);
    await expect(row.getByTestId('reservation-warning')).toBeVisible();
    // A long title takes two lines at the most under the property's codes, which stay on one.
    const property = row.getByRole('link', { name: new RegExp(`#${flat.referenceNumber}`) });
    const lineHeight = await property.evaluate((a) => parseFloat(getComputedStyle(a).lineHeight));
    expect((await property.boundingBox())!.height).toBeLessThanOrEqual(lineHeight * 3 + 1);
    await expect(property).toHaveAttribute('title', /^Seaside studio with a sea-view balcony/);
    await expect(page.getByTestId('reservations-sum-total')).toHaveText(money('1 234,50 €'));
    await expect(page.getByTestId('reservations-sum-finalComission')).toHaveText(money('212,75 €'));
    await expect(page.getByTestId('reservations-sums-note')).toHaveText(
      language === 'el' ? /^Οι ακυρωμένες κρατήσεις δεν υπολογίζονται στα σύνολα\./ : /^Cancelled bookings are not counted in the totals\./,
    );
    await expectAccessible(page, 'reservations list');
    // The same booking and sums in Reservations.xlsx, in the reader's language.
    const ws = (await downloadWorkbook(page, page.getByTestId('reservations-download'), 'Reservations.xlsx')).worksheets[0]!;
    expect(ws.name).toBe(language === 'el' ? 'Κρατήσεις' : 'Reservations');
    expect(ws.getCell('A3').value).toBe(language === 'el' ? 'Σύνολα της 1 κράτησης του φίλτρου' : 'Totals of the 1 matching reservation');
    expect(ws.getRow(7).getCell(1).value).toBe(Number(number));
    expect(ws.getRow(8).getCell(1).value ?? null).toBeNull();
    // This week in one tap: Monday to Sunday of the agency's today.
    const [y, m, d] = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Athens' }).format(new Date()).split('-').map(Number) as [number, number, number];
    const today = new Date(Date.UTC(y, m - 1, d));
    const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86400000);
    const sunday = new Date(monday.getTime() + 6 * 86400000);
    const shown = (x: Date) => `${String(x.getUTCDate()).padStart(2, '0')}/${String(x.getUTCMonth() + 1).padStart(2, '0')}/${x.getUTCFullYear()}`;
    await page.getByTestId('reservations-quick-week').click();
    await expect(page.getByTestId('reservations-filter-from')).toHaveValue(shown(monday));
    await expect(page.getByTestId('reservations-filter-till')).toHaveValue(shown(sunday));

    // Another guest on the same nights: refused, naming the first booking.
    await page.goto(`/Reservations/Add?objectId=${flat.id}`);
    await expect(page.getByTestId('reservation-page')).toHaveAttribute('data-mode', 'create', { timeout: 20_000 });
    await page.getByTestId('reservation-checkIn').fill(`12/12/${year}`);
    await page.getByTestId('reservation-duration').fill('2');
    await page.getByTestId('reservation-client.lastName').fill(`Rossi ${mark}`);
    await page.getByTestId('reservation-save').click();
    await expect(page.getByTestId('reservation-field-errors')).toContainText(`#${flat.referenceNumber}`);
    await expect(page.getByTestId('reservation-field-errors')).toContainText(number);
    await expect(page.getByTestId('reservation-field-errors')).toContainText(language === 'el' ? 'ήδη κρατημένο' : 'already booked');
    await expect(page).toHaveURL(/\/Reservations\/Add/);
    await ctx.close();
  });
}

test('a check-out typed on or before the check-in, or 0 or 400 nights, stays as typed with its error at the field', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `STRD${Date.now() % 10000000}`;
  const flat = await createShortLet(request, token, { title: `Dates studio ${mark}`, websiteCode: mark });
  const year = new Date().getFullYear() + 1;
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', `/Reservations/Add?objectId=${flat.id}`);
  await expect(page.getByTestId('reservation-page')).toHaveAttribute('data-mode', 'create', { timeout: 20_000 });
  const checkIn = page.getByTestId('reservation-checkIn');
  const nights = page.getByTestId('reservation-duration');
  const checkOut = page.getByTestId('reservation-checkOut');
  await checkIn.fill(`10/03/${year}`);
  await nights.fill('4');
  await expect(checkOut).toHaveValue(`14/03/${year}`);

  // A check-out before the check-in: kept, the nights kept, and the error at the check-out.
  await checkOut.fill(`08/03/${year}`);
  await checkOut.press('Tab');
  await expect(checkOut).toHaveValue(`08/03/${year}`);
  await expect(nights).toHaveValue('4');
  await expect(checkOut).toHaveAccessibleDescription(/The check-out must be after the check-in\./);
  // On the check-in day itself: the same.
  await checkOut.fill(`10/03/${year}`);
  await checkOut.press('Tab');
  await expect(checkOut).toHaveValue(`10/03/${year}`);
  await expect(checkOut).toHaveAccessibleDescription(/The check-out must be after the check-in\./);
  // Saving sends nothing and goes to the field.
  await page.getByTestId('reservation-client.lastName').fill(`Dates ${mark}`);
  await page.getByTestId('reservation-save').click();
  await expect(checkOut).toBeFocused();
  await expect(page).toHaveURL(/\/Reservations\/Add/);
  // An earlier check-in makes it a stay: the nights follow.
  await checkIn.fill(`07/03/${year}`);
  await checkIn.press('Tab');
  await expect(nights).toHaveValue('3');
  await expect(checkOut).toHaveValue(`10/03/${year}`);
  await expect(checkOut).not.toHaveAccessibleDescription(/must be after/);

  // Nights 0 and past the longest stay: kept, told at the nights.
  await nights.fill('0');
  await nights.press('Tab');
  await expect(nights).toHaveValue('0');
  await expect(nights).toHaveAccessibleDescription('A stay lasts at least one night.');
  await page.getByTestId('reservation-save').click();
  await expect(nights).toBeFocused();
  await nights.fill('400');
  await nights.press('Tab');
  await expect(nights).toHaveValue('400');
  await expect(nights).toHaveAccessibleDescription('A stay can last at most 365 nights.');
  await nights.fill('5');
  await expect(checkOut).toHaveValue(`12/03/${year}`);
  await page.getByTestId('reservation-save').click();
  await expect(page).toHaveURL(/\/Reservations\/\d+$/, { timeout: 20_000 });
  await expect(page.getByTestId('reservation-checkOut')).toContainText(`12/03/${year}`);
  await ctx.close();
});

test("a property's page shows each booking's stage, strikes a cancelled one, and offers New reservation for a short let", async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `STRP${Date.now() % 10000000}`;
  const flat = await createShortLet(request, token, { title: `Stages studio ${mark}`, websiteCode: mark });
  const year = new Date().getFullYear() + 1;
  const booked = (lastName: string, reservationStage: number) => bookStay(request, token, flat.id, `${year}-05-10`, { lastName }, { reservationStage });
  // The same nights twice: once cancelled, then booked again.
  await booked(`Cancelled ${mark}`, 7);
  await booked(`Confirmed ${mark}`, 3);
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', `/Objects/View/${flat.id}`);
  const block = page.getByTestId('records-reservations');
  await expect(block.getByTestId('records-reservations-item')).toHaveCount(2, { timeout: 20_000 });
  const cancelled = block.getByTestId('records-reservations-item').filter({ hasText: `Cancelled ${mark}` });
  const confirmed = block.getByTestId('records-reservations-item').filter({ hasText: `Confirmed ${mark}` });
  await expect(cancelled).toHaveCSS('text-decoration-line', 'line-through');
  await expect(confirmed).not.toHaveCSS('text-decoration-line', 'line-through');
  // The later booking first, each with its stage under it.
  await expect(block.getByTestId('records-reservations-item')).toHaveText([new RegExp(`Confirmed ${mark}`), new RegExp(`Cancelled ${mark}`)]);
  await expect(block.getByTestId('records-reservations-stage')).toHaveText(['Επιβεβαιωμένη', 'Ακυρωμένη']);
  await expectAccessible(page, "property's reservations");

  // New reservation: the booking form with the property set.
  await block.getByTestId('records-reservations-add').click();
  await expect(page).toHaveURL(new RegExp(`/Reservations/Add\\?objectId=${flat.id}$`));
  await expect(page.getByTestId('reservation-object-picker')).toHaveValue(new RegExp(mark));

  // A property not let short: no New reservation.
  const longLet = await createShortLet(request, token, { forShortRent: false, title: `Long let ${mark}` });
  await page.goto(`/Objects/View/${longLet.id}`);
  await expect(page.getByTestId('records-reservations')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('records-reservations-add')).toHaveCount(0);
  await ctx.close();
});

test("on a phone the booking form saves from its foot, a refusal is brought into view, and the guest's phone and e-mail are links", async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `STRM${Date.now() % 10000000}`;
  const flat = await createShortLet(request, token, { title: `Phone studio ${mark}`, websiteCode: mark });
  const year = new Date().getFullYear() + 1;
  const book = async (checkIn: string, lastName: string, contacts: Record<string, string> = {}) => ({ id: await bookStay(request, token, flat.id, checkIn, { lastName, ...contacts }) });
  const first = await book(`${year}-06-01`, `First ${mark}`);
  const second = await book(`${year}-06-10`, `Second ${mark}`, { phone: '+30 697 123 4567; 2310 123456', email: `guest.${mark.toLowerCase()}@example.com` });
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', `/Reservations/Edit/${second.id}`, { viewport: { width: 412, height: 915 }, isMobile: true });
  await expect(page.getByTestId('reservation-page')).toHaveAttribute('data-mode', 'edit', { timeout: 20_000 });
  // The last field of the form, typed on the phone: Save is right under it, the top one far above.
  await page.getByTestId('reservation-awaiting').fill('Late arrival: key in the box');
  const foot = page.getByTestId('reservation-save-bottom');
  await foot.scrollIntoViewIfNeeded();
  await expect(foot).toBeInViewport();
  await expect(page.getByTestId('reservation-save')).not.toBeInViewport();
  await foot.click();
  await expect(page).toHaveURL(new RegExp(`/Reservations/${second.id}$`), { timeout: 20_000 });
  await expect(page.getByTestId('reservation-attention')).toContainText('Late arrival: key in the box');
  // The guest's phones and e-mail, to tap.
  const phones = page.getByTestId('reservation-client.phone').getByRole('link');
  await expect(phones).toHaveText(['+30 697 123 4567', '2310 123456']);
  await expect(phones.first()).toHaveAttribute('href', 'tel:+306971234567');
  await expect(phones.last()).toHaveAttribute('href', 'tel:2310123456');
  const email = page.getByTestId('reservation-client.email').getByRole('link');
  await expect(email).toHaveAttribute('href', `mailto:guest.${mark.toLowerCase()}@example.com`);
  await expectAccessible(page, 'reservation view on a phone');

  // Moved onto the first booking's nights and saved from the foot: the check-in's refusal comes into view.
  await page.goto(`/Reservations/Edit/${second.id}`);
  await expect(page.getByTestId('reservation-page')).toHaveAttribute('data-mode', 'edit', { timeout: 20_000 });
  await page.getByTestId('reservation-checkIn').fill(`02/06/${year}`);
  await foot.scrollIntoViewIfNeeded();
  await foot.click();
  const checkIn = page.getByTestId('reservation-checkIn');
  await expect(checkIn).toBeFocused();
  await expect(checkIn).toBeInViewport();
  await expect(checkIn).toHaveAccessibleDescription(new RegExp(`reservation ${first.id}`));
  await expect(page).toHaveURL(new RegExp(`/Reservations/Edit/${second.id}$`));
  await ctx.close();
});

test('on a laptop 768 px high the filters fold behind their button, and the list shows more than three bookings; at 800 px they stay open', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `STRF${Date.now() % 10000000}`;
  const flat = await createShortLet(request, token, { title: `Fold studio ${mark}`, websiteCode: mark });
  // Five one-night stays this year (the list's default period is the year of the check-out).
  const year = new Date().getFullYear();
  for (let i = 1; i <= 5; i++) {
    await bookStay(request, token, flat.id, `${year}-01-${String(2 * i).padStart(2, '0')}`, { lastName: `Fold ${i} ${mark}` }, { duration: 1 });
  }
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', '/Reservations', { viewport: { width: 1366, height: 768 } });
  const toggle = page.getByTestId('reservations-filter-toggle');
  const code = page.getByTestId('reservations-filter-code');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(code).toBeHidden();
  await toggle.click();
  await code.fill(mark);
  const rows = page.getByTestId('reservations-table-row').filter({ hasText: mark });
  await expect(rows).toHaveCount(5, { timeout: 20_000 });
  // Folded again, the filter marked as on: the rows take the screen.
  await toggle.click();
  await expect(code).toBeHidden();
  await expect(toggle.getByText('on', { exact: true })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(rows.nth(3)).toBeInViewport();
  await expectAccessible(page, 'reservations list 768 px high');
  // 800 px high: open, as before.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(toggle).toHaveCount(0);
  await expect(code).toBeVisible();
  await ctx.close();
});

test('the availability grid pages as the lists do: the rows shown of how many, the page size, the pages by name (el)', async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const mark = `PGR${Date.now() % 10000000}`;
  // Twelve short lets whose website codes start with the mark: the grid's code filter finds them alone.
  for (let i = 0; i < 12; i++) await createShortLet(request, token, { title: `Paged studio ${mark} ${i}`, websiteCode: `${mark}${String.fromCharCode(65 + i)}` });
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', '/Reservations/Availability', { viewport: { width: 1280, height: 900 } });
  await page.getByTestId('availability-filter-code').fill(mark);
  await expect(page.getByTestId('availability-range')).toHaveText('1–12 από 12', { timeout: 20_000 });
  // Ten a page: the same footer as every list, its controls named in the reader's language.
  await expect(page.getByTestId('availability-page-size')).toHaveAccessibleName('Γραμμές ανά σελίδα');
  await page.getByTestId('availability-page-size').click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  await expect(page.getByTestId('availability-row')).toHaveCount(10);
  await expect(page.getByTestId('availability-range')).toHaveText('1–10 από 12');
  const pager = page.getByTestId('availability-pager');
  await expect(pager.getByRole('button', { name: 'Προηγούμενη σελίδα' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Σελίδα 2', exact: true }).click();
  await expect(page.getByTestId('availability-range')).toHaveText('11–12 από 12');
  await expect(page.getByTestId('availability-row')).toHaveCount(2);
  await expect(pager.getByRole('button', { name: 'Επόμενη σελίδα' })).toBeDisabled();
  await expectAccessible(page, 'availability grid, second page');
  // The next month starts at its first page: a page kept across periods asked a month with fewer
  // short lets for a page it does not have.
  await page.getByTestId('availability-next').click();
  await expect(page.getByTestId('availability-range')).toHaveText('1–10 από 12');
  await expect(pager.getByRole('button', { name: 'Προηγούμενη σελίδα' })).toBeDisabled();
  // The page size is kept (its cookie): a new visit shows ten again, from the first page.
  await page.reload();
  await page.getByTestId('availability-filter-code').fill(mark);
  await expect(page.getByTestId('availability-range')).toHaveText('1–10 από 12', { timeout: 20_000 });
  await ctx.close();
});

for (const language of ['en-UK', 'el'] as const) {
  test(`the availability grid shows each property's booked and free nights, and a free night starts its booking; the calendar shows check-ins and check-outs (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const token = await apiToken(request);
    const mark = `AVL${language === 'el' ? 'G' : 'E'}${Date.now() % 10000000}`;
    const flat = await createShortLet(request, token, { title: `Grid studio ${mark}`, websiteCode: mark });
    // A March of its own, far ahead: a stay across 1 March, an option in the middle, a cancelled one.
    const year = new Date().getFullYear() + 4 + (language === 'el' ? 1 : 0);
    const book = (checkIn: string, duration: number, reservationStage: number, lastName: string) => bookStay(request, token, flat.id, checkIn, { lastName }, { duration, reservationStage });
    const across = await book(`${year}-02-27`, 3, 3, `Across ${mark}`);
    const option = await book(`${year}-03-10`, 3, 2, `Option ${mark}`);
    await book(`${year}-03-20`, 2, 7, `Cancelled ${mark}`);
    const phone = language === 'el';
    const ctx = await signedIn(browser, baseURL!, token, language, phone ? { viewport: { width: 412, height: 915 }, isMobile: true } : { viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();

    // From the reservations list, where booking managers start.
    await page.goto('/Reservations');
    await page.getByTestId('reservations-availability').click();
    await expect(page).toHaveURL(/\/Reservations\/Availability$/);
    await expect(page.getByTestId('availability-page')).toHaveAttribute('data-mode', 'month');
    await page.goto(`/Reservations/Availability?date=${year}-03-01`);
    if (phone) await page.getByTestId('availability-filter-toggle').click();
    await page.getByTestId('availability-filter-code').fill(mark);
    const row = page.locator(`[data-testid="availability-row"][data-object="${flat.id}"]`);
    await expect(page.getByTestId('availability-row')).toHaveCount(1, { timeout: 20_000 });
    await expect(page.getByTestId('availability-title')).toHaveText(language === 'el' ? `Μάρτιος ${year}` : `March ${year}`);
    await expect(row).toContainText(`#${flat.referenceNumber}`);
    // The stay from February holds 1 March (cut square: it began before), the option its three nights; the cancelled nights are free.
    const first = row.locator(`[data-testid="availability-stay"][data-id="${across}"]`);
    await expect(first).toHaveAttribute('data-night', `${year}-03-01`);
    await expect(first).toHaveAttribute('data-span', '1');
    await expect(first).toHaveClass(/before/);
    const held = row.locator(`[data-testid="availability-stay"][data-id="${option}"]`);
    await expect(held).toHaveAttribute('data-span', '3');
    await expect(held).toHaveClass(/option/);
    await expect(held).toContainText(`Option ${mark}`);
    await expect(held.getByRole('link')).toHaveAccessibleName(new RegExp(`${language === 'el' ? 'Κράτηση' : 'Reservation'} ${option}: Option ${mark}, 10/03/${year} – 13/03/${year} \\(${language === 'el' ? 'Προκράτηση' : 'Option'}\\)`));
    await expect(row.locator(`[data-testid="availability-free"][data-night="${year}-03-20"]`)).toHaveCount(1);
    await expect(row.locator('[data-testid="availability-free"]')).toHaveCount(31 - 1 - 3);
    await expectAccessible(page, `availability grid ${language}`);
    if (phone) {
      // The nights scroll sideways under the property column, which stays in view.
      const scroller = page.getByTestId('availability-grid');
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth + 100)).toBe(true);
      const head = row.locator('th');
      await head.scrollIntoViewIfNeeded();
      const before = (await head.boundingBox())!.x;
      await scroller.evaluate((el) => el.scrollBy({ left: 400 }));
      await expect.poll(async () => (await head.boundingBox())!.x).toBe(before);
      await expect(row.locator(`[data-testid="availability-free"][data-night="${year}-03-15"]`)).toBeInViewport();
    }

    // The booking opens from its nights.
    await held.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/Reservations/${option}$`));
    await page.goBack();
    // A free night: New reservation for that property, checking in that day.
    await row.locator(`[data-testid="availability-free"][data-night="${year}-03-15"]`).getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/Reservations/Add\\?objectId=${flat.id}&checkIn=${year}-03-15$`));
    await expect(page.getByTestId('reservation-page')).toHaveAttribute('data-mode', 'create', { timeout: 20_000 });
    await expect(page.getByTestId('reservation-object-picker')).toHaveValue(new RegExp(mark));
    await expect(page.getByTestId('reservation-checkIn')).toHaveValue(`15/03/${year}`);

    // The calendar's week: the option's check-in and check-out link to it (never moved from there), and a switch hides them.
    await page.goto(`/Calendar?date=${year}-03-13`);
    const checkOut = page.locator(`[data-day="${year}-03-13"] [data-testid="calendar-entry"][data-kind="checkOut"][data-id="${option}"]`);
    await expect(checkOut).toContainText(`Option ${mark}`);
    await expect(checkOut).toContainText(`#${flat.referenceNumber} (${mark})`);
    await expect(checkOut).toContainText(language === 'el' ? 'Αναχώρηση' : 'Check-out');
    await expect(checkOut.getByTestId('calendar-move')).toHaveCount(0);
    await expect(checkOut.getByRole('link')).toHaveAttribute('href', `/Reservations/${option}`);
    await expectAccessible(page, `calendar with check-outs ${language}`);
    await page.goto(`/Calendar?date=${year}-03-10`);
    const checkIn = page.locator(`[data-day="${year}-03-10"] [data-testid="calendar-entry"][data-kind="checkIn"][data-id="${option}"]`);
    await expect(checkIn).toContainText(language === 'el' ? 'Άφιξη' : 'Check-in');
    const stays = page.getByRole('switch', { name: language === 'el' ? 'Αφίξεις και αναχωρήσεις' : 'Check-ins and check-outs' });
    await expect(stays).toBeChecked();
    await stays.click();
    await expect(checkIn).toHaveCount(0);
    await expect(checkOut).toHaveCount(0);
    // Kept for the next visit.
    await page.reload();
    await expect(stays).not.toBeChecked();
    await expect(page.locator(`[data-testid="calendar-entry"][data-kind="viewing"], [data-testid="calendar-entry"][data-kind="activity"], [data-testid="calendar-day"]`).first()).toBeVisible();
    await expect(checkIn).toHaveCount(0);
    await ctx.close();
  });
}

test("a month's day lists its viewings first and the check-ins and check-outs after them, at 1280 px behind \"+N more\" and on a 412 px phone", async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const mark = `CALO${Date.now() % 10000000}`;
  const flat = await createShortLet(request, token, { title: `Busy day studio ${mark}`, websiteCode: mark });
  // A day far ahead that only this test fills: a guest leaves and another arrives (neither with an
  // hour: all day), and three viewings.
  const year = new Date().getFullYear() + 15;
  const day = `${year}-09-16`;
  const book = (checkIn: string, lastName: string) => bookStay(request, token, flat.id, checkIn, { lastName }, { reservationStage: 3 });
  await book(`${year}-09-13`, `Leaving ${mark}`);
  await book(day, `Arriving ${mark}`);
  for (const hour of ['09', '11', '17']) {
    const res = await request.post('/api/Viewing/update', { data: { dateOfViewing: `${day}T${hour}:00:00`, results: [{ objectId: flat.id, result: 1 }] }, headers: auth(token) });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
  const kinds = (scope: Locator) => scope.getByTestId('calendar-entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));

  const desk = await signedIn(browser, baseURL!, token, 'el', { cookies: { 'Calendar.view': 'month', 'Calendar.stays': true } });
  const page = await desk.newPage();
  await page.goto(`/Calendar?date=${day}`);
  const cell = page.locator(`[data-testid="calendar-day"][data-day="${day}"]`);
  await expect(cell.getByTestId('calendar-entry')).toHaveCount(3);
  expect(await kinds(cell)).toEqual(['viewing', 'viewing', 'viewing']);
  await expect(cell.getByTestId('calendar-entry').first()).toContainText('09:00');
  const more = cell.getByTestId('calendar-more');
  await expect(more).toHaveText('+2 ακόμη');
  // The rest are the day's, opened from there: the stays above its hours.
  await more.click();
  await expect(page.getByTestId('calendar-page')).toHaveAttribute('data-view', 'day');
  await expect(page.getByTestId('calendar-entry')).toHaveCount(5);
  expect(await kinds(page.getByTestId('calendar-all-day'))).toEqual(['checkOut', 'checkIn']);
  await desk.close();

  // A phone's month lists every entry of the day, the viewings first there too.
  const phone = await signedIn(browser, baseURL!, token, 'el', { viewport: { width: 412, height: 915 }, isMobile: true, cookies: { 'Calendar.view': 'month', 'Calendar.stays': true } });
  const small = await phone.newPage();
  await small.goto(`/Calendar?date=${day}`);
  const agendaDay = small.locator(`[data-testid="calendar-day"][data-day="${day}"]`);
  await expect(agendaDay.getByTestId('calendar-entry')).toHaveCount(5);
  expect(await kinds(agendaDay)).toEqual(['viewing', 'viewing', 'viewing', 'checkOut', 'checkIn']);
  await phone.close();
});

test("a Russian booking manager's phone: the calendar's and the availability's dates head with a capital, and Move is a finger's target", async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const mark = `CALR${Date.now() % 10000000}`;
  const flat = await createShortLet(request, token, { title: `Phone month studio ${mark}`, websiteCode: mark });
  // A March far ahead that only this test fills: a check-in and a viewing on the 10th.
  const year = new Date().getFullYear() + 16;
  const day = `${year}-03-10`;
  await bookStay(request, token, flat.id, day, { lastName: `Орлова ${mark}` }, { reservationStage: 3 });
  const viewing = await request.post('/api/Viewing/update', { data: { dateOfViewing: `${day}T10:00:00`, results: [{ objectId: flat.id, result: 1 }] }, headers: auth(token) });
  expect(viewing.ok(), await viewing.text()).toBeTruthy();

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'ru', `/Calendar?date=${day}`, { viewport: { width: 412, height: 860 }, isMobile: true, cookies: { 'Calendar.view': 'month', 'Calendar.stays': true } });
  // Russian writes month and weekday names in small letters; as a heading they start with a capital.
  await expect(page.getByTestId('calendar-title')).toHaveText(`Март ${year} г.`);
  const agendaDay = page.locator(`[data-testid="calendar-day"][data-day="${day}"]`);
  await expect(agendaDay).toHaveAttribute('aria-label', /^[А-ЯЁ][а-я]+, 10 марта$/);
  await expect(agendaDay.getByText(/^[А-ЯЁ][а-я]+, 10 марта$/)).toBeVisible();
  // A finger cannot drag: "Перенести" is the way to move the viewing, at least 24 px high.
  const move = agendaDay.locator('[data-testid="calendar-entry"][data-kind="viewing"]').getByTestId('calendar-move');
  await expect(move).toHaveText('Перенести');
  expect((await move.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await expectAccessible(page, 'calendar month on a Russian phone');

  await page.getByTestId('calendar-view').getByText('День', { exact: true }).click();
  await expect(page.getByTestId('calendar-title')).toHaveText(new RegExp(`^[А-ЯЁ][а-я]+, 10 марта ${year} г\\.$`));
  expect((await page.locator('[data-testid="calendar-entry"][data-kind="viewing"]').getByTestId('calendar-move').boundingBox())!.height).toBeGreaterThanOrEqual(24);
  // The week's days head with a capital too ("Вс, 10 мар.", not "вс, 10 мар.").
  await page.getByTestId('calendar-view').getByText('Неделя', { exact: true }).click();
  await expect(page.locator(`[data-testid="calendar-day"][data-day="${day}"]`).getByText(/^[А-ЯЁ][а-я]+, 10 мар/)).toBeVisible();

  await page.goto(`/Reservations/Availability?date=${year}-03-01`);
  await expect(page.getByTestId('availability-title')).toHaveText(`Март ${year} г.`);
  await ctx.close();
});
