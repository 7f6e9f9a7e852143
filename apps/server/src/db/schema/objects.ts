import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
  type AnyPgColumn,
  type PgColumnBuilderBase,
} from 'drizzle-orm/pg-core';
import { OBJECT_FIELDS, type TFieldDescriptionOf } from '@crm/contract';
import { userRef } from './platform.ts';
import { accounts } from './records.ts';
import { createStamps, versionedStamps } from './columns.ts';
import { createdNow, linkTo, partOf, tsz } from './column-types.ts';

/** camelCase → snake_case column name ("videoURL" → "video_url"). */
export const columnName = (field: string) =>
  field
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/** The column of a described field. */
export function columnOf(d: TFieldDescriptionOf): PgColumnBuilderBase {
  const name = columnName(d.name);
  switch (d.type) {
    case 'text':
    case 'textarea':
      return text(name);
    case 'number':
      return d.integer ? integer(name) : doublePrecision(name);
    case 'distance':
      return integer(name);
    case 'distance-km':
      return numeric(name, { precision: 8, scale: 1, mode: 'number' });
    case 'currency':
      return numeric(name, { precision: 14, scale: 2, mode: 'number' });
    case 'area':
      return numeric(name, { precision: 12, scale: 2, mode: 'number' });
    case 'date':
      return date(name, { mode: 'string' });
    case 'money':
      return numeric(name, { precision: 14, scale: 2, mode: 'string' });
    case 'date-time':
      return tsz(name);
    case 'boolean':
      return boolean(name).notNull().default(false);
    case 'boolNullable':
      return boolean(name);
    case 'select':
    case 'enum':
      return d.references === 'accounts' ? integer(name).references(() => accounts.id, { onDelete: 'set null' }) : smallint(name);
    case 'location':
      return integer(name).references(() => locations.id, { onDelete: 'set null' });
    case 'multi-select':
      return smallint(name).array().notNull().default(sql`'{}'::smallint[]`);
    case 'flag-enum':
      return text(name).array().notNull().default(sql`'{}'::text[]`);
  }
}

const describedColumns = Object.fromEntries(OBJECT_FIELDS.map((d) => [d.name, columnOf(d)])) as Record<string, PgColumnBuilderBase>;

/**
 * Places: prefecture → municipality → area (Thessaloniki and Chalkidiki), with names in the three
 * languages. `search_text` (migration) is the names without accents, lower case, plus their Latin
 * skeleton, so a Greek, Latin or Cyrillic spelling finds the place.
 */
export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id'),
    /** 1 prefecture, 2 municipality, 3 area */
    level: smallint('level').notNull(),
    nameEn: text('name_en').notNull(),
    nameEl: text('name_el').notNull(),
    nameRu: text('name_ru').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** Computed by PostgreSQL (migration 0011); never written. */
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`''`),
    /** Stable key of a seeded place ("chalkidiki.kassandra.pefkochori"): the seed updates by it. */
    key: text('key'),
    /** Ids from the prefecture down to the place itself (kept by the seed): "in X or below". */
    path: integer('path').array().notNull().default(sql`'{}'::integer[]`),
    /** The place with its parents, as shown ("Καραμπουρνάκι, Καλαμαριά, Θεσσαλονίκη"), per language. */
    textEn: text('text_en').notNull().default(''),
    textEl: text('text_el').notNull().default(''),
    textRu: text('text_ru').notNull().default(''),
  },
  (t) => [
    index('locations_parent_idx').on(t.parentId),
    uniqueIndex('locations_key_uq').on(t.key),
    index('locations_path_idx').using('gin', t.path),
  ],
);

