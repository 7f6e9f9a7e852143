import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, auth, expectAccessible, signedIn } from '../fixtures.ts';
import { useMailServers } from '../mail-servers.ts';
import { appendMail } from '../../apps/server/test/dovecot.ts';

/**
 * The mailboxes' settings screen and a synced mail on an account (issue 46, decision 078), against
 * a private Dovecot this spec starts (apps/server/test/dovecot.ts), its mail put there by IMAP APPEND.
 */
const LANGUAGES = [
  { cookie: 'en-UK', ok: 'The connection works.', signIn: 'Sign-in was refused: check the user name and the password.', tab: 'Activities and e-mails', blocked: 'Remote images blocked to protect your privacy: 1.', imagesFailed: 'Images that could not be loaded: 1.' },
  { cookie: 'el', ok: 'Η σύνδεση λειτουργεί.', signIn: 'Η σύνδεση απορρίφθηκε: ελέγξτε το όνομα χρήστη και τον κωδικό.', tab: 'Δραστηριότητες και αλληλογραφία', blocked: 'Εξωτερικές εικόνες που αποκλείστηκαν για την προστασία του απορρήτου σας: 1.', imagesFailed: 'Εικόνες που δεν φορτώθηκαν: 1.' },
];

const servers = useMailServers({ smtp: false });

