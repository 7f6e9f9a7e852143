import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TMailMessage, TMailRow, ZMailListQuery } from '@crm/contract';
import { toLocalDateTime } from '../../lib/dates.ts';
import { notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { sendStoredFile } from '../files/files.service.ts';
import { INLINE_MIMES } from '../files/file-types.ts';
import { isOfficeAdmin } from './mailboxes.service.ts';
import { signatureContact } from './mail-signature.ts';

/** Mail a reader may see: the shared mailboxes', their own mailbox's, and an office admin every one's. */
export const visibleTo = (user: SessionUser) => (isOfficeAdmin(user) ? sql`true` : sql`(mb.owner_id is null or mb.owner_id = ${user.id})`);

type Raw = {
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

function rowOf(app: FastifyInstance, r: Raw): TMailRow {
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

/**
 * GET /api/mail: one account's or one property's mail (or the enquiry mail a lead was made from),
 * newest first (the undated last), paged in SQL: the page is read in the links' date index order
 * (0085), and the total counts the links whose message is not marked deleted (decision 090), the
 * mailboxes looked at only when the reader does not see every one (an account of 2,000 messages,
 * npm run bench).
 */
export async function listMail(app: FastifyInstance, user: SessionUser, q: z.output<typeof ZMailListQuery>): Promise<{ items: TMailRow[]; totalRows: number }> {
  const links =
    q.accountId != null
      ? sql`(select message_id from mail_message_accounts where account_id = ${q.accountId}) l`
      : q.leadId != null
        ? sql`(select mail_message_id as message_id from mail_enquiries where lead_id = ${q.leadId}) l`
        : sql`(select message_id from mail_message_objects where object_id = ${q.objectId!}) l`;
  const link =
    q.accountId != null
      ? sql`mail_message_accounts l on l.message_id = m.id and l.account_id = ${q.accountId}`
      : q.leadId != null
        ? sql`mail_enquiries l on l.mail_message_id = m.id and l.lead_id = ${q.leadId}`
        : sql`mail_message_objects l on l.message_id = m.id and l.object_id = ${q.objectId!}`;
  const tie = q.leadId != null && q.accountId == null ? sql`l.mail_message_id` : sql`l.message_id`;
  const offset = (q.currentPage - 1) * q.perPage;
  const [count, page] = await Promise.all([
    app.db.execute(sql`select count(*)::int as n from ${links} join mail_messages m on m.id = l.message_id and m.deleted_on is null
      where (not exists (select 1 from mailboxes mb where not (${visibleTo(user)}))
        or exists (select 1 from mailboxes mb where mb.id = m.mailbox_id and ${visibleTo(user)}))`),
    app.db.execute(sql`select m.id, m.mailbox_id, mb.name as mailbox, m.subject, m."from", m."to", m.cc, m.sent_on, left(m.text, 200) as snippet, ${attachmentsOf} as attachments
      from mail_messages m join ${link} join mailboxes mb on mb.id = m.mailbox_id
      where ${visibleTo(user)} and m.deleted_on is null
      order by l.sent_on desc nulls last, ${tie} desc limit ${q.perPage} offset ${offset}`),
  ]);
  return { totalRows: (count.rows[0] as { n: number }).n, items: (page.rows as Raw[]).map((r) => rowOf(app, r)) };
}

/** GET /api/mail/{id}: one message, its HTML sanitised when it was stored. */
export async function viewMail(app: FastifyInstance, user: SessionUser, id: number): Promise<TMailMessage> {
  const res = await app.db.execute(sql`select m.id, m.mailbox_id, mb.name as mailbox, m.subject, m."from", m."to", m.cc, m.sent_on, left(m.text, 200) as snippet, ${attachmentsOf} as attachments,
      m.text, m.html, m.remote_images, m.message_id
    from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = ${id} and ${visibleTo(user)}`);
  const r = res.rows[0] as (Raw & { text: string; html: string | null; remote_images: number; message_id: string }) | undefined;
  if (!r) throw notFound('mailbox.messageNotFound');
  return { ...rowOf(app, r), text: r.text, html: r.html, remoteImages: r.remote_images, messageId: r.message_id, newContact: await newContactOf(app, r.from, r.text) };
}

/** The sender as a "new contact?" (decision 089): only when no account has the address and it is not one of the mailboxes'. */
async function newContactOf(app: FastifyInstance, from: TMailRow['from'], text: string): Promise<TMailMessage['newContact']> {
  const address = from?.address?.trim().toLowerCase();
  if (!address) return null;
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
  const res = await app.db.execute(sql`select m.id, m.mailbox_id, mb.name as mailbox, m.subject, m."from", m."to", m.cc, m.sent_on, left(m.text, 200) as snippet, ${attachmentsOf} as attachments
    from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = ${id}`);
  return rowOf(app, res.rows[0] as Raw);
}
