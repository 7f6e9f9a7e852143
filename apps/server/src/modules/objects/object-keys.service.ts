import type { FastifyInstance } from 'fastify';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { formatReferenceNumber, type TObjectKey } from '@crm/contract';
import type { z } from 'zod';
import type { ZObjectKeyEdit, ZObjectKeyListQuery } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, objectKeys, objects } from '../../db/schema/index.ts';
import { badRequest, conflict, fieldError, notFound } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import type { Caller } from './objects.service.ts';
import { refPrefix } from './objects.lists.ts';

const ENTITY = 'ObjectKey';

const keyColumns = {
  id: objectKeys.id,
  objectId: objectKeys.objectId,
  ref: objects.referenceNumber,
  accountId: objectKeys.accountId,
  account: accounts.displayName,
  received: objectKeys.received,
  givenAway: objectKeys.givenAway,
  description: objectKeys.description,
  version: objectKeys.version,
};

function keysQuery(db: Db | Tx, where: SQL | undefined) {
  return db
    .select(keyColumns)
    .from(objectKeys)
    .innerJoin(objects, eq(objects.id, objectKeys.objectId))
    .leftJoin(accounts, eq(accounts.id, objectKeys.accountId))
    .where(where);
}

type KeyRow = Awaited<ReturnType<typeof keysQuery>>[number];
const toKey = ({ ref, ...r }: KeyRow): TObjectKey => ({ ...r, objectReferenceNumber: formatReferenceNumber(ref) });

/** GET /api/ObjectKeys: by reference-number prefix, by object then newest first. */
export async function listKeys(app: FastifyInstance, q: z.output<typeof ZObjectKeyListQuery>) {
  const typed = q.referenceNumber.trim().replace(/^#/, '');
  if (typed && !/^\d{1,10}$/.test(typed)) return { items: [], totalRows: 0 };
  const where = typed ? refPrefix(typed) : undefined;
  const [rows, count] = await Promise.all([
    keysQuery(app.db, where)
      .orderBy(objects.referenceNumber, sql`${objectKeys.received} desc nulls last`, objectKeys.id)
      .limit(q.perPage)
      .offset((q.currentPage - 1) * q.perPage),
    app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(objectKeys)
      .innerJoin(objects, eq(objects.id, objectKeys.objectId))
      .where(where),
  ]);
  return { items: rows.map(toKey), totalRows: count[0]?.n ?? 0 };
}

export async function getKey(db: Db | Tx, id: number): Promise<TObjectKey> {
  const [row] = await keysQuery(db, eq(objectKeys.id, id));
  if (!row) throw notFound('objectKeys.notFound');
  return toKey(row);
}

async function checkRefs(tx: Tx, body: z.output<typeof ZObjectKeyEdit>) {
  const [o] = await tx.select({ id: objects.id }).from(objects).where(eq(objects.id, body.objectId));
  if (!o) throw fieldError('objectId', 'objectKeys.objectNotFound');
  if (body.accountId) {
    const [a] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, body.accountId));
    if (!a) throw fieldError('accountId', 'objectKeys.accountNotFound');
  }
}

/** POST /api/ObjectKeys/edit: a new key (no id) or a change of one (id and the version it was read at). */
export async function saveKey(app: FastifyInstance, caller: Caller, body: z.output<typeof ZObjectKeyEdit>): Promise<TObjectKey> {
  return app.db.transaction(async (tx) => {
    const values = {
      objectId: body.objectId,
      accountId: body.accountId ?? null,
      received: body.received ?? null,
      givenAway: body.givenAway ?? null,
      description: body.description?.trim() ? body.description.trim() : null,
    };
    // A key record says something: who holds it, since when, or what it is.
    const empty = () => {
      if (values.accountId === null && values.received === null && values.givenAway === null && values.description === null) throw fieldError('accountId', 'objectKeys.empty');
    };
    if (!body.id) {
      await checkRefs(tx, body);
      empty();
      const [row] = await tx
        .insert(objectKeys)
        .values({ ...values, createdBy: caller.user.id, modifiedBy: caller.user.id })
        .returning({ id: objectKeys.id });
      await logAction(tx, caller.actor, { action: 'Create', entity: ENTITY, entityId: row!.id, data: values });
      return getKey(tx, row!.id);
    }
    const [current] = await tx.select().from(objectKeys).where(eq(objectKeys.id, body.id)).for('update');
    if (!current) throw notFound('objectKeys.notFound');
    if (body.version === undefined) throw fieldError('version', 'validation.required');
    if (body.version !== current.version) throw conflict(await getKey(tx, body.id));
    await checkRefs(tx, body);
    empty();
    const changes = Object.fromEntries(Object.entries(values).filter(([k, v]) => (current as Record<string, unknown>)[k] !== v));
    if (!Object.keys(changes).length) return getKey(tx, body.id);
    await tx
      .update(objectKeys)
      .set({ ...values, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
      .where(and(eq(objectKeys.id, body.id)));
    await logAction(tx, caller.actor, { action: 'Update', entity: ENTITY, entityId: body.id, data: changes });
    return getKey(tx, body.id);
  });
}

export async function deleteKey(app: FastifyInstance, caller: Caller, id: number) {
  if (id < 1) throw badRequest('validation.invalid');
  await app.db.transaction(async (tx) => {
    const [gone] = await tx.delete(objectKeys).where(eq(objectKeys.id, id)).returning();
    if (!gone) throw notFound('objectKeys.notFound');
    await logAction(tx, caller.actor, { action: 'Delete', entity: ENTITY, entityId: id, data: { objectId: gone.objectId, accountId: gone.accountId } });
  });
}
