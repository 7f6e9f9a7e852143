import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { CALENDAR_MAX_EACH, RESERVATION_STAGES, ZCalendarAnswer, type TCalendarEvent, type TCulture } from '@crm/contract';
import { calendar } from './viewings.service.ts';

type T = (key: string, params?: Record<string, string | number>) => string;
type DayRow = { day: string; gen: string; all_gen: string; counts: number[] | null; items: string | null };

/**
 * The translated words a day's entries are written with: a kept day is read back only while they
 * are the same (an edit of the texts reaches each app instance by its own reload).
 */
function calendarTexts(t: T): string {
  return JSON.stringify([t('viewings.calendarTitle'), t('reservations.calendar.checkIn'), t('reservations.calendar.checkOut'), ...RESERVATION_STAGES.map((s) => t(`reservations.stage.${s}`))]);
}

/** How many entries of each kind (viewings, to-dos, check-ins and check-outs): each kind is cut at CALENDAR_MAX_EACH. */
const kindIndex = (e: TCalendarEvent) => (e.kind === 'viewing' ? 0 : e.kind === 'activity' ? 1 : 2);

/**
 * GET /api/calendar of everyone (decision 114): each day's entries kept as the answer's JSON, read
 * back while the day's mark has not moved since they were made (migration 0116: every change to
 * what a day shows moves its mark in the changing transaction). The days not kept, or kept under
 * an older mark, are made on the spot (the whole period, as `calendar` makes it) and kept then, each
 * under the mark read before it was made, and only if that mark has not moved meanwhile. A period
 * whose kinds would be cut (more than CALENDAR_MAX_EACH entries of one) is made on the spot.
 * The answer, as JSON text, is the one `calendar` makes, byte for byte: its entries are sorted by
 * their start, and every entry of a day starts on that day.
 */
export async function keptCalendar(app: FastifyInstance, from: string, till: string, stays: boolean, t: T, culture: TCulture): Promise<string> {
  const texts = calendarTexts(t);
  const read = await app.db.execute<DayRow>(sql`
    select d.day::text as day, coalesce(m.gen, 0)::text as gen, g.gen::text as all_gen,
      case when k.gen = coalesce(m.gen, 0) and k.all_gen = g.gen and k.texts = ${texts} then k.counts end as counts,
      case when k.gen = coalesce(m.gen, 0) and k.all_gen = g.gen and k.texts = ${texts} then k.items end as items
    from (select d::date as day from generate_series(${from}::date, ${till}::date, interval '1 day') d) d
      cross join calendar_all_marks g
      left join calendar_day_marks m on m.day = d.day
      left join calendar_days k on k.day = d.day and k.culture = ${culture} and k.stays = ${stays}
    order by d.day`);
  const days = read.rows;
  if (days.every((d) => d.items !== null)) {
    const sums = [0, 0, 0];
    for (const d of days) for (let i = 0; i < 3; i++) sums[i]! += d.counts![i]!;
    if (sums.every((n) => n <= CALENDAR_MAX_EACH)) {
      const items = days.map((d) => d.items!).filter((i) => i !== '');
      return `{"items":[${items.join(',')}],"truncated":false}`;
    }
  }
  const answer = ZCalendarAnswer.parse(await calendar(app, from, till, undefined, stays, t, culture));
  const body = JSON.stringify(answer);
  if (answer.truncated) return body;
  // Each day's entries, in the answer's order.
  const byDay = new Map<string, { counts: number[]; items: string[] }>();
  for (const d of days) if (d.items === null) byDay.set(d.day, { counts: [0, 0, 0], items: [] });
  for (const e of answer.items) {
    const kept = byDay.get(e.start.slice(0, 10));
    if (!kept) continue;
    kept.counts[kindIndex(e)]! += 1;
    kept.items.push(JSON.stringify(e));
  }
  const made = days.filter((d) => d.items === null);
  if (made.length) {
    await app.db.execute(sql`
      insert into calendar_days (day, culture, stays, gen, all_gen, texts, counts, items)
      select x.day, ${culture}, ${stays}, x.gen, ${days[0]!.all_gen}::bigint, ${texts}, array[x.viewings, x.todos, x.moves], x.items
      from unnest(${sql.param(made.map((d) => d.day))}::date[], ${sql.param(made.map((d) => d.gen))}::bigint[],
        ${sql.param(made.map((d) => byDay.get(d.day)!.counts[0]!))}::int[], ${sql.param(made.map((d) => byDay.get(d.day)!.counts[1]!))}::int[],
        ${sql.param(made.map((d) => byDay.get(d.day)!.counts[2]!))}::int[], ${sql.param(made.map((d) => byDay.get(d.day)!.items.join(',')))}::text[]) x(day, gen, viewings, todos, moves, items)
      -- Kept only when nothing it shows changed while it was made.
      where coalesce((select m.gen from calendar_day_marks m where m.day = x.day), 0) = x.gen
        and (select g.gen from calendar_all_marks g) = ${days[0]!.all_gen}::bigint
      on conflict (day, culture, stays) do update set gen = excluded.gen, all_gen = excluded.all_gen, texts = excluded.texts, counts = excluded.counts,
        items = excluded.items, made_on = now()`);
  }
  return body;
}
