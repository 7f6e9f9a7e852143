import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { API_KEY_AREAS, API_KEY_MAX_DAYS, type TApiKey, type TApiKeyScopes, type TWebhook, type TWebhookDelivery } from '@crm/contract';
import type { Actor } from '../../lib/audit.ts';
import { logAction } from '../../lib/audit.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { agencyToday, toLocalDateTime } from '../../lib/dates.ts';
import { newApiKey } from './api-key-auth.ts';
import { urlProblem } from './webhook-address.ts';
import { openWebhookSecret, sealWebhookSecret } from './webhook-secret.ts';
import { WEBHOOK_JOB, WEBHOOK_JOB_ATTEMPTS } from './webhook-queue.ts';

type Caller = { userId: number; actor: Actor };

/** A timestamp as the driver answers a raw query (text), as a Date. */
const asDate = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86400000;

type KeyRow = { id: number; name: string; hint: string; scopes: TApiKeyScopes; created_by_name: string | null; created_on: Date; last_used_on: Date | null; expires_on: string; revoked_on: Date | null };

const keySelect = (tz: string) => sql`
  select k.id, k.name, k.hint, k.scopes, coalesce(a.display_name, u.username) as created_by_name, k.created_on, k.last_used_on, k.revoked_on,
    to_char((k.expires_on at time zone ${tz}) - interval '1 day', 'YYYY-MM-DD') as expires_on
  from api_keys k left join users u on u.id = k.created_by left join accounts a on a.id = u.account_id`;

function keyOut(r: KeyRow, tz: string): TApiKey {
  return {
    id: r.id,
    name: r.name,
    hint: r.hint,
    scopes: r.scopes,
    createdBy: r.created_by_name,
    createdOn: toLocalDateTime(asDate(r.created_on), tz)!,
    lastUsedOn: toLocalDateTime(asDate(r.last_used_on), tz),
    expiresOn: r.expires_on,
    revokedOn: toLocalDateTime(asDate(r.revoked_on), tz),
  };
}

export async function listApiKeys(app: FastifyInstance): Promise<TApiKey[]> {
  const tz = app.config.timeZone;
  const res = await app.db.execute(sql`${keySelect(tz)} order by k.revoked_on is not null, k.created_on desc, k.id desc`);
  return (res.rows as KeyRow[]).map((r) => keyOut(r, tz));
}

async function oneKey(app: FastifyInstance, id: number): Promise<TApiKey> {
  const tz = app.config.timeZone;
  const res = await app.db.execute(sql`${keySelect(tz)} where k.id = ${id}`);
  const r = res.rows[0] as KeyRow | undefined;
  if (!r) throw notFound();
  return keyOut(r, tz);
}

