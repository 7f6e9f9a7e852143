import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { OWNER_RELATION, formatReferenceNumber, type TObjectAccount } from '@crm/contract';
import type { z } from 'zod';
import type { ZObjectAccountKey } from '@crm/contract';
import type { Tx } from '../../db/client.ts';
import { accounts, objectAccounts, objects } from '../../db/schema/index.ts';
import { fieldError, notFound } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { queueRentCheck, TENANT_RELATIONS } from '../alerts/alerts.system.ts';
import { OBJECT_LOG_ENTITY, insertBlankObject, requireObjectDto, type Caller, type Reader } from './objects.service.ts';
import { relationName } from './objects.options.ts';

/** The object and the account of a link, or a 404 naming which one is missing. */
async function requireBoth(tx: Tx, objectId: number, accountId: number) {
  const [o] = await tx.select({ id: objects.id, ref: objects.referenceNumber }).from(objects).where(eq(objects.id, objectId));
  if (!o) throw notFound('objects.notFound');
  const [a] = await tx.select({ id: accounts.id, name: accounts.displayName, isOwner: accounts.isOwner, version: accounts.version }).from(accounts).where(eq(accounts.id, accountId));
  if (!a) throw notFound('objectAccounts.accountNotFound');
  return { object: o, account: a };
}

function checkDates(body: Pick<TObjectAccount, 'startDate' | 'endDate'>) {
  if (body.startDate && body.endDate && body.startDate > body.endDate) throw fieldError('endDate', 'objectAccounts.dateOrder');
}

