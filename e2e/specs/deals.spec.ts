import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, auth, expectAccessible, inLanguage, patchField, signedIn, openAsAdmin, openSignedIn } from '../fixtures.ts';
import { downloadWorkbook } from '../pages/list.ts';
import { RecordPage } from '../pages/record.ts';
import { ConflictMerge } from '../pages/conflict.ts';

/**
 * A sale from the form to the board: a demo flat's sale recorded with its owner as the seller, and
 * buyer and notary picked by name, found on the list by a party's name with its row styled by stage, dragged across the
 * board to its final stage, and the flat then listed as bought on the buyer's account.
 */
/** A party's relation, as the API numbers them. */
const DEAL_RELATION = { seller: 1, lawer: 3, notary: 4 } as const;

/**
 * The n-th demo flat for sale, not sold, counted from the newest reference number down (the
 * publishing spec takes its demo properties from the oldest up, so the two never share one).
 */
async function demoFlatForSale(request: APIRequestContext, token: string, n: number) {
  const list = await request.post('/api/object', { data: { perPage: 200, currentPage: 1, sortBy: 'referenceNumber', sortDir: 'desc' }, headers: auth(token) });
  expect(list.ok(), await list.text()).toBeTruthy();
  const { items } = (await list.json()) as { items: { id: number; referenceNumber: string; ownerId: number | null }[] };
  let seen = 0;
  // A demo flat has its owner (who comes into the deal as the seller); one another test made may not.
  for (const row of items.filter((r) => r.ownerId != null)) {
    const edit = (await (await request.get(`/api/object/edit/${row.id}`, { headers: auth(token) })).json()) as { object: Record<string, unknown> };
    const o = edit.object;
    if (o.forSale === true && o.sold !== true && o.objectSubTypeId === 1 && typeof o.salePrice === 'number' && String(o.title ?? '') !== '' && seen++ === n) {
      return { id: row.id, referenceNumber: row.referenceNumber, salePrice: o.salePrice };
    }
  }
  throw new Error('no demo flat for sale left');
}

async function createAccount(request: APIRequestContext, token: string, fields: Record<string, unknown>) {
  const res = await request.post('/api/account/add', { data: fields, headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { id: number }).id;
}

for (const language of ['en-UK', 'el'] as const) {
  test(`a flat's sale recorded, moved across the board and bought by the client (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(150_000);
    const token = await apiToken(request);
    const mark = `${language === 'el' ? 'Σταύρου' : 'Stavrou'}${Date.now() % 1000000}`;
    const flat = await demoFlatForSale(request, token, language === 'el' ? 1 : 0);
    const buyer = await createAccount(request, token, { firstName: 'Μαρία', lastName: `Buyer${mark}`, isClient: true });
    await createAccount(request, token, { firstName: 'Ελένη', lastName: `Notary${mark}`, isProfessional: true, isNotary: true });

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();

    // The spec's route table spells the add route /Deads/Add; /Deals/Add is the same screen.
    await page.goto(language === 'el' ? `/Deads/Add?objectId=${flat.id}` : `/Deals/Add?objectId=${flat.id}`);
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'create');
    await expect(page.getByTestId('deal-object-picker')).toHaveValue(new RegExp(flat.referenceNumber));
    // The flat's asking price comes with it: its digits with the thousands' separators ("6 202 277"), whatever its size.
    await expect(page.getByTestId('deal-askingPrice')).toHaveValue(new RegExp(`^${[...String(flat.salePrice)].join('[\\s.,]?')}$`));
    // Sales have a contract duration, not rent dates.
    await expect(page.getByTestId('deal-contractDurationMonths')).toBeVisible();
    await expect(page.getByTestId('deal-rentStart')).toHaveCount(0);
    // The flat's owner comes with it as the seller.
    const owners = page.getByTestId('deal-party');
    await expect(owners.first().getByTestId('deal-party-account')).not.toHaveValue('');
    const prefilled = await owners.count();
    await page.getByTestId('deal-price').fill('205000');
    for (const [who, relation] of [
      ['Buyer', 1],
      ['Notary', 3],
    ] as const) {
      await page.getByTestId('deal-add-party').click();
      const row = page.getByTestId('deal-party').last();
      await row.getByTestId('deal-party-account').fill(`${who}${mark}`);
      await page.getByRole('option', { name: new RegExp(`${who}${mark}`) }).click();
      await row.getByTestId('deal-party-relation').click();
      await page.getByRole('option').nth(relation).click();
    }
    // A row left without an account is dropped on save.
    await page.getByTestId('deal-add-party').click();
    await expectAccessible(page, 'deal create');
    await page.getByTestId('deal-save').click();

    await expect(page).toHaveURL(/\/Deals\/\d+$/);
    const dealId = Number(/\/Deals\/(\d+)$/.exec(page.url())![1]);
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'view');
    await expect(page.getByTestId('deal-party')).toHaveCount(prefilled + 2);
    await expect(page.getByTestId('deal-parties')).toContainText(`Notary${mark}`);
    await expect(page.getByTestId('deal-price')).toContainText('205');
    await expectAccessible(page, 'deal view');

    // The list finds it by a party's last name; the row is styled by its stage and links the parties.
    await page.goto('/Deals');
    await page.getByTestId('deals-filter-name').fill(`Notary${mark}`);
    const row = page.getByTestId('deals-table-row').filter({ has: page.locator(`a[href="/Deals/${dealId}"]`) });
    await expect(row).toHaveClass(/negotiation/);
    await expect(row.getByTestId('deal-buyer')).toHaveAttribute('href', `/Accounts/View/${buyer}`);
    await expectAccessible(page, 'deal list');

    // On the board, drag it from the first stage to the last but one (closed).
    await page.goto('/Deals/Board');
    const card = page.locator(`[data-testid="deal-card"][data-id="${dealId}"]`);
    await expect(page.locator('[data-testid="deal-column"][data-stage="1"]').locator(card)).toBeVisible();
    await expectAccessible(page, 'deal board');
    // The board's HTML drag and drop, driven by its own events: a mouse drag across a board wider
    // than the window scrolls it under the pointer and lands on whatever column is there then.
    const dataTransfer = await page.evaluateHandle(() => new DataTransfer());
    await card.dispatchEvent('dragstart', { dataTransfer });
    const closed = page.locator('[data-testid="deal-column"][data-stage="5"]');
    await closed.dispatchEvent('dragover', { dataTransfer });
    await closed.dispatchEvent('drop', { dataTransfer });
    // Straight to closed: the move asks for the contract's signing date it skipped (today's, in the office's time).
    await page.getByTestId('deal-stage-needs-endDate').fill(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Athens' }).format(new Date()));
    await page.getByTestId('deal-stage-needs-move').click();
    await expect(page.locator('[data-testid="deal-column"][data-stage="5"]').locator(`[data-testid="deal-card"][data-id="${dealId}"]`)).toBeVisible();

    // The buyer has bought the flat.
    await page.goto(`/Accounts/View/${buyer}`);
    await expect(page.getByTestId('view-bought')).toContainText(flat.referenceNumber);

    // Another sale of the same flat: the form says it has been sold already, and in which deal.
    await page.goto(`/Deals/Add?objectId=${flat.id}`);
    const soldAlready = page.getByTestId('deal-sold-already');
    await expect(soldAlready).toContainText(language === 'el' ? 'Το ακίνητο έχει ήδη πωληθεί, στη συμφωνία' : 'This property has already been sold, in deal');
    await expect(soldAlready.getByRole('link', { name: `#${dealId}`, exact: true })).toHaveAttribute('href', `/Deals/${dealId}`);
    await expectAccessible(page, 'a second sale of a sold flat');
    await ctx.close();
  });
}

