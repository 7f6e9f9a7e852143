import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { Db, Tx } from '../../db/client.ts';
import { mailAttachments, mailMessages, type TMailAddressJson } from '../../db/schema/index.ts';
import { writeStoredFiles } from '../../storage/pending-files.ts';
import { pausePoint } from '../../lib/pause-point.ts';
import { sanitizeMailHtml } from './mail-html.ts';
import { createAlert } from '../alerts/alerts.create.ts';
import { authResultsOf, checkSender, parseEnquiry, PORTAL_DOMAINS, type TEnquiryMail } from './enquiries/index.ts';
import { ENQUIRY_MAX_AGE_DAYS, makeEnquiryLead, portalName } from './enquiry-lead.ts';

/** A message's Message-ID as kept: the header's, else one made from its content (the same mail gives the same one). */
export const messageIdOf = (header: string | undefined | null, source: Buffer | null): string | null => {
  const id = header?.trim();
  if (id) return id.slice(0, 995);
  return source ? `<sha256.${createHash('sha256').update(source).digest('hex')}@crm.invalid>` : null;
};

export function addresses(a: AddressObject | AddressObject[] | undefined): TMailAddressJson[] {
  const out: TMailAddressJson[] = [];
  for (const o of Array.isArray(a) ? a : a ? [a] : []) {
    for (const v of o.value) {
      if (v.address) out.push({ address: v.address.toLowerCase(), name: v.name ?? '' });
      for (const g of v.group ?? []) if (g.address) out.push({ address: g.address.toLowerCase(), name: g.name ?? '' });
    }
  }
  return out;
}

/**
 * A property's reference number as people write it in mail (decision 078): "#0123", "ΚΩΔ. 0123",
 * "κωδ: 123", "Κωδικός 0123", "ref 0123", "Ref. No 0123", "αρ. αγγελίας 0123". The number stands alone
 * (no digit right before or after it).
 */
const REFERENCE = /(?:#|(?<![\p{L}\p{N}])(?:κωδ(?:ικός|ικος)?|ref(?:erence)?)\.?(?:\s*(?:no|αρ)\.?)?\s*[:.]?|(?<![\p{L}\p{N}])αρ\.?\s*αγγελίας\s*[:.]?)\s*(?<!\d)(\d{1,9})(?!\d)/giu;

export function referenceNumbers(text: string): number[] {
  const out = new Set<number>();
  for (const m of text.matchAll(REFERENCE)) {
    const n = Number(m[1]);
    if (n > 0 && n <= 2147483647) out.add(n);
  }
  return [...out];
}

/** Links a stored message to the accounts among its addresses and the properties its subject or text names. */
export async function linkMessage(tx: Tx | Db, id: number, m: { sentOn: Date | null; emails: string[]; subject: string; text: string }): Promise<void> {
  const emails = [...new Set(m.emails.map((e) => e.toLowerCase()))];
  if (emails.length) {
    await tx.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on)
      select ${id}, a.id, ${m.sentOn?.toISOString() ?? null}::timestamptz from accounts a
      where public.crm_lower_emails(a.emails) && ${sql.param(emails)}::text[]
      on conflict do nothing`);
  }
  const refs = referenceNumbers(`${m.subject}\n${m.text}`);
  if (refs.length) {
    await tx.execute(sql`insert into mail_message_objects (message_id, object_id, sent_on)
      select ${id}, o.id, ${m.sentOn?.toISOString() ?? null}::timestamptz from objects o
      where o.reference_number = any(${sql.param(refs)}::int[]) and not o.draft
      on conflict do nothing`);
  }
}

/**
 * A client's answer goes on the lead of the mail it answers (0097): a message whose In-Reply-To or
 * References names a message of a lead's thread, in any mailbox, joins that thread.
 */
export async function linkAnswerToLeads(tx: Tx | Db, id: number, sentOn: Date | null, answered: string[]): Promise<void> {
  const ids = [...new Set(answered)].filter((x) => x).slice(-50);
  if (!ids.length) return;
  await tx.execute(sql`insert into mail_message_leads (message_id, lead_id, sent_on)
    select distinct ${id}::int, l.lead_id, ${sentOn?.toISOString() ?? null}::timestamptz from mail_messages p join mail_message_leads l on l.message_id = p.id
    where p.message_id = any(${sql.param(ids)}::text[]) and p.id <> ${id}
    on conflict do nothing`);
}

/** Accounts merged: the duplicate's mail goes to the account kept (an account merge step). */
export async function moveMailLinks(tx: Tx, keptId: number, duplicateId: number) {
  await tx.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on)
    select message_id, ${keptId}, sent_on from mail_message_accounts where account_id = ${duplicateId} on conflict do nothing`);
  await tx.execute(sql`delete from mail_message_accounts where account_id = ${duplicateId}`);
}

