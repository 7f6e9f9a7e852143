import { bigserial, boolean, index, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { tsz } from './column-types.ts';

/**
 * Figures worked out ahead of time and read back (issue 50, decisions 070-072). Each is brought up
 * to date in the transaction of the change where that is cheap, or by the job runner from a list of
 * changes that the readers also take into account until it has run, so that what is read is never
 * wrong; a test compares each with its computed-on-the-spot equivalent after random changes.
 * The kept matches have no foreign keys: a deleted lead or property is a change the job applies
 * (with cascades, a delete and the job deadlocked on each other's rows).
 */

/**
 * The best-fitting properties of an open lead (modules/leads/matching.ts, decision 070): the first
 * MATCH_LIST_SIZE of them in the order the lead's matches are shown (score, then the property's
 * last change, then its id, each descending). Kept for the leads whose matches were looked at; the
 * rest are worked out on the spot when asked for.
 */
export const leadMatches = pgTable(
  'lead_matches',
  {
    leadId: integer('lead_id').notNull(),
    objectId: integer('object_id').notNull(),
    score: smallint('score').notNull(),
    /** The property's modified_on when it was scored: the order's second key. */
    modifiedOn: tsz('modified_on').notNull(),
  },
  (t) => [primaryKey({ columns: [t.objectId, t.leadId] }), index('lead_matches_order_idx').on(t.leadId, t.score.desc(), t.modifiedOn.desc(), t.objectId.desc())],
);

/** A lead whose best matches are kept; `complete`: every property that fits it is in lead_matches. */
export const leadMatchLists = pgTable('lead_match_lists', {
  leadId: integer('lead_id').primaryKey(),
  complete: boolean('complete').notNull(),
  madeOn: tsz('made_on').notNull().defaultNow(),
});

/** The best-fitting open leads of a property, in the order they are shown (score, the lead's creation, its id, descending). */
export const objectMatches = pgTable(
  'object_matches',
  {
    objectId: integer('object_id').notNull(),
    leadId: integer('lead_id').notNull(),
    score: smallint('score').notNull(),
    /** The lead's created_on: the order's second key. */
    createdOn: tsz('created_on').notNull(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.objectId] }), index('object_matches_order_idx').on(t.objectId, t.score.desc(), t.createdOn.desc(), t.leadId.desc())],
);

/** A property whose best-fitting leads are kept; `complete`: every open lead it fits is in object_matches. */
export const objectMatchLists = pgTable('object_match_lists', {
  objectId: integer('object_id').primaryKey(),
  complete: boolean('complete').notNull(),
  madeOn: tsz('made_on').notNull().defaultNow(),
});

/**
 * Properties (kind 1) and leads (kind 2) changed in what matching reads, written by triggers in the
 * changing transaction, until the job `matching.apply` has brought the kept lists up to date. Until
 * then every reader scores these again on the spot instead of trusting their kept places.
 */
export const matchChanges = pgTable(
  'match_changes',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    kind: smallint('kind').notNull(),
    id: integer('id').notNull(),
  },
  (t) => [index('match_changes_kind_id_idx').on(t.kind, t.id)],
);

export const MATCH_CHANGE_OBJECT = 1;
export const MATCH_CHANGE_LEAD = 2;
/** The session-level lock that keeps a list being made and the job applying changes apart (matching.ts). */
export const MATCH_LISTS_LOCK = 7274050;
