import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { apiToken, auth, createObject, expectAccessible, openSignedIn } from '../fixtures.ts';
import { useMailServers, sentMessages, withPdf } from '../mail-servers.ts';
import { RecordMailPanel } from '../pages/record-mail.ts';
import { appendMail, mailboxSettings } from '../../apps/server/test/dovecot.ts';

/**
 * Mail on the lead and "new contact?" (issue 46, decisions 089 and 082), against a private Dovecot
 * (the mailbox, its Sent folder, mail delivered by IMAP APPEND and synced by the job runner) and an
 * SMTP server this spec starts: a new e-mail written from a lead goes to its client and stays on the
 * lead's thread; mail from an unknown address offers its sender, found in the signature, as a client;
 * an attachment read on a deal's thread is saved to its property's files (decision 095). The mail
 * is in the record's timeline, among its activities, newest first (issue 46), or shown alone.
 */
const LANGUAGES = [
  {
    cookie: 'en-UK',
    template: 'E-mail: viewing confirmation',
    sent: 'The e-mail was sent.',
    newContact: 'New contact?',
    added: 'is added as a client: open the record',
    timeline: { title: 'Activities and e-mails', all: 'All', activities: 'Activities', mail: 'E-mails', mailTitle: 'E-mails', activitiesTitle: 'Activities' },
    row: { from: 'From', mailbox: 'Mailbox' },
    empty: { all: 'No activities or e-mails match the filters.', mail: 'No e-mails match the filters.', activities: 'No activities match the filters.' },
    state: { all: 'All', todo: 'To do' },
    showAll: 'Show all',
  },
  {
    cookie: 'el',
    template: 'E-mail: επιβεβαίωση υπόδειξης',
    sent: 'Το e-mail στάλθηκε.',
    newContact: 'Νέα επαφή;',
    added: 'προστέθηκε ως πελάτης: άνοιγμα καρτέλας',
    // The control and the heading of the mail alone say the same (they were «E-mail» and «Αλληλογραφία»).
    timeline: { title: 'Δραστηριότητες και αλληλογραφία', all: 'Όλα', activities: 'Δραστηριότητες', mail: 'Αλληλογραφία', mailTitle: 'Αλληλογραφία', activitiesTitle: 'Δραστηριότητες' },
    row: { from: 'Από', mailbox: 'Γραμματοκιβώτιο' },
    empty: { all: 'Καμία δραστηριότητα ή μήνυμα δεν ταιριάζει με τα φίλτρα.', mail: 'Κανένα μήνυμα δεν ταιριάζει με τα φίλτρα.', activities: 'Καμία δραστηριότητα δεν ταιριάζει με τα φίλτρα.' },
    state: { all: 'Όλες', todo: 'Προς εκτέλεση' },
    showAll: 'Όλες',
  },
];
const GREEK = 'αβγδεζηθικλμνξπρστφχψω';

const servers = useMailServers();

async function ok<T>(res: Promise<{ ok(): boolean; text(): Promise<string>; json(): Promise<unknown> }>): Promise<T> {
  const r = await res;
  expect(r.ok(), await r.text()).toBeTruthy();
  return (await r.json()) as T;
}

/**
 * A mailbox of the spec's Dovecot saved active (`settings` over the defaults): the job runner syncs
 * it; answers once the CRM holds one message on the record's thread (`thread`: "objectId=12").
 */
async function connectAndWait(request: APIRequestContext, token: string, settings: Record<string, unknown>, thread: string) {
  const box = await ok<{ id: number }>(request.post('/api/mailboxes/update', { data: mailboxSettings(servers.dovecot, settings), headers: auth(token) }));
  await expect
    .poll(async () => ((await (await request.get(`/api/mail?${thread}`, { headers: auth(token) })).json()) as { totalRows: number }).totalRows, { timeout: 60_000 })
    .toBe(1);
  return box;
}

