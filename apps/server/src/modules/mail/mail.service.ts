import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { DEAL_RELATION, type TMailMessage, type TMailRow, type ZMailListQuery } from '@crm/contract';
import { toLocalDateTime } from '../../lib/dates.ts';
import { notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { sendStoredFile } from '../files/files.service.ts';
import { INLINE_MIMES } from '../files/file-types.ts';
import { isOfficeAdmin } from './mailboxes.service.ts';
import { signatureContact } from './mail-signature.ts';
import { PORTAL_DOMAINS } from './enquiries/index.ts';
import { fromDomain } from './enquiries/read.ts';
import { WAITING_MESSAGES_LOOKED_UP } from './mail-counts.ts';

/** Mail a reader may see: the shared mailboxes', their own mailbox's, and an office admin every one's. */
export const visibleTo = (user: SessionUser) => (isOfficeAdmin(user) ? sql`true` : sql`(mb.owner_id is null or mb.owner_id = ${user.id})`);

export type TMailRaw = {
  id: number;
  mailbox_id: number;
  mailbox: string;
  subject: string;
  from: TMailRow['from'];
  to: TMailRow['to'];
  cc: TMailRow['cc'];
  sent_on: Date | string | null;
  snippet: string;
  attachments: TMailRow['attachments'] | null;
};
const attachmentsOf = sql`(select coalesce(json_agg(json_build_object('id', a.id, 'name', a.user_name, 'mime', a.mime, 'size', a.size) order by a.id), '[]'::json) from mail_attachments a where a.message_id = m.id)`;

export function rowOf(app: FastifyInstance, r: TMailRaw): TMailRow {
  return {
    id: r.id,
    mailboxId: r.mailbox_id,
    mailbox: r.mailbox,
    subject: r.subject,
    from: r.from,
    to: r.to ?? [],
    cc: r.cc ?? [],
    date: toLocalDateTime(r.sent_on ? new Date(r.sent_on) : null, app.config.timeZone),
    snippet: r.snippet.replace(/\s+/g, ' ').trim(),
    attachments: r.attachments ?? [],
  };
}

/** One record whose thread is read: an account's, a property's, a lead's, a deal's (or the enquiry mail a lead was made from). */
export type TThreadOf = { accountId?: number; objectId?: number; leadId?: number; dealId?: number; enquiryOf?: number };

/** The link table and the one record's rows in it a list reads (the enquiry a lead was made from: mail_enquiries). */
function linksOf(q: TThreadOf) {
  if (q.accountId != null) return { table: sql`mail_message_accounts`, id: sql`message_id`, where: sql`account_id = ${q.accountId}` };
  if (q.objectId != null) return { table: sql`mail_message_objects`, id: sql`message_id`, where: sql`object_id = ${q.objectId}` };
  if (q.leadId != null) return { table: sql`mail_message_leads`, id: sql`message_id`, where: sql`lead_id = ${q.leadId}` };
  return { table: sql`mail_enquiries`, id: sql`mail_message_id`, where: sql`lead_id = ${q.enquiryOf!}` };
}

/** A message's columns as a record's mail list reads them (m: mail_messages, mb: its mailbox). */
export const mailColumns = sql`m.id, m.mailbox_id, mb.name as mailbox, m.subject, m."from", m."to", m.cc, m.sent_on, left(m.text, 200) as snippet, ${attachmentsOf} as attachments`;

/**
 * One link table's messages of one record that the reader sees and are not marked deleted (decision
 * 090), as (message_id, sent_on), read in the links' date index order (0085, 0097) only as far as
 * `limit` (an empty one: all); `match` narrows on the message (m).
 */
const seenLinks = (user: SessionUser, l: ReturnType<typeof linksOf>, limit: SQL | null, match: SQL) => sql`(select l.${l.id} as message_id, l.sent_on from ${l.table} l
      join mail_messages m on m.id = l.${l.id} and m.deleted_on is null join mailboxes mb on mb.id = m.mailbox_id and ${visibleTo(user)}
      where l.${l.where} and ${match}${limit ? sql` order by l.sent_on desc nulls last, l.${l.id} desc ${limit}` : sql``})`;

/**
 * A deal's mail: its sellers' and buyers' and its property's threads together (not its lawyer's,
 * notary's or agent's: they write about every deal they are in). Each party's and the property's
 * links are read in their date index's order, each only as far as `limit`, then merged once per
 * message; so a deal whose parties have thousands of messages reads a page's worth of each.
 */
const dealParts = (user: SessionUser, dealId: number, limit: SQL | null, match: SQL) => sql`select x.message_id, x.sent_on from deal_parties p
      cross join lateral ${seenLinks(user, { table: sql`mail_message_accounts`, id: sql`message_id`, where: sql`account_id = p.account_id` }, limit, match)} x
      where p.deal_id = ${dealId} and p.relation in (${DEAL_RELATION.seller}, ${DEAL_RELATION.buyer})
      union select y.message_id, y.sent_on from deals d
      cross join lateral ${seenLinks(user, { table: sql`mail_message_objects`, id: sql`message_id`, where: sql`object_id = d.object_id` }, limit, match)} y where d.id = ${dealId}`;

/**
 * A record's thread as its mail list reads it, and a record's timeline (mail-timeline.ts) with it:
 * (message_id, sent_on) of the messages the reader may see, once each, each source read only as far
 * as `limit` (newest first; null: all, in no order); `match` narrows on the message (m).
 */
export function threadOf(user: SessionUser, q: TThreadOf, limit: SQL | null, match: SQL = sql`true`): SQL {
  if (q.dealId != null) return sql`select message_id, max(sent_on) as sent_on from (${dealParts(user, q.dealId, limit, match)}) v group by message_id`;
  return sql`select s.message_id, s.sent_on from ${seenLinks(user, linksOf(q), limit, match)} s`;
}

/** The kind a record's mail is counted ahead under (0112, 0127, decision 105), by the link table it is read from (a deal: its parties' and property's). */
function countedAs(q: TThreadOf): { kind: number; id: number } | null {
  if (q.accountId != null) return { kind: 0, id: q.accountId };
  if (q.objectId != null) return { kind: 1, id: q.objectId };
  if (q.leadId != null) return { kind: 2, id: q.leadId };
  if (q.dealId != null) return { kind: 4, id: q.dealId };
  return null;
}

/**
 * What a record's kept count waits for, as two conditions: a change to the record itself (`record`;
 * a deal's: its own, or one to a seller's, buyer's or its property's links), and a waiting message
 * `w.id` among its links (a deal's: its sellers', buyers' or property's).
 */
function waitsOf(c: { kind: number; id: number }, q: TThreadOf): { record: SQL; message: SQL } {
  if (c.kind !== 4) {
    const l = linksOf(q);
    return {
      record: sql`exists (select 1 from mail_count_changes x where x.kind = ${c.kind} and x.id = ${c.id})`,
      message: sql`exists (select 1 from ${l.table} l where l.${l.where} and l.${l.id} = w.id offset 0)`,
    };
  }
  const parties = sql`select p.account_id from deal_parties p where p.deal_id = ${c.id} and p.relation in (${DEAL_RELATION.seller}, ${DEAL_RELATION.buyer})`;
  const object = sql`select d.object_id from deals d where d.id = ${c.id}`;
  return {
    record: sql`(exists (select 1 from mail_count_changes x where x.kind = 4 and x.id = ${c.id})
        or exists (select 1 from mail_count_changes x where x.kind = 0 and x.id in (${parties}))
        or exists (select 1 from mail_count_changes x where x.kind = 1 and x.id = (${object})))`,
    message: sql`(exists (select 1 from mail_message_accounts l where l.message_id = w.id and l.account_id in (${parties}) offset 0)
        or exists (select 1 from mail_message_objects l where l.message_id = w.id and l.object_id = (${object}) offset 0))`,
  };
}

/** The statement keptCount runs (one row: waits, n), to be read alone or inside another; null for the enquiry a lead was made from. */
export function keptCountOf(user: SessionUser, q: TThreadOf): SQL | null {
  const c = countedAs(q);
  if (!c) return null;
  const waits = waitsOf(c, q);
  return sql`with w as (select x.id from mail_count_changes x where x.kind = 3 limit ${WAITING_MESSAGES_LOOKED_UP + 1})
    select s.waits, case when s.waits is null then
        (select coalesce(sum(k.n), 0)::int from mail_counts k join mailboxes mb on mb.id = k.mailbox_id and ${visibleTo(user)} where k.kind = ${c.kind} and k.record_id = ${c.id}) end as n
    from (select case when ${waits.record} then 'record'
        when (select count(*) from w) > ${WAITING_MESSAGES_LOOKED_UP} then 'backlog'
        when exists (select 1 from w where ${waits.message}) then 'message' end as waits) s`;
}

/**
 * An account's, property's or lead's thread as counted ahead (decision 105): the kept counts of the
 * mailboxes the reader sees; n null while a change waits for the fold (then it is counted on the
 * spot): one to the record's links (`record`), one of its messages marked deleted, shown again or
 * moved (`message`), or more such messages of any record than are looked up one by one (`backlog`).
 * Each waiting message is looked up by key among the record's links (`offset 0`: see decision 105).
 */
export async function keptCount(
  app: FastifyInstance,
  user: SessionUser,
  q: TThreadOf,
): Promise<{ n: number | null; waits: 'record' | 'message' | 'backlog' | null } | null> {
  const c = countedAs(q);
  if (!c) return null;
  const res = await app.db.execute(keptCountOf(user, q)!);
  return res.rows[0] as { n: number | null; waits: 'record' | 'message' | 'backlog' | null };
}

/**
 * How many messages a record's thread holds for the reader (`match`: of those). An account's,
 * property's, lead's or deal's, unfiltered, is read from the counts kept ahead (decision 105) when no
 * change to it waits to be folded; otherwise, and filtered, its links whose message is not marked
 * deleted are counted, the mailboxes looked at only when the reader does not see every one; a deal's
 * counts its distinct messages.
 */
export async function countThread(app: FastifyInstance, user: SessionUser, q: TThreadOf, match?: SQL): Promise<number> {
  if (!match) {
    const kept = await keptCount(app, user, q);
    if (kept?.n != null) return kept.n;
  }
  return countOnTheSpot(app, user, q, match ?? sql`true`);
}

/** A record's thread counted message by message: filtered, the enquiry a lead was made from, or while a change to it waits to be folded. */
export async function countOnTheSpot(app: FastifyInstance, user: SessionUser, q: TThreadOf, match: SQL = sql`true`): Promise<number> {
  const res = await app.db.execute(onTheSpotCountOf(user, q, match));
  return (res.rows[0] as { n: number }).n;
}

/** The statement countOnTheSpot runs (one row: n), to be read alone or inside another. */
export function onTheSpotCountOf(user: SessionUser, q: TThreadOf, match: SQL = sql`true`): SQL {
  const l = linksOf(q);
  return q.dealId != null
    ? sql`select count(*)::int as n from (${threadOf(user, q, null, match)}) u`
    : sql`select count(*)::int as n from (select ${l.id} as message_id from ${l.table} where ${l.where}) l join mail_messages m on m.id = l.message_id and m.deleted_on is null
      where ${match} and (not exists (select 1 from mailboxes mb where not (${visibleTo(user)}))
        or exists (select 1 from mailboxes mb where mb.id = m.mailbox_id and ${visibleTo(user)}))`;
}

/** The job `mail.countsFold`: counts again the records whose mail changed (decision 105). */
export async function foldMailCounts(app: FastifyInstance): Promise<void> {
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`select crm_mail_counts_fold()`);
  });
}

