import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  LinkKind,
  LOG_MESSAGE,
  OBJECT_EDITABLE_FIELDS,
  OWNER_RELATION,
  OBJECT_FIELDS,
  formatReferenceNumber,
  type TCulture,
  type TObjectAccount,
  type TRealtyObject,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { buildOnce } from '../../db/prepared.ts';
import { accounts, assignments, files, objectAccounts, objects } from '../../db/schema/index.ts';
import { AppError, badRequest, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { DRAFT_KEPT_MS } from '../../lib/drafts.ts';
import { OBJECT_LOG_ENTITY, type ObjectChange, type ObjectChangeListener } from './object-change.ts';

export { OBJECT_LOG_ENTITY, type ObjectChange, type ObjectChangeListener };
import { toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { FieldContext } from '../fields/field-registry.ts';
import { normalizeValue, sameValue } from '../fields/field-values.ts';
import { objectSelectLists, parentTypeOf, relationName, relationOptions, typeText } from './objects.options.ts';
import { OBJECT_PATCHABLE, checkObjectRules } from './objects.rules.ts';
import { publishErrorText } from '../publishing/publish.rules.ts';
import { col, fromObjects, objectCreatedBy, objectModifiedBy, placeText } from './objects.sql.ts';
import { objectDeals } from '../deals/deals.service.ts';
import { deleteActivityLinks } from '../activities/activity-orphans.ts';

/** Assignment parent kind of an object (assignments.parent). */
export const ASSIGNMENT_PARENT_OBJECT = 0;

export type Caller = { user: SessionUser; actor: Actor };

declare module 'fastify' {
  interface FastifyInstance {
    /** Called inside the transaction of every saved object change (whole update or one field). */
    objectChangeListeners: ObjectChangeListener[];
  }
}

/** Tells the listeners of a saved change (inside its transaction). */
export async function objectChanged(app: FastifyInstance, tx: Tx, change: ObjectChange) {
  for (const listener of app.objectChangeListeners ?? []) await listener(tx, change);
}

/**
 * An object's photos were added, removed or reordered (from the photo card or the edit form's
 * file calls, not through the object's update): a change of what the public sees like any other.
 * The object's row is locked first (as an update does, before its files), its lastUpdate follows
 * (the feed's `updated` and "newest first"), and the listeners are told, so publishing judges the
 * object again ("at least one photo" is a rule). Its version is left alone: an open edit form
 * keeps saving.
 */
export async function objectPhotosChanged(app: FastifyInstance, tx: Tx, objectId: number, actor: Actor, what: 'imagesAttached' | 'imagesRemoved' | 'imagesOrder') {
  const [row] = (await tx.select().from(objects).where(eq(objects.id, objectId)).for('update')) as Row[];
  if (!row) return;
  await tx.update(objects).set({ lastUpdate: new Date() } as never).where(eq(objects.id, objectId));
  await objectChanged(app, tx, { id: objectId, before: row, after: row, changed: [what], actor });
}
export type Reader = { culture: TCulture; t: (key: string, params?: Record<string, string | number>) => string; timeZone: string };
type Row = Record<string, unknown>;

/** Fields whose change is a change of what the public sees (lastUpdate). */
const PRIVATE_FIELDS = new Set(['internalNotes', 'publishRequested', 'active']);

/** The stored row with the texts the record shows, or undefined (built once per language). */
async function loadObject(db: Db | Tx, id: number, culture: TCulture) {
  const query = buildOnce(db, `object_load_${culture}`, (name) =>
    fromObjects(db, { o: objects, location: placeText(culture), createdByName: objectCreatedBy, modifiedByName: objectModifiedBy })
      .where(eq(objects.id, sql.placeholder('id')))
      .prepare(name),
  );
  const [row] = (await query.execute({ id })) as { o: typeof objects.$inferSelect; location: string; createdByName: string | null; modifiedByName: string | null }[];
  return row;
}

/** The described fields of a row as the contract has them (flags false, choices [] when unset). */
export function fieldsOf(o: Row): Row {
  const out: Row = {};
  for (const d of OBJECT_FIELDS) {
    const v = o[d.name];
    out[d.name] = d.type === 'boolean' ? v === true : d.type === 'multi-select' ? (Array.isArray(v) ? v : []) : (v ?? null);
  }
  return out;
}

async function imagesOf(db: Db | Tx, id: number) {
  return buildOnce(db, 'object_images', (name) =>
    db
      .select({ id: files.id, name: files.systemName, width: files.width, height: files.height, size: files.size })
      .from(files)
      .where(and(eq(files.parentType, LinkKind.Object), eq(files.parentId, sql.placeholder('id')), eq(files.type, 'image')))
      .orderBy(files.sortOrder, files.id)
      .prepare(name),
  ).execute({ id });
}

/** The object as the view and edit screens show it; undefined when there is none. */
export async function getObjectDto(db: Db | Tx, reader: Reader, id: number): Promise<TRealtyObject | undefined> {
  const [row, images] = await Promise.all([loadObject(db, id, reader.culture), imagesOf(db, id)]);
  if (!row) return undefined;
  const { o } = row;
  const f = fieldsOf(o as Row);
  const tz = reader.timeZone;
  return {
    ...f,
    publishError: publishErrorText((o as Row).publishError, reader.t),
    id: o.id,
    referenceNumber: formatReferenceNumber(o.referenceNumber),
    type: typeText(reader.t, f.subTypeObjectTypeId as number | null, f.objectSubTypeId as number | null),
    location: row.location,
    createdOn: toLocalDateTime(o.createdOn, tz)!,
    createdBy: row.createdByName ?? null,
    createdByAccountId: o.createdByAccountId,
    modifiedOn: toLocalDateTime(o.modifiedOn, tz)!,
    modifiedBy: row.modifiedByName ?? null,
    lastUpdate: toLocalDateTime(o.lastUpdate, tz),
    images,
    imagesNew: null,
    version: o.version,
  } as TRealtyObject;
}

export async function requireObjectDto(db: Db | Tx, reader: Reader, id: number) {
  const dto = await getObjectDto(db, reader, id);
  if (!dto) throw notFound('objects.notFound');
  return dto;
}

/** "12" → id 12; "ref0042" (any letter case) → the object with reference number 42. */
export async function resolveIdOrRef(db: Db | Tx, idOrRef: string): Promise<number> {
  const s = idOrRef.trim();
  const asId = /^\d{1,10}$/.exec(s);
  const asRef = /^ref(\d{1,10})$/i.exec(s);
  const n = Number((asId ?? asRef)?.[1] ?? s);
  if ((!asId && !asRef) || !Number.isSafeInteger(n) || n < 1 || n > 2147483647) throw badRequest('objects.badIdOrRef');
  if (asId) return n;
  const [o] = await db.select({ id: objects.id }).from(objects).where(eq(objects.referenceNumber, n));
  if (!o) throw notFound('objects.notFound');
  return o.id;
}

/** The object's contacts (owners, tenants, …) with the accounts' names, owners first. */
export async function contactsOf(db: Db | Tx, t: Reader['t'], objectId: number): Promise<TObjectAccount[]> {
  const rows = await db
    .select({
      objectId: objectAccounts.objectId,
      accountId: objectAccounts.accountId,
      account: accounts.displayName,
      relation: objectAccounts.relation,
      startDate: objectAccounts.startDate,
      endDate: objectAccounts.endDate,
      price: objectAccounts.price,
      rentPaymentDay: objectAccounts.rentPaymentDay,
    })
    .from(objectAccounts)
    .innerJoin(accounts, eq(accounts.id, objectAccounts.accountId))
    .where(eq(objectAccounts.objectId, objectId))
    .orderBy(objectAccounts.relation, sql`${objectAccounts.startDate} nulls first`, accounts.displayName, objectAccounts.accountId);
  return rows.map((r) => ({ ...r, price: r.price === null ? null : Number(r.price), relationName: relationName(t, r.relation) }));
}

export async function editAnswer(db: Db | Tx, reader: Reader, id: number) {
  const object = await requireObjectDto(db, reader, id);
  return {
    object,
    objectSelectLists: objectSelectLists(reader.t),
    objectAccounts: await contactsOf(db, reader.t, id),
    objectAccountRelationSelectList: relationOptions(reader.t),
  };
}

/** The leads the object was offered to and the viewings it was shown at, newest first. */
async function leadsAndViewingsOf(db: Db | Tx, reader: Reader, id: number) {
  const [leadRows, viewingRows] = await Promise.all([
    db.execute(sql`
    select l.id, a.display_name as client from lead_objects lo join leads l on l.id = lo.lead_id left join accounts a on a.id = l.account_id
    where lo.object_id = ${id} order by l.created_on desc limit 100`),
    db.execute(sql`
    select v.id, to_char(v.date_of_viewing at time zone ${reader.timeZone}, 'YYYY-MM-DD"T"HH24:MI:SS') as at, a.display_name as client, vo.result, vo.comment
    from viewing_objects vo join viewings v on v.id = vo.viewing_id left join leads l on l.id = v.demand_id left join accounts a on a.id = l.account_id
    where vo.object_id = ${id} order by v.date_of_viewing desc nulls first, v.id desc limit 100`),
  ]);
  return {
    leads: (leadRows.rows as Row[]).map((r) => ({ id: r.id as number, descr: [`#${r.id}`, r.client].filter(Boolean).join(' · ') })),
    // This object's result at the viewing (what the client made of it), not the viewing's overall one.
    viewings: (viewingRows.rows as Row[]).map((r) => {
      const client = (r.client as string | null) ?? null;
      const result = r.result != null ? reader.t(`viewings.result.${r.result as number}`) : null;
      return { id: r.id as number, descr: [`#${r.id}`, client, result].filter(Boolean).join(' · '), dateOfViewing: (r.at as string | null) ?? null, client, result, comment: (r.comment as string | null) ?? null };
    }),
  };
}

export async function viewAnswer(db: Db | Tx, reader: Reader, id: number) {
  // Independent reads, side by side on the pool (one after the other inside a transaction).
  const [object, contacts, leadsAndViewings, deals] = await Promise.all([
    requireObjectDto(db, reader, id),
    contactsOf(db, reader.t, id),
    leadsAndViewingsOf(db, reader, id),
    objectDeals(db, id, reader.t),
  ]);
  const seen = new Set<number>();
  const linked = contacts.filter((c) => !seen.has(c.accountId) && seen.add(c.accountId));
  return {
    ...object,
    accounts: linked.map((c) => ({ id: c.accountId, descr: c.account ?? '' })),
    ...leadsAndViewings,
    deals,
    // Reservations point at objects once those records exist.
    reservations: [],
    contacts,
    objectSelectLists: objectSelectLists(reader.t),
    objectAccountRelationSelectList: relationOptions(reader.t),
  };
}

/** GET /api/object/add: a blank object with the next reference number, created by the caller. */
export async function addObject(app: FastifyInstance, caller: Caller, reader: Reader) {
  return app.db.transaction(async (tx) => {
    const { id } = await insertBlankObject(tx, caller);
    return requireObjectDto(tx, reader, id);
  });
}

/** A blank object (a draft) with the next reference number, created by the caller, logged; inside the caller's transaction. */
export async function insertBlankObject(tx: Tx, caller: Caller): Promise<{ id: number; referenceNumber: number }> {
  const [row] = await tx
    .insert(objects)
    // A draft until something is entered or attached (lib/drafts.ts).
    .values({ createdBy: caller.user.id, modifiedBy: caller.user.id, createdByAccountId: caller.user.accountId, active: true, draft: true } as never)
    .returning({ id: objects.id, referenceNumber: objects.referenceNumber });
  const ref = formatReferenceNumber(row!.referenceNumber);
  await logAction(tx, caller.actor, { action: 'Create', entity: OBJECT_LOG_ENTITY, entityId: row!.id, message: `#${ref}`, data: { referenceNumber: ref } });
  return row!;
}

/** Ids of freshly uploaded files ("12,13") or a 400. */
function parseFileIds(list: string | null | undefined): number[] {
  if (!list?.trim()) return [];
  const parts = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (!parts.every((p) => /^\d{1,9}$/.test(p))) throw fieldError('imagesNew', 'validation.invalid');
  return [...new Set(parts.map(Number))];
}

/** POST /api/object/update: the whole object (or part of it), based on the version it was read at. */
export type TObjectUpdateBody = { id: number; version: number; imagesNew?: string | null; imagesExisting?: number[] } & Record<string, unknown>;

export async function updateObject(app: FastifyInstance, caller: Caller, reader: Reader, input: unknown) {
  const body = input as TObjectUpdateBody;
  return app.db.transaction(async (tx) => {
    const [locked] = await tx.select({ id: objects.id, version: objects.version }).from(objects).where(eq(objects.id, body.id)).for('update');
    if (!locked) throw notFound('objects.notFound');
    if (requireVersion(body.version) !== locked.version) throw conflict(await requireObjectDto(tx, reader, body.id));
    const [current] = (await tx.select().from(objects).where(eq(objects.id, body.id))) as Row[];
    const ctx: FieldContext = { db: tx, culture: reader.culture, t: reader.t, timeZone: reader.timeZone, user: caller.user };
    const set: Row = {};
    for (const d of OBJECT_EDITABLE_FIELDS) {
      if (body[d.name] === undefined) continue;
      const value = await normalizeValue(d.name, OBJECT_PATCHABLE[d.name]!, body[d.name], ctx, current!);
      const stored = d.type === 'multi-select' ? (current![d.name] ?? []) : d.type === 'boolean' ? current![d.name] === true : current![d.name];
      if (!sameValue(stored, value)) set[d.name] = value;
    }
    const merged: Row = { ...current, ...set };
    // A subtype chosen without its type brings the type along.
    if (merged.objectSubTypeId != null && merged.subTypeObjectTypeId == null) {
      set.subTypeObjectTypeId = parentTypeOf(merged.objectSubTypeId as number) ?? null;
      merged.subTypeObjectTypeId = set.subTypeObjectTypeId;
    }
    checkObjectRules(merged, new Set(Object.keys(set)));
    const changes: Row = { ...set };

    // Photos: newly uploaded ones join the object after its others; the order given is kept.
    const fileIds = parseFileIds(body.imagesNew);
    if (fileIds.length) {
      // A photo is a picture the CRM can show (it has its copies), as attaching one by itself requires.
      const [notPicture] = await tx
        .select({ userName: files.userName })
        .from(files)
        .where(and(inArray(files.id, fileIds), isNull(files.parentId), isNull(files.thumbName)))
        .limit(1);
      if (notPicture) throw new AppError(415, 'files.notAPhoto', { name: notPicture.userName });
      const attached = await tx
        .update(files)
        .set({
          parentType: LinkKind.Object,
          parentId: body.id,
          type: 'image',
          sortOrder: sql`(select coalesce(max(f.sort_order) + 1, 0) from files f where f.parent_type = ${LinkKind.Object} and f.parent_id = ${body.id}) + array_position(${sql.param(fileIds)}::int[], ${files.id})`,
        })
        .where(and(inArray(files.id, fileIds), isNull(files.parentId), isNull(files.detachedOn)))
        .returning({ id: files.id });
      if (attached.length) changes.imagesAttached = attached.map((a) => a.id).sort((a, b) => a - b);
    }
    if (body.imagesExisting?.length) {
      const ids = body.imagesExisting;
      const moved = await tx
        .update(files)
        .set({ sortOrder: sql`array_position(${sql.param(ids)}::int[], ${files.id}) - 1` })
        .where(
          and(
            eq(files.parentType, LinkKind.Object),
            eq(files.parentId, body.id),
            inArray(files.id, ids),
            sql`${files.sortOrder} is distinct from array_position(${sql.param(ids)}::int[], ${files.id}) - 1`,
          ),
        )
        .returning({ id: files.id });
      if (moved.length) changes.imagesOrder = ids;
    }
    if (!Object.keys(changes).length) return requireObjectDto(tx, reader, body.id);
    const publicChange = Object.keys(changes).some((k) => !PRIVATE_FIELDS.has(k));
    await tx
      .update(objects)
      .set({
        ...set,
        version: locked.version + 1,
        modifiedOn: new Date(),
        modifiedBy: caller.user.id,
        ...(publicChange ? { lastUpdate: new Date() } : {}),
      } as never)
      .where(eq(objects.id, body.id));
    const ref = formatReferenceNumber(current!.referenceNumber as number);
    await logAction(tx, caller.actor, { action: 'Update', entity: OBJECT_LOG_ENTITY, entityId: body.id, message: `#${ref}`, data: changes });
    await objectChanged(app, tx, { id: body.id, before: current!, after: merged, changed: Object.keys(changes), actor: caller.actor });
    return requireObjectDto(tx, reader, body.id);
  });
}

/**
 * DELETE /api/object/{id}: the object and what belongs to it (contacts, keys, assignments, its
 * activity links; activities linked to nothing else go with it; files are detached and purged
 * with the other unattached uploads). Refused (409) while reservations, deals or viewings name it.
 */
export async function deleteObject(app: FastifyInstance, caller: Caller, id: number) {
  await app.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        id: objects.id,
        referenceNumber: objects.referenceNumber,
        published: sql<boolean>`coalesce(${col('published')}, false)`,
        // What its public page offered, for the similar ones shown on it once deleted (similarPublic).
        listing: sql<Record<string, unknown>>`json_build_object('typeId', ${col('subTypeObjectTypeId')}, 'subTypeId', ${col('objectSubTypeId')}, 'locationId', ${col('locationId')},
          'forSale', ${col('forSale')}, 'forRent', ${col('forRent')}, 'forShortRent', ${col('forShortRent')})`,
      })
      .from(objects)
      .where(eq(objects.id, id))
      .for('update');
    if (!current) throw notFound('objects.notFound');
    // Its short-let bookings hold money (totals, the owner's payment, commissions) and would go with
    // it: they are deleted or moved to another property first, by those who see them.
    const [{ n: bookings } = { n: 0 }] = (await tx.execute(sql`select count(*)::int as n from reservations where object_id = ${id}`)).rows as { n: number }[];
    if (bookings) throw new AppError(409, 'objects.deleteHasReservations', { count: bookings });
    // Its deals and viewings are the agency's history (a sale closed, what a client said of it): a
    // deal would be left without its property and a viewing would lose it. Taken off the market, a
    // property is made inactive; deleted only when nothing of that history names it.
    const [history] = (
      await tx.execute(sql`select (select count(*) from deals where object_id = ${id})::int as deals,
        (select count(distinct viewing_id) from viewing_objects where object_id = ${id})::int as viewings`)
    ).rows as { deals: number; viewings: number }[];
    if (history!.deals) throw new AppError(409, 'objects.deleteHasDeals', { count: history!.deals });
    if (history!.viewings) throw new AppError(409, 'objects.deleteHasViewings', { count: history!.viewings });
    await tx.delete(assignments).where(and(eq(assignments.parent, ASSIGNMENT_PARENT_OBJECT), eq(assignments.parentId, id)));
    const orphans = await deleteActivityLinks(tx, LinkKind.Object, id);
    const detached = await tx
      .update(files)
      .set({ parentType: null, parentId: null, detachedOn: sql`now()` })
      .where(and(eq(files.parentType, LinkKind.Object), eq(files.parentId, id)))
      .returning({ id: files.id });
    // The property's mandates go with it (0076); their signed documents are detached as its own files are.
    await tx.execute(sql`update files set parent_type = null, parent_id = null, detached_on = now()
      where parent_type = ${LinkKind.Mandate} and parent_id in (select m.id from object_mandates m where m.object_id = ${id})`);
    const contacts = await tx.delete(objectAccounts).where(eq(objectAccounts.objectId, id)).returning({ accountId: objectAccounts.accountId, relation: objectAccounts.relation });
    await tx.execute(sql`delete from object_keys where object_id = ${id}`);
    await tx.delete(objects).where(eq(objects.id, id));
    const ref = formatReferenceNumber(current.referenceNumber);
    await logAction(tx, caller.actor, {
      action: 'Delete',
      entity: OBJECT_LOG_ENTITY,
      entityId: id,
      message: `#${ref}`,
      // Whether it was on the public site: an enquiry from its page, still open somewhere, is taken then (enquiryTaken).
      data: { referenceNumber: ref, published: current.published, listing: current.listing, contacts, deletedActivities: orphans, detachedFiles: detached.map((f) => f.id) },
    });
  });
}

