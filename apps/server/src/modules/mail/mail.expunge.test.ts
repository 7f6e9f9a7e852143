import { afterAll, describe, expect, it, vi } from 'vitest';
import { ImapFlow } from 'imapflow';
import { eq, sql } from 'drizzle-orm';
import { accounts, actionLog, mailboxes, mailMessages } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { appendMail, imapOf, mailboxSettings, startDovecot } from '../../../test/dovecot.ts';
import { syncMailbox } from './mail-sync.ts';
import { MAIL_COUNTS_FOLD_JOB, WAITING_MESSAGES_LOOKED_UP } from './mail-counts.ts';

/**
 * Mail expunged on the server (decision 090), against a real Dovecot: the sync notices the UIDs
 * gone from the folder and hides their messages from the threads; put back, a message shows again.
 */
const dovecot = await startDovecot();
afterAll(() => dovecot.stop());
const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const rfcDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');
const mail = (n: number) =>
  `From: Nikos <nikos.v@example.gr>\nTo: info@agency.test\nSubject: Offer ${n}\nMessage-ID: <offer-${n}@example.gr>\nDate: ${rfcDate(new Date(Date.now() - (10 - n) * 60000))}\n\nOffer number ${n}.\n`;

/** Expunges the message of that Message-ID from the INBOX, as a mail program deleting it would. */
async function expunge(messageId: string) {
  const c = await imapOf(dovecot);
  try {
    await c.mailboxOpen('INBOX');
    const uids = (await c.search({ header: { 'message-id': messageId } }, { uid: true })) || [];
    expect(uids).toHaveLength(1);
    await c.messageDelete(uids, { uid: true });
  } finally {
    await c.logout();
  }
}

const [client] = await db.insert(accounts).values({ firstName: 'Νίκος', lastName: 'Βλάχος', isClient: true, emails: ['nikos.v@example.gr'] }).returning({ id: accounts.id });
const box = (await admin.post('/api/mailboxes/update', mailboxSettings(dovecot))).json();

