// The bookings list's count and sums kept per month (migration 0106, decision 101) and its page read
// alone, against the statements they replaced (every matching booking summed; the page joined to its
// properties before it was cut), on seeded random bookings after random changes: new bookings, stages,
// dates, amounts and booking dates changed or cleared, bookings deleted, several in one statement,
// with the deltas folded now and then. The seed is in every failure message.
import { describe, expect, it } from 'vitest';
import { and, sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { RESERVATION_CANCELLED, RESERVATION_SOURCES, RESERVATION_STAGES, ZReservationSearch, type TReservationSearch } from '@crm/contract';
import { createTestApp } from '../../../test/harness.ts';
import { heldUp } from '../../../test/locks.ts';
import { seededRandom } from '../../../test/seeded.ts';
import { findReservations } from './reservations.service.ts';
import { containsPattern, latinMatch } from '../accounts/accounts.sql.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });
const { SEED, pick, chance, between } = seededRandom('RESERVATION_KEPT_SEED');

const ids = async (q: SQL) => (await db.execute<{ id: number }>(q)).rows.map((r) => Number(r.id));
const day = (from: string, plus: number) => new Date(Date.parse(`${from}T00:00:00Z`) + plus * 86400000).toISOString().slice(0, 10);
/** A day from June 2025 to June 2027 (the current year's default range falls inside). */
const someDay = () => day('2025-06-01', between(0, 760));
const money = () => (chance(0.2) ? null : between(0, 500000) / 100);

let objects: number[] = [];

async function book(n: number) {
  // Bookings overlapping another's nights on the same property are left out (the exclusion constraint).
  for (let i = 0; i < n; i++) {
    const total = money();
    await db.execute(sql`insert into reservations (object_id, reservation_number_external, reservation_stage, booking_date, check_in, duration, client_last_name, source_id, total, payment_to_owner, comission, comission3rd_party)
      values (${pick(objects)}, ${chance(0.3) ? null : `${pick(['HM', 'hm', 'BK'])}${between(1, 400)}`}, ${pick(RESERVATION_STAGES)}, ${chance(0.15) ? null : someDay()}, ${someDay()}, ${chance(0.05) ? between(30, 365) : between(1, 9)}, ${pick(['Papadopoulos', 'Müller', 'Ivanova'])},
        ${chance(0.2) ? null : pick(RESERVATION_SOURCES)}, ${total}, ${money()}, ${money()}, ${chance(0.5) ? null : money()})
      on conflict do nothing`);
  }
}

async function change() {
  // A move, or a cancelled stay revived, can meet another stay: then nothing is written.
  await changeOnce().catch((e: { cause?: { code?: string } }) => {
    if (e.cause?.code !== '23P01') throw e;
  });
}

async function changeOnce() {
  const all = await ids(sql`select id from reservations order by id`);
  const one = all.length ? pick(all) : 0;
  switch (between(0, 8)) {
    case 0:
      await book(between(1, 3));
      break;
    case 1:
      await db.execute(sql`update reservations set reservation_stage = ${pick(RESERVATION_STAGES)} where id = ${one}`);
      break;
    case 2:
      await db.execute(sql`update reservations set check_in = ${someDay()}, duration = ${between(1, 40)} where id = ${one}`);
      break;
    case 3:
      await db.execute(sql`update reservations set total = ${money()}, payment_to_owner = ${money()}, comission = ${money()}, comission3rd_party = ${money()} where id = ${one}`);
      break;
    case 4:
      await db.execute(sql`update reservations set booking_date = ${chance(0.4) ? null : someDay()} where id = ${one}`);
      break;
    case 5:
      await db.execute(sql`delete from reservations where id = ${one}`);
      break;
    case 6: // written without a change to what is summed
      await db.execute(sql`update reservations set problem = ${`note ${between(1, 99)}`} where id = ${one}`);
      break;
    case 7: // several in one statement
      await db.execute(sql`update reservations set reservation_stage = ${pick(RESERVATION_STAGES)}, comission3rd_party = null where id % ${between(3, 7)} = 0`);
      break;
    case 8:
      await db.execute(sql`delete from reservations where id % ${between(15, 30)} = 1`);
      break;
  }
}

/** A filter as the list sends it: whole months, days across months' ends, open ends, stages, other filters. */
function filter(): TReservationSearch {
  const from = someDay();
  const till = day(from, pick([0, 6, 30, between(1, 400)]));
  const [a, b] = chance(0.5) ? [`${from.slice(0, 8)}01`, day(`${till.slice(0, 8)}01`, 40).slice(0, 8) + '01'] : [from, till];
  const range = (() => {
    switch (between(0, 5)) {
      case 0:
        return {}; // this year, by the default date
      case 1:
        return { startDate: a, endDate: day(b, -1) > a ? day(b, -1) : a }; // whole months, often
      case 2:
        return { startDate: null, endDate: till };
      case 3:
        return { startDate: from, endDate: null };
      default:
        return { startDate: from, endDate: till };
    }
  })();
  return ZReservationSearch.parse({
    ...range,
    dateFilterType: pick([0, 1, 2, 2, 3]),
    stages: chance(0.6) ? [] : chance(0.3) ? [RESERVATION_CANCELLED, pick(RESERVATION_STAGES)] : [pick(RESERVATION_STAGES), pick(RESERVATION_STAGES)],
    sources: chance(0.85) ? [] : [pick(RESERVATION_SOURCES)],
    clientName: chance(0.9) ? null : pick(['papad', 'Müll']),
    // A property, its website code's start, a booking's number or its external number's start.
    ...(chance(0.7) ? {} : pick([{ objectId: pick(objects) }, { objectWebsiteCode: pick(['W', 'w1', 'W12']) }, { reservationNumber: String(between(1, 500)) }, { reservationNumberExternal: pick(['HM', 'hm1', 'HM23', 'bk', 'H', 'x']) }])),
    sortBy: pick(['checkIn', 'checkIn', 'checkOut', 'bookingDate', 'total', 'id']),
    sortDir: pick(['asc', 'desc']),
    perPage: pick([5, 20]),
    currentPage: between(1, 6),
  });
}

/** The statements the list ran before 0106, for the filters made above. */
async function before(f: TReservationSearch, from: string | null, till: string | null) {
  const col = f.dateFilterType === 0 ? sql`r.booking_date` : f.dateFilterType === 1 ? sql`r.check_in` : sql`r.check_out`;
  const date =
    !from && !till
      ? undefined
      : f.dateFilterType === 3
        ? sql`daterange(r.check_in, r.check_out, '[)') && daterange(${from}::date, ${till}::date, '[]')`
        : and(from ? sql`${col} >= ${from}::date` : undefined, till ? sql`${col} <= ${till}::date` : undefined);
  const cond =
    and(
      date,
      f.sources.length ? sql`r.source_id = any(${sql.param(f.sources)}::smallint[])` : undefined,
      f.stages.length ? sql`r.reservation_stage = any(${sql.param(f.stages)}::smallint[])` : undefined,
      f.objectId ? sql`r.object_id = ${f.objectId}` : undefined,
      f.objectWebsiteCode ? sql`r.object_id in (select o2.id from objects o2 where lower(o2.website_code) like ${`${f.objectWebsiteCode.toLowerCase()}%`})` : undefined,
      f.reservationNumber ? sql`r.id = ${Number(f.reservationNumber)}` : undefined,
      f.reservationNumberExternal ? sql`lower(r.reservation_number_external) like ${`${f.reservationNumberExternal.toLowerCase()}%`}` : undefined,
      f.clientName ? sql`(r.search_text like ${containsPattern(f.clientName)} ${((m) => (m ? sql`or ${m}` : sql``))(latinMatch(sql`r.search_text`, f.clientName))})` : undefined,
    ) ?? sql`true`;
  const summed = f.stages.includes(RESERVATION_CANCELLED) ? sql`true` : sql`r.reservation_stage <> ${RESERVATION_CANCELLED}`;
  const total = (c: string) => sql`round(coalesce(sum(${sql.raw(`r.${c}`)}) filter (where ${summed}), 0), 2)::text`;
  const [sums] = (
    await db.execute<Record<string, unknown>>(sql`select count(*)::int as n, ${total('total')} as total, ${total('payment_to_owner')} as payment_to_owner, ${total('comission')} as comission,
      ${total('comission3rd_party')} as comission3rd_party, ${total('final_comission')} as final_comission from reservations r where ${cond}`)
  ).rows;
  const sort = { checkIn: 'r.check_in', checkOut: 'r.check_out', bookingDate: 'r.booking_date', total: 'r.total', id: 'r.id' }[f.sortBy];
  const dir = sql.raw(f.sortDir);
  const page = await ids(sql`select r.id from reservations r join objects o on o.id = r.object_id where ${cond}
    order by ${sql.raw(sort)} ${dir}${f.sortBy === 'total' ? sql` nulls last` : sql``}, r.id ${dir} limit ${f.perPage} offset ${(f.currentPage - 1) * f.perPage}`);
  return {
    totalRows: sums!.n,
    sums: { total: sums!.total, paymentToOwner: sums!.payment_to_owner, comission: sums!.comission, comission3rdParty: sums!.comission3rd_party, finalComission: sums!.final_comission },
    page,
  };
}

/** The answers compared that read the kept months, and those that summed the bookings. */
const paths = { kept: 0, summed: 0 };

/**
 * Whether the list's count for `f` is read from the kept months: a marker line added to the deltas
 * in every month of each date kind (and the filter's stage) changes it only then; removed after.
 */
async function readsKept(f: TReservationSearch, n: number): Promise<boolean> {
  const stage = f.stages[0] ?? RESERVATION_STAGES[0];
  await db.execute(sql`insert into reservation_total_deltas (kind, month, stage, n, total, payment_to_owner, comission, comission3rd_party, final_comission)
    select k, m::date, ${stage}, 1, 0, 0, 0, 0, -424242 from generate_series(0, 2) k, generate_series('2024-01-01'::date, '2028-12-01'::date, '1 month') m`);
  try {
    return (await findReservations(app, f, 'el', 'ids')).totalRows !== n;
  } finally {
    await db.execute(sql`delete from reservation_total_deltas where final_comission = -424242`);
  }
}

async function compare(round: number) {
  for (let i = 0; i < 6; i++) {
    const f = filter();
    const now = await findReservations(app, f, 'el', 'rows');
    const was = await before(f, now.startDate, now.endDate);
    const what = `round ${round}, ${JSON.stringify(f)}, seed ${SEED}`;
    expect({ totalRows: now.totalRows, sums: now.sums, page: now.rows.map((r) => Number(r.id)) }, what).toEqual(was);
    expect((await findReservations(app, f, 'el', 'ids')).rows.map((r) => Number(r.id)), what).toEqual(was.page);
    paths[(await readsKept(f, now.totalRows)) ? 'kept' : 'summed']++;
  }
}

describe('the bookings list kept per month', () => {
  it('answers the count, the sums and the page the statements it replaced answered, after random changes', async () => {
    objects = await ids(sql`insert into objects (title, for_short_rent, website_code) select 'Short let ' || g, true, case when g % 4 <> 0 then 'W' || g end from generate_series(1, 40) g returning id`);
    await book(400);
    for (let round = 0; round < 40; round++) {
      for (let k = between(1, 4); k > 0; k--) await change();
      if (round % 5 === 0) await db.execute(sql`select crm_reservation_totals_fold()`);
      await compare(round);
    }
    // Folded, the kept months are the ones counted again from the bookings.
    await db.execute(sql`select crm_reservation_totals_fold()`);
    expect(await db.execute(sql`select count(*)::int as n from reservation_total_deltas`).then((r) => r.rows[0])).toEqual({ n: 0 });
    const kept = (await db.execute(sql`select * from reservation_totals order by 1, 2, 3`)).rows;
    await db.execute(sql`select crm_reservation_totals_rebuild()`);
    expect((await db.execute(sql`select * from reservation_totals order by 1, 2, 3`)).rows, `seed ${SEED}`).toEqual(kept);
    await compare(40);
    // Both ways were compared: answers read from the kept months (a list whose sums were never kept
    // would fail here), and answers summed from the bookings.
    expect(paths.kept, `seed ${SEED}`).toBeGreaterThan(0);
    expect(paths.summed, `seed ${SEED}`).toBeGreaterThan(0);
  });

  it('shows the kept sums on the list: this year by check-out, as the screen opens it', async () => {
    const year = new Intl.DateTimeFormat('en-CA', { timeZone: app.config.timeZone }).format(new Date()).slice(0, 4);
    const res = await agent.post('/api/Reservation/search', { perPage: 20, currentPage: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const was = await before(ZReservationSearch.parse({ perPage: 20, currentPage: 1 }), `${year}-01-01`, `${year}-12-31`);
    const body = res.json() as { totalRows: number; sums: unknown; items: { id: number }[] };
    expect({ totalRows: body.totalRows, sums: body.sums, page: body.items.map((r) => r.id) }).toEqual(was);
    expect(body.totalRows).toBeGreaterThan(0);
  });

  it('answers ranges at the ends of the calendar (years 1 and 9999) as the statements it replaced', async () => {
    const [object] = await ids(sql`insert into objects (title, for_short_rent) values ('Far dates', true) returning id`);
    for (const [booked, checkIn, nights] of [
      ['9999-11-30', '9999-12-20', 5],
      ['9999-12-02', '9999-12-27', 4],
      ['9998-12-31', '9999-01-10', 3],
      [null, '0001-01-02', 3],
      ['0050-03-20', '0050-05-01', 7],
    ] as const) {
      await db.execute(sql`insert into reservations (object_id, reservation_stage, booking_date, check_in, duration, client_last_name, total, comission)
        values (${object}, 1, ${booked}, ${checkIn}, ${nights}, 'Far', 100.5, 7.25)`);
    }
    const ranges = [
      ['9999-12-05', '9999-12-31'],
      ['9999-12-01', '9999-12-31'],
      ['9999-11-01', '9999-12-31'],
      ['9998-12-15', '9999-12-31'],
      ['9999-12-31', '9999-12-31'],
      ['0001-01-01', '0001-03-10'],
      ['0001-01-01', '0001-01-01'],
      ['0050-03-15', '0051-02-10'],
    ];
    let found = 0;
    for (const [startDate, endDate] of ranges) {
      for (const dateFilterType of [0, 1, 2, 3]) {
        for (const sortBy of ['checkIn', 'checkOut']) {
          const body = { startDate, endDate, dateFilterType, sortBy, sortDir: 'asc', perPage: 20, currentPage: 1 };
          const res = await agent.post('/api/Reservation/search', body);
          expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(200);
          const got = res.json() as { totalRows: number; sums: unknown; items: { id: number }[] };
          const was = await before(ZReservationSearch.parse(body), startDate!, endDate!);
          expect({ totalRows: got.totalRows, sums: got.sums, page: got.items.map((r) => r.id) }, JSON.stringify(body)).toEqual(was);
          found += got.totalRows;
        }
      }
    }
    expect(found).toBeGreaterThan(0);
  });

  it('a truncate of the bookings waits for a fold under way, and leaves no sums behind', async () => {
    await book(5);
    const folding = new pg.Client({ connectionString: t.dbUrl });
    const truncating = new pg.Client({ connectionString: t.dbUrl });
    await folding.connect();
    await truncating.connect();
    try {
      expect((await db.execute(sql`select count(*)::int as n from reservation_total_deltas`)).rows[0]).not.toEqual({ n: 0 });
      // A fold under way: the deltas taken, added into the totals, not yet committed.
      await folding.query('begin');
      await folding.query('select crm_reservation_totals_fold()');
      // What the truncate waits for: the fold's lock.
      const truncated = await heldUp(t.pool, truncating, 'truncate reservations cascade');
      expect(truncated.waitingFor).toBe('advisory');
      await folding.query('commit');
      await truncated.answer;
      const left = await db.execute(sql`select (select count(*) from reservation_totals)::int as totals, (select count(*) from reservation_total_deltas)::int as deltas`);
      expect(left.rows[0]).toEqual({ totals: 0, deltas: 0 });
      const res = await agent.post('/api/Reservation/search', { perPage: 20, currentPage: 1 });
      expect((res.json() as { totalRows: number }).totalRows).toBe(0);
    } finally {
      await folding.end();
      await truncating.end();
    }
  });
});