/**
 * An object nothing was ever done with: a draft (lib/drafts.ts: made by a person with Add, not
 * imported or demo data), never saved (version 1: a whole update and a single field both raise
 * it), not asked to be or published, and nothing attached (contacts, files, keys, activities,
 * assignments, viewings, deals, reservations, leads it was offered to or marked on). The database
 * keeps the draft flag as these change; they are looked at again before a draft is deleted, so that
 * nothing attached goes with it whatever attached it. The owner link that "Add property" on an
 * account's page made with the object (same moment, no dates, price or payment day) is part of the
 * blank object, not something entered: left like that, it goes with the object. `o` is the objects row.
 */
const untouchedObject = sql`o.draft and o.version = 1 and o.created_by is not null
  and o.published is not true and o.publish_requested is not true and o.publish_error is null
  and not exists (select 1 from object_accounts a where a.object_id = o.id
    and not (a.relation = ${OWNER_RELATION} and a.created_on = o.created_on and a.start_date is null and a.end_date is null
      and a.price is null and a.rent_payment_day is null and a.deal_id is null))
  and not exists (select 1 from files f where f.parent_type = ${LinkKind.Object} and f.parent_id = o.id)
  and not exists (select 1 from object_keys k where k.object_id = o.id)
  and not exists (select 1 from activity_links l where l.entity = ${LinkKind.Object} and l.entity_id = o.id)
  and not exists (select 1 from assignments s where s.parent = ${ASSIGNMENT_PARENT_OBJECT} and s.parent_id = o.id)
  and not exists (select 1 from viewing_objects v where v.object_id = o.id)
  and not exists (select 1 from deals d where d.object_id = o.id)
  and not exists (select 1 from reservations r where r.object_id = o.id)
  and not exists (select 1 from lead_objects lo where lo.object_id = o.id)
  and not exists (select 1 from lead_object_marks lm where lm.object_id = o.id)`;

