import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ownerUser, userRef } from './platform.ts';
import { bytea, createdNow, partOf, tsz } from './column-types.ts';

/**
 * API keys (decision 080): the key itself is never stored, only the SHA-256 of it; `hint` is its
 * first characters, shown to tell keys apart. Scopes: { accounts: 'none'|'read'|'write', ... }.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    hint: text('hint').notNull(),
    keyHash: bytea('key_hash').notNull(),
    scopes: jsonb('scopes').notNull(),
    createdBy: userRef('created_by'),
    createdOn: createdNow(),
    expiresOn: tsz('expires_on').notNull(),
    lastUsedOn: tsz('last_used_on'),
    revokedOn: tsz('revoked_on'),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash)],
);

/** Webhook endpoints (decision 080): the events they are told of, their signing secret, their state. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  secret: text('secret').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  version: integer('version').notNull().default(1),
  createdBy: userRef('created_by'),
  createdOn: createdNow(),
  failingSince: tsz('failing_since'),
  /** Failed sendings in a row, and when the next is due (the back-off doubles from WEBHOOK_RETRY_SECONDS up to an hour). */
  failures: integer('failures').notNull().default(0),
  retryAt: tsz('retry_at'),
  disabledOn: tsz('disabled_on'),
  /** Held by the instance sending its deliveries (one sender at a time keeps them in order). */
  sendingUntil: tsz('sending_until'),
});

/** One event for one endpoint: sent in id order, retried until delivered or the endpoint is switched off. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    endpointId: partOf('endpoint_id', () => webhookEndpoints.id),
    event: text('event').notNull(),
    entity: text('entity').notNull(),
    entityId: integer('entity_id'),
    payload: jsonb('payload').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatus: smallint('last_status'),
    lastError: text('last_error'),
    createdOn: createdNow(),
    lastAttemptOn: tsz('last_attempt_on'),
    deliveredOn: tsz('delivered_on'),
  },
  (t) => [
    index('webhook_deliveries_pending_idx').on(t.endpointId, t.id).where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
  ],
);

/**
 * Calendar addresses (issue 46, decision 081): the secret is never stored, only its SHA-256; one
 * working address per sign-in and scope ('own': their viewings and planned activities; 'office':
 * every agent's viewings, an office administrator's).
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    id: serial('id').primaryKey(),
    userId: ownerUser(),
    scope: text('scope').notNull(),
    hint: text('hint').notNull(),
    /** The language of its texts: the one its owner read the CRM in when making it (en, el, ru). */
    culture: text('culture').notNull().default('el'),
    tokenHash: bytea('token_hash').notNull(),
    createdOn: createdNow(),
    lastUsedOn: tsz('last_used_on'),
    revokedOn: tsz('revoked_on'),
  },
  (t) => [uniqueIndex('calendar_feeds_hash_uq').on(t.tokenHash), uniqueIndex('calendar_feeds_active_uq').on(t.userId, t.scope).where(sql`${t.revokedOn} is null`)],
);
