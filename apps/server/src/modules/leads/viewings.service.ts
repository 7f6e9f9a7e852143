import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { idAmong, inIdOrder } from '../../lib/paging.ts';
import { keptCount } from '../../lib/row-counts.ts';
import {
  ASSIGNMENT_PARENTS,
  LinkKind,
  VIEWING_RESULTS,
  VIEWING_RESULT_CLASS,
  VIEWING_RESULT_RANK,
  formatReferenceNumber,
  type TLeadViewingsAnswer,
  type TSelectOption,
  type TViewingSearch,
  type TViewingUpdate,
  type TCulture,
  type TCalendarEvent,
  type TViewingClient,
  type TViewingObjectKey,
  LOG_MESSAGE,
  VIEWING_MAX_OBJECTS,
  CALENDAR_MAX_EACH,
  RESERVATION_CANCELLED,
  TIME_OF_DAY,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { accounts, assignments, leads, objects, viewingObjects, viewings } from '../../db/schema/index.ts';
import { conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { fromLocalDateTime, nextDay, toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { describeLead, leadOptionText } from './leads.service.ts';
import { nameOfUser } from '../../lib/record-stamps.ts';
import { advanceLeadStage } from './lead-progress.ts';
import { containsPattern } from '../accounts/accounts.sql.ts';
import { deleteActivityLinks } from '../activities/activity-orphans.ts';
import { checkStaffAccount } from '../activities/activities.service.ts';
import { locationText } from '../locations/locations.service.ts';
import type { T } from '../../lib/i18n.ts';
import { recordScreenPath } from '../../lib/record-links.ts';
import type { Caller } from '../../plugins/auth.ts';
import { refDigitsOfO } from '../../lib/reference-number.ts';

type Row = Record<string, unknown>;

export const ASSIGNMENT_PARENT_VIEWING = ASSIGNMENT_PARENTS.viewing;

export const resultOptions = (t: T): TSelectOption[] => VIEWING_RESULTS.map((r) => ({ value: r, text: t(`viewings.result.${r}`), parent: null }));

/** The viewing's own result: the most advanced of its objects' results. */
export function overallResult(results: (number | null | undefined)[]): number | null {
  for (const r of VIEWING_RESULT_RANK) if (results.includes(r)) return r;
  return null;
}

async function getViewingRow(db: Db | Tx, id: number) {
  const [row] = await db
    .select({
      v: viewings,
      createdBy: nameOfUser(sql`${viewings.createdBy}`),
      modifiedBy: nameOfUser(sql`${viewings.modifiedBy}`),
    })
    .from(viewings)
    .where(eq(viewings.id, id));
  return row;
}

/**
 * An object's street address, area and keys as the viewing shows them (object alias `o`): columns
 * of the one statement that reads all the viewing's objects. A key's last holder is its newest loan's.
 */
const objectPlaceColumns = (culture: TCulture) => sql`
  nullif(concat_ws(', ', nullif(btrim(o.address), ''), nullif(btrim(o.zip_code), '')), '') as address,
  ${locationText(sql`o.location_id`, culture)} as location,
  coalesce((select json_agg(json_build_object('id', k.id, 'description', k.description, 'accountId', k.account_id, 'account', ka.display_name,
      'received', k.received, 'givenAway', k.given_away,
      'lastLoan', (select json_build_object('account', la.display_name) from object_key_loans l left join accounts la on la.id = l.account_id where l.key_id = k.id order by l.id desc limit 1))
    order by k.id)
    from object_keys k left join accounts ka on ka.id = k.account_id where k.object_id = o.id), '[]'::json) as keys`;

type ShownObject = { objectId: number; objectReferenceNumber: string; title: string | null; result: number | null; comment: string | null; address: string | null; location: string | null; keys: TViewingObjectKey[] };
const toShownObject = (r: Row, result: number | null, comment: string | null): ShownObject => ({
  objectId: r.id as number,
  objectReferenceNumber: formatReferenceNumber(r.reference_number as number),
  title: (r.title as string | null) ?? null,
  result,
  comment,
  address: (r.address as string | null) ?? null,
  location: (r.location as string | null) ?? null,
  keys: r.keys as TViewingObjectKey[],
});

async function viewingResults(db: Db | Tx, id: number, culture: TCulture) {
  const rows = await db.execute(sql`
    select o.id, o.reference_number, ${objectTitle(culture, 'o')} as title, vo.result, vo.comment, ${objectPlaceColumns(culture)}
    from viewing_objects vo join objects o on o.id = vo.object_id where vo.viewing_id = ${id} order by vo.position`);
  return (rows.rows as Row[]).map((r) => toShownObject(r, (r.result as number | null) ?? null, (r.comment as string | null) ?? null));
}

/** The client the viewing is for: the lead's account, with its phones. */
async function viewingClient(db: Db | Tx, demandId: number | null): Promise<TViewingClient | null> {
  if (demandId == null) return null;
  const [r] = await db
    .select({ accountId: accounts.id, name: accounts.displayName, phones: accounts.phones })
    .from(leads)
    .innerJoin(accounts, eq(accounts.id, leads.accountId))
    .where(eq(leads.id, demandId));
  return r ? { accountId: r.accountId, name: r.name, phones: r.phones.filter((p) => p.trim()) } : null;
}

/** Who a new viewing is assigned to unless another is chosen: the user's own account, when it is staff's. */
async function defaultAgent(db: Db | Tx, user: SessionUser): Promise<{ id: number; text: string } | null> {
  if (user.accountId == null) return null;
  const [a] = await db
    .select({ id: accounts.id, text: accounts.displayName })
    .from(accounts)
    .where(and(eq(accounts.id, user.accountId), sql`(${accounts.isEmploye} or ${accounts.isProfessional})`));
  return a ?? null;
}

/** The viewing as shown and edited. */
export async function getViewing(app: FastifyInstance, db: Db | Tx, id: number, t: T, culture: TCulture) {
  const row = await getViewingRow(db, id);
  if (!row) throw notFound('viewings.notFound');
  const tz = app.config.timeZone;
  const v = row.v;
  return {
    id: v.id,
    viewingNumber: String(v.id),
    appointmentCreated: toLocalDateTime(v.appointmentCreated, tz),
    dateOfViewing: toLocalDateTime(v.dateOfViewing, tz),
    demandId: v.demandId ?? null,
    demand: await leadOptionText(db, v.demandId ?? null, t),
    client: await viewingClient(db, v.demandId ?? null),
    results: await viewingResults(db, id, culture),
    result: v.result ?? null,
    createdOn: toLocalDateTime(v.createdOn, tz)!,
    createdByAccountDisplayName: row.createdBy,
    modifiedOn: toLocalDateTime(v.modifiedOn, tz)!,
    modifiedByAccountDisplayName: row.modifiedBy,
    version: v.version,
    resultOptions: resultOptions(t),
  };
}

/** GET /api/Viewing/add: a blank viewing (not stored yet); from a lead, with its offered objects. */
export async function blankViewing(app: FastifyInstance, user: SessionUser, demandId: number | undefined, t: T, culture: TCulture) {
  const now = toLocalDateTime(new Date(), app.config.timeZone)!;
  let results: ShownObject[] = [];
  if (demandId != null) {
    const [l] = await app.db.select({ id: leads.id }).from(leads).where(eq(leads.id, demandId));
    if (!l) throw notFound('leads.notFound');
    const rows = await app.db.execute(sql`
      select o.id, o.reference_number, ${objectTitle(culture, 'o')} as title, ${objectPlaceColumns(culture)} from lead_objects lo join objects o on o.id = lo.object_id
      where lo.lead_id = ${demandId} order by lo.position, lo.created_on limit ${VIEWING_MAX_OBJECTS}`);
    results = (rows.rows as Row[]).map((r) => toShownObject(r, 1, null));
  }
  return {
    id: null,
    viewingNumber: '',
    appointmentCreated: now,
    dateOfViewing: null,
    demandId: demandId ?? null,
    demand: await leadOptionText(app.db, demandId ?? null, t),
    client: await viewingClient(app.db, demandId ?? null),
    agent: await defaultAgent(app.db, user),
    results,
    result: null,
    createdOn: now,
    createdByAccountDisplayName: null,
    modifiedOn: now,
    modifiedByAccountDisplayName: null,
    version: 0,
    resultOptions: resultOptions(t),
  };
}

async function checkRefs(tx: Tx, body: TViewingUpdate) {
  if (body.demandId != null) {
    const [l] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, body.demandId));
    if (!l) throw fieldError('demandId', 'leads.notFound');
  }
  if (body.results) {
    const ids = body.results.map((r) => r.objectId);
    if (new Set(ids).size !== ids.length) throw fieldError('results', 'leads.objectAlreadyInList');
    if (ids.length) {
      const found = await tx.select({ id: objects.id }).from(objects).where(inArray(objects.id, ids));
      if (found.length !== ids.length) throw fieldError('results', 'leads.objectNotFound');
    }
  }
}

/**
 * A viewing as stored must say when and for whom or what: a date, and a lead or a property.
 * Checked on the saved row, so a change that empties a complete viewing is refused as well
 * (the transaction is rolled back).
 */
async function requireSubstance(tx: Tx, id: number) {
  const r = await tx.execute(sql`select v.date_of_viewing is not null as dated, v.demand_id is not null or exists (select 1 from viewing_objects o where o.viewing_id = v.id) as about
    from viewings v where v.id = ${id}`);
  const row = r.rows[0] as { dated: boolean; about: boolean };
  if (!row.dated) throw fieldError('dateOfViewing', 'viewings.dateRequired');
  if (!row.about) throw fieldError('demandId', 'viewings.leadOrObjectRequired');
}

/**
 * A new viewing is someone's from the start: the agent chosen (`assignedTo`, an employee or
 * specialist), else whoever made it when they have an account; null chosen: no one. Logged as an
 * assignment, as one added on its card is.
 */
async function assignNewViewing(tx: Tx, caller: Caller, id: number, chosen: number | null | undefined) {
  let accountId: number | null;
  let name: string;
  if (chosen != null) {
    accountId = chosen;
    name = (await checkStaffAccount(tx, chosen, 'assignedTo', 'assignments.notStaff')).name;
  } else {
    const own = chosen === undefined ? await defaultAgent(tx, caller.user) : null;
    if (!own) return;
    accountId = own.id;
    name = own.text;
  }
  const [row] = await tx.insert(assignments).values({ parent: ASSIGNMENT_PARENT_VIEWING, parentId: id, accountId, createdBy: caller.user.id }).returning({ id: assignments.id });
  await logAction(tx, caller.actor, { action: 'Create', entity: 'Assignment', entityId: row!.id, message: name, data: { parent: 'viewing', parentId: id, accountId } });
}

/** POST /api/Viewing/update: creates (no id) or updates with the version guard; the objects and results are replaced. */
export async function saveViewing(app: FastifyInstance, caller: Caller, body: TViewingUpdate, t: T, culture: TCulture) {
  const tz = app.config.timeZone;
  return app.db.transaction(async (tx) => {
    await checkRefs(tx, body);
    const set: Partial<typeof viewings.$inferInsert> = {};
    if (body.appointmentCreated !== undefined) set.appointmentCreated = body.appointmentCreated ? fromLocalDateTime(body.appointmentCreated, tz, 'appointmentCreated') : null;
    if (body.dateOfViewing !== undefined) set.dateOfViewing = body.dateOfViewing ? fromLocalDateTime(body.dateOfViewing, tz, 'dateOfViewing') : null;
    if (body.demandId !== undefined) set.demandId = body.demandId;
    if (body.results) set.result = overallResult(body.results.map((r) => r.result));
    let id = body.id ?? null;
    let leadBefore: number | null = null;
    if (id == null) {
      const [row] = await tx
        .insert(viewings)
        .values({ appointmentCreated: new Date(), ...set, createdBy: caller.user.id, modifiedBy: caller.user.id })
        .returning({ id: viewings.id });
      id = row!.id;
      await logAction(tx, caller.actor, { action: 'Create', entity: 'Viewing', entityId: id, data: body });
      await assignNewViewing(tx, caller, id, body.assignedTo);
    } else {
      const [current] = await tx.select().from(viewings).where(eq(viewings.id, id)).for('update');
      if (!current) throw notFound('viewings.notFound');
      if (requireVersion(body.version) !== current.version) throw conflict(await getViewing(app, tx, id, t, culture));
      leadBefore = current.demandId ?? null;
      await tx
        .update(viewings)
        .set({ ...set, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id })
        .where(eq(viewings.id, id));
      await logAction(tx, caller.actor, { action: 'Update', entity: 'Viewing', entityId: id, data: body });
    }
    if (body.results) {
      await tx.delete(viewingObjects).where(eq(viewingObjects.viewingId, id));
      if (body.results.length) {
        await tx
          .insert(viewingObjects)
          .values(body.results.map((r, position) => ({ viewingId: id!, objectId: r.objectId, result: r.result ?? null, comment: r.comment?.trim() || null, position })));
      }
    }
    await requireSubstance(tx, id);
    // Arranged for a lead (made so, or given the lead now): a lead still New is at Viewings now.
    const lead = body.demandId !== undefined ? body.demandId : leadBefore;
    if (lead != null && lead !== leadBefore) await advanceLeadStage(tx, { userId: caller.user.id, actor: caller.actor }, lead, 'viewing', id);
    return getViewing(app, tx, id, t, culture);
  });
}

/** POST /api/Viewing/move: the calendar's drag to another time, with the version guard. */
export async function moveViewing(app: FastifyInstance, caller: Caller, id: number, version: number | null | undefined, dateOfViewing: string, t: T, culture: TCulture) {
  return app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(viewings).where(eq(viewings.id, id)).for('update');
    if (!current) throw notFound('viewings.notFound');
    if (requireVersion(version) !== current.version) throw conflict(await getViewing(app, tx, id, t, culture));
    const at = fromLocalDateTime(dateOfViewing, app.config.timeZone, 'dateOfViewing');
    await tx.update(viewings).set({ dateOfViewing: at, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id }).where(eq(viewings.id, id));
    await logAction(tx, caller.actor, { action: 'Update', entity: 'Viewing', entityId: id, message: LOG_MESSAGE.moved, data: { dateOfViewing } });
    return getViewing(app, tx, id, t, culture);
  });
}

