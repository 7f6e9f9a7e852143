import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { inIdOrder } from '../../lib/paging.ts';
import {
  DEAL_FIELDS,
  DEAL_LIST_PARTIES,
  DEAL_MAX_PARTIES,
  DEAL_RANGES,
  DEAL_RELATION,
  DEAL_RELATIONS,
  DEAL_RENTAL_ONLY,
  DEAL_SALE_ONLY,
  DEAL_SPECIALIST_RELATIONS,
  DEAL_STAGES,
  DEAL_STAGE_CLASS,
  DEAL_STAGE_NEEDS,
  DEAL_STAGE_CANCELLED,
  DEAL_STAGE_CLOSED,
  DEAL_TYPES,
  DEAL_TYPE_RENTAL,
  DEAL_TYPE_SALE,
  LEAD_STAGE_WON,
  LinkKind,
  TENANT_RELATION,
  TENANT_RELATIONS,
  VIEWING_RESULT_OFFER,
  formatReferenceNumber,
  type TDealFilter,
  type TDealMove,
  type TDealSearch,
  type TDealUpdate,
  type TCulture,
  type TSelectOption,
  LOG_MESSAGE,
  dealTextKey,
  wonLogMessage,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { buildOnce } from '../../db/prepared.ts';
import { accounts, dealColumns, dealParties, deals, leadColumns, leads, objectAccounts, objects } from '../../db/schema/index.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { advanceLeadStage } from '../leads/lead-progress.ts';
import { agencyToday, toLocalDateTime } from '../../lib/dates.ts';
import type { Caller } from '../../plugins/auth.ts';
import { containsPattern, lastNameMatches } from '../accounts/accounts.sql.ts';
import { leadOptionText } from '../leads/leads.service.ts';
import { nameOfUser, recordStamps } from '../../lib/record-stamps.ts';
import { objectTitle, placeName } from '../objects/objects.sql.ts';
import { OBJECT_LOG_ENTITY } from '../objects/object-change.ts';
import { deleteActivityLinks } from '../activities/activity-orphans.ts';
import { queueRentCheck } from '../alerts/alerts.system.ts';
import { queuePublishOf } from '../publishing/publishing.service.ts';
import { getSiteSettings } from '../settings/site-settings.service.ts';
import type { T } from '../../lib/i18n.ts';
import { refDigitsOfO } from '../../lib/reference-number.ts';

type Row = Record<string, unknown>;
type Party = { accountId: number; account: string; relation: number };

export const DEAL_LOG_ENTITY = 'Deal';
const FIELD_NAMES = DEAL_FIELDS.map((d) => d.name);

export const typeOptions = (t: T): TSelectOption[] => DEAL_TYPES.map((v) => ({ value: v, text: t(`deals.type.${v}`), parent: null }));
/** A stage's name as a deal of this type says it (a sale's earnest money, a rental's security deposit); both without a type. */
export const stageText = (t: T, stage: number, dealType?: number | null) => t(dealTextKey(`deals.stage.${stage}`, dealType));
export const stageOptions = (t: T, dealType?: number | null): TSelectOption[] => DEAL_STAGES.map((v) => ({ value: v, text: stageText(t, v, dealType), parent: null }));
export const relationOptions = (t: T): TSelectOption[] => DEAL_RELATIONS.map((v) => ({ value: v, text: t(`deals.relation.${v}`), parent: null }));
const options = (t: T) => ({ dealTypeOptions: typeOptions(t), dealStageOptions: stageOptions(t), dealAccountRelationOptions: relationOptions(t) });

/** The parties of a deal (SQL: json array in position order). */
export const partiesOf = (dealId: SQL) => sql<Party[]>`coalesce((select json_agg(json_build_object('accountId', p.account_id, 'account', a.display_name, 'relation', p.relation) order by p.position, p.id)
  from deal_parties p join accounts a on a.id = p.account_id where p.deal_id = ${dealId}), '[]'::json)`;

/** The deal as shown and edited (GET /api/Deal/edit/{id}). */
export async function getDeal(app: FastifyInstance, db: Db | Tx, id: number, t: T, culture: TCulture) {
  // Built once (db/prepared.ts).
  const query = buildOnce(db, `deal_load_${culture}`, (name) =>
    db
      .select({
        d: deals,
        ref: objects.referenceNumber,
        title: objectTitle(culture),
        parties: partiesOf(sql`${deals.id}`),
        createdBy: nameOfUser(sql`${deals.createdBy}`),
        modifiedBy: nameOfUser(sql`${deals.modifiedBy}`),
      })
      .from(deals)
      .leftJoin(objects, eq(objects.id, deals.objectId))
      .where(eq(deals.id, sql.placeholder('id')))
      .prepare(name),
  );
  const [row] = await query.execute({ id });
  if (!row) throw notFound('deals.notFound');
  const d = row.d as unknown as Row & typeof deals.$inferSelect;
  const tz = app.config.timeZone;
  return {
    ...Object.fromEntries(FIELD_NAMES.map((n) => [n, d[n] ?? null])),
    id: d.id,
    dealType: d.dealType as number,
    dealStage: d.dealStage as number,
    objectId: d.objectId ?? null,
    objectReferenceNumber: row.ref != null ? formatReferenceNumber(row.ref) : null,
    objectTitle: row.title ?? null,
    accounts: row.parties,
    demandId: d.demandId ?? null,
    demand: await leadOptionText(db, d.demandId ?? null, t),
    ...recordStamps(d, row, tz),
    ...options(t),
    // What deleting it would do to the tenants it put on properties (said before the delete).
    onDelete: tenancyNotices(await tenanciesOnDelete(db, d.id, closingStateOf(d as unknown as Row, row.parties), false), t, culture, false),
  };
}

/**
 * The property a deal for this lead is most likely about: among the objects offered to the lead,
 * the latest one it made an offer on in a viewing, else the only one offered; none when unclear.
 */
async function leadsProperty(db: Db, demandId: number, dealType: number): Promise<number | null> {
  // Only properties offered for this kind of deal (a rental lead's deal is not about a flat for sale only).
  const r = await db.execute(sql`
    select lo.object_id as id,
      (select max(v.date_of_viewing) from viewings v join viewing_objects vo on vo.viewing_id = v.id
        where v.demand_id = lo.lead_id and vo.object_id = lo.object_id and vo.result = ${VIEWING_RESULT_OFFER}) as offered
    from lead_objects lo join objects o on o.id = lo.object_id
    where lo.lead_id = ${demandId} and (case when ${dealType} = ${DEAL_TYPE_RENTAL} then o.for_rent else o.for_sale end) is true
    order by offered desc nulls last, lo.position limit 2`);
  const rows = r.rows as { id: number; offered: Date | null }[];
  if (rows[0]?.offered != null || rows.length === 1) return rows[0]!.id;
  return null;
}

/**
 * The agency's commission on a deal at this price, as its settings set it (a sale's percentage, a
 * rental's months of rent), to the cent; null without a price or a fee. The agent may change it.
 */
async function defaultCommission(db: Db, dealType: number, price: number | null): Promise<number | null> {
  if (price == null) return null;
  const s = await getSiteSettings(db);
  const fee = dealType === DEAL_TYPE_SALE ? (s.saleFeePercent == null ? null : (price * s.saleFeePercent) / 100) : s.rentFeeMonths == null ? null : price * s.rentFeeMonths;
  return fee == null ? null : Math.round(fee * 100) / 100;
}

/**
 * GET /api/Deal/add: a blank deal, stored only on save. From an object: the object, its owners as
 * sellers and its price as asking; from a lead: the lead, its client as buyer, and the property it
 * is most likely about (with that property's owners and price as above).
 */
export async function blankDeal(app: FastifyInstance, q: { objectId?: number; demandId?: number }, t: T, culture: TCulture) {
  const now = toLocalDateTime(new Date(), app.config.timeZone)!;
  const parties: Party[] = [];
  let object: { id: number; ref: number; title: string | null; salePrice: number | null; rentPrice: number | null; forSale: boolean } | undefined;
  let dealType: number = DEAL_TYPE_SALE;
  let lead: { accountId: number | null; account: string | null } | undefined;
  if (q.demandId != null) {
    const [l] = await app.db.select({ l: leads, account: accounts.displayName }).from(leads).leftJoin(accounts, eq(accounts.id, leads.accountId)).where(eq(leads.id, q.demandId));
    if (!l) throw notFound('leads.notFound');
    const r = l.l as unknown as Row;
    lead = { accountId: (r.accountId as number | null) ?? null, account: l.account };
    // A lead that wants to rent (or to let its own property), and not to buy or sell, makes a rental.
    if ((r.forRent === true || r.forRentOut === true) && !(r.forPurchase === true || r.forSell === true)) dealType = DEAL_TYPE_RENTAL;
  }
  const objectId = q.objectId ?? (q.demandId != null ? await leadsProperty(app.db, q.demandId, dealType) : null);
  if (objectId != null) {
    const r = await app.db.execute(sql`select id, reference_number as ref, ${objectTitle(culture)} as title, sale_price, rent_price, for_sale, for_rent from objects where id = ${objectId}`);
    const o = r.rows[0] as Row | undefined;
    if (!o) throw notFound('deals.objectNotFound');
    object = { id: o.id as number, ref: o.ref as number, title: (o.title as string | null) ?? null, salePrice: o.sale_price == null ? null : Number(o.sale_price), rentPrice: o.rent_price == null ? null : Number(o.rent_price), forSale: o.for_sale === true };
    // A property given: what it is offered for (a lead's property was chosen to fit the lead).
    if (q.objectId != null) dealType = !object.forSale && o.for_rent === true ? DEAL_TYPE_RENTAL : DEAL_TYPE_SALE;
    const owners = await app.db.execute(sql`select distinct on (a.id) a.id, a.display_name from object_accounts l join accounts a on a.id = l.account_id
      where l.object_id = ${objectId} and l.relation in (1, 2) order by a.id limit 10`);
    for (const r2 of owners.rows as Row[]) parties.push({ accountId: r2.id as number, account: r2.display_name as string, relation: 1 });
  }
  if (lead?.accountId != null) parties.push({ accountId: lead.accountId, account: lead.account ?? '', relation: 2 });
  const blank = Object.fromEntries(FIELD_NAMES.map((n) => [n, null]));
  const askingPrice = object ? (dealType === DEAL_TYPE_SALE ? object.salePrice : object.rentPrice) : null;
  return {
    ...blank,
    id: null,
    dealType,
    dealStage: DEAL_STAGES[0],
    objectId: object?.id ?? null,
    objectReferenceNumber: object ? formatReferenceNumber(object.ref) : null,
    objectTitle: object?.title ?? null,
    askingPrice,
    commission: await defaultCommission(app.db, dealType, askingPrice),
    accounts: parties,
    demandId: q.demandId ?? null,
    demand: await leadOptionText(app.db, q.demandId ?? null, t),
    createdOn: now,
    createdBy: null,
    modifiedOn: now,
    modifiedBy: null,
    version: 0,
    ...options(t),
    onDelete: [],
  };
}

/** What closing depends on: type, stage, object and parties, before and after a change. */
type ClosingState = {
  dealType: number;
  dealStage: number;
  objectId: number | null;
  demandId: number | null;
  rentStart: string | null;
  rentExpiration: string | null;
  /** The final price, else the asking one (a rental's monthly rent). */
  price: number | null;
  parties: { accountId: number; relation: number }[];
};

/** The specialists a closed sale counts for (each account once per deal). */
function soldCounters(s: ClosingState | null): Set<number> {
  if (!s || s.dealType !== DEAL_TYPE_SALE || s.dealStage !== DEAL_STAGE_CLOSED) return new Set();
  return new Set(s.parties.filter((p) => (DEAL_SPECIALIST_RELATIONS as readonly number[]).includes(p.relation)).map((p) => p.accountId));
}

/**
 * A deal closing (or reopening) as a sale or rental: the specialists' numberOfSoldObjects move by
 * one, and the objects' sold and rented flags follow their closed deals. The bought and rented
 * reference numbers of accounts are read from the closed deals (accountDealRefs), so they follow
 * by themselves.
 */
async function applyClosing(
  app: FastifyInstance,
  tx: Tx,
  actor: Caller['actor'],
  today: string,
  before: ClosingState | null,
  after: ClosingState | null,
  won?: { caller: Caller; dealId: number },
) {
  const was = soldCounters(before);
  const is = soldCounters(after);
  const plus = [...is].filter((id) => !was.has(id));
  const minus = [...was].filter((id) => !is.has(id));
  if (plus.length) await tx.update(accounts).set({ numberOfSoldObjects: sql`${accounts.numberOfSoldObjects} + 1` }).where(inArray(accounts.id, plus));
  if (minus.length) await tx.update(accounts).set({ numberOfSoldObjects: sql`greatest(${accounts.numberOfSoldObjects} - 1, 0)` }).where(inArray(accounts.id, minus));
  const objectIds = [...new Set([before?.objectId, after?.objectId].filter((v): v is number => v != null))];
  const closedChanged =
    before?.dealStage === DEAL_STAGE_CLOSED || after?.dealStage === DEAL_STAGE_CLOSED
      ? before?.dealStage !== after?.dealStage || before?.dealType !== after?.dealType || before?.objectId !== after?.objectId || before?.rentExpiration !== after?.rentExpiration
      : false;
  if (objectIds.length && closedChanged) {
    await refreshObjectFlags(tx, objectIds, today);
    // A sold property leaves the website (and one whose sale is reopened comes back): its publish
    // state follows, so its page in the office does not read "Published" for a page nobody sees.
    await queuePublishOf(app, tx, objectIds, actor);
  }
  // The lead the deal was made from is won when the deal closes (reopening the deal leaves the
  // lead as the agent last set it).
  const newlyClosed = after?.dealStage === DEAL_STAGE_CLOSED && (before?.dealStage !== DEAL_STAGE_CLOSED || before?.demandId !== after.demandId);
  if (won && newlyClosed && after.demandId != null) {
    const stage = leadColumns.stage!;
    const [lead] = await tx
      .update(leads)
      .set({ stage: LEAD_STAGE_WON, version: sql`${leads.version} + 1`, modifiedOn: new Date(), modifiedBy: won.caller.user.id } as never)
      .where(and(eq(leads.id, after.demandId), sql`${stage} is distinct from ${LEAD_STAGE_WON}`))
      .returning({ id: leads.id });
    if (lead) await logAction(tx, won.caller.actor, { action: 'Update', entity: 'Lead', entityId: lead.id, message: wonLogMessage(won.dealId), data: { stage: LEAD_STAGE_WON, dealId: won.dealId } });
  }
}

/**
 * An object is sold while it has a closed sale, rented while it has a closed rental that has not expired (on the agency's today).
 * The objects are locked in id order first, as a deal's delete takes them: the update alone takes
 * them in the order it reads the table, and a deal moved from one property to another while a
 * change took the two the other way round waited for it for ever.
 */
export async function refreshObjectFlags(tx: Tx | Db, objectIds: number[], today: string) {
  const ids = sql.join(
    objectIds.map((id) => sql`${id}`),
    sql`, `,
  );
  if (objectIds.length > 1) await tx.execute(sql`select 1 from objects where id in (${ids}) order by id for no key update`);
  await tx.execute(sql`update objects o set
      sold = exists (select 1 from deals d where d.object_id = o.id and d.deal_type = ${DEAL_TYPE_SALE} and d.deal_stage = ${DEAL_STAGE_CLOSED}),
      rented = exists (select 1 from deals d where d.object_id = o.id and d.deal_type = ${DEAL_TYPE_RENTAL} and d.deal_stage = ${DEAL_STAGE_CLOSED}
        and (d.rent_expiration is null or d.rent_expiration >= ${today}::date))
    where o.id in (${ids})`);
}

/** A note for the user about what a save did beyond the deal (said in the banner). */
type Notice = { kind: 'info' | 'warning'; text: string };

/** Two periods share a day (an open end runs on for ever). */
const overlaps = (a: { start: string | null; end: string | null }, b: { start: string | null; end: string | null }) =>
  (a.start == null || b.end == null || a.start <= b.end) && (b.start == null || a.end == null || b.start <= a.end);
/** The calendar day after / before a 'YYYY-MM-DD' day. */
const dayFrom = (d: string, by: number) => new Date(Date.parse(`${d}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
const nextDay = (d: string) => dayFrom(d, 1);
const previousDay = (d: string) => dayFrom(d, -1);

/** A day as the reader writes it (31/12/2029, in Russian 31.12.2029); "…" when not set. */
const dayText = (d: string | null, culture: TCulture) => (d ? [d.slice(8, 10), d.slice(5, 7), d.slice(0, 4)].join(culture === 'ru' ? '.' : '/') : '…');

/** What registering a closed rental's tenants depends on; null while the deal is not a closed rental of a property. */
function tenancyOf(s: ClosingState | null) {
  if (!s || s.dealType !== DEAL_TYPE_RENTAL || s.dealStage !== DEAL_STAGE_CLOSED || s.objectId == null) return null;
  const tenants = [...new Set(s.parties.filter((p) => p.relation === DEAL_RELATION.buyer).map((p) => p.accountId))].sort((a, b) => a - b);
  return { objectId: s.objectId, start: s.rentStart, end: s.rentExpiration, price: s.price, tenants };
}

/**
 * A rental closing puts its tenants on the property: each tenant party (relation 2) gets the
 * property's tenant link (object_accounts, relation 4, as the property's Contacts add one) for the
 * rent's start and expiration, at the deal's rent, with no payment day (as the tenant dialog
 * leaves it), in the deal's transaction and logged on the property.
 * - Done again when a closed rental's property, tenants, rent dates or rent change: a tenant's link
 *   with exactly the deal's former dates is the deal's own and follows it (a corrected expiration).
 * - An account with another tenant link on the property for overlapping dates is left as it is;
 *   one whose earlier tenancy there is over (a property holds one tenant link per account) has it
 *   stretched to cover the new one, or moved to the new one when someone else let the property in
 *   between (a stretched link would list this tenant through the other's lease).
 * - Another tenant for some of the same days does not stop it, but is said.
 * - A deal that stops being a closed rental of the property (reopened, made a sale, its tenant
 *   removed) leaves the link, and says so: the tenant may have moved in, and only the agent knows.
 */
async function settleTenants(app: FastifyInstance, tx: Tx, caller: Caller, dealId: number, before: ClosingState | null, after: ClosingState | null, t: T, culture: TCulture): Promise<Notice[]> {
  const was = tenancyOf(before);
  const is = tenancyOf(after);
  if (!is && !was) return [];
  if (JSON.stringify(is) === JSON.stringify(was)) return [];
  // The properties first, in id order, then their tenant links, as a closing (refreshObjectFlags)
  // and a deal's delete take them: a tenant changed on a closed rental took the links first, and a
  // delete of another deal of the property, holding the property, waited for them while this waited
  // for the property. Two closings of one property wait for each other here too, also when it has
  // no tenant link yet to lock.
  const properties = [...new Set([was?.objectId, is?.objectId].filter((v): v is number => v != null))];
  await tx.execute(sql`select 1 from objects where id in (${sql.join(
    properties.map((id) => sql`${id}`),
    sql`, `,
  )}) order by id for no key update`);
  const day = (d: string | null) => dayText(d, culture);
  const refOf = async (objectId: number) => {
    const [o] = await tx.select({ ref: objects.referenceNumber }).from(objects).where(eq(objects.id, objectId));
    return o ? formatReferenceNumber(o.ref) : null;
  };
  /** The property's tenant links (long and short let), locked: two closings of one property wait for each other. */
  const tenantLinks = async (objectId: number) =>
    (
      await tx.execute<{ account_id: number; relation: number; start_date: string | null; end_date: string | null; price: string | null; rent_payment_day: number | null; name: string }>(sql`
        select l.account_id, l.relation, l.start_date::text, l.end_date::text, l.price::text, l.rent_payment_day, a.display_name as name
        from object_accounts l join accounts a on a.id = l.account_id
        where l.object_id = ${objectId} and l.relation in (${sql.join(
          TENANT_RELATIONS.map((r) => sql`${r}`),
          sql`, `,
        )})
        order by l.start_date nulls first, a.display_name for update of l`)
    ).rows.map((l) => ({ ...l, start: l.start_date, end: l.end_date, price: l.price == null ? null : Number(l.price) }));
  type Link = Awaited<ReturnType<typeof tenantLinks>>[number];
  /** The link the deal gave a tenant when it closed: the tenant's long-let link with the deal's dates. */
  const ownLink = (links: Link[], accountId: number) =>
    was?.start && was.end ? links.find((l) => l.account_id === accountId && l.relation === TENANT_RELATION && l.start === was.start && l.end === was.end) : undefined;
  const key = (objectId: number, accountId: number) =>
    and(eq(objectAccounts.objectId, objectId), eq(objectAccounts.accountId, accountId), eq(objectAccounts.relation, TENANT_RELATION));
  const notices: Notice[] = [];

  // The tenancy the deal made, when the deal no longer makes it (reopened, a sale now, another
  // property, the tenant removed): kept, and said.
  if (was?.start && was.end) {
    const gone = was.tenants.filter((id) => !is || is.objectId !== was.objectId || !is.tenants.includes(id));
    const links = gone.length ? await tenantLinks(was.objectId) : [];
    const kept = gone.map((id) => ownLink(links, id)).filter((l): l is Link => l != null);
    if (kept.length) notices.push({ kind: 'warning', text: t('deals.tenant.kept', { ref: (await refOf(was.objectId)) ?? '', names: kept.map((l) => l.name).join(', '), start: day(was.start), end: day(was.end) }) });
  }
  if (!is) return notices;

  const ref = await refOf(is.objectId);
  if (ref == null) return notices;
  if (!is.tenants.length) return [...notices, { kind: 'warning', text: t('deals.tenant.none', { ref }) }];
  if (!is.start || !is.end) return [...notices, { kind: 'warning', text: t('deals.tenant.noDates', { ref }) }];
  const period = { start: is.start, end: is.end };
  const links = await tenantLinks(is.objectId);
  const names = new Map((await tx.select({ id: accounts.id, name: accounts.displayName }).from(accounts).where(inArray(accounts.id, is.tenants))).map((a) => [a.id, a.name ?? '']));
  const log = (action: 'AddContact' | 'UpdateContact', accountId: number, data: Row) =>
    logAction(tx, caller.actor, { action, entity: OBJECT_LOG_ENTITY, entityId: is.objectId, message: `#${ref} ${names.get(accountId) ?? ''}`, data: { accountId, relation: TENANT_RELATION, ...data, dealId } });
  let changed = false;
  let remind = false;
  for (const accountId of is.tenants) {
    const name = names.get(accountId) ?? `#${accountId}`;
    const own = was?.objectId === is.objectId && was.tenants.includes(accountId) ? ownLink(links, accountId) : undefined;
    if (own) {
      // The deal's own link follows its dates and rent.
      const to = { startDate: period.start, endDate: period.end, price: is.price };
      if (own.start === to.startDate && own.end === to.endDate && own.price === to.price) continue;
      // (A link with the deal's dates that another deal or a person made is changed by this one.)
      await tx
        .update(objectAccounts)
        .set({ ...to, changedSinceDeal: sql`${objectAccounts.changedSinceDeal} or ${objectAccounts.dealId} is distinct from ${dealId}` })
        .where(key(is.objectId, accountId));
      await log('UpdateContact', accountId, { from: { startDate: own.start, endDate: own.end, price: own.price }, to });
      changed ||= own.start !== to.startDate || own.end !== to.endDate;
      remind ||= own.rent_payment_day != null;
      if (own.start !== to.startDate || own.end !== to.endDate) notices.push({ kind: 'info', text: t('deals.tenant.moved', { name, ref, start: day(period.start), end: day(period.end) }) });
      continue;
    }
    const mine = links.filter((l) => l.account_id === accountId);
    if (mine.some((l) => overlaps(l, period))) continue;
    const earlier = mine.find((l) => l.relation === TENANT_RELATION);
    if (earlier) {
      // Stretched over the time between, unless someone else let the property then: the link would
      // make this tenant look like theirs during another's lease (reminders, Contacts). Then it moves
      // to the new tenancy; the earlier one stays in its own deal.
      const between = earlier.end != null && earlier.end < period.start ? { start: nextDay(earlier.end), end: previousDay(period.start) } : earlier.start != null && earlier.start > period.end ? { start: nextDay(period.end), end: previousDay(earlier.start) } : null;
      const letBetween = between && between.start <= between.end ? [...new Set(links.filter((l) => l.account_id !== accountId && overlaps(l, between)).map((l) => l.name))] : [];
      const to = letBetween.length
        ? { startDate: period.start, endDate: period.end, price: is.price ?? earlier.price }
        : {
            startDate: earlier.start == null || earlier.start < period.start ? earlier.start : period.start,
            endDate: earlier.end == null || earlier.end > period.end ? earlier.end : period.end,
            price: is.price ?? earlier.price,
          };
      // Stretched or moved by this deal: no longer as the deal that made it (if one did) left it.
      await tx
        .update(objectAccounts)
        .set({ ...to, changedSinceDeal: true })
        .where(key(is.objectId, accountId));
      await log('UpdateContact', accountId, { from: { startDate: earlier.start, endDate: earlier.end, price: earlier.price }, to });
      changed = true;
      remind ||= earlier.rent_payment_day != null;
      const dates = { name, ref, wasStart: day(earlier.start), wasEnd: day(earlier.end), start: day(to.startDate), end: day(to.endDate) };
      notices.push({ kind: 'info', text: letBetween.length ? t('deals.tenant.renewed', { ...dates, names: letBetween.join(', ') }) : t('deals.tenant.extended', dates) });
    } else {
      const link = { startDate: period.start, endDate: period.end, price: is.price, rentPaymentDay: null };
      // (Added meanwhile by someone else's save: theirs stands.)
      const [added] = await tx
        .insert(objectAccounts)
        .values({ objectId: is.objectId, accountId, relation: TENANT_RELATION, ...link, dealId })
        .onConflictDoNothing()
        .returning({ accountId: objectAccounts.accountId });
      if (!added) continue;
      await log('AddContact', accountId, link);
      changed = true;
      notices.push({ kind: 'info', text: t('deals.tenant.registered', { name, ref, start: day(period.start), end: day(period.end) }) });
    }
  }
  // A payment day the agent set on a link whose dates moved: its reminder due today appears at once.
  if (remind) await queueRentCheck(app, tx, is.objectId);
  // Someone else already lets the property for some of these days: both are kept, the user told
  // (when a tenancy is put on the property or its dates change, not when only the rent does).
  const others = [...new Set(links.filter((l) => !is.tenants.includes(l.account_id) && overlaps(l, period)).map((l) => l.name))];
  if (changed && others.length) notices.push({ kind: 'warning', text: t('deals.tenant.overlap', { ref, names: others.join(', ') }) });
  return notices;
}

/**
 * The rentals that ran out: an object stays "rented" only while a closed rental of it has not
 * expired, and time passing changes no deal, so the deals' job (at start-up and every hour)
 * clears the flag of objects whose last closed rental expired before the agency's today. The rented
 * objects are few; the statements read only them. They are locked first, in id order, as every
 * change of several properties takes them (refreshObjectFlags, a deal's delete): the update alone
 * took them in the order it read the table, and a deal change holding one and waiting for another
 * waited for ever. The update then looks again with what committed meanwhile (a rental closed
 * while the job waited keeps its flag). Returns the objects it changed, in id order.
 */
export const RENTALS_EXPIRE_JOB = 'deals.rentalsExpire';
export async function expireRentals(db: Db, today: string): Promise<number[]> {
  const expired = sql`o.rented and not exists (select 1 from deals d where d.object_id = o.id and d.deal_type = ${DEAL_TYPE_RENTAL} and d.deal_stage = ${DEAL_STAGE_CLOSED}
      and (d.rent_expiration is null or d.rent_expiration >= ${today}::date))`;
  return db.transaction(async (tx) => {
    const locked = await tx.execute<{ id: number }>(sql`select o.id from objects o where ${expired} order by o.id for no key update`);
    if (!locked.rows.length) return [];
    const r = await tx.execute<{ id: number }>(sql`update objects o set rented = false
      where o.id = any(${sql.param(locked.rows.map((x) => x.id))}::int[]) and ${expired}
      returning o.id`);
    return r.rows.map((x) => x.id).sort((a, b) => a - b);
  });
}

async function closingState(tx: Tx, id: number): Promise<ClosingState | null> {
  const [d] = await tx.select().from(deals).where(eq(deals.id, id));
  if (!d) return null;
  const parties = await tx.select({ accountId: dealParties.accountId, relation: dealParties.relation }).from(dealParties).where(eq(dealParties.dealId, id));
  return closingStateOf(d as unknown as Row, parties);
}

/** A deal's row (and its parties) as what closing depends on. */
function closingStateOf(r: Row, parties: ClosingState['parties']): ClosingState {
  return {
    dealType: r.dealType as number,
    dealStage: r.dealStage as number,
    objectId: (r.objectId as number | null) ?? null,
    demandId: (r.demandId as number | null) ?? null,
    rentStart: (r.rentStart as string | null) ?? null,
    rentExpiration: (r.rentExpiration as string | null) ?? null,
    price: r.price != null ? Number(r.price) : r.askingPrice != null ? Number(r.askingPrice) : null,
    parties,
  };
}

/**
 * A tenant link a deal's delete speaks of: the link the deal put on a property, which goes with it
 * unless it was changed since (in the property's Contacts, or stretched by another deal); and, for a
 * closed rental, a tenant's link on its property for the rent's dates that the deal did not make,
 * which stays.
 */
type TenancyOnDelete = { ref: string; name: string; start: string | null; end: string | null; objectId: number; accountId: number; fate: 'goes' | 'changed' | 'earlier' };

async function tenanciesOnDelete(db: Db | Tx, dealId: number, s: ClosingState | null, lock: boolean): Promise<TenancyOnDelete[]> {
  const is = tenancyOf(s);
  const ofItsTenants =
    is && is.tenants.length && is.start && is.end
      ? sql`or (l.object_id = ${is.objectId} and l.account_id = any(${sql.param(is.tenants)}::int[])
          and (l.start_date is null or l.start_date <= ${is.end}::date) and (l.end_date is null or l.end_date >= ${is.start}::date))`
      : sql``;
  const r = await db.execute<{ object_id: number; account_id: number; ref: number; name: string; start_date: string | null; end_date: string | null; deal_id: number | null; changed_since_deal: boolean }>(sql`
    select l.object_id, l.account_id, o.reference_number as ref, a.display_name as name, l.start_date::text, l.end_date::text, l.deal_id, l.changed_since_deal
    from object_accounts l join accounts a on a.id = l.account_id join objects o on o.id = l.object_id
    where l.relation = ${TENANT_RELATION} and (l.deal_id = ${dealId} ${ofItsTenants})
    order by o.reference_number, l.start_date nulls first, a.display_name ${lock ? sql`for update of l` : sql``}`);
  return r.rows.map((l) => ({
    ref: formatReferenceNumber(l.ref),
    name: l.name,
    start: l.start_date,
    end: l.end_date,
    objectId: l.object_id,
    accountId: l.account_id,
    fate: l.deal_id !== dealId ? 'earlier' : l.changed_since_deal ? 'changed' : 'goes',
  }));
}

/** What deleting the deal does (or did, `done`) to those links, for its confirmation and its banner. */
function tenancyNotices(list: TenancyOnDelete[], t: T, culture: TCulture, done: boolean): Notice[] {
  return list.map((l) => {
    const params = { ref: l.ref, name: l.name, start: dayText(l.start, culture), end: dayText(l.end, culture) };
    if (l.fate === 'goes') return { kind: 'info', text: t(done ? 'deals.delete.tenantRemoved' : 'deals.delete.tenantGoes', params) };
    return { kind: 'warning', text: t(l.fate === 'changed' ? 'deals.delete.tenantChanged' : 'deals.delete.tenantEarlier', params) };
  });
}

/** Party rows as saved: rows without an account dropped (spec), repeats of the same account in the same relation kept once. */
function cleanParties(rows: TDealUpdate['accounts']) {
  const seen = new Set<string>();
  const out: { accountId: number; relation: number }[] = [];
  for (const r of rows ?? []) {
    if (r.accountId == null) continue;
    const key = `${r.relation}:${r.accountId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ accountId: r.accountId, relation: r.relation });
  }
  if (out.length > DEAL_MAX_PARTIES) throw fieldError('accounts', 'deals.tooManyParties', { max: DEAL_MAX_PARTIES });
  return out;
}

async function checkRefs(tx: Tx, body: TDealUpdate, parties: { accountId: number }[] | undefined) {
  if (body.objectId != null) {
    const [o] = await tx.select({ id: objects.id }).from(objects).where(eq(objects.id, body.objectId));
    if (!o) throw fieldError('objectId', 'deals.objectNotFound');
  }
  if (body.demandId != null) {
    const [l] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, body.demandId));
    if (!l) throw fieldError('demandId', 'leads.notFound');
  }
  if (parties?.length) {
    const ids = [...new Set(parties.map((p) => p.accountId))];
    const found = await tx.select({ id: accounts.id }).from(accounts).where(inArray(accounts.id, ids));
    if (found.length !== ids.length) throw fieldError('accounts', 'deals.accountNotFound');
  }
}

/**
 * The described fields to store: the body's fields over the current ones, checked as a whole
 * (dates in order; contract duration for sales, rent dates for rentals). When the type changes,
 * the other type's fields are cleared; setting them on the wrong type is a 400.
 */
function fieldsToStore(body: TDealUpdate, current: Row | null) {
  const b = body as unknown as Row;
  const set: Row = {};
  for (const n of FIELD_NAMES) if (b[n] !== undefined) set[n] = b[n];
  const merged: Row = { ...(current ?? {}), ...set };
  merged.dealType ??= DEAL_TYPE_SALE;
  merged.dealStage ??= DEAL_STAGES[0];
  set.dealType = merged.dealType;
  set.dealStage = merged.dealStage;
  const typeChanged = current != null && current.dealType !== merged.dealType;
  const foreign = merged.dealType === DEAL_TYPE_RENTAL ? DEAL_SALE_ONLY : DEAL_RENTAL_ONLY;
  for (const n of foreign) {
    if (b[n] != null) throw fieldError(n, merged.dealType === DEAL_TYPE_RENTAL ? 'deals.saleOnly' : 'deals.rentalOnly');
    if (typeChanged || merged[n] != null) set[n] = null;
    merged[n] = null;
  }
  // Every period out of order is named at once (the rent's and the contract's), not one per save.
  const outOfOrder = DEAL_RANGES.filter(([a, z]) => {
    const from = merged[a] as string | null | undefined;
    const till = merged[z] as string | null | undefined;
    return !!from && !!till && till < from;
  });
  if (outOfOrder.length) throw new AppError(400, 'errors.validation', {}, Object.fromEntries(outOfOrder.map(([, z]) => [z, [{ code: 'deals.range' }]])));
  return set;
}

/** A stored value and the one sent are the same (a numeric column reads as "226000.00", is sent as 226000). */
function sameStored(stored: unknown, sent: unknown): boolean {
  if (stored == null || sent == null) return stored == null && sent == null;
  if (typeof stored === 'number' || typeof sent === 'number') return Number(stored) === Number(sent);
  if (stored instanceof Date) return sent instanceof Date ? stored.getTime() === sent.getTime() : false;
  return String(stored) === String(sent);
}

/** POST /api/Deal/update: creates (no id) or updates with the version guard; the parties are replaced when sent. */
export async function saveDeal(app: FastifyInstance, caller: Caller, body: TDealUpdate, t: T, culture: TCulture) {
  return app.db.transaction(async (tx) => {
    const { id, notices } = await storeDeal(app, tx, caller, body, t, culture);
    return { ...(await getDeal(app, tx, id, t, culture)), notices };
  });
}

/**
 * A deal saved in the caller's transaction, as POST /api/Deal/update saves it (the import of deals
 * makes its deals here too, so they are what the form makes): its fields checked, its parties, the
 * log (with `logMore` added to a new deal's entry), a lead moved on, closing's effects on the
 * property and the specialists, a closed rental's tenants.
 */
export async function storeDeal(app: FastifyInstance, tx: Tx, caller: Caller, body: TDealUpdate, t: T, culture: TCulture, logMore: Row = {}): Promise<{ id: number; notices: Notice[] }> {
  const parties = body.accounts !== undefined ? cleanParties(body.accounts) : undefined;
  await checkRefs(tx, body, parties);
  let id = body.id ?? null;
  let before: ClosingState | null = null;
  let partiesUnchanged = false;
  if (id == null) {
    const set = fieldsToStore(body, null);
    const [row] = await tx
      .insert(deals)
      .values({ ...set, objectId: body.objectId ?? null, demandId: body.demandId ?? null, createdBy: caller.user.id, modifiedBy: caller.user.id } as never)
      .returning({ id: deals.id });
    id = row!.id;
    await logAction(tx, caller.actor, { action: 'Create', entity: DEAL_LOG_ENTITY, entityId: id, data: { ...body, ...logMore } });
  } else {
    const [current] = await tx.select().from(deals).where(eq(deals.id, id)).for('update');
    if (!current) throw notFound('deals.notFound');
    if (requireVersion(body.version) !== current.version) throw conflict(await getDeal(app, tx, id, t, culture));
    before = await closingState(tx, id);
    const set = fieldsToStore(body, current as unknown as Row);
    if (body.objectId !== undefined) set.objectId = body.objectId;
    if (body.demandId !== undefined) set.demandId = body.demandId;
    await tx
      .update(deals)
      .set({ ...set, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id } as never)
      .where(eq(deals.id, id));
    // The log holds what changed, not every field the form sent back as it was.
    const was = current as unknown as Row;
    const changes: Row = Object.fromEntries(Object.entries(set).filter(([k, v]) => !sameStored(was[k], v)));
    if (parties) {
      const old = await tx.select({ accountId: dealParties.accountId, relation: dealParties.relation }).from(dealParties).where(eq(dealParties.dealId, id)).orderBy(dealParties.position);
      const next = parties.map((p) => ({ accountId: p.accountId, relation: p.relation }));
      if (JSON.stringify(old) !== JSON.stringify(next)) changes.accounts = next;
      // Parties sent back as they were are not written again: their rewrite would mark the deal's
      // mail count as changed (decision 105) on every save of the form.
      else partiesUnchanged = true;
    }
    await logAction(tx, caller.actor, { action: 'Update', entity: DEAL_LOG_ENTITY, entityId: id, data: changes });
  }
  if (parties && !partiesUnchanged) {
    await tx.delete(dealParties).where(eq(dealParties.dealId, id));
    if (parties.length) await tx.insert(dealParties).values(parties.map((p, position) => ({ dealId: id!, accountId: p.accountId, relation: p.relation, position })));
  }
  const after = await closingState(tx, id);
  // A deal is about a property or between people: an empty one is refused (and rolled back).
  if (after && after.objectId == null && after.parties.length === 0) throw fieldError('objectId', 'deals.objectOrPartyRequired');
  // Made from a lead (or given one now): a lead still New, or at Viewings, is negotiating now (a
  // deal made closed then wins it, below); one entered as cancelled, a sale that fell through, is not.
  if (after?.demandId != null && after.demandId !== before?.demandId && after.dealStage !== DEAL_STAGE_CANCELLED) await advanceLeadStage(tx, { userId: caller.user.id, actor: caller.actor }, after.demandId, 'deal', id);
  await applyClosing(app, tx, caller.actor, agencyToday(app.config.timeZone), before, after, { caller, dealId: id });
  const notices = await settleTenants(app, tx, caller, id, before, after, t, culture);
  return { id, notices };
}

/**
 * POST /api/Deal/move: the board's drag to another stage, with the version guard. A stage that
 * needs data (DEAL_STAGE_NEEDS: the deposit's amount and date, the signing date) takes it in the
 * same move, and refuses the move when the deal has not got it and it is not sent.
 */
export async function moveDeal(app: FastifyInstance, caller: Caller, body: TDealMove, t: T, culture: TCulture) {
  const { id, version, dealStage } = body;
  return app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(deals).where(eq(deals.id, id)).for('update');
    if (!current) throw notFound('deals.notFound');
    if (requireVersion(version) !== current.version) throw conflict(await getDeal(app, tx, id, t, culture));
    const given: Row = {};
    for (const n of ['deposit', 'dateOfDeposit', 'endDate'] as const) if ((body as Row)[n] != null) given[n] = (body as Row)[n];
    const was = current as unknown as Row;
    const missing = (DEAL_STAGE_NEEDS[dealStage] ?? []).filter((n) => given[n] == null && was[n] == null);
    if (missing.length) {
      const stage = stageText(t, dealStage, was.dealType as number);
      throw new AppError(400, 'errors.validation', {}, Object.fromEntries(missing.map((n) => [n, [{ code: `deals.stageNeeds.${n}`, params: { stage } }]])));
    }
    // The dates checked as a save checks them (the signing not before the negotiations' start).
    const set = fieldsToStore({ ...given, dealStage } as TDealUpdate, was);
    const before = await closingState(tx, id);
    await tx
      .update(deals)
      .set({ ...set, version: current.version + 1, modifiedOn: new Date(), modifiedBy: caller.user.id } as never)
      .where(eq(deals.id, id));
    await logAction(tx, caller.actor, { action: 'Update', entity: DEAL_LOG_ENTITY, entityId: id, message: LOG_MESSAGE.moved, data: { dealStage, ...given } });
    const after = await closingState(tx, id);
    await applyClosing(app, tx, caller.actor, agencyToday(app.config.timeZone), before, after, { caller, dealId: id });
    const notices = await settleTenants(app, tx, caller, id, before, after, t, culture);
    return { ...(await getDeal(app, tx, id, t, culture)), notices };
  });
}

/**
 * DELETE /api/Deal/{id}: its parties and the activities only it held go with it; a closed deal's
 * counts and flags are undone. A tenant link it put on a property and nobody changed since goes too
 * (a deal deleted is mostly a mistake, and its tenant with it); one changed since, or one of its
 * tenants it did not make, stays. The answer's notices say which (as the confirmation did).
 */
export async function deleteDeal(app: FastifyInstance, caller: Caller, id: number, t: T, culture: TCulture): Promise<Notice[]> {
  return app.db.transaction(async (tx) => {
    const [current] = await tx.select({ id: deals.id }).from(deals).where(eq(deals.id, id)).for('update');
    if (!current) throw notFound('deals.notFound');
    const before = await closingState(tx, id);
    // The properties first, then their tenant links, as a closing takes them (settleTenants): taken
    // the other way round, a delete and a closing of one property each held what the other waited for.
    await tx.execute(sql`select 1 from objects where id in (select l.object_id from object_accounts l where l.deal_id = ${id} union all select ${before?.objectId ?? null}::int)
      order by id for no key update`);
    const tenancies = await tenanciesOnDelete(tx, id, before, true);
    for (const l of tenancies.filter((x) => x.fate === 'goes')) {
      await tx
        .delete(objectAccounts)
        .where(and(eq(objectAccounts.objectId, l.objectId), eq(objectAccounts.accountId, l.accountId), eq(objectAccounts.relation, TENANT_RELATION)));
      await logAction(tx, caller.actor, {
        action: 'RemoveContact',
        entity: OBJECT_LOG_ENTITY,
        entityId: l.objectId,
        message: `#${l.ref} ${l.name}`,
        data: { accountId: l.accountId, relations: [TENANT_RELATION], dealId: id },
      });
    }
    await deleteActivityLinks(tx, LinkKind.Deal, id);
    await tx.delete(deals).where(eq(deals.id, id));
    await applyClosing(app, tx, caller.actor, agencyToday(app.config.timeZone), before, null);
    await logAction(tx, caller.actor, { action: 'Delete', entity: DEAL_LOG_ENTITY, entityId: id });
    return tenancyNotices(tenancies, t, culture, true);
  });
}

