import type { FastifyInstance } from 'fastify';
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { idAmong } from '../../lib/paging.ts';
import {
  LinkKind,
  type TActionSearchAnswer,
  type TActivity,
  type TCulture,
  ZActionSearch,
  ZActivityAdd,
  ZActivityListQuery,
  ZActivityUpdate,
} from '@crm/contract';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { buildOnce } from '../../db/prepared.ts';
import { accounts, activities, activityLinks, files, objects, users } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { accessDenied, badRequest, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { fromLocalDateTime, nextDay } from '../../lib/dates.ts';
import { noteFilesToRemove, removeNotedFiles } from '../../storage/pending-files.ts';
import { storedNames } from '../files/files.service.ts';

type Q = Db | Tx;
const ENTITY = 'Activity';

const assignee = alias(accounts, 'assignee');
const creatorAccount = alias(accounts, 'creator_account');
const linkedAccount = alias(accounts, 'linked_account');
const linkedActivity = alias(activities, 'linked_activity');
const linkedObject = alias(objects, 'linked_object');

/** The columns of an activity row as answered (everything but links and files). */
const rowColumns = {
  id: activities.id,
  description: activities.description,
  done: activities.done,
  category: activities.category,
  date: activities.date,
  doneDate: activities.doneDate,
  createdOn: activities.createdOn,
  createdById: activities.createdBy,
  createdBy: sql<string | null>`coalesce(nullif(${creatorAccount.displayName}, ''), ${users.username})`,
  assignedToId: activities.assignedTo,
  assignedToName: assignee.displayName,
  modifiedOn: activities.modifiedOn,
  version: activities.version,
};

/** activities + creator (user and its account) + assignee, for the row columns above. */
function fromActivities(db: Q) {
  return db
    .select(rowColumns)
    .from(activities)
    .leftJoin(users, eq(users.id, activities.createdBy))
    .leftJoin(creatorAccount, eq(creatorAccount.id, users.accountId))
    .leftJoin(assignee, eq(assignee.id, activities.assignedTo));
}

type Row = Awaited<ReturnType<ReturnType<typeof fromActivities>['execute']>>[number];

/** Shown text of a linked record: an account's name, an activity's text, an object's #reference; '#id' where no table exists yet. */
function describeLink(entity: number, id: number, accountName: string | null, activityText: string | null, objectRef: number | null): string {
  if (entity === LinkKind.Account && accountName) return accountName;
  if (entity === LinkKind.Object && objectRef !== null) return `#${String(objectRef).padStart(4, '0')}`;
  if (entity === LinkKind.Activity && activityText) return activityText.length > 60 ? `${activityText.slice(0, 60)}…` : activityText;
  return `#${id}`;
}

/** Rows -> answers: one query for all their links (with names), one for all their files. */
async function completeRows(db: Q, rows: Row[], timeZone: string): Promise<TActivity[]> {
  if (!rows.length) return [];
  return answersOf(rows, await linksAndFiles(db, rows.map((r) => r.id)), timeZone);
}

/** The links (with names) and the files of activities by id: one query each, side by side. */
function linksAndFiles(db: Q, ids: number[]) {
  return Promise.all([
    db
      .select({
        activityId: activityLinks.activityId,
        entity: activityLinks.entity,
        entityId: activityLinks.entityId,
        accountName: linkedAccount.displayName,
        activityText: linkedActivity.description,
        objectRef: linkedObject.referenceNumber,
      })
      .from(activityLinks)
      .leftJoin(linkedAccount, and(eq(activityLinks.entity, LinkKind.Account), eq(linkedAccount.id, activityLinks.entityId)))
      .leftJoin(linkedActivity, and(eq(activityLinks.entity, LinkKind.Activity), eq(linkedActivity.id, activityLinks.entityId)))
      .leftJoin(linkedObject, and(eq(activityLinks.entity, LinkKind.Object), eq(linkedObject.id, activityLinks.entityId)))
      .where(idAmong(activityLinks.activityId, ids))
      .orderBy(activityLinks.activityId, activityLinks.position, activityLinks.entity, activityLinks.entityId),
    db
      .select({ parentId: files.parentId, systemName: files.systemName, userName: files.userName })
      .from(files)
      .where(and(eq(files.parentType, LinkKind.Activity), idAmong(files.parentId, ids)))
      .orderBy(files.parentId, files.sortOrder, files.id),
  ]);
}

/** Rows, their links and their files -> answers. */
function answersOf(rows: Row[], [links, fileRows]: Awaited<ReturnType<typeof linksAndFiles>>, timeZone: string): TActivity[] {
  const linksOf = new Map<number, TActivity['links']>();
  for (const l of links) {
    const list = linksOf.get(l.activityId) ?? [];
    list.push({ entity: l.entity, id: l.entityId, description: describeLink(l.entity, l.entityId, l.accountName, l.activityText, l.objectRef) });
    linksOf.set(l.activityId, list);
  }
  const filesOf = new Map<number, TActivity['files']>();
  for (const f of fileRows) {
    const list = filesOf.get(f.parentId!) ?? [];
    list.push({ systemName: f.systemName, userName: f.userName });
    filesOf.set(f.parentId!, list);
  }
  const local = (d: Date | null) => toLocalDateTime(d, timeZone);
  return rows.map((r) => ({
    id: r.id,
    description: r.description,
    done: r.done,
    category: r.category,
    date: local(r.date),
    doneDate: local(r.doneDate),
    createdOn: local(r.createdOn)!,
    createdBy: r.createdBy,
    createdById: r.createdById,
    assignedTo: r.assignedToId == null ? null : { id: r.assignedToId, description: r.assignedToName ?? `#${r.assignedToId}` },
    links: linksOf.get(r.id) ?? [],
    files: filesOf.get(r.id) ?? [],
    modifiedOn: local(r.modifiedOn)!,
    version: r.version,
  }));
}

/** An activity linked to a reservation: hidden from users tied to a branch, as reservations are (docs/access.md). */
const ofReservation = sql`exists (select 1 from activity_links r where r.activity_id = ${activities.id} and r.entity = ${LinkKind.Reservation})`;
const isBranchUser = (user: SessionUser) => user.branchId !== null;

/** Refuses a branch user an activity linked to a reservation (403), before it is read or changed. */
async function checkActivityVisible(db: Q, user: SessionUser, id: number) {
  if (!isBranchUser(user)) return;
  const hidden = await db.execute(sql`select 1 from activity_links where activity_id = ${id} and entity = ${LinkKind.Reservation} limit 1`);
  if (hidden.rows.length) throw accessDenied();
}

/** GET /api/activity/{id}, for a caller: a branch user is refused one linked to a reservation. */
export async function getActivityFor(db: Q, user: SessionUser, id: number, timeZone: string): Promise<TActivity> {
  await checkActivityVisible(db, user, id);
  return getActivity(db, id, timeZone);
}

export async function getActivity(db: Q, id: number, timeZone: string): Promise<TActivity> {
  const rows = await fromActivities(db).where(eq(activities.id, id));
  const [a] = await completeRows(db, rows, timeZone);
  if (!a) throw notFound();
  return a;
}

/** Escapes LIKE wildcards of a user's text. */
export const likeText = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Which of one record's activities a caller reads (a list's, a timeline's): the record's links,
 * a branch user none linked to a reservation, and the state and text filters.
 */
export function activityConditions(user: SessionUser, q: { parent: number; parentId: number; done: z.output<typeof ZActivityListQuery>['done']; text: string }): SQL[] {
  const where: SQL[] = [eq(activityLinks.entity, q.parent), eq(activityLinks.entityId, q.parentId)];
  // A branch user: not those linked to a reservation too, hidden as reservations are.
  if (isBranchUser(user)) where.push(sql`not ${ofReservation}`);
  if (q.done === 'none') where.push(isNull(activities.done));
  if (q.done === 'todo') where.push(eq(activities.done, false));
  if (q.done === 'completed') where.push(eq(activities.done, true));
  const text = q.text.trim();
  if (text) where.push(sql`crm_search_norm(coalesce(${activities.description}, '')) like '%' || crm_search_norm(${likeText(text)}) || '%'`);
  return where;
}

/** The newest `limit` activities of a record (their id and when made), as its list orders them: for a timeline's page (GET /api/mail/timeline). */
export function newestActivities(db: Q, where: SQL[], limit: number) {
  return db
    .select({ id: activities.id, at: sql<Date>`${activities.createdOn}`.as('at') })
    .from(activityLinks)
    .innerJoin(activities, eq(activities.id, activityLinks.activityId))
    .where(and(...where))
    .orderBy(desc(activities.createdOn), desc(activities.id))
    .limit(limit);
}

/** How many activities the conditions keep. */
export async function countActivities(db: Q, where: SQL[]): Promise<number> {
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(activityLinks)
    .innerJoin(activities, eq(activities.id, activityLinks.activityId))
    .where(and(...where));
  return count?.n ?? 0;
}

/**
 * Activities by id as a list answers them, in no order, in one statement: each row with its links
 * (with names) and its files gathered beside it, in the order the lists read them.
 */
export async function activitiesByIds(db: Q, ids: number[], timeZone: string): Promise<TActivity[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({
      ...rowColumns,
      links: sql<{ entity: number; entityId: number; accountName: string | null; activityText: string | null; objectRef: number | null }[]>`(select coalesce(json_agg(json_build_object(
          'entity', l.entity, 'entityId', l.entity_id, 'accountName', la.display_name, 'activityText', lt.description, 'objectRef', lo.reference_number)
          order by l.position, l.entity, l.entity_id), '[]'::json)
        from activity_links l left join accounts la on l.entity = ${LinkKind.Account} and la.id = l.entity_id
          left join activities lt on l.entity = ${LinkKind.Activity} and lt.id = l.entity_id
          left join objects lo on l.entity = ${LinkKind.Object} and lo.id = l.entity_id
        where l.activity_id = ${activities.id})`,
      files: sql<{ systemName: string; userName: string }[]>`(select coalesce(json_agg(json_build_object('systemName', f.system_name, 'userName', f.user_name) order by f.sort_order, f.id), '[]'::json)
        from files f where f.parent_type = ${LinkKind.Activity} and f.parent_id = ${activities.id})`,
    })
    .from(activities)
    .leftJoin(users, eq(users.id, activities.createdBy))
    .leftJoin(creatorAccount, eq(creatorAccount.id, users.accountId))
    .leftJoin(assignee, eq(assignee.id, activities.assignedTo))
    .where(idAmong(activities.id, ids));
  const links = rows.flatMap((r) => r.links.map((l) => ({ activityId: r.id, ...l })));
  const fileRows = rows.flatMap((r) => r.files.map((f) => ({ parentId: r.id, ...f })));
  return answersOf(rows, [links, fileRows], timeZone);
}

/** Activities by id read as the lists read theirs (the rows, then their links and files): what activitiesByIds answers, step by step. */
export async function activitiesByIdsInSteps(db: Q, ids: number[], timeZone: string): Promise<TActivity[]> {
  if (!ids.length) return [];
  return completeRows(db, await fromActivities(db).where(idAmong(activities.id, ids)), timeZone);
}

/** The count countActivities reads, as a query to be read inside another (one row: n). */
export function countActivitiesQuery(db: Q, where: SQL[]) {
  return db
    .select({ n: sql<number>`count(*)::int`.as('n') })
    .from(activityLinks)
    .innerJoin(activities, eq(activities.id, activityLinks.activityId))
    .where(and(...where));
}

/** GET /api/activity: the activities linked to one record, newest first, paged in SQL. */
export async function listActivities(db: Q, user: SessionUser, q: z.output<typeof ZActivityListQuery>, timeZone: string) {
  // A reservation's activities are as hidden from branch users as the reservation.
  if (q.parent === LinkKind.Reservation && isBranchUser(user)) throw accessDenied();
  const where = activityConditions(user, q);
  const cond = and(...where);
  const offset = (q.currentPage - 1) * q.perPage;
  if (where.length === 2) {
    // A record's activities, unfiltered (how every record view opens them): built once and prepared,
    // its plan (the record's links, then their activities) does not depend on the values, and
    // planning it cost twice its run (1.9 against 0.7 ms at full size).
    const page = buildOnce(db, 'activities_of_record', (name) =>
      fromActivities(db)
        .innerJoin(activityLinks, eq(activityLinks.activityId, activities.id))
        .where(and(eq(activityLinks.entity, sql.placeholder('parent')), eq(activityLinks.entityId, sql.placeholder('parentId'))))
        .orderBy(desc(activities.createdOn), desc(activities.id))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name),
    );
    const total = buildOnce(db, 'activities_of_record_count', (name) =>
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(activityLinks)
        .innerJoin(activities, eq(activities.id, activityLinks.activityId))
        .where(and(eq(activityLinks.entity, sql.placeholder('parent')), eq(activityLinks.entityId, sql.placeholder('parentId'))))
        .prepare(name),
    );
    const values = { parent: q.parent, parentId: q.parentId };
    const [rows, [count]] = await Promise.all([page.execute({ ...values, limit: q.perPage, offset }), total.execute(values)]);
    return { items: await completeRows(db, rows, timeZone), totalRows: count?.n ?? 0 };
  }
  const [rows, count] = await Promise.all([
    fromActivities(db)
      .innerJoin(activityLinks, eq(activityLinks.activityId, activities.id))
      .where(cond)
      .orderBy(desc(activities.createdOn), desc(activities.id))
      .limit(q.perPage)
      .offset(offset),
    countActivities(db, where),
  ]);
  return { items: await completeRows(db, rows, timeZone), totalRows: count };
}

