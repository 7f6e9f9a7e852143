import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { changeStamps, createStamps, versionedStamps } from './columns.ts';
import { linkTo, partOf, tsz } from './column-types.ts';

const money = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });
const flag = (name: string) => boolean(name).notNull().default(false);

/** Specialty flags of a specialist (professional) account, in the spec's order. */
export const SPECIALTY_COLUMNS = {
  isAttorney: 'is_attorney',
  isNotary: 'is_notary',
  isLawyer: 'is_lawyer',
  isWorker: 'is_worker',
  isElectrician: 'is_electrician',
  isConstructionEngineer: 'is_construction_engineer',
  isCleaner: 'is_cleaner',
  isInteriorDesigner: 'is_interior_designer',
  isTranslator: 'is_translator',
  isAccountant: 'is_accountant',
  isEconomist: 'is_economist',
  isLandscapeDesigner: 'is_landscape_designer',
  isSecurityService: 'is_security_service',
  isPlumber: 'is_plumber',
  isLocksmith: 'is_locksmith',
  isIT: 'is_it',
  isWebDesigner: 'is_web_designer',
  isEnergySupplyCompany: 'is_energy_supply_company',
  isElectricalStore: 'is_electrical_store',
  isTechnician: 'is_technician',
  isRealEstateAgencyOrBroker: 'is_real_estate_agency_or_broker',
} as const;

/**
 * People and companies. One account carries several kinds at once through flags.
 * `display_name` and `search_text` are computed by PostgreSQL (migration 0003), so lists sort by
 * name and search by any name, e-mail, phone, tax or passport number through indexes.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    middleName: text('middle_name'),
    /** 'male', 'female' or null (not stated); a check in the migration (0074) keeps it so. */
    gender: text('gender').$type<'male' | 'female'>(),
    name: text('name'),
    nameEng: text('name_eng'),
    nameLocal: text('name_local'),
    firstNameEng: text('first_name_eng'),
    lastNameEng: text('last_name_eng'),
    middleNameEng: text('middle_name_eng'),
    firstNameLocal: text('first_name_local'),
    lastNameLocal: text('last_name_local'),
    middleNameLocal: text('middle_name_local'),
    isOwner: flag('is_owner'),
    isClient: flag('is_client'),
    isEmploye: flag('is_employe'),
    isSource: flag('is_source'),
    isProfessional: flag('is_professional'),
    isPartnerRealEstate: flag('is_partner_real_estate'),
    isPartnerTourism: flag('is_partner_tourism'),
    /** yes / no / not set */
    isCompany: boolean('is_company'),
    isIndividual: boolean('is_individual'),
    isAttorney: flag('is_attorney'),
    isNotary: flag('is_notary'),
    isLawyer: flag('is_lawyer'),
    isWorker: flag('is_worker'),
    isElectrician: flag('is_electrician'),
    isConstructionEngineer: flag('is_construction_engineer'),
    isCleaner: flag('is_cleaner'),
    isInteriorDesigner: flag('is_interior_designer'),
    isTranslator: flag('is_translator'),
    isAccountant: flag('is_accountant'),
    isEconomist: flag('is_economist'),
    isLandscapeDesigner: flag('is_landscape_designer'),
    isSecurityService: flag('is_security_service'),
    isPlumber: flag('is_plumber'),
    isLocksmith: flag('is_locksmith'),
    isIT: flag('is_it'),
    isWebDesigner: flag('is_web_designer'),
    isEnergySupplyCompany: flag('is_energy_supply_company'),
    isElectricalStore: flag('is_electrical_store'),
    isTechnician: flag('is_technician'),
    isRealEstateAgencyOrBroker: flag('is_real_estate_agency_or_broker'),
    purchaseBudgetRangeMin: money('purchase_budget_range_min'),
    purchaseBudgetRangeMax: money('purchase_budget_range_max'),
    language: text('language'),
    country: text('country'),
    nationality: text('nationality'),
    companyType: text('company_type'),
    /** Up to 4 e-mails and 5 phones (the API joins them with ';'). */
    emails: text('emails').array().notNull().default(sql`'{}'::text[]`),
    phones: text('phones').array().notNull().default(sql`'{}'::text[]`),
    internalPassportNumber: text('internal_passport_number'),
    passportNumber: text('passport_number'),
    taxNumber: text('tax_number'),
    taxNumberOfOtherCountry: text('tax_number_of_other_country'),
    city: text('city'),
    postcode: text('postcode'),
    address: text('address'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    role: text('role'),
    branchId: integer('branch_id'),
    notes: text('notes'),
    hasTransactions: flag('has_transactions'),
    numberOfSoldObjects: integer('number_of_sold_objects').notNull().default(0),
    isClientDate: tsz('is_client_date'),
    isOwnerDate: tsz('is_owner_date'),
    /** Source account a client came from (lead source), for the client list's source filter. */
    sourceId: integer('source_id'),
    /** Service a client asked for (client list's service filter; 0 = all services). */
    service: smallint('service'),
    ...changeStamps(),
    /** Incremented by every update: the optimistic-concurrency token. */
    version: integer('version').notNull().default(1),
    /** When the person's data was erased on request (GDPR, decision 051): the account is then a number, closed to edits. */
    erasedOn: tsz('erased_on'),
    /** Computed by PostgreSQL (migration 0003); never written. */
    displayName: text('display_name').notNull().generatedAlwaysAs(sql`''`),
    searchText: text('search_text').notNull().generatedAlwaysAs(sql`''`),
    /** The last name's Latin skeleton (migration 0010): the last-name filter across scripts. */
    lastNameLatin: text('last_name_latin').notNull().generatedAlwaysAs(sql`''`),
    /** The last name in the search normal form (migration 0029): the Clients list's last-name filter. */
    lastNameNorm: text('last_name_norm').notNull().generatedAlwaysAs(sql`''`),
  },
  (t) => [
    // (date, id): a later page's ids come from the index alone (accounts.lists.ts), ties in id order.
    index('accounts_created_on_idx').on(t.createdOn, t.id),
    index('accounts_modified_on_idx').on(t.modifiedOn, t.id),
    index('accounts_owner_idx').on(t.createdOn, t.id).where(sql`${t.isOwner}`),
    index('accounts_client_idx').on(t.createdOn, t.id).where(sql`${t.isClient}`),
    index('accounts_employe_idx').on(t.createdOn, t.id).where(sql`${t.isEmploye}`),
    index('accounts_source_idx').on(t.createdOn, t.id).where(sql`${t.isSource}`),
    index('accounts_professional_idx').on(t.createdOn, t.id).where(sql`${t.isProfessional}`),
    index('accounts_partner_idx').on(t.createdOn, t.id).where(sql`${t.isPartnerRealEstate} or ${t.isPartnerTourism}`),
    index('accounts_client_source_idx').on(t.sourceId),
    // The display name in search form (migration 0129): an import finds lawyers, notaries and clients named by name alone by it.
    index('accounts_display_name_norm_idx').on(sql`public.crm_search_norm(${t.displayName})`),
    index('accounts_last_first_norm_idx').on(sql`public.crm_search_norm(btrim(coalesce(${t.lastName}, '') || ' ' || coalesce(${t.firstName}, '')))`),
  ],
);

