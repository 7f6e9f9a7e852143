import { afterAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { DEAL_RELATION, LinkKind } from '@crm/contract';
import { accounts, actionLog, dealParties, deals, files, leads } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, startDovecot } from '../../../test/dovecot.ts';
import { addMailbox } from '../../../test/mailboxes.ts';
import { syncMailbox } from './mail-sync.ts';

/**
 * A received mail's attachment saved to the record's files in one click (issue 46, decision 089),
 * the mail synced from a real IMAP server (Dovecot): as an upload would be stored, once per record.
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());
const t = await createTestApp({}, undefined, { jobs: false });
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });

const PNG = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366aa' } })
  .png()
  .toBuffer();
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120, 7), Buffer.from('This program cannot be run in DOS mode.')]);
const part = (name: string, type: string, data: Buffer) =>
  `--b1\nContent-Type: ${type}; name="${name}"\nContent-Disposition: attachment; filename="${name}"\nContent-Transfer-Encoding: base64\n\n${data.toString('base64').replace(/.{76}/g, '$&\n')}\n`;

describe('an attachment saved to the record\'s files', () => {
  it('is copied once per record as an upload would be: a document on the account, and on the property a document too, a picture never one of its photos; a second click says so', async () => {
    const [{ id: accountId }] = await t.db.insert(accounts).values({ firstName: 'Νίκος', lastName: 'Αλεξίου', isOwner: true, emails: ['nikos@example.gr'] }).returning({ id: accounts.id });
    const o = (await admin.get('/api/object/add')).json();
    expect((await admin.post('/api/object/update', { id: o.id, version: o.version, title: 'House in Voula' })).statusCode).toBe(200);
    await appendMail(
      dovecot,
      `From: Nikos <nikos@example.gr>\nTo: info@agency.test\nSubject: Papers for ΚΩΔ. ${o.referenceNumber}\nMessage-ID: <papers@example.gr>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/plain; charset=utf-8\n\nThe deed and a photo.\n` +
        part('deed.pdf', 'application/pdf', Buffer.from('JVBERi0xLjQKJcTl8uXrCg==', 'base64')) +
        part('front.png', 'image/png', PNG) +
        part('setup.pdf', 'application/pdf', EXE) +
        '--b1--\n',
    );
    await syncMailbox(t.app, await addMailbox(admin, dovecot));
    const [mail] = (await agent.get(`/api/mail?accountId=${accountId}`)).json().items;
    const att = Object.fromEntries(mail.attachments.map((a: { name: string; id: number }) => [a.name, a.id]));
    expect(Object.keys(att).sort()).toEqual(['deed.pdf', 'front.png', 'setup.pdf']);

    const first = await agent.post(`/api/mail/attachment/${att['deed.pdf']}/save`, { accountId });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ name: 'deed.pdf', alreadySaved: false });
    const again = await agent.post(`/api/mail/attachment/${att['deed.pdf']}/save`, { accountId });
    expect(again.json()).toEqual({ fileId: first.json().fileId, name: 'deed.pdf', alreadySaved: true, savedTo: { accountId, objectId: null, name: 'Αλεξίου Νίκος' } });
    const onAccount = (await agent.get(`/api/files?parentType=${LinkKind.Account}&parentId=${accountId}`)).json().items;
    expect(onAccount.map((f: { userName: string; mime: string; type: string | null }) => [f.userName, f.mime, f.type])).toEqual([['deed.pdf', 'application/pdf', null]]);
    const file = await agent.get(`/api/files/${onAccount[0].systemName}`);
    expect(file.rawPayload.subarray(0, 8).toString()).toBe('%PDF-1.4');
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, first.json().fileId)));
    expect(logged.map((l) => l.action)).toEqual(['Create']);

    // Two clicks at once on the property: one file, both answers name it; a picture from mail (an ID scan, maybe) is a document, with its copies, not a photo.
    const [a, b] = await Promise.all([agent.post(`/api/mail/attachment/${att['front.png']}/save`, { objectId: o.id }), agent.post(`/api/mail/attachment/${att['front.png']}/save`, { objectId: o.id })]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.json().alreadySaved, b.json().alreadySaved].sort()).toEqual([false, true]);
    expect(a.json().fileId).toBe(b.json().fileId);
    const onObject = await t.db.select().from(files).where(and(eq(files.parentType, LinkKind.Object), eq(files.parentId, o.id)));
    expect(onObject.map((f) => [f.userName, f.type, f.width, f.thumbName !== null])).toEqual([['front.png', 'document', 40, true]]);
    const photos = (await agent.get(`/api/files?parentType=${LinkKind.Object}&parentId=${o.id}`)).json().items.filter((f: { type: string | null }) => f.type === 'image');
    expect(photos).toEqual([]);
    // The same PDF on the property: a document there.
    const doc = await agent.post(`/api/mail/attachment/${att['deed.pdf']}/save`, { objectId: o.id });
    expect(doc.json()).toMatchObject({ alreadySaved: false });
    expect((await t.db.select().from(files).where(eq(files.id, doc.json().fileId)))[0]!.type).toBe('document');

    // The upload's type check: a program named .pdf; nothing stored. (An attachment over the upload limit is not kept by the sync at all.)
    const exe = await agent.post(`/api/mail/attachment/${att['setup.pdf']}/save`, { accountId });
    expect(exe.statusCode).toBe(415);
    expect(exe.json().title).toBe('The file “setup.pdf” was not uploaded: files of this type are not accepted.');
    expect((await agent.get(`/api/files?parentType=${LinkKind.Account}&parentId=${accountId}`)).json().items).toHaveLength(1);

    // Deleted from the files, it can be saved again.
    expect((await agent.del(`/api/files/${onAccount[0].systemName}`)).statusCode).toBe(200);
    expect((await agent.post(`/api/mail/attachment/${att['deed.pdf']}/save`, { accountId })).json()).toMatchObject({ alreadySaved: false });
    expect((await agent.post(`/api/mail/attachment/${att['deed.pdf']}/save`, {})).statusCode).toBe(400);
    expect((await agent.post(`/api/mail/attachment/${att['deed.pdf']}/save`, { accountId: 2147483 })).statusCode).toBe(404);
  });

  it("read on a lead it goes to the lead's client's files, read on a deal to the deal's property's, logged with where it was saved from; a lead without a client is told so", async () => {
    const [{ id: clientId }] = await t.db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Μαύρου', isClient: true, emails: ['eleni@example.gr'] }).returning({ id: accounts.id });
    const [lead] = await t.db.insert(leads).values({ accountId: clientId, forPurchase: true } as never).returning({ id: leads.id });
    const [orphan] = await t.db.insert(leads).values({ forPurchase: true } as never).returning({ id: leads.id });
    const [{ id: erasedId }] = await t.db.insert(accounts).values({ firstName: 'Erased', lastName: 'Client', isClient: true } as never).returning({ id: accounts.id });
    await t.db.execute(sql`update accounts set erased_on = now() where id = ${erasedId}`);
    const [erasedLead] = await t.db.insert(leads).values({ accountId: erasedId, forPurchase: true } as never).returning({ id: leads.id });
    const o = (await admin.get('/api/object/add')).json();
    expect((await admin.post('/api/object/update', { id: o.id, version: o.version, title: 'Flat in Glyfada' })).statusCode).toBe(200);
    const [deal] = await t.db.insert(deals).values({ objectId: o.id, dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
    const [bare] = await t.db.insert(deals).values({ dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
    await appendMail(
      dovecot,
      `From: Eleni <eleni@example.gr>\nTo: info@agency.test\nSubject: Loan approval\nMessage-ID: <loan@example.gr>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/plain; charset=utf-8\n\nThe bank's letter.\n` +
        part('loan.pdf', 'application/pdf', Buffer.from('JVBERi0xLjQKJcTl8uXrCg==', 'base64')) +
        '--b1--\n',
    );
    const box = (await admin.get('/api/mailboxes')).json().items[0];
    await syncMailbox(t.app, box.id);
    const [mail] = (await agent.get(`/api/mail?accountId=${clientId}`)).json().items;
    const loan = mail.attachments[0].id as number;

    // Not in the lead's or the deal's thread: not saved there (nor logged as if it were).
    const notInThread = await agent.post(`/api/mail/attachment/${loan}/save`, { leadId: lead!.id });
    expect(notInThread.statusCode).toBe(404);
    expect(notInThread.json().title).toBe((await agent.get('/api/mail/2147483')).json().title);
    expect((await agent.post(`/api/mail/attachment/${loan}/save`, { dealId: deal!.id })).statusCode).toBe(404);
    expect((await agent.post(`/api/mail/attachment/${loan}/save`, { objectId: o.id })).statusCode).toBe(404);
    expect((await agent.get(`/api/files?parentType=${LinkKind.Account}&parentId=${clientId}`)).json().items).toEqual([]);
    expect((await t.db.select().from(files).where(and(eq(files.parentType, LinkKind.Object), eq(files.parentId, o.id))))).toEqual([]);

    // In the threads: the lead's (linked to it), the deal's (its buyer's mail).
    for (const l of [lead!.id, orphan!.id, erasedLead!.id]) await t.db.execute(sql`insert into mail_message_leads (message_id, lead_id) values (${mail.id}, ${l})`);
    await t.db.insert(dealParties).values([deal!.id, bare!.id].map((dealId) => ({ dealId, accountId: clientId, relation: DEAL_RELATION.buyer })));

    const fromLead = await agent.post(`/api/mail/attachment/${loan}/save`, { leadId: lead!.id });
    expect(fromLead.statusCode, fromLead.body).toBe(200);
    expect(fromLead.json()).toMatchObject({ name: 'loan.pdf', alreadySaved: false, savedTo: { accountId: clientId, objectId: null, name: 'Μαύρου Ελένη' } });
    const onClient = (await agent.get(`/api/files?parentType=${LinkKind.Account}&parentId=${clientId}`)).json().items;
    expect(onClient.map((f: { userName: string }) => f.userName)).toEqual(['loan.pdf']);
    // The same attachment saved again from the client's own record: it is there already.
    expect((await agent.post(`/api/mail/attachment/${loan}/save`, { accountId: clientId })).json()).toMatchObject({ fileId: fromLead.json().fileId, alreadySaved: true });
    const [leadLog] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, fromLead.json().fileId)));
    expect(leadLog!.data).toMatchObject({ parentType: LinkKind.Account, parentId: clientId, mailMessageId: mail.id, leadId: lead!.id });

    const fromDeal = await agent.post(`/api/mail/attachment/${loan}/save`, { dealId: deal!.id });
    expect(fromDeal.statusCode, fromDeal.body).toBe(200);
    expect(fromDeal.json()).toMatchObject({ alreadySaved: false, savedTo: { accountId: null, objectId: o.id, name: `#${o.referenceNumber}` } });
    const [stored] = await t.db.select().from(files).where(eq(files.id, fromDeal.json().fileId));
    expect(stored).toMatchObject({ parentType: LinkKind.Object, parentId: o.id, type: 'document', userName: 'loan.pdf' });
    const [dealLog] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, fromDeal.json().fileId)));
    expect(dealLog!.data).toMatchObject({ parentType: LinkKind.Object, parentId: o.id, dealId: deal!.id });
    expect((await agent.post(`/api/mail/attachment/${loan}/save`, { dealId: deal!.id })).json()).toMatchObject({ alreadySaved: true });

    const noClient = await agent.post(`/api/mail/attachment/${loan}/save`, { leadId: orphan!.id });
    expect(noClient.statusCode).toBe(422);
    expect(noClient.json().title).toBe('This lead has no client yet: choose the client on the lead, then save the attachment to their files.');
    const erased = await agent.post(`/api/mail/attachment/${loan}/save`, { leadId: erasedLead!.id });
    expect(erased.statusCode).toBe(422);
    expect(erased.json().title).toBe("This lead's client has been erased: choose another client on the lead, then save the attachment to their files.");
    expect((await agent.post(`/api/mail/attachment/${loan}/save`, { dealId: bare!.id })).statusCode).toBe(422);
    expect((await agent.post(`/api/mail/attachment/${loan}/save`, { leadId: 2147483 })).statusCode).toBe(404);
    expect((await agent.post(`/api/mail/attachment/${loan}/save`, { leadId: lead!.id, dealId: deal!.id })).statusCode).toBe(400);
  });

  it('mail from an address the CRM does not know offers a new contact with the signature\'s name and phone; once added, the message is on the new account', async () => {
    await appendMail(
      dovecot,
      `From: =?UTF-8?B?${Buffer.from('Άννα Γεωργίου').toString('base64')}?= <anna@example.gr>\nTo: info@agency.test\nSubject: Ενοικίαση\nMessage-ID: <anna@example.gr>\nDate: ${new Date().toUTCString()}\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\nΚαλησπέρα,\nψάχνω διαμέρισμα για ενοικίαση.\n\nΜε εκτίμηση,\nΆννα Γεωργίου\nΚιν. 697 000 1122\n`,
    );
    const box = (await admin.get('/api/mailboxes')).json().items[0];
    await syncMailbox(t.app, box.id);
    const [row] = await t.db.execute(sql`select id from mail_messages where message_id = '<anna@example.gr>'`).then((r) => r.rows as { id: number }[]);
    const view = (await agent.get(`/api/mail/${row!.id}`)).json();
    expect(view.newContact).toEqual({ address: 'anna@example.gr', name: 'Άννα Γεωργίου', phone: '+306970001122' });
    const added = await agent.post('/api/account/add', { firstName: 'Άννα', lastName: 'Γεωργίου', isClient: true, email: 'anna@example.gr', phone: '+306970001122' });
    expect(added.statusCode, added.body).toBe(200);
    expect((await agent.get(`/api/mail?accountId=${added.json().id}`)).json().items.map((m: { subject: string }) => m.subject)).toEqual(['Ενοικίαση']);
    expect((await agent.get(`/api/mail/${row!.id}`)).json().newContact).toBeNull();
    // A known sender is no new contact.
    const known = (await t.db.execute(sql`select id from mail_messages where message_id = '<papers@example.gr>'`)).rows[0] as { id: number };
    expect((await agent.get(`/api/mail/${known.id}`)).json().newContact).toBeNull();
  });
});

describe('a huge attachment', () => {
  it('is not kept by the sync (over the upload limit): the message is stored and shown with its other attachments', async () => {
    const small = await createTestApp({ UPLOAD_MAX_MB: '1' }, undefined, { jobs: false });
    const boss = await small.user({ roles: ['admin'] });
    const [{ id: accountId }] = await small.db.insert(accounts).values({ firstName: 'Μάρκος', lastName: 'Βλάχος', isOwner: true, emails: ['markos@example.gr'] }).returning({ id: accounts.id });
    const huge = Buffer.alloc(1536 * 1024, 0x41);
    await appendMail(
      dovecot,
      `From: markos@example.gr\nTo: info@agency.test\nSubject: Scans of the deeds\nMessage-ID: <huge@example.gr>\nDate: ${new Date().toUTCString()}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/plain; charset=utf-8\n\nTwo files.\n` +
        part('scans.txt', 'text/plain', huge) +
        part('note.pdf', 'application/pdf', Buffer.from('JVBERi0xLjQKJcTl8uXrCg==', 'base64')) +
        '--b1--\n',
    );
    await syncMailbox(small.app, await addMailbox(boss, dovecot));
    const [mail] = (await boss.get(`/api/mail?accountId=${accountId}`)).json().items;
    expect(mail.subject).toBe('Scans of the deeds');
    expect(mail.attachments.map((a: { name: string }) => a.name)).toEqual(['note.pdf']);
    const view = (await boss.get(`/api/mail/${mail.id}`)).json();
    expect(view.text).toContain('Two files.');
    const kept = await small.db.execute(sql`select user_name from mail_attachments where message_id = ${mail.id} order by user_name`);
    expect(kept.rows).toEqual([{ user_name: 'note.pdf' }]);
    expect((await small.db.execute(sql`select 1 from mail_attachments where user_name = 'scans.txt'`)).rows).toEqual([]);
  });
});