async function seedMail(from: string, subject: string) {
  const raw = [
    `From: Μαρία Οικονόμου <${from}>`,
    'To: info@agency.test',
    `Subject: ${subject}`,
    `Message-ID: <${randomBytes(8).toString('hex')}@example.gr>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary=b1',
    '',
    '--b1',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Καλησπέρα, θα ήθελα να δω το διαμέρισμα.</p><script>document.title="pwned"</script><img src="https://tracker.example/p.gif">',
    '--b1',
    'Content-Type: application/pdf; name="plan.pdf"',
    'Content-Disposition: attachment; filename="plan.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    'JVBERi0xLjQKJcTl8uXrCg==',
    '--b1--',
    '',
  ].join('\r\n');
  await appendMail(servers.dovecot, raw);
}

async function messagesOf(request: APIRequestContext, token: string, address: string): Promise<number> {
  const res = await request.get('/api/mailboxes', { headers: auth(token) });
  const box = ((await res.json()) as { items: { address: string; messages: number }[] }).items.find((m) => m.address === address);
  return box?.messages ?? -1;
}

for (const L of LANGUAGES) {
  test(`an admin connects a mailbox, tests it, and its mail shows on the client's record (${L.cookie})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const tag = randomBytes(4).toString('hex');
    const client = `client.${tag}@example.gr`;
    const box = `office.${tag}@agency.test`;
    const account = await request.post('/api/account/add', { data: { lastName: `Οικονόμου ${tag}`, firstName: 'Μαρία', isClient: true, email: client }, headers: auth(token) });
    expect(account.status(), await account.text()).toBe(200);
    const accountId = ((await account.json()) as { id: number }).id;
    await seedMail(client, `Viewing request ${tag}`);

    const ctx = await signedIn(browser, baseURL!, token, L.cookie);
    const page = await ctx.newPage();
    // The mailboxes are one click from the user's menu, on any screen.
    await page.goto('/CRM');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-mailboxes').click();
    await expect(page).toHaveURL(/\/Mailboxes$/);
    await page.getByTestId('mailbox-add').click();
    const form = page.getByTestId('mailbox-form');
    await form.getByTestId('mailbox-name').fill(`Office ${tag}`);
    await form.getByTestId('mailbox-address').fill(box);
    await form.getByTestId('mailbox-imapHost').fill(servers.dovecot.host);
    await form.getByTestId('mailbox-imapPort').fill(String(servers.dovecot.port));
    await form.getByTestId('mailbox-imapTls').uncheck();
    await form.getByTestId('mailbox-imapUser').fill(servers.dovecot.user);
    await form.getByTestId('mailbox-imapPassword').fill('not the password');
    await form.getByTestId('mailbox-smtpHost').fill('');
    // A wrong password: the test names the sign-in as what failed.
    await form.getByTestId('mailbox-test').click();
    await expect(form.getByTestId('mailbox-test-imap')).toContainText(L.signIn);
    await expect(form.getByTestId('mailbox-test-imap')).toHaveAttribute('data-step', 'signIn');
    await expectAccessible(page, `the mailbox form with a failed test (${L.cookie})`);
    await form.getByTestId('mailbox-imapPassword').fill(servers.dovecot.password);
    await form.getByTestId('mailbox-test').click();
    await expect(form.getByTestId('mailbox-test-ok')).toHaveText(L.ok);
    await form.getByTestId('mailbox-save').click();
    await expect(form).toBeHidden();
    const card = page.getByTestId('mailbox-card').filter({ hasText: box });
    await expect(card).toBeVisible();
    // The password is never shown again, nor anywhere in the page.
    expect(await page.content()).not.toContain(servers.dovecot.password);
    await expectAccessible(page, `the mailboxes (${L.cookie})`);

    // Saving queued its first sync (the job runner): the message arrives (with any the other
    // language's test put in the same INBOX when both run in one worker; the row below is this one's).
    await expect.poll(() => messagesOf(request, token, box)).toBeGreaterThanOrEqual(1);
    await page.goto(`/Accounts/View/${accountId}`);
    // The account's timeline: its activities and its mail together.
    const mail = page.getByTestId('activity-list');
    await expect(mail.getByRole('heading', { name: L.tab })).toBeVisible();
    await mail.getByTestId('mail-row').filter({ hasText: `Viewing request ${tag}` }).click();
    const message = page.getByTestId('mail-message');
    await expect(message).toBeVisible();
    await expect(message.getByTestId('mail-images-blocked')).toContainText(L.blocked);
    const frame = message.getByTestId('mail-html');
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(page.frameLocator('[data-testid="mail-html"]').getByText('Καλησπέρα, θα ήθελα να δω το διαμέρισμα.')).toBeVisible();
    expect(await frame.getAttribute('srcdoc')).not.toContain('<script');
    expect(await frame.getAttribute('srcdoc')).not.toMatch(/\ssrc="https:\/\/tracker/);
    // The reader may ask for the remote pictures: the CRM asks the sender's server for them (this
    // machine has no way out, so it answers that it could not), and the frame still loads nothing itself.
    const fetched = page.waitForResponse((r) => /\/api\/mail\/\d+\/image\/0$/.test(r.url()));
    await message.getByTestId('mail-show-images').click();
    expect((await fetched).status()).toBe(502);
    await expect(message.getByTestId('mail-images-failed')).toHaveText(L.imagesFailed);
    expect(await frame.getAttribute('srcdoc')).not.toMatch(/\ssrc="https:\/\/tracker/);
    await expect(message.getByTestId('mail-attachment')).toContainText('plan.pdf');
    const href = await message.getByTestId('mail-attachment').getAttribute('href');
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect((await file.body()).subarray(0, 8).toString()).toBe('%PDF-1.4');
    await expectAccessible(page, `a synced mail on an account (${L.cookie})`);
    // A reply is typed under the message (sending it is the API tests' part: this mailbox has no SMTP server).
    await message.getByTestId('mail-reply').click();
    await expect(message.getByTestId('mail-reply-text')).toBeVisible();
    await expect(message.getByTestId('mail-reply-send')).toBeDisabled();
    await message.getByTestId('mail-reply-text').fill('Ευχαριστούμε, την Παρασκευή στις 11:00.');
    await expect(message.getByTestId('mail-reply-send')).toBeEnabled();
    await expectAccessible(page, `a reply being written (${L.cookie})`);
    await ctx.close();

    // On a phone: the same screen in one column, its form on the whole screen, nothing wider than the screen.
    const phone = await signedIn(browser, baseURL!, token, L.cookie, { viewport: { width: 390, height: 844 }, isMobile: true });
    const p = await phone.newPage();
    await p.goto('/Mailboxes');
    await p.getByTestId('mailbox-card').filter({ hasText: box }).getByTestId('mailbox-edit').click();
    await expect(p.getByTestId('mailbox-form')).toBeVisible();
    await expect(p.getByTestId('mailbox-imapPassword')).toHaveValue('');
    expect(await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await p.getByTestId('mailbox-cancel').click();
    // Disconnected at the end, so that other specs' accounts never see this mailbox's mail.
    await p.getByTestId('mailbox-card').filter({ hasText: box }).getByTestId('mailbox-remove').click();
    await p.getByTestId('mailbox-remove-confirm').click();
    await expect(p.getByTestId('mailbox-card').filter({ hasText: box })).toHaveCount(0);
    await phone.close();
  });
}