/** An owner link makes the account an owner (dated the first time), as a new version of it. */
async function markOwner(tx: Tx, caller: Caller, account: { id: number; isOwner: boolean; version: number; name: string }) {
  if (account.isOwner) return;
  await tx
    .update(accounts)
    .set({ isOwner: true, isOwnerDate: sql`coalesce(${accounts.isOwnerDate}, now())`, version: account.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
    .where(eq(accounts.id, account.id));
  await logAction(tx, caller.actor, { action: 'Update', entity: 'Account', entityId: account.id, message: account.name, data: { isOwner: true } });
}

const linkKey = (objectId: number, accountId: number, relation: number) =>
  and(eq(objectAccounts.objectId, objectId), eq(objectAccounts.accountId, accountId), eq(objectAccounts.relation, relation));

const values = (body: TObjectAccount) => ({
  startDate: body.startDate ?? null,
  endDate: body.endDate ?? null,
  price: body.price ?? null,
  rentPaymentDay: body.rentPaymentDay ?? null,
});

function answer(reader: Reader, body: TObjectAccount, account: string): TObjectAccount {
  return { objectId: body.objectId, accountId: body.accountId, account, relation: body.relation, relationName: relationName(reader.t, body.relation), ...values(body) };
}

/** POST /api/objectAccount/add */
export async function addObjectAccount(app: FastifyInstance, caller: Caller, reader: Reader, body: TObjectAccount) {
  checkDates(body);
  return app.db.transaction(async (tx) => {
    const { object, account } = await requireBoth(tx, body.objectId, body.accountId);
    const [row] = await tx
      .insert(objectAccounts)
      .values({ objectId: body.objectId, accountId: body.accountId, relation: body.relation, ...values(body) })
      .onConflictDoNothing()
      .returning({ objectId: objectAccounts.objectId });
    if (!row) throw fieldError('accountId', 'objectAccounts.duplicate', { name: account.name, relation: relationName(reader.t, body.relation) });
    if (body.relation === OWNER_RELATION) await markOwner(tx, caller, account);
    await logAction(tx, caller.actor, {
      action: 'AddContact',
      entity: OBJECT_LOG_ENTITY,
      entityId: body.objectId,
      message: `#${formatReferenceNumber(object.ref)} ${account.name}`,
      data: { accountId: body.accountId, relation: body.relation, ...values(body) },
    });
    // A tenant's rent reminder due today appears at once, not at the next hourly check.
    if ((TENANT_RELATIONS as readonly number[]).includes(body.relation) && body.rentPaymentDay != null) await queueRentCheck(app, tx, body.objectId);
    return answer(reader, body, account.name);
  });
}

/**
 * GET /api/object/add?ownerId=: "Add property" on an account's page. The blank object and its owner
 * link (the account marked an owner if it was not) are made in one transaction, and both are logged.
 * An unknown account is a 404 and makes nothing.
 */
export async function addObjectOfOwner(app: FastifyInstance, caller: Caller, reader: Reader, accountId: number) {
  return app.db.transaction(async (tx) => {
    const [account] = await tx.select({ id: accounts.id, name: accounts.displayName, isOwner: accounts.isOwner, version: accounts.version }).from(accounts).where(eq(accounts.id, accountId));
    if (!account) throw notFound('objectAccounts.accountNotFound');
    const object = await insertBlankObject(tx, caller);
    const link = { objectId: object.id, accountId, relation: OWNER_RELATION, startDate: null, endDate: null, price: null, rentPaymentDay: null };
    await tx.insert(objectAccounts).values(link);
    await markOwner(tx, caller, account);
    await logAction(tx, caller.actor, {
      action: 'AddContact',
      entity: OBJECT_LOG_ENTITY,
      entityId: object.id,
      message: `#${formatReferenceNumber(object.referenceNumber)} ${account.name}`,
      data: { accountId, relation: OWNER_RELATION, ...values(link) },
    });
    return requireObjectDto(tx, reader, object.id);
  });
}

/** POST /api/objectAccount/update: dates, price and payment day of a link (its key stays). */
export async function updateObjectAccount(app: FastifyInstance, caller: Caller, reader: Reader, body: TObjectAccount) {
  checkDates(body);
  return app.db.transaction(async (tx) => {
    const { object, account } = await requireBoth(tx, body.objectId, body.accountId);
    const [before] = await tx.select().from(objectAccounts).where(linkKey(body.objectId, body.accountId, body.relation)).for('update');
    if (!before) throw notFound('objectAccounts.notFound');
    const was = values({ ...before, price: before.price === null ? null : Number(before.price) } as TObjectAccount);
    const to = values(body);
    // A link a deal put on the property and a person changed is no longer the deal's alone: deleting the deal leaves it.
    const changed = (Object.keys(to) as (keyof typeof to)[]).some((k) => to[k] !== was[k]);
    await tx
      .update(objectAccounts)
      .set({ ...to, ...(changed && before.dealId != null ? { changedSinceDeal: true } : {}) })
      .where(linkKey(body.objectId, body.accountId, body.relation));
    await logAction(tx, caller.actor, {
      action: 'UpdateContact',
      entity: OBJECT_LOG_ENTITY,
      entityId: body.objectId,
      message: `#${formatReferenceNumber(object.ref)} ${account.name}`,
      data: { accountId: body.accountId, relation: body.relation, from: was, to },
    });
    // A tenant's rent reminder due today appears at once, not at the next hourly check.
    if ((TENANT_RELATIONS as readonly number[]).includes(body.relation) && body.rentPaymentDay != null) await queueRentCheck(app, tx, body.objectId);
    return answer(reader, body, account.name);
  });
}

/** DELETE /api/objectAccount: the link of that relation, or every link between the two when none is given. */
export async function deleteObjectAccount(app: FastifyInstance, caller: Caller, body: z.output<typeof ZObjectAccountKey>) {
  await app.db.transaction(async (tx) => {
    const { object, account } = await requireBoth(tx, body.objectId, body.accountId);
    const gone = await tx
      .delete(objectAccounts)
      .where(
        and(
          eq(objectAccounts.objectId, body.objectId),
          eq(objectAccounts.accountId, body.accountId),
          body.relation !== undefined ? eq(objectAccounts.relation, body.relation) : undefined,
        ),
      )
      .returning({ relation: objectAccounts.relation });
    if (!gone.length) throw notFound('objectAccounts.notFound');
    await logAction(tx, caller.actor, {
      action: 'RemoveContact',
      entity: OBJECT_LOG_ENTITY,
      entityId: body.objectId,
      message: `#${formatReferenceNumber(object.ref)} ${account.name}`,
      data: { accountId: body.accountId, relations: gone.map((g) => g.relation) },
    });
  });
}

/** Merging accounts: the duplicate's object links, keys and key loans become the kept account's. */
export async function mergeObjectLinks(tx: Tx, keptId: number, duplicateId: number) {
  await tx.execute(sql`
    update object_accounts l set account_id = ${keptId}
    where l.account_id = ${duplicateId}
      and not exists (select 1 from object_accounts x where x.object_id = l.object_id and x.account_id = ${keptId} and x.relation = l.relation)`);
  await tx.delete(objectAccounts).where(eq(objectAccounts.accountId, duplicateId));
  await tx.execute(sql`update object_keys set account_id = ${keptId} where account_id = ${duplicateId}`);
  await tx.execute(sql`update object_key_loans set account_id = ${keptId}, version = version + 1 where account_id = ${duplicateId}`);
  await tx.update(objects).set({ createdByAccountId: keptId }).where(eq(objects.createdByAccountId, duplicateId));
  // An owner of objects is an owner.
  await tx.execute(sql`
    update accounts set is_owner = true, is_owner_date = coalesce(is_owner_date, now())
    where id = ${keptId} and not is_owner and exists (select 1 from object_accounts l where l.account_id = ${keptId} and l.relation = ${OWNER_RELATION})`);
}

/**
 * An owner link's end date passes without anyone touching the property: the list, the search and
 * the owner's page still named the former owner (kept in objects.owner_id when a link or the
 * property is saved). This hourly job gives each property whose named owner's link has ended its
 * current owner (crm_objects_refresh_owner), on the agency's today.
 */
export const OWNERS_REFRESH_JOB = 'objects.ownersRefresh';
export async function refreshEndedOwners(db: FastifyInstance['db']): Promise<number> {
  const { rows } = await db.execute<{ ids: number[] }>(sql`
    select coalesce(array_agg(distinct oa.object_id), '{}') as ids
    from ${objectAccounts} oa join ${objects} o on o.id = oa.object_id and o.owner_id = oa.account_id
    where oa.relation = ${OWNER_RELATION} and oa.end_date < crm_today()`);
  const ids = rows[0]?.ids ?? [];
  if (ids.length) await db.execute(sql`select crm_objects_refresh_owner(${sql`${`{${ids.join(',')}}`}::int[]`})`);
  return ids.length;
}
