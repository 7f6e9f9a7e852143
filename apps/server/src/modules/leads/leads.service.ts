import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  LEAD_CLOSED_STAGES,
  LEAD_FIELDS,
  LEAD_PRIORITIES,
  LEAD_RANGES,
  LEAD_SERVICES,
  LEAD_SERVICE_VALUES,
  LEAD_STAGES,
  LinkKind,
  OBJECT_FEATURES,
  OBJECT_SUBTYPES,
  SEARCH_MAX_HITS,
  formatReferenceNumber,
  type TCulture,
  type TLead,
  type TLeadRow,
  type TLeadFilter,
  type TLeadSearch,
  type TSelectOption,
  LOG_MESSAGE,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { buildOnce } from '../../db/prepared.ts';
import { accounts, assignments, leadColumns, leadObjects, leads, locations, objects } from '../../db/schema/index.ts';
import { badRequest, conflict, fieldError, notFound, orderError, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { inIdOrder, idAmong } from '../../lib/paging.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { Caller } from '../../plugins/auth.ts';
import { createdByName, lastNameMatches, joinStampNames, modifiedByName, type IdSet } from '../accounts/accounts.sql.ts';
import { searchAccountMatches, type AccountMatches } from '../accounts/accounts.search.ts';
import { DRAFT_KEPT_MS, countListed, keptListedCount, notDraft } from '../../lib/drafts.ts';
import { collationOf } from '../accounts/accounts.lists.ts';
import { locationText } from '../locations/locations.service.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import { deleteActivityLinks } from '../activities/activity-orphans.ts';
import type { T } from '../../lib/i18n.ts';

/** Assignment parent kind of a lead (assignments.parent). */
export const ASSIGNMENT_PARENT_LEAD = 2;

type Row = Record<string, unknown>;

const FIELD_BY_NAME = new Map(LEAD_FIELDS.map((d) => [d.name, d]));

/** Money as the agency writes it: `150 000 €` (space thousands, symbol after). */
export const formatEuro = (n: number) => `${Math.round(n).toLocaleString('en-US').replace(/,/g, '\u00a0')}\u00a0€`;

export function stageOptions(t: T): TSelectOption[] {
  return LEAD_STAGES.map((v) => ({ value: v, text: t(`leads.stage.${v}`), parent: null }));
}
export function priorityOptions(t: T): TSelectOption[] {
  return LEAD_PRIORITIES.map((v) => ({ value: v, text: t(`leads.priority.${v}`), parent: null }));
}
export function serviceOptions(t: T): TSelectOption[] {
  return [{ value: 0, text: t('leads.service.all'), parent: null }, ...LEAD_SERVICES.map((s) => ({ value: LEAD_SERVICE_VALUES[s], text: t(`leads.service.${s}`), parent: null }))];
}
export function subTypeOptions(t: T): TSelectOption[] {
  return OBJECT_SUBTYPES.map((s) => ({ value: s.value, text: t(`objects.list.objectSubTypes.${s.value}`), parent: s.parent }));
}
export async function leadSourceOptions(db: Db | Tx): Promise<TSelectOption[]> {
  const rows = await db
    .select({ value: accounts.id, text: accounts.displayName })
    .from(accounts)
    .where(eq(accounts.isSource, true))
    // In alphabetical order (an ICU collation), not by code points: "Όλγα" came before "Αλέξης".
    .orderBy(sql`${accounts.displayName} collate "und-x-icu"`, accounts.id)
    .limit(1000);
  return rows.map((r) => ({ ...r, parent: null }));
}


/** The services of a lead as the list shows them: purchase, rent, short rent, sell, rent out, else other. */
export function leadType(row: Row): string {
  const s = LEAD_SERVICES.find((k) => row[k] === true);
  return s ? s.replace(/^for/, '').replace(/^./, (c) => c.toLowerCase()) : 'other';
}

/** The budget of the lead's first service with one: "100 000 € – 150 000 €". */
export function budgetRange(row: Row): string {
  const pairs: [string, string, string][] = [
    ['forPurchase', 'purchaseBudgetRangeMin', 'purchaseBudgetRangeMax'],
    ['forRent', 'rentBudgetRangeMin', 'rentBudgetRangeMax'],
    ['forShortRent', 'shortRentBudgetRangeMin', 'shortRentBudgetRangeMax'],
  ];
  const chosen = pairs.find(([flag, lo, hi]) => row[flag] === true && (row[lo] != null || row[hi] != null)) ?? pairs.find(([, lo, hi]) => row[lo] != null || row[hi] != null);
  if (!chosen) return '';
  const lo = row[chosen[1]] as number | null;
  const hi = row[chosen[2]] as number | null;
  if (lo != null && hi != null) return `${formatEuro(lo)} – ${formatEuro(hi)}`;
  return lo != null ? `≥ ${formatEuro(lo)}` : `≤ ${formatEuro(hi!)}`;
}

/** One line for a lead: client, services and budget ("Papadopoulou Maria: purchase, 100 000 € – 150 000 €"). */
export function describeLead(t: T, row: Row, account: string | null): string {
  const type = t(`leads.type.${leadType(row)}`);
  const budget = budgetRange(row);
  return `${account ?? t('leads.noClient')} — ${type}${budget ? `, ${budget}` : ''}`;
}

/**
 * A lead as the lead pickers offer it and show it once picked: its number first, then client,
 * services and budget, then its stage ("#91 · Papadopoulou Despoina — Purchase, ≤ 250 000 € · New").
 * Two leads of one client with the same wish differ by number, and usually by stage.
 */
export function describeLeadOption(t: T, row: Row, account: string | null): string {
  const stage = row.stage != null ? t(`leads.stage.${row.stage as number}`) : '';
  return [`#${row.id as number}`, describeLead(t, row, account), stage].filter(Boolean).join(' · ');
}

/** The lead `demandId` as the lead pickers show it (describeLeadOption), or null for none. */
export async function leadOptionText(db: Db | Tx, demandId: number | null, t: T): Promise<string | null> {
  if (demandId == null) return null;
  const [r] = await db.select({ l: leads, account: accounts.displayName }).from(leads).leftJoin(accounts, eq(accounts.id, leads.accountId)).where(eq(leads.id, demandId));
  return r ? describeLeadOption(t, r.l as unknown as Row, r.account) : null;
}

async function leadRow(db: Db | Tx, id: number, culture: TCulture) {
  // Built once per language (db/prepared.ts).
  const query = buildOnce(db, `lead_load_${culture}`, (name) =>
    joinStampNames(
      db
        .select({
          l: leads,
          account: accounts.displayName,
          accountIsEmploye: accounts.isEmploye,
          location: locationText(leadColumns.locationId!, culture),
          createdBy: createdByName,
          modifiedBy: modifiedByName,
        })
        .from(leads)
        .leftJoin(accounts, eq(accounts.id, leads.accountId))
        .$dynamic(),
      leads.createdBy,
      leads.modifiedBy,
    )
      .where(eq(leads.id, sql.placeholder('id')))
      .limit(1)
      .prepare(name),
  );
  const [row] = await query.execute({ id });
  return row;
}

async function offeredObjects(db: Db | Tx, leadId: number, culture: TCulture) {
  const rows = await db
    .select({ objectId: leadObjects.objectId, ref: objects.referenceNumber, title: objectTitle(culture) })
    .from(leadObjects)
    .innerJoin(objects, eq(objects.id, leadObjects.objectId))
    .where(eq(leadObjects.leadId, leadId))
    .orderBy(leadObjects.position, leadObjects.createdOn);
  return rows.map((r) => ({ objectId: r.objectId, objectReferenceNumber: formatReferenceNumber(r.ref), title: r.title }));
}

/** The lead as shown and edited, in the reader's language. */
export async function getLeadDto(app: FastifyInstance, db: Db | Tx, id: number, culture: TCulture, t: T): Promise<TLead | undefined> {
  const row = await leadRow(db, id, culture);
  if (!row) return undefined;
  const l = row.l as unknown as Row;
  const tz = app.config.timeZone;
  const dto: Row = {
    id: l.id,
    accountId: l.accountId ?? null,
    account: row.account ?? null,
    accountIsEmploye: row.accountIsEmploye ?? false,
    location: row.location ?? null,
    objects: await offeredObjects(db, id, culture),
    createdOn: toLocalDateTime(l.createdOn as Date, tz),
    createdBy: row.createdBy,
    modifiedOn: toLocalDateTime(l.modifiedOn as Date, tz),
    modifiedBy: row.modifiedBy,
    version: l.version,
  };
  for (const d of LEAD_FIELDS) dto[d.name] = l[d.name] ?? (d.type === 'multi-select' || d.type === 'flag-enum' ? [] : d.type === 'boolean' ? false : null);
  dto.descr = describeLead(t, dto, row.account ?? null);
  return dto as TLead;
}

export function featureOptions(t: T): TSelectOption[] {
  return OBJECT_FEATURES.map((f) => ({ value: f, text: t(`fields.object.${f}`), parent: null }));
}

export async function leadOptions(db: Db | Tx, t: T) {
  return {
    sourceList: await leadSourceOptions(db),
    stageList: stageOptions(t),
    priorityList: priorityOptions(t),
    objectSubTypeList: subTypeOptions(t),
    featureList: featureOptions(t),
  };
}

export async function requireLeadAnswer(app: FastifyInstance, db: Db | Tx, id: number, culture: TCulture, t: T) {
  const dto = await getLeadDto(app, db, id, culture, t);
  if (!dto) throw notFound('leads.notFound');
  return { ...dto, ...(await leadOptions(db, t)) };
}

async function accountExists(db: Db | Tx, id: number) {
  const [r] = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, id)).limit(1);
  return !!r;
}

