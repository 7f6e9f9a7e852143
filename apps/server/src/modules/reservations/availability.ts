import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import { RESERVATION_CANCELLED, RESERVATION_STAGE_CLASS, formatReferenceNumber, type TAvailabilityQuery, type TCulture } from '@crm/contract';
import { escapeLike } from '../accounts/accounts.sql.ts';
import { objectTitle } from '../objects/objects.sql.ts';
import type { T } from './reservations.service.ts';

type Row = Record<string, unknown>;

/** "2026-12-01" plus n days, as the same kind of text. */
const plusDays = (day: string, n: number) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
};

/**
 * POST /api/Reservation/availability: a page of short-let properties, by reference number, each
 * with the bookings holding a night of the window (`days` nights from `from`; a cancelled booking
 * holds none, as in the exclusion constraint). A property that is no longer let short still has
 * its row while a booking holds one of those nights, so no booked night goes unseen.
 *
 * One statement. The short-let properties are walked in reference order and counted from their
 * own index (`objects_short_rent_ref_idx`, migration 0048); the few others a
 * stay of the window names are found from the window's stays (the exclusion constraint's gist
 * index) less the short lets' ids (`objects_short_rent_id_idx`, migration 0116, decision 117) and
 * merged in. Each property of the page reads its stays by the same gist index (object, nights; not
 * cancelled). Never a scan of all properties.
 */
export async function availability(app: FastifyInstance, q: TAvailabilityQuery, t: T, culture: TCulture) {
  const window = sql`daterange(${q.from}::date, ${q.from}::date + ${q.days}::int, '[)')`;
  const holds = (r: string) => sql`${sql.raw(r)}.reservation_stage <> ${RESERVATION_CANCELLED} and daterange(${sql.raw(r)}.check_in, ${sql.raw(r)}.check_out, '[)') && ${window}`;
  const filters: SQL[] = [];
  if (q.objectId) filters.push(sql`o.id = ${q.objectId}`);
  const code = q.objectWebsiteCode?.trim();
  if (code) filters.push(sql`lower(o.website_code) like ${`${escapeLike(code.toLowerCase())}%`}`);
  const chosen = filters.length ? sql.join(filters, sql` and `) : sql`true`;
  const offset = (q.currentPage - 1) * q.perPage;
  const res = await app.db.execute(sql`
    with held as materialized (
      -- Properties not let short that a stay of the window names: the stays' properties less the
      -- short lets (from their own index of ids, objects_short_rent_id_idx), then the few left looked
      -- up one by one ("limit 1" keeps PostgreSQL from hashing every property to find them).
      select o.id, o.reference_number
      from (select b.object_id from reservations b where ${holds('b')} except select s.id from objects s where s.for_short_rent) h
      cross join lateral (select o.id, o.reference_number from objects o where o.id = h.object_id and not o.for_short_rent and ${chosen} limit 1) o
    ),
    page as (
      select y.id, y.reference_number from (
        (select o.id, o.reference_number from objects o where o.for_short_rent and ${chosen} order by o.reference_number limit ${offset + q.perPage})
        union all
        select id, reference_number from held
      ) y
      order by y.reference_number limit ${q.perPage} offset ${offset}
    )
    select (select count(*) from objects o where o.for_short_rent and ${chosen})::int + (select count(*) from held)::int as n,
      coalesce((
        select json_agg(json_build_object('id', o.id, 'ref', o.reference_number, 'title', ${objectTitle(culture, 'o')}, 'code', o.website_code, 'str', o.for_short_rent,
          'stays', coalesce((
            select json_agg(json_build_object('id', r.id, 'checkIn', r.check_in, 'checkOut', r.check_out, 'stage', r.reservation_stage,
              'last', r.client_last_name, 'first', r.client_first_name) order by r.check_in)
            from reservations r where r.object_id = o.id and ${holds('r')}), '[]'::json)) order by o.reference_number)
        from page p join objects o on o.id = p.id), '[]'::json) as items`);
  type Stay = { id: number; checkIn: string; checkOut: string; stage: number; last: string | null; first: string | null };
  type Item = { id: number; ref: number; title: string | null; code: string | null; str: boolean; stays: Stay[] };
  const row = (res.rows as Row[])[0]!;
  return {
    items: (row.items as Item[]).map((r) => ({
      objectId: r.id,
      objectReferenceNumber: formatReferenceNumber(r.ref),
      objectTitle: r.title ?? null,
      objectWebsiteCode: r.code ?? null,
      forShortRent: r.str,
      stays: r.stays.map((s) => ({
        id: s.id,
        checkIn: s.checkIn,
        checkOut: s.checkOut,
        reservationStage: s.stage,
        stage: t(`reservations.stage.${s.stage}`),
        rowClass: RESERVATION_STAGE_CLASS[s.stage] ?? '',
        clientDisplayName: [s.last, s.first].filter(Boolean).join(' '),
      })),
    })),
    totalRows: row.n as number,
    from: q.from,
    till: plusDays(q.from, q.days - 1),
    days: q.days,
  };
}