/** Whether the linked record exists, where its table exists (objects, accounts, activities, leads, viewings). */
/** The records an activity can be linked to, each by its table. */
const LINK_TABLES: Partial<Record<number, string>> = {
  [LinkKind.Object]: 'objects',
  [LinkKind.Account]: 'accounts',
  [LinkKind.Activity]: 'activities',
  [LinkKind.Demand]: 'leads',
  [LinkKind.Deal]: 'deals',
  [LinkKind.Reservation]: 'reservations',
  [LinkKind.Viewing]: 'viewings',
  [LinkKind.Document]: 'documents',
};

/**
 * A link must name a record that exists, and one the caller may see: reservations are hidden from
 * users tied to a branch (docs/access.md), so they neither link activities to one nor list its
 * activities.
 */
export async function checkLinkTarget(db: Q, user: SessionUser, entity: number, id: number, field: string) {
  if (entity === LinkKind.Reservation && user.branchId !== null) throw accessDenied();
  const table = LINK_TABLES[entity];
  if (!table) throw fieldError(field, 'activities.linkNotFound');
  const found = await db.execute(sql`select 1 from ${sql.identifier(table)} where id = ${id}`);
  if (!found.rows.length) throw fieldError(field, 'activities.linkNotFound');
}

/**
 * POST /api/activity/add: an activity linked to the record, blank (not an action) or with what was
 * entered in it (the fields of an update, applied as an update applies them: the screens add one at
 * its first save with something in it, so that opening "New activity" stores nothing).
 */