/** DELETE /api/Viewing/{id}: its objects, assignments and activity links go with it. */
export async function deleteViewing(app: FastifyInstance, caller: Caller, id: number) {
  await app.db.transaction(async (tx) => {
    const [current] = await tx.select({ id: viewings.id }).from(viewings).where(eq(viewings.id, id)).for('update');
    if (!current) throw notFound('viewings.notFound');
    await tx.delete(assignments).where(and(eq(assignments.parent, ASSIGNMENT_PARENT_VIEWING), eq(assignments.parentId, id)));
    await deleteActivityLinks(tx, LinkKind.Viewing, id);
    await tx.delete(viewings).where(eq(viewings.id, id));
    await logAction(tx, caller.actor, { action: 'Delete', entity: 'Viewing', entityId: id });
  });
}

/**
 * GET /api/lead/{id}/viewings: a page of the lead's viewings, newest first, each with its objects,
 * their results in the reader's language and the client's comments, so what was said reaches the
 * lead; and how many there are in all, so the page can offer the rest.
 */
export async function leadViewings(app: FastifyInstance, leadId: number, page: { perPage: number; currentPage: number }, t: T, culture: TCulture): Promise<TLeadViewingsAnswer> {
  const [l] = await app.db.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId));
  if (!l) throw notFound('leads.notFound');
  const [count, rows] = await Promise.all([
    app.db.execute(sql`select count(*)::int as n from viewings where demand_id = ${leadId}`),
    app.db.execute(sql`
    select v.id, to_char(v.date_of_viewing at time zone ${app.config.timeZone}, 'YYYY-MM-DD"T"HH24:MI:SS') as at, v.result,
      coalesce((select json_agg(json_build_object('objectId', o.id, 'ref', o.reference_number, 'title', ${objectTitle(culture, 'o')}, 'result', vo.result, 'comment', vo.comment) order by vo.position)
        from viewing_objects vo join objects o on o.id = vo.object_id where vo.viewing_id = v.id), '[]'::json) as objs
    from viewings v where v.demand_id = ${leadId}
    order by v.date_of_viewing desc nulls first, v.id desc limit ${page.perPage} offset ${(page.currentPage - 1) * page.perPage}`),
  ]);
  const resultText = (r: number | null) => (r != null ? t(`viewings.result.${r}`) : null);
  type Obj = { objectId: number; ref: number; title: string | null; result: number | null; comment: string | null };
  return {
    items: (rows.rows as Row[]).map((r) => ({
      id: r.id as number,
      dateOfViewing: (r.at as string | null) ?? null,
      result: resultText(r.result as number | null),
      objects: (r.objs as Obj[]).map((o) => ({ objectId: o.objectId, objectReferenceNumber: formatReferenceNumber(o.ref), title: o.title, result: resultText(o.result), comment: o.comment })),
    })),
    totalRows: (count.rows[0] as { n: number }).n,
  };
}

