import { z } from 'zod';
import { API_KEY_AREAS, WEBHOOK_ATTEMPT_HEADER, WEBHOOK_EVENTS, WEBHOOK_RECORDS, WEBHOOK_SIGNATURE_HEADER, type TWebhookRecord } from '@crm/contract';
import { RECORD_SCHEMAS } from './webhook-records.ts';

/** What the OpenAPI document says of signing in with a key (decision 080). */
export const BEARER_DESCRIPTION = [
  'Either a session token (from POST /api/authenticate/login) or an API key made by an office administrator under Settings → API keys.',
  'An API key is `crm_` followed by 64 hex digits; send it as `Authorization: Bearer crm_…`.',
  `A key has a scope per area (${API_KEY_AREAS.join(', ')}): none, read, or write (read and write).`,
  'Areas: accounts (/api/account…, owner, professional, partners, clients, source, employe), properties (/api/object…, ObjectKeys, objectAccount, location),',
  'leads (/api/lead…, Viewing), deals (/api/Deal…, Reservation), payments (/api/transactions…). GETs and searches read; other calls write.',
  'A call outside the key\'s scopes, or of no area (settings, users, sign-ins, the action log, imports, files, alerts, jobs, a person\'s data), is answered 403;',
  'an unknown, expired or revoked key 401; more calls a minute than allowed 429 with Retry-After. Changes made with a key are in the action log under its name.',
].join(' ');

export const OPENAPI_INTRO = [
  'The agency CRM\'s API. Calls are described below; the access table (docs/access.md) says who may call each, and which API key scope reaches it.',
  '',
  '**Webhooks.** An office administrator registers an endpoint (https) and the events it is told of:',
  WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ') + '.',
  'Each event is a POST with a JSON body `{ id, event, occurredAt, record: { entity, id }, action, by, data, current }`',
  '(`id` the delivery\'s number, `occurredAt` an ISO instant, `data` the change as the action log holds it, `current` the record as the API shows it',
  'when the event is sent, null once deleted: its schema per record is under `x-webhooks` and the `Webhook…` schemas),',
  `and the header \`${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's secret>\`,`,
  `besides \`X-CRM-Event\`, \`X-CRM-Delivery\` and \`${WEBHOOK_ATTEMPT_HEADER}\` (1 on the first try sent, higher on every later one, even after the sender stopped mid-send; a try stopped before sending, its address refused, is not counted).`,
  'Answer 2xx within 10 s; anything else is retried with growing waits (at least once delivery: use the delivery id to',
  'drop a repeat). An endpoint failing for a day is switched off.',
  'Besides the changes, `lead.fromPortal` tells of a lead made or added to from a portal\'s enquiry mail (`data`: source, portal, portalRef, objectId, newLead, accountId, newAccount, mailMessageId:',
  'the portal\'s key and name, its listing number, our property or null, whether the lead is new, the client, whether the client is new, the stored mail),',
  'and `property.mandateEnding` of a property whose mandate ends in 30 or 10 days (`data`: mandateId, kind, endsOn, daysLeft, step); `current` is the lead or the property.',
].join('\n');

const schemaName = (record: TWebhookRecord) => `Webhook${record[0]!.toUpperCase()}${record.slice(1)}`;

/**
 * The webhooks' payloads in the OpenAPI document: a schema per record (`WebhookAccount`…, its
 * `current` as the contract writes it) and, under `x-webhooks` (OpenAPI 3.0's extension for what
 * 3.1 calls `webhooks`), every event with its body.
 */
export function webhookDocs(): { schemas: Record<string, unknown>; webhooks: Record<string, unknown> } {
  const schemas: Record<string, unknown> = {};
  for (const record of Object.keys(WEBHOOK_RECORDS) as TWebhookRecord[]) {
    const current = z.toJSONSchema(RECORD_SCHEMAS[record], { io: 'output', unrepresentable: 'any', target: 'openapi-3.0' });
    delete (current as { $schema?: string }).$schema;
    schemas[schemaName(record)] = {
      type: 'object',
      required: ['id', 'event', 'occurredAt', 'record', 'action', 'by', 'data', 'current'],
      properties: {
        id: { type: 'integer', description: 'The delivery: the same number on a retry (drop a repeat).' },
        event: { type: 'string', enum: WEBHOOK_EVENTS.filter((e) => e.startsWith(`${record}.`)) },
        occurredAt: { type: 'string', format: 'date-time' },
        record: { type: 'object', properties: { entity: { type: 'string', enum: [WEBHOOK_RECORDS[record]] }, id: { type: 'integer', nullable: true } } },
        action: { type: 'string', description: 'The action-log action (Create, Update, Delete, …).' },
        by: { type: 'string', nullable: true, description: 'Who made the change (a user, or apikey:<name>).' },
        data: { description: 'The change as the action log holds it.' },
        current: { ...current, nullable: true, description: 'The record as the API shows it when the event is sent; null once deleted.' },
      },
    };
  }
  const webhooks = Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => {
      const record = event.split('.')[0] as TWebhookRecord;
      return [
        event,
        {
          post: {
            summary: event,
            parameters: [{ in: 'header', name: WEBHOOK_SIGNATURE_HEADER, required: true, schema: { type: 'string' }, description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">' },
              { in: 'header', name: WEBHOOK_ATTEMPT_HEADER, required: true, schema: { type: 'integer', minimum: 1 }, description: 'The try: 1 the first time, higher on any later one (a repeat of the same delivery id).' },
            ],
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(record)}` } } } },
            responses: { '2XX': { description: 'Received; any other answer, or none within 10 s, is retried.' } },
          },
        },
      ];
    }),
  );
  return { schemas, webhooks };
}