test('at 1280 px a surname stays whole in the deals list, and a run-together name breaks in its cell rather than widen the list', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `W${Date.now() % 1000000}`;
  // Both parties carry the mark in their last names, so the list's last-name filter finds the deal by either.
  const seller = await createAccount(request, token, { firstName: 'Αντώνης', lastName: `Τριανταφυλλίδης ${mark}`, isOwner: true });
  const buyer = await createAccount(request, token, { firstName: 'Ltd', lastName: `Thessalonikirealestateinvestmentsandholdings${mark}`, isClient: true });
  const made = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 1, accounts: [{ accountId: seller, relation: 1 }, { accountId: buyer, relation: 2 }] }, headers: auth(token) });
  expect(made.ok(), await made.text()).toBeTruthy();
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', '/Deals', { viewport: { width: 1280, height: 800 } });
  await page.getByTestId('deals-filter-name').fill(mark);
  const row = page.getByTestId('deals-table-row');
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  // The surname is laid out on one line: its text has a single box.
  const sellerLink = row.getByRole('link', { name: new RegExp(`Τριανταφυλλίδης ${mark}`) });
  const boxes = await sellerLink.evaluate((a) => {
    const text = a.firstChild as Text;
    const range = document.createRange();
    const at = text.data.indexOf('Τριανταφυλλίδης');
    range.setStart(text, at);
    range.setEnd(text, at + 'Τριανταφυλλίδης'.length);
    return range.getClientRects().length;
  });
  expect(boxes).toBe(1);
  // The 50-letter name breaks inside its cell: the table is no wider than its frame.
  const overflow = await page.getByTestId('deals-table').evaluate((list) => {
    const scroll = list.querySelector('.crm-table-scroll')!;
    return scroll.scrollWidth - scroll.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(0);
  await ctx.close();
});

