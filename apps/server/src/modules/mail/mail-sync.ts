import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ImapFlow } from 'imapflow';
import { mailboxes, mailMessages } from '../../db/schema/index.ts';
import { openSecret, secretKey } from '../../lib/secret-box.ts';
import { connectImap, MailStepError, openFolder, type ImapSettings } from './mail-connection.ts';
import { messageIdOf, storeMessage, SyncLeaseLost } from './mail-store.ts';
import { PendingFileGone } from '../../storage/pending-files.ts';
import type { Tx } from '../../db/client.ts';
import { pausePoint } from '../../lib/pause-point.ts';
import { logAction } from '../../lib/audit.ts';
import { MAIL_ACTOR } from './enquiry-lead.ts';
import { MAIL_COUNTS_FOLD_JOB, WAITING_MESSAGES_LOOKED_UP } from './mail-counts.ts';

/** The recurring job that syncs every active mailbox (once across instances: the job runner's recurring run). */
export const MAIL_SYNC_JOB = 'mail.sync';
/** A sync of one mailbox asked for now (a mailbox saved, "Sync now"). */
export const MAIL_SYNC_ONE_JOB = 'mail.syncOne';
const BATCH = 50;

type MailboxRow = typeof mailboxes.$inferSelect;

export function imapSettingsOf(app: FastifyInstance, m: MailboxRow): ImapSettings {
  const key = secretKey(app.config);
  if (!key) throw new MailStepError('other', 'MAIL_SECRET_KEY is not set');
  return { host: m.imapHost, port: m.imapPort, tls: m.imapTls, user: m.imapUser, password: openSecret(key, m.imapPassword), folder: m.imapFolder };
}

/**
 * The mailbox's sync lease (decisions 078, 104): taken when no other sync holds a live one, in the
 * row with the holder's name (this run's own, so two syncs of one instance are told apart too),
 * renewed every third of MAIL_SYNC_LEASE_SECONDS while the sync makes progress (a message or a
 * batch done: `progress()`; bytes still arriving from the IMAP server: `watch()`), given back at its end. A sync that made none for STALLED_LEASES
 * leases (hung on a store, a lock, a server) stops renewing and counts the lease lost, so the
 * mailbox is free at most a lease later; a holder that died stops renewing at once. Every write of
 * the sync to the mailbox and its messages requires it still be the holder (`stillHeld`).
 */
type SyncLease = { holder: string; since: string; lost: () => boolean; progress: () => void; watch: (bytes: (() => number) | null) => void; release: () => Promise<string | null> };
const STALLED_LEASES = 2;

async function takeLease(app: FastifyInstance, id: number): Promise<SyncLease | null> {
  const seconds = app.config.mailIn.syncLeaseSeconds;
  const holder = `${app.jobs.instanceId}#${randomBytes(4).toString('hex')}`;
  const r = await app.db.execute(sql`update mailboxes set sync_locked_until = now() + make_interval(secs => ${seconds}), sync_held_by = ${holder}
    where id = ${id} and active and (sync_locked_until is null or sync_locked_until < now()) returning clock_timestamp() as since`);
  const row = r.rows[0] as { since: string | Date } | undefined;
  if (!row) return null;
  let lost = false;
  let lastProgress = Date.now();
  // Bytes of a message still arriving from the server count as progress: one large message on a slow line is not a hang.
  let bytes: (() => number) | null = null;
  let bytesSeen = -1;
  const renew = setInterval(() => {
    const now = bytes?.() ?? -1;
    if (now !== bytesSeen) {
      if (now >= 0 && bytesSeen >= 0) lastProgress = Date.now();
      bytesSeen = now;
    }
    if (Date.now() - lastProgress > STALLED_LEASES * seconds * 1000) {
      // No progress for that long: the lease is left to lapse, and this sync stops where it is.
      lost = true;
      clearInterval(renew);
      app.log.warn({ mailbox: id, holder }, 'mailbox sync made no progress; its lease is left to lapse');
      return;
    }
    app.db
      .execute(sql`update mailboxes set sync_locked_until = now() + make_interval(secs => ${seconds}) where id = ${id} and sync_held_by = ${holder} returning id`)
      .then((x) => {
        if (!x.rows.length) lost = true;
      })
      .catch(() => {
        /* the database away: the lease may lapse, and each write checks it is still held */
      });
  }, (seconds * 1000) / 3);
  renew.unref();
  return {
    holder,
    since: new Date(row.since).toISOString(),
    lost: () => lost,
    progress: () => {
      lastProgress = Date.now();
    },
    watch: (read) => {
      bytes = read;
      bytesSeen = read?.() ?? -1;
    },
    release: async () => {
      clearInterval(renew);
      const g = await app.db.execute(sql`update mailboxes set sync_locked_until = null, sync_held_by = null where id = ${id} and sync_held_by = ${holder} returning clock_timestamp() as at`);
      const at = (g.rows[0] as { at: string | Date } | undefined)?.at;
      return at ? new Date(at).toISOString() : null;
    },
  };
}