/**
 * An account that gets a lead becomes a client (decision 015), as the account form would make it:
 * dated once, its version counted up (an open edit of it merges rather than writing the flag
 * back), and logged. Nothing happens to an account that is a client already.
 */
async function markClient(tx: Tx, caller: Caller, accountId: number) {
  const [changed] = await tx
    .update(accounts)
    .set({
      isClient: true,
      isClientDate: sql`coalesce(${accounts.isClientDate}, now())`,
      version: sql`${accounts.version} + 1`,
      modifiedOn: new Date(),
      modifiedBy: caller.user.id,
    } as never)
    .where(and(eq(accounts.id, accountId), eq(accounts.isClient, false)))
    .returning({ id: accounts.id });
  if (changed) await logAction(tx, caller.actor, { action: 'Update', entity: 'Account', entityId: accountId, data: { isClient: true } });
}

/** POST /api/lead/add: a new lead (stage new, priority normal, from today), for an account or none. */
export async function addLead(app: FastifyInstance, caller: Caller, accountId: number | null | undefined, today: string) {
  return app.db.transaction(async (tx) => {
    if (accountId != null && !(await accountExists(tx, accountId))) throw fieldError('accountId', 'leads.accountNotFound');
    const [row] = await tx
      .insert(leads)
      // Without a client, a draft until something is entered or attached (lib/drafts.ts); for a client, a lead of theirs at once.
      .values({ accountId: accountId ?? null, stage: 1, priority: 2, startDate: today, createdBy: caller.user.id, modifiedBy: caller.user.id, draft: accountId == null } as never)
      .returning({ id: leads.id });
    if (accountId != null) await markClient(tx, caller, accountId);
    await logAction(tx, caller.actor, { action: 'Create', entity: 'Lead', entityId: row!.id, data: { accountId: accountId ?? null } });
    return { id: row!.id };
  });
}

