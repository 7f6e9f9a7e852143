import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { readPdf } from '../../apps/server/test/pdf-text.ts';
import { apiToken, expectAccessible, signedIn } from '../fixtures.ts';
import { E2E_MYDATA } from '../mydata-stand-in.ts';

/**
 * A closed deal's commission receipt (decision 085): issued from the deal, numbered, transmitted to
 * the local myDATA stand-in (MYDATA_URL, started by the run) and accepted with a MARK; its PDF shows
 * the MARK and the QR code; the list, filtered by the customer, shows it with the sums of the match.
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

/** The agency's ΑΦΜ and myDATA credentials (the stand-in's), set once (both language projects may try at the same time: a 409 means the other did). */
async function agencyVat(request: APIRequestContext, token: string) {
  for (let i = 0; i < 5; i++) {
    const s = await (await request.get('/api/Invoice/settings', { headers: auth(token) })).json();
    if (s.vatNumber && s.userId === E2E_MYDATA.userId && s.keySet) return;
    const res = await request.post('/api/Invoice/settings', {
      data: { version: s.version, vatNumber: AGENCY_VAT, branch: 0, userId: E2E_MYDATA.userId, subscriptionKey: E2E_MYDATA.key },
      headers: auth(token),
    });
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
  'en-UK': {
    accepted: 'Accepted by myDATA',
    receipt: 'Receipt for services (private person)',
    total: /3\s?844,31\s€/,
    pdfLanguage: 'English',
    pdfTitle: 'Απόδειξη Παροχής Υπηρεσιών / Receipt for services ΑΠΥ',
    pdfMark: 'ΜΑΡΚ (αριθμός καταχώρησης myDATA) / MARK (myDATA registration number):',
    sums: 'Totals of 1 issued documents (credit notes subtracted)',
    retailCredit: 'Retail credit note (private person) ΠΣΛ',
  },
  el: {
    accepted: 'Καταχωρήθηκε στο myDATA',
    receipt: 'Απόδειξη Παροχής Υπηρεσιών (ιδιώτης)',
    total: /3\s?844,31\s€/,
    pdfLanguage: 'Ελληνικά',
    pdfTitle: 'Απόδειξη Παροχής Υπηρεσιών ΑΠΥ',
    pdfMark: 'ΜΑΡΚ (αριθμός καταχώρησης myDATA):',
    sums: 'Σύνολα 1 εκδοθέντων παραστατικών (με αφαίρεση των πιστωτικών)',
    retailCredit: 'Πιστωτικό Στοιχείο Λιανικής (ιδιώτης) ΠΣΛ',
  },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  const say = TEXTS[language];

  test(`issues a receipt for a closed deal, sees it accepted by myDATA with its MARK and QR code on the PDF, listed with the sums, and credited (${language})`, async ({ browser, request, baseURL }) => {
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
    // Sent to the local myDATA stand-in by the job runner, and accepted: the page reads it again until then.
    await expect(doc).toHaveAttribute('data-status', 'accepted', { timeout: 30_000 });
    await expect(page.getByTestId('invoice-status')).toHaveText(say.accepted);
    const receiptUrl = page.url();
    const mark = (await page.getByTestId('invoice-mark').textContent())!.trim();
    expect(mark).toMatch(/^\d{15}$/);
    const title = (await page.getByTestId('invoice-title').textContent())!;
    const number = /ΑΠΥ (\d+)$/.exec(title.trim())?.[1];
    expect(number, title).toBeTruthy();
    expect(title).toContain(say.receipt);
    await expectAccessible(page, `accepted receipt ${language}`);

    // Its PDF: Greek, and the language chosen beside it; the MARK printed and the QR code drawn.
    await page.getByTestId('invoice-pdf-language').getByText(say.pdfLanguage, { exact: true }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-pdf').click()]);
    const read = readPdf(fs.readFileSync((await download.path())!));
    const text = read.text.replace(/\s+/g, ' ');
    expect(text).toContain(`${say.pdfTitle} ${number}`);
    expect(text).toContain(`${say.pdfMark} ${mark}`);
    expect(read.images).toBeGreaterThanOrEqual(1);
    expect(read.embeddedFonts).toBeGreaterThan(0);

    await page.goto('/Invoices');
    await page.getByTestId('invoices-customer').fill(lastName);
    const row = page.getByTestId('invoice-row').filter({ hasText: lastName });
    await expect(row.getByTestId('invoice-number')).toHaveText(`${say.receipt} ΑΠΥ ${number}`);
    await expect(row.getByTestId('invoice-total')).toHaveText(say.total);
    await expect(page.getByTestId('invoice-row')).toHaveCount(1);
    const sums = page.getByTestId('invoices-sums');
    await expect(sums).toContainText(say.sums);
    await expect(page.getByTestId('invoices-sum-gross')).toHaveText(say.total);
    await expect(page.getByTestId('invoices-sum-net')).toHaveText(/3\s?100,25\s€/);
    await expectAccessible(page, `invoices list ${language}`);

    // A receipt issued by mistake is cancelled by a retail credit note (11.4), in a series of its own, nothing withheld.
    await page.goto(receiptUrl);
    await page.getByTestId('invoice-credit').click();
    await page.getByTestId('confirm-credit').click();
    await expect(doc).toHaveAttribute('data-status', 'draft');
    await expect(page.getByTestId('invoice-title')).toHaveText(say.retailCredit);
    await expect(page.getByTestId('invoice-gross')).toHaveText(say.total);
    await expect(page.getByTestId('invoice-line-withheld')).toHaveCount(0);
    await expectAccessible(page, `a receipt's credit note ${language}`);
    // The list calls it a retail credit note too, not a credit invoice.
    await page.goto('/Invoices');
    await page.getByTestId('invoices-customer').fill(lastName);
    await expect(page.getByTestId('invoice-row').filter({ hasText: 'ΠΣΛ' }).getByTestId('invoice-number')).toHaveText(say.retailCredit);
    await ctx.close();
  });
}
