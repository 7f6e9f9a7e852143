import { expect, test } from '@playwright/test';
import { apiToken, auth, createObject, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * A deal's documents sent for signature by link (decision 086): from the deal's page the agent sends
 * the offer agreement to the buyer (chosen among the deal's parties) and the property's handover
 * protocol to the seller; the seller signs on a phone; the deal's page shows each request's state.
 */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const TEXTS = {
  'en-UK': { seller: 'Maria', buyer: 'Andreas', sent: 'Awaiting signature', signed: 'Signed', heading: 'The document is signed', buyerRole: 'buyer / tenant' },
  el: { seller: 'Μαρία', buyer: 'Ανδρέας', sent: 'Αναμένεται υπογραφή', signed: 'Υπογράφηκε', heading: 'Το έγγραφο υπογράφηκε', buyerRole: 'αγοραστής / μισθωτής' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  const say = TEXTS[language];

  test(`a deal's offer agreement and handover protocol sent for signature from its page (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    const flat = await createObject(request, token, { area: 64 });
    const run = unique();
    const person = async (firstName: string, lastName: string, email: string) => {
      const res = await request.post('/api/account/add', { data: { firstName, lastName, isClient: true, email }, headers: auth(token) });
      expect(res.ok(), await res.text()).toBeTruthy();
      return (await res.json()).id as number;
    };
    const sellerEmail = `seller-${run}@example.gr`;
    const buyerEmail = `buyer-${run}@example.gr`;
    const sellerName = `${say.seller} Σταθοπούλου${run}`;
    const buyerName = `${say.buyer} Κωνσταντίνου${run}`;
    const seller = await person(say.seller, `Σταθοπούλου${run}`, sellerEmail);
    const buyer = await person(say.buyer, `Κωνσταντίνου${run}`, buyerEmail);
    const made = await request.post('/api/Deal/update', {
      data: { dealType: 1, dealStage: 1, objectId: flat.id, price: 198000, accounts: [{ accountId: seller, relation: 1 }, { accountId: buyer, relation: 2 }] },
      headers: auth(token),
    });
    expect(made.ok(), await made.text()).toBeTruthy();
    const dealId = (await made.json()).id as number;

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Deals/${dealId}`);

    // The offer agreement: the seller proposed first, the buyer chosen among the deal's parties.
    const offer = page.getByTestId('deal-sign-offer');
    let dialog = page.getByTestId('sign-send-dialog');
    // The page's first click, while its parts are still arriving, may land on a card drawn again
    // under it: clicked again until the dialog is there.
    await expect(async () => {
      if (!(await dialog.isVisible())) await offer.getByTestId('sign-send-open').click({ timeout: 2_000 });
      await expect(dialog.getByTestId('sign-signer-email')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(dialog.getByTestId('sign-signer-email')).toHaveValue(sellerEmail);
    await expect(dialog.getByTestId('sign-signer-name')).toHaveValue(sellerName);
    await dialog.getByTestId('sign-signer').selectOption({ label: `${buyerName} (${say.buyerRole}): ${buyerEmail}` });
    await expect(dialog.getByTestId('sign-signer-email')).toHaveValue(buyerEmail);
    await expect(dialog.getByTestId('sign-signer-name')).toHaveValue(buyerName);
    await expectAccessible(page, `deal: send the offer for signature ${language}`);
    await dialog.getByTestId('sign-send').click();
    await expect(dialog.getByTestId('sign-link')).toHaveValue(/\/Sign\/[A-Za-z0-9_-]{43}$/);
    await page.keyboard.press('Escape');
    const offerRow = offer.getByTestId('sign-request');
    await expect(offerRow).toHaveAttribute('data-status', 'sent');
    await expect(offerRow.getByText(say.sent, { exact: true })).toBeVisible();
    await expect(offerRow).toContainText(buyerEmail);

    // The handover protocol of the deal's property, to the seller (the default).
    const handover = page.getByTestId('deal-sign-handover');
    await handover.getByTestId('sign-send-open').click();
    dialog = page.getByTestId('sign-send-dialog');
    await expect(dialog.getByTestId('sign-signer-email')).toHaveValue(sellerEmail);
    await dialog.getByTestId('sign-send').click();
    const link = await dialog.getByTestId('sign-link').inputValue();
    await page.keyboard.press('Escape');
    await expect(handover.getByTestId('sign-request')).toHaveAttribute('data-status', 'sent');

    // The seller signs on a phone, by the typed name.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, baseURL });
    await phone.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    const signer = await phone.newPage();
    await signer.goto(new URL(link).pathname);
    await signer.getByTestId('sign-name').fill(sellerName);
    await signer.getByTestId('sign-accept').check();
    await signer.getByTestId('sign-submit').click();
    await expect(signer.getByRole('heading', { level: 1 })).toHaveText(say.heading);
    await phone.close();

    // The deal's page: the handover signed with its copy linked, the offer still awaiting the buyer.
    await page.reload();
    const signedRow = page.getByTestId('deal-sign-handover').getByTestId('sign-request');
    await expect(signedRow).toHaveAttribute('data-status', 'signed');
    await expect(signedRow.getByText(say.signed, { exact: true })).toBeVisible();
    await expect(signedRow.getByTestId('file-link')).toHaveText(/\.pdf$/);
    await expect(page.getByTestId('deal-sign-offer').getByTestId('sign-request')).toHaveAttribute('data-status', 'sent');
    await expectAccessible(page, `deal: requests for signature ${language}`);
    await ctx.close();
  });
}