for (const language of ['en-UK', 'el'] as const) {
  test(`the list adds up every matching deal under it, and downloads them as Deals.xlsx (${language})`, async ({ browser, request, baseURL }) => {
    const el = language === 'el';
    const token = await apiToken(request);
    const mark = `Sum${Date.now() % 1000000}${el ? 'el' : 'en'}`;
    const notary = await createAccount(request, token, { firstName: 'Eleni', lastName: `Notary${mark}`, isProfessional: true, isNotary: true });
    const deal = async (data: Record<string, unknown>) => {
      const res = await request.post('/api/Deal/update', { data: { accounts: [{ accountId: notary, relation: DEAL_RELATION.notary }], ...data }, headers: auth(token) });
      expect(res.ok(), await res.text()).toBeTruthy();
    };
    await deal({ dealType: 2, dealStage: 5, price: 185000.5, commission: 3700.25 });
    await deal({ dealType: 2, dealStage: 1, askingPrice: 120000, commission: 2400 });
    await deal({ dealType: 2, dealStage: 6, price: 95000, commission: 1900 });
    await deal({ dealType: 1, dealStage: 5, price: 600, commission: 300 });
    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Deals', { viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    await page.getByTestId('deals-filter-name').fill(mark);
    await expect(page.getByTestId('deals-table-row')).toHaveCount(4, { timeout: 20_000 });
    // The totals of all four, the cancelled one left out of the money (and said so).
    const sums = page.getByTestId('deals-sums');
    await expect(sums).toContainText(el ? 'Σύνολα όλων των 4 συμφωνιών του φίλτρου' : 'Totals of all 4 matching deals');
    await expect(page.getByTestId('deals-sum-sales')).toHaveText('305\u00a0000,50\u00a0€');
    await expect(page.getByTestId('deals-sum-sales').locator('xpath=preceding-sibling::*[1]')).toHaveText(el ? '2 πωλήσεις' : '2 sales');
    await expect(page.getByTestId('deals-sum-rentals')).toHaveText('600,00\u00a0€');
    await expect(page.getByTestId('deals-sum-rentals').locator('xpath=preceding-sibling::*[1]')).toHaveText(el ? '1 μίσθωση (μηνιαίο μίσθωμα)' : '1 rental (monthly rent)');
    await expect(page.getByTestId('deals-sum-commission')).toHaveText('6\u00a0400,25\u00a0€');
    await expect(page.getByTestId('deals-sums-note')).toBeVisible();
    await expectAccessible(page);

    // The download holds all four, with the same totals, in the reader's language. A double click
    // makes it once (the button is busy from the first click): the log below has one row of it.
    const ws = (await downloadWorkbook(page, page.getByTestId('deals-download'), 'Deals.xlsx', 'dblclick')).worksheets[0]!;
    expect(ws.name).toBe(el ? 'Συμφωνίες' : 'Deals');
    expect([ws.getCell('A3').value, ws.getCell('B3').value, ws.getCell('H3').value]).toEqual([el ? '2 πωλήσεις' : '2 sales', 305000.5, 6400.25]);
    expect([7, 8, 9, 10].map((r) => typeof ws.getRow(r).getCell(1).value)).toEqual(['number', 'number', 'number', 'number']);
    expect(ws.getRow(11).getCell(1).value ?? null).toBeNull();

    // Cancelled picked in the stages: the note goes, and the money counts only those.
    await page.getByTestId('deals-filter-stages').click();
    await page.getByRole('option', { name: el ? 'Ακυρώθηκε' : 'Cancelled' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('deals-table-row')).toHaveCount(1);
    await expect(page.getByTestId('deals-sum-commission')).toHaveText('1\u00a0900,00\u00a0€');
    await expect(page.getByTestId('deals-sums-note')).toHaveCount(0);

    // The download is on the record: who took the list, how many rows, with which filter.
    // 100 entries a page: the other specs running beside this one log their changes meanwhile, and
    // on a page of 20 this download's entry could already be on the second.
    await ctx.addCookies([{ name: 'ActionLog.list', value: encodeURIComponent(JSON.stringify({ perPage: 100 })), url: baseURL! }]);
    await page.goto('/ActionLog');
    await expect(page.getByTestId('action-log-table-page-size')).toHaveValue('100');
    const logged = page.getByTestId('action-log-table-row').filter({ hasText: 'Deals.xlsx' }).filter({ hasText: mark });
    await expect(logged).toHaveCount(1, { timeout: 20_000 });
    await expect(logged).toContainText(el ? 'Λήψη αρχείου' : 'Downloaded');
    await expect(logged).toContainText('admin');
    const data = logged.getByTestId('action-log-data');
    await expect(data.getByRole('row').filter({ hasText: el ? 'Γραμμές στο αρχείο' : 'Rows in the file' })).toContainText('4');
    await expect(data.getByRole('row').filter({ hasText: el ? 'Φίλτρο' : 'Filter' })).toContainText(el ? `Επώνυμο (οποιουδήποτε μέρους): ${mark}` : `Last name (any party): ${mark}`);
    await expectAccessible(page);
    await ctx.close();
  });
}

for (const language of inLanguage('en-UK')) {
  test(`a deal opened to be read is asked for once, with its code; Edit reads it afresh (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    // A deal with a party (a buyer), made for this test.
    const buyer = await request.post('/api/account/add', { data: { firstName: 'Nikos', lastName: `Readonce${Date.now() % 100000}`, isClient: true }, headers: auth(token) });
    expect(buyer.ok(), await buyer.text()).toBeTruthy();
    const made = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 1, accounts: [{ accountId: (await buyer.json()).id, relation: 2 }] }, headers: auth(token) });
    expect(made.ok(), await made.text()).toBeTruthy();
    const id = ((await made.json()) as { id: number }).id;
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    const events: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === `/api/Deal/edit/${id}`) events.push('ask');
    });
    page.on('requestfinished', (r) => {
      if (/\/deal-page-[\w-]+\.js$/.test(new URL(r.url()).pathname)) events.push('code');
    });
    await page.goto(`/Deals/${id}`);
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'view');
    await expect(page.getByTestId('deal-stamps')).toBeVisible();
    expect(events, events.join(' ')).toEqual(['ask', 'code']);
    // The form starts from the latest version: entering edit reads the deal again.
    await page.getByTestId('deal-edit').click();
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'edit');
    await expect(page.getByTestId('deal-stamps')).toBeVisible();
    expect(events.filter((e) => e === 'ask'), events.join(' ')).toHaveLength(2);
    // Cancel with nothing changed leaves at once (the party rows' own keys are not a change).
    await expect(page.getByTestId('deal-party').first()).toBeVisible();
    await page.getByTestId('deal-cancel').click();
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'view');
    await expect(page.getByTestId('unsaved-keep')).toHaveCount(0);
    await ctx.close();
  });
}

// In both languages: the deposit's dialog says what it needs in the reader's words.
for (const language of ['en-UK', 'el'] as const) {
  test(`the board shows twenty deals of a stage, and more when asked; a move to the deposit's stage asks for its amount and date (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    // A property of its own, so that the board filtered by it holds only these deals.
    const add = await request.get('/api/object/add', { headers: auth(token) });
    expect(add.ok(), await add.text()).toBeTruthy();
    const flat = (await add.json()) as { id: number; referenceNumber: string };
    for (let i = 0; i < 21; i++) {
      const res = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 4, objectId: flat.id, askingPrice: 90000 + i }, headers: auth(token) });
      expect(res.ok(), await res.text()).toBeTruthy();
    }
    // A rental of the same property, in another stage: its monthly rent is not added to sale prices.
    const rental = await request.post('/api/Deal/update', { data: { dealType: 1, dealStage: 3, objectId: flat.id, askingPrice: 850 }, headers: auth(token) });
    expect(rental.ok(), await rental.text()).toBeTruthy();
    const rentalId = ((await rental.json()) as { id: number }).id;
    const ctx = await signedIn(browser, baseURL!, token, language);
    const filter = { dealType: 0, depositFrom: null, depositTill: null, endDateFrom: null, endDateTill: null, lastName: '', object: `#${flat.referenceNumber}` };
    await ctx.addCookies([{ name: 'DealBoard.filter', value: encodeURIComponent(JSON.stringify(filter)), url: baseURL! }]);
    const page = await ctx.newPage();
    await page.goto('/Deals/Board');
    const column = page.locator('[data-testid="deal-column"][data-stage="4"]');
    await expect(column.getByTestId('deal-column-count')).toHaveText('21');
    await expect(column.getByTestId('deal-card')).toHaveCount(20);
    await expect(column.getByTestId('deal-column-show-more')).toHaveText(language === 'el' ? 'Εμφάνιση 1 ακόμη' : 'Show 1 more');
    // Every deal of the stage counts in its total, not only the cards shown: 21 × 90 000 + (0 + … + 20).
    await expect(column.getByTestId('deal-column-total')).toHaveText(language === 'el' ? 'Πωλήσεις 1 890 210 €' : 'Sales 1 890 210 €');
    await expect(page.locator('[data-testid="deal-column"][data-stage="3"]').getByTestId('deal-column-total')).toHaveText(language === 'el' ? 'Μισθώματα 850 € / μήνα' : 'Rents 850 € a month');
    await column.getByTestId('deal-column-show-more').click();
    await expect(column.getByTestId('deal-card')).toHaveCount(21);
    await expect(column.getByTestId('deal-column-show-more')).toHaveCount(0);
    await expectAccessible(page);

    // Without dragging (a keyboard, a finger): Move to… offers the other stages by name, in full.
    const rentalCard = page.locator('[data-testid="deal-column"][data-stage="3"]').getByTestId('deal-card');
    await rentalCard.getByTestId('deal-card-stage').click();
    // The board of every type names the deposit's stage both ways; a rental's menu names it as a
    // rental's (its security deposit, not a sale's earnest money).
    await expect(page.locator('[data-testid="deal-column"][data-stage="2"] h3')).toHaveText(language === 'el' ? 'Δόθηκε αρραβώνας / εγγύηση' : 'Deposit paid');
    const stage2 = language === 'el' ? 'Δόθηκε εγγύηση' : 'Deposit paid';
    await expect(page.getByRole('menuitem', { name: (await page.locator('[data-testid="deal-column"][data-stage="3"] h3').textContent())! })).toBeDisabled();
    await expectAccessible(page, 'deal board with a card\'s Move menu open');
    await page.getByRole('menuitem', { name: stage2, exact: true }).click();
    // The deposit's stage needs its amount and date: asked in the same move, in the rental's words.
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(language === 'el' ? `στο στάδιο «${stage2}»` : `to “${stage2}”`);
    await expect(page.getByTestId('deal-stage-needs-deposit')).toHaveAccessibleName(language === 'el' ? /^Εγγύηση/ : /^Deposit/);
    // The Move menu has closed (on a busy machine it may still be fading out behind the dialog).
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expectAccessible(page, 'deal board asking for the deposit');
    // Moved without them: the server refuses, and the dialog says what is missing; nothing moved.
    await page.getByTestId('deal-stage-needs-move').click();
    await expect(dialog).toContainText(language === 'el' ? 'Συμπληρώστε το ποσό για να μεταφέρετε τη συμφωνία' : 'Enter the amount to move the deal to');
    await expect(page.locator('[data-testid="deal-column"][data-stage="3"]').getByTestId('deal-card')).toHaveCount(1);
    await expectAccessible(page, 'deal board dialog with its errors');
    await page.getByTestId('deal-stage-needs-deposit').fill('1700');
    await page.getByTestId('deal-stage-needs-dateOfDeposit').fill('02/11/2026');
    await page.getByTestId('deal-stage-needs-move').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('banner')).toContainText(language === 'el' ? `μεταφέρθηκε στο στάδιο «${stage2}»` : `moved to “${stage2}”`);
    const moved = (await (await request.get(`/api/Deal/edit/${rentalId}`, { headers: auth(token) })).json()) as { dealStage: number; deposit: number; dateOfDeposit: string };
    expect(moved).toMatchObject({ dealStage: 2, deposit: 1700, dateOfDeposit: '2026-11-02' });
    await expect(page.locator('[data-testid="deal-column"][data-stage="2"]').getByTestId('deal-column-total')).toHaveText(language === 'el' ? 'Μισθώματα 850 € / μήνα' : 'Rents 850 € a month');
    await ctx.close();
  });
}

