import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * A closed deal's commission receipt (decision 085): issued from the deal, numbered, listed with its
 * number and total. Transmission to myDATA is left to the API tests (a local myDATA stand-in): this
 * agency has no myDATA credentials, so the receipt stays "issued, not transmitted" and says so.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const unique = (s: string) => `${s}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
/** A valid Greek ΑΦΜ (its check digit computed). */
const AGENCY_VAT = (() => {
  const eight = '09777777';
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(eight[i]) * 2 ** (8 - i);
  return `${eight}${(sum % 11) % 10}`;
})();

/** The agency's ΑΦΜ, which issuing needs, set once (both language projects may try at the same time: a 409 means the other did). */
async function agencyVat(request: APIRequestContext, token: string) {
  for (let i = 0; i < 5; i++) {
    const s = await (await request.get('/api/Invoice/settings', { headers: auth(token) })).json();
    if (s.vatNumber) return;
    const res = await request.post('/api/Invoice/settings', { data: { version: s.version, vatNumber: AGENCY_VAT, branch: 0, userId: s.userId }, headers: auth(token) });
    if (res.ok()) return;
    expect(res.status(), await res.text()).toBe(409);
  }
}

async function closedDeal(request: APIRequestContext, token: string, lastName: string) {
  const client = await request.post('/api/account/add', { data: { lastName, firstName: 'Ελένη', isClient: true, address: 'Εγνατίας 5', postcode: '54625', city: 'Θεσσαλονίκη' }, headers: auth(token) });
  expect(client.ok(), await client.text()).toBeTruthy();
  const clientId = (await client.json()).id as number;
  const deal = await request.post('/api/Deal/update', {
    data: { dealType: 2, dealStage: 5, endDate: '2026-11-20', price: 155000, commission: 3100.25, accounts: [{ accountId: clientId, relation: 2 }] },
    headers: auth(token),
  });
  expect(deal.ok(), await deal.text()).toBeTruthy();
  return (await deal.json()).id as number;
}

const TEXTS = {
  'en-UK': { issue: 'Issue invoice', issued: 'Issued, not transmitted', receipt: 'Receipt for services (private person)', total: /3\s?844,31\s€/ },
  el: { issue: 'Έκδοση παραστατικού', issued: 'Εκδόθηκε, δεν διαβιβάστηκε', receipt: 'Απόδειξη Παροχής Υπηρεσιών (ιδιώτης)', total: /3\s?844,31\s€/ },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  const say = TEXTS[language];

  test(`issues a receipt for a closed deal and sees it listed with its number and total (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    await agencyVat(request, token);
    const lastName = unique('Πελάτρια');
    const dealId = await closedDeal(request, token, lastName);
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Deals/${dealId}`);
    const panel = page.getByTestId('deal-invoices');
    await panel.getByTestId('deal-issue-invoice').click();
    // A person is given a receipt: it is offered first.
    await expect(page.getByTestId('issue-kind-receipt')).toBeChecked();
    await expectAccessible(page, `issue choice ${language}`);
    await page.getByTestId('issue-kind-go').click();

    const doc = page.getByTestId('invoice-page');
    await expect(doc).toHaveAttribute('data-status', 'draft');
    await expect(page.getByTestId('invoice-name')).toHaveValue(new RegExp(lastName));
    await expect(page.getByTestId('invoice-gross')).toHaveText(say.total);
    await expectAccessible(page, `receipt draft ${language}`);
    await page.getByTestId('invoice-issue').click();
    await page.getByTestId('confirm-issue').click();
    await expect(doc).toHaveAttribute('data-status', 'issued');
    await expect(page.getByTestId('invoice-status')).toHaveText(say.issued);
    await expect(page.getByTestId('invoice-not-transmitted')).toBeVisible();
    const title = (await page.getByTestId('invoice-title').textContent())!;
    const number = /ΑΠΥ (\d+)$/.exec(title.trim())?.[1];
    expect(number, title).toBeTruthy();
    expect(title).toContain(say.receipt);
    await expectAccessible(page, `issued receipt ${language}`);

    await page.goto('/Invoices');
    const row = page.getByTestId('invoice-row').filter({ hasText: lastName });
    await expect(row.getByTestId('invoice-number')).toHaveText(`${say.receipt} ΑΠΥ ${number}`);
    await expect(row.getByTestId('invoice-total')).toHaveText(say.total);
    await expectAccessible(page, `invoices list ${language}`);
    await ctx.close();
  });
}