/**
 * The filters of the list and the board, as SQL conditions (each served by an index). A party's
 * name is looked up first (one statement, its deals' ids passed on as an int[]), unless `inline`:
 * then the look-up is part of the statement that uses the condition (pageWithTotals, decision 107).
 */
export async function filterConditions(db: Db, f: Partial<TDealFilter>, opts: { inline?: boolean } = {}): Promise<(SQL | undefined)[]> {
  const c = dealColumns;
  const where: (SQL | undefined)[] = [];
  if (f.dealType) where.push(eq(c.dealType!, f.dealType));
  if (f.stages?.length) where.push(inArray(c.dealStage!, f.stages));
  if (f.depositFrom) where.push(sql`${c.dateOfDeposit} >= ${f.depositFrom}`);
  if (f.depositTill) where.push(sql`${c.dateOfDeposit} <= ${f.depositTill}`);
  if (f.endDateFrom) where.push(sql`${c.endDate} >= ${f.endDateFrom}`);
  if (f.endDateTill) where.push(sql`${c.endDate} <= ${f.endDateTill}`);
  if (f.objectId) where.push(eq(deals.objectId, f.objectId));
  if (f.demandId) where.push(eq(deals.demandId, f.demandId));
  if (f.accountId) where.push(sql`${deals.id} in (select p.deal_id from deal_parties p where p.account_id = ${f.accountId})`);
  // The agent's deals: those they are the employee in charge of (deal_parties_account_idx), as the agents' results count them.
  if (f.agentId) where.push(sql`${deals.id} in (select p.deal_id from deal_parties p where p.account_id = ${f.agentId} and p.relation = ${DEAL_RELATION.assigned})`);
  const name = f.lastName?.trim();
  if (name) {
    // The matched accounts (account_last_names, trigram) and their parties' deals, read by account
    // from deal_parties_account_idx alone (`any(array(…))`: a join hashed every party, decision 092).
    // No copy of the names is kept on the deals (decision 103: keeping it deadlocked renames, merges
    // and saves).
    const partyDeals = sql`select p.deal_id from deal_parties p where p.account_id = any(array(${lastNameMatches(name)}))`;
    if (opts.inline) {
      // Inside the statement: the deals' ids are an array made once (an InitPlan), the deals read
      // by it from their primary key. Only where the statement reads every matched deal anyway: as
      // a filter on another index's walk, an array made at run time is searched element by element.
      where.push(sql`${deals.id} = any(array(${partyDeals}))`);
    } else {
      // Apart: the deals' ids come back as PostgreSQL's own int[] text (IdSet) and go in as a
      // constant, which a walk of another index (the board's stages, the file's order) tests by hash.
      const parties = await db.execute<{ ids: string }>(sql`select coalesce(array_agg(distinct x.deal_id), '{}')::text as ids from (${partyDeals}) x`);
      where.push(sql`${deals.id} = any(${parties.rows[0]?.ids ?? '{}'}::int[])`);
    }
  }
  const obj = f.object?.trim().replace(/^#/, '');
  if (obj) {
    if (/^\d{1,9}$/.test(obj)) where.push(sql`${deals.objectId} in (select o.id from objects o where o.reference_number = ${Number(obj)})`);
    else where.push(sql`${deals.objectId} in (select o.id from objects o where o.search_text like ${containsPattern(obj)})`);
  }
  return where;
}

export const SORT_SQL: Record<TDealSearch['sortBy'], (dir: SQL) => SQL[]> = {
  createdOn: (dir) => [sql`${deals.createdOn} ${dir}`, sql`${deals.id} ${dir}`],
  dateOfDeposit: (dir) => [sql`${dealColumns.dateOfDeposit} ${dir} nulls last`, sql`${deals.id} ${dir}`],
  endDate: (dir) => [sql`${dealColumns.endDate} ${dir} nulls last`, sql`${deals.id} ${dir}`],
  // The price the list shows: the final one, else the asking price (deals_shown_price_idx).
  price: (dir) => [sql`coalesce(${dealColumns.price}, ${dealColumns.askingPrice}) ${dir} nulls last`, sql`${deals.id} ${dir}`],
  stage: (dir) => [sql`${dealColumns.dealStage} ${dir}`, sql`${deals.createdOn} desc`, sql`${deals.id} desc`],
};

/** POST /api/Deal/search: filters, count and page in SQL; the party columns with their account ids. */
/** A row's further columns asked for (DEAL_MORE_COLUMNS): an amount or a number as a number, a date as YYYY-MM-DD, a text as it is. */
function moreValues(d: Row, names: readonly string[]): Record<string, string | number | null> {
  const numeric = new Set(DEAL_FIELDS.filter((x) => x.type === 'currency' || x.type === 'number').map((x) => x.name));
  return Object.fromEntries(names.map((k) => [k, d[k] == null || d[k] === '' ? null : numeric.has(k) ? Number(d[k]) : String(d[k])]));
}

export async function searchDeals(app: FastifyInstance, f: TDealSearch, t: T, culture: TCulture) {
  // A filter of type and stages only walks an index in the list's order; any other reads every matched deal (pageWithTotals).
  const cond = and(...(await filterConditions(app.db, f, { inline: !onlyTypeAndStages(f) })));
  const dir = f.sortDir === 'asc' ? sql`asc` : sql`desc`;
  const page = () =>
    app.db
      .select({ id: deals.id })
      .from(deals)
      .where(cond)
      .orderBy(...SORT_SQL[f.sortBy](dir))
      .limit(f.perPage)
      .offset((f.currentPage - 1) * f.perPage);
  // The count and the footer's totals in one pass over the matching deals, beside the page's index
  // walk (lib/paging.ts: the page's ids first, then their objects and parties).
  const withCancelled = f.stages.includes(DEAL_STAGE_CANCELLED);
  // A filter of type and stages only reads its kept totals beside the page's index walk; any other
  // filter has its page and totals from one statement (decision 103).
  const { totals, ids } = onlyTypeAndStages(f)
    ? await Promise.all([keptDealTotals(app.db, f, withCancelled), page().then((r) => r.map((x) => x.id))]).then(([totals, ids]) => ({ totals, ids }))
    : await pageWithTotals(app.db, cond, SORT_SQL[f.sortBy](dir), f.perPage, (f.currentPage - 1) * f.perPage, withCancelled);
  const found = ids.length
    ? await app.db
        .select({ d: deals, ref: objects.referenceNumber, place: placeName(culture), parties: partiesOf(sql`${deals.id}`) })
        .from(deals)
        .leftJoin(objects, eq(objects.id, deals.objectId))
        .where(inArray(deals.id, ids))
    : [];
  const rows = inIdOrder(ids, found, (r) => r.d.id);
  const tz = app.config.timeZone;
  return {
    items: rows.map((r) => {
      const d = r.d as unknown as Row & typeof deals.$inferSelect;
      const cols: Row = {};
      for (const key of DEAL_LIST_PARTIES) {
        const rel = { seller: 1, buyer: 2, lawer: 3, notary: 4, civilEngeneer: 5, assigned: 6 }[key];
        const of = r.parties.filter((p) => p.relation === rel);
        cols[key] = of.map((p) => p.account).join(', ');
        cols[`${key}Id`] = of[0]?.accountId ?? null;
      }
      const stage = d.dealStage as number;
      return {
        id: d.id,
        dealType: d.dealType as number,
        type: t(`deals.type.${d.dealType as number}`),
        dealStage: stage,
        stage: stageText(t, stage, d.dealType as number),
        rowClass: DEAL_STAGE_CLASS[stage] ?? '',
        objectId: d.objectId ?? null,
        objectReferenceNumber: r.ref != null ? formatReferenceNumber(r.ref) : null,
        objectPlace: r.place ?? null,
        askingPrice: (d.askingPrice as number | null) ?? null,
        price: (d.price as number | null) ?? null,
        dateOfDeposit: (d.dateOfDeposit as string | null) ?? null,
        endDate: (d.endDate as string | null) ?? null,
        createdOn: toLocalDateTime(d.createdOn, tz)!,
        ...cols,
        parties: r.parties,
        ...(f.more.length ? { more: moreValues(d, f.more) } : {}),
      } as never;
    }),
    totalRows: totals.n,
    sums: totals.sums,
    sumsWithCancelled: withCancelled,
    options: { types: typeOptions(t), stages: stageOptions(t, f.dealType), relations: relationOptions(t) },
  };
}

/** The job that adds the deals' totals' deltas into them (decision 072). */
export const DEAL_TOTALS_FOLD_JOB = 'deals.totalsFold';
export async function foldDealTotals(app: FastifyInstance): Promise<void> {
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`select crm_deal_totals_fold()`);
  });
}

