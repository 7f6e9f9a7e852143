import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { accounts, actionLog, mailboxes, mailMessages } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, mailboxSettings, startDovecot } from '../../../test/dovecot.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { syncMailbox } from './mail-sync.ts';
import { workbookOf } from '../../../test/xlsx.ts';

/**
 * Mailboxes against a real IMAP server: a private Dovecot started here (test/dovecot.ts), its mail
 * put there by IMAP APPEND. The job runner is off: each sync is run by the test, in order.
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());
const t = await createTestApp({}, undefined, { jobs: false });
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const other = await t.user({ roles: ['employee'] });

const append = (raw: string, date?: Date) => appendMail(dovecot, raw, { flags: ['\\Seen'], date });
const mailbox = (over: Record<string, unknown> = {}) => mailboxSettings(dovecot, over);
/** A port nothing listens on. */
const closedPort = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const rfcDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');

let boxId = 0;
let boxVersion = 0;

describe('mailboxes', () => {
  it('are connected by an office admin; the passwords are stored sealed and never answered or logged', async () => {
    expect((await agent.post('/api/mailboxes/update', mailbox())).statusCode).toBe(403);
    const res = await admin.post('/api/mailboxes/update', mailbox());
    expect(res.statusCode, res.body).toBe(200);
    const box = res.json();
    expect(box).toMatchObject({ name: 'Office', address: 'info@agency.test', ownerId: null, imapPasswordSet: true, smtpPasswordSet: false, syncMonths: 6, version: 1 });
    expect(res.body).not.toContain(dovecot.password);
    boxId = box.id;
    boxVersion = box.version;
    const [row] = await t.db.select().from(mailboxes).where(eq(mailboxes.id, boxId));
    expect(row!.imapPassword).toMatch(/^v1:/);
    expect(row!.imapPassword).not.toContain(dovecot.password);
    const [log] = await t.db.select().from(actionLog).where(eq(actionLog.entity, 'Mailbox')).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Create', entityId: boxId });
    expect(JSON.stringify(log)).not.toContain(dovecot.password);
    expect((log!.data as Record<string, unknown>).imapPassword).toBe('set');
    // The key was made once in DATA_DIR, readable by its owner only.
    expect(fs.statSync(path.join(t.dataDir, 'mail-secret.key')).mode & 0o777).toBe(0o600);
    const list = await admin.get('/api/mailboxes');
    expect(list.body).not.toContain(dovecot.password);
    expect(list.json()).toMatchObject({ canStore: true, items: [{ id: boxId, imapPasswordSet: true }] });
  });

  it('a change carries the version it was based on; an empty password keeps the stored one', async () => {
    const stale = await admin.post('/api/mailboxes/update', mailbox({ id: boxId, version: boxVersion - 1, name: 'Old' }));
    expect(stale.statusCode).toBe(409);
    const res = await admin.post('/api/mailboxes/update', mailbox({ id: boxId, version: boxVersion, name: 'Γραφείο', imapPassword: '' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Γραφείο', version: boxVersion + 1, imapPasswordSet: true });
    boxVersion = res.json().version;
    const test = await admin.post('/api/mailboxes/test', mailbox({ id: boxId, imapPassword: '' }));
    expect(test.json()).toMatchObject({ ok: true, imap: { ok: true, step: null } });
  });

  it('are seen by an agent when shared or their own, never another agent\'s', async () => {
    const own = (await admin.post('/api/mailboxes/update', mailbox({ name: 'Mine', address: 'agent@agency.test', ownerId: agent.id, active: false }))).json();
    const theirs = (await admin.post('/api/mailboxes/update', mailbox({ name: 'Theirs', address: 'other@agency.test', ownerId: other.id, active: false }))).json();
    const seen = (await agent.get('/api/mailboxes')).json();
    expect(seen.items.map((m: { id: number }) => m.id).sort()).toEqual([boxId, own.id].sort());
    expect(seen.owners).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain(dovecot.password);
    expect((await admin.get('/api/mailboxes')).json().items.map((m: { id: number }) => m.id)).toContain(theirs.id);
    expect((await agent.call('DELETE', `/api/mailboxes/${theirs.id}`)).statusCode).toBe(403);
    expect((await admin.call('DELETE', `/api/mailboxes/${theirs.id}`)).statusCode).toBe(200);
    expect((await admin.call('DELETE', `/api/mailboxes/${own.id}`)).statusCode).toBe(200);
  });

  it('a connection test names the step that failed, in the reader\'s language', async () => {
    const step = async (over: Record<string, unknown>, lang = 'en') => (await admin.post('/api/mailboxes/test', mailbox(over), { lang })).json().imap;
    expect(await step({})).toMatchObject({ ok: true, step: null });
    expect(await step({ imapPort: closedPort })).toMatchObject({ ok: false, step: 'host', message: 'The server could not be reached: check the host name and the port.' });
    expect(await step({ imapPort: closedPort }, 'el')).toMatchObject({ step: 'host', message: 'Ο διακομιστής δεν είναι προσβάσιμος: ελέγξτε το όνομα του διακομιστή και τη θύρα.' });
    expect(await step({ imapPort: closedPort }, 'ru')).toMatchObject({ step: 'host', message: 'Сервер недоступен: проверьте имя сервера и порт.' });
    expect(await step({ imapHost: 'no-such-host.invalid' })).toMatchObject({ ok: false, step: 'host' });
    expect(await step({ imapTls: true })).toMatchObject({ ok: false, step: 'tls' });
    expect(await step({ imapFolder: 'Nowhere' })).toMatchObject({ ok: false, step: 'folder' });
  });
});

describe('sync', () => {
  let accountId = 0;
  let objectId = 0;
  let reference = '';

  it('takes the last months\' mail once, sanitised, with its attachments, linked to the accounts and the property it names', async () => {
    [{ id: accountId }] = await t.db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Καραγιάννη', isClient: true, emails: ['Eleni.K@Example.gr'] }).returning({ id: accounts.id });
    const o = (await admin.get('/api/object/add')).json();
    expect((await admin.post('/api/object/update', { id: o.id, version: o.version, title: 'Flat in Kalamaria' })).statusCode).toBe(200);
    objectId = o.id;
    reference = o.referenceNumber;
    const now = new Date();
    await append(
      `From: Eleni <eleni.k@example.gr>\nTo: info@agency.test\nSubject: Viewing of ΚΩΔ. ${reference}\nMessage-ID: <one@example.gr>\nDate: ${rfcDate(now)}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: multipart/alternative; boundary=b2\n\n--b2\nContent-Type: text/plain; charset=utf-8\n\nCan we see the flat on Friday?\n--b2\nContent-Type: text/html; charset=utf-8\n\n<p onclick="steal()">Can we see the <b>flat</b> on Friday?</p><script>alert(1)</script><form action="https://evil.test"><input name="pw"></form><img src="https://tracker.test/pixel.gif"><a href="javascript:alert(2)">x</a><a href="https://example.gr">site</a>\n--b2--\n--b1\nContent-Type: application/pdf; name="plan.pdf"\nContent-Disposition: attachment; filename="plan.pdf"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQKJcTl8uXrCg==\n--b1--\n`,
      now,
    );
    await append(`From: someone@elsewhere.test\nTo: info@agency.test\nSubject: Unrelated\nMessage-ID: <two@elsewhere.test>\nDate: ${rfcDate(now)}\n\nNothing for us.\n`, now);
    const old = new Date(now.getTime() - 400 * 24 * 3600 * 1000);
    await append(`From: eleni.k@example.gr\nTo: info@agency.test\nSubject: Last year\nMessage-ID: <old@example.gr>\nDate: ${rfcDate(old)}\n\nOld.\n`, old);

    expect(await syncMailbox(app, boxId)).toMatchObject({ added: 2, seen: 2 });
    const rows = await t.db.select().from(mailMessages).where(eq(mailMessages.mailboxId, boxId));
    expect(rows.map((r) => r.messageId).sort()).toEqual(['<one@example.gr>', '<two@elsewhere.test>']);

    const forAccount = (await admin.get(`/api/mail?accountId=${accountId}`)).json();
    expect(forAccount.totalRows).toBe(1);
    expect(forAccount.items[0]).toMatchObject({ subject: `Viewing of ΚΩΔ. ${reference}`, from: { address: 'eleni.k@example.gr', name: 'Eleni' }, attachments: [{ name: 'plan.pdf', mime: 'application/pdf' }] });
    const forObject = (await admin.get(`/api/mail?objectId=${objectId}`)).json();
    expect(forObject.items.map((m: { id: number }) => m.id)).toEqual([forAccount.items[0].id]);

    const view = (await agent.get(`/api/mail/${forAccount.items[0].id}`)).json();
    expect(view.text).toContain('Can we see the flat on Friday?');
    expect(view.html).toContain('<b>flat</b>');
    for (const bad of ['<script', 'alert(1)', '<form', '<input', 'onclick', 'javascript:']) expect(view.html).not.toContain(bad);
    expect(view.html).not.toMatch(/\ssrc="https:/);
    expect(view.html).toContain('data-blocked-src="https://tracker.test/pixel.gif"');
    expect(view.html).toContain('rel="noopener noreferrer nofollow"');
    expect(view.remoteImages).toBe(1);

    const file = await agent.get(`/api/mail/attachment/${view.attachments[0].id}/plan.pdf`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.body.startsWith('%PDF-1.4')).toBe(true);
  });

  it('run again, or after a crash before the highest UID was kept, adds nothing', async () => {
    expect(await syncMailbox(app, boxId)).toMatchObject({ added: 0, seen: 0 });
    // As if the sync had died after storing the messages but before keeping the UID it reached.
    await t.db.update(mailboxes).set({ lastUid: 0 }).where(eq(mailboxes.id, boxId));
    expect(await syncMailbox(app, boxId)).toMatchObject({ added: 0, seen: 2 });
    expect((await t.db.select().from(mailMessages).where(eq(mailMessages.mailboxId, boxId))).length).toBe(2);
  });

  it('one sync at a time: a mailbox another sync holds is left to it', async () => {
    await t.db.update(mailboxes).set({ syncLockedUntil: sql`now() + interval '1 minute'` }).where(eq(mailboxes.id, boxId));
    expect(await syncMailbox(app, boxId)).toBeNull();
    await t.db.update(mailboxes).set({ syncLockedUntil: null }).where(eq(mailboxes.id, boxId));
  });

  it('a changed UIDVALIDITY syncs the folder again without duplicates, and takes what is new', async () => {
    const [before] = await t.db.select().from(mailboxes).where(eq(mailboxes.id, boxId));
    // Dovecot renumbers the folder when its UID list and indexes are gone (as after a restore).
    for (const f of fs.readdirSync(dovecot.maildir)) if (f.startsWith('dovecot-uidlist') || f.startsWith('dovecot.index')) fs.rmSync(path.join(dovecot.maildir, f));
    await append(`From: eleni.k@example.gr\nTo: info@agency.test\nSubject: Another question\nMessage-ID: <three@example.gr>\nDate: ${rfcDate(new Date())}\n\nAnd the parking?\n`);
    const r = await syncMailbox(app, boxId);
    const [after] = await t.db.select().from(mailboxes).where(eq(mailboxes.id, boxId));
    expect(after!.uidValidity).not.toBe(before!.uidValidity);
    expect(r).toMatchObject({ added: 1, seen: 3, uidValidityChanged: true });
    const rows = await t.db.select().from(mailMessages).where(eq(mailMessages.mailboxId, boxId));
    expect(rows.map((m) => m.messageId).sort()).toEqual(['<one@example.gr>', '<three@example.gr>', '<two@elsewhere.test>']);
    expect(rows.every((m) => m.uidValidity === after!.uidValidity)).toBe(true);
    const forAccount = (await admin.get(`/api/mail?accountId=${accountId}`)).json();
    expect(forAccount.items.map((m: { subject: string }) => m.subject)).toEqual(['Another question', `Viewing of ΚΩΔ. ${reference}`]);
  });

  it('an account merged into another brings its mail along', async () => {
    const [dup] = await t.db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Karagianni', isClient: true, emails: ['eleni.k@example.gr'] }).returning();
    const [kept] = await t.db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Καραγιάννη', isClient: true }).returning();
    await append(`From: eleni.k@example.gr\nTo: info@agency.test\nSubject: Merged\nMessage-ID: <merge@example.gr>\nDate: ${rfcDate(new Date())}\n\nHi.\n`);
    await syncMailbox(app, boxId);
    // Written straight to the table (no account save): only the mail synced after it is linked to it.
    expect((await admin.get(`/api/mail?accountId=${dup!.id}`)).json().totalRows).toBe(1);
    const res = await admin.post('/api/account/merge', { account: { id: kept!.id, version: kept!.version }, duplicateId: dup!.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await admin.get(`/api/mail?accountId=${kept!.id}`)).json().items.map((m: { subject: string }) => m.subject)).toContain('Merged');
  });

  it('a failing mailbox keeps the step it failed at; other readers do not see a private mailbox\'s mail', async () => {
    const priv = (await admin.post('/api/mailboxes/update', mailbox({ name: 'Agent', address: 'agent@agency.test', ownerId: agent.id }))).json();
    await syncMailbox(app, priv.id);
    const mine = (await agent.get(`/api/mail?accountId=${accountId}`)).json();
    const theirs = (await other.get(`/api/mail?accountId=${accountId}`)).json();
    // The private mailbox holds the same three messages of hers (the same IMAP account here).
    expect(mine.totalRows).toBe(theirs.totalRows + 3);
    await t.db.update(mailboxes).set({ imapPort: closedPort }).where(eq(mailboxes.id, priv.id));
    await syncMailbox(app, priv.id);
    expect((await admin.get('/api/mailboxes')).json().items.find((m: { id: number }) => m.id === priv.id)).toMatchObject({ lastSyncError: 'host' });
  });
});

describe('mail and the accounts saved after it', () => {
  const linked = async (id: number) => (await admin.get(`/api/mail?accountId=${id}`)).json().items.map((m: { subject: string }) => m.subject).sort();

  it('an account given an address later is linked to the mail already synced from, to or cc it, in any case', async () => {
    const now = new Date();
    await append(`From: Nikos <nikos.p@example.gr>\nTo: info@agency.test\nCc: Maria <Maria.S@Example.GR>\nSubject: Garage for rent\nMessage-ID: <later-1@example.gr>\nDate: ${rfcDate(now)}\n\nIs it free?\n`, now);
    await append(`From: info@agency.test\nTo: maria.s@example.gr\nSubject: Your viewing\nMessage-ID: <later-2@agency.test>\nDate: ${rfcDate(now)}\n\nSee you.\n`, now);
    await syncMailbox(app, boxId);

    const created = await admin.post('/api/account/add', { firstName: 'Νίκος', lastName: 'Παππάς', email: 'NIKOS.P@example.gr' });
    expect(created.statusCode, created.body).toBe(200);
    expect(await linked(created.json().id)).toEqual(['Garage for rent']);

    const maria = (await admin.post('/api/account/add', { firstName: 'Μαρία', lastName: 'Σταύρου' })).json();
    expect(await linked(maria.id)).toEqual([]);
    const v1 = (await t.db.select({ v: accounts.version }).from(accounts).where(eq(accounts.id, maria.id)))[0]!.v;
    const gained = await admin.post('/api/account/update', { id: maria.id, version: v1, email: 'Maria.S@example.gr' });
    expect(gained.statusCode, gained.body).toBe(200);
    expect(await linked(maria.id)).toEqual(['Garage for rent', 'Your viewing']);
    // Another address added: the links already there stay once; an address nobody wrote to finds nothing.
    const again = await admin.post('/api/account/update', { id: maria.id, version: gained.json().version, email: 'Maria.S@example.gr; maria.work@example.gr' });
    expect(again.statusCode, again.body).toBe(200);
    expect(await linked(maria.id)).toEqual(['Garage for rent', 'Your viewing']);
    const nobody = (await admin.post('/api/account/add', { firstName: 'Άλλος', lastName: 'Κανείς', email: 'nobody@example.gr' })).json();
    expect(await linked(nobody.id)).toEqual([]);
  });

  it("a person's erasure deletes the mail linked to them and its attachments; their export lists it first", async () => {
    const person = (await admin.post('/api/account/add', { firstName: 'Ζωή', lastName: 'Ερασμίδου', isClient: true, email: 'zoi.erase@example.gr' })).json();
    const now = new Date();
    await append(
      `From: Zoi <zoi.erase@example.gr>\nTo: info@agency.test\nCc: friend@example.gr\nSubject: My passport scan\nMessage-ID: <erase-1@example.gr>\nDate: ${rfcDate(now)}\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b1\n\n--b1\nContent-Type: text/plain; charset=utf-8\n\nAttached.\n--b1\nContent-Type: application/pdf; name="passport.pdf"\nContent-Disposition: attachment; filename="passport.pdf"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQKJcTl8uXrCg==\n--b1--\n`,
      now,
    );
    await syncMailbox(app, boxId);
    const [msg] = (await admin.get(`/api/mail?accountId=${person.id}`)).json().items;
    expect(msg).toMatchObject({ subject: 'My passport scan', attachments: [{ name: 'passport.pdf' }] });
    const [att] = (await t.db.execute(sql`select a.id, a.system_name from mail_attachments a where a.message_id = ${msg.id}`)).rows as { id: number; system_name: string }[];
    const storage = getFileStorage(t.dataDir);
    expect(await storage.get(att!.system_name)).toBeDefined();

    const exported = await admin.get(`/api/account/personal-data/${person.id}`);
    expect(exported.statusCode, exported.body).toBe(200);
    const wb = await workbookOf(exported);
    const sheet = wb.getWorksheet('E-mails')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Sent on', 'Subject', 'From', 'To and Cc']);
    expect((sheet.getRow(2).values as unknown[]).slice(2)).toEqual(['My passport scan', 'zoi.erase@example.gr', 'info@agency.test; friend@example.gr']);

    const version = (await t.db.select({ v: accounts.version }).from(accounts).where(eq(accounts.id, person.id)))[0]!.v;
    const erased = await admin.post(`/api/account/erase/${person.id}`, { version });
    expect(erased.statusCode, erased.body).toBe(200);
    expect((await admin.get(`/api/mail?accountId=${person.id}`)).json().totalRows).toBe(0);
    expect((await agent.get(`/api/mail/${msg.id}`)).statusCode).toBe(404);
    expect((await t.db.execute(sql`select count(*)::int as n from mail_messages where message_id = '<erase-1@example.gr>' and mailbox_id = ${boxId}`)).rows[0]).toEqual({ n: 0 });
    expect((await t.db.execute(sql`select count(*)::int as n from mail_attachments where id = ${att!.id}`)).rows[0]).toEqual({ n: 0 });
    expect(await storage.get(att!.system_name)).toBeUndefined();
    const [log] = await t.db.select().from(actionLog).where(eq(actionLog.entity, 'Account')).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Erase', entityId: person.id, data: expect.objectContaining({ mailDeleted: 1 }) });
    // Other people's mail stays.
    expect((await t.db.execute(sql`select count(*)::int as n from mail_messages where message_id = '<later-1@example.gr>' and mailbox_id = ${boxId}`)).rows[0]).toEqual({ n: 1 });
  });

  it('a message without a date comes after the dated ones, newest first, page by page, for every reader', async () => {
    const person = (await admin.post('/api/account/add', { firstName: 'Άννα', lastName: 'Αχρονολόγητη', isClient: true, email: 'anna.undated@example.gr' })).json();
    const daysAgo = (n: number) => rfcDate(new Date(Date.now() - n * 86400000));
    await append(`From: anna.undated@example.gr\nTo: info@agency.test\nSubject: No date\nMessage-ID: <undated-0@example.gr>\n\nWhen?\n`);
    await append(`From: anna.undated@example.gr\nTo: info@agency.test\nSubject: Older\nMessage-ID: <undated-1@example.gr>\nDate: ${daysAgo(3)}\n\nFirst.\n`);
    await append(`From: info@agency.test\nTo: anna.undated@example.gr\nSubject: Newer\nMessage-ID: <undated-2@agency.test>\nDate: ${daysAgo(1)}\n\nSecond.\n`);
    await syncMailbox(app, boxId);
    const subjects = async (reader: typeof admin, query: string) => {
      const res = (await reader.get(`/api/mail?accountId=${person.id}${query}`)).json();
      return { total: res.totalRows as number, subjects: res.items.map((m: { subject: string }) => m.subject) as string[] };
    };
    expect(await subjects(admin, '')).toEqual({ total: 3, subjects: ['Newer', 'Older', 'No date'] });
    expect(await subjects(admin, '&perPage=1&currentPage=3')).toEqual({ total: 3, subjects: ['No date'] });
    // Another employee does not see the agent's private mailbox: the shared one's three all the same.
    expect(await subjects(other, '&perPage=2&currentPage=1')).toEqual({ total: 3, subjects: ['Newer', 'Older'] });
  });
});

// Last of the file: after a wrong password Dovecot makes the next sign-ins from this address wait.
describe('a wrong password', () => {
  it('is named as the sign-in that was refused, and never repeated in the answer', async () => {
    const res = await admin.post('/api/mailboxes/test', mailbox({ imapPassword: 'wrong password' }), { lang: 'el' });
    expect(res.json().imap).toMatchObject({ ok: false, step: 'signIn', message: 'Η σύνδεση απορρίφθηκε: ελέγξτε το όνομα χρήστη και τον κωδικό.' });
    expect(res.body).not.toContain('wrong password');
  });
});