/**
 * Checks the described fields of an update against the lists and the rules across fields, and
 * answers the columns to write. Field errors name the field, translated.
 */
async function prepareChanges(tx: Tx, current: Row, body: Row): Promise<{ set: Row; changes: Row }> {
  const set: Row = {};
  const changes: Row = {};
  for (const d of LEAD_FIELDS) {
    if (!(d.name in body)) continue;
    let v = body[d.name];
    if (typeof v === 'string') v = d.type === 'textarea' ? v.replace(/\r\n/g, '\n').trim() || null : v.trim() || null;
    if (d.type === 'flag-enum' && Array.isArray(v)) {
      const allowed = OBJECT_FEATURES as readonly string[];
      if (v.some((x) => !allowed.includes(x as string))) throw fieldError(d.name, 'validation.choice');
      v = allowed.filter((a) => (v as string[]).includes(a));
    }
    if (d.type === 'multi-select' && Array.isArray(v)) {
      const allowed = OBJECT_SUBTYPES.map((s) => s.value);
      if (v.some((x) => !allowed.includes(x as number))) throw fieldError(d.name, 'validation.choice');
      v = allowed.filter((a) => (v as number[]).includes(a));
    }
    if (d.name === 'stage' && v != null && !(LEAD_STAGES as readonly number[]).includes(v as number)) throw fieldError('stage', 'validation.choice');
    if (d.name === 'priority' && v != null && !(LEAD_PRIORITIES as readonly number[]).includes(v as number)) throw fieldError('priority', 'validation.choice');
    if (JSON.stringify(v ?? null) === JSON.stringify(current[d.name] ?? null)) continue;
    set[d.name] = v;
    changes[d.name] = v;
  }
  if ('accountId' in body && (body.accountId ?? null) !== (current.accountId ?? null)) {
    if (body.accountId != null && !(await accountExists(tx, body.accountId as number))) throw fieldError('accountId', 'leads.accountNotFound');
    set.accountId = body.accountId ?? null;
    changes.accountId = set.accountId;
  }
  if (set.source != null) {
    const [s] = await tx.select({ isSource: accounts.isSource }).from(accounts).where(eq(accounts.id, set.source as number));
    if (!s?.isSource) throw fieldError('source', 'validation.choice');
  }
  if (set.locationId != null) {
    const [l] = await tx.select({ id: locations.id }).from(locations).where(eq(locations.id, set.locationId as number));
    if (!l) throw fieldError('locationId', 'validation.choice');
  }
  const merged = { ...current, ...set };
  for (const [lo, hi] of LEAD_RANGES) {
    const a = merged[lo];
    const b = merged[hi];
    if (a != null && b != null && (a as number | string) > (b as number | string)) {
      const onHigh = hi in set;
      throw orderError(FIELD_BY_NAME.get(lo)?.type === 'date' ? 'date' : lo.startsWith('area') ? 'area' : 'budget', onHigh ? hi : lo, onHigh);
    }
  }
  return { set, changes };
}

