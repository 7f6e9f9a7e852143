import type { FastifyInstance } from 'fastify';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { LEAD_CLOSED_STAGES, LOG_MESSAGE, OBJECT_FEATURES, formatReferenceNumber, type TCulture } from '@crm/contract';
import { leadObjectMarks, leads, objects } from '../../db/schema/index.ts';
import { columnName } from '../../db/schema/objects.ts';
import { LEAD_PRICE_BAND, leadPriceBand } from '../../db/schema/leads.ts';
import { notFound } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { limitAsWritten } from '../../lib/i18n.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { describeLead, formatEuro } from './leads.service.ts';
import { locationText, placesCovered, seatMunicipalityOf } from '../locations/locations.service.ts';
import { objectTitle } from '../objects/objects.sql.ts';

type T = (key: string, params?: Record<string, string | number>) => string;
type Row = Record<string, unknown>;
type Reason = { text: string; good: boolean };
type Caller = { user: SessionUser; actor: { id: number | null; name: string | null } };

/**
 * How far an object may be from what the client asked and still be offered: the price up to 15 %
 * over the budget (or 20 % under it), the area 15 % outside the range, one bedroom fewer.
 * Decision 013 explains the points.
 */
export const MATCH_RULES = { priceOver: 0.15, priceUnder: 0.2, areaOutside: 0.15, bedroomsFewer: 1 } as const;
if (Number(LEAD_PRICE_BAND.over) !== 1 + MATCH_RULES.priceOver || Number(LEAD_PRICE_BAND.under) !== 1 - MATCH_RULES.priceUnder) throw new Error('LEAD_PRICE_BAND and MATCH_RULES disagree');

/** The services a lead asks for and the object's price each is compared with. */
const SERVICES = [
  { lead: 'for_purchase', object: 'for_sale', price: 'sale_price', lo: 'purchase_budget_range_min', hi: 'purchase_budget_range_max', key: 'purchase' },
  { lead: 'for_rent', object: 'for_rent', price: 'rent_price', lo: 'rent_budget_range_min', hi: 'rent_budget_range_max', key: 'rent' },
  { lead: 'for_short_rent', object: 'for_short_rent', price: 'short_rent_price', lo: 'short_rent_budget_range_min', hi: 'short_rent_budget_range_max', key: 'shortRent' },
] as const;

/** The object's yes/no features and their columns. */
const OBJECT_FEATURE_COLUMNS = OBJECT_FEATURES.map((f) => ({ f, col: columnName(f) }));

const id = (table: string, column: string) => sql.raw(`${table}.${column}`);
const closed = sql.raw(`(${LEAD_CLOSED_STAGES.join(', ')})`);

/**
 * A place that is the seat of a municipality of the same name (Καλαμαριά in the municipality of
 * Καλαμαριά) stands for the whole municipality when a client asks for it: the picker shows the
 * neighbourhoods as "Αρετσού, Καλαμαριά", and an agent who picks "Καλαμαριά" means them too. The
 * municipality's id, or null for any other place.
 */
const SEAT_MUNICIPALITY = seatMunicipalityOf(sql`l.location_id`);

/**
 * The SQL that decides whether object `o` fits lead `l` and scores it (0–100): a service the lead
 * asks for that the object offers, its price within the band around the budget, the place (the
 * lead's area or any place under it), the subtype, the area and the bedrooms. Both directions
 * (objects for a lead, leads for an object) use it, so they always agree.
 */
