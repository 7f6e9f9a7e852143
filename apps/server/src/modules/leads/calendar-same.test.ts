import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { CALENDAR_MAX_EACH, LinkKind, RESERVATION_CANCELLED, TIME_OF_DAY, formatReferenceNumber, type TCulture } from '@crm/contract';
import { accounts, activities, activityLinks, assignments, leads, objects, reservations, viewingObjects, viewings } from '../../db/schema/index.ts';
import { nextDay, toLocalDateTime } from '../../lib/dates.ts';
import { locationText } from '../locations/locations.service.ts';
import { createTestApp } from '../../../test/harness.ts';
import { ASSIGNMENT_PARENT_VIEWING, calendar } from './viewings.service.ts';
import type { T } from '../../lib/i18n.ts';

/**
 * The calendar made as decision 106 makes it answers exactly what it answered before (the
 * statements and the making of its entries as they were, kept here): on random viewings, to-dos and
 * stays, for random periods, everyone's and each agent's, with and without the stays, in each language.
 */
const t = await createTestApp();
const { db, app } = t;

type Row = Record<string, unknown>;

function recordLink(link: number[] | null): string {
  if (!link) return '/';
  const [entity, id] = link;
  if (entity === LinkKind.Object) return `/Objects/View/${id}`;
  if (entity === LinkKind.Demand) return `/Leads/View/${id}`;
  if (entity === LinkKind.Viewing) return `/Viewing/${id}`;
  if (entity === LinkKind.Account) return `/Accounts/View/${id}`;
  // A to-do on a deal opens the deal (the old calendar sent it to the start page; the feed linked it).
  if (entity === LinkKind.Deal) return `/Deals/${id}`;
  return '/';
}

/** GET /api/calendar as it was made before decision 106. */
async function calendarAsBefore(app: FastifyInstance, from: string, till: string, assigned: number | undefined, stays: boolean, t: T, culture: TCulture) {
  const tz = app.config.timeZone;
  const start = sql`(${from}::date::timestamp at time zone ${tz})`;
  const end = sql`(${nextDay(till)}::date::timestamp at time zone ${tz})`;
  // The kinds side by side on the pool, each its own statement.
  // The week's viewings first, then their agents and properties for those alone, each in one pass
  // (a subquery a viewing, with its own sort, cost more than the viewings themselves); the ids as an
  // array, so that each is looked up by its index (as a join, PostgreSQL read all 40,000 viewings' properties).
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
      select vo.viewing_id as id, string_agg('#' || lpad(o.reference_number::text, 4, '0'), ' ' order by vo.position) as refs,
        array_agg(nullif(concat_ws(', ', nullif(btrim(o.address), ''), ${locationText(sql`o.location_id`, culture)}), '') order by vo.position) as addresses
      from viewing_objects vo join objects o on o.id = vo.object_id
      where vo.viewing_id = any(array(select id from v)) group by vo.viewing_id)
    select v.id, v.date_of_viewing, v.version, a.display_name as client, coalesce(who.assigned, '') as assigned, coalesce(refs.refs, '') as refs,
      (select p from unnest(a.phones) p where btrim(p) <> '' limit 1) as client_phone, refs.addresses
    from v left join leads l on l.id = v.demand_id left join accounts a on a.id = l.account_id
      left join who on who.id = v.id left join refs on refs.id = v.id
    order by v.date_of_viewing, v.id`);
  const activitiesRead = app.db.execute(sql`
    with ac as (
      select ac.id, ac.date, ac.version, ac.description, ac.assigned_to from activities ac
      where ac.done = false and ac.date >= ${start} and ac.date < ${end}
        ${assigned ? sql`and ac.assigned_to = ${assigned}` : sql``}
      order by ac.date, ac.id limit ${CALENDAR_MAX_EACH + 1}),
    first_links as (
      select distinct on (l.activity_id) l.activity_id as id, array[l.entity::int, l.entity_id] as first_link
      from activity_links l where l.activity_id = any(array(select id from ac)) order by l.activity_id, l.position)
    select ac.id, ac.date, ac.version, ac.description, x.display_name as assigned, f.first_link
    from ac left join accounts x on x.id = ac.assigned_to left join first_links f on f.id = ac.id
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
  return {
    truncated,
    items: [
      ...(vs.rows.slice(0, CALENDAR_MAX_EACH) as Row[]).map((r) => ({
        kind: 'viewing' as const,
        id: r.id as number,
        start: when(r.date_of_viewing),
        allDay: false,
        title: [t('viewings.calendarTitle'), r.client, r.refs].filter(Boolean).join(' · '),
        version: r.version as number,
        link: `/Viewing/${r.id}`,
        assigned: (r.assigned as string) ?? '',
        client: (r.client as string | null) ?? null,
        clientPhone: (r.client_phone as string | null) ?? null,
        addresses: ((r.addresses as (string | null)[] | null) ?? []).filter((x): x is string => !!x),
      })),
      ...(acts.rows.slice(0, CALENDAR_MAX_EACH) as Row[]).map((r) => ({
        kind: 'activity' as const,
        id: r.id as number,
        start: when(r.date),
        allDay: false,
        title: String(r.description ?? '').slice(0, 120),
        version: r.version as number,
        link: recordLink(r.first_link as number[] | null),
        assigned: (r.assigned as string | null) ?? '',
      })),
      ...(moves.rows.slice(0, CALENDAR_MAX_EACH) as Row[]).map((r) => {
        const kind = r.kind === 'checkIn' ? ('checkIn' as const) : ('checkOut' as const);
        const at = typeof r.at === 'string' && TIME_OF_DAY.test(r.at) ? r.at : null;
        const code = r.website_code as string | null;
        const ref = `#${formatReferenceNumber(r.reference_number as number)}${code ? ` (${code})` : ''}`;
        const guest = [r.client_last_name, r.client_first_name].filter(Boolean).join(' ');
        return {
          kind,
          id: r.id as number,
          start: `${r.day as string}T${at ?? '00:00'}:00`,
          allDay: at == null,
          title: [t(`reservations.calendar.${kind}`), guest, ref, t(`reservations.stage.${r.reservation_stage as number}`)].filter(Boolean).join(' · '),
          version: r.version as number,
          link: `/Reservations/${r.id}`,
          assigned: '',
        };
      }),
    ].sort((a, b) => a.start.localeCompare(b.start)),
  };
}