/** A new key: its secret is answered this once and only its SHA-256 is kept; it works until the end of `expiresOn` (the agency's day). */
export async function createApiKey(app: FastifyInstance, caller: Caller, body: { name: string; scopes: TApiKeyScopes; expiresOn: string }) {
  const tz = app.config.timeZone;
  if (!API_KEY_AREAS.some((a) => body.scopes[a] !== 'none')) throw fieldError('scopes', 'apiKeys.errors.noScope');
  const days = dayNumber(body.expiresOn) - dayNumber(agencyToday(tz));
  if (days < 0 || days > API_KEY_MAX_DAYS) throw fieldError('expiresOn', 'apiKeys.errors.expiry', { max: API_KEY_MAX_DAYS });
  const key = newApiKey();
  const id = await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      insert into api_keys (name, hint, key_hash, scopes, created_by, expires_on)
      values (${body.name}, ${key.hint}, ${key.hash}, ${JSON.stringify(body.scopes)}::jsonb, ${caller.userId}, (${body.expiresOn}::date + 1)::timestamp at time zone ${tz})
      returning id`);
    const newId = Number((res.rows[0] as { id: number }).id);
    await logAction(tx, caller.actor, { action: 'Create', entity: 'ApiKey', entityId: newId, data: { name: body.name, scopes: body.scopes, expiresOn: body.expiresOn } });
    return newId;
  });
  return { key: await oneKey(app, id), secret: key.secret };
}

/** Revoked at once: the next call made with it is a 401. Revoking a revoked key changes nothing. */
export async function revokeApiKey(app: FastifyInstance, caller: Caller, id: number): Promise<TApiKey> {
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`update api_keys set revoked_on = now() where id = ${id} and revoked_on is null returning name`);
    const row = res.rows[0] as { name: string } | undefined;
    if (row) await logAction(tx, caller.actor, { action: 'Revoke', entity: 'ApiKey', entityId: id, data: { name: row.name } });
  });
  return oneKey(app, id);
}

type HookRow = { id: number; url: string; events: string[]; enabled: boolean; version: number; created_by_name: string | null; created_on: Date; failing_since: Date | null; disabled_on: Date | null; pending: number; secret: string };

const hookSelect = sql`
  select w.id, w.url, w.events, w.enabled, w.version, coalesce(a.display_name, u.username) as created_by_name, w.created_on, w.failing_since, w.disabled_on, w.secret,
    (select count(*)::int from webhook_deliveries d where d.endpoint_id = w.id and d.state = 'pending') as pending
  from webhook_endpoints w left join users u on u.id = w.created_by left join accounts a on a.id = u.account_id`;

/** The secret's first characters, to tell webhooks apart; "…" when the server's key cannot open it (the list still shows, to switch it off). */
function secretHint(app: FastifyInstance, stored: string): string {
  try {
    return `${openWebhookSecret(app, stored).slice(0, 10)}…`;
  } catch {
    return '…';
  }
}

function hookOut(app: FastifyInstance, r: HookRow): TWebhook {
  const tz = app.config.timeZone;
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    enabled: r.enabled,
    version: r.version,
    createdBy: r.created_by_name,
    createdOn: toLocalDateTime(asDate(r.created_on), tz)!,
    failingSince: toLocalDateTime(asDate(r.failing_since), tz),
    disabledOn: toLocalDateTime(asDate(r.disabled_on), tz),
    pending: r.pending,
    hint: secretHint(app, r.secret),
  };
}

export async function listWebhooks(app: FastifyInstance): Promise<TWebhook[]> {
  const res = await app.db.execute(sql`${hookSelect} order by w.id`);
  return (res.rows as HookRow[]).map((r) => hookOut(app, r));
}

async function oneWebhook(app: FastifyInstance, id: number): Promise<TWebhook> {
  const res = await app.db.execute(sql`${hookSelect} where w.id = ${id}`);
  const r = res.rows[0] as HookRow | undefined;
  if (!r) throw notFound();
  return hookOut(app, r);
}

const rule = (app: FastifyInstance) => ({ allowPrivate: app.config.integrations.webhookAllowPrivate });

/** A new endpoint: https (or, where private addresses are allowed, http to this machine); its signing secret answered this once. */
export async function createWebhook(app: FastifyInstance, caller: Caller, body: { url: string; events: string[] }) {
  const problem = urlProblem(body.url, rule(app));
  if (problem) throw fieldError('url', problem);
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const sealed = sealWebhookSecret(app, secret);
  const events = [...new Set(body.events)];
  const id = await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`insert into webhook_endpoints (url, events, secret, created_by) values (${body.url}, ${sql.param(events)}::text[], ${sealed}, ${caller.userId}) returning id`);
    const newId = Number((res.rows[0] as { id: number }).id);
    await logAction(tx, caller.actor, { action: 'Create', entity: 'Webhook', entityId: newId, data: { url: body.url, events } });
    return newId;
  });
  return { webhook: await oneWebhook(app, id), secret };
}

/** On again (failures forgotten) or off; version guard. */
export async function setWebhookEnabled(app: FastifyInstance, caller: Caller, id: number, body: { enabled: boolean; version?: number | null }): Promise<TWebhook> {
  const version = requireVersion(body.version);
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      update webhook_endpoints set enabled = ${body.enabled}, version = version + 1, failing_since = null, failures = 0, retry_at = null,
        disabled_on = case when ${body.enabled} then null else now() end
      where id = ${id} and version = ${version} returning id`);
    if (!res.rows.length) {
      const exists = await tx.execute(sql`select 1 from webhook_endpoints where id = ${id}`);
      if (!exists.rows.length) throw notFound();
      throw conflict(await oneWebhook(app, id));
    }
    await logAction(tx, caller.actor, { action: 'Update', entity: 'Webhook', entityId: id, data: { enabled: body.enabled } });
    if (body.enabled) await app.jobs.enqueue(WEBHOOK_JOB, { endpointId: id }, { singletonKey: `endpoint:${id}`, maxAttempts: WEBHOOK_JOB_ATTEMPTS, tx });
  });
  return oneWebhook(app, id);
}