/**
 * The Viewings list's search of the comments: the viewings one of whose objects' comments holds
 * every word typed (accents and case ignored), matched on the stored normal form through its
 * trigram index (0040). `said` is the statement of their ids (distinct).
 */
function viewingsSaying(text: string): SQL | undefined {
  const words = text.split(/\s+/).filter(Boolean).slice(0, 10);
  if (!words.length) return undefined;
  return sql`select distinct vo.viewing_id from viewing_objects vo where ${sql.join(
    words.map((w) => sql`vo.comment_norm like ${containsPattern(w)}`),
    sql` and `,
  )}`;
}

/** How many index entries the walk tests in the time one matched viewing is read by its key and sorted: about 8 at full size (decision 107). */
const INDEX_ENTRIES_A_ROW = 8;

/**
 * The comment's filter alone, in one statement (decision 107): the matched viewings' ids are read
 * once and counted, then the page is read one of two ways, whichever reads less: a page past the
 * end reads nothing; an early page of many matches walks viewings_date_id_idx in the list's order
 * from the index alone, each id tested against them by hash, stopping at the page (about
 * (offset + limit) × viewings ÷ matches entries; `is true` keeps the test a hashed subplan: made a
 * join, the planner sorted every viewing); otherwise (few matches, a late page, or viewings never
 * analysed) the matched viewings are read by their primary key and sorted, which costs about what
 * the look-up did. Each page is an InitPlan, run only when its branch is taken.
 */