// A random number generator with a seed (each run's seed printed on failure).
const seed = Number(process.env.CALENDAR_SEED ?? Date.now() % 100000);
let state = seed;
const rnd = () => {
  state = (state * 1103515245 + 12345) % 2147483648;
  return state / 2147483648;
};
const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rnd() * xs.length)]!;
const dayOf = (n: number) => new Date(Date.UTC(2032, 2, 1) + n * 86400000).toISOString().slice(0, 10);

describe('the calendar made by decision 106', () => {
  it('answers what it answered before, entry for entry, on random data', async () => {
    const agents = await db
      .insert(accounts)
      .values(Array.from({ length: 6 }, (_, i) => ({ firstName: pick(['Νίκος', 'Maria', 'Иван', 'Eleni']), lastName: `Agent ${i}`, isEmploye: true })))
      .returning({ id: accounts.id });
    const phones = [[], ['6944 000 111'], ['', '2310 555 111'], ['  ', ' 6944 222 333 '], [' '], ['6977 1', '6977 2']];
    const clients = await db
      .insert(accounts)
      .values(Array.from({ length: 30 }, (_, i) => ({ firstName: pick(['Γιώργος', 'Anna', '']), lastName: `Client ${i}`, isClient: true, phones: pick(phones) })))
      .returning({ id: accounts.id });
    const leadRows = await db.insert(leads).values(clients.map((c) => ({ accountId: c.id, forPurchase: true }) as never)).returning({ id: leads.id });
    const places = (await db.execute<{ id: number }>(sql`select id from locations order by id limit 5`)).rows.map((r) => r.id);
    const objs = await db
      .insert(objects)
      .values(Array.from({ length: 25 }, (_, i) => ({ title: `Flat ${i}`, forShortRent: true, address: pick([null, '', '  ', `Odos ${i}`, 'Οδός "Ερμού" 5, {2ος}', 'Back\\slash, NULL', 'line\nbreak 🏠']), locationId: pick([null, ...places]), websiteCode: pick([null, '', `W${i}`]) }) as never))
      .returning({ id: objects.id });
    // 600 viewings over two months (some at the same minute), each with 0-3 properties and 0-2 agents.
    const at = () => new Date(Date.UTC(2032, 2, 1) + Math.floor(rnd() * 60 * 96) * 15 * 60000 - 2 * 3600000);
    const vs = await db
      .insert(viewings)
      .values(Array.from({ length: 600 }, () => ({ dateOfViewing: at(), demandId: rnd() < 0.9 ? pick(leadRows).id : null }) as never))
      .returning({ id: viewings.id });
    const vo: { viewingId: number; objectId: number; position: number }[] = [];
    const as: { parent: number; parentId: number; accountId: number }[] = [];
    for (const v of vs) {
      const ps = [...new Set(Array.from({ length: Math.floor(rnd() * 4) }, () => pick(objs).id))];
      ps.forEach((objectId, position) => vo.push({ viewingId: v.id, objectId, position: ps.length - position }));
      for (const a of new Set(Array.from({ length: Math.floor(rnd() * 3) }, () => pick(agents).id))) as.push({ parent: ASSIGNMENT_PARENT_VIEWING, parentId: v.id, accountId: a });
    }
    if (vo.length) await db.insert(viewingObjects).values(vo as never);
    if (as.length) await db.insert(assignments).values(as as never);
    // 3,000 activities, open, done or neither, with 0-3 links each (their order by position, not by kind).
    const acts = await db
      .insert(activities)
      .values(Array.from({ length: 3000 }, (_, i) => ({ description: pick([null, '', `To-do ${i}`, 'Ω'.repeat(130)]), done: pick([false, false, true, null]), date: rnd() < 0.95 ? at() : null, assignedTo: rnd() < 0.8 ? pick(agents).id : null }) as never))
      .returning({ id: activities.id });
    const links: { activityId: number; entity: number; entityId: number; position: number }[] = [];
    for (const a of acts) {
      const n = Math.floor(rnd() * 4);
      const seen = new Set<string>();
      for (let k = 0; k < n; k++) {
        const entity = pick([LinkKind.Object, LinkKind.Demand, LinkKind.Viewing, LinkKind.Account, LinkKind.Deal, 9]);
        const entityId = 1 + Math.floor(rnd() * 50);
        if (seen.has(`${entity}:${entityId}`)) continue;
        seen.add(`${entity}:${entityId}`);
        links.push({ activityId: a.id, entity, entityId, position: (k * 7 + 3) % 5 });
      }
    }
    if (links.length) await db.insert(activityLinks).values(links as never);
    // Each property's stays one after another (a guest arriving the day another leaves), some
    // cancelled, arrival times planned, actual, blank or not a time.
    const stays: object[] = [];
    for (const o of objs) {
      for (let d = Math.floor(rnd() * 6) - 8; d < 62; ) {
        const duration = 1 + Math.floor(rnd() * 9);
        stays.push({
          objectId: o.id,
          checkIn: dayOf(d),
          duration,
          reservationStage: pick([1, 2, 3, 4, 5, 6, RESERVATION_CANCELLED]),
          clientLastName: pick(['', 'Müller', 'Παπαδοπούλου']),
          clientFirstName: pick([null, '', 'Katrin']),
          arrivalTimePlanned: pick([null, '', '15:30', 'late']),
          arrivalTimeActual: pick([null, '', '17:05']),
        });
        d += duration + pick([0, 0, 1, 3]);
      }
    }
    await db.insert(reservations).values(stays as never);

    const tz = app.config.timeZone;
    let compared = 0;
    for (let k = 0; k < 40; k++) {
      const from = dayOf(Math.floor(rnd() * 70) - 8);
      const till = dayOf(Math.floor((Date.parse(from) - Date.UTC(2032, 2, 1)) / 86400000) + pick([0, 6, 6, 13, 41]));
      const who = rnd() < 0.4 ? pick(agents).id : undefined;
      const stays = rnd() < 0.8;
      const culture = pick(['en', 'el', 'ru'] as TCulture[]);
      const tr: T = (key, params) => app.translator.t(culture, key, params);
      const made = await calendar(app, from, till, who, stays, tr, culture);
      const before = await calendarAsBefore(app, from, till, who, stays, tr, culture);
      expect(JSON.stringify(made), `seed ${seed}: ${from}..${till} ${who ?? 'everyone'} ${stays} ${culture} (${tz})`).toBe(JSON.stringify(before));
      compared += made.items.length;
    }
    // The periods held entries of every kind.
    expect(compared).toBeGreaterThan(1000);
  });
});
