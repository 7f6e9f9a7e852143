import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { LEAD_CLOSED_STAGES, LEAD_STAGE_NEW, LinkKind, formatReferenceNumber } from '@crm/contract';
import type { Tx } from '../../db/client.ts';
import { accounts, activities, activityLinks, leadObjects, leads } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { createAlert } from '../alerts/alerts.create.ts';
import { queueWebhookEvent } from '../integrations/webhook-queue.ts';
import type { TEnquirySource, TPortalEnquiry } from './enquiries/index.ts';

/** Who the action log names for what the mail sync did. */
export const MAIL_ACTOR: Actor = { id: null, name: 'mail' };

/** An enquiry mail older than this (a first sync reaching months back) stays a plain thread: no lead, no alert. */
export const ENQUIRY_MAX_AGE_DAYS = 30;

/**
 * Each portal's lead source: the name it is made with (a brand, not translated), and the names an
 * agency's own source account for it may already have, adopted once and then known by the key.
 */
const PORTALS: Record<TEnquirySource, { name: string; known: string[] }> = {
  spitogatos: { name: 'Spitogatos.gr', known: ['spitogatos%'] },
  xe: { name: 'xe.gr', known: ['xe.gr%', 'xe %', 'χρυσή ευκαιρία%'] },
  indomio: { name: 'Indomio.gr', known: ['indomio%'] },
};
export const portalName = (s: TEnquirySource) => PORTALS[s].name;

/** A property's people (Object assignments, parent kind 0). */
const OBJECT_PARENT = 0;