describe('mail deleted on the server', () => {
  const thread = async () => (await admin.get(`/api/mail?accountId=${client!.id}`)).json() as { totalRows: number; items: { subject: string }[] };

  it('is hidden from the record\'s thread at the next sync, kept in the CRM and in the action log', async () => {
    for (const n of [1, 2, 3]) await appendMail(dovecot, mail(n));
    expect(await syncMailbox(app, box.id)).toMatchObject({ added: 3, deleted: 0 });
    expect((await thread()).items.map((m) => m.subject)).toEqual(['Offer 3', 'Offer 2', 'Offer 1']);

    await expunge('<offer-2@example.gr>');
    expect(await syncMailbox(app, box.id)).toMatchObject({ added: 0, seen: 0, deleted: 1 });
    expect(await thread()).toMatchObject({ totalRows: 2, items: [{ subject: 'Offer 3' }, { subject: 'Offer 1' }] });
    const [kept] = await db.select().from(mailMessages).where(eq(mailMessages.messageId, '<offer-2@example.gr>'));
    expect(kept!.deletedOn).toBeInstanceOf(Date);
    const log = await db.select().from(actionLog).where(eq(actionLog.actionByName, 'mail'));
    expect(log.map((l) => ({ action: l.action, entity: l.entity, entityId: l.entityId, data: l.data }))).toContainEqual({
      action: 'Update',
      entity: 'Mailbox',
      entityId: box.id,
      data: { deletedMessages: [kept!.id] },
    });
    const listed = (await admin.get('/api/mailboxes')).json().items.find((m: { id: number }) => m.id === box.id);
    expect(listed).toMatchObject({ messages: 2 });

    // Nothing more is marked by a further sync.
    expect(await syncMailbox(app, box.id)).toMatchObject({ deleted: 0 });
  });

  it('put back into the folder (a new UID), the message shows again, once', async () => {
    await appendMail(dovecot, mail(2));
    expect(await syncMailbox(app, box.id)).toMatchObject({ added: 0, seen: 1, deleted: 0 });
    expect(await thread()).toMatchObject({ totalRows: 3, items: [{ subject: 'Offer 3' }, { subject: 'Offer 2' }, { subject: 'Offer 1' }] });
  });

  it('a folder emptied on the server empties the thread', async () => {
    for (const n of [1, 2, 3]) await expunge(`<offer-${n}@example.gr>`);
    expect(await syncMailbox(app, box.id)).toMatchObject({ deleted: 3 });
    expect(await thread()).toEqual({ totalRows: 0, items: [] });
  });
  it('a sync with nothing expunged does not search the whole folder again (each poll, each IDLE wake-up)', async () => {
    for (const n of [4, 5]) await appendMail(dovecot, mail(n));
    expect(await syncMailbox(app, box.id)).toMatchObject({ added: 2, deleted: 0 });
    const search = vi.spyOn(ImapFlow.prototype, 'search');
    try {
      expect(await syncMailbox(app, box.id)).toMatchObject({ added: 0, deleted: 0 });
      await appendMail(dovecot, mail(6));
      expect(await syncMailbox(app, box.id)).toMatchObject({ added: 1, deleted: 0 });
      const whole = search.mock.calls.filter(([q]) => /^1:\d+$/.test(String((q as { uid?: string }).uid)));
      expect(whole).toEqual([]);
      // Gone since, one is still noticed.
      await expunge('<offer-5@example.gr>');
      expect(await syncMailbox(app, box.id)).toMatchObject({ deleted: 1 });
      await expunge('<offer-6@example.gr>');
      expect(await syncMailbox(app, box.id)).toMatchObject({ deleted: 1 });
      expect((await thread()).items.map((m) => m.subject)).toEqual(['Offer 4']);
    } finally {
      search.mockRestore();
    }
  });
  it('another folder or server set (its UIDVALIDITY may be the same number), the mail kept from the old one is not marked deleted', async () => {
    const [b] = await db.select().from(mailboxes).where(eq(mailboxes.id, box.id));
    // A message of the old folder, whose UID 1 the new folder does not have.
    const [old] = await db
      .insert(mailMessages)
      .values({ mailboxId: box.id, messageId: '<old-folder@example.gr>', uid: 1, uidValidity: b!.uidValidity, subject: 'Old folder' })
      .returning();
    // What saving another folder, server or user does (mailboxes.service.ts).
    await db.update(mailboxes).set({ uidValidity: null, lastUid: 0 }).where(eq(mailboxes.id, box.id));
    expect(await syncMailbox(app, box.id)).toMatchObject({ deleted: 0 });
    const [kept] = await db.select().from(mailMessages).where(eq(mailMessages.id, old!.id));
    expect(kept!.deletedOn).toBeNull();
    expect((await thread()).items.map((m) => m.subject)).toEqual(['Offer 4']);
  });
  it("an expunge of more messages than the readers look up asks for the mail counts' fold at once (decision 105)", async () => {
    const folds = async () => (await db.execute(sql`select count(*)::int as n from jobs where name = ${MAIL_COUNTS_FOLD_JOB} and state = 'queued'`)).rows[0];
    // The earlier expunges (three at most) asked for none.
    expect(await folds()).toEqual({ n: 0 });
    const [b] = await db.select().from(mailboxes).where(eq(mailboxes.id, box.id));
    const many = WAITING_MESSAGES_LOOKED_UP + 1;
    await db.execute(sql`insert into mail_messages (mailbox_id, message_id, uid, uid_validity, subject)
      select ${box.id}, '<gone-' || g || '@example.gr>', 1000 + g, ${b!.uidValidity}, 'Gone' from generate_series(1, ${many}) g`);
    await db.update(mailboxes).set({ lastUid: 1000 + many }).where(eq(mailboxes.id, box.id));
    expect(await syncMailbox(app, box.id)).toMatchObject({ deleted: many });
    expect(await folds()).toEqual({ n: 1 });
  });
});