function fitSql() {
  const price = (s: (typeof SERVICES)[number]) => {
    const p = id('o', s.price);
    const lo = id('l', s.lo);
    const hi = id('l', s.hi);
    return sql`(${id('l', s.lead)} and ${id('o', s.object)} and (
      (${lo} is null and ${hi} is null)
      or (${p} is not null and (${hi} is null or ${p} <= ${hi} * ${sql.raw(LEAD_PRICE_BAND.over)}) and (${lo} is null or ${p} >= ${lo} * ${sql.raw(LEAD_PRICE_BAND.under)}))))`;
  };
  const fits = sql`(
    (${sql.join(SERVICES.map(price), sql` or `)})
    and (l.location_id is null or exists (select 1 from locations ol where ol.id = o.location_id and (ol.path @> array[l.location_id] or ol.path @> array[${SEAT_MUNICIPALITY}])))
    and (cardinality(l.object_sub_types) = 0 or o.object_sub_type_id = any(l.object_sub_types))
    and (l.area_min is null or o.area >= l.area_min * ${1 - MATCH_RULES.areaOutside})
    and (l.area_max is null or o.area <= l.area_max * ${1 + MATCH_RULES.areaOutside})
    and (l.bedrooms_min is null or coalesce(o.bedrooms, 0) >= l.bedrooms_min - ${MATCH_RULES.bedroomsFewer}))`;
  // Points: price 40, place 20, type 10, area 10, bedrooms 10, features 10. Price and area lose
  // points by how far they are from what was asked, so that objects which all fit still rank apart:
  // 2 points per 1 % over the budget's top, 1 point per 1 % under its bottom, and with no bottom
  // given, up to 20 points as the price falls under half the top (a client with 250 000 € to spend
  // is better served by a flat at 230 000 than at 60 000). Computed in float8: the numeric type's
  // arithmetic is slow, and this runs for every candidate.
  const pricePoints = sql`greatest(${sql.join(
    SERVICES.map((s) => {
      const p = sql`${id('o', s.price)}::float8`;
      const lo = sql`${id('l', s.lo)}::float8`;
      const hi = sql`${id('l', s.hi)}::float8`;
      return sql`case when ${id('l', s.lead)} and ${id('o', s.object)} then
        case when ${p} is null then 40
             when ${hi} is not null and ${p} > ${hi} then greatest(0, 40 - round(200 * (${p} / ${hi} - 1)))
             when ${lo} is not null and ${lo} > 0 and ${p} < ${lo} then greatest(0, 40 - round(100 * (1 - ${p} / ${lo})))
             when ${lo} is null and ${hi} > 0 and ${p} < ${hi} / 2 then 40 - round(20 * (1 - ${p} / (${hi} / 2)))
             else 40 end else 0 end`;
    }),
    sql`, `,
  )})`;
  // Area: 10 within the range, then 4 points off per 10 % outside it (the fit allows 15 %: 4 left).
  const area = sql`o.area::float8`;
  const areaPoints = sql`case
    when l.area_min is not null and ${area} < l.area_min then greatest(0, 10 - round(40 * (1 - ${area} / l.area_min::float8)))
    when l.area_max is not null and ${area} > l.area_max then greatest(0, 10 - round(40 * (${area} / l.area_max::float8 - 1)))
    else 10 end`;
  const has = sql.join(
    OBJECT_FEATURE_COLUMNS.map(({ f, col }) => sql`case when ${f} = any(l.features) and ${id('o', col)} is true then 1 else 0 end`),
    sql` + `,
  );
  const featurePoints = sql`case when cardinality(l.features) = 0 then 10 else round(10.0 * (${has}) / cardinality(l.features))::int end`;
  // Summed as integers: the price and feature points are rounded first, so the numeric arithmetic
  // (slow, and done for every candidate: 18,000 leads for a cheap flat in a broad place) stays in them.
  const score = sql`(${pricePoints})::int
    + case when l.location_id is null then 10 else 20 end
    + case when cardinality(l.object_sub_types) = 0 then 5 else 10 end
    + (${areaPoints})::int
    + case when l.bedrooms_min is null or coalesce(o.bedrooms, 0) >= l.bedrooms_min then 10 else 4 end
    + ${featurePoints}`;
  return { fits, score };
}

/**
 * One side of the match as a row of typed parameters instead of a table row: the lead (or the
 * object) is known before the query, so PostgreSQL plans with its values. Every test on that side
 * folds to true or false, the feature points keep only the features the lead asks for, and the
 * other side's price and place tests can use their indexes (decision 023: a lead's matches went
 * from a scan of every object with the whole score on each to an index range).
 */
type ColType = 'boolean' | 'numeric' | 'integer' | 'smallint' | 'smallint[]' | 'text[]';
type Col = readonly [string, ColType];
function constRow(row: Row, cols: readonly Col[]): SQL {
  return sql`(select ${sql.join(
    cols.map(([c, type]) => sql`${sql.param(row[c] ?? null)}::${sql.raw(type)} as ${sql.identifier(c)}`),
    sql`, `,
  )})`;
}

