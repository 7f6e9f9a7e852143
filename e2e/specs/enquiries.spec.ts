import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, auth, createObject, expectAccessible, openSignedIn } from '../fixtures.ts';
import { useMailServers, sentMessages } from '../mail-servers.ts';
import { simpleParser } from 'mailparser';
import { appendMail, mailboxSettings } from '../../apps/server/test/dovecot.ts';

/**
 * A portal's enquiry mail becomes a lead (issue 46, decision 082): the sample Spitogatos mail
 * (apps/server/test/fixtures/enquiries) put into this spec's own Dovecot by IMAP APPEND, a mailbox
 * connected to it, the job runner's sync, and the lead on screen with its property, its source and
 * the mail it came from; the agent's reply from the lead goes to the enquirer, on the lead's thread
 * and in the IMAP Sent folder. Each test has its own IMAP folder, so the two languages never share mail.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../apps/server/test/fixtures/enquiries');
const GREEK = 'αβγδεζηθικλμνξπρστφχψω';
const LANGUAGES = [
  { cookie: 'en-UK', sample: 'spitogatos.en.eml', lastName: 'Whitfield', email: 'j.whitfield@example.co.uk', phone: '+44 7700 900123', title: 'Enquiry by e-mail', open: 'Open the e-mail', text: 'summer house in Chalkidiki', html: false, blocked: null, reply: 'Thank you, the house is available: would Saturday suit you?', sent: 'The reply was sent.' },
  { cookie: 'el', sample: 'spitogatos.el.eml', lastName: 'Παπαδάκης', email: 'g.papadakis@example.gr', phone: '694 412 3456', title: 'Αίτημα μέσω e-mail', open: 'Άνοιγμα του e-mail', text: 'θα ήθελα να δω το διαμέρισμα', html: true, blocked: 'Εξωτερικές εικόνες που αποκλείστηκαν για την προστασία του απορρήτου σας: 1.', reply: 'Καλησπέρα σας, το διαμέρισμα είναι διαθέσιμο: σας βολεύει το Σάββατο;', sent: 'Η απάντηση στάλθηκε.' },
];

const servers = useMailServers();

const deliver = (folder: string, raw: string) => appendMail(servers.dovecot, raw, { folder });

async function leadOf(request: APIRequestContext, token: string, lastName: string): Promise<number | null> {
  const res = await request.post('/api/lead/search', { data: { lastName }, headers: auth(token) });
  const { items } = (await res.json()) as { items: { id: number }[] };
  return items.length === 1 ? items[0]!.id : null;
}

for (const L of LANGUAGES) {
  test(`a portal enquiry by mail becomes a lead with its property and source (${L.cookie})`, async ({ browser, request, baseURL }) => {
    // A mailbox's first sync goes through the job runner, beside the other specs' work.
    test.slow();
    const token = await apiToken(request);
    const tag = randomBytes(4).toString('hex');
    // A person new to the CRM each run: their own last name and e-mail.
    const suffix = [...randomBytes(4)].map((b) => (L.cookie === 'el' ? GREEK : 'abcdefghijklmnopqrstuvwxyz')[b % (L.cookie === 'el' ? GREEK.length : 26)]).join('');
    const lastName = `${L.lastName}${suffix}`;
    const flat = await createObject(request, token, { title: `Enquiry flat ${tag}`, forSale: true, salePrice: 185000 });
    const raw = fs
      .readFileSync(path.join(FIXTURES, L.sample), 'utf8')
      .replaceAll('0042', flat.referenceNumber)
      .replaceAll(L.lastName, lastName)
      .replaceAll(L.email, L.email.replace('@', `.${tag}@`))
      .replace(/^Date: .*$/m, `Date: ${new Date().toUTCString()}`)
      .replace(/^Message-ID: <(.*)>$/m, `Message-ID: <${tag}.$1>`);
    // The Greek sample's Reply-To names the person in an encoded word: left as it is (the body is what is read).
    const folder = `Enquiries-${tag}`;
    await deliver(folder, raw);

    // Connected as an office admin does: saving it queues its first sync (the job runner).
    const box = await request.post('/api/mailboxes/update', {
      data: mailboxSettings(servers.dovecot, { name: `Portals ${tag}`, address: `portals.${tag}@agency.test`, imapFolder: folder, smtpHost: '127.0.0.1', smtpPort: servers.smtp.port }),
      headers: auth(token),
    });
    expect(box.status(), await box.text()).toBe(200);
    const boxId = ((await box.json()) as { id: number }).id;
    await expect.poll(() => leadOf(request, token, lastName), { timeout: 60_000 }).not.toBeNull();
    const leadId = (await leadOf(request, token, lastName))!;

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, L.cookie, `/Leads/View/${leadId}`);
    await expect(page.getByTestId('lead-client')).toContainText(lastName);
    // The portal is the lead's source (the demo agency's own "Spitogatos.gr" source, adopted).
    await expect(page.getByTestId('lead-value-source')).toContainText('Spitogatos.gr');
    await expect(page.getByTestId('lead-objects').getByTestId('lead-object')).toHaveText([`#${flat.referenceNumber} · Enquiry flat ${tag}`]);
    // The note says where the lead came from (the portal, the property) and who asked (for the agents
    // who do not see the mailbox it came to); the message is the mail's, shown once, in the lead's thread.
    const note = page.getByTestId('lead-value-description');
    await expect(note).toContainText(`Spitogatos.gr`);
    await expect(note).toContainText(`#${flat.referenceNumber}`);
    await expect(note).toContainText(lastName);
    await expect(note).toContainText(L.email.replace('@', `.${tag}@`));
    await expect(note).toContainText(L.phone);
    await expect(note).not.toContainText(L.text);
    const mail = page.getByTestId('lead-enquiry-mail');
    await expect(mail.getByRole('heading', { name: L.title })).toBeVisible();
    await expect(mail.getByTestId('lead-enquiry-row')).toContainText('noreply@spitogatos.gr');
    await expectAccessible(page, `a lead made from a portal enquiry (${L.cookie})`);
    await mail.getByTestId('lead-enquiry-open').filter({ hasText: L.open }).click();
    const message = page.getByTestId('mail-message');
    await expect(message).toContainText('noreply@spitogatos.gr');
    if (L.html) {
      // The mail's HTML, sanitised, in a frame that runs nothing; the portal's tracking pixel blocked until asked.
      const frame = message.getByTestId('mail-html');
      await expect(frame).toHaveAttribute('sandbox', '');
      await expect(page.frameLocator('[data-testid="mail-html"]').getByText(L.text)).toBeVisible();
      await expect(page.frameLocator('[data-testid="mail-html"]').locator('img[src^="http"], script, form')).toHaveCount(0);
      await expect(message.getByTestId('mail-images-blocked')).toContainText(L.blocked!);
      await expect(message.getByTestId('mail-show-images')).toBeVisible();
      await expectAccessible(page, `the enquiry's HTML mail opened from its lead (${L.cookie})`);
    } else {
      await expect(message.getByTestId('mail-text')).toContainText(L.text);
      await expectAccessible(page, `the enquiry mail opened from its lead (${L.cookie})`);
    }
    // The agent replies from the lead: to the enquirer (the portal's Reply-To), kept on the lead's thread and in the Sent folder.
    await message.getByTestId('mail-reply').click();
    await message.getByTestId('mail-reply-text').fill(L.reply);
    await expectAccessible(page, `a reply to the enquiry written from its lead (${L.cookie})`);
    await message.getByTestId('mail-reply-send').click();
    await expect(page.getByText(L.sent)).toBeVisible();
    await page.keyboard.press('Escape');
    // The lead's timeline: its mail among its activities, newest first.
    const thread = page.getByTestId('activity-list');
    await expect(thread.getByTestId('mail-row')).toHaveCount(2);
    await expect(thread.getByTestId('mail-row').first()).toContainText('Re: ');
    const enquirer = L.email.replace('@', `.${tag}@`);
    const out = servers.smtp.received.find((r) => r.to.includes(enquirer));
    expect(out, 'the reply went to the enquirer').toBeDefined();
    const parsed = await simpleParser(out!.raw);
    expect(parsed.text).toContain(L.reply);
    expect((await sentMessages(servers.dovecot)).map((m) => m.messageId)).toContain(parsed.messageId);
    await ctx.close();

    // Disconnected at the end: its job stops polling this spec's Dovecot.
    expect((await request.delete(`/api/mailboxes/${boxId}`, { headers: auth(token) })).status()).toBe(200);
  });
}