for (const language of ['en-UK', 'el'] as const) {
  test(`on a phone, a card moved far down the board says so where it can be read (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const add = await request.get('/api/object/add', { headers: auth(token) });
    expect(add.ok(), await add.text()).toBeTruthy();
    const flat = (await add.json()) as { id: number; referenceNumber: string };
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 2, objectId: flat.id, askingPrice: 120000 + i }, headers: auth(token) });
      expect(res.ok(), await res.text()).toBeTruthy();
      ids.push(((await res.json()) as { id: number }).id);
    }
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 412, height: 915 }, isMobile: true });
    const filter = { dealType: 0, depositFrom: null, depositTill: null, endDateFrom: null, endDateTill: null, lastName: '', object: `#${flat.referenceNumber}` };
    await ctx.addCookies([{ name: 'DealBoard.filter', value: encodeURIComponent(JSON.stringify(filter)), url: baseURL! }]);
    const page = await ctx.newPage();
    await page.goto('/Deals/Board');
    const column = page.locator('[data-testid="deal-column"][data-stage="2"]');
    await expect(column.getByTestId('deal-card')).toHaveCount(12);
    // The oldest card is the last of its column, screens below the banner's place.
    const last = column.locator(`[data-testid="deal-card"][data-id="${ids[0]}"]`);
    await last.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(915);
    await last.getByTestId('deal-card-stage').click();
    const stage3 = (await page.locator('[data-testid="deal-column"][data-stage="3"] h3').textContent())!;
    await page.getByRole('menuitem', { name: stage3 }).click();
    const banner = page.getByTestId('banner');
    await expect(banner).toContainText(language === 'el' ? `Η συμφωνία #${ids[0]} μεταφέρθηκε στο στάδιο «${stage3}».` : `Deal #${ids[0]} moved to “${stage3}”.`);
    await expect(banner).toBeInViewport();
    await expectAccessible(page, 'deal board with a message over it');
    // Scrolled back up, the message is in its place above the board.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.locator('.banner-place')).not.toHaveAttribute('data-floating');
    await expect(banner).toBeInViewport();
    await ctx.close();
  });
}