/** A filter of type and stages only (or none): its totals are the kept ones (deal_totals, migration 0065). */
export function onlyTypeAndStages(f: Partial<TDealFilter>): boolean {
  const t = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  return !f.depositFrom && !f.depositTill && !f.endDateFrom && !f.endDateTill && !f.objectId && !f.demandId && !f.accountId && !f.agentId && !t(f.lastName) && !t(f.object);
}

/** The kept cells a type and stages filter takes (deal_totals' own columns). */
function keptCells(f: Partial<TDealFilter>): SQL {
  const parts: SQL[] = [];
  if (f.dealType) parts.push(sql`deal_type = ${f.dealType}`);
  if (f.stages?.length) parts.push(sql`deal_stage = any(${sql.param(f.stages)}::smallint[])`);
  return parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``;
}

/** dealTotals from the kept cells (decision 072): the same count and sums, read from a dozen rows. */
export async function keptDealTotals(db: Db, f: Partial<TDealFilter>, withCancelled: boolean) {
  const counted = withCancelled ? sql`true` : sql`deal_stage <> ${DEAL_STAGE_CANCELLED}`;
  const money = (x: SQL, where: SQL) => sql`round(coalesce(sum(${x}) filter (where ${where}), 0), 2)::text`;
  const sale = sql`${counted} and deal_type = ${DEAL_TYPE_SALE}`;
  const rental = sql`${counted} and deal_type = ${DEAL_TYPE_RENTAL}`;
  const r = await db.execute<Row>(sql`select coalesce(sum(n), 0)::int as n,
      coalesce(sum(n) filter (where ${sale}), 0)::int as sale_count, ${money(sql`amount`, sale)} as sale_total,
      coalesce(sum(n) filter (where ${rental}), 0)::int as rent_count, ${money(sql`amount`, rental)} as rent_total,
      ${money(sql`commission`, counted)} as commission
    from (select * from deal_totals union all select * from deal_total_deltas) d ${keptCells(f)}`);
  return totalsOf(r.rows[0]!);
}