async function pageSaying(db: Db, said: SQL, order: SQL[], limit: number, offset: number): Promise<{ n: number; ids: number[] }> {
  const sorted = sql.join(order, sql`, `);
  const r = await db.execute<{ n: number; ids: number[] }>(sql`with said as materialized (${said}),
    counted as materialized (select count(*)::int as n from said)
    select c.n, case
      when c.n <= ${offset} then '{}'::int[]
      when ${offset + limit}::float8 * (select case when p.reltuples >= 0 then p.reltuples end from pg_class p where p.oid = 'viewings'::regclass)
        < ${INDEX_ENTRIES_A_ROW}::float8 * c.n * c.n
      then array(select ${viewings.id} from ${viewings} where (${viewings.id} in (select viewing_id from said)) is true
        order by ${sorted} limit ${limit} offset ${offset})
      else array(select ${viewings.id} from ${viewings} where ${viewings.id} = any(array(select viewing_id from said))
        order by ${sorted} limit ${limit} offset ${offset})
    end as ids from counted c`);
  const row = r.rows[0]!;
  return { n: Number(row.n), ids: row.ids.map(Number) };
}

/**
 * The comment's filter with others: its viewings' ids looked up first and passed on as a list, as
 * deals do for names (decision 023): inside the page's statement the look-up hash-joined every viewing.
 */
