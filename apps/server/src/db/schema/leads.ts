import { boolean, index, integer, pgTable, primaryKey, serial, smallint, text, uniqueIndex, type AnyPgColumn, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { LEAD_FIELDS } from '@crm/contract';
import { userRef } from './platform.ts';
import { accounts } from './records.ts';
import { columnOf, objects } from './objects.ts';
import { createStamps, versionedStamps } from './columns.ts';
import { createdNow, linkTo, partOf, tsz } from './column-types.ts';

const describedColumns = Object.fromEntries(LEAD_FIELDS.map((d) => [d.name, columnOf(d)])) as Record<string, PgColumnBuilderBase>;

/**
 * The prices a lead's budget accepts for one service: from 20 % under its minimum to 15 % over its
 * maximum, open where the budget is open (matching, decision 070). Written once, here, because the
 * matching query must spell it exactly as the indexes below do for PostgreSQL to use them; a
 * minimum above the maximum gives the one price at the top (matching itself then finds nothing).
 */
export const LEAD_PRICE_BAND = { under: '0.8', over: '1.15' } as const;
export function leadPriceBand(lo: string, hi: string): string {
  const bottom = `${lo} * ${LEAD_PRICE_BAND.under}`;
  const top = `${hi} * ${LEAD_PRICE_BAND.over}`;
  return `numrange(case when ${bottom} > ${top} then ${top} else ${bottom} end, ${top}, '[]')`;
}
const BAND_INDEXES = [
  ['leads_purchase_band_idx', 'for_purchase', 'purchase_budget_range_min', 'purchase_budget_range_max'],
  ['leads_rent_band_idx', 'for_rent', 'rent_budget_range_min', 'rent_budget_range_max'],
  ['leads_short_rent_band_idx', 'for_short_rent', 'short_rent_budget_range_min', 'short_rent_budget_range_max'],
] as const;

/** Leads: what a client asks for (buy, rent, short let, sell, let out), with budgets and wishes. */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    /** The client; a lead may start without one. */
    accountId: linkTo('account_id', () => accounts.id),
    ...describedColumns,
    ...versionedStamps(),
    /** When the lead's matches were last looked at: objects added or cheaper since then show as new. */
    matchesSeenOn: tsz('matches_seen_on'),
    /** Made by Add without a client and not filled in yet: in no list, count, search or match (migration 0071, lib/drafts.ts). */
    draft: boolean('draft').notNull().default(false),
  },
  (t) => {
    const c = t as unknown as Record<string, AnyPgColumn>;
    return [
      // The list's default order (newest first, ties by id), read from the index in either direction.
      index('leads_created_on_id_idx').on(t.createdOn, t.id),
      // INCLUDE (created_on, id) in SQL (0030): the leads of the clients a name finds, paged and counted from the index alone.
      index('leads_account_idx').on(t.accountId),
      index('leads_source_idx').on(c.source!),
      index('leads_stage_idx').on(c.stage!, t.createdOn),
      // The Clients list's red mark: does the client have a lead that is not closed?
      // The few drafts' ids, which every list leaves out (lib/drafts.ts).
      index('leads_draft_idx').on(t.id).where(sql`draft`),
      // INCLUDE (created_on, id) in SQL (0094): the global search's newest open leads of the accounts a name finds, from the index alone.
      index('leads_open_account_idx').on(t.accountId).where(sql`coalesce(stage, 0) not in (6, 7)`),
      // An object's matching leads: the leads of a service whose price band holds the object's price.
      ...BAND_INDEXES.map(([name, flag, lo, hi]) => index(name).using('gist', sql.raw(leadPriceBand(lo, hi))).where(sql.raw(flag))),
    ];
  },
);

/** The described columns of leads, by field name. */
export const leadColumns = leads as unknown as Record<string, AnyPgColumn>;

/** Objects offered to a lead, in order. */
export const leadObjects = pgTable(
  'lead_objects',
  {
    leadId: partOf('lead_id', () => leads.id),
    objectId: partOf('object_id', () => objects.id),
    position: integer('position').notNull().default(0),
    createdOn: createdNow(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.objectId] }), index('lead_objects_object_idx').on(t.objectId)],
);

