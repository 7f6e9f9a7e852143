import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { mailboxes, TMailAddressJson } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { openSecret, secretKey } from '../../lib/secret-box.ts';
import { connectImap, smtpTransport } from './mail-connection.ts';
import { imapSettingsOf } from './mail-sync.ts';

type Box = typeof mailboxes.$inferSelect;
const fmt = (a: TMailAddressJson) => (a.name ? { name: a.name, address: a.address } : a.address);
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The text with the mailbox's signature under it, after the usual "-- " line (mail programs know it as the signature's start). */
export const withSignature = (text: string, signature: string) => (signature.trim() ? `${text.trimEnd()}\n\n-- \n${signature.trim()}\n` : `${text.trimEnd()}\n`);

/** The HTML part of a mail written as text: every character escaped (nothing the writer typed becomes markup), lines kept. */
export const htmlOfText = (text: string) =>
  `<!doctype html><html><body><div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;white-space:pre-wrap">${escapeHtml(text)}</div></body></html>`;

/** The mailbox may send: an SMTP server is set and the key to open its password is there. */
export function requireSmtp(app: FastifyInstance, box: Box): Buffer {
  if (!box.smtpHost || !box.smtpPort) throw new AppError(409, 'mailbox.noSmtp');
  const key = secretKey(app.config);
  if (!key) throw new AppError(409, 'mailbox.noSecretKey');
  return key;
}

export type TOutgoing = { to: TMailAddressJson[]; cc: TMailAddressJson[]; subject: string; text: string; inReplyTo?: string; references?: string };

/**
 * A mail from the mailbox over its SMTP server, as text and as (escaped) HTML with the mailbox's
 * signature under both. Answers the message as sent (for the Sent folder), its Message-ID and date,
 * and the text as kept. A refusal is a 502 naming the step (sign-in or send), never the server's words.
 */
export async function sendFromMailbox(app: FastifyInstance, box: Box, out: TOutgoing) {
  const key = requireSmtp(app, box);
  const own = box.address.toLowerCase();
  const messageId = `<${randomBytes(12).toString('hex')}@${own.split('@')[1] ?? 'crm.invalid'}>`;
  const text = withSignature(out.text, box.signature);
  const sentOn = new Date();
  const raw = await new MailComposer({
    from: { name: box.name, address: box.address },
    to: out.to.map(fmt),
    cc: out.cc.map(fmt),
    subject: out.subject,
    text,
    html: htmlOfText(text),
    messageId,
    ...(out.inReplyTo ? { inReplyTo: out.inReplyTo, references: out.references } : {}),
    date: sentOn,
  })
    .compile()
    .build();
  const transport = smtpTransport({ host: box.smtpHost!, port: box.smtpPort!, tls: box.smtpTls, user: box.smtpUser, password: box.smtpPassword ? openSecret(key, box.smtpPassword) : null });
  try {
    await transport.sendMail({ envelope: { from: box.address, to: [...out.to, ...out.cc].map((a) => a.address) }, raw });
  } catch (e) {
    const err = e as { code?: string; responseCode?: number };
    app.log.warn({ mailbox: box.id, err: { code: err.code, responseCode: err.responseCode } }, 'a mail was not sent');
    throw new AppError(502, err.code === 'EAUTH' ? 'mailbox.step.signIn' : 'mailbox.step.send');
  } finally {
    transport.close();
  }
  return { raw, messageId, sentOn, text };
}

/** The sent mail in the folder the server marks \Sent, when there is one (a failure is logged, the mail is sent all the same). */
export async function appendToSent(app: FastifyInstance, box: Box, raw: Buffer): Promise<void> {
  try {
    const client = await connectImap(imapSettingsOf(app, box));
    try {
      const sent = (await client.list()).find((f) => f.specialUse === '\\Sent');
      if (sent) await client.append(sent.path, raw, ['\\Seen']);
    } finally {
      await client.logout().catch(() => client.close());
    }
  } catch (err) {
    app.log.warn({ mailbox: box.id, err: { message: (err as Error).message } }, 'a mail was sent but not put in the Sent folder');
  }
}
