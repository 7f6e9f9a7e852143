import { eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, activities, objects } from '../../db/schema/index.ts';
import { accessDenied } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/**
 * The kinds of record that own files (LinkKind), each with a check that the record exists.
 * A module that adds such a record (objects, leads, deals...) adds its line here.
 */
type FileParent = { entity: string; exists: (db: Db | Tx, id: number) => Promise<boolean> };

const FILE_PARENTS = new Map<number, FileParent>([
  [LinkKind.Account, { entity: 'Account', exists: async (db, id) => (await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, id))).length > 0 }],
  [
    LinkKind.Activity,
    { entity: 'Activity', exists: async (db, id) => (await db.select({ id: activities.id }).from(activities).where(eq(activities.id, id))).length > 0 },
  ],
  [LinkKind.Object, { entity: 'Object', exists: async (db, id) => (await db.select({ id: objects.id }).from(objects).where(eq(objects.id, id))).length > 0 }],
]);

/** Lets a module register its record kind (e.g. objects: LinkKind.Object) without editing this file. */
export function registerFileParent(kind: number, parent: FileParent) {
  FILE_PARENTS.set(kind, parent);
}

export function getFileParent(kind: number): FileParent | undefined {
  return FILE_PARENTS.get(kind);
}

/**
 * Refuses (403) a user the files of a record hidden from them, as the record itself is: a branch
 * user does not reach an activity linked to a reservation (docs/access.md), so neither its files'
 * list, nor a file of it (to open, remove or reorder), nor attaching to it.
 */
export async function checkFileParentVisible(db: Db | Tx, user: SessionUser, parentType: number | null, parentId: number | null): Promise<void> {
  if (user.branchId === null || parentType === null || parentId === null) return;
  if (parentType === LinkKind.Activity) {
    const hidden = await db.execute(sql`select 1 from activity_links where activity_id = ${parentId} and entity = ${LinkKind.Reservation} limit 1`);
    if (hidden.rows.length) throw accessDenied();
  }
}
