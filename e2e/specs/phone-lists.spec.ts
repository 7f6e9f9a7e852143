import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiToken, auth, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * On a phone (412 px) every list draws its rows as cards, so no key number is behind a sideways
 * scroll (decision 025): a property's price in the search list and its owner in the
 * property list, a statement's date, category, debit, credit and balance, a deal's seller and
 * buyer. Each line carries its column's title as its label. At 1280 px the same lists are still
 * tables: the row's cells side by side under their headers, sorted from a header.
 */
const PHONE = { width: 412, height: 915 };

const TEXTS = {
  'en-UK': { place: 'Karabournaki', dealNo: 'Deal no.', price: 'Price', owner: 'Owner', date: 'Date', category: 'Category', debit: 'Debit', credit: 'Credit', balance: 'Balance', seller: 'Seller', buyer: 'Buyer', sortBy: 'Sort by', sale: 'Sale', rent: 'Rent', electricity: 'Electricity' },
  el: { place: 'Καραμπουρνάκι', dealNo: 'Συμφωνία αρ.', price: 'Τιμή', owner: 'Ιδιοκτήτης', date: 'Ημερομηνία', category: 'Κατηγορία', debit: 'Χρέωση', credit: 'Πίστωση', balance: 'Υπόλοιπο', seller: 'Πωλητής', buyer: 'Αγοραστής', sortBy: 'Ταξινόμηση κατά', sale: 'Πώληση', rent: 'Μίσθωμα', electricity: 'Ρεύμα' },
} as const;

