import { afterAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { startSmtpSink } from '../../../test/smtp-sink.ts';
import { accounts, actionLog, dealParties, deals, leadObjects, leads, mailMessageAccounts, mailMessageLeads, mailMessages } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, folderEnvelopes, mailboxSettings, startDovecot } from '../../../test/dovecot.ts';
import { syncMailbox } from './mail-sync.ts';

/**
 * Mail on the leads and the deals (issue 46, decisions 089 and 082) against a real IMAP server
 * (Dovecot) and a real SMTP server (smtp-server, started here): a new mail from a lead goes to its
 * client, names the lead's property where the agency's text asks for it, and stays on the lead's
 * thread with the client's answer synced from the inbox; a deal shows its parties' and property's mail.
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());

const smtp = await startSmtpSink();
afterAll(() => smtp.close());
const { received, port: smtpPort } = smtp;

const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const office = (await admin.post('/api/mailboxes/update', mailboxSettings(dovecot, { smtpHost: '127.0.0.1', smtpPort, signature: 'Γραφείο' }))).json() as { id: number };
const rfcDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');
type Thread = { totalRows: number; items: { id: number; subject: string }[] };
const subjects = (x: Thread) => x.items.map((m) => m.subject);

async function property(title: string): Promise<{ id: number; ref: string }> {
  const o = (await admin.get('/api/object/add')).json();
  const res = await admin.post('/api/object/update', { id: o.id, version: o.version, title, forSale: true, salePrice: 185000 });
  expect(res.statusCode, res.body).toBe(200);
  return { id: o.id, ref: o.referenceNumber };
}

describe('mail on a lead', () => {
  it('goes to the lead\'s client naming its property, is stored on the lead\'s thread, in the Sent folder and logged; the client\'s answer joins the thread', async () => {
    const flat = await property('Flat in Kifisia');
    const [client] = await db.insert(accounts).values({ firstName: 'Κατερίνα', lastName: 'Λάμπρου', gender: 'female', isClient: true, language: 'el', emails: ['Katerina.L@example.gr'] } as never).returning({ id: accounts.id });
    const [lead] = await db.insert(leads).values({ accountId: client!.id, forPurchase: true } as never).returning({ id: leads.id });
    await db.insert(leadObjects).values({ leadId: lead!.id, objectId: flat.id, position: 0 });
    // The agency's Greek viewing text names the property by its reference number.
    const tpl = (await admin.get('/api/DocTemplate')).json().items.find((x: { kind: string; culture: string }) => x.kind === 'mailViewing' && x.culture === 'el');
    const saved = await admin.post('/api/DocTemplate/update', { kind: 'mailViewing', culture: 'el', title: 'Επίσκεψη στο ακίνητο #{property.ref}', body: '{client.greeting}\n\nΣας επιβεβαιώνω την επίσκεψη στο ακίνητο με κωδικό {property.ref}.', signatures: '', version: tpl.version });
    expect(saved.statusCode, saved.body).toBe(200);

    const draft = await agent.get(`/api/mail/draft?leadId=${lead!.id}`);
    expect(draft.statusCode, draft.body).toBe(200);
    const d = draft.json();
    expect(d).toMatchObject({ culture: 'el', to: [{ address: 'katerina.l@example.gr' }] });
    const viewing = d.templates.find((x: { kind: string }) => x.kind === 'mailViewing');
    expect(viewing.subject).toBe(`Επίσκεψη στο ακίνητο #${flat.ref}`);
    expect(viewing.text).toBe(`Αγαπητή Κατερίνα,\n\nΣας επιβεβαιώνω την επίσκεψη στο ακίνητο με κωδικό ${flat.ref}.`);
    expect((await agent.get('/api/mail/draft?leadId=2147483')).statusCode).toBe(404);
    expect((await agent.get(`/api/mail/draft?leadId=${lead!.id}&accountId=${client!.id}`)).statusCode).toBe(400);

    const res = await agent.post('/api/mail/send', { mailboxId: office.id, to: ['katerina.l@example.gr'], subject: viewing.subject, text: viewing.text, leadId: lead!.id });
    expect(res.statusCode, res.body).toBe(200);
    const sentId = res.json().id as number;
    // Sent over SMTP, with the signature.
    const out = received.at(-1)!;
    expect(out.to).toEqual(['katerina.l@example.gr']);
    const parsed = await simpleParser(out.raw);
    expect(parsed.subject).toBe(`Επίσκεψη στο ακίνητο #${flat.ref}`);
    expect(parsed.text).toContain('-- \nΓραφείο');
    // Stored, and linked to the lead, to the client by the address and to the property by its reference number.
    const [stored] = await db.select().from(mailMessages).where(eq(mailMessages.id, sentId));
    expect(stored).toMatchObject({ mailboxId: office.id, subject: viewing.subject, messageId: parsed.messageId });
    expect(await db.select({ leadId: mailMessageLeads.leadId }).from(mailMessageLeads).where(eq(mailMessageLeads.messageId, sentId))).toEqual([{ leadId: lead!.id }]);
    expect(await db.select({ accountId: mailMessageAccounts.accountId }).from(mailMessageAccounts).where(eq(mailMessageAccounts.messageId, sentId))).toEqual([{ accountId: client!.id }]);
    expect(subjects((await agent.get(`/api/mail?objectId=${flat.id}`)).json())).toEqual([viewing.subject]);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Mailbox'), eq(actionLog.action, 'Send'))).orderBy(desc(actionLog.id)).limit(1);
    expect(log!.data).toMatchObject({ leadId: lead!.id });
    // In the mailbox's Sent folder on the IMAP server.
    const sentFolder = await folderEnvelopes(dovecot, (e) => e?.messageId ?? '');
    expect(sentFolder).toContain(parsed.messageId);

    // The client answers from her own mail program; the sync puts the answer on the lead by In-Reply-To.
    await appendMail(
      dovecot,
      `From: Katerina <katerina.l@example.gr>\nTo: info@agency.test\nSubject: Re: ${viewing.subject}\nMessage-ID: <answer-1@example.gr>\nIn-Reply-To: ${parsed.messageId}\nReferences: ${parsed.messageId}\nDate: ${rfcDate(new Date(Date.now() + 60_000))}\nContent-Type: text/plain; charset=utf-8\n\nΕντάξει, τα λέμε την Πέμπτη.\n`,
    );
    // And an unrelated mail of hers stays on her account only.
    await appendMail(dovecot, `From: katerina.l@example.gr\nTo: info@agency.test\nSubject: Another matter\nMessage-ID: <other-1@example.gr>\nDate: ${rfcDate(new Date(Date.now() + 120_000))}\n\nSomething else.\n`);
    expect(await syncMailbox(app, office.id)).toMatchObject({ added: 2 });
    const thread = (await agent.get(`/api/mail?leadId=${lead!.id}`)).json() as Thread;
    expect(thread.totalRows).toBe(2);
    expect(subjects(thread)).toEqual([`Re: ${viewing.subject}`, viewing.subject]);
    expect(subjects((await agent.get(`/api/mail?accountId=${client!.id}`)).json())).toEqual(['Another matter', `Re: ${viewing.subject}`, viewing.subject]);
    // A reply from the lead's thread stays on it.
    const reply = await agent.post(`/api/mail/${thread.items[0]!.id}/reply`, { text: 'Τέλεια, σας περιμένω.' });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(subjects((await agent.get(`/api/mail?leadId=${lead!.id}`)).json())[0]).toBe(`Re: ${viewing.subject}`);
    expect((await agent.get(`/api/mail?leadId=${lead!.id}`)).json().totalRows).toBe(3);
    // Only the enquiry mail a lead was made from is asked for apart: none here.
    expect((await agent.get(`/api/mail?enquiryOf=${lead!.id}`)).json()).toEqual({ items: [], totalRows: 0 });
  });
});

describe('mail on a deal', () => {
  it('lists its parties\' and its property\'s mail once each, newest first, paged; a mail written from it is kept on its property', async () => {
    const house = await property('House in Vari');
    const [buyer] = await db.insert(accounts).values({ firstName: 'Ann', lastName: 'Buyer', isClient: true, language: 'en', emails: ['ann.buyer@example.com'] }).returning({ id: accounts.id });
    const [seller] = await db.insert(accounts).values({ firstName: 'Sam', lastName: 'Seller', isOwner: true, language: 'en', emails: ['sam.seller@example.com'] }).returning({ id: accounts.id });
    const [lawyer] = await db.insert(accounts).values({ firstName: 'Lia', lastName: 'Lawyer', language: 'en', emails: ['lia.lawyer@example.com'] }).returning({ id: accounts.id });
    const [deal] = await db.insert(deals).values({ objectId: house.id, dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
    await db.insert(dealParties).values([
      { dealId: deal!.id, accountId: buyer!.id, relation: 1, position: 0 },
      { dealId: deal!.id, accountId: seller!.id, relation: 2, position: 1 },
      // The deal's lawyer writes about every deal they are in: none of it is this deal's.
      { dealId: deal!.id, accountId: lawyer!.id, relation: 3, position: 2 },
    ]);
    const at = (min: number) => rfcDate(new Date(Date.now() - (100 - min) * 60_000));
    // One mail to both parties naming the property (one row, not three), one to each, one on the property only.
    await appendMail(dovecot, `From: ann.buyer@example.com\nTo: info@agency.test\nCc: sam.seller@example.com\nSubject: Both about #${house.ref}\nMessage-ID: <d1@example.com>\nDate: ${at(1)}\n\nHello.\n`);
    await appendMail(dovecot, `From: ann.buyer@example.com\nTo: info@agency.test\nSubject: Buyer's loan\nMessage-ID: <d2@example.com>\nDate: ${at(2)}\n\nLoan.\n`);
    await appendMail(dovecot, `From: sam.seller@example.com\nTo: info@agency.test\nSubject: Seller's keys\nMessage-ID: <d3@example.com>\nDate: ${at(3)}\n\nKeys.\n`);
    await appendMail(dovecot, `From: notary@example.gr\nTo: info@agency.test\nSubject: Contract draft ref ${house.ref}\nMessage-ID: <d4@example.com>\nDate: ${at(4)}\n\nDraft.\n`);
    await appendMail(dovecot, `From: lia.lawyer@example.com\nTo: info@agency.test\nSubject: Another client's case\nMessage-ID: <d5@example.com>\nDate: ${at(5)}\n\nOther.\n`);
    await syncMailbox(app, office.id);
    const all = (await agent.get(`/api/mail?dealId=${deal!.id}`)).json() as Thread;
    expect(all.totalRows).toBe(4);
    expect(subjects(all)).toEqual([`Contract draft ref ${house.ref}`, "Seller's keys", "Buyer's loan", `Both about #${house.ref}`]);
    const page2 = (await agent.get(`/api/mail?dealId=${deal!.id}&perPage=3&currentPage=2`)).json() as Thread;
    expect(page2).toMatchObject({ totalRows: 4 });
    expect(subjects(page2)).toEqual([`Both about #${house.ref}`]);
    expect((await agent.get('/api/mail?dealId=2147483')).statusCode).toBe(404);

    const d = (await agent.get(`/api/mail/draft?dealId=${deal!.id}`)).json();
    expect(d.to.map((a: { address: string }) => a.address)).toEqual(['ann.buyer@example.com', 'sam.seller@example.com']);
    const res = await agent.post('/api/mail/send', { mailboxId: office.id, to: ['ann.buyer@example.com'], subject: 'Signing day', text: 'Next Tuesday.', dealId: deal!.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(subjects((await agent.get(`/api/mail?objectId=${house.id}`)).json())[0]).toBe('Signing day');
    expect(subjects((await agent.get(`/api/mail?dealId=${deal!.id}`)).json())[0]).toBe('Signing day');
    expect((await agent.post('/api/mail/send', { mailboxId: office.id, to: ['a@example.com'], subject: 'x', text: 'y', dealId: deal!.id, leadId: 1 })).statusCode).toBe(400);
  });
});

describe('a reply', () => {
  it('goes to the Reply-To the sender asked for (a portal names the enquirer there), else to the sender', async () => {
    const name = Buffer.from('Γιώργος Παπαδάκης').toString('base64');
    await appendMail(
      dovecot,
      `From: Notices <notices@example.com>\nTo: info@agency.test\nReply-To: =?UTF-8?B?${name}?= <G.Papadakis@example.gr>\nSubject: Someone asked about a flat\nMessage-ID: <rt-1@example.com>\nDate: ${rfcDate(new Date())}\n\nAsked.\n`,
    );
    await appendMail(dovecot, `From: Plain <plain@example.com>\nTo: info@agency.test\nSubject: No reply-to\nMessage-ID: <rt-2@example.com>\nDate: ${rfcDate(new Date())}\n\nPlain.\n`);
    await syncMailbox(app, office.id);
    const [withReplyTo] = await db.select().from(mailMessages).where(eq(mailMessages.messageId, '<rt-1@example.com>'));
    const [plain] = await db.select().from(mailMessages).where(eq(mailMessages.messageId, '<rt-2@example.com>'));
    const res = await agent.post(`/api/mail/${withReplyTo!.id}/reply`, { text: 'Thank you for asking.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().to).toEqual([{ address: 'g.papadakis@example.gr', name: 'Γιώργος Παπαδάκης' }]);
    expect(received.at(-1)!.to).toEqual(['g.papadakis@example.gr']);
    expect((await agent.post(`/api/mail/${plain!.id}/reply`, { text: 'Noted.' })).statusCode).toBe(200);
    expect(received.at(-1)!.to).toEqual(['plain@example.com']);
  });

  it('reads the Reply-To parsed when the mail was synced (0104); a mail stored before then has it read from the kept header', async () => {
    const [withReplyTo] = await db.select().from(mailMessages).where(eq(mailMessages.messageId, '<rt-1@example.com>'));
    const [plain] = await db.select().from(mailMessages).where(eq(mailMessages.messageId, '<rt-2@example.com>'));
    expect(withReplyTo!.replyTo).toEqual([{ address: 'g.papadakis@example.gr', name: 'Γιώργος Παπαδάκης' }]);
    expect(plain!.replyTo).toEqual([]);
    // The stored addresses are the ones answered (the header text is not read again).
    await db.update(mailMessages).set({ replyTo: [{ address: 'enquirer@example.gr', name: 'Enquirer' }] }).where(eq(mailMessages.id, withReplyTo!.id));
    expect((await agent.post(`/api/mail/${withReplyTo!.id}/reply`, { text: 'Again.' })).json().to).toEqual([{ address: 'enquirer@example.gr', name: 'Enquirer' }]);
    expect(received.at(-1)!.to).toEqual(['enquirer@example.gr']);
    // As a row from before 0104: no parsed Reply-To, the header kept.
    await db.update(mailMessages).set({ replyTo: null }).where(eq(mailMessages.id, withReplyTo!.id));
    expect((await agent.post(`/api/mail/${withReplyTo!.id}/reply`, { text: 'Once more.' })).json().to).toEqual([{ address: 'g.papadakis@example.gr', name: 'Γιώργος Παπαδάκης' }]);
    // A reply the CRM sent asks for no other address.
    const [sent] = await db.select().from(mailMessages).where(eq(mailMessages.subject, 'Re: Someone asked about a flat')).orderBy(desc(mailMessages.id)).limit(1);
    expect(sent!.replyTo).toEqual([]);
  });
});
