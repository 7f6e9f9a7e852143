import type { FastifyInstance } from 'fastify';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { LEAD_CLOSED_STAGES, LOG_MESSAGE, OBJECT_FEATURES, formatReferenceNumber, type TCulture } from '@crm/contract';
import { leadObjectMarks, leads, objects, MATCH_CHANGE_LEAD, MATCH_CHANGE_OBJECT, MATCH_LISTS_LOCK } from '../../db/schema/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import { columnName } from '../../db/schema/objects.ts';
import { LEAD_PRICE_BAND, leadPriceBand } from '../../db/schema/leads.ts';
import { notFound } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { notDraft } from '../../lib/drafts.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { limitAsWritten, type T } from '../../lib/i18n.ts';
import type { Caller } from '../../plugins/auth.ts';
import { describeLead, formatEuro } from './leads.service.ts';
import { locationText, placesCovered, seatMunicipalityOf } from '../locations/locations.service.ts';
import { objectTitle } from '../objects/objects.sql.ts';

type Row = Record<string, unknown>;
type Reason = { text: string; good: boolean };

/**
 * How far an object may be from what the client asked and still be offered: the price up to 15 %
 * over the budget (or 20 % under it), the area 15 % outside the range, one bedroom fewer.
 * Decision 070 explains the points.
 */
export const MATCH_RULES = { priceOver: 0.15, priceUnder: 0.2, areaOutside: 0.15, bedroomsFewer: 1 } as const;

/**
 * The client's minimums are limits (decision 070): an object with fewer bedrooms or less area than
 * asked is still shown, but its score is cut to BELOW_LIMITS_PERCENT % of its points, so that it
 * ranks under every object that meets them. The least an object meeting them scores: price 10 (15 %
 * over the budget), place 10, type 5, area 4 (15 % over the largest), bedrooms 10, features 0 = 39;
 * 38 % of 100 is 38. The service, the price beyond its tolerance and a place outside the asked ones
 * leave the object out altogether (fitSql).
 */
export const BELOW_LIMITS_PERCENT = 38;
export const LEAST_SCORE_WITHIN_LIMITS =
  40 - Math.round(200 * MATCH_RULES.priceOver) + 10 + 5 + (10 - Math.round(40 * MATCH_RULES.areaOutside)) + 10;
if (BELOW_LIMITS_PERCENT >= LEAST_SCORE_WITHIN_LIMITS) throw new Error('an object below the limits could rank with those within them');
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
  const points = sql`(${pricePoints})::int
    + case when l.location_id is null then 10 else 20 end
    + case when cardinality(l.object_sub_types) = 0 then 5 else 10 end
    + (${areaPoints})::int
    + case when l.bedrooms_min is null or coalesce(o.bedrooms, 0) >= l.bedrooms_min then 10 else 4 end
    + ${featurePoints}`;
  // Under a minimum the client set (bedrooms, area): ranked after every object that meets them.
  const withinLimits = sql`((l.bedrooms_min is null or coalesce(o.bedrooms, 0) >= l.bedrooms_min) and (l.area_min is null or o.area >= l.area_min))`;
  const score = sql`case when ${withinLimits} then ${points} else (${points}) * ${sql.raw(String(BELOW_LIMITS_PERCENT))} / 100 end`;
  return { fits, score };
}

/**
 * One side of the match as a row of typed parameters instead of a table row: the lead (or the
 * object) is known before the query, so PostgreSQL plans with its values. Every test on that side
 * folds to true or false, the feature points keep only the features the lead asks for, and the
 * other side's price and place tests can use their indexes (decision 070: a lead's matches went
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

/** Whether object `o` is under a minimum lead `l` set (bedrooms, area): the score's test, as fitSql writes it. */
function belowLimits(l: Row, o: Row): boolean {
  const bedrooms = l.bedrooms_min != null && Number(o.bedrooms ?? 0) < Number(l.bedrooms_min);
  const area = l.area_min != null && o.area != null && Number(o.area) < Number(l.area_min);
  return bedrooms || area;
}

