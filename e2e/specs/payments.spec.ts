import { expect, test } from '@playwright/test';
import { ADMIN, apiToken, expectAccessible, signedIn, openSignedIn } from '../fixtures.ts';
import { downloadWorkbook } from '../pages/list.ts';
import { pick } from '../pages/picker.ts';
import { RecordPage } from '../pages/record.ts';

/**
 * The staff side of an owner's payments: the owner found in the payments list, an income and an
 * expense with a receipt added from the statement, the totals and running balance, the unpaid
 * filter, the statement downloaded and its totals read back from the file, a receipt struck out
 * and restored in the expense form, and the income deleted after its confirmation.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });


const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

for (const language of ['en-UK', 'el'] as const) {
  test(`an owner's income and expense with a receipt, the statement and its Excel file (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    const el = language === 'el';
    const mark = `${el ? 'Καραγιάννη' : 'Karagianni'}${Date.now() % 1000000}`;
    const owner = await request.post('/api/account/add', { data: { firstName: 'Σοφία', lastName: mark, isOwner: true, hasTransactions: true }, headers: auth(token) });
    expect(owner.ok(), await owner.text()).toBeTruthy();
    const ownerId = ((await owner.json()) as { id: number }).id;

    const ctx = await signedIn(browser, baseURL!, token, language, { acceptDownloads: true });
    const page = await ctx.newPage();

    // The payments list finds the owner by the start of the surname, typed without accents.
    await page.goto('/Payments');
    await page.getByTestId('payments-search').fill(mark.slice(0, 6).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
    await page.getByTestId('payments-table-row').filter({ hasText: mark }).getByTestId('payment-account-link').click();
    await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));
    await expect(page.getByTestId('statement-balance')).toHaveAttribute('data-value', '0.00');

    // An income of 1 250,50 by bank transfer, typed as each language writes it (a Greek dot groups thousands).
    await page.getByTestId('statement-add-income').click();
    await expect(page).toHaveURL(new RegExp(`/Payments/AddIncome/${ownerId}$`));
    await page.getByTestId('transaction-amount').fill(el ? '1.250,50' : '1,250.50');
    await page.getByTestId('transaction-date').fill('02/03/2026');
    await page.getByTestId('transaction-time').fill('10:30');
    await pick(page, 'transaction-category', el ? 'Μίσθωμα' : 'Rent');
    await page.getByTestId('transaction-save').click();
    await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));
    await expect(page.getByTestId('statement-total-credit')).toHaveAttribute('data-value', '1250.50');

    // An expense of 80,20 not paid yet, with the electricity bill attached.
    await page.getByTestId('statement-add-expense').click();
    await page.getByTestId('transaction-amount').fill(el ? '80,20' : '80.20');
    await page.getByTestId('transaction-date').fill('05/03/2026');
    await page.getByTestId('transaction-time').fill('09:15');
    await pick(page, 'transaction-category', el ? 'Ρεύμα' : 'Electricity');
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('transaction-add-files').click();
    await (await chooser).setFiles({ name: 'dei-bill.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByTestId('attachment-row').filter({ hasText: 'dei-bill.png' })).toHaveAttribute('data-state', 'added');
    await expectAccessible(page, 'expense form');
    // A slip of the year (1999 for 2026) is refused at the date, naming the days a payment may have;
    // the day corrected, the expense saves.
    await page.getByTestId('transaction-date').fill('05/03/1999');
    await page.getByTestId('transaction-save').click();
    await expect(page.locator('[data-field="transactionDate"]')).toContainText(
      new RegExp(el ? 'Εισαγάγετε ημερομηνία από 01/01/2000 έως 31/12/\\d{4}\\.' : 'Enter a date from 01/01/2000 to 31/12/\\d{4}\\.'),
    );
    await expect(page).toHaveURL(/\/Payments\/AddExpense\//);
    await page.getByTestId('transaction-date').fill('05/03/2026');
    await page.getByTestId('transaction-save').click();
    await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));

    // Totals, running balance newest first, the unpaid count and the receipt link. The balance
    // counts what was paid: the unpaid 80,20 is apart, to pay (issue 45).
    await expect(page.getByTestId('statement-balance')).toHaveAttribute('data-value', '1250.50');
    await expect(page.getByTestId('statement-balance-words-to-pay')).toHaveAttribute('data-value', '80.20');
    await expect(page.getByTestId('statement-total-debit')).toHaveAttribute('data-value', '80.20');
    await expect(page.getByTestId('statement-unpaid-count')).toHaveText('1');
    const rows = page.getByTestId('statement-table-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('1\u00a0250,50\u00a0€');
    await expect(rows.first().getByTestId('statement-attachment')).toHaveText('dei-bill.png');
    await expectAccessible(page, 'statement');

    // Unpaid only: the expense alone; the filter stays for this account after a reload.
    await page.getByTestId('statement-filter-unpaid').check();
    await expect(rows).toHaveCount(1);
    await page.reload();
    await expect(page.getByTestId('statement-filter-unpaid')).toBeChecked();
    // The balance stays the account's; the shown rows' sum is a card of its own, named so.
    await expect(page.getByTestId('statement-balance')).toHaveAttribute('data-value', '1250.50');
    await expect(page.getByTestId('statement-shown-sum')).toHaveAttribute('data-value', '-80.20');
    await expect(page.getByTestId('statement-shown-sum').locator('xpath=..')).toContainText(el ? 'Σύνολο εμφανιζόμενων κινήσεων' : 'Sum of the shown rows');

    // The download holds exactly the filtered rows, with real numbers, in the reader's language.
    const ws = (await downloadWorkbook(page, page.getByTestId('statement-download'), 'Transactions.xlsx')).worksheets[0]!;
    expect(ws.getCell('A3').value).toBe(el ? 'Σύνολο χρεώσεων' : 'Total debit');
    expect(ws.getCell('B3').value).toBe(80.2);
    expect(ws.getCell('E3').value).toBe(0);
    expect(ws.getCell('H3').value).toBe(1250.5);
    expect(ws.getCell('G2').value).toBe(el ? 'Σύνολο εμφανιζόμενων κινήσεων' : 'Sum of the shown rows');
    expect(ws.getCell('H2').value).toBe(-80.2);
    expect(ws.getCell('G7').value).toBe(80.2);
    expect(ws.getCell('A8').value ?? null).toBeNull();
    await page.getByTestId('statement-filter-clear').click();
    await expect(rows).toHaveCount(2);
    await expect(page.getByTestId('statement-shown-sum')).toHaveCount(0);

    // The expense form: the receipt struck out, then restored; nothing changes without saving.
    await rows.first().getByTestId('statement-edit').click();
    await expect(page).toHaveURL(/\/Payments\/EditExpense\/\d+$/);
    await expect(page.getByTestId('transaction-amount')).toHaveValue(el ? '80,20' : '80.20');
    await expect(page.getByTestId('transaction-time')).toHaveValue('09:15');
    // The form shows a labelled input for each field its answer carries (both are made from the
    // transactions' field description), in the answer's order.
    const expenseId = Number(/\/EditExpense\/(\d+)$/.exec(page.url())![1]);
    const answer = (await (await request.get(`/api/transactions/editExpense/${expenseId}`, { headers: auth(token) })).json()) as { updateFields: Record<string, unknown> };
    const described = Object.keys(answer.updateFields).filter((k) => !['id', 'accountId', 'version'].includes(k));
    expect(described).toEqual(expect.arrayContaining(['amount', 'transactionDate', 'paymentMethod', 'categoryId', 'internalNotes', 'status', 'paymentDate', 'expirationDate', 'startDate', 'endDate']));
    expect(await page.locator('[data-field]').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).toEqual(described);
    for (const name of described) await expect(page.locator(`[data-field="${name}"] label`).first()).not.toBeEmpty();
    const receipt = page.getByTestId('attachment-row').filter({ hasText: 'dei-bill.png' });
    await receipt.getByTestId('attachment-delete').click();
    await expect(receipt).toHaveAttribute('data-state', 'deleted');
    // Struck out and not saved: Cancel asks first, and Keep editing stays in the form as it was.
    await page.getByTestId('transaction-cancel').click();
    await page.getByTestId('unsaved-keep').click();
    await expect(page).toHaveURL(/\/Payments\/EditExpense\/\d+$/);
    await expect(receipt).toHaveAttribute('data-state', 'deleted');
    await receipt.getByTestId('attachment-restore').click();
    await expect(receipt).toHaveAttribute('data-state', 'existing');
    await page.getByTestId('transaction-cancel').click();

    // The income deleted after "Delete income?".
    await rows.last().getByTestId('statement-edit').click();
    await expect(page).toHaveURL(/\/Payments\/EditIncome\/\d+$/);
    const income = new RecordPage(page);
    await income.askDelete('transaction-delete');
    await expect(income.dialog).toContainText(el ? 'Να διαγραφεί το έσοδο;' : 'Delete income?');
    await income.confirmDelete();
    await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));
    await expect(rows).toHaveCount(1);
    await expect(page.getByTestId('statement-balance')).toHaveAttribute('data-value', '0.00');

    // At phone width the statement still reads: totals and the rows' amounts.
    await page.setViewportSize({ width: 390, height: 800 });
    await expect(page.getByTestId('statement-balance')).toBeVisible();
    await expect(rows.first()).toBeVisible();
    await ctx.close();
  });
}

test('someone else saves the income meanwhile: what only I changed stays in the form, what we both changed shows theirs, named (el)', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const owner = await request.post('/api/account/add', { data: { firstName: 'Νίκος', lastName: `Δημητρίου${Date.now() % 1000000}`, isOwner: true, hasTransactions: true }, headers: auth(token) });
  expect(owner.ok(), await owner.text()).toBeTruthy();
  const ownerId = ((await owner.json()) as { id: number }).id;
  const fields = { amount: '500.00', transactionDate: '2026-03-02T10:30:00', paymentMethod: '1', categoryId: '1' };
  const added = await request.post('/api/transactions/addIncome', { multipart: { accountId: String(ownerId), ...fields }, headers: auth(token) });
  expect(added.ok(), await added.text()).toBeTruthy();
  const { id } = (await added.json()) as { id: number };

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', `/Payments/EditIncome/${id}`);
  await page.getByTestId('transaction-amount').fill('888,88');
  await page.getByTestId('transaction-notes').fill('Από τον τραπεζικό λογαριασμό του ιδιοκτήτη');
  // Meanwhile another user changes the amount.
  const other = await request.post('/api/transactions/editIncome', { multipart: { id: String(id), version: '1', accountId: String(ownerId), ...fields, amount: '777.00' }, headers: auth(token) });
  expect(other.ok(), await other.text()).toBeTruthy();
  await page.getByTestId('transaction-save').click();
  await expect(page.getByTestId('banner')).toContainText('οι αλλαγές σας παραμένουν στη φόρμα');
  await expect(page.getByTestId('banner')).toContainText('Κρατήθηκαν οι τιμές του άλλου χρήστη για: Ποσό');
  // Theirs where both changed; mine where only I did.
  await expect(page.getByTestId('transaction-amount')).toHaveValue('777,00');
  await expect(page.getByTestId('transaction-notes')).toHaveValue('Από τον τραπεζικό λογαριασμό του ιδιοκτήτη');
  await page.getByTestId('transaction-save').click();
  await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));
  const saved = (await (await request.get(`/api/transactions/editIncome/${id}`, { headers: auth(token) })).json()) as { updateFields: { amount: string; internalNotes: string; version: number } };
  expect(saved.updateFields).toMatchObject({ amount: '777.00', internalNotes: 'Από τον τραπεζικό λογαριασμό του ιδιοκτήτη', version: 3 });
  await ctx.close();
});

test('staff work on the CRM’s address: the payments host refuses them and says where to go; a payments account is made from the CRM’s list (en-UK)', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const payments = `http://127.0.0.1:${new URL(baseURL!).port}`;
  // A staff session carried to the payments host counts for nothing there: its sign-in page.
  const there = await signedIn(browser, payments, token, 'en-UK');
  const pay = await there.newPage();
  await pay.goto(`${payments}/Payments`);
  await expect(pay).toHaveURL(/\/login$/);
  await expect(pay.getByTestId('login-logo')).toHaveAttribute('data-variant', 'payments');
  // Signing in there as the administrator: refused, saying where staff sign in.
  await pay.getByTestId('login-email').fill(ADMIN.email);
  await pay.getByTestId('login-password').fill(ADMIN.password);
  await pay.getByTestId('login-submit').click();
  await expect(pay.getByTestId('login-error')).toContainText("This address is for the agency's clients. Staff sign in at the CRM's own address.");
  await expectAccessible(pay, 'staff refused on the payments host');
  await there.close();

  // On the CRM's own address the same screens: "New payments account" opens its form.
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'en-UK', '/Payments');
  await page.getByTestId('payments-add-account').click();
  await expect(page).toHaveURL(/\/Accounts\/AddPayment$/);
  const last = `Papadaki${Date.now() % 1000000}`;
  await page.getByTestId('add-lastName').fill(last);
  await page.getByTestId('add-firstName').fill('Eleni');
  await page.getByTestId('add-submit').click();
  // Saved: the account's own page, to add its e-mail.
  await expect(page).toHaveURL(/\/Accounts\/View\/\d+\/2$/);
  const id = Number(/\/Accounts\/View\/(\d+)\//.exec(page.url())![1]);
  const account = (await (await request.get(`/api/account/edit/${id}`, { headers: auth(token) })).json()) as { dto: { lastName: string; hasTransactions: boolean } };
  expect(account.dto).toMatchObject({ lastName: last, hasTransactions: true });
  // The spec's /Payments/AccountAdd leads to the same form.
  await page.goto('/Payments/AccountAdd');
  await expect(page).toHaveURL(/\/Accounts\/AddPayment$/);
  await expect(page.getByTestId('add-lastName')).toBeVisible();
  await ctx.close();
});

test("an expense's billing period on a Russian phone: each day's label on one line, no preposition left alone under it", async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const owner = await request.post('/api/account/add', { data: { firstName: 'Ольга', lastName: `Смирнова${Date.now() % 1000000}`, isOwner: true, hasTransactions: true }, headers: auth(token) });
  expect(owner.ok(), await owner.text()).toBeTruthy();
  const ownerId = ((await owner.json()) as { id: number }).id;
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'ru', `/Payments/AddExpense/${ownerId}`, { viewport: { width: 412, height: 860 }, isMobile: true });
  const period = page.getByTestId('transaction-group-period');
  await expect(period.locator('legend')).toHaveText('Расчётный период');
  // The two days side by side: "Расчётный период с" broke after "период", leaving "с" on a line of its own.
  const amount = page.locator('[data-field="amount"] label').first();
  const oneLine = (await amount.boundingBox())!.height;
  for (const text of ['Начало периода', 'Конец периода']) {
    const label = period.locator('label').filter({ hasText: text });
    await expect(label).toBeVisible();
    expect((await label.boundingBox())!.height, text).toBeLessThanOrEqual(oneLine + 1);
  }
  await expectAccessible(page, 'expense form on a Russian phone');
  await ctx.close();
});