/** Objects an agent marked as not suitable for a lead: they stay out of its matches. */
export const leadObjectMarks = pgTable(
  'lead_object_marks',
  {
    leadId: partOf('lead_id', () => leads.id),
    objectId: partOf('object_id', () => objects.id),
    ...createStamps(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.objectId] }), index('lead_object_marks_object_idx').on(t.objectId)],
);

/** Viewings: appointments to show objects to a client, with a result per object. */
export const viewings = pgTable(
  'viewings',
  {
    id: serial('id').primaryKey(),
    appointmentCreated: tsz('appointment_created'),
    dateOfViewing: tsz('date_of_viewing'),
    demandId: linkTo('demand_id', () => leads.id),
    /** The most advanced result of its objects (VIEWING_RESULT_RANK), for the list and its filter. */
    result: smallint('result'),
    ...versionedStamps(),
  },
  (t) => [
    index('viewings_date_idx').on(t.dateOfViewing),
    // The list's order with its tie (0110): a comment search's page from the index alone (decision 103).
    index('viewings_date_id_idx').on(t.dateOfViewing, t.id),
    index('viewings_created_idx').on(t.appointmentCreated),
    index('viewings_demand_idx').on(t.demandId),
    index('viewings_result_idx').on(t.result, t.dateOfViewing),
  ],
);

/** The objects shown at a viewing, in order, each with its result and the client's comment on it. */
export const viewingObjects = pgTable(
  'viewing_objects',
  {
    viewingId: partOf('viewing_id', () => viewings.id),
    objectId: partOf('object_id', () => objects.id),
    result: smallint('result'),
    /** Why the client liked or turned down this object ("too dark"), at most VIEWING_COMMENT_MAX characters. */
    comment: text('comment'),
    /** The comment's search normal form (crm_search_norm, migration 0040): the Viewings list's search reads it. */
    commentNorm: text('comment_norm').generatedAlwaysAs(sql`''`),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.viewingId, t.objectId] }),
    index('viewing_objects_object_idx').on(t.objectId),
    index('viewing_objects_comment_norm_trgm_idx').using('gin', sql`${t.commentNorm} gin_trgm_ops`).where(sql`comment_norm is not null`),
  ],
);

/** Shortlists: offered objects sent to a lead's client as a link (decision 049); the token is kept as its SHA-256. */
export const shortlists = pgTable(
  'shortlists',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    leadId: partOf('lead_id', () => leads.id),
    sentOn: tsz('sent_on').notNull().defaultNow(),
    sentBy: userRef('sent_by'),
    /** The sender's name as it was (the page greets the client with it). */
    sentByName: text('sent_by_name'),
    /** 'email' or 'link'. */
    channel: text('channel').notNull(),
    email: text('email'),
    /** The page's and the mail's culture: en, el or ru. */
    language: text('language').notNull(),
    expiresOn: tsz('expires_on').notNull(),
    openedOn: tsz('opened_on'),
    /** When the office withdrew the link (the page then says so, answers are refused), and who. */
    withdrawnOn: tsz('withdrawn_on'),
    withdrawnBy: userRef('withdrawn_by'),
    withdrawnByName: text('withdrawn_by_name'),
  },
  (t) => [uniqueIndex('shortlists_token_hash_idx').on(t.tokenHash), index('shortlists_lead_idx').on(t.leadId, t.sentOn)],
);

/** The objects of a shortlist, in order, with the client's answer on each ('interested', 'notForMe'). */
export const shortlistObjects = pgTable(
  'shortlist_objects',
  {
    shortlistId: partOf('shortlist_id', () => shortlists.id),
    objectId: partOf('object_id', () => objects.id),
    position: integer('position').notNull(),
    answer: text('answer'),
    answeredOn: tsz('answered_on'),
  },
  (t) => [primaryKey({ columns: [t.shortlistId, t.objectId] }), index('shortlist_objects_object_idx').on(t.objectId)],
);