/** Answers 404 for a deal that is not there (its thread reads its parties and property). */
export async function checkDeal(app: FastifyInstance, dealId: number) {
  const exists = await app.db.execute(sql`select 1 from deals where id = ${dealId}`);
  if (!exists.rows.length) throw notFound();
}

/** Messages by id as a record's list shows them, in no order. */
export async function mailRowsByIds(app: FastifyInstance, ids: number[]): Promise<TMailRow[]> {
  if (!ids.length) return [];
  const res = await app.db.execute(sql`select ${mailColumns} from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = any(${sql.param(ids)}::int[])`);
  return (res.rows as TMailRaw[]).map((r) => rowOf(app, r));
}

/**
 * GET /api/mail: one account's, one property's or one lead's mail (or the enquiry mail a lead was
 * made from), or a deal's, newest first (the undated last), paged in SQL: the page is read in the
 * links' date index order; the total as countThread counts it.
 */
export async function listMail(app: FastifyInstance, user: SessionUser, q: z.output<typeof ZMailListQuery>): Promise<{ items: TMailRow[]; totalRows: number }> {
  const offset = (q.currentPage - 1) * q.perPage;
  if (q.dealId != null) await checkDeal(app, q.dealId);
  const [count, page] = await Promise.all([
    countThread(app, user, q),
    app.db.execute(sql`with u as (${threadOf(user, q, sql`limit ${offset + q.perPage}`)} order by sent_on desc nulls last, message_id desc limit ${q.perPage} offset ${offset})
      select ${mailColumns} from u join mail_messages m on m.id = u.message_id join mailboxes mb on mb.id = m.mailbox_id
      order by u.sent_on desc nulls last, u.message_id desc`),
  ]);
  return { totalRows: count, items: (page.rows as TMailRaw[]).map((r) => rowOf(app, r)) };
}