/**
 * Objects about to go as left empty (`ids`, locked): the accounts "Add property" on their page made
 * owners with them (marked in the same moment as the object) and owning no other property are not
 * owners any more, each a new version, logged: a click on Add property from a buyer's page and
 * Cancel does not leave the buyer an owner. An account that was an owner before keeps the mark.
 */
async function unmarkBlankOwners(tx: Tx, actor: Actor, by: number | null, ids: readonly number[]) {
  if (!ids.length) return;
  const list = sql`${`{${ids.join(',')}}`}::int[]`;
  const r = await tx.execute(sql`update accounts a set is_owner = false, is_owner_date = null, version = a.version + 1, modified_on = now(), modified_by = ${by}
    from object_accounts l join objects o on o.id = l.object_id
    where l.object_id = any(${list}) and l.relation = ${OWNER_RELATION} and l.created_on = o.created_on
      and a.id = l.account_id and a.is_owner and a.is_owner_date = o.created_on
      and not exists (select 1 from object_accounts x where x.account_id = a.id and x.relation = ${OWNER_RELATION} and x.object_id <> all(${list}))
    returning a.id, a.display_name`);
  for (const a of r.rows as { id: number; display_name: string | null }[]) {
    await logAction(tx, actor, { action: 'Update', entity: 'Account', entityId: a.id, message: a.display_name ?? '', data: { isOwner: false } });
  }
}