/** In a transaction of the sync's: the mailbox still held by this holder (kept so until the commit), else SyncLeaseLost. */
async function stillHeld(tx: Tx, id: number, holder: string): Promise<void> {
  const held = await tx.execute(sql`select 1 from mailboxes where id = ${id} and sync_held_by = ${holder} for share`);
  if (!held.rows.length) throw new SyncLeaseLost(id);
}

export type SyncResult = { added: number; seen: number; deleted: number; uidValidityChanged: boolean } | null;

/**
 * What this instance last saw of a folder: under `uidValidity`, `count` messages on the server had
 * a UID up to `upTo`. UIDs are never reused under one UIDVALIDITY, so the same count later means
 * none of them was expunged, and the whole folder need not be searched again.
 */
type ExpungeMemo = { uidValidity: number; upTo: number; count: number };
const EXPUNGE_MEMO = new WeakMap<FastifyInstance, Map<number, ExpungeMemo>>();

/**
 * Mail expunged from the folder (decision 090): the UIDs the server still has up to the highest one
 * synced against the UIDs stored under the current UIDVALIDITY; the stored ones the server no longer
 * has are marked deleted (hidden from the threads, kept for the lead they made and the action log),
 * in one statement. Answers how many. The whole folder is searched (one UID SEARCH, a few bytes a
 * message) only when its count says a message up to the last UID checked has gone; else only the
 * UIDs synced since that check are looked at (each poll and each IDLE wake-up stays small on a big folder).
 */
async function markExpunged(app: FastifyInstance, client: ImapFlow, id: number, uidValidity: number, holder: string): Promise<number> {
  const [m] = await app.db.select({ lastUid: mailboxes.lastUid }).from(mailboxes).where(eq(mailboxes.id, id));
  if (!m || m.lastUid < 1) return 0;
  let memos = EXPUNGE_MEMO.get(app);
  if (!memos) EXPUNGE_MEMO.set(app, (memos = new Map()));
  const memo = memos.get(id);
  let from = 1;
  let present: number[] | false | undefined;
  let count: number;
  if (memo && memo.uidValidity === uidValidity && memo.upTo <= m.lastUid && client.mailbox) {
    // The server's count now, with the EXPUNGE and EXISTS responses it still owed this session.
    await client.noop();
    const exists = client.mailbox ? client.mailbox.exists : -1;
    const newer = await client.search({ uid: `${memo.upTo + 1}:*` }, { uid: true });
    if (!Array.isArray(newer)) return 0;
    const after = newer.filter((u) => u > memo.upTo);
    if (exists - after.length === memo.count) {
      from = memo.upTo + 1;
      present = after.filter((u) => u <= m.lastUid);
      count = memo.count + present.length;
    } else {
      present = await client.search({ uid: `1:${m.lastUid}` }, { uid: true });
      count = Array.isArray(present) ? present.length : 0;
    }
  } else {
    present = await client.search({ uid: `1:${m.lastUid}` }, { uid: true });
    count = Array.isArray(present) ? present.length : 0;
  }
  // A search the server refused says nothing about what is gone.
  if (!Array.isArray(present)) return 0;
  const found = present;
  // NOT IN a subquery: a hashed set, so 10,000 stored against 10,000 present stays one pass.
  const marked = await app.db.transaction(async (tx) => {
    await stillHeld(tx, id, holder);
    const gone = (
      await tx.execute(sql`update mail_messages set deleted_on = now()
        where mailbox_id = ${id} and uid_validity = ${uidValidity} and uid >= ${from} and uid <= ${m.lastUid} and deleted_on is null
          and uid not in (select unnest(${sql.param(found)}::bigint[]))
        returning id`)
    ).rows as { id: number }[];
    if (gone.length) await logAction(tx, MAIL_ACTOR, { action: 'Update', entity: 'Mailbox', entityId: id, message: 'expunged', data: { deletedMessages: gone.map((r) => r.id) } });
    // More marked than the readers look up one by one: every record is counted on the spot until
    // the fold (decision 105), so it is asked for now rather than at its next turn.
    if (gone.length > WAITING_MESSAGES_LOOKED_UP) await app.jobs.enqueue(MAIL_COUNTS_FOLD_JOB, {}, { tx, singletonKey: 'expunged' });
    return gone.length;
  });
  memos.set(id, { uidValidity, upTo: m.lastUid, count });
  return marked;
}