/** Reference numbers are taken from this sequence: unique and never reused. */
export const objects = pgTable(
  'objects',
  {
    id: serial('id').primaryKey(),
    referenceNumber: integer('reference_number').notNull(),
    ...describedColumns,
    ...createStamps(),
    /** The employee account of the creator (the search form's "created by"). */
    createdByAccountId: linkTo('created_by_account_id', () => accounts.id),
    modifiedOn: tsz('modified_on').notNull().defaultNow(),
    modifiedBy: userRef('modified_by'),
    /** Last change of what the public sees (prices, texts, photos). */
    lastUpdate: tsz('last_update'),
    /** The current owner (first owner link), kept by the object-account service for the list. */
    ownerId: linkTo('owner_id', () => accounts.id),
    version: integer('version').notNull().default(1),
    /** Reference number, title, address and owner's name, without accents (migration 0011). */
    searchText: text('search_text').notNull().default(''),
    /** Made by Add and not filled in yet: in no list, count, search, match or feed (migration 0071, lib/drafts.ts). */
    draft: boolean('draft').notNull().default(false),
  },
  (t) => [
    uniqueIndex('objects_reference_number_uq').on(t.referenceNumber),
    // The lists break ties on id: with it in the index, a page is read in order, not sorted.
    index('objects_created_on_id_idx').on(t.createdOn, t.id),
    index('objects_modified_on_id_idx').on(t.modifiedOn, t.id),
    index('objects_owner_idx').on(t.ownerId),
    // A place's properties in id order: the list sorted by place reads a place's page from it (0122).
    index('objects_location_idx').on((t as unknown as Record<string, AnyPgColumn>).locationId!, t.id),
    index('objects_created_by_account_idx').on(t.createdByAccountId),
    // The few drafts' ids, which every list leaves out (lib/drafts.ts).
    index('objects_draft_idx').on(t.id).where(sql`draft`),
    // objects_created_on_id_idx carries created_by_account_id (INCLUDE, 0054): the listings each agent took on in a period.
  ],
);

/** Object–account links: owners, tenants and other contacts of a property. */
export const objectAccounts = pgTable(
  'object_accounts',
  {
    objectId: partOf('object_id', () => objects.id),
    accountId: partOf('account_id', () => accounts.id),
    relation: smallint('relation').notNull(),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    price: numeric('price', { precision: 14, scale: 2, mode: 'number' }),
    rentPaymentDay: smallint('rent_payment_day'),
    createdOn: createdNow(),
    /**
     * A tenant link a closed rental put on the property: that deal (references deals(id) on delete
     * set null, in migration 0050; not declared here, as deals.ts imports this file).
     */
    dealId: integer('deal_id'),
    /** The link was changed since its deal put it there (in the property's Contacts, or by another deal). */
    changedSinceDeal: boolean('changed_since_deal').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.objectId, t.accountId, t.relation] }),
    index('object_accounts_account_idx').on(t.accountId, t.relation),
    index('object_accounts_deal_idx').on(t.dealId).where(sql`${t.dealId} is not null`),
  ],
);

/** The keys the agency holds, and who has them. */
export const objectKeys = pgTable(
  'object_keys',
  {
    id: serial('id').primaryKey(),
    objectId: partOf('object_id', () => objects.id),
    accountId: linkTo('account_id', () => accounts.id),
    received: date('received', { mode: 'string' }),
    givenAway: date('given_away', { mode: 'string' }),
    description: text('description'),
    ...versionedStamps(),
  },
  (t) => [index('object_keys_object_idx').on(t.objectId), index('object_keys_account_idx').on(t.accountId)],
);

/**
 * A key's loans, newest last by id: who held it, given away on, received back on, and who recorded
 * the loan last and when (decision 014). The newest loan is the key's current one (while it has a
 * holder or a given-away date); earlier ones are the lending history. Written with the key's save,
 * under its version; a loan corrected or deleted on its own changes the key too when it is the
 * newest, in the same transaction.
 */
export const objectKeyLoans = pgTable(
  'object_key_loans',
  {
    id: serial('id').primaryKey(),
    keyId: partOf('key_id', () => objectKeys.id),
    accountId: linkTo('account_id', () => accounts.id),
    givenAway: date('given_away', { mode: 'string' }),
    received: date('received', { mode: 'string' }),
    recordedOn: tsz('recorded_on').notNull().defaultNow(),
    recordedBy: userRef('recorded_by'),
    /** A loan corrected on its own (POST /api/ObjectKeys/loan) is guarded by it (0040). */
    version: integer('version').notNull().default(1),
  },
  (t) => [index('object_key_loans_key_idx').on(t.keyId, t.id), index('object_key_loans_holder_idx').on(t.accountId, t.keyId, t.id)],
);

/** The described columns of objects, by field name (the table's type lists only the fixed ones). */
export const objectColumns = objects as unknown as Record<string, AnyPgColumn>;