const totalsOf = (x: Row) => ({
  n: Number(x.n),
  sums: {
    saleCount: Number(x.sale_count),
    saleTotal: String(x.sale_total),
    rentCount: Number(x.rent_count),
    rentTotal: String(x.rent_total),
    commission: String(x.commission),
  },
});

/**
 * How many deals match, and the totals of those that count (cancelled ones only when asked for):
 * sales' and rentals' amounts apart (the final price, else the asking price), the commission of both.
 */
export async function dealTotals(db: Db, cond: SQL | undefined, withCancelled: boolean) {
  const r = await db.execute<Row>(sql`select ${totalsColumns(withCancelled)} from deals ${cond ? sql`where ${cond}` : sql``}`);
  return totalsOf(r.rows[0]!);
}

/** dealTotals' columns. */
function totalsColumns(withCancelled: boolean): SQL {
  const counted = withCancelled ? sql`true` : sql`deal_stage <> ${DEAL_STAGE_CANCELLED}`;
  const money = (x: SQL, where: SQL) => sql`round(coalesce(sum(${x}) filter (where ${where}), 0), 2)::text`;
  const amount = sql`coalesce(price, asking_price)`;
  const sale = sql`${counted} and deal_type = ${DEAL_TYPE_SALE}`;
  const rental = sql`${counted} and deal_type = ${DEAL_TYPE_RENTAL}`;
  return sql`count(*)::int as n,
      (count(*) filter (where ${sale}))::int as sale_count, ${money(amount, sale)} as sale_total,
      (count(*) filter (where ${rental}))::int as rent_count, ${money(amount, rental)} as rent_total,
      ${money(sql`commission`, counted)} as commission`;
}