for (const language of ['en-UK', 'el'] as const) {
  test(`an empty deal is refused; a lead picked brings its client as buyer and its property with owner and price (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const mark = `${language === 'el' ? 'Λεκκα' : 'Lekka'}${Date.now() % 1000000}`;
    const owner = await createAccount(request, token, { firstName: 'Γιώργος', lastName: `Owner${mark}`, isOwner: true });
    const client = await createAccount(request, token, { firstName: 'Σοφία', lastName: `Client${mark}`, isClient: true });
    // A house of its own, for sale, with its owner; offered to the client's lead (its only property).
    const add = await request.get('/api/object/add', { headers: auth(token) });
    const house = (await add.json()) as { id: number; version: number; referenceNumber: string };
    const upd = await request.post('/api/object/update', { data: { id: house.id, version: house.version, forSale: true, salePrice: 240000, title: `House ${mark}` }, headers: auth(token) });
    expect(upd.ok(), await upd.text()).toBeTruthy();
    const link = await request.post('/api/objectAccount/add', { data: { objectId: house.id, accountId: owner, relation: 1 }, headers: auth(token) });
    expect(link.ok(), await link.text()).toBeTruthy();
    const lead = (await (await request.post('/api/lead/add', { data: { accountId: client }, headers: auth(token) })).json()) as { id: number };
    const offered = await request.post('/api/lead/addObject', { data: { leadId: lead.id, objectId: house.id }, headers: auth(token) });
    expect(offered.ok(), await offered.text()).toBeTruthy();

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Deals/Add');
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'create');
    // Saved empty: the form says what it needs, and stays.
    await page.getByTestId('deal-save').click();
    await expect(page.getByTestId('deal-object-picker')).toHaveAccessibleDescription(
      language === 'el' ? 'Επιλέξτε το ακίνητο ή προσθέστε τουλάχιστον ένα συμβαλλόμενο μέρος πριν αποθηκεύσετε τη συμφωνία.' : 'Choose the property or add at least one party before saving the deal.',
    );
    await expect(page).toHaveURL(/\/Deals\/Add$/);

    // The lead picked by its client's name.
    await page.getByTestId('deal-lead-picker').fill(`Client${mark}`);
    await page.getByRole('option', { name: new RegExp(`Client${mark}`) }).click();
    await expect(page.getByTestId('deal-object-picker')).toHaveValue(new RegExp(house.referenceNumber));
    await expect(page.getByTestId('deal-askingPrice')).toHaveValue(/^240/);
    const parties = page.getByTestId('deal-party');
    await expect(parties).toHaveCount(2);
    await expect(parties.nth(0).getByTestId('deal-party-account')).toHaveValue(new RegExp(`Owner${mark}`));
    await expect(parties.nth(1).getByTestId('deal-party-account')).toHaveValue(new RegExp(`Client${mark}`));
    // On a phone a party's row stacks: the person's box takes the card's width, not half of it.
    await page.setViewportSize({ width: 412, height: 900 });
    await expect.poll(async () => (await parties.nth(0).getByTestId('deal-party-account').boundingBox())!.width).toBeGreaterThan(250);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    // A deposit above the asking price is said under the deposit (a slip of the keyboard, usually), not refused.
    const depositAbove = language === 'el' ? 'Ο αρραβώνας είναι μεγαλύτερος από την τιμή: ελέγξτε τα δύο ποσά.' : 'The deposit is more than the price: check both amounts.';
    await page.getByTestId('deal-deposit').fill('2400000');
    await expect(page.getByTestId('deal-deposit')).toHaveAccessibleDescription(depositAbove);
    await page.getByTestId('deal-deposit').fill('24000');
    await expect(page.getByText(depositAbove)).toHaveCount(0);
    await expectAccessible(page, 'deal from a lead');
    await page.getByTestId('deal-save').click();
    await expect(page).toHaveURL(/\/Deals\/\d+$/);
    const dealId = Number(/\/Deals\/(\d+)$/.exec(page.url())![1]);
    const stored = (await (await request.get(`/api/Deal/edit/${dealId}`, { headers: auth(token) })).json()) as { objectId: number; demandId: number; accounts: { accountId: number; relation: number }[] };
    expect(stored).toMatchObject({ objectId: house.id, demandId: lead.id });
    expect(stored.accounts.map((p) => [p.accountId, p.relation])).toEqual([
      [owner, 1],
      [client, 2],
    ]);
    // The footer names who made it; a demo deal (made by nobody) says only when, never "by —".
    await expect(page.getByTestId('deal-stamps')).toContainText(`${language === 'el' ? 'από' : 'by'} admin`);
    // The first administrator is named, not shown by the sign-in's address.
    await expect(page.getByTestId('deal-stamps')).not.toContainText('admin@example.com');
    const demo = (await (await request.post('/api/Deal/search', { data: { perPage: 1, currentPage: 1, sortBy: 'createdOn', sortDir: 'asc' }, headers: auth(token) })).json()) as { items: { id: number }[] };
    await page.goto(`/Deals/${demo.items[0]!.id}`);
    await expect(page.getByTestId('deal-stamps')).toContainText(language === 'el' ? 'Δημιουργία' : 'Created');
    await expect(page.getByTestId('deal-stamps')).not.toContainText('—');
    await expect(page.getByTestId('deal-stamps')).not.toContainText(language === 'el' ? 'από' : ' by ');

    // A lead that wants to rent: the deal becomes a rental, at the flat's monthly rent.
    const tenant = await createAccount(request, token, { firstName: 'Lars', lastName: `Tenant${mark}`, isClient: true });
    const rentAdd = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number; version: number; referenceNumber: string };
    expect((await request.post('/api/object/update', { data: { id: rentAdd.id, version: rentAdd.version, forRent: true, rentPrice: 650, title: `Flat ${mark}` }, headers: auth(token) })).ok()).toBeTruthy();
    const rentLead = (await (await request.post('/api/lead/add', { data: { accountId: tenant }, headers: auth(token) })).json()) as { id: number };
    expect((await request.post('/api/lead/update', { data: { id: rentLead.id, version: 1, forRent: true }, headers: auth(token) })).ok()).toBeTruthy();
    expect((await request.post('/api/lead/addObject', { data: { leadId: rentLead.id, objectId: rentAdd.id }, headers: auth(token) })).ok()).toBeTruthy();
    await page.goto('/Deals/Add');
    await page.getByTestId('deal-lead-picker').fill(`Tenant${mark}`);
    await page.getByRole('option', { name: new RegExp(`Tenant${mark}`) }).click();
    await expect(page.getByTestId('deal-object-picker')).toHaveValue(new RegExp(rentAdd.referenceNumber));
    await expect(page.getByTestId('deal-dealType')).toHaveValue(language === 'el' ? 'Μίσθωση' : 'Rental');
    await expect(page.getByTestId('deal-rentStart')).toBeVisible();
    await expect(page.getByTestId('deal-askingPrice')).toHaveValue(/^650/);
    await ctx.close();
  });
}

/** A rental's words, in the two languages the deals are tried in. */
const RENTAL_WORDS = {
  'en-UK': {
    rental: 'Rental',
    sale: 'Sale',
    closed: 'Closed',
    deposit: 'Deposit',
    saleDeposit: 'Deposit',
    eitherDeposit: 'Deposit',
    depositPaid: 'Deposit paid',
    saleDepositPaid: 'Deposit paid',
    landlord: 'Landlord',
    tenant: 'Tenant',
    seller: 'Seller',
    sellerOrLandlord: 'Seller / landlord',
    remove: 'Remove',
    noParties: 'No parties yet: add the landlord, the tenant and the professionals involved.',
    abovePrice: 'The deposit is more than the price: check both amounts.',
    aboveRent: "The deposit is more than three months' rent: check both amounts.",
    registered: (name: string, ref: string) => `${name} is now the tenant of property #${ref}, from 01/01/2027 to 31/12/2029.`,
    deleteConfirm: 'Delete the deal?',
    tenantGoes: (name: string, ref: string) => `The tenant this deal put on property #${ref} (01/01/2027 – 31/12/2029), unchanged since, will be removed with it: ${name}.`,
    tenantRemoved: (name: string, ref: string) => `The tenant this deal put on property #${ref} (01/01/2027 – 31/12/2029) was removed with it: ${name}.`,
  },
  el: {
    rental: 'Μίσθωση',
    sale: 'Πώληση',
    closed: 'Ολοκληρώθηκε',
    deposit: 'Εγγύηση',
    saleDeposit: 'Αρραβώνας',
    eitherDeposit: 'Αρραβώνας / εγγύηση',
    depositPaid: 'Δόθηκε εγγύηση',
    saleDepositPaid: 'Δόθηκε αρραβώνας',
    landlord: 'Εκμισθωτής',
    tenant: 'Μισθωτής',
    seller: 'Πωλητής',
    sellerOrLandlord: 'Πωλητής / εκμισθωτής',
    remove: 'Αφαίρεση',
    noParties: 'Δεν έχουν προστεθεί μέρη: προσθέστε εκμισθωτή, μισθωτή και τους επαγγελματίες της συμφωνίας.',
    abovePrice: 'Ο αρραβώνας είναι μεγαλύτερος από την τιμή: ελέγξτε τα δύο ποσά.',
    aboveRent: 'Η εγγύηση ξεπερνά τα τρία μισθώματα: ελέγξτε τα δύο ποσά.',
    registered: (name: string, ref: string) => `Νέος μισθωτής στο ακίνητο #${ref}, από 01/01/2027 έως 31/12/2029: ${name}.`,
    deleteConfirm: 'Να διαγραφεί η συμφωνία;',
    tenantGoes: (name: string, ref: string) =>
      `Μαζί με τη συμφωνία θα αφαιρεθεί από το ακίνητο #${ref} ο μισθωτής που καταχώρισε η συμφωνία και δεν έχει αλλάξει από τότε (01/01/2027 – 31/12/2029): ${name}.`,
    tenantRemoved: (name: string, ref: string) => `Αφαιρέθηκε από το ακίνητο #${ref} ο μισθωτής που είχε καταχωρίσει η συμφωνία (01/01/2027 – 31/12/2029): ${name}.`,
  },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`a flat let: landlord and tenant named so, two months' deposit not questioned, and closing puts the tenant on the flat (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const words = RENTAL_WORDS[language];
    const token = await apiToken(request);
    const mark = `${language === 'el' ? 'Ενοικ' : 'Let'}${Date.now() % 1000000}`;
    const landlord = await createAccount(request, token, { firstName: 'Kostas', lastName: `Landlord${mark}`, isOwner: true });
    const tenant = await createAccount(request, token, { firstName: 'Irina', lastName: `Tenant${mark}`, isClient: true });
    const added = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number; version: number; referenceNumber: string };
    const upd = await request.post('/api/object/update', { data: { id: added.id, version: added.version, forRent: true, rentPrice: 850, title: `Flat ${mark}` }, headers: auth(token) });
    expect(upd.ok(), await upd.text()).toBeTruthy();
    const owner = await request.post('/api/objectAccount/add', { data: { objectId: added.id, accountId: landlord, relation: 1 }, headers: auth(token) });
    expect(owner.ok(), await owner.text()).toBeTruthy();

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, `/Deals/Add?objectId=${added.id}`);
    await expect(page.getByTestId('deal-dealType')).toHaveValue(words.rental);
    // The flat's owner comes as its landlord; without parties, the form asks for a rental's people.
    const parties = page.getByTestId('deal-party');
    await expect(parties).toHaveCount(1);
    await expect(parties.first().getByTestId('deal-party-relation')).toHaveValue(words.landlord);
    await parties.first().getByRole('button', { name: new RegExp(`^${words.remove}`) }).click();
    await expect(page.getByTestId('deal-parties')).toContainText(words.noParties);
    // Added back by name, then the tenant: each row's role in a rental's words.
    for (const [who, role] of [
      [`Landlord${mark}`, words.landlord],
      [`Tenant${mark}`, words.tenant],
    ] as const) {
      await page.getByTestId('deal-add-party').click();
      const row = parties.last();
      await row.getByTestId('deal-party-account').fill(who);
      await page.getByRole('option', { name: new RegExp(who) }).click();
      await expect(row.getByTestId('deal-party-relation')).toHaveValue(role);
    }
    await parties.last().getByTestId('deal-party-relation').click();
    await expect(page.getByRole('option', { name: words.landlord, exact: true })).toBeVisible();
    await expect(page.getByRole('option', { name: words.seller, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // A rental's deposit is its security deposit (Greek «Εγγύηση»), paid in its stage of that name; a
    // sale's is earnest money («Αρραβώνας»): the form names them by the type chosen.
    const stageOptions = async () => {
      await page.getByTestId('deal-dealStage').click();
      const names = await page.getByRole('option').allTextContents();
      await page.keyboard.press('Escape');
      return names;
    };
    await expect(page.getByTestId('deal-deposit')).toHaveAccessibleName(words.deposit);
    await expect(page.getByTestId('deal-dateOfDeposit')).toHaveAccessibleName(language === 'el' ? 'Ημερομηνία καταβολής εγγύησης' : 'Date of deposit');
    expect(await stageOptions()).toContain(words.depositPaid);
    await page.getByTestId('deal-dealType').click();
    await page.getByRole('option', { name: words.sale, exact: true }).click();
    await expect(page.getByTestId('deal-deposit')).toHaveAccessibleName(words.saleDeposit);
    expect(await stageOptions()).toContain(words.saleDepositPaid);
    await page.getByTestId('deal-dealType').click();
    await page.getByRole('option', { name: words.rental, exact: true }).click();
    await expect(page.getByTestId('deal-deposit')).toHaveAccessibleName(words.deposit);

    // Two months' rent as deposit is usual: nothing said; a year's rent typed is.
    await page.getByTestId('deal-price').fill('850');
    await page.getByTestId('deal-deposit').fill('1700');
    await expect(page.getByText(words.abovePrice)).toHaveCount(0);
    await expect(page.getByText(words.aboveRent)).toHaveCount(0);
    await page.getByTestId('deal-deposit').fill('10200');
    await expect(page.getByTestId('deal-deposit')).toHaveAccessibleDescription(words.aboveRent);
    await page.getByTestId('deal-deposit').fill('1700');
    await expect(page.getByText(words.aboveRent)).toHaveCount(0);

    // Closed with its rent dates: saved, and the tenant is the flat's tenant for those dates.
    await page.getByTestId('deal-rentStart').fill('01/01/2027');
    await page.getByTestId('deal-rentStart').press('Tab');
    await page.getByTestId('deal-rentExpiration').fill('31/12/2029');
    await page.getByTestId('deal-rentExpiration').press('Tab');
    await page.getByTestId('deal-dealStage').click();
    await page.getByRole('option', { name: words.closed, exact: true }).click();
    await page.getByTestId('deal-save').click();
    await expect(page).toHaveURL(/\/Deals\/\d+$/);
    const dealId = Number(/\/Deals\/(\d+)$/.exec(page.url())![1]);
    await expect(page.getByTestId('banner')).toContainText(words.registered(`Tenant${mark} Irina`, added.referenceNumber));
    await expect(parties.last()).toContainText(words.tenant);
    await expectAccessible(page, 'closed rental with its notice');
    await page.goto(`/Objects/View/${added.id}`);
    await expect(page.getByTestId('contacts-card').locator(`[data-testid="contact-line"][data-relation="4"][data-account="${tenant}"]`)).toBeVisible();

    // The list: both words while it shows every type, a rental's once filtered to rentals.
    await page.goto('/Deals');
    await page.getByTestId('deals-filter-object').fill(`#${added.referenceNumber}`);
    const table = page.getByTestId('deals-table');
    await expect(table.getByRole('columnheader', { name: words.sellerOrLandlord, exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: words.eitherDeposit, exact: true })).toBeVisible();
    await page.getByTestId('deals-filter-type').click();
    await page.getByRole('option', { name: words.rental, exact: true }).click();
    await expect(table.getByRole('columnheader', { name: words.landlord, exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: words.deposit, exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: words.tenant, exact: true })).toBeVisible();
    await ctx.close();

    // On a phone, the row's card names its people as a rental's.
    const filter = { dealType: 0, stages: [], depositFrom: null, depositTill: null, endDateFrom: null, endDateTill: null, lastName: '', object: `#${added.referenceNumber}` };
    const phone = await signedIn(browser, baseURL!, token, language, { viewport: { width: 412, height: 915 }, isMobile: true, cookies: { 'DealList.filter': filter } });
    const card = await phone.newPage();
    await card.goto('/Deals');
    const row = card.getByTestId('deals-table-row').filter({ has: card.locator(`a[href="/Deals/${dealId}"]`) });
    await expect(row.locator('td:has([data-testid="deal-seller"])')).toHaveAttribute('data-label', words.landlord);
    await expect(row.locator('td:has([data-testid="deal-buyer"])')).toHaveAttribute('data-label', words.tenant);
    await phone.close();

    // The rental was a mistake: deleting it says its tenant goes too, and takes the tenant off the flat.
    const again = await signedIn(browser, baseURL!, token, language);
    const edit = await again.newPage();
    await edit.goto(`/Deals/Edit/${dealId}`);
    const deal = new RecordPage(edit);
    await deal.askDelete('deal-delete');
    const confirm = edit.getByTestId('deal-delete-confirm');
    await expect(confirm).toContainText(words.deleteConfirm);
    await expect(confirm.getByTestId('deal-delete-tenancy')).toHaveText(words.tenantGoes(`Tenant${mark} Irina`, added.referenceNumber));
    await expectAccessible(edit, 'deleting a closed rental');
    await deal.confirmDelete();
    await expect(edit).toHaveURL(/\/Deals$/);
    await expect(deal.banner).toContainText(words.tenantRemoved(`Tenant${mark} Irina`, added.referenceNumber));
    await edit.goto(`/Objects/View/${added.id}`);
    await expect(edit.getByTestId('contacts-card')).toContainText(`Landlord${mark}`);
    await expect(edit.getByTestId('contacts-card').locator(`[data-testid="contact-line"][data-account="${tenant}"]`)).toHaveCount(0);
    await again.close();
  });
}

