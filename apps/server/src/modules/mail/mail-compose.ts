import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { DEAL_RELATION, MAIL_TEMPLATES, OWNER_RELATION, type TCulture, type TMailDraft, type TMailRow, type ZMailCompose, type ZMailDraftQuery } from '@crm/contract';
import type { z } from 'zod';
import { mailboxes, mailMessages } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { agencyToday } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { greetingLine, type TGender } from '../../mail/greeting.ts';
import { fillText, mailValues } from '../doc-templates/doc-fill.ts';
import { templateTexts } from '../doc-templates/doc-texts.ts';
import { appendToSent, sendFromMailbox } from './mail-send.ts';
import { linkMessage } from './mail-store.ts';
import { readMailRow } from './mail.service.ts';
import { isOfficeAdmin } from './mailboxes.service.ts';

/** The client's language as the mail's: Greek and Russian as they are, any other in English; none, Greek. */
const mailCulture = (language: string | null): TCulture => (!language || language === 'el' ? 'el' : language === 'ru' ? 'ru' : 'en');

type Client = { id: number; name: string; emails: string[] | null; first_name: string | null; last_name: string | null; middle_name: string | null; gender: TGender | null; language: string | null };
const CLIENT_COLUMNS = sql`a.id, coalesce(a.display_name, concat_ws(' ', a.first_name, a.last_name)) as name, a.emails, a.first_name, a.last_name, a.middle_name, a.gender, a.language`;

/** The clients a new mail from a record goes to, and the property its texts name (a lead's first offered one, a deal's own). */
async function recipientsOf(app: FastifyInstance, q: z.output<typeof ZMailDraftQuery>): Promise<{ clients: Client[]; objectId: number | null }> {
  const rows = async (query: ReturnType<typeof sql>) => (await app.db.execute(query)).rows as Client[];
  if (q.accountId != null) {
    const clients = await rows(sql`select ${CLIENT_COLUMNS} from accounts a where a.id = ${q.accountId} and a.erased_on is null`);
    if (!clients.length) throw notFound();
    return { clients, objectId: null };
  }
  if (q.leadId != null) {
    const lead = (await app.db.execute(sql`select l.account_id, (select lo.object_id from lead_objects lo where lo.lead_id = l.id order by lo.position, lo.created_on limit 1) as object_id
      from leads l where l.id = ${q.leadId}`)).rows[0] as { account_id: number | null; object_id: number | null } | undefined;
    if (!lead) throw notFound();
    const clients = lead.account_id == null ? [] : await rows(sql`select ${CLIENT_COLUMNS} from accounts a where a.id = ${lead.account_id} and a.erased_on is null`);
    return { clients, objectId: lead.object_id };
  }
  if (q.dealId != null) {
    const deal = (await app.db.execute(sql`select object_id from deals where id = ${q.dealId}`)).rows[0] as { object_id: number | null } | undefined;
    if (!deal) throw notFound();
    const clients = await rows(sql`select ${CLIENT_COLUMNS} from deal_parties p join accounts a on a.id = p.account_id
      where p.deal_id = ${q.dealId} and p.relation in (${DEAL_RELATION.seller}, ${DEAL_RELATION.buyer}) and a.erased_on is null order by p.relation, p.position, p.id`);
    return { clients, objectId: deal.object_id };
  }
  const exists = await app.db.execute(sql`select 1 from objects where id = ${q.objectId!}`);
  if (!exists.rows.length) throw notFound();
  const clients = await rows(sql`select ${CLIENT_COLUMNS} from object_accounts oa join accounts a on a.id = oa.account_id
    where oa.object_id = ${q.objectId!} and oa.relation = ${OWNER_RELATION} and (oa.end_date is null or oa.end_date >= ${agencyToday(app.config.timeZone)}::date) and a.erased_on is null
    order by oa.created_on, a.id`);
  return { clients, objectId: q.objectId! };
}

/**
 * GET /api/mail/draft: a new mail from an account's view (to the account's addresses), a property's
 * (to its present owners'), a lead's (to its client, its texts naming the lead's first property) or a
 * deal's (to its parties, naming its property), and the agency's mail texts in the recipient's
 * language, their placeholders filled: the greeting with its grammar, the agent, the agency, the property.
 */