/** GET /api/mail/{id}: one message, its HTML sanitised when it was stored. */
export async function viewMail(app: FastifyInstance, user: SessionUser, id: number): Promise<TMailMessage> {
  const res = await app.db.execute(sql`select m.id, m.mailbox_id, mb.name as mailbox, m.subject, m."from", m."to", m.cc, m.sent_on, left(m.text, 200) as snippet, ${attachmentsOf} as attachments,
      m.text, m.html, m.remote_images, m.message_id
    from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = ${id} and ${visibleTo(user)}`);
  const r = res.rows[0] as (TMailRaw & { text: string; html: string | null; remote_images: number; message_id: string }) | undefined;
  if (!r) throw notFound('mailbox.messageNotFound');
  return { ...rowOf(app, r), text: r.text, html: r.html, remoteImages: r.remote_images, messageId: r.message_id, newContact: await newContactOf(app, r.from, r.text) };
}

/** Addresses that are no person: a no-reply sender, a server's notices. */
const NOT_A_PERSON = /^(?:no-?reply|do-?not-?reply|mailer-daemon|postmaster|bounces?)(?:[+._-][^@]*)?@/i;

/**
 * The sender as a "new contact?" (decision 089): only when no account has the address and it is not
 * one of the mailboxes', a no-reply address nor a portal's (a portal's notice carries the enquirer's
 * phone, not its own: the enquiry made the client already, decision 082).
 */