/**
 * A page of a filtered list with its count and totals, from one statement (decisions 103, 107): the
 * matched deals' few columns the sorts and the totals need are read once (`matched`), the page is
 * sorted from them, and the totals are summed per type and cancelled or not, then added up (a sum
 * of six filtered aggregates over every deal cost as much as reading them). A page past the end
 * still has its totals.
 */
async function pageWithTotals(db: Db, cond: SQL | undefined, order: SQL[], limit: number, offset: number, withCancelled: boolean) {
  const counted = withCancelled ? sql`true` : sql`not cancelled`;
  const money = (x: SQL, where: SQL) => sql`round(coalesce(sum(${x}) filter (where ${where}), 0), 2)::text`;
  const sale = sql`${counted} and deal_type = ${DEAL_TYPE_SALE}`;
  const rental = sql`${counted} and deal_type = ${DEAL_TYPE_RENTAL}`;
  // The page's order names the columns as "deals"."…": the matched rows are aliased so.
  const r = await db.execute<Row>(sql`with matched as materialized (
      select id, deal_type, deal_stage, price, asking_price, commission, created_on, date_of_deposit, end_date from deals ${cond ? sql`where ${cond}` : sql``}),
    cells as (select deal_type, deal_stage = ${DEAL_STAGE_CANCELLED} as cancelled, count(*) as n, sum(coalesce(price, asking_price)) as amount, sum(commission) as commission
      from matched group by 1, 2)
    select array(select deals.id from matched deals order by ${sql.join(order, sql`, `)} limit ${limit} offset ${offset}) as ids,
      coalesce(sum(n), 0)::int as n,
      coalesce(sum(n) filter (where ${sale}), 0)::int as sale_count, ${money(sql`amount`, sale)} as sale_total,
      coalesce(sum(n) filter (where ${rental}), 0)::int as rent_count, ${money(sql`amount`, rental)} as rent_total,
      ${money(sql`commission`, counted)} as commission
    from cells`);
  const row = r.rows[0]!;
  return { totals: totalsOf(row), ids: (row.ids as number[]).map(Number) };
}