/**
 * Syncs one mailbox (decision 078): the folder's messages of the last `syncMonths` months past the
 * highest UID already synced, in UID order, a batch at a time. Each message is stored once per
 * Message-ID, so a crash anywhere (between a message and the UID kept, in the middle of a batch)
 * only means some messages are looked at again, never added twice; the highest UID is kept after
 * each batch. A changed UIDVALIDITY (the server renumbered the folder) starts over from UID 1 under
 * the new one: the messages already kept are recognised by their Message-ID and only get their new UID.
 * Answers null when another sync holds the mailbox, or took it over meanwhile, or the housekeeping
 * took an attachment's file (decision 104): nothing is then written on the mailbox.
 */
export async function syncMailbox(app: FastifyInstance, id: number, signal?: AbortSignal): Promise<SyncResult> {
  const lease = await takeLease(app, id);
  if (!lease) return null;
  app.log.debug({ mailbox: id, holder: lease.holder, heldFrom: lease.since }, 'mailbox sync lease taken');
  let client: ImapFlow | undefined;
  let added = 0;
  try {
    const [m] = await app.db.select().from(mailboxes).where(eq(mailboxes.id, id));
    if (!m) return null;
    client = await connectImap(imapSettingsOf(app, m));
    const connected = client;
    const received = () => connected.stats().received;
    const opened = await openFolder(client, m.imapFolder);
    lease.progress();
    const uidValidity = Number(opened.uidValidity);
    let lastUid = m.lastUid;
    const changed = m.uidValidity !== null && m.uidValidity !== uidValidity;
    if (m.uidValidity !== uidValidity) {
      lastUid = 0;
      EXPUNGE_MEMO.get(app)?.delete(id);
      // Another server, account or folder (the settings changed, decision 078): the messages kept are of
      // another numbering, though it may bear the same UIDVALIDITY (many servers use 1); theirs dropped,
      // they are not taken for expunged from this folder, and get this folder's UID when seen in it.
      await app.db.transaction(async (tx) => {
        await stillHeld(tx, id, lease.holder);
        if (m.uidValidity === null) await tx.update(mailMessages).set({ uidValidity: null }).where(and(eq(mailMessages.mailboxId, id), eq(mailMessages.uidValidity, uidValidity)));
        await tx.update(mailboxes).set({ uidValidity, lastUid: 0 }).where(eq(mailboxes.id, id));
      });
    }
    const since = new Date();
    since.setMonth(since.getMonth() - m.syncMonths);
    const found = await client.search({ since, uid: `${lastUid + 1}:*` }, { uid: true });
    const uids = (found || []).filter((u) => u > lastUid).sort((a, b) => a - b);
    lease.progress();
    for (let i = 0; i < uids.length; i += BATCH) {
      if (signal?.aborted) break;
      const batch = uids.slice(i, i + BATCH);
      const heads: { uid: number; messageId: string | null }[] = [];
      for await (const msg of client.fetch(batch, { uid: true, envelope: true }, { uid: true })) {
        heads.push({ uid: msg.uid, messageId: messageIdOf(msg.envelope?.messageId, null) });
      }
      lease.progress();
      const named = heads.filter((h) => h.messageId).map((h) => h.messageId!);
      const known = new Set(
        named.length
          ? (await app.db.select({ id: mailMessages.messageId }).from(mailMessages).where(and(eq(mailMessages.mailboxId, id), inArray(mailMessages.messageId, named)))).map((r) => r.id)
          : [],
      );
      for (const h of heads.sort((a, b) => a.uid - b.uid)) {
        if (lease.lost()) throw new SyncLeaseLost(id);
        if (h.messageId && known.has(h.messageId)) {
          // Seen again under a new UID (renumbered, or put back into the folder): shown again if it was marked deleted.
          const messageId = h.messageId;
          await app.db.transaction(async (tx) => {
            await stillHeld(tx, id, lease.holder);
            await tx
              .update(mailMessages)
              .set({ uid: h.uid, uidValidity, deletedOn: null })
              .where(and(eq(mailMessages.mailboxId, id), eq(mailMessages.messageId, messageId)));
          });
          lease.progress();
          continue;
        }
        // While a message comes down, its bytes arriving count as progress (not an idle connection's keep-alives).
        lease.watch(received);
        const one = await client.fetchOne(String(h.uid), { source: true }, { uid: true }).finally(() => lease.watch(null));
        if (!one || !one.source) continue;
        if (await storeMessage(app, m, one.source, { uid: h.uid, uidValidity, messageId: h.messageId, lease: lease.holder })) added++;
        lease.progress();
      }
      const kept = await app.db
        .update(mailboxes)
        .set({ lastUid: batch.at(-1)! })
        .where(and(eq(mailboxes.id, id), eq(mailboxes.syncHeldBy, lease.holder)))
        .returning({ id: mailboxes.id });
      if (!kept.length) throw new SyncLeaseLost(id);
      lease.progress();
      await pausePoint('mail.sync.batchDone');
    }
    if (lease.lost()) throw new SyncLeaseLost(id);
    const deleted = signal?.aborted ? 0 : await markExpunged(app, client, id, uidValidity, lease.holder);
    const done = await app.db
      .update(mailboxes)
      .set({ lastSyncOn: new Date(), lastSyncError: null })
      .where(and(eq(mailboxes.id, id), eq(mailboxes.syncHeldBy, lease.holder)))
      .returning({ id: mailboxes.id });
    if (!done.length) throw new SyncLeaseLost(id);
    return { added, seen: uids.length, deleted, uidValidityChanged: changed };
  } catch (e) {
    client?.close();
    client = undefined;
    // The mailbox another sync holds now (or a file the housekeeping took): this sync stops and
    // writes nothing on the mailbox; the next one goes on from the last batch kept.
    if (e instanceof SyncLeaseLost || e instanceof PendingFileGone) {
      app.log.warn({ mailbox: id, holder: lease.holder, err: { message: e.message } }, 'mailbox sync stopped');
      return null;
    }
    const step = e instanceof MailStepError ? e.step : 'other';
    // The step only: a server's words may quote what it was sent, never kept where staff read them.
    await app.db
      .update(mailboxes)
      .set({ lastSyncOn: new Date(), lastSyncError: step })
      .where(and(eq(mailboxes.id, id), eq(mailboxes.syncHeldBy, lease.holder)));
    app.log.warn({ mailbox: id, step, err: { message: (e as Error).message } }, 'mailbox sync failed');
    return { added: 0, seen: 0, deleted: 0, uidValidityChanged: false };
  } finally {
    if (client) await client.logout().catch(() => client!.close());
    const heldTo = await lease.release();
    app.log.debug({ mailbox: id, holder: lease.holder, heldFrom: lease.since, heldTo, added }, 'mailbox sync lease given back');
  }
}

/** Every active mailbox, one after the other (the recurring job). */
export async function syncAllMailboxes(app: FastifyInstance, signal?: AbortSignal): Promise<void> {
  const rows = await app.db.select({ id: mailboxes.id }).from(mailboxes).where(eq(mailboxes.active, true)).orderBy(mailboxes.id);
  for (const r of rows) {
    if (signal?.aborted) return;
    await syncMailbox(app, r.id, signal);
  }
}
