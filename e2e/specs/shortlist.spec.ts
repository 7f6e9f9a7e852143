import { expect, test } from '@playwright/test';
import { apiToken, auth, expectAccessible, shortlistDemoLead, signedIn } from '../fixtures.ts';

/**
 * Sending a client the properties chosen for them: from a demo lead's page, "Send to client" makes a
 * link; the client opens it on a phone without signing in, sees the properties, taps "Interested",
 * and the agent sees the answer on the lead.
 */

const TEXT = {
  'en-UK': { send: 'Send to client', heading: 'Properties selected for you', interested: 'Interested', answer: 'Client: Interested', expired: 'Link not found' },
  el: { send: 'Αποστολή στον πελάτη', heading: 'Ακίνητα που επιλέξαμε για εσάς', interested: 'Με ενδιαφέρει', answer: 'Πελάτης: Με ενδιαφέρει', expired: 'Ο σύνδεσμος δεν βρέθηκε' },
} as const;

for (const [n, language] of (['en-UK', 'el'] as const).entries()) {
  test(`a shortlist sent by link, answered by the client on a phone (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(150_000);
    const words = TEXT[language];
    const token = await apiToken(request);
    const lead = await shortlistDemoLead(request, token, n, language === 'el' ? 'el' : 'en');
    const [first, second] = lead.objects;

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Leads/View/${lead.id}`);
    const card = page.getByTestId('lead-shortlists');
    await expect(card.getByTestId('shortlist-open')).toHaveText(words.send);
    await card.getByTestId('shortlist-open').click();
    const dialog = page.getByRole('dialog');
    // Every offered property is chosen; the second is left out.
    await expect(dialog.getByTestId('shortlist-choice')).toHaveCount(lead.objects.length);
    await dialog.getByRole('checkbox', { name: new RegExp(`^#${second!.objectReferenceNumber}`) }).uncheck();
    await expectAccessible(page, 'shortlist dialog');
    await dialog.getByTestId('shortlist-link-make').click();
    const link = await dialog.getByTestId('shortlist-link').inputValue();
    expect(link).toMatch(/\/Shortlist\/[A-Za-z0-9_-]{43}$/);
    await page.keyboard.press('Escape');
    await expect(card.getByTestId('shortlist-sent').first()).toBeVisible();

    // The client: a fresh phone, no session, in the test's language.
    const phone = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true, baseURL });
    await phone.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    const client = await phone.newPage();
    await client.goto(new URL(link).pathname);
    await expect(client.getByRole('heading', { level: 1 })).toHaveText(words.heading);
    await expect(client.getByTestId('shortlist-agency-logo')).toBeVisible();
    const props = client.getByTestId('shortlist-property');
    await expect(props).toHaveCount(lead.objects.length - 1);
    const mine = props.first();
    if (first!.title) await expect(mine.getByRole('heading', { level: 2 })).toHaveText(first!.title);
    await expectAccessible(client, 'shortlist page on a phone');
    // The page fits the phone: nothing wider than its screen.
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(412);
    await mine.getByTestId('shortlist-interested').click();
    await expect(mine).toHaveAttribute('data-answer', 'interested');
    await expect(mine.getByTestId('shortlist-interested')).toHaveAttribute('aria-pressed', 'true');
    // A made-up link: a clear page, nothing else.
    await client.goto(`/Shortlist/${'x'.repeat(43)}`);
    await expect(client.getByRole('heading', { level: 1 })).toHaveText(words.expired);
    await expect(client.getByTestId('shortlist-property')).toHaveCount(0);
    await expectAccessible(client, 'shortlist page, unknown link');
    await phone.close();

    // Back on the lead: the answer beside the property, and the shortlist opened.
    await page.reload();
    await expect(page.getByTestId('lead-object').filter({ hasText: `#${first!.objectReferenceNumber}` }).getByTestId('lead-object-answer')).toHaveText(words.answer);
    const sent = card.getByTestId('shortlist-sent').first();
    await expect(sent.getByTestId('shortlist-opened')).not.toHaveText(language === 'el' ? 'δεν έχει ανοιχτεί' : 'not opened yet');
    await expectAccessible(page, 'lead with a shortlist answered');
    await ctx.close();
  });
}

const WITHDRAW = {
  'en-UK': { withdraw: 'Withdraw link', withdrawn: /link withdrawn/, title: 'Link withdrawn', text: 'This link has been withdrawn. Please contact your agent.' },
  el: { withdraw: 'Ακύρωση συνδέσμου', withdrawn: /ο σύνδεσμος ακυρώθηκε/, title: 'Ο σύνδεσμος ακυρώθηκε', text: 'Αυτός ο σύνδεσμος έχει ακυρωθεί. Παρακαλούμε επικοινωνήστε με τον σύμβουλό σας.' },
} as const;

for (const [n, language] of (['en-UK', 'el'] as const).entries()) {
  test(`a shortlist's link withdrawn from the lead's page stops working for the client (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(150_000);
    const words = WITHDRAW[language];
    const token = await apiToken(request);
    const lead = await shortlistDemoLead(request, token, n + 2);
    const made = await request.post(`/api/lead/${lead.id}/shortlist`, { data: { objectIds: [lead.objects[0]!.objectId], channel: 'link' }, headers: auth(token) });
    expect(made.ok(), await made.text()).toBeTruthy();
    const path = new URL(((await made.json()) as { url: string }).url).pathname;

    // The client has the page open on a phone.
    const phone = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true, baseURL });
    await phone.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    const client = await phone.newPage();
    await client.goto(path);
    const mine = client.getByTestId('shortlist-property').first();
    await expect(mine).toBeVisible();

    // The agent withdraws it, after a confirmation.
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Leads/View/${lead.id}`);
    const sent = page.getByTestId('lead-shortlists').getByTestId('shortlist-sent').first();
    await sent.getByTestId('shortlist-withdraw').click();
    const confirm = page.getByRole('dialog');
    await expect(confirm.getByTestId('shortlist-withdraw-confirm')).toHaveText(words.withdraw);
    await expectAccessible(page, 'withdraw link confirmation');
    await confirm.getByTestId('shortlist-withdraw-confirm').click();
    await expect(sent.getByTestId('shortlist-withdrawn')).toHaveText(words.withdrawn);
    await expect(sent.getByTestId('shortlist-withdraw')).toHaveCount(0);
    await expectAccessible(page, 'lead with a withdrawn link');
    await ctx.close();

    // The client's tap is refused with the reason; the page, opened again, says the link was withdrawn.
    await mine.getByTestId('shortlist-interested').click();
    await expect(mine.getByRole('alert')).toHaveText(words.text);
    await expect(mine).toHaveAttribute('data-answer', '');
    await client.reload();
    await expect(client.getByRole('heading', { level: 1 })).toHaveText(words.title);
    await expect(client.getByTestId('shortlist-error')).toHaveAttribute('data-status', '410');
    await expect(client.getByRole('alert')).toHaveText(words.text);
    await expect(client.getByTestId('shortlist-property')).toHaveCount(0);
    await expectAccessible(client, 'shortlist page, withdrawn link');
    await phone.close();
    // The server's own answer for the page is a 410 too (what a link preview sees).
    expect((await request.get(path)).status()).toBe(410);
  });
}