/** Each stage's count and its sales' and rentals' totals, summed from the deals `whereSql` keeps. */
export function stageTotals(db: Db, whereSql: SQL) {
  const amount = sql`coalesce(price, asking_price)`;
  return db.execute(sql`select deal_stage as stage, count(*)::int as n,
      coalesce(sum(${amount}) filter (where deal_type = ${DEAL_TYPE_SALE}), 0)::text as sale_total,
      coalesce(sum(${amount}) filter (where deal_type = ${DEAL_TYPE_RENTAL}), 0)::text as rent_total
    from deals ${whereSql} group by deal_stage`);
}

/** stageTotals from the kept cells, for a filter of the type only: a sum over no priced deal stays 0, as summed. */
export function keptStageTotals(db: Db, f: Partial<TDealFilter>) {
  // Per cell first (the totals and their deltas added), then per stage: a cell's priced deals decide whether its sum counts.
  return db.execute(sql`select deal_stage as stage, sum(n)::int as n,
      coalesce(sum(amount) filter (where deal_type = ${DEAL_TYPE_SALE} and amounts > 0), 0)::text as sale_total,
      coalesce(sum(amount) filter (where deal_type = ${DEAL_TYPE_RENTAL} and amounts > 0), 0)::text as rent_total
    from (select deal_type, deal_stage, sum(n) as n, sum(amounts) as amounts, sum(amount) as amount
      from (select * from deal_totals union all select * from deal_total_deltas) d ${keptCells({ ...f, stages: [] })} group by 1, 2) c
    group by deal_stage having sum(n) > 0`);
}

