import type { FastifyInstance } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { ASSIGNMENT_PARENTS, ASSIGNMENT_PARENT_FIELDS, type TAssignmentAdd, type TAssignmentList, type TAssignmentParent } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, assignments, leads, objects, viewings } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { accessDenied, badRequest, fieldError, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { checkStaffAccount } from '../activities/activities.service.ts';

type Q = Db | Tx;
const ENTITY = 'Assignment';

/** A route segment -> parent kind: the name in any letter case, or its number 0-3. */
export function parseParent(segment: string): { name: TAssignmentParent; kind: number } {
  const s = segment.trim().toLowerCase();
  for (const [name, kind] of Object.entries(ASSIGNMENT_PARENTS)) {
    if (s === name || s === String(kind)) return { name: name as TAssignmentParent, kind };
  }
  throw badRequest('assignments.unknownParent');
}

/** The parent record must exist: an object, account, lead or viewing. */
async function checkParent(db: Q, kind: number, parentId: number) {
  if (kind === ASSIGNMENT_PARENTS.object) {
    const [o] = await db.select({ id: objects.id }).from(objects).where(eq(objects.id, parentId));
    if (!o) throw notFound();
    return;
  }
  if (kind === ASSIGNMENT_PARENTS.lead) {
    const [l] = await db.select({ id: leads.id }).from(leads).where(eq(leads.id, parentId));
    if (!l) throw notFound();
    return;
  }
  if (kind === ASSIGNMENT_PARENTS.viewing) {
    const [v] = await db.select({ id: viewings.id }).from(viewings).where(eq(viewings.id, parentId));
    if (!v) throw notFound();
    return;
  }
  if (kind !== ASSIGNMENT_PARENTS.account) return;
  const [a] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, parentId));
  if (!a) throw notFound();
}

async function listItems(db: Q, kind: number, parentId: number) {
  return db
    .select({ accountId: assignments.accountId, account: accounts.displayName })
    .from(assignments)
    .innerJoin(accounts, eq(accounts.id, assignments.accountId))
    .where(and(eq(assignments.parent, kind), eq(assignments.parentId, parentId)))
    .orderBy(asc(assignments.createdOn), asc(assignments.id));
}

/**
 * Who may change a record's assignments: admins, staff not tied to a branch, and a branch user
 * who is assigned to the record himself.
 */
function computeCanEdit(user: SessionUser, items: { accountId: number }[]) {
  if (user.roles.includes('admin') || user.branchId === null) return true;
  return user.accountId !== null && items.some((i) => i.accountId === user.accountId);
}

export async function getAssignments(app: FastifyInstance, user: SessionUser, segment: string, parentId: number): Promise<TAssignmentList> {
  const { kind } = parseParent(segment);
  await checkParent(app.db, kind, parentId);
  const items = await listItems(app.db, kind, parentId);
  return { canEdit: computeCanEdit(user, items), items };
}

export async function addAssignment(app: FastifyInstance, user: SessionUser, actor: Actor, segment: string, body: TAssignmentAdd) {
  const { name, kind } = parseParent(segment);
  const field = ASSIGNMENT_PARENT_FIELDS[name];
  const parentId = body[field];
  if (!parentId) throw fieldError(field, 'validation.required');
  return app.db.transaction(async (tx) => {
    await checkParent(tx, kind, parentId);
    if (!computeCanEdit(user, await listItems(tx, kind, parentId))) throw accessDenied();
    const person = await checkStaffAccount(tx, body.assignedTo, 'assignedTo', 'assignments.notStaff');
    const [row] = await tx
      .insert(assignments)
      .values({ parent: kind, parentId, accountId: body.assignedTo, createdBy: user.id })
      .onConflictDoNothing()
      .returning({ id: assignments.id });
    if (!row) throw fieldError('assignedTo', 'assignments.duplicate', { name: person.name });
    await logAction(tx, actor, { action: 'Create', entity: ENTITY, entityId: row.id, message: person.name, data: { parent: name, parentId, accountId: body.assignedTo } });
    return { accountId: body.assignedTo, account: person.name };
  });
}

export async function deleteAssignment(app: FastifyInstance, user: SessionUser, actor: Actor, segment: string, parentId: number, accountId: number) {
  const { name, kind } = parseParent(segment);
  await app.db.transaction(async (tx) => {
    if (!computeCanEdit(user, await listItems(tx, kind, parentId))) throw accessDenied();
    const [row] = await tx
      .delete(assignments)
      .where(and(eq(assignments.parent, kind), eq(assignments.parentId, parentId), eq(assignments.accountId, accountId)))
      .returning({ id: assignments.id });
    if (!row) throw notFound();
    await logAction(tx, actor, { action: 'Delete', entity: ENTITY, entityId: row.id, data: { parent: name, parentId, accountId } });
  });
}