async function post<T>(request: APIRequestContext, token: string, url: string, data: Record<string, unknown>): Promise<T> {
  const res = await request.post(url, { data, headers: auth(token) });
  expect(res.ok(), `${url}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

/** A property for sale at a price no other has, owned by `owner` (in Karabournaki when `located`). */
async function createObject(request: APIRequestContext, token: string, price: number, owner: number, located = false) {
  const add = await request.get('/api/object/add', { headers: auth(token) });
  expect(add.ok(), await add.text()).toBeTruthy();
  const blank = (await add.json()) as { id: number; version: number; referenceNumber: string };
  let locationId: number | undefined;
  if (located) {
    const places = await request.get('/api/location/search', { params: { searchStr: 'Karabournaki' }, headers: auth(token) });
    locationId = ((await places.json()) as { items: { id: number }[] }).items[0]?.id;
    expect(locationId).toBeDefined();
  }
  await post(request, token, '/api/object/update', { id: blank.id, version: blank.version, title: 'Phone card flat', subTypeObjectTypeId: 1, forSale: true, salePrice: price, area: 84, ...(locationId ? { locationId } : {}) });
  await post(request, token, '/api/objectAccount/add', { objectId: blank.id, accountId: owner, relation: 1 });
  return blank;
}

/** The category of a transaction form called `names` (in English or in Greek). */
async function category(request: APIRequestContext, token: string, kind: 'Income' | 'Expense', accountId: number, names: string[]) {
  const form = await request.get(`/api/transactions/add${kind}`, { params: { accountId }, headers: auth(token) });
  expect(form.ok(), await form.text()).toBeTruthy();
  const { categoryId } = ((await form.json()) as { lists: { categoryId: { value: number | string; text: string }[] } }).lists;
  const found = categoryId.find((c) => names.includes(c.text));
  expect(found, categoryId.map((c) => c.text).join(', ')).toBeDefined();
  return String(found!.value);
}

/** An income of 1 250,50 for rent (2 March) and an unpaid electricity bill of 80,20 (5 March, due 20 March). */
async function addTransactions(request: APIRequestContext, token: string, accountId: number) {
  const rent = await category(request, token, 'Income', accountId, ['Rent', 'Μίσθωμα']);
  const electricity = await category(request, token, 'Expense', accountId, ['Electricity', 'Ρεύμα']);
  for (const [kind, fields] of [
    ['Income', { amount: '1250.50', transactionDate: '2026-03-02T10:30:00', paymentMethod: '1', categoryId: rent }],
    ['Expense', { amount: '80.20', transactionDate: '2026-03-05T09:15:00', paymentMethod: '1', categoryId: electricity, status: '0', expirationDate: '2026-03-20' }],
  ] as const) {
    const res = await request.post(`/api/transactions/add${kind}`, { multipart: { accountId: String(accountId), ...fields }, headers: auth(token) });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
}

/** The card's line labelled `label`: in view across the phone's width, showing `value`. */
async function expectLine(row: Locator, label: string, value: string | RegExp) {
  const line = row.getByRole('cell').filter({ hasText: value }).filter({ visible: true }).first();
  await line.scrollIntoViewIfNeeded();
  // Scrolled to vertically, as a user scrolls down; never sideways (a wide table's frame is put back at its start).
  await line.evaluate((td) => {
    for (let el = td.parentElement; el; el = el.parentElement) el.scrollLeft = 0;
  });
  await expect(line).toBeVisible();
  const box = (await line.boundingBox())!;
  expect(box.x, `${label} starts on the screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${label} ends on the screen`).toBeLessThanOrEqual(PHONE.width);
  const text = line.getByText(value).first();
  const inner = (await text.boundingBox())!;
  expect(inner.x + inner.width, `${label}'s value ends on the screen`).toBeLessThanOrEqual(PHONE.width);
  // The label is drawn before the value (CSS generated text, kept from screen readers, which have the column header).
  expect(await line.evaluate((td) => getComputedStyle(td, '::before').content)).toBe(`"${label}" / ""`);
}

/** Nothing scrolls sideways: neither the page nor the list in its frame. */
async function expectNoSidewaysScroll(page: Page, label: string) {
  await expect
    .poll(() => page.evaluate(() => [document.documentElement, ...document.querySelectorAll('.crm-table-scroll')].every((el) => el.scrollWidth <= el.clientWidth)), { message: label })
    .toBe(true);
}

for (const language of ['en-UK', 'el'] as const) {
  test(`on a 412 px phone the lists show price, amounts and parties without a sideways scroll (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const L = TEXTS[language];
    const token = await apiToken(request);
    const mark = `${language === 'el' ? 'Καρτέλα' : 'Kartela'}${Date.now() % 1000000}`;
    const seller = (await post<{ id: number }>(request, token, '/api/account/add', { firstName: 'Σοφία', lastName: `Seller${mark}`, isOwner: true, hasTransactions: true })).id;
    const buyer = (await post<{ id: number }>(request, token, '/api/account/add', { firstName: 'Νίκος', lastName: `Buyer${mark}`, isClient: true })).id;
    const price = 3_000_000 + Math.floor(Math.random() * 900_000);
    const object = await createObject(request, token, price, seller, true);
    await addTransactions(request, token, seller);
    const { id: dealId } = await post<{ id: number }>(request, token, '/api/Deal/update', { dealType: 2, dealStage: 1, objectId: object.id, askingPrice: price, accounts: [{ accountId: seller, relation: 1 }, { accountId: buyer, relation: 2 }] });
    const priceText = new RegExp(`${L.sale}\\s${String(price).replace(/(\d)(?=(\d{3})+$)/g, '$1\\s')}\\s€`);

    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: PHONE, isMobile: true, cookies: {
      'ObjectSearch.filter': { forSale: true, priceMin: price, priceMax: price, showOnMap: false, perPage: 20, currentPage: 1 },
      'DealList.filter': { dealType: 0, stages: [], depositFrom: null, depositTill: null, endDateFrom: null, endDateTill: null, lastName: `Buyer${mark}`, object: '' },
    } });
    const page = await ctx.newPage();

    // The property search as a list: the price and the owner, each with its label.
    await page.goto('/Objects/Search');
    const found = page.getByTestId('object-search-table-row');
    await expect(found).toHaveCount(1);
    await expect(found.getByTestId('object-search-ref')).toHaveText(`#${object.referenceNumber}`);
    await expectLine(found, L.price, priceText);
    await expectLine(found, L.owner, `Seller${mark}`);
    await expectNoSidewaysScroll(page, 'object search');
    await expectAccessible(page, `object search list at 412 px ${language}`);

    // The property list: the newest first, its owner in view; the header row is a row of sort buttons.
    await page.goto('/Objects');
    const listed = page.getByTestId('objects-table-row').filter({ hasText: `#${object.referenceNumber}` });
    await expectLine(listed, L.owner, `Seller${mark}`);
    const header = page.getByTestId('objects-table').getByRole('row').first();
    expect(await header.evaluate((tr) => getComputedStyle(tr, '::before').content)).toBe(`"${L.sortBy}" / ""`);
    await expect(header.getByRole('columnheader', { name: L.owner })).toBeInViewport();
    await expectNoSidewaysScroll(page, 'objects');
    await expectAccessible(page, `objects list at 412 px ${language}`);

    // The statement: newest first, the expense (debit) then the income (credit), each with its balance.
    await page.goto(`/Payments/View/${seller}`);
    const rows = page.getByTestId('statement-table-row');
    await expect(rows).toHaveCount(2);
    const [expense, income] = [rows.nth(0), rows.nth(1)];
    await expect(expense.getByRole('cell', { name: '05/03/2026, 09:15' })).toBeVisible();
    await expectLine(expense, L.category, L.electricity);
    await expectLine(expense, L.debit, '80,20\u00a0€');
    // The expense is not paid yet: the balance (of what was paid) is as it was before it (issue 45).
    await expectLine(expense, L.balance, '1\u00a0250,50\u00a0€');
    await expect(income.getByRole('cell', { name: '02/03/2026, 10:30' })).toBeVisible();
    await expectLine(income, L.category, L.rent);
    await expectLine(income, L.credit, '1\u00a0250,50\u00a0€');
    // The income's balance equals its credit: the balance is the income card's last amount line.
    const incomeBalance = income.getByRole('cell').filter({ hasText: '1\u00a0250,50\u00a0€' }).last();
    expect(await incomeBalance.evaluate((td) => getComputedStyle(td, '::before').content)).toBe(`"${L.balance}" / ""`);
    await expect(incomeBalance).toBeVisible();
    // The edit button sits on the card, a link that still opens the expense.
    await expect(expense.getByTestId('statement-edit')).toBeInViewport();
    await expectNoSidewaysScroll(page, 'statement');
    await expectAccessible(page, `statement at 412 px ${language}`);

    // The deals list: the deal's seller and buyer, as links to their accounts.
    await page.goto('/Deals');
    const deal = page.getByTestId('deals-table-row');
    await expect(deal).toHaveCount(1);
    // The card heads with the deal's type and property, as an agent knows it; its number on a smaller line below.
    const heading = deal.getByRole('link', { name: `${L.sale} · #${object.referenceNumber} ${L.place}`, exact: true });
    await expect(heading).toBeVisible();
    await expect(heading).toHaveAttribute('href', `/Deals/${dealId}`);
    const number = deal.getByText(`${L.dealNo} ${dealId}`, { exact: true });
    await expect(number).toBeVisible();
    const [headBox, numberBox] = [(await heading.boundingBox())!, (await number.boundingBox())!];
    expect(numberBox.y, 'the number is under the heading').toBeGreaterThanOrEqual(headBox.y + headBox.height - 1);
    expect(await number.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeLessThan(await heading.evaluate((el) => parseFloat(getComputedStyle(el).fontSize)));
    await expect(deal.getByText(String(dealId), { exact: true })).toBeHidden();
    await expectLine(deal, L.seller, `Seller${mark}`);
    await expectLine(deal, L.buyer, `Buyer${mark}`);
    await expectLine(deal, L.price, /\d\s€/);
    await expectNoSidewaysScroll(page, 'deals');
    await expectAccessible(page, `deals list at 412 px ${language}`);
    // Sorting from the phone's header: the sort button of the price column.
    const sortPrice = page.getByTestId('deals-table').getByRole('button', { name: L.price });
    await expect(sortPrice).toBeInViewport();
    await sortPrice.click();
    await expect(page.getByTestId('deals-table').getByRole('columnheader', { name: L.price })).toHaveAttribute('aria-sort', 'ascending');
    // A party's link opens the account.
    await deal.getByTestId('deal-buyer').click();
    await expect(page).toHaveURL(new RegExp(`/Accounts/View/${buyer}$`));
    await ctx.close();
  });
}

test('at 1280 px the same lists are still tables, sorted from their headers', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const owner = (await post<{ id: number }>(request, token, '/api/account/add', { firstName: 'Άννα', lastName: `Desk${Date.now() % 1000000}`, isOwner: true, hasTransactions: true })).id;
  await addTransactions(request, token, owner);
  const ctx = await signedIn(browser, baseURL!, token, 'en-UK');
  const page = await ctx.newPage();
  await page.goto(`/Payments/View/${owner}`);
  const row = page.getByTestId('statement-table-row').first();
  await expect(row).toBeVisible();
  // The header row shows every column title; the row's date, debit and balance are side by side on one line.
  const table = page.getByTestId('statement-table');
  for (const name of ['Date', 'Category', 'Debit', 'Credit', 'Balance']) await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
  const date = (await row.getByRole('cell', { name: '05/03/2026, 09:15' }).boundingBox())!;
  const debit = (await row.getByRole('cell', { name: '80,20\u00a0€', exact: true }).boundingBox())!;
  // The expense is not paid yet: its row's balance is the paid balance before it (issue 45).
  const balance = (await row.getByRole('cell', { name: '1\u00a0250,50\u00a0€' }).boundingBox())!;
  expect(debit.y).toBe(date.y);
  expect(balance.y).toBe(date.y);
  expect(debit.x).toBeGreaterThan(date.x + date.width);
  expect(balance.x).toBeGreaterThan(debit.x + debit.width);
  // The unpaid bill is past its due day: said so, in red, not as "due".
  const due = row.getByTestId('statement-due');
  await expect(due).toHaveText('Overdue since 20/03/2026');
  await expect(due).toHaveAttribute('data-overdue', 'true');
  await expectNoSidewaysScroll(page, 'statement at 1280 px');
  await expectAccessible(page, 'statement at 1280 px');

  await page.goto('/Objects');
  const objects = page.getByTestId('objects-table');
  const header = objects.getByRole('columnheader', { name: 'Owner', exact: true });
  await expect(header).toBeVisible();
  const first = objects.getByTestId('objects-table-row').first();
  const ref = (await first.getByTestId('object-link').boundingBox())!;
  const headerBox = (await header.boundingBox())!;
  expect(headerBox.y).toBeLessThan(ref.y);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await ctx.close();
});