async function lockLead(tx: Tx, id: number): Promise<Row | undefined> {
  const [row] = await tx.select().from(leads).where(eq(leads.id, id)).for('update');
  return row as Row | undefined;
}

/** Replaces the offered objects (in the order given); each must exist and appear once. */
async function setOfferedObjects(tx: Tx, leadId: number, objectIds: number[]) {
  if (new Set(objectIds).size !== objectIds.length) throw fieldError('objects', 'leads.objectAlreadyInList');
  if (objectIds.length) {
    const found = await tx.select({ id: objects.id }).from(objects).where(inArray(objects.id, objectIds));
    if (found.length !== objectIds.length) throw fieldError('objects', 'leads.objectNotFound');
  }
  await tx.delete(leadObjects).where(eq(leadObjects.leadId, leadId));
  if (objectIds.length) await tx.insert(leadObjects).values(objectIds.map((objectId, position) => ({ leadId, objectId, position })));
}

export async function updateLead(app: FastifyInstance, caller: Caller, body: Row & { id: number; version: number }, culture: TCulture, t: T) {
  return app.db.transaction(async (tx) => {
    const current = await lockLead(tx, body.id);
    if (!current) throw notFound('leads.notFound');
    if (requireVersion(body.version) !== current.version) throw conflict(await requireLeadAnswer(app, tx, body.id, culture, t));
    const { set, changes } = await prepareChanges(tx, current, body);
    if (Array.isArray(body.objects)) {
      const ids = (body.objects as { objectId: number }[]).map((o) => o.objectId);
      const before = (await offeredObjects(tx, body.id, culture)).map((o) => o.objectId);
      if (JSON.stringify(ids) !== JSON.stringify(before)) {
        await setOfferedObjects(tx, body.id, ids);
        changes.objects = ids;
      }
    }
    if (Object.keys(changes).length) {
      await tx
        .update(leads)
        .set({ ...set, version: (current.version as number) + 1, modifiedOn: new Date(), modifiedBy: caller.user.id } as never)
        .where(eq(leads.id, body.id));
      await logAction(tx, caller.actor, { action: 'Update', entity: 'Lead', entityId: body.id, data: changes });
      if (set.accountId != null) await markClient(tx, caller, set.accountId as number);
    }
    return requireLeadAnswer(app, tx, body.id, culture, t);
  });
}

/** After an object is offered or taken back: the lead's version moves on, the log says which object, the answer is the list as it is now. */
async function offeredChanged(tx: Tx, caller: Caller, current: Row, message: string, objectId: number, culture: TCulture) {
  const leadId = current.id as number;
  const version = (current.version as number) + 1;
  await tx.update(leads).set({ version, modifiedOn: new Date(), modifiedBy: caller.user.id }).where(eq(leads.id, leadId));
  await logAction(tx, caller.actor, { action: 'Update', entity: 'Lead', entityId: leadId, message, data: { objectId } });
  return { objects: await offeredObjects(tx, leadId, culture), version };
}

/** Adds one object to the lead's offered objects (the duplicate is refused: 'Object already in the list!'). */
export async function addLeadObject(app: FastifyInstance, caller: Caller, leadId: number, objectId: number, culture: TCulture) {
  return app.db.transaction(async (tx) => {
    const current = await lockLead(tx, leadId);
    if (!current) throw notFound('leads.notFound');
    const [o] = await tx.select({ id: objects.id }).from(objects).where(eq(objects.id, objectId));
    if (!o) throw notFound('leads.objectNotFound');
    const inserted = await tx
      .insert(leadObjects)
      .values({ leadId, objectId, position: sql`coalesce((select max(position) + 1 from lead_objects where lead_id = ${leadId}), 0)` as never })
      .onConflictDoNothing()
      .returning({ objectId: leadObjects.objectId });
    if (!inserted.length) throw badRequest('leads.objectAlreadyInList');
    return offeredChanged(tx, caller, current, LOG_MESSAGE.objectOffered, objectId, culture);
  });
}

