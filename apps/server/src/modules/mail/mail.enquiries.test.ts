import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { accounts, actionLog, alerts, assignments, leadObjects, leads, mailEnquiries, mailMessages } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, startDovecot } from '../../../test/dovecot.ts';
import { addMailbox } from '../../../test/mailboxes.ts';
import { storeMessage } from './mail-store.ts';
import { syncMailbox } from './mail-sync.ts';

/**
 * Portal enquiries end to end (decision 082): the sample mails delivered into a real Dovecot
 * (test/dovecot.ts) by IMAP APPEND, the mailbox synced as the job does, and what the sync made
 * read back: the client, the lead with its property and source, the message on the lead, the
 * alert, the action log; and a second sync, another mailbox with the same mail, or a sync started
 * over making nothing more.
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());
const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/enquiries');

/** A sample mail as delivered now about our property `ref` (the samples name 0042). */
function sample(name: string, ref: string, tag = '', date = new Date()): string {
  return fs
    .readFileSync(path.join(FIXTURES, name), 'utf8')
    .replaceAll('0042', ref)
    .replace(/^Date: .*$/m, `Date: ${date.toUTCString().replace('GMT', '+0000')}`)
    .replace(/^Message-ID: <(.*)>$/m, `Message-ID: <${tag}$1>`);
}
const deliver = (raw: string) => appendMail(dovecot, raw);
const mailboxAt = (address: string) => addMailbox(admin, dovecot, { name: address, address });
async function property(title: string): Promise<{ id: number; ref: string }> {
  const o = (await admin.get('/api/object/add')).json();
  const res = await admin.post('/api/object/update', { id: o.id, version: o.version, title, forSale: true, salePrice: 185000 });
  expect(res.statusCode, res.body).toBe(200);
  return { id: o.id, ref: o.referenceNumber };
}
const counts = async () =>
  (
    await db.execute(sql`select (select count(*)::int from leads) as leads, (select count(*)::int from accounts) as accounts,
      (select count(*)::int from alerts where kind = 'enquiry') as alerts, (select count(*)::int from activities) as activities,
      (select count(*)::int from mail_enquiries) as enquiries`)
  ).rows[0] as { leads: number; accounts: number; alerts: number; activities: number; enquiries: number };

const box = await mailboxAt('info@thermaikos-homes.test');