async function idsSaying(db: Db, said: SQL): Promise<SQL> {
  const found = await db.execute<{ ids: string }>(sql`select coalesce(array_agg(x.viewing_id), '{}')::text as ids from (${said}) x`);
  return sql`${viewings.id} = any(${found.rows[0]?.ids ?? '{}'}::int[])`;
}

/** POST /api/Viewing/search: filters, count and page in SQL; newest viewing first. */
export async function searchViewings(app: FastifyInstance, f: TViewingSearch, t: T) {
  const tz = app.config.timeZone;
  const day = (d: string) => sql`(${d}::date::timestamp at time zone ${tz})`;
  const where: (SQL | undefined)[] = [];
  if (f.results.length) where.push(inArray(viewings.result, f.results));
  if (f.appointmentCreatedFrom) where.push(sql`${viewings.appointmentCreated} >= ${day(f.appointmentCreatedFrom)}`);
  if (f.appointmentCreatedTill) where.push(sql`${viewings.appointmentCreated} < ${day(nextDay(f.appointmentCreatedTill))}`);
  if (f.dateOfViewingFrom) where.push(sql`${viewings.dateOfViewing} >= ${day(f.dateOfViewingFrom)}`);
  if (f.dateOfViewingTill) where.push(sql`${viewings.dateOfViewing} < ${day(nextDay(f.dateOfViewingTill))}`);
  if (f.demandId) where.push(eq(viewings.demandId, f.demandId));
  if (f.objectId) where.push(sql`exists (select 1 from viewing_objects vo where vo.viewing_id = ${viewings.id} and vo.object_id = ${f.objectId})`);
  if (f.assigned) where.push(sql`exists (select 1 from assignments s where s.parent = ${ASSIGNMENT_PARENT_VIEWING} and s.parent_id = ${viewings.id} and s.account_id = ${f.assigned})`);
  // Every viewing a comment names exists (its objects go with it): alone, the comment's filter is
  // counted and paged in one statement (pageSaying, decision 107). With other filters, the page and
  // its total come from one pass over the matched viewings (decision 023); a page past the end has
  // no row to carry the total, and counts apart.
  const others = where.filter(Boolean).length;
  const said = f.comment?.trim() ? viewingsSaying(f.comment.trim()) : undefined;
  const order = [sql`${viewings.dateOfViewing} desc nulls first`, sql`${viewings.id} desc`];
  const alone = said && !others ? await pageSaying(app.db, said, order, f.perPage, (f.currentPage - 1) * f.perPage) : undefined;
  if (said && others) where.push(await idsSaying(app.db, said));
  const cond = and(...where);
  const count = async () => ((await app.db.select({ n: sql<number>`count(*)::int` }).from(viewings).where(cond)) as [{ n: number }])[0].n;
  const pageOf = () =>
    app.db
      .select({ id: viewings.id, total: sql<number>`(count(*) over ())::int` })
      .from(viewings)
      .where(cond)
      .orderBy(...order)
      .limit(f.perPage)
      .offset((f.currentPage - 1) * f.perPage);
  const columns = {
    v: viewings,
    account: accounts.displayName,
    l: leads,
    assigned: sql<string>`coalesce((select string_agg(a.display_name, ', ' order by a.display_name) from assignments s join accounts a on a.id = s.account_id
        where s.parent = ${ASSIGNMENT_PARENT_VIEWING} and s.parent_id = ${viewings.id}), '')`,
    objs: sql<{ id: number; ref: number; comment: string | null }[]>`coalesce((select json_agg(json_build_object('id', o.id, 'ref', o.reference_number, 'comment', vo.comment) order by vo.position)
        from viewing_objects vo join objects o on o.id = vo.object_id where vo.viewing_id = ${viewings.id}), '[]'::json)`,
  };
  const rowsOf = (which: SQL) => app.db.select(columns).from(viewings).leftJoin(leads, eq(leads.id, viewings.demandId)).leftJoin(accounts, eq(accounts.id, leads.accountId)).where(which);
  type Found = Awaited<ReturnType<typeof rowsOf>>[number];
  const item = (r: Found) => ({
    id: r.v.id,
    appointmentCreated: toLocalDateTime(r.v.appointmentCreated, tz),
    dateOfViewing: toLocalDateTime(r.v.dateOfViewing, tz),
    lead: r.l ? describeLead(t, r.l as unknown as Row, r.account) : null,
    leadId: r.v.demandId ?? null,
    assigned: r.assigned,
    objects: r.objs.map((o) => o.id).join(' '),
    objectRefs: r.objs.map((o) => ({ id: o.id, referenceNumber: formatReferenceNumber(o.ref), comment: o.comment })),
    result: r.v.result != null ? t(`viewings.result.${r.v.result}`) : '',
    resultId: r.v.result ?? null,
    rowClass: r.v.result != null ? VIEWING_RESULT_CLASS[r.v.result]! : '',
  });
  if (!said) {
    // Without a comment, one statement: the page's ids first (an array made at run time, so no
    // skipped viewing's agents and properties are read), those viewings' rows in the same order,
    // and the total beside each row: the table's, kept by the database with no filter at all
    // (row_counts, decision 121), else counted. A page past the end has no row to carry it.
    const whole = !others;
    const total = whole ? sql<number>`(select n::int from row_counts where name = 'viewings')` : sql<number>`(${app.db.select({ n: sql<number>`count(*)::int` }).from(viewings).where(cond)})`;
    const found = await app.db
      .select({ ...columns, total })
      .from(viewings)
      .leftJoin(leads, eq(leads.id, viewings.demandId))
      .leftJoin(accounts, eq(accounts.id, leads.accountId))
      .where(sql`${viewings.id} = any(array(${app.db.select({ id: viewings.id }).from(viewings).where(cond).orderBy(...order).limit(f.perPage).offset((f.currentPage - 1) * f.perPage)}))`)
      .orderBy(...order);
    const n = found.length ? Number(found[0]!.total) : whole ? await keptCount(app.db, 'viewings') : await count();
    return { items: found.map(item), totalRows: n, options: { results: resultOptions(t) } };
  }
  const paged = alone ? alone.ids.map((id) => ({ id, total: alone.n })) : await pageOf();
  const n = alone ? alone.n : paged.length ? paged[0]!.total : await count();
  const ids = paged.map((r) => r.id);
  const found = ids.length ? await rowsOf(idAmong(viewings.id, ids)) : [];
  return { items: inIdOrder(ids, found, (r) => r.v.id).map(item), totalRows: n, options: { results: resultOptions(t) } };
}