async function newContactOf(app: FastifyInstance, from: TMailRow['from'], text: string): Promise<TMailMessage['newContact']> {
  const address = from?.address?.trim().toLowerCase();
  if (!address || NOT_A_PERSON.test(address) || Object.values(PORTAL_DOMAINS).some((d) => fromDomain(address, d))) return null;
  const known = await app.db.execute(sql`select 1 where exists (select 1 from accounts a where public.crm_lower_emails(a.emails) && array[${address}]::text[])
    or exists (select 1 from mailboxes where lower(address) = ${address})`);
  if (known.rows.length) return null;
  return { address, ...signatureContact({ fromName: from?.name, text }) };
}

/** GET /api/mail/attachment/{id}/{name}: an attachment as a download (a picture or a PDF opens in the browser). */
export async function sendAttachment(app: FastifyInstance, user: SessionUser, id: number, reply: FastifyReply) {
  const res = await app.db.execute(sql`select a.system_name, a.user_name, a.mime, a.size from mail_attachments a
    join mail_messages m on m.id = a.message_id join mailboxes mb on mb.id = m.mailbox_id where a.id = ${id} and ${visibleTo(user)}`);
  const a = res.rows[0] as { system_name: string; user_name: string; mime: string; size: number } | undefined;
  if (!a) throw notFound('mailbox.messageNotFound');
  const stream = await getFileStorage(app.config.dataDir).get(a.system_name);
  if (!stream) throw notFound('mailbox.messageNotFound');
  // The type is the sender's word: only the kinds the browser shows safely are served as themselves.
  const mime = INLINE_MIMES.has(a.mime) ? a.mime : 'application/octet-stream';
  return sendStoredFile(reply, { mime, size: a.size, userName: a.user_name }, stream, 'private, no-store');
}


/** One message as a record's list shows it (a reply just sent). */
export async function readMailRow(app: FastifyInstance, id: number): Promise<TMailRow> {
  const res = await app.db.execute(sql`select ${mailColumns} from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = ${id}`);
  return rowOf(app, res.rows[0] as TMailRaw);
}