/** POST /api/Deal/board: per stage its count, its exact total and its most recently changed deals. */
export async function dealBoard(app: FastifyInstance, f: Partial<TDealFilter> & { perStage: number }, t: T, culture: TCulture) {
  const cond = and(...(await filterConditions(app.db, { ...f, stages: [] })));
  const whereSql = cond ? sql`where ${cond}` : sql``;
  // The stages' totals and their newest cards side by side, on two connections.
  const totalsRead = onlyTypeAndStages(f) ? keptStageTotals(app.db, f) : stageTotals(app.db, whereSql);
  // Each stage's newest cards straight from the index on (deal_stage, modified_on, id): a window over
  // every deal sorted all 20k of them and hashed every object (110 ms at full size).
  const cardsRead = app.db.execute(sql`
    select x.id, x.version, x.deal_type, x.deal_stage, x.object_id, o.reference_number as ref, ${objectTitle(culture, 'o')} as title, x.price, x.asking_price,
      x.deposit, x.date_of_deposit::text as date_of_deposit, x.end_date::text as end_date
    from unnest(${sql.param([...DEAL_STAGES])}::int[]) as s(stage)
    cross join lateral (
      select deals.id, deals.version, deals.deal_type, deals.deal_stage, deals.object_id, deals.price, deals.asking_price, deals.modified_on,
        deals.deposit, deals.date_of_deposit, deals.end_date from deals
      where deals.deal_stage = s.stage ${cond ? sql`and ${cond}` : sql``}
      order by deals.modified_on desc, deals.id desc limit ${f.perStage}) x
    left join objects o on o.id = x.object_id
    order by x.deal_stage, x.modified_on desc, x.id desc`);
  const [totals, cards] = await Promise.all([totalsRead, cardsRead]);
  // The cards' parties in one plain read, grouped here: built as JSON per card in SQL, 300 cards'
  // parties took 11 of the board's 13 ms.
  const cardIds = (cards.rows as Row[]).map((r) => Number(r.id));
  const partyRows = cardIds.length
    ? (
        await app.db.execute(sql`select p.deal_id, p.account_id, a.display_name, p.relation from deal_parties p join accounts a on a.id = p.account_id
          where p.deal_id = any(${sql.param(cardIds)}::int[]) order by p.deal_id, p.position, p.id`)
      ).rows
    : [];
  const partiesByDeal = new Map<number, Party[]>();
  for (const p of partyRows as Row[]) {
    const dealId = Number(p.deal_id);
    const list = partiesByDeal.get(dealId) ?? [];
    list.push({ accountId: Number(p.account_id), account: p.display_name as string, relation: Number(p.relation) });
    partiesByDeal.set(dealId, list);
  }
  const byStage = new Map((totals.rows as Row[]).map((r) => [r.stage as number, r]));
  const num = (v: unknown) => (v == null ? null : Number(v));
  return {
    columns: DEAL_STAGES.map((stage) => ({
      stage,
      name: stageText(t, stage, f.dealType),
      className: DEAL_STAGE_CLASS[stage]!,
      count: (byStage.get(stage)?.n as number | undefined) ?? 0,
      saleTotal: (byStage.get(stage)?.sale_total as string | undefined) ?? '0',
      rentTotal: (byStage.get(stage)?.rent_total as string | undefined) ?? '0',
      cards: (cards.rows as Row[])
        .filter((r) => r.deal_stage === stage)
        .map((r) => ({
          id: r.id as number,
          version: r.version as number,
          dealType: r.deal_type as number,
          dealStage: stage,
          objectId: (r.object_id as number | null) ?? null,
          objectReferenceNumber: r.ref != null ? formatReferenceNumber(r.ref as number) : null,
          objectTitle: (r.title as string | null) ?? null,
          price: num(r.price),
          askingPrice: num(r.asking_price),
          deposit: num(r.deposit),
          dateOfDeposit: (r.date_of_deposit as string | null) ?? null,
          endDate: (r.end_date as string | null) ?? null,
          parties: partiesByDeal.get(Number(r.id)) ?? [],
        })),
    })),
    options: { types: typeOptions(t), relations: relationOptions(t) },
  };
}

