import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { apiToken, auth, expectAccessible, openSignedIn } from '../fixtures.ts';
import { useMailServers, sentMessages, withPdf } from '../mail-servers.ts';
import { RecordMailPanel } from '../pages/record-mail.ts';
import { appendMail, mailboxSettings } from '../../apps/server/test/dovecot.ts';

/**
 * A new e-mail written from a client's account (issue 46, decision 089), against a private Dovecot
 * (the mailbox and its Sent folder) and an SMTP server this spec starts: the agency's text in the
 * client's language, the mailbox's signature, the thread on the account.
 */
const LANGUAGES = [
  {
    cookie: 'en-UK',
    template: 'E-mail: document request',
    hint: "In the recipient's language: Greek.",
    sent: 'The e-mail was sent.',
    saved: '“deed.pdf” is saved to this record\'s files.',
    already: '“deed.pdf” is already among this record\'s files.',
  },
  {
    cookie: 'el',
    template: 'E-mail: αίτημα δικαιολογητικών',
    hint: 'Στη γλώσσα του παραλήπτη: ελληνικά.',
    sent: 'Το e-mail στάλθηκε.',
    saved: 'Το «deed.pdf» αποθηκεύτηκε στα αρχεία της καρτέλας.',
    already: 'Το «deed.pdf» υπάρχει ήδη στα αρχεία της καρτέλας.',
  },
];
const SUBJECT = 'Δικαιολογητικά που χρειαζόμαστε';

const servers = useMailServers();

for (const L of LANGUAGES) {
  test(`a new e-mail from a client's account, from the agency's text, goes out signed and shows on the thread (${L.cookie})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const tag = randomBytes(4).toString('hex');
    const client = `eleni.${tag}@example.gr`;
    const account = await request.post('/api/account/add', { data: { lastName: `Παππά ${tag}`, firstName: 'Ελένη', isClient: true, email: client, language: 'el' }, headers: auth(token) });
    expect(account.status(), await account.text()).toBe(200);
    const accountId = ((await account.json()) as { id: number }).id;
    const signature = `Γραφείο ${tag}\n+30 210 1234567`;
    const saved = await request.post('/api/mailboxes/update', {
      data: mailboxSettings(servers.dovecot, { name: `Office ${tag}`, address: `office.${tag}@agency.test`, smtpHost: '127.0.0.1', smtpPort: servers.smtp.port, active: false, signature }),
      headers: auth(token),
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const boxId = ((await saved.json()) as { id: number }).id;

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, L.cookie, `/Accounts/View/${accountId}`);
    const mail = new RecordMailPanel(page);
    await mail.startNew(`Office ${tag} <office.${tag}@agency.test>`);
    // To the client's address; the agency's texts in the client's language (Greek), whatever the reader's.
    await expect(mail.composer.getByTestId('mail-compose-to').locator('..')).toContainText(client);
    await expect(mail.composer).toContainText(L.hint);
    await mail.useTemplate(L.template);
    await expect(mail.composer.getByTestId('mail-compose-subject')).toHaveValue(SUBJECT);
    await expect(mail.composer.getByTestId('mail-compose-text')).toHaveValue(/^Αγαπητή Ελένη,\n\nΓια να προχωρήσουμε/);
    await expectAccessible(page, `a new e-mail being written (${L.cookie})`);
    await mail.send();
    await expect(page.getByText(L.sent)).toBeVisible();
    await expect(mail.row(SUBJECT)).toBeVisible();

    // What the SMTP server was given: the template's text and the mailbox's signature under it.
    const sent = servers.smtp.received.find((r) => r.to.includes(client));
    expect(sent).toBeDefined();
    const parsed = await simpleParser(sent!.raw);
    expect(parsed.subject).toBe(SUBJECT);
    expect(parsed.text).toContain('Για να προχωρήσουμε');
    expect(parsed.text).toContain(`-- \n${signature}`);
    // In the Sent folder on the IMAP server.
    expect((await sentMessages(servers.dovecot)).flatMap((m) => m.to)).toContain(client);

    // The message is read from the thread, with the signature.
    await mail.row(SUBJECT).click();
    await expect(mail.message.getByTestId('mail-text')).toContainText(`+30 210 1234567`);
    await expectAccessible(page, `a sent e-mail on the thread (${L.cookie})`);
    await ctx.close();
    expect((await request.delete(`/api/mailboxes/${boxId}`, { headers: auth(token) })).status()).toBe(200);
  });
}

for (const L of LANGUAGES) {
  test(`an attachment of a client's mail is saved to the account's files in one click (${L.cookie})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const tag = randomBytes(4).toString('hex');
    const client = `owner.${tag}@example.gr`;
    const account = await request.post('/api/account/add', { data: { lastName: `Αλεξίου ${tag}`, firstName: 'Νίκος', isOwner: true, email: client }, headers: auth(token) });
    expect(account.status(), await account.text()).toBe(200);
    const accountId = ((await account.json()) as { id: number }).id;
    const subject = `The deed ${tag}`;
    await appendMail(
      servers.dovecot,
      withPdf([`From: Nikos <${client}>`, 'To: info@agency.test', `Subject: ${subject}`, `Message-ID: <${tag}@example.gr>`, `Date: ${new Date().toUTCString()}`], 'Here is the deed.', 'deed.pdf').join('\r\n'),
    );
    // Saved active: the job runner syncs it at once.
    const saved = await request.post('/api/mailboxes/update', { data: mailboxSettings(servers.dovecot, { name: `Inbox ${tag}`, address: `inbox.${tag}@agency.test` }), headers: auth(token) });
    expect(saved.status(), await saved.text()).toBe(200);
    const boxId = ((await saved.json()) as { id: number }).id;
    await expect
      .poll(async () => ((await (await request.get(`/api/mail?accountId=${accountId}`, { headers: auth(token) })).json()) as { totalRows: number }).totalRows)
      .toBe(1);

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, L.cookie, `/Accounts/View/${accountId}`);
    const mail = new RecordMailPanel(page);
    await mail.row(subject).click();
    const row = mail.message.getByTestId('mail-attachment-row').filter({ hasText: 'deed.pdf' });
    await expectAccessible(page, `a mail with an attachment to save (${L.cookie})`);
    await row.getByTestId('mail-attachment-save').click();
    await expect(page.getByText(L.saved)).toBeVisible();
    await row.getByTestId('mail-attachment-save').click();
    await expect(page.getByText(L.already)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(mail.message).toBeHidden();
    const filesCard = page.getByTestId('record-files');
    await expect(filesCard).toContainText('deed.pdf');
    await expect(filesCard.getByTestId('files-count')).toHaveText('1');
    await ctx.close();
    expect((await request.delete(`/api/mailboxes/${boxId}`, { headers: auth(token) })).status()).toBe(200);
  });
}