export async function deleteWebhook(app: FastifyInstance, caller: Caller, id: number) {
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`delete from webhook_endpoints where id = ${id} returning url`);
    const row = res.rows[0] as { url: string } | undefined;
    if (!row) throw notFound();
    await logAction(tx, caller.actor, { action: 'Delete', entity: 'Webhook', entityId: id, data: { url: row.url } });
  });
}

type DeliveryRow = { id: number; event: string; entity: string; entity_id: number | null; state: TWebhookDelivery['state']; attempts: number; last_status: number | null; last_error: string | null; created_on: Date; last_attempt_on: Date | null; delivered_on: Date | null };

function deliveryOut(r: DeliveryRow, tz: string): TWebhookDelivery {
  return {
    id: Number(r.id),
    event: r.event,
    entity: r.entity,
    entityId: r.entity_id,
    state: r.state,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdOn: toLocalDateTime(asDate(r.created_on), tz)!,
    lastAttemptOn: toLocalDateTime(asDate(r.last_attempt_on), tz),
    deliveredOn: toLocalDateTime(asDate(r.delivered_on), tz),
  };
}

const deliveryColumns = sql`id, event, entity, entity_id, state, attempts, last_status, last_error, created_on, last_attempt_on, delivered_on`;

/** An endpoint's newest 100 deliveries, newest first. */
export async function listDeliveries(app: FastifyInstance, endpointId: number): Promise<TWebhookDelivery[]> {
  const ep = await app.db.execute(sql`select 1 from webhook_endpoints where id = ${endpointId}`);
  if (!ep.rows.length) throw notFound();
  const res = await app.db.execute(sql`select ${deliveryColumns} from webhook_deliveries where endpoint_id = ${endpointId} order by id desc limit 100`);
  return (res.rows as DeliveryRow[]).map((r) => deliveryOut(r, app.config.timeZone));
}

/** "Send again": the same event as a new delivery, sent after what waits already; refused while the endpoint is switched off. */
export async function resendDelivery(app: FastifyInstance, caller: Caller, id: number): Promise<TWebhookDelivery> {
  return app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      insert into webhook_deliveries (endpoint_id, event, entity, entity_id, payload)
      select d.endpoint_id, d.event, d.entity, d.entity_id, d.payload from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
      where d.id = ${id} and w.enabled
      returning ${deliveryColumns}, endpoint_id`);
    const row = res.rows[0] as (DeliveryRow & { endpoint_id: number }) | undefined;
    if (!row) {
      const exists = await tx.execute(sql`select 1 from webhook_deliveries where id = ${id}`);
      if (!exists.rows.length) throw notFound();
      throw new AppError(409, 'webhooks.errors.switchedOff');
    }
    await logAction(tx, caller.actor, { action: 'Resend', entity: 'Webhook', entityId: row.endpoint_id, data: { delivery: id, again: Number(row.id) } });
    await app.jobs.enqueue(WEBHOOK_JOB, { endpointId: row.endpoint_id }, { singletonKey: `endpoint:${row.endpoint_id}`, maxAttempts: WEBHOOK_JOB_ATTEMPTS, tx });
    return deliveryOut(row, app.config.timeZone);
  });
}
