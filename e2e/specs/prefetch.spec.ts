import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiToken, signedIn, inLanguage } from '../fixtures.ts';

/**
 * Screens opened by their address ask for their first data from their route, while their code
 * downloads (app/prefetch.ts): the keys list, the deal board, the calendar and the availability grid as their cookies
 * stand, and a key, a document and an alert by their id. Each is asked for once (the screen
 * finds the route's answer under the same query key) and before the screen's code has arrived.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const unique = (s: string) => `${s}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;


/** The API requests for `api` and the moment the screen's code (`code`, a chunk's name) arrived, in order. */
function watch(page: Page, api: string, code: RegExp) {
  const events: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname === api) events.push(`ask ${u.pathname}${u.search}`);
  });
  page.on('requestfinished', (r) => {
    if (code.test(new URL(r.url()).pathname)) events.push('code');
  });
  return events;
}

function askedOnceBeforeCode(events: string[]) {
  const asks = events.filter((e) => e.startsWith('ask '));
  expect(asks, events.join('\n')).toHaveLength(1);
  expect(events.indexOf('code'), events.join('\n')).toBeGreaterThan(events.indexOf(asks[0]!));
  return asks[0]!;
}

async function newKey(request: APIRequestContext, token: string, description: string) {
  const add = await request.get('/api/object/add', { headers: auth(token) });
  expect(add.ok(), await add.text()).toBeTruthy();
  const object = (await add.json()) as { id: number; referenceNumber: string };
  const res = await request.post('/api/ObjectKeys/edit', { data: { objectId: object.id, accountId: null, received: '2026-03-01', givenAway: null, description }, headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return { object, key: (await res.json()) as { id: number } };
}

for (const language of inLanguage('el')) {
  test(`lists and boards opened by their address ask for what their cookies say, once, while their code loads (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(60_000);
    const token = await apiToken(request);
    const { object } = await newKey(request, token, unique('Safe'));

    // The keys list, kept at 5 a page and filtered by the new property's reference number.
    let ctx = await signedIn(browser, baseURL!, token, language);
    await ctx.addCookies([
      { name: 'ObjectKeys.perPage', value: '5', url: baseURL! },
      { name: 'ObjectKeys.filter', value: encodeURIComponent(JSON.stringify({ referenceNumber: object.referenceNumber, currentPage: 1 })), url: baseURL! },
    ]);
    let page = await ctx.newPage();
    let events = watch(page, '/api/ObjectKeys', /\/object-keys-page-[\w-]+\.js$/);
    await page.goto('/ObjectKeys');
    await expect(page.getByTestId('key-object-link')).toHaveText([`#${object.referenceNumber}`]);
    expect(askedOnceBeforeCode(events)).toBe(`ask /api/ObjectKeys?${new URLSearchParams({ referenceNumber: object.referenceNumber, perPage: '5', currentPage: '1' })}`);
    await ctx.close();

    // The deal board, filtered by a party's last name kept in its cookie.
    ctx = await signedIn(browser, baseURL!, token, language);
    const lastName = unique('Board');
    await ctx.addCookies([{ name: 'DealBoard.filter', value: encodeURIComponent(JSON.stringify({ dealType: 0, lastName })), url: baseURL! }]);
    page = await ctx.newPage();
    const boardBodies: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/Deal/board') boardBodies.push(r.postData() ?? '');
    });
    events = watch(page, '/api/Deal/board', /\/deals-board-page-[\w-]+\.js$/);
    await page.goto('/Deals/Board');
    await expect(page.getByTestId('deal-column').first()).toBeVisible();
    askedOnceBeforeCode(events);
    expect(JSON.parse(boardBodies[0]!)).toMatchObject({ lastName, perStage: 20 });
    await ctx.close();

    // The calendar, a month around the day in the address.
    ctx = await signedIn(browser, baseURL!, token, language);
    await ctx.addCookies([{ name: 'Calendar.view', value: encodeURIComponent(JSON.stringify('month')), url: baseURL! }]);
    page = await ctx.newPage();
    events = watch(page, '/api/calendar', /\/calendar-page-[\w-]+\.js$/);
    await page.goto('/Calendar?date=2026-02-11');
    await expect(page.getByTestId('calendar-page')).toHaveAttribute('data-view', 'month');
    // February 2026 as the month's weeks: Monday 26 January to Sunday 1 March.
    expect(askedOnceBeforeCode(events)).toBe(`ask /api/calendar?${new URLSearchParams({ from: '2026-01-26', till: '2026-03-01', stays: 'true' })}`);
    await ctx.close();

    // The availability grid: 30 days from the day in the address, 10 properties a page, as its cookie keeps them.
    ctx = await signedIn(browser, baseURL!, token, language);
    await ctx.addCookies([{ name: 'ReservationAvailability.view', value: encodeURIComponent(JSON.stringify({ mode: '30', perPage: 10 })), url: baseURL! }]);
    page = await ctx.newPage();
    const gridBodies: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/Reservation/availability') gridBodies.push(r.postData() ?? '');
    });
    events = watch(page, '/api/Reservation/availability', /\/availability-page-[\w-]+\.js$/);
    await page.goto('/Reservations/Availability?date=2026-02-11');
    await expect(page.getByTestId('availability-page')).toHaveAttribute('data-from', '2026-02-11');
    await expect(page.getByTestId('availability-count')).toHaveText(/\d/);
    askedOnceBeforeCode(events);
    expect(JSON.parse(gridBodies[0]!)).toMatchObject({ from: '2026-02-11', days: 30, perPage: 10, currentPage: 1 });
    await ctx.close();
  });
}