for (const [language, w] of [
  [
    'en-UK',
    { sale: 'Sale', rental: 'Rental', deposit: 'Date of deposit', rentalDeposit: 'Date of deposit', start: 'Start of negotiations', closing: 'Closing date', duration: 'Contract duration (months)', rentStart: 'Rent start', rentEnd: 'Rent expiration', listColumn: 'Closing', old: /End date|Start date/ },
  ],
  [
    'el',
    { sale: 'Πώληση', rental: 'Μίσθωση', deposit: 'Ημερομηνία αρραβώνα', rentalDeposit: 'Ημερομηνία καταβολής εγγύησης', start: 'Έναρξη διαπραγμάτευσης', closing: 'Ημερομηνία υπογραφής συμβολαίου', duration: 'Διάρκεια συμβολαίου (μήνες)', rentStart: 'Έναρξη μίσθωσης', rentEnd: 'Λήξη μίσθωσης', listColumn: 'Συμβόλαιο', old: /Ημερομηνία λήξης|Ημερομηνία έναρξης/ },
  ],
] as const) {
  test(`a sale's form has a sale's dates (deposit, negotiations, closing, contract duration), a rental's the rent dates (${language})`, async ({ browser, request, baseURL }) => {
    const { token, ctx, page } = await openAsAdmin(browser, request, baseURL!, language, '/Deals/Add');
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'create');
    await expect(page.getByTestId('deal-dealType')).toHaveValue(w.sale);
    const dates = page.getByTestId('deal-group-dates');
    await expect(page.getByTestId('deal-dateOfDeposit')).toHaveAccessibleName(w.deposit);
    await expect(page.getByTestId('deal-startDate')).toHaveAccessibleName(w.start);
    await expect(page.getByTestId('deal-endDate')).toHaveAccessibleName(w.closing);
    await expect(page.getByTestId('deal-contractDurationMonths')).toHaveAccessibleName(w.duration);
    await expect(dates).not.toContainText(w.old);
    await expect(page.getByTestId('deal-group-rent')).toHaveCount(0);
    await expect(page.getByTestId('deal-rentStart')).toHaveCount(0);
    await expect(page.getByTestId('deal-rentExpiration')).toHaveCount(0);

    await page.getByTestId('deal-dealType').click();
    await page.getByRole('option', { name: w.rental, exact: true }).click();
    await expect(page.getByTestId('deal-dateOfDeposit')).toHaveAccessibleName(w.rentalDeposit);
    await expect(page.getByTestId('deal-endDate')).toHaveAccessibleName(w.closing);
    await expect(page.getByTestId('deal-contractDurationMonths')).toHaveCount(0);
    await expect(page.getByTestId('deal-rentStart')).toHaveAccessibleName(w.rentStart);
    await expect(page.getByTestId('deal-rentExpiration')).toHaveAccessibleName(w.rentEnd);

    // A saved sale, opened to be read: the same labels with its dates, and no rent.
    const house = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number };
    const saved = await request.post('/api/Deal/update', {
      data: { dealType: 2, dealStage: 4, objectId: house.id, dateOfDeposit: '2026-10-02', startDate: '2026-09-15', endDate: '2026-11-20', contractDurationMonths: 3 },
      headers: auth(token),
    });
    expect(saved.ok(), await saved.text()).toBeTruthy();
    await page.goto(`/Deals/${((await saved.json()) as { id: number }).id}`);
    await expect(page.getByTestId('deal-page')).toHaveAttribute('data-mode', 'view');
    const read = page.getByTestId('deal-group-dates');
    for (const label of [w.deposit, w.start, w.closing, w.duration]) await expect(read).toContainText(label);
    await expect(read).toContainText('20/11/2026');
    await expect(read).not.toContainText(w.old);
    await expect(page.getByTestId('deal-group-rent')).toHaveCount(0);
    // The list's column of that date says what it is.
    await page.goto('/Deals');
    await expect(page.getByRole('columnheader', { name: w.listColumn, exact: true })).toBeVisible();
    await ctx.close();
  });
}

