import { afterAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { accounts, actionLog, objectAccounts } from '../../db/schema/index.ts';
import { OWNER_RELATION } from '@crm/contract';
import { createTestApp } from '../../../test/harness.ts';
import { folderEnvelopes, mailboxSettings, startDovecot } from '../../../test/dovecot.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';

/**
 * A new mail from a record (issue 46, decision 089) against a real IMAP server (Dovecot) and a real
 * SMTP server (smtp-server, started here): the agency's text in the client's language, the
 * mailbox's signature, the Sent folder, the record's thread.
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());

const { port: smtpPort, received, close: closeSmtp } = await startSmtpSink();
afterAll(closeSmtp);

const t = await createTestApp({}, undefined, { jobs: false });
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const other = await t.user({ roles: ['employee'] });
const SIGNATURE = 'Μαρία Κ. · Agency <Test> & Co\n+30 210 1234567';
const box = async (over: Record<string, unknown>) => {
  const res = await admin.post('/api/mailboxes/update', mailboxSettings(dovecot, { smtpHost: '127.0.0.1', smtpPort, active: false, signature: SIGNATURE, ...over }));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; version: number; signature: string };
};

describe('a new mail from a record', () => {
  it('offers the client\'s addresses and the agency\'s texts in the client\'s language, an edited one as edited', async () => {
    const [{ id: accountId }] = await t.db.insert(accounts).values({ firstName: 'Иван', lastName: 'Петров', middleName: 'Сергеевич', isClient: true, language: 'ru', emails: ['Ivan@Example.ru', 'ivan.work@example.ru'] }).returning({ id: accounts.id });
    const draft = await agent.get(`/api/mail/draft?accountId=${accountId}`);
    expect(draft.statusCode, draft.body).toBe(200);
    const d = draft.json();
    expect(d.culture).toBe('ru');
    expect(d.to.map((a: { address: string }) => a.address)).toEqual(['ivan@example.ru', 'ivan.work@example.ru']);
    expect(d.templates.map((x: { kind: string }) => x.kind)).toEqual(['mailViewing', 'mailDocuments', 'mailFollowUp']);
    const viewing = d.templates[0];
    expect(viewing.subject).toBe('Подтверждение показа');
    expect(viewing.text).not.toMatch(/\{[a-z]+\.[a-z]+\}/i);
    expect(viewing.text).toMatch(/^Уважаемый Иван Сергеевич!\n\nПодтверждаю показ объекта/);

    // The agency edits its Russian text in Settings (version guarded); the draft offers it.
    const list = (await admin.get('/api/DocTemplate')).json();
    const ru = list.items.find((x: { kind: string; culture: string }) => x.kind === 'mailFollowUp' && x.culture === 'ru');
    expect(ru).toMatchObject({ edited: false, version: 0, signatures: '' });
    const save = await admin.post('/api/DocTemplate/update', { kind: 'mailFollowUp', culture: 'ru', title: 'Как дела с поиском?', body: '{client.greeting}\n\nЕсть новые варианты для вас. {agent.name}', signatures: '', version: 0 });
    expect(save.statusCode, save.body).toBe(200);
    expect((await admin.post('/api/DocTemplate/update', { kind: 'mailFollowUp', culture: 'ru', title: 'Старое', body: 'x', signatures: '', version: 0 })).statusCode).toBe(409);
    const bad = await admin.post('/api/DocTemplate/update', { kind: 'mailFollowUp', culture: 'ru', title: 'x', body: '{mandate.price}', signatures: '', version: 1 });
    expect(bad.statusCode).toBe(400);
    const again = (await agent.get(`/api/mail/draft?accountId=${accountId}`)).json();
    expect(again.templates[2].subject).toBe('Как дела с поиском?');
    expect(again.templates[2].text).toMatch(/^Уважаемый Иван Сергеевич!\n\nЕсть новые варианты для вас\. /);
    expect(again.templates[2].text).toContain('Есть новые варианты для вас.');
  });

  it('goes out over SMTP with the signature (text and escaped HTML), is in the Sent folder and on the record\'s thread; logged', async () => {
    const office = await box({});
    expect(office.signature).toBe(SIGNATURE);
    const [{ id: accountId }] = await t.db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Παππά', isClient: true, language: 'el', emails: ['eleni@example.gr'] }).returning({ id: accounts.id });
    const d = (await agent.get(`/api/mail/draft?accountId=${accountId}`)).json();
    expect(d.culture).toBe('el');
    const tpl = d.templates.find((x: { kind: string }) => x.kind === 'mailDocuments');
    expect(tpl.subject).toBe('Δικαιολογητικά που χρειαζόμαστε');
    expect(tpl.text).toContain('Αγαπητή Ελένη');

    expect((await agent.post('/api/mail/send', { mailboxId: office.id, to: [], subject: 'x', text: 'y', accountId })).statusCode).toBe(400);
    const res = await agent.post('/api/mail/send', { mailboxId: office.id, to: d.to.map((a: { address: string }) => a.address), subject: tpl.subject, text: `${tpl.text}\n<script>alert(1)</script>`, accountId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ subject: tpl.subject, from: { address: 'info@agency.test', name: 'Office' }, to: [{ address: 'eleni@example.gr' }] });

    const sent = received.at(-1)!;
    expect(sent.to).toEqual(['eleni@example.gr']);
    const parsed = await simpleParser(sent.raw);
    expect(parsed.subject).toBe('Δικαιολογητικά που χρειαζόμαστε');
    expect(parsed.text).toContain('Αγαπητή Ελένη');
    expect(parsed.text).toContain('αντίγραφο της αστυνομικής ταυτότητας');
    expect(parsed.text).toContain(`\n-- \n${SIGNATURE}`);
    expect(parsed.html).toContain('Agency &lt;Test&gt; &amp; Co');
    expect(parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(parsed.html).not.toContain('<script>');

    // On the account's thread, newest first.
    const thread = (await agent.get(`/api/mail?accountId=${accountId}`)).json();
    expect(thread.items.map((m: { subject: string }) => m.subject)).toEqual(['Δικαιολογητικά που χρειαζόμαστε']);
    const view = (await agent.get(`/api/mail/${thread.items[0].id}`)).json();
    expect(view.text).toContain(SIGNATURE);
    // In the mailbox's Sent folder on the IMAP server.
    const subjects = await folderEnvelopes(dovecot, (e) => e?.subject ?? '');
    expect(subjects).toContain('Δικαιολογητικά που χρειαζόμαστε');
    const [log] = await t.db.select().from(actionLog).where(eq(actionLog.entity, 'Mailbox')).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Send', entityId: office.id, message: 'Δικαιολογητικά που χρειαζόμαστε' });
  });

  it('from a property: to its owners, kept on the property; a reply carries the signature too', async () => {
    const office = (await admin.get('/api/mailboxes')).json().items[0];
    const o = (await admin.get('/api/object/add')).json();
    expect((await admin.post('/api/object/update', { id: o.id, version: o.version, title: 'Flat in Glyfada' })).statusCode).toBe(200);
    const [{ id: ownerId }] = await t.db.insert(accounts).values({ firstName: 'John', lastName: 'Smith', isOwner: true, language: 'en', emails: ['john@example.com'] }).returning({ id: accounts.id });
    await t.db.insert(objectAccounts).values({ objectId: o.id, accountId: ownerId, relation: OWNER_RELATION });
    const d = (await agent.get(`/api/mail/draft?objectId=${o.id}`)).json();
    expect(d).toMatchObject({ culture: 'en', to: [{ address: 'john@example.com' }] });
    expect(d.templates[0].subject).toBe('Confirmation of our viewing appointment');
    const res = await agent.post('/api/mail/send', { mailboxId: office.id, to: ['john@example.com'], subject: 'Your flat', text: 'News about your flat.', objectId: o.id });
    expect(res.statusCode, res.body).toBe(200);
    const onObject = (await agent.get(`/api/mail?objectId=${o.id}`)).json();
    expect(onObject.items.map((m: { subject: string }) => m.subject)).toEqual(['Your flat']);
    // Linked to the owner's account too, by the address.
    expect((await agent.get(`/api/mail?accountId=${ownerId}`)).json().items.map((m: { subject: string }) => m.subject)).toEqual(['Your flat']);
    const reply = await agent.post(`/api/mail/${onObject.items[0].id}/reply`, { text: 'One more thing.' });
    expect(reply.statusCode, reply.body).toBe(200);
    const parsed = await simpleParser(received.at(-1)!.raw);
    expect(parsed.text).toMatch(/^One more thing\./);
    expect(parsed.text).toContain(`\n-- \n${SIGNATURE}`);
  });

  it('only from a mailbox the writer may use', async () => {
    const theirs = await box({ name: 'Theirs', address: 'other@agency.test', ownerId: other.id });
    const [{ id: accountId }] = await t.db.insert(accounts).values({ firstName: 'A', lastName: 'B', isClient: true, emails: ['ab@example.gr'] }).returning({ id: accounts.id });
    const before = received.length;
    expect((await agent.post('/api/mail/send', { mailboxId: theirs.id, to: ['ab@example.gr'], subject: 'x', text: 'y', accountId })).statusCode).toBe(404);
    expect((await agent.get('/api/mail/draft?accountId=2147483')).statusCode).toBe(404);
    expect(received.length).toBe(before);
    const mine = await other.post('/api/mail/send', { mailboxId: theirs.id, to: ['ab@example.gr'], subject: 'From me', text: 'y', accountId });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(received.length).toBe(before + 1);
  });
});