export async function removeLeadObject(app: FastifyInstance, caller: Caller, leadId: number, objectId: number, culture: TCulture) {
  return app.db.transaction(async (tx) => {
    const current = await lockLead(tx, leadId);
    if (!current) throw notFound('leads.notFound');
    const gone = await tx
      .delete(leadObjects)
      .where(and(eq(leadObjects.leadId, leadId), eq(leadObjects.objectId, objectId)))
      .returning({ objectId: leadObjects.objectId });
    if (!gone.length) throw notFound('leads.objectNotInList');
    return offeredChanged(tx, caller, current, LOG_MESSAGE.objectRemoved, objectId, culture);
  });
}

/** DELETE /api/lead/{id}: its offered objects, assignments and activity links go with it. */
export async function deleteLead(app: FastifyInstance, caller: Caller, id: number) {
  await app.db.transaction(async (tx) => {
    const current = await lockLead(tx, id);
    if (!current) throw notFound('leads.notFound');
    await tx.delete(assignments).where(and(eq(assignments.parent, ASSIGNMENT_PARENT_LEAD), eq(assignments.parentId, id)));
    await deleteActivityLinks(tx, LinkKind.Demand, id);
    await tx.delete(leads).where(eq(leads.id, id));
    await logAction(tx, caller.actor, { action: 'Delete', entity: 'Lead', entityId: id, data: { accountId: current.accountId ?? null } });
  });
}

/**
 * A lead nothing was ever done with: a draft (lib/drafts.ts: made by a person with Add, not
 * imported or demo data, without a client), never saved (version 1), no service or description (a
 * lead whose client was deleted keeps its wishes, and stays), and nothing attached (offered
 * objects, activities, assignments, viewings, deals). The database keeps the draft flag as these
 * change; they are looked at again before a draft is deleted. `l` is the leads row.
 */
const untouchedLead = sql`l.draft and l.account_id is null and l.version = 1 and l.created_by is not null and l.description is null
  and not (l.for_purchase or l.for_rent or l.for_short_rent or l.for_sell or l.for_rent_out)
  and not exists (select 1 from lead_objects o where o.lead_id = l.id)
  and not exists (select 1 from activity_links a where a.entity = ${LinkKind.Demand} and a.entity_id = l.id)
  and not exists (select 1 from assignments s where s.parent = ${ASSIGNMENT_PARENT_LEAD} and s.parent_id = l.id)
  and not exists (select 1 from viewings v where v.demand_id = l.id)
  and not exists (select 1 from deals d where d.demand_id = l.id)`;

/**
 * POST /api/lead/discard: a lead its author opened with Add and left without entering anything is
 * removed, so that "no client yet" leads do not pile up. Only an untouched lead, made by the
 * caller in the last day; otherwise it stays, and the answer says so.
 */
export async function discardLead(app: FastifyInstance, caller: Caller, id: number) {
  return app.db.transaction(async (tx) => {
    const current = await lockLead(tx, id);
    if (!current) return { discarded: false };
    const r = await tx.execute(sql`select ${untouchedLead} and l.created_by = ${caller.user.id} and l.created_on > ${new Date(app.now() - DRAFT_KEPT_MS)} as empty
      from leads l where l.id = ${id}`);
    if ((r.rows[0] as { empty: boolean } | undefined)?.empty !== true) return { discarded: false };
    await tx.delete(leads).where(eq(leads.id, id));
    await logAction(tx, caller.actor, { action: 'Delete', entity: 'Lead', entityId: id, message: LOG_MESSAGE.leftEmpty });
    return { discarded: true };
  });
}

/**
 * The periodic clean-up (job EMPTY_LEADS_JOB): untouched leads older than a day go, for the tabs
 * that were closed or reloaded on a new lead (the screen's own discard did not run). Logged as the
 * system's deletions.
 */
export const EMPTY_LEADS_JOB = 'leads.pruneEmpty';
export async function pruneEmptyLeads(app: FastifyInstance): Promise<number> {
  return app.db.transaction(async (tx) => {
    // The drafts left untouched for a day by the app's clock.
    const gone = await tx.execute(sql`delete from leads l where ${untouchedLead} and l.created_on < ${new Date(app.now() - DRAFT_KEPT_MS)} returning l.id`);
    for (const row of gone.rows as { id: number }[]) {
      await logAction(tx, { id: null, name: 'system' }, { action: 'Delete', entity: 'Lead', entityId: row.id, message: LOG_MESSAGE.leftEmpty });
    }
    return gone.rows.length;
  });
}

/** The budget columns a service filter looks at (all three when no service is chosen). */
const BUDGETS: Record<number, [string, string][]> = {
  1: [['purchaseBudgetRangeMin', 'purchaseBudgetRangeMax']],
  2: [['rentBudgetRangeMin', 'rentBudgetRangeMax']],
  3: [['shortRentBudgetRangeMin', 'shortRentBudgetRangeMax']],
};
const ALL_BUDGETS = Object.values(BUDGETS).flat();