/** The tables the calendar reads (the places' names in the properties' addresses too): its answer is kept until one of them changes (decision 072). */
export const CALENDAR_TABLES = ['viewings', 'viewing_objects', 'assignments', 'leads', 'accounts', 'activities', 'activity_links', 'reservations', 'objects', 'locations', 'localization'] as const;

/**
 * GET /api/calendar: viewings (by their time) and planned activities (to-dos with a date) between
 * two days, optionally of one employee (assigned to the viewing, or the activity's assignee), and,
 * with `stays`, the short lets' check-ins and check-outs in those days (cancelled bookings left
 * out; they belong to no employee). One statement per kind, each cut at CALENDAR_MAX_EACH; the
 * to-dos and their first links each from an index of their own (decision 106).
 */
export async function calendar(app: FastifyInstance, from: string, till: string, assigned: number | undefined, stays: boolean, t: T, culture: TCulture) {
  const tz = app.config.timeZone;
  const start = sql`(${from}::date::timestamp at time zone ${tz})`;
  const end = sql`(${nextDay(till)}::date::timestamp at time zone ${tz})`;
  // The kinds side by side on the pool, each its own statement.
  // The week's viewings first, then their agents and properties for those alone, each in one pass
  // (a subquery a viewing, with its own sort, cost more than the viewings themselves); the ids as an
  // array, so that each is looked up by its index (as a join, PostgreSQL read all 40,000 viewings' properties).
  // Its places as JSON (read by JSON.parse, not by the driver's text-array parser in JavaScript). Not
  // prepared: the generic plan of a six-week month view cost PostgreSQL twice its own (decision 118).
  const viewingsRead = app.db.execute(sql`
    with v as (
      select v.id, v.date_of_viewing, v.version, v.demand_id from viewings v
      where v.date_of_viewing >= ${start} and v.date_of_viewing < ${end}
        ${assigned ? sql`and exists (select 1 from assignments s where s.parent = ${ASSIGNMENT_PARENT_VIEWING} and s.parent_id = v.id and s.account_id = ${assigned})` : sql``}
      order by v.date_of_viewing, v.id limit ${CALENDAR_MAX_EACH + 1}),
    who as (
      select s.parent_id as id, string_agg(x.display_name, ', ' order by x.display_name) as assigned
      from assignments s join accounts x on x.id = s.account_id
      where s.parent = ${ASSIGNMENT_PARENT_VIEWING} and s.parent_id = any(array(select id from v)) group by s.parent_id),
    refs as (
      select vo.viewing_id as id, string_agg('#' || ${refDigitsOfO}, ' ' order by vo.position) as refs,
        json_agg(nullif(concat_ws(', ', nullif(btrim(o.address), ''), ${locationText(sql`o.location_id`, culture)}), '') order by vo.position) as addresses
      from viewing_objects vo join objects o on o.id = vo.object_id
      where vo.viewing_id = any(array(select id from v)) group by vo.viewing_id)
    select v.id, v.date_of_viewing, v.version, a.display_name as client, coalesce(who.assigned, '') as assigned, coalesce(refs.refs, '') as refs,
      -- The first phone written (most often the first one, then without a subquery a row).
      case when btrim(a.phones[array_lower(a.phones, 1)]) <> '' then a.phones[array_lower(a.phones, 1)] else (select p from unnest(a.phones) p where btrim(p) <> '' limit 1) end as client_phone, refs.addresses
    from v left join leads l on l.id = v.demand_id left join accounts a on a.id = l.account_id
      left join who on who.id = v.id left join refs on refs.id = v.id
    order by v.date_of_viewing, v.id`);
  const activitiesRead = app.db.execute(sql`
    with ac as (
      select ac.id, ac.date, ac.version, ac.description, ac.assigned_to from activities ac
      where ac.done = false and ac.date >= ${start} and ac.date < ${end}
        ${assigned ? sql`and ac.assigned_to = ${assigned}` : sql``}
      order by ac.date, ac.id limit ${CALENDAR_MAX_EACH + 1})
    -- Each one's first link read from the index alone (activity_links_first_idx, in its order).
    select ac.id, ac.date, ac.version, ac.description, x.display_name as assigned, f.first_link
    from ac left join accounts x on x.id = ac.assigned_to
      left join lateral (select array[l.entity::int, l.entity_id] as first_link from activity_links l
        where l.activity_id = ac.id order by l.position, l.entity, l.entity_id limit 1) f on true
    order by ac.date, ac.id`);
  // Check-ins and check-outs as one list of entries (the check-outs of a day before its check-ins),
  // each half read by its own index (check_in, check_out), cut before their properties are looked
  // up; a check-in at its arrival time when one is kept.
  const movesRead = stays
    ? app.db.execute(sql`
    select e.id, e.kind, e.day::text as day, e.at, e.version, e.client_last_name, e.client_first_name, e.reservation_stage, o.reference_number, o.website_code
    from (
      select r.id, 'checkIn' as kind, r.check_in as day, coalesce(nullif(r.arrival_time_actual, ''), r.arrival_time_planned) as at, r.version,
        r.client_last_name, r.client_first_name, r.reservation_stage, r.object_id
      from reservations r where r.check_in >= ${from}::date and r.check_in <= ${till}::date and r.reservation_stage <> ${RESERVATION_CANCELLED}
      union all
      select r.id, 'checkOut', r.check_out, null, r.version, r.client_last_name, r.client_first_name, r.reservation_stage, r.object_id
      from reservations r where r.check_out >= ${from}::date and r.check_out <= ${till}::date and r.reservation_stage <> ${RESERVATION_CANCELLED}
      order by day, kind desc, id limit ${CALENDAR_MAX_EACH + 1}
    ) e
    -- Its property by its key ("limit 1" keeps PostgreSQL from hashing every property for 2,000 entries).
    cross join lateral (select o.reference_number, o.website_code from objects o where o.id = e.object_id limit 1) o
    order by e.day, e.kind desc, e.id`)
    : Promise.resolve({ rows: [] as Row[] });
  const [vs, acts, moves] = await Promise.all([viewingsRead, activitiesRead, movesRead]);
  const when = (d: unknown) => toLocalDateTime(new Date(d as string), tz)!;
  const truncated = vs.rows.length > CALENDAR_MAX_EACH || acts.rows.length > CALENDAR_MAX_EACH || moves.rows.length > CALENDAR_MAX_EACH;
  // The few texts the entries share, looked up once a request (not once an entry).
  const viewingTitle = t('viewings.calendarTitle');
  const moveTitle = { checkIn: t('reservations.calendar.checkIn'), checkOut: t('reservations.calendar.checkOut') };
  const stageTexts = new Map<number, string>();
  const stageText = (stage: number) => {
    let text = stageTexts.get(stage);
    if (text === undefined) stageTexts.set(stage, (text = t(`reservations.stage.${stage}`)));
    return text;
  };
  const items: TCalendarEvent[] = [];
  for (const r of vs.rows.slice(0, CALENDAR_MAX_EACH) as Row[]) {
    items.push({
      kind: 'viewing',
      id: r.id as number,
      start: when(r.date_of_viewing),
      allDay: false,
      title: [viewingTitle, r.client, r.refs].filter(Boolean).join(' · '),
      version: r.version as number,
      link: `/Viewing/${r.id}`,
      assigned: (r.assigned as string) ?? '',
      client: (r.client as string | null) ?? null,
      clientPhone: (r.client_phone as string | null) ?? null,
      addresses: ((r.addresses as (string | null)[] | null) ?? []).filter((x): x is string => !!x),
    });
  }
  for (const r of acts.rows.slice(0, CALENDAR_MAX_EACH) as Row[]) {
    items.push({
      kind: 'activity',
      id: r.id as number,
      start: when(r.date),
      allDay: false,
      title: String(r.description ?? '').slice(0, 120),
      version: r.version as number,
      link: recordScreenPath(r.first_link as number[] | null) ?? '/',
      assigned: (r.assigned as string | null) ?? '',
    });
  }
  for (const r of moves.rows.slice(0, CALENDAR_MAX_EACH) as Row[]) {
    const kind = r.kind === 'checkIn' ? ('checkIn' as const) : ('checkOut' as const);
    const at = typeof r.at === 'string' && TIME_OF_DAY.test(r.at) ? r.at : null;
    const code = r.website_code as string | null;
    const ref = `#${formatReferenceNumber(r.reference_number as number)}${code ? ` (${code})` : ''}`;
    const guest = [r.client_last_name, r.client_first_name].filter(Boolean).join(' ');
    items.push({
      kind,
      id: r.id as number,
      start: `${r.day as string}T${at ?? '00:00'}:00`,
      allDay: at == null,
      title: [moveTitle[kind], guest, ref, stageText(r.reservation_stage as number)].filter(Boolean).join(' · '),
      version: r.version as number,
      link: `/Reservations/${r.id}`,
      assigned: '',
    });
  }
  // By start, the kinds in the order above where equal (a stable sort). Every start is written
  // "YYYY-MM-DDTHH:MM:SS", so comparing the texts' characters orders them as their days and times.
  items.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return { truncated, items };
}