for (const [language, commission, notes] of [['en-UK', 'Agency commission', 'Notes'], ['el', 'Μεσιτική αμοιβή', 'Σημειώσεις']] as const) {
  test(`any field of a deal the list does not show can be a column of it, kept across a reload (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const mark = `More${Date.now() % 1000000}${language === 'el' ? 'el' : 'en'}`;
    const notary = await createAccount(request, token, { firstName: 'Eleni', lastName: `Notary${mark}`, isProfessional: true, isNotary: true });
    const made = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 1, askingPrice: 150000, commission: 3700.25, notes: 'Keys with the notary', accounts: [{ accountId: notary, relation: DEAL_RELATION.notary }] }, headers: auth(token) });
    expect(made.ok(), await made.text()).toBeTruthy();
    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Deals', { viewport: { width: 1280, height: 800 } });
    await page.getByTestId('deals-filter-name').fill(mark);
    const rows = page.getByTestId('deals-table-row');
    await expect(rows).toHaveCount(1);

    // "More fields" in the columns' menu: the commission and the notes, as the deal's own page has them.
    await page.getByTestId('deals-columns').click();
    await expect(page.getByTestId('deals-more-price')).toHaveCount(0);
    await page.getByTestId('deals-more-commission').check();
    await page.getByTestId('deals-more-notes').check();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    const table = page.getByTestId('deals-table');
    await expect(table.getByRole('columnheader', { name: commission })).toBeVisible();
    await expect(rows.first().locator(`td[data-label="${commission}"]`)).toHaveText('3\u00a0700,25\u00a0€');
    await expect(rows.first().locator(`td[data-label="${notes}"]`)).toHaveText('Keys with the notary');

    // Kept in a cookie: still there after a reload; taken off again from the same menu.
    await page.reload();
    await expect(rows.first().locator(`td[data-label="${commission}"]`)).toHaveText('3\u00a0700,25\u00a0€');
    await page.getByTestId('deals-columns').click();
    await page.getByTestId('deals-more-commission').uncheck();
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader', { name: commission })).toHaveCount(0);
    await expect(rows.first().locator(`td[data-label="${notes}"]`)).toHaveText('Keys with the notary');
    await ctx.close();
  });
}

test('someone else saves the deal meanwhile: my note and my notary stay in the form beside their lawyer, their price where we both changed it, named (el)', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `${Date.now() % 1000000}`;
  const add = await request.get('/api/object/add', { headers: auth(token) });
  const flat = (await add.json()) as { id: number };
  const seller = await createAccount(request, token, { firstName: 'Νίκος', lastName: `Seller${mark}`, isOwner: true });
  const notary = await createAccount(request, token, { firstName: 'Ελένη', lastName: `Notary${mark}`, isProfessional: true, isNotary: true });
  const lawyer = await createAccount(request, token, { firstName: 'Γιώργος', lastName: `Lawyer${mark}`, isProfessional: true, isLawyer: true });
  const sellerParty = { accountId: seller, relation: DEAL_RELATION.seller };
  const created = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 2, objectId: flat.id, askingPrice: 150000, price: 140000, accounts: [sellerParty] }, headers: auth(token) });
  expect(created.ok(), await created.text()).toBeTruthy();
  const deal = (await created.json()) as { id: number; version: number };

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', `/Deals/Edit/${deal.id}`);
  await page.getByTestId('deal-price').fill('145000');
  await page.getByTestId('deal-notes').fill('Ο αγοραστής ζητά παράδοση τον Μάρτιο');
  // The notary, added here as a party.
  await page.getByTestId('deal-add-party').click();
  const row = page.getByTestId('deal-party').last();
  await row.getByTestId('deal-party-account').fill(`Notary${mark}`);
  await page.getByRole('option', { name: new RegExp(`Notary${mark}`) }).click();
  await row.getByTestId('deal-party-relation').click();
  await page.getByRole('option', { name: 'Συμβολαιογράφος', exact: true }).click();
  // Meanwhile a colleague moves the stage, sets another price and adds the lawyer.
  const other = await request.post('/api/Deal/update', {
    data: { id: deal.id, version: deal.version, dealType: 2, dealStage: 3, objectId: flat.id, askingPrice: 150000, price: 142000, accounts: [sellerParty, { accountId: lawyer, relation: DEAL_RELATION.lawer }] },
    headers: auth(token),
  });
  expect(other.ok(), await other.text()).toBeTruthy();
  await page.getByTestId('deal-save').click();
  const conflict = new ConflictMerge(page);
  await conflict.told('οι αλλαγές σας παραμένουν στη φόρμα', 'Κρατήθηκαν οι τιμές του άλλου χρήστη για: Τελική τιμή');
  await expect(conflict.banner).not.toContainText('Συμβαλλόμενοι');
  await expect(page.getByTestId('deal-notes')).toHaveValue('Ο αγοραστής ζητά παράδοση τον Μάρτιο');
  await expect(page.getByTestId('deal-price')).toHaveValue(/^142/);
  const parties = page.getByTestId('deal-party').getByTestId('deal-party-account');
  await expect(parties).toHaveCount(3);
  for (const who of [`Seller${mark}`, `Lawyer${mark}`, `Notary${mark}`]) await expect(parties.and(page.locator(`[value*="${who}"]`))).toHaveCount(1);
  await page.getByTestId('deal-save').click();
  await expect(page).toHaveURL(new RegExp(`/Deals/${deal.id}$`));
  const saved = (await (await request.get(`/api/Deal/edit/${deal.id}`, { headers: auth(token) })).json()) as { notes: string; price: number; dealStage: number; accounts: { accountId: number; relation: number }[] };
  expect(saved).toMatchObject({ notes: 'Ο αγοραστής ζητά παράδοση τον Μάρτιο', price: 142000, dealStage: 3 });
  expect(saved.accounts.map((p) => [p.accountId, p.relation]).sort()).toEqual(
    [
      [seller, DEAL_RELATION.seller],
      [lawyer, DEAL_RELATION.lawer],
      [notary, DEAL_RELATION.notary],
    ].sort(),
  );
  await ctx.close();
});

test('a deal form with changes asks before they are left behind, and a price is typed as agents write it (en-UK)', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const flat = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number };
  const created = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 2, objectId: flat.id, askingPrice: 150000 }, headers: auth(token) });
  expect(created.ok(), await created.text()).toBeTruthy();
  const deal = (await created.json()) as { id: number };

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', `/Deals/Edit/${deal.id}`);
  // "245,000" is 245 000 €: a comma before three digits groups thousands where a price has two decimals.
  await page.getByTestId('deal-price').fill('245,000');
  // Leaving by the menu asks first; Keep editing stays with what was typed.
  await page.getByRole('link', { name: 'Deals', exact: true }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Changes not saved' });
  await expect(dialog).toBeVisible();
  // Nothing was refused: the question says the changes are not saved yet, not to fix fields in red.
  await expect(dialog).toContainText('You have changes that are not saved yet. Leave without them?');
  await dialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(new RegExp(`/Deals/Edit/${deal.id}$`));
  await expect(page.getByTestId('deal-price')).toHaveValue(/^245\s000$/);
  // Saved, it goes to the view without a question, and the price is the one meant.
  await page.getByTestId('deal-save').click();
  await expect(page).toHaveURL(new RegExp(`/Deals/${deal.id}$`));
  await expect(dialog).toHaveCount(0);
  const saved = (await (await request.get(`/api/Deal/edit/${deal.id}`, { headers: auth(token) })).json()) as { price: number };
  expect(saved.price).toBe(245000);
  await ctx.close();
});

test('the delete question says what happens to the tenant as things are when it is asked, not when the page was opened (en-UK)', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const mark = `Stale${Date.now() % 1000000}`;
  const tenant = await createAccount(request, token, { firstName: 'Irina', lastName: `Tenant${mark}`, isClient: true });
  const flat = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number; version: number; referenceNumber: string };
  const upd = await request.post('/api/object/update', { data: { id: flat.id, version: flat.version, forRent: true, rentPrice: 850, title: `Flat ${mark}` }, headers: auth(token) });
  expect(upd.ok(), await upd.text()).toBeTruthy();
  const closed = await request.post('/api/Deal/update', {
    data: { dealType: 1, dealStage: 5, objectId: flat.id, price: 850, rentStart: '2027-01-01', rentExpiration: '2029-12-31', accounts: [{ accountId: tenant, relation: 2 }] },
    headers: auth(token),
  });
  expect(closed.ok(), await closed.text()).toBeTruthy();
  const deal = (await closed.json()) as { id: number };

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', `/Deals/Edit/${deal.id}`);
  await expect(page.getByTestId('deal-delete')).toBeVisible();
  // Meanwhile the tenancy gets its payment day in the property's Contacts: it is the agent's now, and stays.
  const payDay = await request.post('/api/objectAccount/update', {
    data: { objectId: flat.id, accountId: tenant, relation: 4, startDate: '2027-01-01', endDate: '2029-12-31', price: 850, rentPaymentDay: 5 },
    headers: auth(token),
  });
  expect(payDay.ok(), await payDay.text()).toBeTruthy();

  const dealScreen = new RecordPage(page);
  await dealScreen.askDelete('deal-delete');
  const confirm = page.getByTestId('deal-delete-confirm');
  await expect(confirm.getByTestId('deal-delete-tenancy')).toHaveText(
    `Property #${flat.referenceNumber} keeps its tenant Tenant${mark} Irina (01/01/2027 – 31/12/2029): this deal put the tenant there, but the tenancy has been changed since. If the rental is not going ahead, remove the tenant in the property's Contacts.`,
  );
  await dealScreen.confirmDelete();
  await expect(page).toHaveURL(/\/Deals$/);
  await page.goto(`/Objects/View/${flat.id}`);
  await expect(page.getByTestId('contacts-card').locator(`[data-testid="contact-line"][data-relation="4"][data-account="${tenant}"]`)).toBeVisible();
  await ctx.close();
});

