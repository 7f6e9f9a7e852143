import { API_KEY_AREAS, WEBHOOK_EVENTS, WEBHOOK_SIGNATURE_HEADER } from '@crm/contract';

/** What the OpenAPI document says of signing in with a key (decision 080). */
export const BEARER_DESCRIPTION = [
  'Either a session token (from POST /api/authenticate/login) or an API key made by an office administrator under Settings → API keys.',
  'An API key is `crm_` followed by 64 hex digits; send it as `Authorization: Bearer crm_…`.',
  `A key has a scope per area (${API_KEY_AREAS.join(', ')}): none, read, or write (read and write).`,
  'Areas: accounts (/api/account…, owner, professional, partners, clients, source, employe), properties (/api/object…, ObjectKeys, objectAccount, location),',
  'leads (/api/lead…, Viewing), deals (/api/Deal…), payments (/api/transactions…). GETs and searches read; other calls write.',
  'A call outside the key\'s scopes, or of no area (settings, users, sign-ins, the action log, imports, files, alerts, jobs), is answered 403;',
  'an unknown, expired or revoked key 401; more calls a minute than allowed 429 with Retry-After. Changes made with a key are in the action log under its name.',
].join(' ');

export const OPENAPI_INTRO = [
  'The agency CRM\'s API. Calls are described below; the access table (docs/access.md) says who may call each, and which API key scope reaches it.',
  '',
  '**Webhooks.** An office administrator registers an endpoint (https) and the events it is told of:',
  WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ') + '.',
  'Each event is a POST with a JSON body `{ id, event, occurredAt, record: { entity, id }, action, by, data }`',
  '(`id` the delivery\'s number, `occurredAt` an ISO instant, `data` the change as the action log holds it),',
  `and the header \`${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's secret>\`,`,
  'besides `X-CRM-Event` and `X-CRM-Delivery`. Answer 2xx within 10 s; anything else is retried with growing waits (at least once delivery: use the delivery id to',
  'drop a repeat). An endpoint failing for a day is switched off.',
].join('\n');