/**
 * The list's order: by creation (newest first by default), client name, stage or priority; ties
 * newest first. Creation (never empty) is read from the index on (created_on, id) either way,
 * unless `sortFound`: then the few leads found are sorted instead (see searchLeads).
 */
export function leadOrder(f: Pick<TLeadSearch, 'sortBy' | 'sortDir'>, culture: string, sortFound = false): SQL[] {
  const dir = f.sortDir === 'asc' ? sql`asc` : sql`desc`;
  if (f.sortBy !== 'name' && f.sortBy !== 'stage' && f.sortBy !== 'priority') {
    // "+ interval '0'" hides the column from the index: the planner sorts what the filter found.
    const created = sortFound ? sql`(${leads.createdOn} + interval '0 seconds')` : sql`${leads.createdOn}`;
    return [sql`${created} ${dir}`, sql`${leads.id} ${dir}`];
  }
  const col = f.sortBy === 'name' ? sql`${accounts.displayName} collate ${collationOf(culture)}` : f.sortBy === 'stage' ? sql`${leadColumns.stage!}` : sql`${leadColumns.priority!}`;
  return [sql`${col} ${dir} nulls last`, sql`${leads.id} desc`];
}

/** The day a lead started: its start date, else the office's day it was entered. */
export const leadStartDay = (timeZone: string, alias = 'leads') =>
  sql`coalesce(${sql.raw(alias)}.start_date, (${sql.raw(alias)}.created_on at time zone ${timeZone})::date)`;

/** POST /api/lead/search: filters, count and page in SQL. */
const PLACE_NAME_COLUMN: Record<string, string> = { en: 'name_en', el: 'name_el', ru: 'name_ru' };
/**
 * The names the further columns show, read in the page's own statement (a subquery on the row's
 * key, no query per row): the source's (an account's), the place's in the reader's language.
 */
export function moreNames(culture: string) {
  const name = sql.raw(PLACE_NAME_COLUMN[culture] ?? PLACE_NAME_COLUMN.en!);
  return {
    sourceName: sql<string | null>`(select s.display_name from ${accounts} s where s.id = ${leadColumns.source!})`,
    placeName: sql<string | null>`(select nullif(btrim(p.${name}), '') from ${locations} p where p.id = ${leadColumns.locationId!})`,
  };
}
type MoreNames = { sourceName?: string | null; placeName?: string | null };
/** A row's further columns asked for (LEAD_MORE_COLUMNS): an amount or a number as a number, a date as YYYY-MM-DD, a list-valued field by its names, a text as it is. */
const NUMERIC_LEAD_FIELDS: ReadonlySet<string> = new Set(LEAD_FIELDS.filter((x) => x.type === 'currency' || x.type === 'number' || x.type === 'area').map((x) => x.name));
export function moreValues(l: Row, names: MoreNames, asked: readonly string[], t: T): Record<string, string | number | null> {
  const numeric = NUMERIC_LEAD_FIELDS;
  // The property types and the features by their names (the texts the lead's own form offers them by), in the lead's order.
  const listed = (values: unknown, key: (v: string) => string) => ((values as unknown[] | null) ?? []).map((v) => t(key(String(v)))).join(', ') || null;
  const value = (k: string): string | number | null => {
    if (k === 'source') return names.sourceName ?? null;
    if (k === 'locationId') return names.placeName ?? null;
    if (k === 'objectSubTypes') return listed(l[k], (v) => `objects.list.objectSubTypes.${v}`);
    if (k === 'features') return listed(l[k], (v) => `fields.object.${v}`);
    const v = l[k];
    return v == null || v === '' ? null : numeric.has(k) ? Number(v) : String(v);
  };
  return Object.fromEntries(asked.map((k) => [k, value(k)]));
}