export async function addActivity(app: FastifyInstance, user: SessionUser, actor: Actor, body: z.output<typeof ZActivityAdd>) {
  const { entityType, id: recordId, ...fields } = body;
  return app.db.transaction(async (tx) => {
    await checkLinkTarget(tx, user, entityType, recordId, 'id');
    const [row] = await tx.insert(activities).values({ description: null, done: null, category: 0, createdBy: user.id, modifiedBy: user.id }).returning();
    await tx.insert(activityLinks).values({ activityId: row!.id, entity: entityType, entityId: recordId, position: 0 });
    const { set, changes } = await entered(tx, app.config.timeZone, user, row!, fields);
    // What it was added with is its first version, not a change of it.
    if (Object.keys(set).length) await tx.update(activities).set(set).where(eq(activities.id, row!.id));
    const created = await getActivity(tx, row!.id, app.config.timeZone);
    await logAction(tx, actor, {
      action: 'Create',
      entity: ENTITY,
      entityId: row!.id,
      message: created.links[0]?.description ?? null,
      data: { entityType, id: recordId, ...changes },
    });
    return created;
  });
}

/** An account may be assigned work when it is an employee or a specialist. */
export async function checkStaffAccount(db: Q, accountId: number, field: string, code: string) {
  const [a] = await db
    .select({ isEmploye: accounts.isEmploye, isProfessional: accounts.isProfessional, name: accounts.displayName })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!a || !(a.isEmploye || a.isProfessional)) throw fieldError(field, code);
  return a;
}