test('on an upright 768 px tablet a list is cards two to a row, with nothing behind a sideways scroll', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `Tablet${Date.now() % 1000000}`;
  const owner = (await post<{ id: number }>(request, token, '/api/account/add', { firstName: 'Ελένη', lastName: mark, isOwner: true })).id;
  for (const price of [410_000, 420_000]) await createObject(request, token, price, owner);
  const ctx = await signedIn(browser, baseURL!, token, 'el', { viewport: { width: 768, height: 1024 }, isMobile: true });
  const page = await ctx.newPage();
  await page.goto('/Objects');
  const rows = page.getByTestId('objects-table-row');
  await expect(rows.first()).toBeVisible();
  // The two newest properties side by side: one line, two cards, each inside the screen.
  const [a, b] = [(await rows.nth(0).boundingBox())!, (await rows.nth(1).boundingBox())!];
  expect(b.y).toBe(a.y);
  expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
  expect(b.x + b.width).toBeLessThanOrEqual(768);
  // Every column is a labelled line of the card, the owner included.
  const ownerLine = rows.filter({ hasText: mark }).first().getByRole('cell').filter({ hasText: mark });
  await expect(ownerLine).toBeInViewport();
  expect(await ownerLine.evaluate((td) => getComputedStyle(td, '::before').content)).toBe(`"${TEXTS.el.owner}" / ""`);
  await expectNoSidewaysScroll(page, 'objects at 768 px');
  await expectAccessible(page, 'objects list at 768 px');
  await ctx.close();
});

