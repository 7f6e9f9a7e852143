import { sql } from 'drizzle-orm';
import { WEBHOOK_RECORDS, type TWebhookChange, type TWebhookEvent, type TWebhookRecord } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';

/** The job that sends an endpoint's deliveries, one endpoint at a time, oldest first. */
export const WEBHOOK_JOB = 'webhooks.send';
/** A run that fails itself (the database unreachable: not a receiver's failure, which the endpoint's own back-off handles) is retried so often. */
export const WEBHOOK_JOB_ATTEMPTS = 10;

/** Logged actions that tell nothing changed in the record (a read, a download, a sign-in). */
const NOT_CHANGES = new Set(['Read', 'Download', 'Login', 'Logout', 'MarkUnread', 'LanguageSuggested', 'PasswordResetRequested']);
const RECORD_OF_ENTITY = new Map<string, TWebhookRecord>(Object.entries(WEBHOOK_RECORDS).map(([record, entity]) => [entity, record as TWebhookRecord]));

/** The event an action-log row is (`lead.created`, `property.updated`, `payment.deleted`), or null. */
export function webhookEvent(action: string, entity: string): TWebhookEvent | null {
  const record = RECORD_OF_ENTITY.get(entity);
  if (!record || NOT_CHANGES.has(action)) return null;
  const change: TWebhookChange = action === 'Create' ? 'created' : action === 'Delete' || action === 'Erase' ? 'deleted' : 'updated';
  return `${record}.${change}`;
}

/**
 * Queues, in the transaction of a logged change, a delivery to every switched-on endpoint that
 * subscribes to its event, and wakes each endpoint's sender (one statement; nothing when no endpoint
 * listens). The delivery exists only if the change commits: no event is told that did not happen.
 * The wake-up is a job of its own, not the endpoint's one queued run: a unique row inserted here
 * would make every other change that logs an event wait for this transaction to end. A wake-up that
 * finds the endpoint held by a run asks for another run a moment later (sendEndpoint).
 */
export async function queueWebhooks(
  tx: Tx | Db,
  entry: { action: string; entity: string; entityId: number | null; by: string | null; data: unknown },
): Promise<void> {
  const event = webhookEvent(entry.action, entry.entity);
  if (!event) return;
  await queueWebhookEvent(tx, { ...entry, event });
}

/**
 * Queues one named event (a change, or `lead.fromPortal`, `property.mandateEnding`: decision 097)
 * in the caller's transaction, as queueWebhooks does for a logged change.
 */
export async function queueWebhookEvent(
  tx: Tx | Db,
  entry: { event: TWebhookEvent; action: string; entity: string; entityId: number | null; by: string | null; data: unknown },
): Promise<void> {
  const { event } = entry;
  const payload = JSON.stringify({ action: entry.action, by: entry.by, data: entry.data ?? null });
  await tx.execute(sql`
    with d as (
      insert into webhook_deliveries (endpoint_id, event, entity, entity_id, payload)
      select e.id, ${event}, ${entry.entity}, ${entry.entityId}, ${payload}::jsonb from webhook_endpoints e
      where e.enabled and ${event} = any(e.events)
      returning endpoint_id
    )
    insert into jobs (name, payload, max_attempts)
    select distinct ${WEBHOOK_JOB}, jsonb_build_object('endpointId', endpoint_id), ${WEBHOOK_JOB_ATTEMPTS}::int from d
    returning pg_notify('crm_jobs', name)`);
}

/** Deliveries sent or given up over 30 days ago go (they copy logged changes, which the action log keeps): the daily purge. */
export async function purgeWebhookDeliveries(db: Db): Promise<void> {
  await db.execute(sql`delete from webhook_deliveries where state <> 'pending' and created_on < now() - interval '30 days'`);
}