/** The lead's columns the match reads. */
const LEAD_MATCH_COLUMNS: Col[] = [
  ['id', 'integer'],
  ...SERVICES.flatMap((s): Col[] => [
    [s.lead, 'boolean'],
    [s.lo, 'numeric'],
    [s.hi, 'numeric'],
  ]),
  ['location_id', 'integer'],
  ['object_sub_types', 'smallint[]'],
  ['area_min', 'numeric'],
  ['area_max', 'numeric'],
  ['bedrooms_min', 'integer'],
  ['features', 'text[]'],
];

/** The object's columns the match reads. */
const OBJECT_MATCH_COLUMNS: Col[] = [
  ['id', 'integer'],
  ['sold', 'boolean'],
  ...SERVICES.flatMap((s): Col[] => [
    [s.object, 'boolean'],
    [s.price, 'numeric'],
  ]),
  ['location_id', 'integer'],
  ['object_sub_type_id', 'smallint'],
  ['area', 'numeric'],
  ['bedrooms', 'integer'],
  ...OBJECT_FEATURE_COLUMNS.map(({ col }): Col => [col, 'boolean']),
];

const locationName = (culture: TCulture, col: SQL) => sql<string | null>`(select ${sql.identifier(`name_${culture}`)} from locations where id = ${col})`;

const pct = (n: number) => Math.round(n * 100);

/** The reasons an object fits a lead (or falls short), as an agent would say them. */
function reasonsFor(t: T, l: Row, o: Row, culture: TCulture): Reason[] {
  const out: Reason[] = [];
  for (const s of SERVICES) {
    const leadFlag = l[s.lead] === true;
    const objFlag = o[s.object] === true;
    if (!leadFlag || !objFlag) continue;
    const p = o[s.price] == null ? null : Number(o[s.price]);
    const lo = l[s.lo] == null ? null : Number(l[s.lo]);
    const hi = l[s.hi] == null ? null : Number(l[s.hi]);
    if (p == null) out.push({ text: t(`matching.service.${s.key}`), good: true });
    else {
      // Which price: a sale price and a monthly rent side by side read alike without it.
      const what = t(`matching.priceOf.${s.key}`, { price: formatEuro(p) });
      if (hi != null && p > hi) out.push({ text: t('matching.priceOver', { percent: pct(p / hi - 1), what }), good: false });
      else if (lo != null && p < lo) out.push({ text: t('matching.priceUnder', { what, min: formatEuro(lo) }), good: true });
      // No budget at all (a website enquiry's lead): the price is said, not judged.
      else if (lo == null && hi == null) out.push({ text: t('matching.priceNoBudget', { what }), good: true });
      else out.push({ text: t('matching.priceWithin', { what }), good: true });
    }
  }
  if (l.location_id != null && o.location_name) out.push({ text: t('matching.place', { place: String(o.location_name) }), good: true });
  const area = o.area == null ? null : Number(o.area);
  const amin = l.area_min == null ? null : Number(l.area_min);
  const amax = l.area_max == null ? null : Number(l.area_max);
  if (area != null && (amin != null || amax != null)) {
    const within = (amin == null || area >= amin) && (amax == null || area <= amax);
    // Written as the screens write areas (11 310 τ.μ.); a limit on one side only is said as such.
    const key = amax == null ? 'matching.areaFrom' : amin == null ? 'matching.areaUpTo' : within ? 'matching.areaWithin' : 'matching.areaOutside';
    out.push({ text: t(key, { area: limitAsWritten(Math.round(area)), min: amin ?? '', max: amax ?? '' }), good: within });
  }
  if (l.bedrooms_min != null) {
    const b = Number(o.bedrooms ?? 0);
    const want = Number(l.bedrooms_min);
    out.push(b >= want ? { text: t('matching.bedrooms', { count: b }), good: true } : { text: t('matching.bedroomsFewer', { count: b, wanted: want }), good: false });
  }
  const wanted = (l.features as string[] | null) ?? [];
  for (const f of wanted) {
    const has = o[f] === true;
    out.push({ text: t(has ? 'matching.hasFeature' : 'matching.noFeature', { feature: t(`fields.object.${f}`).toLocaleLowerCase(culture) }), good: has });
  }
  return out;
}


async function leadRowRaw(app: FastifyInstance, leadId: number): Promise<Row | undefined> {
  const res = await app.db.execute(sql`select * from leads where id = ${leadId}`);
  return res.rows[0] as Row | undefined;
}