export async function mailDraft(app: FastifyInstance, user: SessionUser, q: z.output<typeof ZMailDraftQuery>): Promise<TMailDraft> {
  const { clients, objectId } = await recipientsOf(app, q);
  const first = clients.find((c) => c.emails?.length) ?? clients[0];
  const culture = mailCulture(first?.language ?? null);
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const seen = new Set<string>();
  const to = clients.flatMap((c) =>
    (c.emails ?? [])
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e && !seen.has(e) && seen.add(e))
      .map((address) => ({ address, name: c.name?.trim() ?? '' })),
  );
  const values = {
    ...(await mailValues(app, objectId, culture, t, user.id)),
    'client.greeting': greetingLine(culture, first ? { firstName: first.first_name, lastName: first.last_name, middleName: first.middle_name, gender: first.gender } : null, t),
    'client.name': first?.name?.trim() ?? '',
  };
  const templates = await Promise.all(
    MAIL_TEMPLATES.map(async (kind) => {
      const x = await templateTexts(app, kind, culture);
      return { kind, subject: fillText(x.title, values), text: fillText(x.body, values) };
    }),
  );
  return { culture, to, templates };
}

/**
 * POST /api/mail/send: a new mail from a mailbox the writer may use (the office's shared ones, their
 * own; an office admin any), with its signature, over its SMTP server; kept as the mailbox's message
 * on the record it was written from (a lead's thread; a deal's property), on every account its
 * addresses name and every property its reference numbers name, appended to the Sent folder. Logged.
 */
export async function sendNewMail(app: FastifyInstance, caller: { user: SessionUser; actor: Actor }, b: z.output<typeof ZMailCompose>): Promise<TMailRow> {
  const [box] = await app.db.select().from(mailboxes).where(eq(mailboxes.id, b.mailboxId));
  if (!box || (!isOfficeAdmin(caller.user) && box.ownerId !== null && box.ownerId !== caller.user.id)) throw notFound('mailbox.notFound');
  if (b.accountId != null && !(await app.db.execute(sql`select 1 from accounts where id = ${b.accountId} and erased_on is null`)).rows.length) throw notFound();
  if (b.objectId != null && !(await app.db.execute(sql`select 1 from objects where id = ${b.objectId}`)).rows.length) throw notFound();
  if (b.leadId != null && !(await app.db.execute(sql`select 1 from leads where id = ${b.leadId}`)).rows.length) throw notFound();
  // A deal's mail is its property's and its parties' (GET /api/mail?dealId=): kept on the property; the parties by their addresses.
  const dealObject = b.dealId == null ? null : ((await app.db.execute(sql`select object_id from deals where id = ${b.dealId}`)).rows[0] as { object_id: number | null } | undefined);
  if (b.dealId != null && !dealObject) throw notFound();
  const objectId = b.objectId ?? dealObject?.object_id ?? null;
  const own = box.address.toLowerCase();
  const to = [...new Set(b.to)].map((address) => ({ address, name: '' }));
  const cc = [...new Set(b.cc)].filter((a) => !b.to.includes(a)).map((address) => ({ address, name: '' }));
  if (!to.length) throw new AppError(409, 'mailbox.noRecipient');
  const { raw, messageId, sentOn, text } = await sendFromMailbox(app, box, { to, cc, subject: b.subject, text: b.text });
  const at = sentOn.toISOString();
  const id = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mailMessages)
      .values({ mailboxId: box.id, messageId, subject: b.subject, from: { address: own, name: box.name }, to, cc, replyTo: [], sentOn, headers: {}, text })
      .returning({ id: mailMessages.id });
    if (b.accountId != null) await tx.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) values (${row!.id}, ${b.accountId}, ${at}::timestamptz) on conflict do nothing`);
    if (objectId != null) await tx.execute(sql`insert into mail_message_objects (message_id, object_id, sent_on) values (${row!.id}, ${objectId}, ${at}::timestamptz) on conflict do nothing`);
    if (b.leadId != null) await tx.execute(sql`insert into mail_message_leads (message_id, lead_id, sent_on) values (${row!.id}, ${b.leadId}, ${at}::timestamptz) on conflict do nothing`);
    await linkMessage(tx, row!.id, { sentOn, emails: [...to, ...cc].map((a) => a.address), subject: b.subject, text: b.text });
    await logAction(tx, caller.actor, {
      action: 'Send',
      entity: 'Mailbox',
      entityId: box.id,
      message: b.subject,
      data: { subject: b.subject, to: b.to, cc: b.cc, accountId: b.accountId ?? null, objectId: b.objectId ?? null, leadId: b.leadId ?? null, dealId: b.dealId ?? null },
    });
    return row!.id;
  });
  await appendToSent(app, box, raw);
  return readMailRow(app, id);
}