const HEADER_MAX = 2000;
function headersOf(p: ParsedMail): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of p.headerLines) {
    const line = h.line.slice(h.line.indexOf(':') + 1).trim();
    out[h.key] = out[h.key] ? `${out[h.key]}\n${line}`.slice(0, HEADER_MAX) : line.slice(0, HEADER_MAX);
  }
  return out;
}

/**
 * A portal's enquiry among the messages just stored becomes a lead in the same transaction
 * (decision 082): stored and made into a lead together, or neither, so a crash or a second sync
 * never makes it twice (and mail_enquiries keeps it once per Message-ID across mailboxes). A
 * failure there (a savepoint) leaves the message stored as a plain thread, logged.
 */
async function leadFromEnquiry(
  app: FastifyInstance,
  tx: Tx,
  msg: { id: number; messageId: string; sentOn: Date | null },
  mail: TEnquiryMail & { html: string | null; authResults: string[] },
) {
  const enquiry = parseEnquiry(mail);
  if (!enquiry) return;
  if (msg.sentOn && Date.now() - msg.sentOn.getTime() > ENQUIRY_MAX_AGE_DAYS * 86_400_000) return;
  // Anyone can write a portal's address in From (decision 090): the receiving server's DKIM or DMARC verdict decides.
  const check = checkSender(mail.authResults, PORTAL_DOMAINS[enquiry.source], app.config.mailIn.authservId);
  if (check !== 'pass') {
    app.log.warn({ mailMessage: msg.id, source: enquiry.source, check }, 'portal enquiry failed the sender check; left as a plain message');
    const params = { portal: portalName(enquiry.source), from: mail.from ?? '' };
    await createAlert(tx, { source: params.portal, kind: 'enquiry', messageKey: 'enquiries.alert.unverified', params, content: app.translator.t('en', 'enquiries.alert.unverified', params), dedupKey: `enquiry-unverified:${msg.messageId}` });
    return;
  }
  try {
    await tx.transaction((sp) => makeEnquiryLead(app, sp, msg, enquiry));
  } catch (e) {
    app.log.error({ mailMessage: msg.id, source: enquiry.source, err: { message: (e as Error).message } }, 'portal enquiry not made into a lead');
    // Not lost: the office is told, so someone makes the lead by hand from the stored mail.
    const params = { portal: enquiry.source, name: enquiry.name };
    await createAlert(tx, { source: enquiry.source, kind: 'enquiry', messageKey: 'enquiries.alert.failed', params, content: app.translator.t('en', 'enquiries.alert.failed', params) });
  }
}

/** A sync that lost its mailbox's lease (it stalled past it and another sync took the mailbox): it stops. */
export class SyncLeaseLost extends Error {
  constructor(mailboxId: number) {
    super(`The sync of mailbox ${mailboxId} lost its lease to another`);
  }
}

const refsText = (r: string | string[] | undefined) => (Array.isArray(r) ? r.join(' ') : (r ?? null));

/**
 * Stores one message of a mailbox (parsed, its HTML sanitised, its attachments in the file store)
 * with its links, once: a message whose Message-ID the mailbox has already is not stored again
 * (its UID is brought up to date) and the attachments just written are removed. Answers whether it
 * was new.
 */
