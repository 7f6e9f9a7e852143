import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { accounts, dealParties, deals, leads } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, imapOf, mailboxSettings, startDovecot } from '../../../test/dovecot.ts';
import { syncMailbox } from './mail-sync.ts';

/**
 * A record's timeline (issue 46: "account, property, lead and deal views show these threads in their
 * timeline beside activities, newest first"): activities and mail together, against a real IMAP
 * server (Dovecot), the office's shared mailbox and an agent's private one.
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());
const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const other = await t.user({ roles: ['employee'] });
const payments = await t.user({ roles: ['clientPayments'] });

const rfcDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');
const HOUR = 3_600_000;
const now = Date.now();
const ago = (hours: number) => new Date(now - hours * HOUR);

type Item = { kind: 'activity'; activity: { id: number; description: string } } | { kind: 'mail'; mail: { id: number; subject: string; from: { address: string } } };
type Answer = { items: Item[]; totalRows: number };
/** Each row as a reader tells them apart: an activity's text, a mail's subject. */
const shown = (a: Answer) => a.items.map((i) => (i.kind === 'activity' ? `A ${i.activity.description}` : `M ${i.mail.subject}`));

const o = (await admin.get('/api/object/add')).json();
expect((await admin.post('/api/object/update', { id: o.id, version: o.version, title: 'Maisonette in Glyfada', forSale: true, salePrice: 420000 })).statusCode).toBe(200);
const ref = o.referenceNumber as string;
const [client] = await db.insert(accounts).values({ firstName: 'Νίκος', lastName: 'Αλεξίου', isClient: true, emails: ['nikos.alexiou@example.gr'] } as never).returning({ id: accounts.id });
const [lead] = await db.insert(leads).values({ accountId: client!.id, forPurchase: true } as never).returning({ id: leads.id });
const [deal] = await db.insert(deals).values({ objectId: o.id, dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
await db.insert(dealParties).values({ dealId: deal!.id, accountId: client!.id, relation: 1, position: 0 });

const office = (await admin.post('/api/mailboxes/update', mailboxSettings(dovecot))).json() as { id: number };
const privateFolder = 'AgentOwn';
const own = (await admin.post('/api/mailboxes/update', mailboxSettings(dovecot, { name: 'Agent', address: 'agent@agency.test', ownerId: agent.id, imapFolder: privateFolder }))).json() as { id: number };

/** An activity on the account, made `hours` ago. */
async function activityOn(entityType: number, id: number, description: string, hours: number, done: boolean | null = null) {
  const res = await admin.post('/api/activity/add', { entityType, id, description, done });
  expect(res.statusCode, res.body).toBe(200);
  await db.execute(sql`update activities set created_on = ${ago(hours).toISOString()}::timestamptz where id = ${res.json().id as number}`);
}

describe('a record\'s timeline', () => {
  it('puts activities and mail together, newest first, paged; only the mailboxes the reader sees', async () => {
    await appendMail(dovecot, `From: nikos.alexiou@example.gr\nTo: info@agency.test\nSubject: First question on #${ref}\nMessage-ID: <t1@example.gr>\nDate: ${rfcDate(ago(30))}\n\nIs it still for sale?\n`, { date: ago(30) });
    await appendMail(dovecot, `From: nikos.alexiou@example.gr\nTo: info@agency.test\nSubject: Viewing on Saturday\nMessage-ID: <t2@example.gr>\nDate: ${rfcDate(ago(5))}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/plain; charset=utf-8\n\nSaturday at ten suits us.\n--b1\nContent-Type: application/pdf; name="id.pdf"\nContent-Disposition: attachment; filename="id.pdf"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQKJcTl8uXrCg==\n--b1--\n`, { date: ago(5) });
    // In the agent's own mailbox: hers and office admins' to read, no other agent's.
    await appendMail(dovecot, `From: nikos.alexiou@example.gr\nTo: agent@agency.test\nSubject: Private offer\nMessage-ID: <t3@example.gr>\nDate: ${rfcDate(ago(10))}\n\nOnly between us.\n`, { folder: privateFolder, date: ago(10) });
    await syncMailbox(app, office.id);
    await syncMailbox(app, own.id);
    await activityOn(2, client!.id, 'Called about the loan', 20, false);
    await activityOn(2, client!.id, 'Sent the floor plan', 1, true);

    const url = (q = '') => `/api/mail/timeline?accountId=${client!.id}${q}`;
    const res = await admin.get(url());
    expect(res.statusCode, res.body).toBe(200);
    const all = res.json() as Answer;
    expect(shown(all)).toEqual(['A Sent the floor plan', 'M Viewing on Saturday', 'M Private offer', 'A Called about the loan', `M First question on #${ref}`]);
    expect(all.totalRows).toBe(5);
    // A mail row as the record's mail list has it: its sender, its first words, its attachment.
    expect(all.items[1]).toMatchObject({ kind: 'mail', mail: { from: { address: 'nikos.alexiou@example.gr' }, snippet: 'Saturday at ten suits us.', attachments: [{ name: 'id.pdf' }] } });
    expect(all.items[0]).toMatchObject({ kind: 'activity', activity: { done: true, links: [{ entity: 2, id: client!.id }] } });
    // The mailbox's owner sees her private mail; another agent does not, in the rows nor the total.
    expect(shown((await agent.get(url())).json())).toEqual(shown(all));
    const theirs = (await other.get(url())).json() as Answer;
    expect(shown(theirs)).toEqual(['A Sent the floor plan', 'M Viewing on Saturday', 'A Called about the loan', `M First question on #${ref}`]);
    expect(theirs.totalRows).toBe(4);
    expect(JSON.stringify(theirs)).not.toContain('Private offer');

    // Paged in SQL: the pages follow one another, the total stays.
    const page = async (as: typeof admin, n: number) => (await as.get(url(`&perPage=2&currentPage=${n}`))).json() as Answer;
    expect(shown(await page(other, 1))).toEqual(['A Sent the floor plan', 'M Viewing on Saturday']);
    expect(await page(other, 2)).toMatchObject({ totalRows: 4 });
    expect(shown(await page(other, 2))).toEqual(['A Called about the loan', `M First question on #${ref}`]);
    expect(shown(await page(other, 3))).toEqual([]);
    expect(shown(await page(admin, 2))).toEqual(['M Private offer', 'A Called about the loan']);
  });

  it('walks one row a page to the same list: ties, the undated last, mail deleted on the server neither shown nor counted', async () => {
    const [maria] = await db.insert(accounts).values({ firstName: 'Μαρία', lastName: 'Κωνσταντίνου', isClient: true, emails: ['maria.k@example.gr'] } as never).returning({ id: accounts.id });
    // A mail's date has whole seconds: an activity made at the very same moment ties with it.
    const tie = new Date(Math.floor(ago(8).getTime() / 1000) * 1000);
    const from = `From: Maria K <maria.k@example.gr>\nTo: info@agency.test`;
    await appendMail(dovecot, `${from}\nSubject: Call me back\nMessage-ID: <w1@example.gr>\nDate: ${rfcDate(tie)}\n\nAfter six, please.\n`, { date: tie });
    await appendMail(dovecot, `${from}\nSubject: Asking price\nMessage-ID: <w2@example.gr>\nDate: ${rfcDate(ago(12))}\n\nIs it negotiable?\n`, { date: ago(12) });
    await appendMail(dovecot, `${from}\nSubject: No date on this one\nMessage-ID: <w3@example.gr>\n\nSent from an old phone.\n`);
    await appendMail(dovecot, `${from}\nSubject: Withdrawn offer\nMessage-ID: <w4@example.gr>\nDate: ${rfcDate(ago(6))}\n\nPlease ignore.\n`, { date: ago(6) });
    await appendMail(dovecot, `From: Maria K <maria.k@example.gr>\nTo: agent@agency.test\nSubject: Private terms\nMessage-ID: <w5@example.gr>\nDate: ${rfcDate(ago(15))}\n\nBetween us.\n`, { folder: privateFolder, date: ago(15) });
    await syncMailbox(app, office.id);
    await syncMailbox(app, own.id);
    // Deleted in a mail program: the next sync marks it deleted.
    const imap = await imapOf(dovecot);
    try {
      await imap.mailboxOpen('INBOX');
      const uids = (await imap.search({ header: { 'message-id': '<w4@example.gr>' } }, { uid: true })) || [];
      expect(uids).toHaveLength(1);
      await imap.messageDelete(uids, { uid: true });
    } finally {
      await imap.logout();
    }
    await syncMailbox(app, office.id);
    const deleted = await db.execute(sql`select deleted_on from mail_messages where message_id like '%w4@example.gr%'`);
    expect(deleted.rows).toMatchObject([{ deleted_on: expect.anything() }]);

    const made = async (description: string, at: Date) => {
      const res = await admin.post('/api/activity/add', { entityType: 2, id: maria!.id, description, done: null });
      expect(res.statusCode, res.body).toBe(200);
      await db.execute(sql`update activities set created_on = ${at.toISOString()}::timestamptz where id = ${res.json().id as number}`);
    };
    await made('Called back at six', tie);
    // Two activities made at the same moment: the later one stored first, as the activity list has them.
    const twins = ago(3);
    await made('Keys handed over', twins);
    await made('Keys returned', twins);
    await made('First meeting', ago(50));

    const url = (q: string) => `/api/mail/timeline?accountId=${maria!.id}${q}`;
    const withPrivate = ['A Keys returned', 'A Keys handed over', 'A Called back at six', 'M Call me back', 'M Asking price', 'M Private terms', 'A First meeting', 'M No date on this one'];
    for (const [reader, expected] of [
      [admin, withPrivate],
      [other, withPrivate.filter((r) => r !== 'M Private terms')],
    ] as const) {
      const whole = (await reader.get(url(''))).json() as Answer;
      expect(shown(whole)).toEqual(expected);
      expect(whole.totalRows).toBe(expected.length);
      // One row a page: page n is the n-th row of the whole list (each side read `offset + perPage` deep).
      const walked: string[] = [];
      for (let n = 1; n <= whole.totalRows; n++) {
        const p = (await reader.get(url(`&perPage=1&currentPage=${n}`))).json() as Answer;
        expect(p.totalRows).toBe(whole.totalRows);
        expect(p.items).toHaveLength(1);
        walked.push(...shown(p));
      }
      expect(walked).toEqual(expected);
      expect(shown((await reader.get(url(`&perPage=1&currentPage=${whole.totalRows + 1}`))).json())).toEqual([]);
      // Two a page, the same.
      const pairs: string[] = [];
      for (let n = 1; n <= Math.ceil(whole.totalRows / 2); n++) pairs.push(...shown((await reader.get(url(`&perPage=2&currentPage=${n}`))).json()));
      expect(pairs).toEqual(expected);
    }
    expect(JSON.stringify((await admin.get(url('&perPage=200'))).json())).not.toContain('Withdrawn offer');
    // The totals as filtered: the mail alone, a text in both kinds, a sender, the deleted mail's subject.
    const total = async (reader: typeof admin, q: string) => ((await reader.get(url(q))).json() as Answer).totalRows;
    expect(await total(admin, '&kind=mail')).toBe(4);
    expect(await total(other, '&kind=mail')).toBe(3);
    expect(await total(admin, '&kind=activities')).toBe(4);
    expect(shown((await admin.get(url('&text=call'))).json())).toEqual(['A Called back at six', 'M Call me back']);
    expect(await total(admin, '&text=call')).toBe(2);
    expect(await total(admin, '&text=keys')).toBe(2);
    expect(await total(admin, '&text=maria.k@')).toBe(4);
    expect(await total(other, '&text=maria.k@')).toBe(3);
    expect(await total(admin, '&text=withdrawn')).toBe(0);
    expect(shown((await admin.get(url('&text=maria.k@&perPage=1&currentPage=3'))).json())).toEqual(['M Private terms']);
  });

  it('holds at most 200 rows a page with mail in it (as a page of mail does); the activities alone may be shown all', async () => {
    const url = (q: string) => `/api/mail/timeline?accountId=${client!.id}${q}`;
    expect((await other.get(url('&perPage=200'))).statusCode).toBe(200);
    expect((await other.get(url('&kind=mail&perPage=200'))).statusCode).toBe(200);
    expect((await other.get(url('&kind=activities&perPage=1000000'))).json()).toMatchObject({ totalRows: 2 });
    for (const q of ['&perPage=201', '&kind=all&perPage=1000000', '&kind=mail&perPage=1000000']) {
      const res = await other.get(url(q), { lang: 'el' });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().errors).toEqual({ perPage: ['Όταν εμφανίζεται αλληλογραφία, η σελίδα χωράει έως 200 γραμμές· το «Όλες» ισχύει μόνο για τις δραστηριότητες.'] });
    }
    expect((await other.get(url('&kind=mail&perPage=1000000'))).json().detail).toBe('With e-mails shown, a page holds at most 200 rows; “Show all” is for activities alone.');
    expect((await other.get(url('&perPage=1000001'))).statusCode).toBe(400);
  });

  it('shows one kind when asked; a state is an activity\'s; the text looks in activities and in mail subjects and senders', async () => {
    const url = (q: string) => `/api/mail/timeline?accountId=${client!.id}${q}`;
    expect(shown((await other.get(url('&kind=mail'))).json())).toEqual(['M Viewing on Saturday', `M First question on #${ref}`]);
    expect((await other.get(url('&kind=mail'))).json().totalRows).toBe(2);
    expect(shown((await other.get(url('&kind=activities'))).json())).toEqual(['A Sent the floor plan', 'A Called about the loan']);
    expect((await other.get(url('&done=todo'))).json()).toMatchObject({ totalRows: 1, items: [{ kind: 'activity', activity: { description: 'Called about the loan' } }] });
    expect(shown((await other.get(url('&text=saturday'))).json())).toEqual(['M Viewing on Saturday']);
    expect(shown((await other.get(url('&text=loan'))).json())).toEqual(['A Called about the loan']);
    expect(shown((await other.get(url('&text=alexiou'))).json())).toEqual(['M Viewing on Saturday', `M First question on #${ref}`]);
    expect(shown((await other.get(url('&text=private'))).json())).toEqual([]);
  });

  it('reads a property\'s, a lead\'s and a deal\'s mail as their threads do', async () => {
    await activityOn(1, o.id, 'Photos taken', 40);
    expect(shown((await other.get(`/api/mail/timeline?objectId=${o.id}`)).json())).toEqual([`M First question on #${ref}`, 'A Photos taken']);
    await activityOn(4, lead!.id, 'Lead opened', 2);
    expect(shown((await other.get(`/api/mail/timeline?leadId=${lead!.id}`)).json())).toEqual(['A Lead opened']);
    // A deal: its buyer's and its property's mail once each (the first mail is on both), beside its own activities.
    await activityOn(5, deal!.id, 'Offer accepted', 3);
    const d = (await other.get(`/api/mail/timeline?dealId=${deal!.id}`)).json() as Answer;
    expect(shown(d)).toEqual(['A Offer accepted', 'M Viewing on Saturday', `M First question on #${ref}`]);
    expect(d.totalRows).toBe(3);
    expect(shown((await agent.get(`/api/mail/timeline?dealId=${deal!.id}&perPage=2&currentPage=2`)).json())).toEqual(['M Private offer', `M First question on #${ref}`]);
    expect((await other.get('/api/mail/timeline?dealId=2147483')).statusCode).toBe(404);
  });

  it('is for staff, about one record', async () => {
    expect((await payments.get(`/api/mail/timeline?accountId=${client!.id}`)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/mail/timeline?accountId=${client!.id}` })).statusCode).toBe(401);
    expect((await other.get('/api/mail/timeline')).statusCode).toBe(400);
    expect((await other.get(`/api/mail/timeline?accountId=${client!.id}&objectId=${o.id}`)).statusCode).toBe(400);
    expect((await other.get(`/api/mail/timeline?accountId=${client!.id}&kind=calls`)).statusCode).toBe(400);
  });
});
