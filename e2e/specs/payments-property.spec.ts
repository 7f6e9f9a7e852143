import { expect, test } from '@playwright/test';
import { apiToken, createObject, expectAccessible, signedIn } from '../fixtures.ts';
import { pick } from '../pages/picker.ts';

/**
 * Issue 45, payments: an expense tied to one of the owner's properties from its form (which offers
 * only the owner's), the statement filtered by that property, an unpaid expense apart from the
 * balance of what was paid ("to pay"), and the payments list saying who owes whom in words.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

for (const language of ['en-UK', 'el'] as const) {
  test(`an expense tied to the owner's property, the statement by property, and who owes whom (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    const el = language === 'el';
    const stamp = Date.now() % 1000000;
    const mark = `${el ? 'Παπαδάκη' : 'Papadaki'}${stamp}`;
    const owner = await request.post('/api/account/add', { data: { firstName: 'Ελένη', lastName: mark, isOwner: true, hasTransactions: true }, headers: auth(token) });
    expect(owner.ok(), await owner.text()).toBeTruthy();
    const ownerId = ((await owner.json()) as { id: number }).id;
    // Two properties of hers, and one of another owner's that her form must not offer.
    const own = async (title: string, accountId: number) => {
      const o = await createObject(request, token, { title });
      const link = await request.post('/api/objectAccount/add', { data: { objectId: o.id, accountId, relation: 1 }, headers: auth(token) });
      expect(link.ok(), await link.text()).toBeTruthy();
      return { ...o, label: `${o.referenceNumber.padStart(4, '0')} ${title}` };
    };
    const flat = await own(`Flat Kalamaria ${stamp}`, ownerId);
    const shop = await own(`Shop Tsimiski ${stamp}`, ownerId);
    const other = await request.post('/api/account/add', { data: { firstName: 'Γιώργος', lastName: `Άλλος${stamp}`, isOwner: true }, headers: auth(token) });
    const villa = await own(`Villa Kassandra ${stamp}`, ((await other.json()) as { id: number }).id);
    // Rent of 1 240 in for the shop (paid to the agency for her).
    const rent = await request.post('/api/transactions/addIncome', {
      multipart: { accountId: String(ownerId), amount: '1240.00', transactionDate: '2026-03-01T10:00:00', paymentMethod: '1', categoryId: '1', objectId: String(shop.id) },
      headers: auth(token),
    });
    expect(rent.ok(), await rent.text()).toBeTruthy();

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Payments/AddExpense/${ownerId}`);
    await page.getByTestId('transaction-amount').fill(el ? '80,50' : '80.50');
    await page.getByTestId('transaction-date').fill('05/03/2026');
    await page.getByTestId('transaction-time').fill('09:15');
    await pick(page, 'transaction-category', el ? 'Ρεύμα' : 'Electricity');
    // The property: only hers are offered.
    await page.getByTestId('transaction-objectId').click();
    await expect(page.getByRole('option', { name: flat.label })).toBeVisible();
    await expect(page.getByRole('option', { name: shop.label })).toBeVisible();
    await expect(page.getByRole('option', { name: villa.label })).toHaveCount(0);
    await page.getByRole('option', { name: flat.label }).click();
    await expect(page.locator('[data-field="objectId"] label')).toHaveText(el ? 'Ακίνητο' : 'Property');
    await expectAccessible(page, 'expense form with a property');
    await page.getByTestId('transaction-save').click();
    await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));

    // The balance counts what was paid; the unpaid 80,50 is apart, to pay.
    await expect(page.getByTestId('statement-balance')).toHaveAttribute('data-value', '1240.00');
    await expect(page.getByTestId('statement-balance-words')).toHaveText(el ? 'Οφείλονται στον ιδιοκτήτη 1\u00a0240,00\u00a0€' : 'The owner is owed 1\u00a0240,00\u00a0€');
    await expect(page.getByTestId('statement-balance-words-to-pay')).toHaveText(el ? 'Προς πληρωμή: 80,50\u00a0€' : 'To pay: 80,50\u00a0€');
    const rows = page.getByTestId('statement-table-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.first().getByTestId('statement-object')).toHaveText(flat.label);

    // Filtered by the flat: its expense alone; the balance stays the account's.
    await page.getByTestId('statement-filter-object').click();
    await page.getByRole('option', { name: flat.label }).click();
    await expect(rows).toHaveCount(1);
    await expect(page.getByTestId('statement-shown-sum')).toHaveAttribute('data-value', '-80.50');
    await expect(page.getByTestId('statement-balance')).toHaveAttribute('data-value', '1240.00');
    await expectAccessible(page, 'statement filtered by property');
    await page.getByTestId('statement-filter-clear').click();
    await expect(rows).toHaveCount(2);

    // The payments list says who owes whom, in words.
    await page.goto('/Payments');
    await page.getByTestId('payments-search').fill(mark);
    const row = page.getByTestId('payments-table-row').filter({ hasText: mark });
    await expect(row.getByTestId('payment-account-balance')).toHaveText(el ? 'Οφείλονται στον ιδιοκτήτη 1\u00a0240,00\u00a0€' : 'The owner is owed 1\u00a0240,00\u00a0€');
    await expect(row.getByTestId('payment-account-balance-to-pay')).toHaveText(el ? 'Προς πληρωμή: 80,50\u00a0€' : 'To pay: 80,50\u00a0€');
    await expectAccessible(page, 'payments list with balances');
    await ctx.close();
  });
}