/**
 * POST /api/object/discard: an object its author opened with Add ("New property") and left
 * without entering anything is removed, so that blank properties do not pile up in the list.
 * Only an untouched object, made by the caller in the last day; otherwise it stays, and the
 * answer says so. Its reference number is not given again (it comes from a sequence).
 */
export async function discardObject(app: FastifyInstance, caller: Caller, id: number) {
  return app.db.transaction(async (tx) => {
    const [current] = await tx.select({ id: objects.id, referenceNumber: objects.referenceNumber }).from(objects).where(eq(objects.id, id)).for('update');
    if (!current) return { discarded: false };
    const r = await tx.execute(sql`select ${untouchedObject} and o.created_by = ${caller.user.id} and o.created_on > ${new Date(app.now() - DRAFT_KEPT_MS)} as empty
      from objects o where o.id = ${id}`);
    if ((r.rows[0] as { empty: boolean } | undefined)?.empty !== true) return { discarded: false };
    await unmarkBlankOwners(tx, caller.actor, caller.user.id, [id]);
    await tx.delete(objects).where(eq(objects.id, id));
    const ref = formatReferenceNumber(current.referenceNumber);
    await logAction(tx, caller.actor, { action: 'Delete', entity: OBJECT_LOG_ENTITY, entityId: id, message: LOG_MESSAGE.leftEmpty, data: { referenceNumber: ref } });
    return { discarded: true };
  });
}