/** The first words of a description, for the action log's message. */
const summarize = (text: string) => (text.length > 120 ? `${text.slice(0, 120).trimEnd()}…` : text).replace(/\s+/g, ' ');

const sameMoment = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** The fields of an add or an update (`id` and `version` aside). */
type ActivityFields = Omit<z.output<typeof ZActivityUpdate>, 'id' | 'version'>;

/**
 * What `body` changes in activity `cur` (as stored): the columns to write and the changes to log.
 * Its links and files are written here, in `tx`. A date is read in the agency's zone `tz`; marking
 * it complete stamps the completion date when it has none, taking the mark off clears the stamp
 * unless a date is sent with the change.
 */
async function entered(tx: Tx, tz: string, user: SessionUser, cur: typeof activities.$inferSelect, body: ActivityFields) {
  const set: Partial<typeof activities.$inferInsert> = {};
  const changes: Record<string, unknown> = {};
  const note = (field: string, value: unknown) => {
    changes[field] = value;
  };

  if (body.description !== undefined) {
    const d = body.description === null || body.description.trim() === '' ? null : body.description;
    if (d !== cur.description) {
      set.description = d;
      note('description', d);
    }
  }
  if (body.category !== undefined && body.category !== cur.category) {
    set.category = body.category;
    note('category', body.category);
  }
  if (body.date !== undefined) {
    const d = body.date === null ? null : fromLocalDateTime(body.date, tz, 'date');
    if (!sameMoment(d, cur.date)) {
      set.date = d;
      note('date', body.date);
    }
  }
  const done = body.done !== undefined ? body.done : cur.done;
  let doneDate = body.doneDate !== undefined ? (body.doneDate === null ? null : fromLocalDateTime(body.doneDate, tz, 'doneDate')) : cur.doneDate;
  if (done === true && !doneDate) doneDate = new Date();
  if (cur.done === true && done !== true && sameMoment(doneDate, cur.doneDate)) doneDate = null;
  if (done !== cur.done) {
    set.done = done;
    note('done', done);
  }
  if (!sameMoment(doneDate, cur.doneDate)) {
    set.doneDate = doneDate;
    note('doneDate', toLocalDateTime(doneDate, tz));
  }
  if (body.assignedTo !== undefined) {
    const to = body.assignedTo === null ? null : typeof body.assignedTo === 'number' ? body.assignedTo : body.assignedTo.id;
    if (to !== cur.assignedTo) {
      if (to !== null) await checkStaffAccount(tx, to, 'assignedTo', 'activities.assigneeNotStaff');
      set.assignedTo = to;
      note('assignedTo', to);
    }
  }
  if (body.links !== undefined) {
    const current = await tx
      .select({ entity: activityLinks.entity, entityId: activityLinks.entityId, position: activityLinks.position })
      .from(activityLinks)
      .where(eq(activityLinks.activityId, cur.id))
      .orderBy(activityLinks.position, activityLinks.entity, activityLinks.entityId);
    const key = (e: number, id: number) => `${e}:${id}`;
    const wanted = new Map(body.links.map((l) => [key(l.entity, l.id), l]));
    const have = new Set(current.map((l) => key(l.entity, l.entityId)));
    const first = current[0];
    if (!wanted.size || (first && !wanted.has(key(first.entity, first.entityId)))) throw badRequest('activities.onlyLink');
    const removed = current.filter((l) => !wanted.has(key(l.entity, l.entityId)));
    const added = [...wanted.values()].filter((l) => !have.has(key(l.entity, l.id)));
    let position = current.reduce((m, l) => Math.max(m, l.position), 0);
    for (const [i, l] of added.entries()) {
      if (l.entity === LinkKind.Activity && l.id === cur.id) throw fieldError(`links.${i}`, 'activities.linkToItself');
      await checkLinkTarget(tx, user, l.entity, l.id, `links.${i}`);
    }
    for (const l of removed) {
      await tx
        .delete(activityLinks)
        .where(and(eq(activityLinks.activityId, cur.id), eq(activityLinks.entity, l.entity), eq(activityLinks.entityId, l.entityId)));
    }
    if (added.length) {
      await tx.insert(activityLinks).values(added.map((l) => ({ activityId: cur.id, entity: l.entity, entityId: l.id, position: ++position })));
    }
    if (removed.length) note('linksRemoved', removed.map((l) => ({ entity: l.entity, id: l.entityId })));
    if (added.length) note('linksAdded', added.map((l) => ({ entity: l.entity, id: l.id })));
  }
  const fileIds = [...new Set((body.addedFiles ?? '').split(',').map((s) => s.trim()).filter(Boolean).map(Number))];
  if (fileIds.length) {
    const attached = await tx
      .update(files)
      .set({ parentType: LinkKind.Activity, parentId: cur.id })
      .where(and(inArray(files.id, fileIds), isNull(files.parentId), isNull(files.detachedOn)))
      .returning({ id: files.id });
    if (attached.length !== fileIds.length) throw fieldError('addedFiles', 'activities.fileUnavailable');
    note('addedFiles', fileIds);
  }
  return { set, changes };
}