/**
 * GET /api/lead/{id}/matches: the objects that fit the lead, best first, without those already
 * offered or marked not suitable; each with its score, the reasons, and whether it is new since the
 * matches were last looked at (added or cheaper since).
 */
export async function matchesForLead(app: FastifyInstance, leadId: number, limit: number, culture: TCulture, t: T) {
  const l = await leadRowRaw(app, leadId);
  if (!l) throw notFound('leads.notFound');
  const { fits, score } = fitSql();
  // The best ids first (scored and sorted as narrow rows), then those objects' whole rows and places.
  const res = await app.db.execute(sql`
    select o.*, x.score, ${objectTitle(culture, 'o')} as shown_title,
      ${locationName(culture, sql`o.location_id`)} as location_name,
      ${locationText(sql`o.location_id`, culture)} as location_path,
      greatest(o.created_on, coalesce(o.last_update, o.created_on)) as changed_on
    from (
      select o.id, o.modified_on, ${score} as score
      from ${constRow(l, LEAD_MATCH_COLUMNS)} l
      join objects o on ${fits}
      where not o.sold and o.active
        ${l.location_id != null ? sql`and o.location_id = any(${sql.param(await placesCovered(app.db, Number(l.location_id)))}::int[])` : sql``}
        and o.id not in (select lo.object_id from lead_objects lo where lo.lead_id = ${leadId})
        and o.id not in (select m.object_id from lead_object_marks m where m.lead_id = ${leadId})
      order by score desc, o.modified_on desc, o.id desc
      limit ${limit}) x
    join objects o on o.id = x.id
    order by x.score desc, x.modified_on desc, x.id desc`);
  // Raw rows carry timestamps as text.
  const seen = l.matches_seen_on == null ? null : new Date(l.matches_seen_on as string | Date);
  const items = (res.rows as Row[]).map((o) => {
    const svc = SERVICES.find((s) => l[s.lead] === true && o[s.object] === true);
    const rowForReasons: Row = { ...o };
    for (const { f, col } of OBJECT_FEATURE_COLUMNS) rowForReasons[f] = o[col];
    return {
      objectId: o.id as number,
      referenceNumber: formatReferenceNumber(o.reference_number as number),
      title: (o.shown_title as string | null) ?? null,
      type: o.object_sub_type_id != null ? t(`objects.list.objectSubTypes.${o.object_sub_type_id}`) : '',
      location: (o.location_path as string | null) ?? null,
      price: svc && o[svc.price] != null ? Number(o[svc.price]) : null,
      area: o.area == null ? null : Number(o.area),
      bedrooms: (o.bedrooms as number | null) ?? null,
      score: Math.max(0, Math.min(100, Number(o.score))),
      reasons: reasonsFor(t, l, rowForReasons, culture),
      isNew: seen != null && new Date(o.changed_on as string) > seen,
    };
  });
  return { items, seenOn: toLocalDateTime(seen, app.config.timeZone) };
}

/** POST /api/lead/{id}/matches/seen: what shows as new is measured from now on. */
export async function markMatchesSeen(app: FastifyInstance, leadId: number) {
  const done = await app.db.update(leads).set({ matchesSeenOn: new Date() }).where(eq(leads.id, leadId)).returning({ id: leads.id });
  if (!done.length) throw notFound('leads.notFound');
}

/** POST /api/lead/{id}/notSuitable: an object kept out of (or let back into) the lead's matches. */
export async function setNotSuitable(app: FastifyInstance, caller: Caller, leadId: number, objectId: number, notSuitable: boolean) {
  await app.db.transaction(async (tx) => {
    const [l] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId));
    if (!l) throw notFound('leads.notFound');
    const [o] = await tx.select({ id: objects.id }).from(objects).where(eq(objects.id, objectId));
    if (!o) throw notFound('leads.objectNotFound');
    if (notSuitable) await tx.insert(leadObjectMarks).values({ leadId, objectId, createdBy: caller.user.id }).onConflictDoNothing();
    else await tx.delete(leadObjectMarks).where(and(eq(leadObjectMarks.leadId, leadId), eq(leadObjectMarks.objectId, objectId)));
    await logAction(tx, caller.actor, { action: 'Update', entity: 'Lead', entityId: leadId, message: notSuitable ? LOG_MESSAGE.notSuitable : LOG_MESSAGE.suitableAgain, data: { objectId } });
  });
}

