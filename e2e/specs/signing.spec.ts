import { expect, test } from '@playwright/test';
import { apiToken, createObject, expectAccessible, signedIn } from '../fixtures.ts';
import { readPdf } from '../../apps/server/test/pdf-text.ts';

/**
 * A mandate sent for signature by link (decision 086): the agent sends it from the property's page,
 * the owner opens the link on a phone without signing in, draws a signature, types the name, accepts
 * and signs; the signed copy is among the property's files and listed as signed on its page.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const TEXTS = {
  'en-UK': { owner: 'Eleni', status: 'Signed', heading: 'The document is signed', notice: /not a qualified electronic signature under the eIDAS Regulation/, seal: 'Electronic signature record' },
  el: { owner: 'Ελένη', status: 'Υπογράφηκε', heading: 'Το έγγραφο υπογράφηκε', notice: /όχι για εγκεκριμένη ηλεκτρονική υπογραφή κατά τον Κανονισμό eIDAS/, seal: 'Πρακτικό ηλεκτρονικής υπογραφής' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  const say = TEXTS[language];

  test(`a mandate sent for signature and signed on a phone (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    // A flat with its owner (with an e-mail) and an exclusive mandate, made for this run.
    const flat = await createObject(request, token, { area: 78 });
    const email = `owner-${unique()}@example.gr`;
    const lastName = `Οικονόμου${unique()}`;
    const owner = await request.post('/api/account/add', { data: { firstName: say.owner, lastName, isOwner: true, email }, headers: auth(token) });
    expect(owner.ok(), await owner.text()).toBeTruthy();
    const ownerId = (await owner.json()).id as number;
    const made = await request.post('/api/Mandate/update', {
      data: { objectId: flat.id, kind: 'exclusive', startDate: '2026-11-01', endDate: '2027-05-01', askingPrice: 210000, commissionPercent: 2, owners: [{ accountId: ownerId }] },
      headers: auth(token),
    });
    expect(made.ok(), await made.text()).toBeTruthy();

    // The agent sends it: the owner is the default signer.
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(`/Objects/View/${flat.id}`);
    await page.getByTestId('object-mandates').getByTestId('sign-send-open').click();
    const dialog = page.getByTestId('sign-send-dialog');
    await expect(dialog.getByTestId('sign-signer-email')).toHaveValue(email);
    await expect(dialog.getByTestId('sign-signer-name')).toHaveValue(`${say.owner} ${lastName}`);
    await expectAccessible(page, `send for signature ${language}`);
    await dialog.getByTestId('sign-send').click();
    const link = await dialog.getByTestId('sign-link').inputValue();
    expect(link).toMatch(/\/Sign\/[A-Za-z0-9_-]{43}$/);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('sign-request').first()).toHaveAttribute('data-status', 'sent');

    // The owner: a phone, no session, the page in the document's language.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, baseURL });
    await phone.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    const signer = await phone.newPage();
    const opened = await signer.goto(new URL(link).pathname);
    expect(opened?.headers()['cache-control']).toBe('private, no-store');
    expect(opened?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    await expect(signer.getByTestId('sign-hash')).toHaveText(/^[0-9a-f]{64}$/);
    // Whose link it is: the agency's logo and name at the top, as on its other pages for clients.
    await expect(signer.getByTestId('sign-agency-logo')).toBeVisible();
    await expect(signer.getByTestId('sign-agency')).not.toBeEmpty();
    await expect(signer.getByTestId('sign-notice')).toHaveText(say.notice);
    await expectAccessible(signer, `signing page on a phone ${language}`);
    // The page fits the phone: nothing wider than its screen.
    expect(await signer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // A signature drawn with the mouse, the name typed, accepted, signed.
    const pad = signer.getByTestId('signature-pad');
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await signer.mouse.move(box.x + 20, box.y + box.height * 0.7);
    await signer.mouse.down();
    for (let i = 1; i <= 12; i++) await signer.mouse.move(box.x + 20 + i * ((box.width - 40) / 12), box.y + box.height * (i % 2 ? 0.3 : 0.7));
    await signer.mouse.up();
    await signer.getByTestId('sign-name').fill(`${say.owner} ${lastName}`);
    await signer.getByTestId('sign-accept').check();
    await signer.getByTestId('sign-submit').click();
    await expect(signer.getByRole('heading', { level: 1 })).toHaveText(say.heading);
    await expect(signer.getByTestId('sign-done')).toBeVisible();
    await expectAccessible(signer, `signed page ${language}`);
    const signedCopy = await signer.request.get(await signer.getByTestId('sign-download').getAttribute('href') as string);
    expect(signedCopy.headers()['content-type']).toBe('application/pdf');
    const read = readPdf(await signedCopy.body());
    expect(read.images).toBeGreaterThan(0);
    expect(read.pages.at(-1)!.replace(/\s+/g, ' ')).toContain(say.seal);
    expect(read.pages.at(-1)!.replace(/\s+/g, ' ')).toContain(`${say.owner} ${lastName}`);
    await phone.close();

    // The agent's page: signed, the copy linked; the copy is among the property's files.
    await page.reload();
    const row = page.getByTestId('sign-request').first();
    await expect(row).toHaveAttribute('data-status', 'signed');
    await expect(row.getByText(say.status, { exact: true })).toBeVisible();
    await expect(row.getByTestId('file-link')).toHaveText(/\.pdf$/);
    const files = await request.get(`/api/files?parentType=1&parentId=${flat.id}`, { headers: auth(token) });
    const names = ((await files.json()).items as { userName: string; mime: string }[]).filter((f) => f.mime === 'application/pdf').map((f) => f.userName);
    expect(names).toHaveLength(1);
    await expect(row.getByTestId('file-link')).toHaveText(names[0]!);
    await ctx.close();
  });
}