/**
 * POST /api/activity/update. A stale version is answered 409 with the current activity and
 * changes nothing. Marking an activity complete stamps the completion date when it has none;
 * taking the mark off clears the stamp unless a date is sent with the change.
 */
export async function updateActivity(app: FastifyInstance, user: SessionUser, actor: Actor, body: z.output<typeof ZActivityUpdate>) {
  const tz = app.config.timeZone;
  return app.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(activities).where(eq(activities.id, body.id)).for('update');
    if (!cur) throw notFound();
    await checkActivityVisible(tx, user, body.id);
    if (cur.version !== requireVersion(body.version)) throw conflict(await getActivity(tx, body.id, tz));

    const { set, changes } = await entered(tx, tz, user, cur, body);
    if (!Object.keys(changes).length) return getActivity(tx, body.id, tz);
    await tx
      .update(activities)
      .set({ ...set, version: sql`${activities.version} + 1`, modifiedOn: new Date(), modifiedBy: user.id })
      .where(eq(activities.id, body.id));
    const text = set.description !== undefined ? set.description : cur.description;
    await logAction(tx, actor, { action: 'Update', entity: ENTITY, entityId: body.id, message: text ? summarize(text) : null, data: changes });
    return getActivity(tx, body.id, tz);
  });
}

/** DELETE /api/activity/{id}: the activity, its links, its file records and then their stored content. */
export async function deleteActivity(app: FastifyInstance, user: SessionUser, actor: Actor, id: number) {
  const removed = await app.db.transaction(async (tx) => {
    const [cur] = await tx.select({ id: activities.id, description: activities.description }).from(activities).where(eq(activities.id, id));
    if (!cur) throw notFound();
    await checkActivityVisible(tx, user, id);
    const removedFiles = await tx
      .delete(files)
      .where(and(eq(files.parentType, LinkKind.Activity), eq(files.parentId, id)))
      .returning({ systemName: files.systemName, thumbName: files.thumbName, webName: files.webName });
    await tx.delete(activities).where(eq(activities.id, id));
    await noteFilesToRemove(tx, removedFiles.flatMap(storedNames));
    await logAction(tx, actor, {
      action: 'Delete',
      entity: ENTITY,
      entityId: id,
      message: cur.description ? summarize(cur.description) : null,
      data: removedFiles.length ? { files: removedFiles.map((f) => f.systemName) } : undefined,
    });
    return removedFiles;
  });
  // After the commit: a scan attached to a deleted activity does not stay on the server.
  await removeNotedFiles(app, removed.flatMap(storedNames));
}

