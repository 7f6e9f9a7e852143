import { LinkKind } from '@crm/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { activities, activityLinks, files } from '../../db/schema/index.ts';

/**
 * A record is deleted with its activity links: the activities it alone held go with it, and their
 * attachments are let go (no parent), so the purge of unattached files (files.service.ts) deletes
 * their stored content, as it does for the record's own files. Activities still linked to another
 * record stay, with their files. Returns the ids of the activities deleted.
 */
export async function deleteUnlinkedActivities(tx: Tx, activityIds: number[]): Promise<number[]> {
  const ids = [...new Set(activityIds)];
  if (!ids.length) return [];
  const gone = await tx
    .delete(activities)
    .where(and(inArray(activities.id, ids), sql`not exists (select 1 from activity_links l where l.activity_id = ${activities.id})`))
    .returning({ id: activities.id });
  const deleted = gone.map((g) => g.id);
  if (deleted.length) await tx.update(files).set({ parentType: null, parentId: null, detachedOn: sql`now()` }).where(and(eq(files.parentType, LinkKind.Activity), inArray(files.parentId, deleted)));
  return deleted;
}

/**
 * A record about to be deleted lets go of its activities: its links go, and the activities only it
 * held go with their files let go (as above). Returns the ids of the activities deleted.
 */
export async function deleteActivityLinks(tx: Tx, entity: (typeof LinkKind)[keyof typeof LinkKind], id: number): Promise<number[]> {
  const links = await tx
    .delete(activityLinks)
    .where(and(eq(activityLinks.entity, entity), eq(activityLinks.entityId, id)))
    .returning({ activityId: activityLinks.activityId });
  return deleteUnlinkedActivities(tx, links.map((l) => l.activityId));
}