export async function storeMessage(
  app: FastifyInstance,
  mailbox: { id: number },
  source: Buffer,
  at: { uid: number | null; uidValidity: number | null; messageId: string | null; lease?: string },
): Promise<boolean> {
  const parsed = await simpleParser(source, { skipTextToHtml: true });
  const messageId = at.messageId ?? messageIdOf(parsed.messageId, source)!;
  const from = addresses(parsed.from)[0] ?? null;
  const to = addresses(parsed.to);
  const cc = addresses(parsed.cc);
  const bcc = addresses(parsed.bcc);
  const text = (parsed.text ?? '').slice(0, 1_000_000);
  const clean = parsed.html ? sanitizeMailHtml(parsed.html) : null;
  const stored: { systemName: string; userName: string; mime: string; size: number; content: Buffer }[] = [];
  for (const a of parsed.attachments) {
    if (a.related && a.contentId && parsed.html) continue; // an inline picture, already in the HTML
    if (a.size > app.config.uploadMaxBytes) continue;
    const ext = (/\.([A-Za-z0-9]{1,10})$/.exec(a.filename ?? '')?.[1] ?? 'bin').toLowerCase();
    const systemName = `${randomBytes(16).toString('hex')}.${ext}`;
    stored.push({ systemName, userName: (a.filename || `attachment.${ext}`).slice(0, 250), mime: a.contentType || 'application/octet-stream', size: a.size, content: a.content });
  }
  const names = stored.map((s) => s.systemName);
  // Named pending before they are written, claimed by the message's commit (decision 104): a
  // process killed before it commits leaves names the housekeeping finds, never a file nobody names.
  // A message already stored claims nothing: its files are removed again.
  return writeStoredFiles(app, async (files) => {
    await files.note(names);
    for (const s of stored) await files.put(s.systemName, Readable.from([s.content]));
    await pausePoint('mail.store.filesWritten');
    return files.transaction(async (tx) => {
      // A sync stores only while it holds the mailbox (its lease, held until this commits): never two syncs' messages at once.
      if (at.lease) {
        const held = await tx.execute(sql`select 1 from mailboxes where id = ${mailbox.id} and sync_held_by = ${at.lease} for share`);
        if (!held.rows.length) throw new SyncLeaseLost(mailbox.id);
      }
      const [row] = await tx
        .insert(mailMessages)
        .values({
          mailboxId: mailbox.id,
          messageId,
          uid: at.uid,
          uidValidity: at.uidValidity,
          inReplyTo: parsed.inReplyTo ?? null,
          references: refsText(parsed.references),
          subject: (parsed.subject ?? '').slice(0, 2000),
          from,
          to,
          cc,
          // Where answers are to go, parsed once here (0104, decision 095): a portal's notice names the enquirer.
          replyTo: addresses(parsed.replyTo),
          sentOn: parsed.date ?? null,
          headers: headersOf(parsed),
          text,
          html: clean?.html ?? null,
          remoteImages: clean?.remoteImages ?? 0,
        })
        .onConflictDoNothing()
        .returning({ id: mailMessages.id });
      if (!row) {
        await tx.execute(sql`update mail_messages set uid = ${at.uid}, uid_validity = ${at.uidValidity} where mailbox_id = ${mailbox.id} and message_id = ${messageId}`);
        return false;
      }
      // The files named by these rows leave the pending list in the same commit (or, taken as orphans meanwhile, nothing is stored).
      await files.claim(tx);
      if (stored.length) await tx.insert(mailAttachments).values(stored.map(({ content: _c, ...s }) => ({ ...s, messageId: row.id })));
      await linkMessage(tx, row.id, { sentOn: parsed.date ?? null, emails: [from, ...to, ...cc, ...bcc].filter((x) => !!x).map((x) => x!.address), subject: parsed.subject ?? '', text });
      await linkAnswerToLeads(tx, row.id, parsed.date ?? null, [parsed.inReplyTo ?? '', ...(refsText(parsed.references) ?? '').split(/\s+/)]);
      await leadFromEnquiry(app, tx, { id: row.id, messageId, sentOn: parsed.date ?? null }, {
        from: from?.address ?? null,
        subject: parsed.subject ?? '',
        text,
        html: parsed.html || null,
        authResults: authResultsOf(parsed.headerLines),
      });
      return true;
    });
  });
}

