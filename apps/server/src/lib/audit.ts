import type { Db, Tx } from '../db/client.ts';
import { actionLog } from '../db/schema/index.ts';
import { queueWebhooks } from '../modules/integrations/webhook-queue.ts';

export type Actor = { id: number | null; name: string | null };

/** One row of the action log; call it inside the transaction of the change it records. */
export async function logAction(
  tx: Tx | Db,
  actor: Actor,
  entry: { action: string; entity: string; entityId?: number | null; message?: string | null; data?: unknown },
) {
  await tx.insert(actionLog).values({
    actionBy: actor.id,
    actionByName: actor.name,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId ?? null,
    message: entry.message ?? null,
    data: entry.data === undefined ? null : (entry.data as object),
  });
  // Every logged change of a record the webhooks know is an event for those subscribed (decision 080).
  await queueWebhooks(tx, { action: entry.action, entity: entry.entity, entityId: entry.entityId ?? null, by: actor.name, data: entry.data });
}