const DATE_COLUMNS = [activities.createdOn, activities.doneDate, activities.date] as const;

/** POST /api/activity/actions: activities that are actions, filtered, sorted and paged in SQL. */
export async function searchActions(
  app: FastifyInstance,
  user: SessionUser,
  culture: TCulture,
  q: z.output<typeof ZActionSearch>,
): Promise<TActionSearchAnswer> {
  const tz = app.config.timeZone;
  const done = q.done === null ? 'all' : q.done === true ? 'completed' : q.done === false ? 'todo' : q.done;
  // An action is an activity with a done mark; "to do" and "completed" say which, and alone: with
  // "is not null" beside "done = false" PostgreSQL could not count a person's open actions from the
  // index of the open ones (activities_open_idx) and combined two large indexes instead (77 ms).
  const where: SQL[] = [done === 'todo' ? eq(activities.done, false) : done === 'completed' ? eq(activities.done, true) : sql`${activities.done} is not null`];
  if (isBranchUser(user)) where.push(sql`not ${ofReservation}`);

  const column = DATE_COLUMNS[q.dateFilterType]!;
  if (q.startDate) where.push(sql`${column} >= ${fromLocalDateTime(q.startDate, tz, 'startDate')}`);
  if (q.endDate) {
    const end = q.endDate.length === 10 ? fromLocalDateTime(nextDay(q.endDate), tz, 'endDate') : fromLocalDateTime(q.endDate, tz, 'endDate');
    where.push(q.endDate.length === 10 ? sql`${column} < ${end}` : sql`${column} <= ${end}`);
  }

  const text = q.employeeText?.trim() ?? '';
  if (q.employee) {
    if (q.employeeFilterType === 0) where.push(sql`${activities.createdBy} in (select ${users.id} from ${users} where ${users.accountId} = ${q.employee})`);
    else where.push(eq(activities.assignedTo, q.employee));
  } else if (text) {
    const like = sql`'%' || crm_search_norm(${likeText(text)}) || '%'`;
    if (q.employeeFilterType === 0) {
      where.push(sql`${activities.createdBy} in (
        select u.id from ${users} u left join ${accounts} a on a.id = u.account_id
        where crm_search_norm(u.username) like ${like} or a.search_text like ${like})`);
    } else {
      where.push(sql`${activities.assignedTo} in (select ${accounts.id} from ${accounts} where ${accounts.searchText} like ${like})`);
    }
  }
  if (q.mine) {
    const mine = user.accountId
      ? sql`(${activities.assignedTo} = ${user.accountId} or (${activities.createdBy} = ${user.id} and ${activities.assignedTo} is null))`
      : sql`(${activities.createdBy} = ${user.id} and ${activities.assignedTo} is null)`;
    where.push(mine);
  }

  // Planned actions soonest first; created and completed ones newest first.
  const order =
    q.dateFilterType === 2
      ? [sql`${activities.date} asc nulls last`, asc(activities.id)]
      : q.dateFilterType === 1
        ? [sql`${activities.doneDate} desc nulls last`, desc(activities.id)]
        : [desc(activities.createdOn), desc(activities.id)];
  const cond = and(...where);
  const [rows, [count]] = await Promise.all([
    fromActivities(app.db)
      .where(cond)
      .orderBy(...order)
      .limit(q.perPage)
      .offset((q.currentPage - 1) * q.perPage),
    app.db.select({ n: sql<number>`count(*)::int` }).from(activities).where(cond),
  ]);
  const t = (key: string) => app.translator.t(culture, key);
  return {
    items: await completeRows(app.db, rows, tz),
    totalRows: count?.n ?? 0,
    options: {
      dateFilterTypes: [0, 1, 2].map((v) => ({ value: v, text: t(`activities.dateFilter.${v}`) })),
      employeeFilterTypes: [0, 1].map((v) => ({ value: v, text: t(`activities.employeeFilter.${v}`) })),
      doneList: ['all', 'todo', 'completed'].map((v) => ({ value: v, text: t(`activities.doneFilter.${v}`) })),
      perPageList: [5, 20, 100],
    },
  };
}