/** The reasons an object fits a lead (or falls short), as an agent would say them; a limit missed first. */
function reasonsFor(t: T, l: Row, o: Row, culture: TCulture): Reason[] {
  const out: Reason[] = [];
  if (belowLimits(l, o)) out.push({ text: t('matching.belowLimits'), good: false });
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
    const key =
      amin != null && area < amin ? 'matching.areaUnderMin' : amax == null ? 'matching.areaFrom' : amin == null ? 'matching.areaUpTo' : within ? 'matching.areaWithin' : 'matching.areaOutside';
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


async function leadRowRaw(db: Db | Tx, leadId: number): Promise<Row | undefined> {
  const res = await db.execute(sql`select * from leads where id = ${leadId}`);
  return res.rows[0] as Row | undefined;
}

async function objectRowRaw(db: Db | Tx, objectId: number, culture: TCulture): Promise<Row | undefined> {
  const res = await db.execute(sql`select o.*, ${locationName(culture, sql`o.location_id`)} as location_name,
      (select path from locations where id = o.location_id) as location_path_ids,
      (select array_agg(seat.id) from locations here
        join locations town on town.id = any(here.path)
        join locations seat on seat.parent_id = town.id and seat.name_el = town.name_el
        where here.id = o.location_id) as seat_ids
      from objects o where o.id = ${objectId}`);
  return res.rows[0] as Row | undefined;
}

/** Not closed, and not a draft (lib/drafts.ts: a draft is matched with nothing). */
const isOpen = (l: Row) => !(LEAD_CLOSED_STAGES as readonly number[]).includes(Number(l.stage ?? 0)) && l.draft !== true;
/** Sold or off the market (not active): offered to nobody; nor is a draft. */
const onMarket = (o: Row) => !o.sold && o.active === true && o.draft !== true;

/** One place in a kept or computed list: the other side's id, its score and its order's second key (kept as PostgreSQL's text). */
type Ranked = { id: number; score: number };

/**
 * How many matches are kept for a lead or a property: the screens ask for 20, the API for at most
 * 200 (asked for more than are kept, the list is worked out on the spot). The offered, the marked
 * not suitable and the erased are left out only when read, so a few more are kept than shown.
 */
export const MATCH_LIST_SIZE = 60;

/**
 * The properties that fit lead `l`, best first, as `select id, score, modified_on`: every one
 * (`limit` null), or the first `limit`; only those among `among` when given (a list of ids); with
 * `exclude`, without the lead's offered and not-suitable properties (what the screen shows).
 */
async function objectsForLeadSql(db: Db | Tx, l: Row, opts: { limit: number | null; exclude: boolean; among?: SQL }): Promise<SQL> {
  const { fits, score } = fitSql();
  const leadId = Number(l.id);
  return sql`
    select o.id, ${score} as score, o.modified_on
    from ${constRow(l, LEAD_MATCH_COLUMNS)} l
    join objects o on ${fits}
    where not o.sold and o.active and ${notDraft('objects', sql`o.id`)}
      ${l.location_id != null ? sql`and o.location_id = any(${sql.param(await placesCovered(db as Db, Number(l.location_id)))}::int[])` : sql``}
      ${opts.among ? sql`and o.id in (${opts.among})` : sql``}
      ${opts.exclude ? sql`and o.id not in (select lo.object_id from lead_objects lo where lo.lead_id = ${leadId})
        and o.id not in (select m.object_id from lead_object_marks m where m.lead_id = ${leadId})` : sql``}
    order by score desc, o.modified_on desc, o.id desc
    ${opts.limit != null ? sql`limit ${opts.limit}` : sql``}`;
}

/**
 * The open leads that property `o` (objectRowRaw) fits, best first, as `select id, score,
 * created_on`, in the same ways as objectsForLeadSql; `exclude`: without the leads that marked it
 * not suitable and those of clients whose data was erased (GDPR). Null when it fits nobody's service.
 */
function leadsForObjectSql(o: Row, opts: { limit: number | null; exclude: boolean; among?: SQL }): SQL | null {
  const { fits, score } = fitSql();
  const objectId = Number(o.id);
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
  if (!arms.length) return null;
  return sql`
    select l.id, ${score} as score, l.created_on
    from ${constRow(o, OBJECT_MATCH_COLUMNS)} o
    join leads l on coalesce(l.stage, 0) not in ${closed} and ${fits}
      and (${sql.join(arms, sql` or `)})
      and (l.location_id is null or l.location_id = any(${sql.param(above)}::int[]))
    where ${notDraft('leads', sql`l.id`)}
      ${opts.among ? sql`and l.id in (${opts.among})` : sql``}
      ${opts.exclude ? sql`and l.id not in (select m.lead_id from lead_object_marks m where m.object_id = ${objectId})
        -- A client whose data was erased (GDPR) is offered nothing more.
        and not exists (select 1 from accounts ea where ea.id = l.account_id and ea.erased_on is not null)` : sql``}
    order by score desc, l.created_on desc, l.id desc
    ${opts.limit != null ? sql`limit ${opts.limit}` : sql``}`;
}

/** A kept list's answer, or why it has none: no list, the record itself changed since (not applied yet), or fewer kept than asked for. */
type Kept = { ranked: Ranked[] } | { why: 'none' | 'changed' | 'short' };

const rankedOf = (rows: unknown[]): Ranked[] => (rows as Row[]).map((r) => ({ id: Number(r.id), score: Number(r.score) }));

/** A kept list's statement's rows (its state on each, the ranked entries where there are any) as its answer. */
function keptOf(rows: Row[], limit: number): Kept {
  const head = rows[0];
  if (!head || head.changed) return { why: 'changed' };
  if (head.complete == null) return { why: 'none' };
  const found = rankedOf(rows.filter((r) => r.id != null));
  return found.length >= limit || head.complete ? { ranked: found } : { why: 'short' };
}

/**
 * The lead's best `limit` matches from its kept list (decision 070), or null when they cannot be
 * read from it: no list, the lead itself changed since (its change not applied yet), or fewer kept
 * than asked for. In one statement, so that the list and the changes not applied to it yet are
 * read at one moment: the properties changed since are left out of the list and scored again here,
 * and of an incomplete list only what ranks up to its last kept place is certain.
 */
async function keptObjectsForLead(db: Db, l: Row, limit: number): Promise<Kept> {
  const leadId = Number(l.id);
  const fresh = await objectsForLeadSql(db, l, { limit: null, exclude: false, among: sql`select id from pend` });
  const res = await db.execute(sql`
    with pend as materialized (select distinct c.id from match_changes c where c.kind = ${MATCH_CHANGE_OBJECT}),
    st as (select
      exists (select 1 from match_changes c where c.kind = ${MATCH_CHANGE_LEAD} and c.id = ${leadId}) as changed,
      (select complete from lead_match_lists where lead_id = ${leadId}) as complete),
    last as (select m.score, m.modified_on, m.object_id from lead_matches m where m.lead_id = ${leadId}
      order by m.score, m.modified_on, m.object_id limit 1),
    cand as (
      select m.object_id as id, m.score, m.modified_on from lead_matches m
      where m.lead_id = ${leadId} and m.object_id not in (select id from pend)
      union all
      select f.id, f.score, f.modified_on from (${fresh}) f)
    select st.changed, st.complete, c.id, c.score
    from st left join lateral (
      select c.* from cand c
      where (st.complete or (c.score, c.modified_on, c.id) >= (select last.score, last.modified_on, last.object_id from last))
        and c.id not in (select lo.object_id from lead_objects lo where lo.lead_id = ${leadId})
        and c.id not in (select k.object_id from lead_object_marks k where k.lead_id = ${leadId})
      order by c.score desc, c.modified_on desc, c.id desc
      limit ${limit}) c on not st.changed and st.complete is not null`);
  return keptOf(res.rows as Row[], limit);
}

/** The property's best `limit` open leads from its kept list, or null (as keptObjectsForLead). */
async function keptLeadsForObject(db: Db, o: Row, limit: number): Promise<Kept> {
  const objectId = Number(o.id);
  const fresh = leadsForObjectSql(o, { limit: null, exclude: false, among: sql`select id from pend` });
  const res = await db.execute(sql`
    with pend as materialized (select distinct c.id from match_changes c where c.kind = ${MATCH_CHANGE_LEAD}),
    st as (select
      exists (select 1 from match_changes c where c.kind = ${MATCH_CHANGE_OBJECT} and c.id = ${objectId}) as changed,
      (select complete from object_match_lists where object_id = ${objectId}) as complete),
    last as (select m.score, m.created_on, m.lead_id from object_matches m where m.object_id = ${objectId}
      order by m.score, m.created_on, m.lead_id limit 1),
    cand as (
      select m.lead_id as id, m.score, m.created_on from object_matches m
      where m.object_id = ${objectId} and m.lead_id not in (select id from pend)
      ${fresh ? sql`union all select f.id, f.score, f.created_on from (${fresh}) f` : sql``})
    select st.changed, st.complete, c.id, c.score
    from st left join lateral (
      select c.* from cand c
      where (st.complete or (c.score, c.created_on, c.id) >= (select last.score, last.created_on, last.lead_id from last))
        and c.id not in (select k.lead_id from lead_object_marks k where k.object_id = ${objectId})
        and not exists (select 1 from leads el join accounts ea on ea.id = el.account_id where el.id = c.id and ea.erased_on is not null)
      order by c.score desc, c.created_on desc, c.id desc
      limit ${limit}) c on not st.changed and st.complete is not null`);
  return keptOf(res.rows as Row[], limit);
}

/**
 * One side of the kept lists (decision 070): a lead's list of properties or a property's list of open
 * leads. `own` is the record a list belongs to, `entry` the record ranked in it, `time` the entry's
 * moment that breaks a tie of scores (the newer first), `entries` the entry's table. The names are
 * constants of this file, written into the statements as they are.
 */
type Side = { lists: SQL; matches: SQL; own: SQL; entry: SQL; time: SQL; entries: SQL };
const sideOf = (own: 'lead' | 'object', entry: 'lead' | 'object', time: string): Side => ({
  lists: sql.raw(`${own}_match_lists`),
  matches: sql.raw(`${own}_matches`),
  own: sql.raw(`${own}_id`),
  entry: sql.raw(`${entry}_id`),
  time: sql.raw(time),
  entries: sql.raw(`${entry}s`),
});
/** The leads' lists of properties, ranked by score and then by the property's last change. */
const LEAD_LISTS = sideOf('lead', 'object', 'modified_on');
/** The properties' lists of open leads, ranked by score and then by the lead's creation. */
const OBJECT_LISTS = sideOf('object', 'lead', 'created_on');

/**
 * Keeps the record's best MATCH_LIST_SIZE matches (`ranked`: the offered and the marked included:
 * they are left out when read), unless the job is applying changes right now (then nothing is kept
 * this time; the matches are worked out on the spot). The lock keeps a list made from an older
 * moment from being stored after the job has applied a newer change to the lists (decision 070).
 */
async function keepList(app: FastifyInstance, side: Side, id: number, ranked: SQL | null): Promise<void> {
  await app.db.transaction(async (tx) => {
    const lock = await tx.execute(sql`select pg_try_advisory_xact_lock_shared(${MATCH_LISTS_LOCK}) as ok`);
    if (!(lock.rows[0] as { ok: boolean }).ok) return;
    await storeList(tx, side, id, ranked);
  });
}

/**
 * Makes record `id`'s kept list again from `ranked` (objectsForLeadSql or leadsForObjectSql with
 * limit MATCH_LIST_SIZE + 1; null: nothing can match, the list is empty and complete), in `tx`.
 */
async function storeList(tx: Tx, side: Side, id: number, ranked: SQL | null): Promise<void> {
  const { lists, matches, own, entry, time } = side;
  // The list's row first: two making the same list wait for each other here.
  await tx.execute(sql`insert into ${lists} (${own}, complete) values (${id}, false)
    on conflict (${own}) do update set made_on = now()`);
  await tx.execute(sql`delete from ${matches} where ${own} = ${id}`);
  let found = 0;
  if (ranked) {
    const res = await tx.execute(sql`
      with r as (${ranked}),
      kept as (insert into ${matches} (${own}, ${entry}, score, ${time})
        select ${id}, r.id, r.score, r.${time} from r order by r.score desc, r.${time} desc, r.id desc limit ${MATCH_LIST_SIZE}
        returning 1)
      select (select count(*) from r)::int as found`);
    found = Number((res.rows[0] as { found: number }).found);
  }
  await tx.execute(sql`update ${lists} set complete = ${found <= MATCH_LIST_SIZE}, made_on = now() where ${own} = ${id}`);
}

/** What a lead's match shows of its property (besides the whole row): its title, place and when it last changed for the client. */
const objectDetails = (culture: TCulture) => sql`${objectTitle(culture, 'o')} as shown_title,
      ${locationName(culture, sql`o.location_id`)} as location_name,
      ${locationText(sql`o.location_id`, culture)} as location_path,
      greatest(o.created_on, coalesce(o.last_update, o.created_on)) as changed_on`;

/**
 * The common case in one statement, which PostgreSQL plans once per connection: no property's
 * change is waiting for the job and the lead has a list, so the page is the list's first `limit`
 * places less the offered and the marked, read with the properties' rows. Otherwise it answers why
 * not (`pending`: changes wait, read around them; `changed`: the lead itself; `none`: no list; `short`).
 */
async function fastLeadMatches(db: Db, leadId: number, limit: number, culture: TCulture): Promise<{ rows: Row[] } | { why: 'pending' | 'changed' | 'none' | 'short' }> {
  // A whole number from 1 to MATCH_LIST_SIZE (the route's schema and the caller): written in the statement, so that it is prepared.
  const n = sql.raw(String(Math.trunc(limit)));
  const res = await db.execute(sql`
    with st as (select
      exists (select 1 from match_changes c where c.kind = ${MATCH_CHANGE_OBJECT}) as pending,
      exists (select 1 from match_changes c where c.kind = ${MATCH_CHANGE_LEAD} and c.id = ${leadId}) as changed,
      (select complete from lead_match_lists where lead_id = ${leadId}) as complete),
    page as (
      select m.object_id, m.score, m.modified_on from lead_matches m
      where m.lead_id = ${leadId} and (select not pending and not changed from st)
        and m.object_id not in (select lo.object_id from lead_objects lo where lo.lead_id = ${leadId})
        and m.object_id not in (select k.object_id from lead_object_marks k where k.lead_id = ${leadId})
      order by m.score desc, m.modified_on desc, m.object_id desc limit ${n})
    select st.pending as "_pending", st.changed as "_changed", st.complete as "_complete", o.*, x.score, ${objectDetails(culture)}
    from st left join (page x join objects o on o.id = x.object_id) on true
    order by x.score desc, x.modified_on desc, x.object_id desc`);
  const rows = res.rows as Row[];
  const head = rows[0]!;
  if (head._changed) return { why: 'changed' };
  if (head._complete == null) return { why: 'none' };
  if (head._pending) return { why: 'pending' };
  const found = rows.filter((r) => r.id != null);
  return found.length >= limit || head._complete ? { rows: found } : { why: 'short' };
}

/** The properties' rows for a ranked list, in its order, as a lead's matches show them. */
async function leadMatchDetails(db: Db, ranked: Ranked[], culture: TCulture): Promise<Row[]> {
  if (!ranked.length) return [];
  const res = await db.execute(sql`
    select o.*, x.score, ${objectDetails(culture)}
    from unnest(${sql.param(ranked.map((r) => r.id))}::int[], ${sql.param(ranked.map((r) => r.score))}::int[]) with ordinality as x(id, score, n)
    join objects o on o.id = x.id
    order by x.n`);
  return res.rows as Row[];
}

/**
 * The lead's best `limit` matches with their properties' rows: from its kept list when it can
 * answer (made on the first look at an open lead's matches), else worked out on the spot. The same
 * answer either way (the test of kept against computed says so).
 */
async function leadMatchRows(app: FastifyInstance, l: Row, limit: number, culture: TCulture): Promise<Row[]> {
  if (isOpen(l) && limit <= MATCH_LIST_SIZE) {
    let fast = await fastLeadMatches(app.db, Number(l.id), limit, culture);
    if ('rows' in fast) return fast.rows;
    if (fast.why === 'none') {
      await keepList(app, LEAD_LISTS, Number(l.id), await objectsForLeadSql(app.db, l, { limit: MATCH_LIST_SIZE + 1, exclude: false }));
      fast = await fastLeadMatches(app.db, Number(l.id), limit, culture);
      if ('rows' in fast) return fast.rows;
    }
    if (fast.why === 'pending') {
      const kept = await keptObjectsForLead(app.db, l, limit);
      if ('ranked' in kept) return leadMatchDetails(app.db, kept.ranked, culture);
    }
  }
  return leadMatchDetails(app.db, rankedOf((await app.db.execute(await objectsForLeadSql(app.db, l, { limit, exclude: true }))).rows), culture);
}

/** The lead's best `limit` matches (kept where they can be), as ids and scores: the tests' way in. */
export async function rankObjectsForLead(app: FastifyInstance, l: Row, limit: number): Promise<Ranked[]> {
  return rankedOf(await leadMatchRows(app, l, limit, 'en'));
}

/** The lead's best `limit` matches worked out on the spot, never from a kept list (the tests' reference). */
export async function computeObjectsForLead(app: FastifyInstance, leadId: number, limit: number): Promise<Ranked[]> {
  const l = await leadRowRaw(app.db, leadId);
  if (!l) return [];
  return rankedOf((await app.db.execute(await objectsForLeadSql(app.db, l, { limit, exclude: true }))).rows);
}

/** The lead's best `limit` matches as the screen gets them (kept where it can be), by id: the tests' way in. */
export async function keptObjectsOfLead(app: FastifyInstance, leadId: number, limit: number): Promise<Ranked[]> {
  const l = await leadRowRaw(app.db, leadId);
  return l ? rankObjectsForLead(app, l, limit) : [];
}

/** The property's best `limit` open leads as the API gets them (kept where it can be), by id. */
export async function keptLeadsOfObject(app: FastifyInstance, objectId: number, limit: number): Promise<Ranked[]> {
  const o = await objectRowRaw(app.db, objectId, 'en');
  return o ? rankLeadsForObject(app, o, limit) : [];
}

/** As fastLeadMatches, for a property's open leads, read with the leads' rows and their clients' names. */
async function fastObjectMatches(db: Db, objectId: number, limit: number): Promise<{ rows: Row[] } | { why: 'pending' | 'changed' | 'none' | 'short' }> {
  const n = sql.raw(String(Math.trunc(limit)));
  const res = await db.execute(sql`
    with st as (select
      exists (select 1 from match_changes c where c.kind = ${MATCH_CHANGE_LEAD}) as pending,
      exists (select 1 from match_changes c where c.kind = ${MATCH_CHANGE_OBJECT} and c.id = ${objectId}) as changed,
      (select complete from object_match_lists where object_id = ${objectId}) as complete),
    page as (
      select m.lead_id, m.score, m.created_on from object_matches m
      where m.object_id = ${objectId} and (select not pending and not changed from st)
        and m.lead_id not in (select k.lead_id from lead_object_marks k where k.object_id = ${objectId})
        and not exists (select 1 from leads el join accounts ea on ea.id = el.account_id where el.id = m.lead_id and ea.erased_on is not null)
      order by m.score desc, m.created_on desc, m.lead_id desc limit ${n})
    select st.pending as "_pending", st.changed as "_changed", st.complete as "_complete", l.*, x.score, a.display_name as account_name
    from st left join (page x join leads l on l.id = x.lead_id left join accounts a on a.id = l.account_id) on true
    order by x.score desc, x.created_on desc, x.lead_id desc`);
  const rows = res.rows as Row[];
  const head = rows[0]!;
  if (head._changed) return { why: 'changed' };
  if (head._complete == null) return { why: 'none' };
  if (head._pending) return { why: 'pending' };
  const found = rows.filter((r) => r.id != null);
  return found.length >= limit || head._complete ? { rows: found } : { why: 'short' };
}

/** The leads' rows (with their clients' names) for a ranked list, in its order. */
async function objectMatchDetails(db: Db, ranked: Ranked[]): Promise<Row[]> {
  if (!ranked.length) return [];
  const res = await db.execute(sql`
    select l.*, x.score, a.display_name as account_name
    from unnest(${sql.param(ranked.map((r) => r.id))}::int[], ${sql.param(ranked.map((r) => r.score))}::int[]) with ordinality as x(id, score, n)
    join leads l on l.id = x.id
    left join accounts a on a.id = l.account_id
    order by x.n`);
  return res.rows as Row[];
}

/** The property's best `limit` open leads with their rows: kept or on the spot, as leadMatchRows. */
async function objectMatchRows(app: FastifyInstance, o: Row, limit: number): Promise<Row[]> {
  if (!onMarket(o)) return [];
  if (limit <= MATCH_LIST_SIZE) {
    let fast = await fastObjectMatches(app.db, Number(o.id), limit);
    if ('rows' in fast) return fast.rows;
    if (fast.why === 'none') {
      await keepList(app, OBJECT_LISTS, Number(o.id), leadsForObjectSql(o, { limit: MATCH_LIST_SIZE + 1, exclude: false }));
      fast = await fastObjectMatches(app.db, Number(o.id), limit);
      if ('rows' in fast) return fast.rows;
    }
    if (fast.why === 'pending') {
      const kept = await keptLeadsForObject(app.db, o, limit);
      if ('ranked' in kept) return objectMatchDetails(app.db, kept.ranked);
    }
  }
  const q = leadsForObjectSql(o, { limit, exclude: true });
  return q ? objectMatchDetails(app.db, rankedOf((await app.db.execute(q)).rows)) : [];
}

/** The property's best `limit` open leads (kept where they can be), as ids and scores: the tests' way in. */
export async function rankLeadsForObject(app: FastifyInstance, o: Row, limit: number): Promise<Ranked[]> {
  return rankedOf(await objectMatchRows(app, o, limit));
}

/** The property's best `limit` open leads worked out on the spot (the tests' reference). */
export async function computeLeadsForObject(app: FastifyInstance, objectId: number, limit: number): Promise<Ranked[]> {
  const o = await objectRowRaw(app.db, objectId, 'en');
  if (!o || !onMarket(o)) return [];
  const q = leadsForObjectSql(o, { limit, exclude: true });
  return q ? rankedOf((await app.db.execute(q)).rows) : [];
}

/**
 * GET /api/lead/{id}/matches: the objects that fit the lead, best first, without those already
 * offered or marked not suitable; each with its score, the reasons, and whether it is new since the
 * matches were last looked at (added or cheaper since).
 */
export async function matchesForLead(app: FastifyInstance, leadId: number, limit: number, culture: TCulture, t: T) {
  const l = await leadRowRaw(app.db, leadId);
  if (!l) throw notFound('leads.notFound');
  // The best ids first (kept, or scored and sorted as narrow rows), with those objects' whole rows and places.
  const res = { rows: await leadMatchRows(app, l, limit, culture) };
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
  const o = await objectRowRaw(app.db, objectId, culture);
  if (!o) throw notFound('leads.objectNotFound');
  // Sold or off the market (not active): offered to nobody.
  if (!onMarket(o)) return { items: [] };
  // The client's name is joined to the page only.
  const res = { rows: await objectMatchRows(app, o, limit) };
  const objRow: Row = { ...o };
  for (const { f, col } of OBJECT_FEATURE_COLUMNS) objRow[f] = o[col];
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

/** The job that brings the kept lists up to date with the changes the triggers wrote (decision 070). */
export const MATCHING_APPLY_JOB = 'matching.apply';
/** Changes applied in one transaction. */
const APPLY_BATCH = 100;
/** More changes than this waiting (an import of thousands of properties): the lists are forgotten and made again when next looked at. */
const APPLY_FORGET_OVER = 2000;

/**
 * Applies the changes written to match_changes to the kept lists, a batch at a time, each batch in
 * one transaction holding the lists' lock (a list being made meanwhile is not stored; decision 070):
 * - a changed property leaves every lead's list and is scored again against the leads with a list:
 *   it goes in where it now ranks up to the list's last kept place (anywhere in a complete list);
 *   a list past MATCH_LIST_SIZE loses its tail and is then no longer complete;
 * - a changed lead likewise in the properties' lists (a closed one leaves them);
 * - a changed property's or lead's own list is made again (dropped when it is off the market or closed).
 * Answers how many changes were applied.
 */
export async function applyMatchChanges(app: FastifyInstance, opts: { wait?: boolean } = {}): Promise<number> {
  let applied = 0;
  for (;;) {
    const done = await app.db.transaction(async (tx) => {
      // Another run holds the lists (two saves queued two runs): it applies what waits, this one comes
      // back in a moment (never waiting on the lock: a waiting run held a connection and showed in
      // pg_locks as a wait of the app's own).
      if (opts.wait) await tx.execute(sql`select pg_advisory_xact_lock(${MATCH_LISTS_LOCK})`);
      else if (!((await tx.execute(sql`select pg_try_advisory_xact_lock(${MATCH_LISTS_LOCK}) as ok`)).rows[0] as { ok: boolean }).ok) return -1;
      const waiting = Number(((await tx.execute(sql`select count(*)::int as n from match_changes`)).rows[0] as { n: number }).n);
      if (!waiting) return 0;
      if (waiting > APPLY_FORGET_OVER) {
        await tx.execute(sql`delete from lead_match_lists`);
        await tx.execute(sql`delete from lead_matches`);
        await tx.execute(sql`delete from object_match_lists`);
        await tx.execute(sql`delete from object_matches`);
        const gone = await tx.execute(sql`delete from match_changes returning 1`);
        return gone.rows.length;
      }
      const batch = (await tx.execute(sql`select seq, kind, id from match_changes order by seq limit ${APPLY_BATCH}`)).rows as { seq: number; kind: number; id: number }[];
      const objectIds = [...new Set(batch.filter((c) => c.kind === MATCH_CHANGE_OBJECT).map((c) => Number(c.id)))];
      const leadIds = [...new Set(batch.filter((c) => c.kind === MATCH_CHANGE_LEAD).map((c) => Number(c.id)))];
      if (objectIds.length) await applyObjectChanges(tx, objectIds);
      if (leadIds.length) await applyLeadChanges(tx, leadIds);
      await tx.execute(sql`delete from match_changes where seq = any(${sql.param(batch.map((c) => Number(c.seq)))}::bigint[])`);
      return batch.length;
    });
    if (done === -1) {
      await app.jobs.enqueue(MATCHING_APPLY_JOB, {}, { singletonKey: 'again', runAt: new Date(Date.now() + 2000) });
      return applied;
    }
    if (!done) return applied;
    applied += done;
  }
}

/** Cuts the given records' lists to MATCH_LIST_SIZE; a list cut is no longer complete. */
async function trimLists(tx: Tx, side: Side, ids: number[]) {
  if (!ids.length) return;
  const { lists, matches, own, entry, time } = side;
  await tx.execute(sql`
    with r as (select ${own}, ${entry}, row_number() over (partition by ${own} order by score desc, ${time} desc, ${entry} desc) as n
      from ${matches} where ${own} = any(${sql.param(ids)}::int[])),
    cut as (delete from ${matches} m using r where m.${own} = r.${own} and m.${entry} = r.${entry} and r.n > ${MATCH_LIST_SIZE} returning m.${own})
    update ${lists} set complete = false where ${own} in (select ${own} from cut)`);
}

/**
 * Applies the changes of records of one kind (`mine`: their own lists; `theirs`: the other kind's
 * lists they are ranked in). Each changed record leaves every list it was in and is scored again
 * (`scored`, among the records that have a list) against the records with a list: it goes in where
 * it now ranks up to the list's last kept place (anywhere in a complete list), and the lists past
 * MATCH_LIST_SIZE are cut. A record that is gone (`load` answers nothing) or out (`live`) is in no
 * list and keeps none; another's own list, if it had one, is made again (`ranked`).
 */
async function applyChanges<R>(
  tx: Tx,
  ids: number[],
  mine: Side,
  theirs: Side,
  how: { load: (id: number) => Promise<R | undefined>; live: (r: R) => boolean; scored: (r: R, among: SQL) => Promise<SQL | null>; ranked: (r: R) => Promise<SQL | null> },
) {
  await tx.execute(sql`delete from ${theirs.matches} where ${theirs.entry} = any(${sql.param(ids)}::int[])`);
  const touched = new Set<number>();
  const { lists, matches, own, entry, time, entries } = theirs;
  for (const id of ids) {
    const r = await how.load(id);
    if (!r || !how.live(r)) {
      await tx.execute(sql`delete from ${mine.lists} where ${mine.own} = ${id}`);
      await tx.execute(sql`delete from ${mine.matches} where ${mine.own} = ${id}`);
      continue;
    }
    const scored = await how.scored(r, sql`select ${own} from ${lists}`);
    if (scored) {
      const res = await tx.execute(sql`
        with cand as (${scored}),
        st as (select s.${own}, s.complete, x.score, x.${time}, x.${entry} from ${lists} s
          left join lateral (select m.score, m.${time}, m.${entry} from ${matches} m where m.${own} = s.${own}
            order by m.score, m.${time}, m.${entry} limit 1) x on true
          where s.${own} in (select id from cand)),
        mine as (select ${time} from ${entries} where id = ${id})
        insert into ${matches} (${own}, ${entry}, score, ${time})
        select c.id, ${id}, c.score, (select ${time} from mine) from cand c join st on st.${own} = c.id
        where st.complete or (c.score, (select ${time} from mine), ${id}::int) > (st.score, st.${time}, st.${entry})
        returning ${own} as id`);
      for (const row of res.rows as { id: number }[]) touched.add(Number(row.id));
    }
    const had = await tx.execute(sql`select 1 from ${mine.lists} where ${mine.own} = ${id}`);
    if (had.rows.length) await storeList(tx, mine, id, await how.ranked(r));
  }
  await trimLists(tx, theirs, [...touched]);
}

/** A changed property: in the leads' lists again where it ranks, its own list made again; gone or off the market, in none. */
const applyObjectChanges = (tx: Tx, objectIds: number[]) =>
  applyChanges(tx, objectIds, OBJECT_LISTS, LEAD_LISTS, {
    load: (id) => objectRowRaw(tx, id, 'en'),
    live: onMarket,
    scored: async (o, among) => leadsForObjectSql(o, { limit: null, exclude: false, among }),
    ranked: async (o) => leadsForObjectSql(o, { limit: MATCH_LIST_SIZE + 1, exclude: false }),
  });

/** A changed lead likewise in the properties' lists (a closed one leaves them). */
const applyLeadChanges = (tx: Tx, leadIds: number[]) =>
  applyChanges(tx, leadIds, LEAD_LISTS, OBJECT_LISTS, {
    load: (id) => leadRowRaw(tx, id),
    live: isOpen,
    scored: (l, among) => objectsForLeadSql(tx, l, { limit: null, exclude: false, among }),
    ranked: (l) => objectsForLeadSql(tx, l, { limit: MATCH_LIST_SIZE + 1, exclude: false }),
  });