test('on a phone the cards scroll with the page, and a long page draws its next rows as the end comes near', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  // Every account on one page ("Show all"): more than the 200 rows drawn at first (the demo agency has several hundred).
  const total = ((await (await request.get('/api/account?perPage=5&currentPage=1', { headers: auth(token) })).json()) as { totalRows: number }).totalRows;
  expect(total).toBeGreaterThan(200);
  const ctx = await signedIn(browser, baseURL!, token, 'el', { viewport: PHONE, isMobile: true, cookies: { 'AccountList.list': { perPage: 1000000, currentPage: 1, sortBy: 'createdOn', sortDir: 'desc' } } });
  const page = await ctx.newPage();
  await page.goto('/Accounts');
  const rows = page.getByTestId('accounts-table-row');
  await expect(rows).toHaveCount(200);
  // No scroll area of its own inside the page: the list is as tall as its cards.
  expect(await page.locator('.crm-table-scroll').evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  // Scrolling the page to the end draws the next 200 (or the rest).
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(rows).toHaveCount(Math.min(total, 400));
  await ctx.close();
});

for (const language of ['el', 'ru'] as const) {
  test(`at 1280 px the deals and short-let lists show every column without a sideways scroll (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    for (const [path, table] of [
      ['/Deals', 'deals-table'],
      ['/Reservations', 'reservations-table'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByTestId(`${table}-row`).first()).toBeVisible();
      // The table's first column is the deal's number alone (a phone's card heads with its type and property).
      if (table === 'deals-table') await expect(page.getByTestId('deal-link').first()).toHaveText(/^\d+$/, { useInnerText: true });
      await expectNoSidewaysScroll(page, `${path} at 1280 px (${language})`);
      // Each sort button is big enough to click (WCAG 2.5.8: 24 px), and the header row no taller for it than its titles.
      const sorts = page.getByTestId(table).locator('thead button');
      expect(await sorts.count()).toBeGreaterThan(0);
      for (const height of await sorts.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height))) expect(height).toBeGreaterThanOrEqual(24);
      // The header row is as high as with buttons no bigger than their titles.
      const heights = await page.getByTestId(table).locator('thead tr').evaluate((tr) => {
        const asIs = tr.getBoundingClientRect().height;
        const bare = document.head.appendChild(document.createElement('style'));
        bare.textContent = '.crm-table-sort { min-height: 0 !important; padding: 0 !important; margin: 0 !important; }';
        const titlesOnly = tr.getBoundingClientRect().height;
        bare.remove();
        return { asIs, titlesOnly };
      });
      expect(heights.asIs).toBeCloseTo(heights.titlesOnly, 0);
      // The last column (the edit buttons) is on the screen.
      const edit = page.getByTestId(`${table}-row`).first().getByRole('cell').last();
      const box = (await edit.boundingBox())!;
      expect(box.x + box.width, `${path}: the last column ends on the screen`).toBeLessThanOrEqual(1280);
    }
    await ctx.close();
  });
}
