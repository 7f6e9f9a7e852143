import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { TMailReply, TMailRow } from '@crm/contract';
import { mailboxes, mailMessages, type TMailAddressJson } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { appendToSent, requireSmtp, sendFromMailbox } from './mail-send.ts';
import { simpleParser } from 'mailparser';
import { addresses, linkMessage } from './mail-store.ts';
import { readMailRow, visibleTo } from './mail.service.ts';

const quoted = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');

/**
 * The message's Reply-To as the sync parsed it (0104, decision 095); a message stored before then
 * (null) has it read from the header text it kept.
 */
async function replyToOf(m: { replyTo: TMailAddressJson[] | null; headers: Record<string, string> }): Promise<TMailAddressJson[]> {
  if (m.replyTo) return m.replyTo;
  const header = m.headers['reply-to'];
  return header ? addresses((await simpleParser(`Reply-To: ${header}\r\n\r\n`)).replyTo) : [];
}

/**
 * POST /api/mail/{id}/reply: a reply (or a reply to all) from the message's mailbox over its SMTP
 * server, to the original's Reply-To when it has one (else its sender), threaded (In-Reply-To, References), its text above the quoted original. Once sent it is
 * kept as the mailbox's own message on the same records as the original (its accounts, properties and
 * leads, and any the reply names),
 * and appended to the mailbox's Sent folder when the server marks one. Logged.
 */
export async function replyToMail(app: FastifyInstance, caller: { user: SessionUser; actor: Actor }, id: number, body: TMailReply): Promise<TMailRow> {
  const res = await app.db.execute(sql`select m.id from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = ${id} and ${visibleTo(caller.user)}`);
  if (!res.rows.length) throw notFound('mailbox.messageNotFound');
  const [original] = await app.db.select().from(mailMessages).where(eq(mailMessages.id, id));
  const [box] = await app.db.select().from(mailboxes).where(eq(mailboxes.id, original!.mailboxId));
  requireSmtp(app, box!);
  const m = original!;
  const own = box!.address.toLowerCase();
  // Where the sender asked for answers (Reply-To: a portal's notice names the enquirer there), else to the sender.
  const replyTo = (await replyToOf(m)).filter((a) => a.address !== own);
  const to = m.from && m.from.address !== own ? (replyTo.length ? replyTo : [m.from]) : m.to.filter((a) => a.address !== own);
  const cc = body.all ? [...m.to, ...m.cc].filter((a) => a.address !== own && !to.some((x) => x.address === a.address)) : [];
  if (!to.length) throw new AppError(409, 'mailbox.noRecipient');
  const subject = /^(re|σχετ|отв)\s*:/i.test(m.subject) ? m.subject : `Re: ${m.subject}`;
  const references = [m.references, m.messageId].filter(Boolean).join(' ').trim();
  const { raw, messageId, sentOn, text } = await sendFromMailbox(app, box!, { to, cc, subject, text: `${body.text.trim()}\n\n${quoted(m.text)}`, inReplyTo: m.messageId, references });
  const sentId = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mailMessages)
      .values({
        mailboxId: box!.id,
        messageId,
        inReplyTo: m.messageId,
        references,
        subject,
        from: { address: own, name: box!.name },
        to,
        cc,
        replyTo: [],
        sentOn,
        headers: { 'in-reply-to': m.messageId, references },
        text,
      })
      .returning({ id: mailMessages.id });
    await tx.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) select ${row!.id}, account_id, ${sentOn.toISOString()}::timestamptz from mail_message_accounts where message_id = ${id} on conflict do nothing`);
    await tx.execute(sql`insert into mail_message_objects (message_id, object_id, sent_on) select ${row!.id}, object_id, ${sentOn.toISOString()}::timestamptz from mail_message_objects where message_id = ${id} on conflict do nothing`);
    await tx.execute(sql`insert into mail_message_leads (message_id, lead_id, sent_on) select ${row!.id}, lead_id, ${sentOn.toISOString()}::timestamptz from mail_message_leads where message_id = ${id} on conflict do nothing`);
    await linkMessage(tx, row!.id, { sentOn, emails: [...to, ...cc].map((a) => a.address), subject, text: body.text });
    await logAction(tx, caller.actor, { action: 'Reply', entity: 'Mailbox', entityId: box!.id, message: subject, data: { to: to.map((a) => a.address), cc: cc.map((a) => a.address), inReplyTo: m.messageId } });
    return row!.id;
  });
  await appendToSent(app, box!, raw);
  return readMailRow(app, sentId);
}

