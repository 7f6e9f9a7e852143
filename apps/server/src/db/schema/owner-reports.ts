import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { userRef } from './platform.ts';
import { objects } from './objects.ts';
import { viewings } from './leads.ts';
import { partOf, tsz } from './column-types.ts';

/** A private link to a property's report for its owners (decision 087, 0087): the token kept as its SHA-256. */
export const ownerReportLinks = pgTable(
  'owner_report_links',
  {
    id: serial('id').primaryKey(),
    objectId: partOf('object_id', () => objects.id),
    tokenHash: text('token_hash').notNull(),
    hint: text('hint').notNull(),
    /** The page's language: the owner's (en, el or ru). */
    language: text('language').notNull(),
    madeOn: tsz('made_on').notNull().defaultNow(),
    madeBy: userRef('made_by'),
    expiresOn: tsz('expires_on').notNull(),
    revokedOn: tsz('revoked_on'),
    revokedBy: userRef('revoked_by'),
    openedOn: tsz('opened_on'),
  },
  (t) => [uniqueIndex('owner_report_links_token_hash_idx').on(t.tokenHash), index('owner_report_links_object_idx').on(t.objectId, t.madeOn)],
);

/** Whether a property's owners get its report by mail every month. */
export const ownerReportSettings = pgTable(
  'owner_report_settings',
  {
    objectId: integer('object_id')
      .primaryKey()
      .references(() => objects.id, { onDelete: 'cascade' }),
    monthly: boolean('monthly').notNull().default(false),
    modifiedOn: tsz('modified_on').notNull().defaultNow(),
    modifiedBy: userRef('modified_by'),
  },
  (t) => [index('owner_report_settings_monthly_idx').on(t.objectId).where(sql`monthly`)],
);

/** The months a property's monthly report was mailed: one row each, so a second run mails nothing. */
export const ownerReportMailings = pgTable(
  'owner_report_mailings',
  {
    objectId: partOf('object_id', () => objects.id),
    month: date('month', { mode: 'string' }).notNull(),
    mailedOn: tsz('mailed_on').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'owner_report_mailings_pk', columns: [t.objectId, t.month] })],
);

/** A viewing's comment on a property that its agent shared with the owner, as it was when shared. */
export const ownerReportShares = pgTable(
  'owner_report_shares',
  {
    viewingId: partOf('viewing_id', () => viewings.id),
    objectId: partOf('object_id', () => objects.id),
    comment: text('comment').notNull(),
    sharedOn: tsz('shared_on').notNull().defaultNow(),
    sharedBy: userRef('shared_by'),
  },
  (t) => [primaryKey({ name: 'owner_report_shares_pk', columns: [t.viewingId, t.objectId] }), index('owner_report_shares_object_idx').on(t.objectId)],
);

/** The views of a property's page on the agency's site, per month. */
export const objectSiteViews = pgTable(
  'object_site_views',
  {
    objectId: partOf('object_id', () => objects.id),
    month: date('month', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'object_site_views_pk', columns: [t.objectId, t.month] })],
);
