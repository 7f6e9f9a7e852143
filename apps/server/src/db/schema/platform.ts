import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, createdNow, linkTo, partOf, tsz } from './column-types.ts';

/** The agency's branches; a branch user carries one of these ids. */
export const branches = pgTable('branches', {
  id: integer('id').primaryKey(),
  /** Localization key of the branch's city name. */
  nameKey: text('name_key').notNull(),
});

/** Sign-ins. A user may belong to an account (the person) once accounts exist. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash'),
    roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
    branchId: integer('branch_id').references(() => branches.id),
    language: text('language'),
    accountId: integer('account_id'),
    disabled: boolean('disabled').notNull().default(false),
    passwordChangedOn: tsz('password_changed_on'),
    createdOn: createdNow(),
    modifiedOn: tsz('modified_on').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_uq').on(sql`lower(${t.email})`), index('users_account_idx').on(t.accountId)],
);

/** A sign-in that did something to a row, kept as null once the person is gone. */
export const userRef = (name: string) => linkTo(name, () => users.id);

/** The sign-in a row belongs to: the row goes with it. */
export const ownerUser = () => partOf('user_id', () => users.id);

/** Bearer sessions; only the SHA-256 of the token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownerUser(),
    tokenHash: bytea('token_hash').notNull(),
    createdOn: createdNow(),
    expiresOn: tsz('expires_on').notNull(),
    lastSeenOn: tsz('last_seen_on').notNull().defaultNow(),
    revokedOn: tsz('revoked_on'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** Single-purpose password reset codes (hashed). */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownerUser(),
    codeHash: bytea('code_hash').notNull(),
    createdOn: createdNow(),
    expiresOn: tsz('expires_on').notNull(),
    usedOn: tsz('used_on'),
  },
  (t) => [uniqueIndex('password_resets_code_uq').on(t.codeHash), index('password_resets_user_idx').on(t.userId)],
);

/**
 * Browsers that have signed in to an account before ("known devices", OWASP's device cookies):
 * their tries are counted apart from everybody else's, so an attacker's failures never hold up
 * the owner. Only the SHA-256 of the cookie's token is stored.
 */
export const loginDevices = pgTable(
  'login_devices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: ownerUser(),
    tokenHash: bytea('token_hash').notNull(),
    createdOn: createdNow(),
    lastUsedOn: tsz('last_used_on').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('login_devices_token_user_uq').on(t.tokenHash, t.userId), index('login_devices_user_idx').on(t.userId)],
);

/**
 * Tries counted per key, checked and counted in one transaction: sign-in failures per account
 * ("a:<email>"), per known device ("d:<id>") and per address ("ip:<ip>"), and rate limits of
 * other anonymous calls ("fp:..." for forgot-password).
 */
export const loginFailures = pgTable('login_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  firstFailureOn: tsz('first_failure_on').notNull().defaultNow(),
  lockedUntil: tsz('locked_until'),
});

/** Interface texts; seeded from the JSON files, editable by import. */
export const localization = pgTable(
  'localization',
  {
    key: text('key').notNull(),
    culture: text('culture').notNull(),
    text: text('text').notNull(),
    /** True once staff changed the text (import); seeding then leaves it alone. */
    custom: boolean('custom').notNull().default(false),
    modifiedOn: tsz('modified_on').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.culture] })],
);

export const alerts = pgTable(
  'alerts',
  {
    id: serial('id').primaryKey(),
    date: tsz('date').notNull().defaultNow(),
    source: text('source').notNull(),
    content: text('content').notNull(),
    notes: text('notes'),
    readedOn: tsz('readed_on'),
    readedBy: userRef('readed_by'),
    /** What made it: rent, key, todo, job, publish... (modules/alerts, decision 020). */
    kind: text('kind'),
    /** A text key and its values: the content is shown in the reader's language; `content` is the English text. */
    messageKey: text('message_key'),
    params: jsonb('params'),
    /** The record it is about (Object, Account, Activity, Job...), linked from the alert page. */
    entity: text('entity'),
    entityId: integer('entity_id'),
    /** Made once: a second alert with the same key is not made (rent reminders per tenant, month and day). */
    dedupKey: text('dedup_key'),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('alerts_unread_idx').on(t.date).where(sql`${t.readedOn} is null`),
    index('alerts_date_idx').on(t.date, t.id),
    index('alerts_unread_entity_idx').on(t.entity, t.entityId).where(sql`${t.readedOn} is null`),
    uniqueIndex('alerts_dedup_key_uq').on(t.dedupKey),
  ],
);

/** Who did what to which record, written in the same transaction as the change. */
export const actionLog = pgTable(
  'action_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    date: tsz('date').notNull().defaultNow(),
    actionBy: userRef('action_by'),
    actionByName: text('action_by_name'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: integer('entity_id'),
    message: text('message'),
    data: jsonb('data'),
  },
  (t) => [
    // Each ends with the id (migration 0064): a page's ids, newest first and ties by id, from the index alone.
    index('action_log_date_idx').on(t.date, t.id),
    index('action_log_by_date_idx').on(t.actionBy, t.date, t.id),
    index('action_log_entity_idx').on(t.entity, t.entityId, t.date, t.id),
    // The action log screen: one kind of record (Account, Object) newest first, and by whom within it.
    index('action_log_entity_date_idx').on(t.entity, t.date, t.id),
    index('action_log_by_entity_date_idx').on(t.actionBy, t.entity, t.date, t.id),
    // A deleted property's record by its reference number (an enquiry from its page, migration 0053).
    index('action_log_object_deleted_ref_idx').on(sql`(${t.data}->>'referenceNumber')`).where(sql`${t.entity} = 'Object' and ${t.action} = 'Delete'`),
  ],
);

/**
 * A change sent with an `Idempotency-Key` (plugins/idempotency.ts): the first request's answer,
 * kept for a day, so that the same request sent again (a retry after the answer was lost) gets
 * that answer instead of being carried out twice. `status` is null while the first is running.
 */
export const idempotentRequests = pgTable(
  'idempotent_requests',
  {
    userId: ownerUser(),
    key: text('key').notNull(),
    requestHash: bytea('request_hash').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    createdOn: createdNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotent_requests_created_idx').on(t.createdOn)],
);
