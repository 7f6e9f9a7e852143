/**
 * API keys and webhooks (issue 48, decision 080): the areas a key's scopes name, and the events a
 * webhook subscribes to. No zod here: the web reads these lists.
 */

/** The areas of the API a key may be given: none by default, read, or read and write. */
export const API_KEY_AREAS = ['accounts', 'properties', 'leads', 'deals', 'payments'] as const;
export type TApiKeyArea = (typeof API_KEY_AREAS)[number];
export const API_KEY_LEVELS = ['none', 'read', 'write'] as const;
export type TApiKeyLevel = (typeof API_KEY_LEVELS)[number];
export type TApiKeyScopes = Record<TApiKeyArea, TApiKeyLevel>;

/** Every key starts so (a session's token never does: 43 base64url characters, no prefix); 64 hex digits follow. */
export const API_KEY_PREFIX = 'crm_';
/** The longest a key lives: two years from its creation. */
export const API_KEY_MAX_DAYS = 731;
export const API_KEY_NAME_MAX = 100;

/** The records whose changes a webhook may be told of, by the action log's entity. */
export const WEBHOOK_RECORDS = {
  account: 'Account',
  property: 'Object',
  lead: 'Lead',
  deal: 'Deal',
  viewing: 'Viewing',
  reservation: 'Reservation',
  payment: 'Transaction',
} as const;
export type TWebhookRecord = keyof typeof WEBHOOK_RECORDS;
export const WEBHOOK_CHANGES = ['created', 'updated', 'deleted'] as const;
export type TWebhookChange = (typeof WEBHOOK_CHANGES)[number];
/**
 * Events of a record beyond its changes: a lead made or added to from a portal's enquiry mail
 * (`lead.fromPortal`, beside its `lead.created`/`lead.updated`), and a property whose mandate is
 * ending (`property.mandateEnding`, when the office's 30- and 10-day alerts are made).
 * `lead.created`, `property.updated`, `viewing.created` (a viewing scheduled) ... are the changes.
 */
export const WEBHOOK_RECORD_EVENTS: Partial<Record<TWebhookRecord, readonly string[]>> = { lead: ['fromPortal'], property: ['mandateEnding'] };
/** The events of one record, as a form lists them: its changes, then its own events. */
export const webhookEventsOf = (record: TWebhookRecord): readonly string[] => [...WEBHOOK_CHANGES, ...(WEBHOOK_RECORD_EVENTS[record] ?? [])];
export const WEBHOOK_EVENTS = [
  ...(Object.keys(WEBHOOK_RECORDS) as TWebhookRecord[]).flatMap((r) => WEBHOOK_CHANGES.map((c) => `${r}.${c}` as const)),
  'lead.fromPortal',
  'property.mandateEnding',
] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The header that carries a delivery's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-CRM-Signature';
/** The header that numbers a delivery's try: 1 the first time; any repeat of a delivery id carries a higher number. */
export const WEBHOOK_ATTEMPT_HEADER = 'X-CRM-Attempt';
/** An endpoint that has failed for this long without one success is switched off, and the admins alerted. */
export const WEBHOOK_SWITCH_OFF_HOURS = 24;
export const WEBHOOK_URL_MAX = 500;
/** The states of a delivery: waiting (to be sent, or sent again after a failure), delivered, given up (its endpoint switched off). */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type TWebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];