/** What the leads list's filter keeps (the list and Leads.xlsx): one condition a filter set, none when all are empty. */
export function leadConditions(app: FastifyInstance, f: TLeadFilter): SQL[] {
  const c = leadColumns;
  const where: SQL[] = [];
  if (f.service) {
    const flag = LEAD_SERVICES.find((s) => LEAD_SERVICE_VALUES[s] === f.service)!;
    where.push(sql`${c[flag]!} = true`);
  }
  if (f.sources.length) where.push(inArray(c.source!, f.sources));
  if (f.stages.length) where.push(inArray(c.stage!, f.stages));
  if (f.priorities.length) where.push(inArray(c.priority!, f.priorities));
  // The lead's start date; a lead without one started the day it was entered (as the agents' results count it).
  const started = leadStartDay(app.config.timeZone);
  if (f.startDate) where.push(sql`${started} >= ${f.startDate}`);
  if (f.endDate) where.push(sql`${started} <= ${f.endDate}`);
  // Leads the agent is assigned to (assignments_account_idx), as the agents' results count them.
  if (f.agentId) where.push(sql`${leads.id} in (select s.parent_id from assignments s where s.account_id = ${f.agentId} and s.parent = ${ASSIGNMENT_PARENT_LEAD})`);
  if (f.budgetRangeMin != null || f.budgetRangeMax != null) {
    const lo = f.budgetRangeMin ?? 0;
    const hi = f.budgetRangeMax ?? 1e12;
    const pairs = BUDGETS[f.service] ?? ALL_BUDGETS;
    // The lead's budget overlaps the range asked for.
    where.push(sql`(${sql.join(pairs.map(([a, b]) => sql`((${c[a]!} is not null or ${c[b]!} is not null) and coalesce(${c[a]!}, 0) <= ${hi} and coalesce(${c[b]!}, 1e12) >= ${lo})`), sql` or `)})`);
  }
  const name = f.lastName?.trim();
  // The matched accounts are looked up inside the page's statement (decision 113): an array made
  // once at run time, read by the leads' account index; no ids to the app and back, and no plan
  // made for a constant of thousands of ids.
  if (name) where.push(sql`${leads.accountId} = any(array(${lastNameMatches(name)}))`);
  return where;
}

export async function searchLeads(app: FastifyInstance, f: TLeadSearch, t: T, culture: string) {
  const where = leadConditions(app, f);
  const name = f.lastName?.trim();
  const cond = and(...where);
  // Drafts are left out of the page by id, and taken off the count (lib/drafts.ts).
  const listed = and(cond, notDraft('leads', leads.id));
  const offset = (f.currentPage - 1) * f.perPage;
  // The page's ids first (the order index; a client's name only when sorting by it), then those
  // leads with their clients: with OFFSET, every skipped lead was read whole and joined too.
  const page = (withTotal: boolean, sortFound: boolean) =>
    app.db
      .select({ id: leads.id, total: withTotal ? sql<number>`(count(*) over ())::int` : sql<number>`0` })
      .from(leads)
      .leftJoin(accounts, eq(accounts.id, leads.accountId))
      .where(listed)
      .orderBy(...leadOrder(f, culture, sortFound))
      .limit(f.perPage)
      .offset(offset);
  const count = () => countListed(app.db, 'leads', cond);
  let n: number;
  let pageIds: number[];
  if (name) {
    // A client's name keeps the leads of the accounts found (a few thousand at most): they are
    // read once, sorted, and counted in that same pass (a window count beside the page's ids).
    const found = await page(true, true);
    pageIds = found.map((r) => r.id);
    n = found.length ? Number(found[0]!.total) : await count();
  } else {
    // Unfiltered, the total is the one the database keeps (row_counts); filtered, it is counted.
    const all = await keptListedCount(app.db, 'leads');
    n = where.length ? await count() : all;
    // Walking the order index reads about (offset + perPage) × all / n leads to fill the page: when a
    // filter keeps few of them (none, at worst: the whole table), sorting those few is cheaper.
    const sortFound = where.length > 0 && (offset + f.perPage) * (all || n) > 5000 * Math.max(n, 1);
    pageIds = n === 0 || offset >= n ? [] : (await page(false, sortFound)).map((r) => r.id);
  }
  const rows = pageIds.length
    ? inIdOrder(
        pageIds,
        await app.db
          .select({ l: leads, account: accounts.displayName, ...(f.more.length ? moreNames(culture) : {}) })
          .from(leads)
          .leftJoin(accounts, eq(accounts.id, leads.accountId))
          .where(idAmong(leads.id, pageIds)),
        (r) => (r.l as unknown as Row).id as number,
      )
    : [];
  const tz = app.config.timeZone;
  const items: TLeadRow[] = rows.map((r) => {
    const l = r.l as unknown as Row;
    return {
      id: l.id as number,
      name: r.account ?? t('leads.noClient'),
      accountId: (l.accountId as number | null) ?? null,
      type: leadType(l),
      budgetRange: budgetRange(l),
      stage: (l.stage as number | null) ?? null,
      priority: (l.priority as number | null) ?? null,
      createdOn: toLocalDateTime(l.createdOn as Date, tz)!,
      ...(f.more.length ? { more: moreValues(l, r as MoreNames, f.more, t) } : {}),
    };
  });
  return {
    items,
    totalRows: n,
    options: { serviceList: serviceOptions(t), sourceList: await leadSourceOptions(app.db), stageList: stageOptions(t), priorityList: priorityOptions(t) },
  };
}