/** A Greek-speaking client with an e-mail address, and a purchase lead of theirs offered one property. */
async function clientLead(request: APIRequestContext, token: string, tag: string) {
  const flat = await createObject(request, token, { title: `Lead flat ${tag}`, forSale: true, salePrice: 240000 });
  const email = `katerina.${tag}@example.gr`;
  const { id: accountId } = await ok<{ id: number }>(request.post('/api/account/add', { data: { firstName: 'Κατερίνα', lastName: `Λάμπρου ${tag}`, isClient: true, email, language: 'el' }, headers: auth(token) }));
  const { id: leadId } = await ok<{ id: number }>(request.post('/api/lead/add', { data: { accountId }, headers: auth(token) }));
  await ok(request.post('/api/lead/update', { data: { id: leadId, version: 1, forPurchase: true }, headers: auth(token) }));
  await ok(request.post('/api/lead/addObject', { data: { leadId, objectId: flat.id }, headers: auth(token) }));
  return { flat, email, leadId, accountId };
}

for (const L of LANGUAGES) {
  test(`a new e-mail from a lead goes to its client and stays on the lead's thread (${L.cookie})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const tag = randomBytes(4).toString('hex');
    const { flat, email, leadId, accountId } = await clientLead(request, token, tag);
    const box = await ok<{ id: number }>(
      request.post('/api/mailboxes/update', {
        data: mailboxSettings(servers.dovecot, { name: `Leads ${tag}`, address: `leads.${tag}@agency.test`, smtpHost: '127.0.0.1', smtpPort: servers.smtp.port, active: false, signature: `Γραφείο ${tag}` }),
        headers: auth(token),
      }),
    );

    // A call noted on the lead before the mail is written: the mail goes above it.
    const call = `Called Katerina ${tag}`;
    await ok(request.post('/api/activity/add', { data: { entityType: 4, id: leadId, description: call }, headers: auth(token) }));

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, L.cookie, `/Leads/View/${leadId}`);
    const mail = new RecordMailPanel(page);
    await expect(mail.panel.getByRole('heading', { name: L.timeline.title })).toBeVisible();
    await expect(mail.rows).toHaveCount(1);
    await expect(mail.rows.first()).toHaveAttribute('data-testid', 'activity-row');
    await mail.startNew(`Leads ${tag} <leads.${tag}@agency.test>`);
    // To the lead's client, the agency's text in her language (Greek) whatever the reader's.
    await expect(mail.composer.getByTestId('mail-compose-to').locator('..')).toContainText(email);
    await mail.useTemplate(L.template);
    await expect(mail.composer.getByTestId('mail-compose-text')).toHaveValue(/^Αγαπητή Κατερίνα,/);
    // The property named by its reference number, as agents write it.
    const subject = `Υπόδειξη ακινήτου #${flat.referenceNumber}`;
    await mail.composer.getByTestId('mail-compose-subject').fill(subject);
    await expectAccessible(page, `a new e-mail written from a lead (${L.cookie})`);
    await mail.send();
    await expect(page.getByText(L.sent)).toBeVisible();
    await expect(mail.row(subject)).toBeVisible();
    // The lead's timeline: the new mail (from, subject, first words) above the older activity.
    await expect(mail.rows).toHaveCount(2);
    await expect(mail.rows.nth(0)).toHaveAttribute('data-testid', 'mail-row');
    await expect(mail.rows.nth(0).getByTestId('mail-row-from')).toContainText(`leads.${tag}@agency.test`);
    await expect(mail.rows.nth(0).getByTestId('mail-row-open')).toHaveText(subject);
    await expect(mail.rows.nth(0).getByTestId('mail-row-snippet')).toContainText('Αγαπητή Κατερίνα');
    await expect(mail.rows.nth(1)).toHaveAttribute('data-testid', 'activity-row');
    await expect(mail.rows.nth(1)).toContainText(call);
    await expect(mail.panel.getByTestId('activity-count')).toHaveText('2');
    await expectAccessible(page, `a lead's timeline: its activity and its mail (${L.cookie})`);
    // One kind at a time, the choice kept (a cookie) when the page is opened again.
    await mail.show(L.timeline.mail);
    await expect(mail.panel.getByRole('heading', { name: L.timeline.mailTitle })).toBeVisible();
    await expect(mail.rows).toHaveCount(1);
    await expect(mail.rows.first()).toHaveAttribute('data-testid', 'mail-row');
    await mail.show(L.timeline.activities);
    await expect(mail.panel.getByRole('heading', { name: L.timeline.activitiesTitle })).toBeVisible();
    await expect(mail.rows).toHaveCount(1);
    await expect(mail.rows.first()).toHaveAttribute('data-testid', 'activity-row');
    await page.reload();
    await expect(mail.panel.getByRole('heading', { name: L.timeline.activitiesTitle })).toBeVisible();
    await expect(mail.rows).toHaveCount(1);
    await expect(mail.panel.getByTestId('mail-row')).toHaveCount(0);
    await mail.show(L.timeline.all);
    await expect(mail.rows).toHaveCount(2);

    // Under "Created by" and "Assigned to" (which a mail has not): its sender and mailbox in one cell, each named.
    const who = mail.rows.nth(0).locator('td.timeline-mail-who');
    await expect(who).toHaveAttribute('colspan', '2');
    await expect(who.getByTestId('mail-row-from')).toHaveText(new RegExp(`^${L.row.from}: .*leads\\.${tag}@agency\\.test`));
    await expect(who.getByTestId('mail-row-mailbox')).toHaveText(new RegExp(`^${L.row.mailbox}: .*Leads ${tag}`));
    // The filters: a text in both kinds, each empty list saying what it lacks; the state is an
    // activity's, offered with the activities only, and set back when the mail is shown again.
    await mail.panel.getByTestId('activity-filter-toggle').click();
    const filters = mail.panel.getByTestId('activity-filters');
    await expect(filters.getByTestId('activity-filter-text')).toBeVisible();
    await expect(filters.getByTestId('activity-filter-done')).toHaveCount(0);
    await filters.getByTestId('activity-filter-text').fill(`nothing like it ${tag}`);
    await expect(mail.panel.getByTestId('activity-empty')).toHaveText(L.empty.all);
    await mail.show(L.timeline.mail);
    await expect(mail.panel.getByTestId('activity-empty')).toHaveText(L.empty.mail);
    await mail.show(L.timeline.activities);
    await expect(mail.panel.getByTestId('activity-empty')).toHaveText(L.empty.activities);
    await filters.getByTestId('activity-filter-text').fill('');
    await expect(mail.rows).toHaveCount(1);
    await filters.getByTestId('activity-filter-done').click();
    await page.getByRole('option', { name: L.state.todo, exact: true }).click();
    await expect(mail.panel.getByTestId('activity-empty')).toHaveText(L.empty.activities);
    await mail.show(L.timeline.all);
    await expect(mail.rows).toHaveCount(2);
    await expect(filters.getByTestId('activity-filter-done')).toHaveCount(0);
    await expect(mail.panel.getByTestId('activity-filter-toggle')).toHaveAttribute('data-active', 'false');
    await mail.show(L.timeline.activities);
    await expect(filters.getByTestId('activity-filter-done')).toHaveValue(L.state.all);
    await expect(mail.rows).toHaveCount(1);
    // "Show all" is the activities' (a page with mail holds at most 200 rows): with the mail, the largest size offered.
    const perPage = mail.panel.getByTestId('activity-per-page');
    await perPage.click();
    await page.getByRole('option', { name: L.showAll, exact: true }).click();
    await expect(perPage).toHaveValue(L.showAll);
    await mail.show(L.timeline.all);
    await expect(mail.rows).toHaveCount(2);
    await expect(perPage).toHaveValue('50');
    await perPage.click();
    await expect(page.getByRole('option', { name: '50', exact: true })).toBeVisible();
    await expect(page.getByRole('option', { name: L.showAll, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expectAccessible(page, `a lead's timeline, filtered and paged (${L.cookie})`);

    // Sent over SMTP to the client, with the mailbox's signature; and kept in the Sent folder.
    const sent = servers.smtp.received.find((r) => r.to.includes(email));
    expect(sent).toBeDefined();
    const parsed = await simpleParser(sent!.raw);
    expect(parsed.subject).toBe(subject);
    expect(parsed.text).toContain(`-- \nΓραφείο ${tag}`);
    expect((await sentMessages(servers.dovecot)).map((m) => m.messageId)).toContain(parsed.messageId);

    await mail.row(subject).click();
    await expect(mail.message.getByTestId('mail-text')).toContainText(`Γραφείο ${tag}`);
    await expectAccessible(page, `an e-mail read on a lead's thread (${L.cookie})`);
    await page.keyboard.press('Escape');
    // The same mail on the property's thread (its reference number) and on the client's.
    await page.goto(`/Objects/View/${flat.id}`);
    await expect(mail.row(subject)).toBeVisible();
    // Editing the property: its activities alone, as before the timeline (its mail is the view's).
    await page.getByTestId('edit-toggle').click();
    await expect(mail.panel.getByRole('heading', { name: L.timeline.activitiesTitle, exact: true })).toBeVisible();
    await expect(mail.panel.getByTestId('timeline-kind')).toHaveCount(0);
    await expect(mail.panel.getByTestId('mail-new')).toHaveCount(0);
    await expect(mail.panel.getByTestId('mail-row')).toHaveCount(0);
    await page.goto(`/Accounts/View/${accountId}`);
    await expect(mail.row(subject)).toBeVisible();
    await ctx.close();
    expect((await request.delete(`/api/mailboxes/${box.id}`, { headers: auth(token) })).status()).toBe(200);
  });
}

for (const L of LANGUAGES) {
  test(`mail from an unknown address offers its sender as a new client, and the mail moves onto the new record (${L.cookie})`, async ({ browser, request, baseURL }) => {
    // The mailbox's first sync goes through the job runner, beside the other specs' work.
    test.slow();
    const token = await apiToken(request);
    const tag = randomBytes(4).toString('hex');
    // A person new to the CRM each run: their own surname and address.
    const surname = `Καρράς${[...randomBytes(4)].map((b) => GREEK[b % GREEK.length]).join('')}`;
    const address = `d.karras.${tag}@example.gr`;
    const flat = await createObject(request, token, { title: `Unknown sender flat ${tag}`, forSale: true, salePrice: 199000 });
    const subject = `Ενδιαφέρον για το ακίνητο #${flat.referenceNumber}`;
    const folder = `Unknown-${tag}`;
    await appendMail(
      servers.dovecot,
      [
        `From: ${address}`,
        'To: info@agency.test',
        `Subject: =?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`,
        `Message-ID: <${tag}.unknown@example.gr>`,
        `Date: ${new Date().toUTCString()}`,
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: 8bit',
        '',
        'Καλησπέρα σας,',
        '',
        'θα ήθελα να δω το διαμέρισμα αυτή την εβδομάδα, αν γίνεται.',
        '',
        'Με εκτίμηση,',
        `Δημήτρης ${surname}`,
        'Κιν.: 694 123 4567',
        '',
      ].join('\n'),
      { folder },
    );
    // The mail names the property, so it is on the property's thread.
    const box = await connectAndWait(request, token, { name: `Unknown ${tag}`, address: `unknown.${tag}@agency.test`, imapFolder: folder }, `objectId=${flat.id}`);

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, L.cookie, `/Objects/View/${flat.id}`);
    const mail = new RecordMailPanel(page);
    await mail.row(subject).click();
    const offer = mail.message.getByTestId('new-contact');
    await expect(offer).toContainText(L.newContact);
    // The name under the closing and the phone of the signature, as dialled from abroad.
    await expect(offer).toContainText(`Δημήτρης ${surname} · +306941234567 · ${address}`);
    await expectAccessible(page, `a mail from an unknown address, offered as a new contact (${L.cookie})`);
    await offer.getByTestId('new-contact-open').click();
    await expect(offer.getByTestId('new-contact-firstName')).toHaveValue('Δημήτρης');
    await expect(offer.getByTestId('new-contact-lastName')).toHaveValue(surname);
    await expect(offer.getByTestId('new-contact-phone')).toHaveValue('+306941234567');
    await expect(offer.getByTestId('new-contact-email')).toHaveValue(address);
    await expectAccessible(page, `the new contact's form (${L.cookie})`);
    await offer.getByTestId('new-contact-save').click();
    const added = mail.message.getByTestId('new-contact-added');
    await expect(added).toContainText(L.added);
    await added.getByRole('link').click();

    // The new client's record, with the mail on its thread.
    await expect(page).toHaveURL(/\/Accounts\/View\/\d+/);
    await expect(page.getByTestId('account-name')).toContainText(surname);
    await expect(mail.row(subject)).toBeVisible();
    await expect(mail.panel.getByTestId('mail-row')).toHaveCount(1);
    await mail.row(subject).click();
    // Known now: no longer offered.
    await expect(mail.message.getByTestId('mail-text')).toContainText('θα ήθελα να δω το διαμέρισμα');
    await expect(mail.message.getByTestId('new-contact')).toHaveCount(0);
    await ctx.close();
    expect((await request.delete(`/api/mailboxes/${box.id}`, { headers: auth(token) })).status()).toBe(200);
  });
}

const SAVES = [
  { cookie: 'en-UK', button: "Save to the property's files", saved: (name: string, ref: string) => `“${name}” is saved to the files of #${ref}.` },
  { cookie: 'el', button: 'Αποθήκευση στα αρχεία του ακινήτου', saved: (name: string, ref: string) => `Το «${name}» αποθηκεύτηκε στα αρχεία: #${ref}.` },
];

for (const L of SAVES) {
  test(`an attachment read on a deal's thread is saved to the deal's property's files in one click (${L.cookie})`, async ({ browser, request, baseURL }) => {
    // The mailbox's first sync goes through the job runner, beside the other specs' work.
    test.slow();
    const token = await apiToken(request);
    const tag = randomBytes(4).toString('hex');
    const flat = await createObject(request, token, { title: `Deal flat ${tag}`, forSale: true, salePrice: 210000 });
    const deal = await ok<{ id: number }>(request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 1, objectId: flat.id }, headers: auth(token) }));
    const subject = `Contract draft ref ${flat.referenceNumber}`;
    const name = `draft-${tag}.pdf`;
    const folder = `Deal-${tag}`;
    await appendMail(
      servers.dovecot,
      withPdf(['From: notary.office@example.gr', 'To: info@agency.test', `Subject: ${subject}`, `Message-ID: <${tag}.deal@example.gr>`, `Date: ${new Date().toUTCString()}`], 'The draft contract is attached.', name).join('\n'),
      { folder },
    );
    const box = await connectAndWait(request, token, { name: `Deals ${tag}`, address: `deals.${tag}@agency.test`, imapFolder: folder }, `dealId=${deal.id}`);

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, L.cookie, `/Deals/${deal.id}`);
    const mail = new RecordMailPanel(page);
    await mail.row(subject).click();
    const save = mail.message.getByTestId('mail-attachment-save');
    await expect(save).toHaveText(L.button);
    await expectAccessible(page, `an e-mail with an attachment read on a deal (${L.cookie})`);
    await save.click();
    await expect(page.getByText(L.saved(name, flat.referenceNumber))).toBeVisible();
    await ctx.close();
    // Among the property's files (a document there).
    const files = await ok<{ items: { userName: string; type: string | null }[] }>(request.get(`/api/files?parentType=1&parentId=${flat.id}`, { headers: auth(token) }));
    expect(files.items.map((f) => [f.userName, f.type])).toEqual([[name, 'document']]);
    expect((await request.delete(`/api/mailboxes/${box.id}`, { headers: auth(token) })).status()).toBe(200);
  });
}