/**
 * The periodic clean-up (job EMPTY_OBJECTS_JOB): untouched objects older than a day go, for the
 * tabs that were closed or reloaded on a new property (the screen's own discard did not run).
 * Logged as the system's deletions.
 */
export const EMPTY_OBJECTS_JOB = 'objects.pruneEmpty';
export async function pruneEmptyObjects(app: FastifyInstance): Promise<number> {
  return app.db.transaction(async (tx) => {
    // The drafts (their index), then the ones left untouched for a day by the app's clock.
    const found = await tx.execute(sql`select o.id from objects o where ${untouchedObject} and o.created_on < ${new Date(app.now() - DRAFT_KEPT_MS)} order by o.id for update skip locked`);
    const ids = (found.rows as { id: number }[]).map((r) => r.id);
    if (!ids.length) return 0;
    const system: Actor = { id: null, name: 'system' };
    await unmarkBlankOwners(tx, system, null, ids);
    const gone = await tx.execute(sql`delete from objects o where o.id = any(${`{${ids.join(',')}}`}::int[]) returning o.id, o.reference_number`);
    for (const row of gone.rows as { id: number; reference_number: number }[]) {
      const ref = formatReferenceNumber(row.reference_number);
      await logAction(tx, system, { action: 'Delete', entity: OBJECT_LOG_ENTITY, entityId: row.id, message: LOG_MESSAGE.leftEmpty, data: { referenceNumber: ref } });
    }
    return gone.rows.length;
  });
}