describe('portal enquiries from the synced mail', () => {
  let flat: { id: number; ref: string };
  let leadId = 0;

  it("an unknown person's Spitogatos enquiry becomes a new client and a new lead with the property, the source, the message and an alert to the property's agents", async () => {
    flat = await property('Διαμέρισμα 85 τ.μ., Καλαμαριά');
    const [agent] = await db.insert(accounts).values({ firstName: 'Μαρία', lastName: 'Οικονόμου', isEmploye: true }).returning({ id: accounts.id });
    await db.insert(assignments).values({ parent: 0, parentId: flat.id, accountId: agent!.id });
    await deliver(sample('spitogatos.el.eml', flat.ref));
    await deliver(sample('spitogatos.other.eml', flat.ref));
    expect(await syncMailbox(app, box)).toMatchObject({ added: 2 });

    const [client] = await db.select().from(accounts).where(sql`${accounts.emails} @> array['g.papadakis@example.gr']`);
    expect(client).toMatchObject({ firstName: 'Γιώργος', lastName: 'Παπαδάκης', phones: ['694 412 3456'], isClient: true });
    const [source] = await db.select().from(accounts).where(eq(accounts.id, client!.sourceId!));
    expect(source).toMatchObject({ displayName: 'Spitogatos.gr', isSource: true });
    const list = await db.select().from(leads).where(eq(leads.accountId, client!.id));
    expect(list).toHaveLength(1);
    const lead = list[0] as unknown as Record<string, unknown>;
    leadId = lead.id as number;
    expect(lead).toMatchObject({ source: source!.id, stage: 1, forPurchase: true });
    // The lead's view: its note says where the lead came from and about what, and who asked, in short
    // lines (the mail may be in a mailbox other agents do not see); the message itself is in the lead's thread only.
    const view = (await admin.get(`/api/lead/view/${leadId}`)).json();
    expect(view.description).toBe(
      [
        `Αίτημα μέσω Spitogatos.gr για το ακίνητο #${flat.ref}`,
        'Ονοματεπώνυμο: Γιώργος Παπαδάκης',
        'Διεύθυνση e-mail: g.papadakis@example.gr',
        'Τηλέφωνο: 694 412 3456',
        'Αριθμός αγγελίας στο Spitogatos.gr: 1117534392',
      ].join('\n'),
    );
    expect(view.description).not.toContain('θα ήθελα να δω');
    const thread = (await admin.get(`/api/mail?leadId=${leadId}`)).json();
    expect(thread.items).toHaveLength(1);
    const first = (await admin.get(`/api/mail/${thread.items[0].id}`)).json();
    expect(first.text).toContain('θα ήθελα να δω το διαμέρισμα αυτή την εβδομάδα');
    expect(first.text).toContain('694 412 3456');
    expect(await db.select({ objectId: leadObjects.objectId }).from(leadObjects).where(eq(leadObjects.leadId, leadId))).toEqual([{ objectId: flat.id }]);

    // The lead's screen lists the message it came from; the client's record has it too.
    const mail = (await admin.get(`/api/mail?leadId=${leadId}`)).json();
    expect(mail).toMatchObject({ totalRows: 1, items: [{ from: { address: 'noreply@spitogatos.gr' }, subject: 'Νέο μήνυμα για την αγγελία σας 1117534392' }] });
    expect((await admin.get(`/api/mail?accountId=${client!.id}`)).json().items.map((m: { id: number }) => m.id)).toEqual([mail.items[0].id]);
    // The portal's notice is no new contact, though its text carries the enquirer's phone.
    expect((await admin.get(`/api/mail/${mail.items[0].id}`)).json().newContact).toBeNull();
    // The lead's thread starts with it (0097); asked for apart, it is the enquiry the lead was made from.
    expect((await admin.get(`/api/mail?enquiryOf=${leadId}`)).json().items.map((m: { id: number }) => m.id)).toEqual([mail.items[0].id]);
    expect((await admin.get(`/api/mail?leadId=${leadId}&accountId=${client!.id}`)).statusCode).toBe(400);

    const [alert] = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, leadId)));
    expect(alert).toMatchObject({ kind: 'enquiry', source: 'Spitogatos.gr', messageKey: 'enquiries.alert.newAgents', params: { portal: 'Spitogatos.gr', ref: flat.ref, name: 'Γιώργος Παπαδάκης', agents: 'Οικονόμου Μαρία' } });
    expect(alert!.content).toBe(`New enquiry via Spitogatos.gr about property #${flat.ref} from Γιώργος Παπαδάκης, for Οικονόμου Μαρία; it is among the new leads.`);
    const logged = await db.select().from(actionLog).where(eq(actionLog.actionByName, 'mail'));
    expect(logged.map((l) => `${l.action} ${l.entity}`).sort()).toEqual(['Create Account', 'Create Account', 'Create Lead']);

    // The expiry notice from the same portal stays a plain message.
    expect((await db.select().from(mailEnquiries)).map((e) => e.leadId)).toEqual([leadId]);
  });

  it('a second sync, a sync started over, and a second mailbox with the same mail make nothing more', async () => {
    const before = await counts();
    expect(await syncMailbox(app, box)).toMatchObject({ added: 0 });
    // As after a crash between storing and keeping the UID: every message is looked at again.
    await db.execute(sql`update mailboxes set last_uid = 0 where id = ${box}`);
    expect(await syncMailbox(app, box)).toMatchObject({ added: 0 });
    // The same mail in another of the agency's mailboxes (a copy to an agent): stored there, no second lead.
    const second = await mailboxAt('agent@thermaikos-homes.test');
    expect(await syncMailbox(app, second)).toMatchObject({ added: 2 });
    expect(await counts()).toEqual(before);
  });

  it("a known client's xe.gr enquiry (found by phone) is added to their open lead as an activity, with the property", async () => {
    const house = await property('Μεζονέτα, Νέα Καλλικράτεια');
    const [olga] = await db.insert(accounts).values({ firstName: 'Olga', lastName: 'Smirnova', isClient: true, phones: ['+79165551234'] }).returning({ id: accounts.id });
    const [open] = await db.insert(leads).values({ accountId: olga!.id, stage: 2 } as never).returning({ id: leads.id, version: leads.version });
    const before = await counts();
    await deliver(sample('xe.en.eml', house.ref));
    expect(await syncMailbox(app, box)).toMatchObject({ added: 1 });
    const after = await counts();
    expect(after).toMatchObject({ leads: before.leads, accounts: before.accounts + 1, activities: before.activities + 1 });
    const [lead] = await db.select().from(leads).where(eq(leads.id, open!.id));
    const [xe] = await db.select().from(accounts).where(eq(accounts.displayName, 'xe.gr'));
    expect(lead).toMatchObject({ source: xe!.id, version: open!.version + 1 });
    expect(await db.select({ objectId: leadObjects.objectId }).from(leadObjects).where(eq(leadObjects.leadId, open!.id))).toEqual([{ objectId: house.id }]);
    const acts = (await admin.get(`/api/activity?parent=4&parentId=${open!.id}`)).json();
    // The activity names the enquiry and warns that the client's record was kept; the message is in the lead's thread, once.
    expect(JSON.stringify(acts)).toContain(`Αίτημα μέσω xe.gr για το ακίνητο #${house.ref}`);
    expect(JSON.stringify(acts)).toContain('η καρτέλα του δεν άλλαξε');
    // Who asked, for the agents who do not see the mailbox it came to.
    expect(JSON.stringify(acts)).toContain('Τηλέφωνο: ');
    expect(JSON.stringify(acts)).not.toContain('Good afternoon, is the apartment suitable for a family with two children?');
    const onLead = (await admin.get(`/api/mail?leadId=${open!.id}`)).json();
    expect(onLead.items.map((x: { subject: string }) => x.subject)).toEqual(['Interest in your ad']);
    expect((await admin.get(`/api/mail/${onLead.items[0].id}`)).json().text).toContain('Good afternoon, is the apartment suitable for a family with two children?');
    const [alert] = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, open!.id)));
    expect(alert).toMatchObject({ messageKey: 'enquiries.alert.added' });
    const [e] = await db.select().from(mailEnquiries).where(eq(mailEnquiries.leadId, open!.id));
    const [m] = await db.select().from(mailMessages).where(eq(mailMessages.id, e!.mailMessageId!));
    expect(m).toMatchObject({ subject: 'Interest in your ad' });
  });

  it('an enquiry naming no property of ours makes a lead without one; a mail of an unknown sender stays a plain message', async () => {
    const before = await counts();
    await deliver(sample('indomio.en.eml', '99999999'));
    await deliver(sample('unknown.el.eml', '0001'));
    expect(await syncMailbox(app, box)).toMatchObject({ added: 2 });
    const [anna] = await db.select().from(accounts).where(sql`${accounts.emails} @> array['anna.becker@example.de']`);
    const [lead] = await db.select().from(leads).where(eq(leads.accountId, anna!.id));
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, lead!.id))).toEqual([]);
    const [alert] = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead!.id)));
    expect(alert).toMatchObject({ messageKey: 'enquiries.alert.unmatched', source: 'Indomio.gr' });
    expect(await counts()).toMatchObject({ leads: before.leads + 1, enquiries: before.enquiries + 1 });
  });

  it("a mail that only claims to be the portal's (no sender check passed) stays a plain message; the office is told", async () => {
    const before = await counts();
    const strip = (raw: string) => raw.replace(/^Authentication-Results:[^\n]*\n(?:[ \t][^\n]*\n)*/m, '');
    // No Authentication-Results at all; and a forged "pass" the sender wrote below the receiving server's real "fail".
    await deliver(strip(sample('spitogatos.en.eml', flat.ref, 'bare.')));
    const real = 'Authentication-Results: mx.thermaikos-homes.gr; dkim=none; spf=fail smtp.mailfrom=forger.test; dmarc=fail (p=reject) header.from=spitogatos.gr\n';
    const forged = 'Authentication-Results: mx.thermaikos-homes.gr; dkim=pass header.d=spitogatos.gr; dmarc=pass header.from=spitogatos.gr\n';
    await deliver(real + forged + strip(sample('xe.el.eml', flat.ref, 'forged.')));
    expect(await syncMailbox(app, box)).toMatchObject({ added: 2 });
    expect(await counts()).toMatchObject({ leads: before.leads, accounts: before.accounts, enquiries: before.enquiries, alerts: before.alerts + 2 });
    const stored = await db.select({ id: mailMessages.id }).from(mailMessages).where(sql`${mailMessages.messageId} in ('<bare.sg-enquiry-en-1120098451@mail.spitogatos.gr>', '<forged.xe-lead-784512369-1@notifications.xe.gr>')`);
    expect(stored.length, 'both stored as messages').toBe(2);
    const told = await db.select().from(alerts).where(eq(alerts.messageKey, 'enquiries.alert.unverified')).orderBy(alerts.id);
    expect(told.map((a) => ({ source: a.source, params: a.params, content: a.content }))).toEqual([
      {
        source: 'Spitogatos.gr',
        params: { portal: 'Spitogatos.gr', from: 'noreply@spitogatos.gr' },
        content: 'An enquiry claiming to be from Spitogatos.gr (noreply@spitogatos.gr) failed the sender check: it was not made into a lead and stays in the mailbox as a plain message. Check it before acting on it.',
      },
      { source: 'xe.gr', params: { portal: 'xe.gr', from: 'no-reply@xe.gr' }, content: expect.stringContaining('claiming to be from xe.gr') },
    ]);
    // Seen again (a sync started over), it is not told twice.
    await db.execute(sql`update mailboxes set last_uid = 0 where id = ${box}`);
    await syncMailbox(app, box);
    expect(await counts()).toMatchObject({ alerts: before.alerts + 2 });
  });

  it('an enquiry mail older than 30 days (a first sync reaching back months) stays a plain message', async () => {
    const before = await counts();
    const old = new Date(Date.now() - 40 * 86_400_000);
    await deliver(sample('indomio.el.eml', flat.ref, 'old.', old));
    expect(await syncMailbox(app, box)).toMatchObject({ added: 1 });
    expect(await counts()).toEqual(before);
    const [m] = await db.select().from(mailMessages).where(eq(mailMessages.messageId, '<old.ind-req-98765-el@indomio.gr>'));
    expect(m).toMatchObject({ subject: 'Νέο αίτημα επικοινωνίας' });
  });

  it('a webhook hears of a portal lead once: not of an enquiry that failed, nor again when the same mail is stored twice', async () => {
    // No job runs here: a queued delivery stays in webhook_deliveries, where it is counted.
    const made = await admin.post('/api/Webhooks', { url: 'https://hooks.thermaikos-homes.test/crm', events: ['lead.fromPortal', 'lead.created', 'account.created'] });
    expect(made.statusCode, made.body).toBe(200);
    const queued = async () =>
      (await db.execute(sql`select event, entity_id from webhook_deliveries where endpoint_id = ${made.json().webhook.id} order by id`)).rows as { event: string; entity_id: number | null }[];
    const other = await mailboxAt('sales@thermaikos-homes.test');
    const store = (mailbox: number, raw: string) => storeMessage(app, { id: mailbox }, Buffer.from(raw), { uid: null, uidValidity: null, messageId: null });

    // The lead cannot be made (the office's alert refused, after the client and the lead were
    // written in the enquiry's savepoint): the mail is kept as a plain message, nothing is told.
    await t.pool.query(`create function refuse_enquiry_alert() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`);
    await t.pool.query(`create trigger refuse_enquiry_alert before insert on alerts for each row when (new.kind = 'enquiry' and new.message_key <> 'enquiries.alert.failed') execute function refuse_enquiry_alert()`);
    const failing = sample('spitogatos.en.eml', flat.ref, 'hook-failed.');
    try {
      expect(await store(box, failing)).toBe(true);
    } finally {
      await t.pool.query('drop trigger refuse_enquiry_alert on alerts; drop function refuse_enquiry_alert()');
    }
    expect((await db.select().from(alerts).where(eq(alerts.messageKey, 'enquiries.alert.failed'))).length).toBe(1);
    expect(await db.select().from(mailEnquiries).where(eq(mailEnquiries.messageKey, '<hook-failed.sg-enquiry-en-1120098451@mail.spitogatos.gr>'))).toEqual([]);
    expect(await queued()).toEqual([]);
    // Synced again: the same Message-ID in the mailbox is not stored again, and still tells nothing.
    expect(await store(box, failing)).toBe(false);
    expect(await queued()).toEqual([]);

    // An enquiry made into a lead: one lead.fromPortal (beside the new client and lead), once,
    // however often and in however many mailboxes the same mail is stored.
    const ok = sample('spitogatos.en.eml', flat.ref, 'hook-ok.');
    expect(await store(box, ok)).toBe(true);
    const [e] = await db.select().from(mailEnquiries).where(eq(mailEnquiries.messageKey, '<hook-ok.sg-enquiry-en-1120098451@mail.spitogatos.gr>'));
    const once = await queued();
    expect(once.filter((d) => d.event === 'lead.fromPortal')).toEqual([{ event: 'lead.fromPortal', entity_id: e!.leadId }]);
    expect(once.map((d) => d.event).sort()).toEqual(['account.created', 'lead.created', 'lead.fromPortal']);
    expect(await store(box, ok)).toBe(false);
    expect(await store(other, ok)).toBe(true);
    await db.execute(sql`update mailboxes set last_uid = 0 where id = ${box}`);
    await syncMailbox(app, box);
    expect(await queued()).toEqual(once);
  });
});