/**
 * Exact number of accounts of each kind ('all', 'owner', 'client', 'employe', 'source',
 * 'professional', 'partner'), kept by statement-level triggers on accounts (migration 0006), so
 * an unfiltered list's total is one row read instead of a count over the whole kind.
 */
export const accountCounts = pgTable('account_counts', {
  kind: text('kind').primaryKey(),
  n: integer('n').notNull().default(0),
});

/** Uploaded files; `system_name` is the random stored name, `user_name` the original one. */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    systemName: text('system_name').notNull(),
    userName: text('user_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    /** Link kind of the record the file belongs to (LinkKind), null until attached. */
    parentType: smallint('parent_type'),
    parentId: integer('parent_id'),
    /** What the file is for on its parent (e.g. "image", "document"); free text. */
    type: text('type'),
    sortOrder: integer('sort_order').notNull().default(0),
    ...createStamps(),
    /** A picture's pixel size (after turning it upright), when it could be read. */
    width: integer('width'),
    height: integer('height'),
    /** Stored names of a picture's smaller copies, made on upload: a thumbnail for lists and a screen size for the carousel. */
    thumbName: text('thumb_name'),
    webName: text('web_name'),
    /** When the record it belonged to was deleted and the file let go (purged soon, never attached again). */
    detachedOn: tsz('detached_on'),
  },
  (t) => [uniqueIndex('files_system_name_uq').on(t.systemName), index('files_parent_idx').on(t.parentType, t.parentId, t.sortOrder)],
);

/** Activities: notes, calls, meetings, to-dos, linked to one or more records. */
export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    description: text('description'),
    /** null: not an action; false: to do; true: complete */
    done: boolean('done'),
    /** 0 undefined, 1 call, 2 meeting, 3 viewing */
    category: smallint('category').notNull().default(0),
    date: tsz('date'),
    doneDate: tsz('done_date'),
    assignedTo: linkTo('assigned_to', () => accounts.id),
    ...versionedStamps(),
  },
  (t) => [
    index('activities_created_on_idx').on(t.createdOn),
    index('activities_date_idx').on(t.date),
    index('activities_done_date_idx').on(t.doneDate),
    index('activities_assigned_idx').on(t.assignedTo, t.createdOn),
    index('activities_created_by_idx').on(t.createdBy, t.createdOn),
    index('activities_open_idx').on(t.assignedTo, t.date).where(sql`${t.done} = false`),
    // The calendar's to-dos in its order (decision 106).
    index('activities_todo_date_idx').on(t.date, t.id).where(sql`${t.done} = false`),
    // The action list (activities that are actions), newest first, without scanning notes.
    index('activities_actions_idx').on(t.createdOn).where(sql`${t.done} is not null`),
    // The action list filtered by employee (assigned or creator): count and page from the index.
    index('activities_actions_assigned_idx').on(t.assignedTo, t.date).where(sql`${t.done} is not null`),
    index('activities_actions_created_by_idx').on(t.createdBy, t.date).where(sql`${t.done} is not null`),
  ],
);

/** The records an activity belongs to (entity = LinkKind). */
export const activityLinks = pgTable(
  'activity_links',
  {
    activityId: partOf('activity_id', () => activities.id),
    entity: smallint('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    /** The first link is the record the activity was created on. */
    position: integer('position').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.activityId, t.entity, t.entityId] }),
    index('activity_links_entity_idx').on(t.entity, t.entityId, t.activityId),
    // An activity's first link read from the index alone (the calendar, decision 106).
    index('activity_links_first_idx').on(t.activityId, t.position, t.entity, t.entityId),
  ],
);

/** People assigned to a record. Parent kinds: Object 0, Account 1, Lead 2, Viewing 3. */
export const assignments = pgTable(
  'assignments',
  {
    id: serial('id').primaryKey(),
    parent: smallint('parent').notNull(),
    parentId: integer('parent_id').notNull(),
    accountId: partOf('account_id', () => accounts.id),
    ...createStamps(),
  },
  (t) => [uniqueIndex('assignments_uq').on(t.parent, t.parentId, t.accountId), index('assignments_account_idx').on(t.accountId)],
);