/** Merging accounts: the duplicate's deal parties become the kept account's (a repeat in the same relation kept once). */
export async function moveDealParties(tx: Tx, keptId: number, duplicateId: number) {
  await tx.execute(sql`delete from deal_parties p where p.account_id = ${duplicateId}
    and exists (select 1 from deal_parties q where q.deal_id = p.deal_id and q.relation = p.relation and q.account_id = ${keptId})`);
  await tx.update(dealParties).set({ accountId: keptId }).where(eq(dealParties.accountId, duplicateId));
}

/**
 * The account's bought and rented objects from its closed deals (as buyer or tenant): reference
 * numbers, space-separated, in order. A rental counts while it has not expired.
 */
export async function accountDealRefs(db: Db | Tx, accountId: number) {
  const r = await db.execute(sql`
    select coalesce(string_agg(distinct ${refDigitsOfO}, ' ') filter (where d.deal_type = ${DEAL_TYPE_SALE}), '') as bought,
           coalesce(string_agg(distinct ${refDigitsOfO}, ' ') filter (where d.deal_type = ${DEAL_TYPE_RENTAL}
             and (d.rent_expiration is null or d.rent_expiration >= crm_today())), '') as rented
    from deal_parties p join deals d on d.id = p.deal_id join objects o on o.id = d.object_id
    where p.account_id = ${accountId} and p.relation = 2 and d.deal_stage = ${DEAL_STAGE_CLOSED}`);
  const row = r.rows[0] as { bought: string; rented: string } | undefined;
  return { bought: row?.bought ?? '', rented: row?.rented ?? '' };
}

/** An object's deals for its view (id and one line: type, stage, price, buyer), newest first. */
export async function objectDeals(db: Db | Tx, objectId: number, t: T) {
  const r = await db.execute(sql`
    select d.id, d.deal_type, d.deal_stage, coalesce(d.price, d.asking_price) as price,
      (select string_agg(a.display_name, ', ' order by p.position) from deal_parties p join accounts a on a.id = p.account_id where p.deal_id = d.id and p.relation = 2) as buyers
    from deals d where d.object_id = ${objectId} order by d.created_on desc, d.id desc limit 100`);
  return (r.rows as Row[]).map((d) => ({
    id: d.id as number,
    descr: [t(`deals.type.${d.deal_type}`), stageText(t, d.deal_stage as number, d.deal_type as number), d.price != null ? formatMoney(Number(d.price)) : null, d.buyers].filter(Boolean).join(' · '),
  }));
}

/** `150 000 €` (space thousands, symbol after, no decimals). */
const formatMoney = (n: number) => `${Math.round(n).toLocaleString('en-US').replace(/,/g, '\u00a0')}\u00a0€`;
