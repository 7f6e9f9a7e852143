import { z } from 'zod';
import { byId, ZDate, ZIdParam, ZOk, ZVersion } from './common.ts';
import type { CallSchemas } from './call.ts';
import { API_KEY_AREAS, API_KEY_LEVELS, API_KEY_NAME_MAX, WEBHOOK_DELIVERY_STATES, WEBHOOK_EVENTS, WEBHOOK_URL_MAX } from './integration-constants.ts';

export * from './integration-constants.ts';

const level = z.enum(API_KEY_LEVELS);
/** A key's scopes: each area none (the default), read, or write (read and write). */
export const ZApiKeyScopes = z.object(Object.fromEntries(API_KEY_AREAS.map((a) => [a, level.default('none')])) as Record<(typeof API_KEY_AREAS)[number], z.ZodDefault<typeof level>>);

/** POST /api/ApiKeys: a new key (office admins). */
export const ZApiKeyCreate = z.object({
  name: z.string().trim().min(1).max(API_KEY_NAME_MAX),
  scopes: ZApiKeyScopes,
  /** The last day it works (the agency's date); at most two years ahead. */
  expiresOn: ZDate,
});
export type TApiKeyCreate = z.input<typeof ZApiKeyCreate>;

export const ZApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters, to tell keys apart (`crm_1a2b…`); the rest is never shown again. */
  hint: z.string(),
  scopes: ZApiKeyScopes,
  createdBy: z.string().nullable(),
  createdOn: z.string(),
  lastUsedOn: z.string().nullable(),
  expiresOn: z.string(),
  revokedOn: z.string().nullable(),
});
export type TApiKey = z.infer<typeof ZApiKey>;
export const ZApiKeyList = z.object({ items: z.array(ZApiKey) });
/** The new key and, this once, its secret. */
export const ZApiKeyCreated = z.object({ key: ZApiKey, secret: z.string() });
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;

/** POST /api/Webhooks: a new endpoint (office admins). */
export const ZWebhookCreate = z.object({
  url: z.string().trim().min(1).max(WEBHOOK_URL_MAX),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length),
});
export type TWebhookCreate = z.input<typeof ZWebhookCreate>;
export const ZWebhook = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  version: z.number().int(),
  createdBy: z.string().nullable(),
  createdOn: z.string(),
  /** Failing without a success since then (null: not failing). */
  failingSince: z.string().nullable(),
  /** Switched off (after a day of failures, or by an admin): when; null while on. */
  disabledOn: z.string().nullable(),
  /** Deliveries waiting. */
  pending: z.number().int(),
  /** The secret's first characters (`whsec_1a2b…`). */
  hint: z.string(),
});
export type TWebhook = z.infer<typeof ZWebhook>;
export const ZWebhookList = z.object({ items: z.array(ZWebhook) });
export const ZWebhookCreated = z.object({ webhook: ZWebhook, secret: z.string() });
export type TWebhookCreated = z.infer<typeof ZWebhookCreated>;
/** On or off again (an endpoint switched off after a day of failures is switched on here). */
export const ZWebhookSwitch = z.object({ enabled: z.boolean(), version: ZVersion });

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  event: z.string(),
  entity: z.string(),
  entityId: z.number().int().nullable(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  /** The receiver's HTTP status of the last attempt (null: no answer). */
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdOn: z.string(),
  lastAttemptOn: z.string().nullable(),
  deliveredOn: z.string().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export const ZWebhookDeliveries = z.object({ items: z.array(ZWebhookDelivery) });

/** The API keys' calls (decision 080). */
export const API_KEY_API = {
  list: { answer: ZApiKeyList },
  create: { body: ZApiKeyCreate, answer: ZApiKeyCreated },
  revoke: byId(ZApiKey),
} satisfies Record<string, CallSchemas>;

/** The webhooks' calls (decision 080). */
export const WEBHOOK_API = {
  list: { answer: ZWebhookList },
  create: { body: ZWebhookCreate, answer: ZWebhookCreated },
  setEnabled: { params: ZIdParam, body: ZWebhookSwitch, answer: ZWebhook },
  remove: byId(ZOk),
  deliveries: byId(ZWebhookDeliveries),
  resend: byId(ZWebhookDelivery),
} satisfies Record<string, CallSchemas>;
