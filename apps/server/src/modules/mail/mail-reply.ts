import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { TMailReply, TMailRow } from '@crm/contract';
import { mailboxes, mailMessages, type TMailAddressJson } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { openSecret, secretKey } from '../../lib/secret-box.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { connectImap, smtpTransport } from './mail-connection.ts';
import { imapSettingsOf } from './mail-sync.ts';
import { linkMessage } from './mail-store.ts';
import { readMailRow, visibleTo } from './mail.service.ts';

const quoted = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
const fmt = (a: TMailAddressJson) => (a.name ? { name: a.name, address: a.address } : a.address);

/**
 * POST /api/mail/{id}/reply: a reply (or a reply to all) from the message's mailbox over its SMTP
 * server, threaded (In-Reply-To, References), its text above the quoted original. Once sent it is
 * kept as the mailbox's own message on the same records as the original (and any the reply names),
 * and appended to the mailbox's Sent folder when the server marks one. Logged.
 */
export async function replyToMail(app: FastifyInstance, caller: { user: SessionUser; actor: Actor }, id: number, body: TMailReply): Promise<TMailRow> {
  const res = await app.db.execute(sql`select m.id from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = ${id} and ${visibleTo(caller.user)}`);
  if (!res.rows.length) throw notFound('mailbox.messageNotFound');
  const [original] = await app.db.select().from(mailMessages).where(eq(mailMessages.id, id));
  const [box] = await app.db.select().from(mailboxes).where(eq(mailboxes.id, original!.mailboxId));
  if (!box!.smtpHost || !box!.smtpPort) throw new AppError(409, 'mailbox.noSmtp');
  const key = secretKey(app.config);
  if (!key) throw new AppError(409, 'mailbox.noSecretKey');
  const m = original!;
  const own = box!.address.toLowerCase();
  const to = m.from && m.from.address !== own ? [m.from] : m.to.filter((a) => a.address !== own);
  const cc = body.all ? [...m.to, ...m.cc].filter((a) => a.address !== own && !to.some((x) => x.address === a.address)) : [];
  if (!to.length) throw new AppError(409, 'mailbox.noRecipient');
  const subject = /^(re|σχετ|отв)\s*:/i.test(m.subject) ? m.subject : `Re: ${m.subject}`;
  const references = [m.references, m.messageId].filter(Boolean).join(' ').trim();
  const domain = own.split('@')[1] ?? 'crm.invalid';
  const messageId = `<${randomBytes(12).toString('hex')}@${domain}>`;
  const text = `${body.text.trim()}\n\n${quoted(m.text)}\n`;
  const sentOn = new Date();
  const raw = await new MailComposer({
    from: { name: box!.name, address: box!.address },
    to: to.map(fmt),
    cc: cc.map(fmt),
    subject,
    text,
    messageId,
    inReplyTo: m.messageId,
    references,
    date: sentOn,
  })
    .compile()
    .build();
  const transport = smtpTransport({ host: box!.smtpHost, port: box!.smtpPort, tls: box!.smtpTls, user: box!.smtpUser, password: box!.smtpPassword ? openSecret(key, box!.smtpPassword) : null });
  try {
    await transport.sendMail({ envelope: { from: box!.address, to: [...to, ...cc].map((a) => a.address) }, raw });
  } catch (e) {
    const err = e as { code?: string; responseCode?: number };
    app.log.warn({ mailbox: box!.id, err: { code: err.code, responseCode: err.responseCode } }, 'a reply was not sent');
    throw new AppError(502, err.code === 'EAUTH' ? 'mailbox.step.signIn' : 'mailbox.step.send');
  } finally {
    transport.close();
  }
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
        sentOn,
        headers: { 'in-reply-to': m.messageId, references },
        text,
      })
      .returning({ id: mailMessages.id });
    await tx.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) select ${row!.id}, account_id, ${sentOn.toISOString()}::timestamptz from mail_message_accounts where message_id = ${id} on conflict do nothing`);
    await tx.execute(sql`insert into mail_message_objects (message_id, object_id, sent_on) select ${row!.id}, object_id, ${sentOn.toISOString()}::timestamptz from mail_message_objects where message_id = ${id} on conflict do nothing`);
    await linkMessage(tx, row!.id, { sentOn, emails: [...to, ...cc].map((a) => a.address), subject, text: body.text });
    await logAction(tx, caller.actor, { action: 'Reply', entity: 'Mailbox', entityId: box!.id, message: subject, data: { to: to.map((a) => a.address), cc: cc.map((a) => a.address), inReplyTo: m.messageId } });
    return row!.id;
  });
  await appendToSent(app, box!, raw).catch((err: unknown) => app.log.warn({ mailbox: box!.id, err: { message: (err as Error).message } }, 'a reply was sent but not put in the Sent folder'));
  return readMailRow(app, sentId);
}

/** The sent reply in the folder the server marks \Sent, when there is one. */
async function appendToSent(app: FastifyInstance, box: typeof mailboxes.$inferSelect, raw: Buffer) {
  const client = await connectImap(imapSettingsOf(app, box));
  try {
    const sent = (await client.list()).find((f) => f.specialUse === '\\Sent');
    if (sent) await client.append(sent.path, raw, ['\\Seen']);
  } finally {
    await client.logout().catch(() => client.close());
  }
}