/** Leads of clients whose name matches, or the lead with that number: the lead picker and global search. */
/**
 * The leads' part of the global search: a lead by its number, and the leads of the clients the
 * search found (the accounts' scan, shared with the accounts provider), open ones first, newest
 * first, in one statement with their rows (decision 129). Open and closed are read one after the
 * other in it, each newest first, the closed only when the open are fewer: for a common name (3,000
 * clients) the newest leads are walked on their date index until enough belong to those clients,
 * for a rare one the clients' leads come from the account index; sorting every lead of 3,000
 * clients by open, then date, read them all.
 */
export async function findLeads(
  app: FastifyInstance,
  text: string,
  limit: number,
  t: T,
  clients?: () => Promise<IdSet>,
  /** The newest open leads of those accounts when already found with them (the global search's statement), else undefined. */
  newestOpen?: () => Promise<number[] | undefined>,
) {
  const q = text.trim().replace(/^#/, '');
  // The lead picker: the accounts and their newest open leads from one scan, as the global search has
  // them (the scan gives no ids when the open leads alone fill the hits: a client with 20 open leads).
  let scan: Promise<AccountMatches> | undefined;
  const matches = () => (scan ??= searchAccountMatches(app, q));
  clients ??= async () => (await matches()).ids;
  newestOpen ??= async () => (await matches()).openLeads;
  if (!q) return [];
  const byId = /^\d{1,9}$/.test(q) ? sql`${leads.id} = ${Number(q)}` : undefined;
  const clientIds = await clients();
  if (!byId && !clientIds.size) return [];
  const want = Math.min(limit, SEARCH_MAX_HITS);
  // A draft is found by nobody (lib/drafts.ts): its author has it at its address.
  const whose = sql`(${byId ? sql`${byId} or ` : sql``}${leads.accountId} = any(${clientIds.literal}::int[])) and ${notDraft('leads', leads.id)}`;
  const closed = sql`coalesce(${leadColumns.stage!}, 0) in (${sql.join(LEAD_CLOSED_STAGES.map((s) => sql`${s}`), sql`, `)})`;
  const kept = await newestOpen();
  const n = byId ? Number(q) : undefined;
  // The open leads: those found with the accounts (the newest of the clients), with the lead of the
  // number typed when it is open, once those fill the hits (the accounts' statement gives no ids
  // then: the clients' leads were lost for a phone fragment); else the newest open ones of `whose`.
  const open =
    kept && (n === undefined || kept.length >= want)
      ? sql`select unnest(${sql.param(kept.slice(0, want))}::int[]) as id${
          n === undefined ? sql`` : sql` union select ${leads.id} from ${leads} where ${leads.id} = ${n} and not ${leads.draft} and not ${closed}`
        }`
      : sql`select ${leads.id} from ${leads} where ${whose} and not ${closed} order by ${leads.createdOn} desc, ${leads.id} desc limit ${want}`;
  // One statement (decision 129): the open ones, then the newest closed ones when the open are fewer
  // than `want`, with their rows and clients' names, open first, each newest first. It was three: the
  // open, the closed, the rows.
  const found = await app.db
    .select({ l: leads, account: accounts.displayName })
    .from(leads)
    .leftJoin(accounts, eq(accounts.id, leads.accountId))
    .where(
      sql`${leads.id} in (with o as materialized (${open}) select id from o union all (select ${leads.id} from ${leads} where ${whose} and ${closed}
        and (select count(*) from o) < ${want} order by ${leads.createdOn} desc, ${leads.id} desc limit ${want}))`,
    )
    .orderBy(closed, sql`${leads.createdOn} desc`, sql`${leads.id} desc`)
    .limit(want);
  return found.map((r) => ({ id: (r.l as unknown as Row).id as number, description: describeLeadOption(t, r.l as unknown as Row, r.account) }));
}

/** Merging accounts: the duplicate's leads become the kept account's. */
export async function moveLeads(tx: Tx, keptId: number, duplicateId: number) {
  await tx.update(leads).set({ accountId: keptId }).where(eq(leads.accountId, duplicateId));
  await tx.update(leads).set({ source: keptId } as never).where(eq(leadColumns.source!, duplicateId));
}

/** An account's leads for its page, newest first: services, budget and stage in one line. */
export async function accountLeads(db: Db | Tx, accountId: number, t: T) {
  const rows = await db.select().from(leads).where(eq(leads.accountId, accountId)).orderBy(sql`${leads.createdOn} desc`).limit(100);
  return rows.map((r) => {
    const l = r as unknown as Row;
    const budget = budgetRange(l);
    const stage = l.stage != null ? t(`leads.stage.${l.stage}`) : '';
    return { id: l.id as number, descr: [t(`leads.type.${leadType(l)}`), budget, stage].filter(Boolean).join(' · ') };
  });
}
