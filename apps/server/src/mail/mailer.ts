import fs from 'node:fs';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';

/** An attachment kept as plain data (the mail job stores the mail as JSON); `cid` shows it inline. */
export type MailAttachment = { filename: string; contentType: string; contentBase64: string; cid?: string };
/** `fromName`: the name the reader sees as the sender (the agency's); the address is MAIL_FROM's. */
export type Mail = { to: string; subject: string; text: string; html?: string; fromName?: string; attachments?: MailAttachment[] };
/** `tx`: the app's (queued) mailer sends the mail only if that transaction commits; a transport ignores it. */
export type Mailer = { send: (mail: Mail, o?: { tx?: Tx | Db }) => Promise<{ file?: string; jobId?: number }>; describe: string };

/**
 * The mail library is loaded with the first mail, not with the app (it costs 0.3-0.4 s of start-up,
 * and most starts, and most test files, send none).
 */
function lazyTransport(make: (nodemailer: (typeof import('nodemailer'))['default']) => Transporter): () => Promise<Transporter> {
  let made: Promise<Transporter> | undefined;
  return () => (made ??= import('nodemailer').then((m) => make(m.default)));
}

/** The address of MAIL_FROM ("Agency CRM <crm@agency.gr>" or a bare address). */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();

/** What nodemailer is given for a mail: the sender's name, both parts and the attachments as buffers. */
function message(from: string, mail: Mail) {
  const { fromName, attachments, ...rest } = mail;
  return {
    ...rest,
    from: fromName ? { name: fromName, address: addressOf(from) } : from,
    ...(attachments?.length
      ? { attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.contentBase64, 'base64'), ...(a.cid ? { cid: a.cid, contentDisposition: 'inline' as const } : {}) })) }
      : {}),
  };
}

/** The outbox's sequence of mails written by this process (part of each file's name). */
let outboxSeq = 0;

/**
 * SMTP when SMTP_URL is set; otherwise every mail is written as an .eml file to
 * DATA_DIR/outbox (open it with any mail program) and its path is logged. Nothing is dropped.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    const transport = lazyTransport((nodemailer) => nodemailer.createTransport(smtpUrl));
    return {
      describe: `SMTP ${new URL(opts.smtpUrl).host}`,
      async send(mail) {
        await (await transport()).sendMail(message(opts.from, mail));
        opts.log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
        return {};
      },
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    describe: `file outbox ${outbox}`,
    async send(mail) {
      const info = await (await transport()).sendMail(message(opts.from, mail));
      // Mails hold reset links and personal data: the owner alone reads them, even in a folder made earlier.
      fs.mkdirSync(outbox, { recursive: true, mode: 0o700 });
      fs.chmodSync(outbox, 0o700);
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      // Two mails to one address in one millisecond (two reset mails sent at once) are two files: the
      // name holds a sequence number after the time (names still sort oldest first), and a name taken
      // already (another process on the same folder) is never written over.
      for (let attempt = 0; ; attempt++) {
        const seq = String(++outboxSeq % 1_000_000).padStart(6, '0');
        const extra = attempt ? `-${process.pid}-${attempt}` : '';
        const file = path.join(outbox, `${stamp}-${seq}${extra}-${safeTo}.eml`);
        try {
          fs.writeFileSync(file, info.message as Buffer, { mode: 0o600, flag: 'wx' });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 20) continue;
          throw err;
        }
        opts.log.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox');
        return { file };
      }
    },
  };
}