test('a flat whose sale is closed reads Sold at the top of its page, not For sale, and is no longer on the website', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const flat = await demoFlatForSale(request, token, 2);
  // On the website first.
  const asked = await patchField(request, token, 'object', flat.id, 'publishRequested', true);
  expect(asked.ok(), await asked.text()).toBeTruthy();
  const state = async () => (await (await request.get(`/api/object/publishState/${flat.id}`, { headers: auth(token) })).json()) as { published: boolean; publishError: string | null };
  await expect.poll(async () => (await state()).published, { timeout: 20_000 }).toBe(true);
  expect((await request.get(`/listings/${flat.referenceNumber}?lang=en`)).status()).toBe(200);
  const made = await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 1, objectId: flat.id, price: flat.salePrice }, headers: auth(token) });
  expect(made.ok(), await made.text()).toBeTruthy();
  const deal = (await made.json()) as { id: number; version: number };
  const closed = await request.post('/api/Deal/update', { data: { id: deal.id, version: deal.version, dealStage: 5 }, headers: auth(token) });
  expect(closed.ok(), await closed.text()).toBeTruthy();

  await expect.poll(async () => (await state()).published, { timeout: 20_000 }).toBe(false);
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', `/Objects/View/${flat.id}`);
  const summary = page.getByTestId('object-summary');
  await expect(summary.getByTestId('closed-sold')).toHaveText('Sold');
  await expect(summary.getByTestId('offer-forSale')).toHaveCount(0);
  // Its service information no longer offers a link to a page the website does not show.
  await expect(page.getByTestId('service-info')).toContainText('Not published: the property is sold (a sale of it is closed).');
  await expect(page.getByTestId('service-info').getByRole('link', { name: 'Open its page on the website' })).toHaveCount(0);
  // The website says it is no longer there (gone for good), and still takes an enquiry about it.
  const gone = await request.get(`/listings/${flat.referenceNumber}?lang=en`);
  expect(gone.status()).toBe(410);
  expect(await gone.text()).toContain(`Property ${flat.referenceNumber} is no longer on our website`);
  await ctx.close();
});
