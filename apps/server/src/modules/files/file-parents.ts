import { eq } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, activities, objects } from '../../db/schema/index.ts';

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