/** GET /api/object/{id}/matchingLeads: the open leads the object fits, best first. */
export async function leadsForObject(app: FastifyInstance, objectId: number, limit: number, culture: TCulture, t: T) {
  const [o] = (
    await app.db.execute(sql`select o.*, ${locationName(culture, sql`o.location_id`)} as location_name,
      (select path from locations where id = o.location_id) as location_path_ids,
      (select array_agg(seat.id) from locations here
        join locations town on town.id = any(here.path)
        join locations seat on seat.parent_id = town.id and seat.name_el = town.name_el
        where here.id = o.location_id) as seat_ids
      from objects o where o.id = ${objectId}`)
  ).rows as Row[];
  if (!o) throw notFound('leads.objectNotFound');
  // Sold or off the market (not active): offered to nobody.
  if (o.sold || !o.active) return { items: [] };
  const { fits, score } = fitSql();
  // A lead's place fits when it is the object's place or one above it, or the seat of a
  // municipality above it (SEAT_MUNICIPALITY: "Καλαμαριά" for a flat in Αρετσού).
  const above = [...((o.location_path_ids as number[] | null) ?? []), ...((o.seat_ids as number[] | null) ?? [])];
  // The leads of each service the object offers whose price band holds its price (a GiST index
  // per service); a service without a price fits only the leads without a budget for it.
  const arms = SERVICES.filter((s) => o[s.object] === true).map((s) =>
    o[s.price] == null
      ? sql`(${id('l', s.lead)} and ${id('l', s.lo)} is null and ${id('l', s.hi)} is null)`
      : sql`(${id('l', s.lead)} and ${sql.raw(leadPriceBand(`l.${s.lo}`, `l.${s.hi}`))} @> ${String(o[s.price])}::numeric)`,
  );
  if (!arms.length) return { items: [] };
  // The client's name is joined to the page only; the leads that marked the object not suitable
  // are read once (a hashed list), not probed per candidate.
  const res = await app.db.execute(sql`
    select x.*, a.display_name as account_name from (
      select l.*, ${score} as score
      from ${constRow(o, OBJECT_MATCH_COLUMNS)} o
      join leads l on coalesce(l.stage, 0) not in ${closed} and ${fits}
        and (${sql.join(arms, sql` or `)})
        and (l.location_id is null or l.location_id = any(${sql.param(above)}::int[]))
      where l.id not in (select m.lead_id from lead_object_marks m where m.object_id = ${objectId})
        -- A client whose data was erased (GDPR) is offered nothing more.
        and not exists (select 1 from accounts ea where ea.id = l.account_id and ea.erased_on is not null)
      order by score desc, l.created_on desc, l.id desc
      limit ${limit}) x
    left join accounts a on a.id = x.account_id
    order by x.score desc, x.created_on desc, x.id desc`);
  const objRow: Row = { ...o };
  for (const { f, col } of OBJECT_FEATURE_COLUMNS) objRow[f] = o![col];
  const items = (res.rows as Row[]).map((l) => {
    const camel: Row = {
      forPurchase: l.for_purchase,
      forRent: l.for_rent,
      forShortRent: l.for_short_rent,
      forSell: l.for_sell,
      forRentOut: l.for_rent_out,
      purchaseBudgetRangeMin: l.purchase_budget_range_min == null ? null : Number(l.purchase_budget_range_min),
      purchaseBudgetRangeMax: l.purchase_budget_range_max == null ? null : Number(l.purchase_budget_range_max),
      rentBudgetRangeMin: l.rent_budget_range_min == null ? null : Number(l.rent_budget_range_min),
      rentBudgetRangeMax: l.rent_budget_range_max == null ? null : Number(l.rent_budget_range_max),
      shortRentBudgetRangeMin: l.short_rent_budget_range_min == null ? null : Number(l.short_rent_budget_range_min),
      shortRentBudgetRangeMax: l.short_rent_budget_range_max == null ? null : Number(l.short_rent_budget_range_max),
    };
    return {
      leadId: l.id as number,
      accountId: (l.account_id as number | null) ?? null,
      descr: describeLead(t, camel, (l.account_name as string | null) ?? null),
      score: Math.max(0, Math.min(100, Number(l.score))),
      reasons: reasonsFor(t, l, objRow, culture),
    };
  });
  return { items };
}