for (const language of inLanguage('en-UK')) {
  test(`a key and a document opened by their address are asked for once, while their code loads (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(60_000);
    const token = await apiToken(request);
    const description = unique(language === 'el' ? 'Χρηματοκιβώτιο' : 'Safe');
    const { key } = await newKey(request, token, description);
    const ctx = await signedIn(browser, baseURL!, token, language);
    let page = await ctx.newPage();
    let events = watch(page, `/api/ObjectKeys/edit/${key.id}`, /\/object-key-page-[\w-]+\.js$/);
    await page.goto(`/ObjectKeys/${key.id}`);
    await expect(page.getByTestId('key-description')).toHaveValue(description);
    askedOnceBeforeCode(events);

    const name = unique(language === 'el' ? 'Εξουσιοδότηση' : 'Mandate');
    const saved = await request.post('/api/Documents/update', { multipart: { name, description: 'Signed by the owner' }, headers: auth(token) });
    expect(saved.ok(), await saved.text()).toBeTruthy();
    const doc = (await saved.json()) as { id: number };
    page = await ctx.newPage();
    events = watch(page, `/api/Documents/edit/${doc.id}`, /\/document-page-[\w-]+\.js$/);
    await page.goto(`/Document/${doc.id}`);
    await expect(page.getByTestId('document-page')).toHaveAttribute('data-mode', 'view');
    await expect(page.getByTestId('document-page')).toContainText(name);
    askedOnceBeforeCode(events);
    // Edit from the list (?edit=1) reads afresh, in the screen.
    await page.goto(`/Document/${doc.id}?edit=1`);
    await expect(page.getByTestId('document-page')).toHaveAttribute('data-mode', 'edit');
    await expect(page.getByTestId('document-name')).toHaveValue(name);
    await ctx.close();
  });
}

/** Today's day of the month in the agency's zone (the e2e server runs in Europe/Athens). */
const todayInAthens = () => Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Athens', day: 'numeric' }).format(new Date()));

test('an alert opened by its address is asked for once, while its code loads', async ({ browser, request, baseURL }) => {
  test.setTimeout(60_000);
  const token = await apiToken(request);
  // A tenant whose rent is due today: saving the link makes its reminder.
  const mark = unique('Ενοικιαστής');
  const object = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number };
  const tenant = await request.post('/api/account/add', { data: { firstName: 'Ελένη', lastName: mark, isClient: true }, headers: auth(token) });
  expect(tenant.ok(), await tenant.text()).toBeTruthy();
  const link = await request.post('/api/objectAccount/add', {
    data: { objectId: object.id, accountId: ((await tenant.json()) as { id: number }).id, relation: 4, startDate: '2024-01-01', rentPaymentDay: todayInAthens() },
    headers: auth(token),
  });
  expect(link.ok(), await link.text()).toBeTruthy();
  let id = 0;
  await expect(async () => {
    const list = await request.post('/api/alert/list', { data: { perPage: 100, currentPage: 1 }, headers: auth(token) });
    const found = ((await list.json()) as { items: { id: number; content: string }[] }).items.find((a) => a.content.includes(mark));
    expect(found).toBeTruthy();
    id = found!.id;
  }).toPass({ timeout: 20_000 });

  const ctx = await signedIn(browser, baseURL!, token, 'el');
  const page = await ctx.newPage();
  const events = watch(page, `/api/alert/${id}`, /\/alert-page-[\w-]+\.js$/);
  await page.goto(`/Alerts/${id}`);
  await expect(page.getByTestId('alert-content')).toContainText(mark);
  askedOnceBeforeCode(events);
  await ctx.close();
});