/** The portal's lead source account: the one its key names, else an existing source of the portal's name (adopted), else a new one. */
async function sourceAccount(tx: Tx, source: TEnquirySource): Promise<number> {
  const read = async () => ((await tx.execute(sql`select account_id from enquiry_sources where key = ${source}`)).rows[0] as { account_id: number } | undefined)?.account_id;
  const known = await read();
  if (known) return known;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`enquiry-source:${source}`}))`);
  const again = await read();
  if (again) return again;
  const p = PORTALS[source];
  const [named] = (
    await tx.execute(sql`select id from accounts where is_source and erased_on is null and lower(display_name) like any(${sql.param(p.known)}::text[]) order by id limit 1`)
  ).rows as { id: number }[];
  let id = named?.id;
  if (!id) {
    const [a] = await tx.insert(accounts).values({ name: p.name, isCompany: true, isIndividual: false, isSource: true }).returning({ id: accounts.id });
    id = a!.id;
    await logAction(tx, MAIL_ACTOR, { action: 'Create', entity: 'Account', entityId: id, message: p.name, data: { isSource: true, enquirySource: source } });
  }
  await tx.execute(sql`insert into enquiry_sources (key, account_id) values (${source}, ${id}) on conflict (key) do update set account_id = excluded.account_id`);
  return id;
}

/** The client the enquiry's e-mail, else its phone, belongs to (not one of the staff, not an erased one). */
async function knownAccount(tx: Tx, e: TPortalEnquiry): Promise<number | undefined> {
  if (e.email) {
    const r = await tx.execute(sql`select id from accounts where public.crm_lower_emails(emails) && ${sql.param([e.email.toLowerCase()])}::text[]
      and not is_employe and erased_on is null order by id limit 1`);
    const id = (r.rows[0] as { id: number } | undefined)?.id;
    if (id) return id;
  }
  const digits = e.phone?.replace(/\D/g, '') ?? '';
  // The national number (its last ten digits): "+30 694 412 3456" and "6944123456" are one phone.
  const tail = digits.slice(-10);
  if (tail.length < 7) return undefined;
  // search_text holds the phones as bare digits (trigram index); the exact comparison confirms.
  const r = await tx.execute(sql`select a.id from accounts a where a.search_text like ${`%${tail}%`} and not a.is_employe and a.erased_on is null
      and exists (select 1 from unnest(a.phones) p where right(regexp_replace(p, '\\D', '', 'g'), ${tail.length}) = ${tail})
    order by a.id limit 1`);
  return (r.rows[0] as { id: number } | undefined)?.id;
}

type Enquired = { id: number; reference_number: number; for_sale: boolean | null; for_rent: boolean | null; for_short_rent: boolean | null };

/** The names of the property's agents: the people assigned to it, else the one who took it on. */
async function agentsOf(tx: Tx, objectId: number): Promise<string> {
  const r = await tx.execute(sql`select a.display_name as name from assignments s join accounts a on a.id = s.account_id
      where s.parent = ${OBJECT_PARENT} and s.parent_id = ${objectId}
    union all
    select a.display_name from objects o join accounts a on a.id = o.created_by_account_id
      where o.id = ${objectId} and not exists (select 1 from assignments s where s.parent = ${OBJECT_PARENT} and s.parent_id = ${objectId})`);
  return (r.rows as { name: string }[]).map((x) => x.name).join(', ');
}

export type TEnquiryLead = { leadId: number; accountId: number; objectId: number | null; newAccount: boolean; newLead: boolean };

/**
 * A recognised portal enquiry made into a lead (decision 082), in the caller's transaction (the one
 * that stored the message): once per Message-ID, whichever mailbox or sync sees it first. A client
 * known by the e-mail or phone gets it on their open lead (an activity, the property added), else a
 * new lead; an unknown person becomes a new client with a new lead. The property named by our
 * reference number is linked, the portal's source set, the message linked to the lead and the
 * client, and the office alerted (naming the property's agents). Null when the mail was made into
 * a lead already.
 */
export async function makeEnquiryLead(
  app: FastifyInstance,
  tx: Tx,
  msg: { id: number; messageId: string; sentOn: Date | null },
  e: TPortalEnquiry,
): Promise<TEnquiryLead | null> {
  const taken = await tx.execute(sql`insert into mail_enquiries (message_key, mail_message_id, source, portal_ref, sent_on)
    values (${msg.messageId}, ${msg.id}, ${e.source}, ${e.portalRef}, ${msg.sentOn?.toISOString() ?? null}::timestamptz)
    on conflict (message_key) do nothing returning message_key`);
  if (!taken.rows.length) return null;
  // One enquiry of a person at a time: two mails of one new client make one client, not two.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`enquiry:${e.email?.toLowerCase() ?? e.phone ?? ''}`}))`);
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t('el', key, params);
  const portal = portalName(e.source);
  const source = await sourceAccount(tx, e.source);
  const [o] = e.propertyRef
    ? ((await tx.execute(sql`select id, reference_number, for_sale, for_rent, for_short_rent from objects where reference_number = ${e.propertyRef} and not draft`)).rows as Enquired[])
    : [];
  const ref = o ? formatReferenceNumber(o.reference_number) : null;

  let accountId = await knownAccount(tx, e);
  const newAccount = accountId === undefined;
  if (accountId === undefined) {
    const words = e.name.trim().split(/\s+/);
    const lastName = words.length > 1 ? words.pop()! : words[0]!;
    const firstName = words.length ? words.join(' ') : null;
    const [a] = await tx
      .insert(accounts)
      .values({ firstName, lastName, emails: e.email ? [e.email] : [], phones: e.phone ? [e.phone] : [], isClient: true, isClientDate: new Date(), sourceId: source })
      .returning({ id: accounts.id, displayName: accounts.displayName });
    accountId = a!.id;
    await logAction(tx, MAIL_ACTOR, { action: 'Create', entity: 'Account', entityId: accountId, message: a!.displayName, data: { from: 'mail', source: e.source, mailMessageId: msg.id } });
  }

  // The lead's note (or the open lead's activity), in the office's language (Greek): where it came
  // from and about what, for a client already known that their record was left as it was, and who
  // asked, in short lines (name, e-mail, phone, the portal's listing number): the mail may be in an
  // agent's own mailbox, which the other agents do not see. The message itself is the mail's, in
  // the lead's thread, shown there once.
  const description = [
    o ? t('enquiries.lead.title', { portal, ref: ref! }) : t('enquiries.lead.titleNoProperty', { portal, portalRef: e.portalRef ?? (e.propertyRef ? String(e.propertyRef) : '—') }),
    newAccount ? null : t('enquiries.lead.known'),
    `${t('publishing.enquiry.name')}: ${e.name}`,
    e.email ? `${t('publishing.enquiry.email')}: ${e.email}` : null,
    e.phone ? `${t('publishing.enquiry.phone')}: ${e.phone}` : null,
    o && e.portalRef ? `${t('enquiries.lead.portalRef', { portal })}: ${e.portalRef}` : null,
  ]
    .filter(Boolean)
    .join('\n');

  const [open] = newAccount
    ? []
    : ((
        await tx.execute(sql`select id, source from leads where account_id = ${accountId} and not draft
          and coalesce(stage, 0) <> all(${sql.param([...LEAD_CLOSED_STAGES])}::int[]) order by created_on desc, id desc limit 1 for update`)
      ).rows as { id: number; source: number | null }[]);
  let leadId: number;
  if (open) {
    leadId = open.id;
    const [act] = await tx.insert(activities).values({ description, done: null, category: 0 }).returning({ id: activities.id });
    await tx.insert(activityLinks).values([
      { activityId: act!.id, entity: LinkKind.Demand, entityId: leadId, position: 0 },
      { activityId: act!.id, entity: LinkKind.Account, entityId: accountId, position: 1 },
    ]);
    await logAction(tx, MAIL_ACTOR, { action: 'Create', entity: 'Activity', entityId: act!.id, message: description.split('\n')[0], data: { entityType: LinkKind.Demand, id: leadId, from: 'mail' } });
    if (o) {
      await tx.execute(sql`insert into lead_objects (lead_id, object_id, position)
        select ${leadId}, ${o.id}, coalesce(max(position) + 1, 0) from lead_objects where lead_id = ${leadId} on conflict do nothing`);
    }
    await tx.execute(sql`update leads set source = coalesce(source, ${source}), modified_on = now(), version = version + 1 where id = ${leadId}`);
    await logAction(tx, MAIL_ACTOR, {
      action: 'Update',
      entity: 'Lead',
      entityId: leadId,
      message: description.split('\n')[0],
      data: { enquiry: e.source, objectId: o?.id ?? null, source: open.source ?? source, mailMessageId: msg.id },
    });
  } else {
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: app.config.timeZone }).format(new Date());
    const [lead] = await tx
      .insert(leads)
      .values({
        accountId,
        source,
        stage: LEAD_STAGE_NEW,
        priority: 2,
        startDate: today,
        forPurchase: o?.for_sale === true,
        forRent: o?.for_rent === true,
        forShortRent: o?.for_short_rent === true,
        description,
      } as never)
      .returning({ id: leads.id });
    leadId = lead!.id;
    if (o) await tx.insert(leadObjects).values({ leadId, objectId: o.id, position: 0 });
    await logAction(tx, MAIL_ACTOR, { action: 'Create', entity: 'Lead', entityId: leadId, message: description.split('\n')[0], data: { accountId, objectId: o?.id ?? null, from: 'mail', source: e.source, mailMessageId: msg.id } });
  }
  await tx.execute(sql`update mail_enquiries set lead_id = ${leadId}, account_id = ${accountId}, object_id = ${o?.id ?? null} where message_key = ${msg.messageId}`);
  // The first message of the lead's thread (0097): the lead's view lists it beside the mail written from there.
  await tx.execute(sql`insert into mail_message_leads (message_id, lead_id, sent_on) values (${msg.id}, ${leadId}, ${msg.sentOn?.toISOString() ?? null}::timestamptz) on conflict do nothing`);
  // The portal's mail comes from the portal's address: linked to the client here, it shows on their record too.
  await tx.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) values (${msg.id}, ${accountId}, ${msg.sentOn?.toISOString() ?? null}::timestamptz) on conflict do nothing`);

  const agents = o ? await agentsOf(tx, o.id) : '';
  const kind = !o ? 'unmatched' : open ? 'added' : 'new';
  const messageKey = `enquiries.alert.${kind}${o && agents ? 'Agents' : ''}`;
  const params = { portal, name: e.name, ref: ref ?? '', agents, portalRef: e.portalRef ?? '—' };
  await createAlert(tx, { source: portal, kind: 'enquiry', messageKey, params, content: app.translator.t('en', messageKey, params), entity: 'Lead', entityId: leadId });
  // The webhooks' "a lead from a portal" (decision 097), beside the lead's own created/changed event.
  await queueWebhookEvent(tx, {
    event: 'lead.fromPortal',
    action: 'PortalEnquiry',
    entity: 'Lead',
    entityId: leadId,
    by: MAIL_ACTOR.name,
    data: { source: e.source, portal, portalRef: e.portalRef, objectId: o?.id ?? null, accountId, newLead: !open, newAccount, mailMessageId: msg.id },
  });
  return { leadId, accountId, objectId: o?.id ?? null, newAccount, newLead: !open };
}
