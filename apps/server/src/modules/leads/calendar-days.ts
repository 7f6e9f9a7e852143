import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { CALENDAR_MAX_EACH, RESERVATION_STAGES, ZCalendarAnswer, type TCalendarEvent, type TCulture } from '@crm/contract';
import { agencyToday } from '../../lib/dates.ts';
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

/** The period's days, each with its mark and, when kept under that mark, its kept entries (with `items`) or whether it is kept. */
async function readDays(app: FastifyInstance, from: string, till: string, stays: boolean, culture: TCulture, texts: string, withItems: boolean): Promise<DayRow[]> {
  const fresh = sql`k.gen = coalesce(m.gen, 0) and k.all_gen = g.gen and k.texts = ${texts}`;
  const read = await app.db.execute<DayRow>(sql`
    select d.day::text as day, coalesce(m.gen, 0)::text as gen, g.gen::text as all_gen, case when ${fresh} then k.counts end as counts,
      ${withItems ? sql`case when ${fresh} then k.items end` : sql`case when ${fresh} then '' end`} as items
    from (select d::date as day from generate_series(${from}::date, ${till}::date, interval '1 day') d) d
      cross join calendar_all_marks g
      left join calendar_day_marks m on m.day = d.day
      left join calendar_days k on k.day = d.day and k.culture = ${culture} and k.stays = ${stays}
    order by d.day`);
  return read.rows;
}

/**
 * The period made on the spot (as `calendar` makes it); the days of `stale` in it kept, each under the
 * mark read before it was made, and only if that mark has not moved meanwhile (nothing it shows
 * changed while it was made). Nothing is kept from a period whose kinds were cut.
 */
async function makeDays(app: FastifyInstance, from: string, till: string, stays: boolean, t: T, culture: TCulture, texts: string, stale: DayRow[]) {
  const answer = ZCalendarAnswer.parse(await calendar(app, from, till, undefined, stays, t, culture));
  if (answer.truncated || !stale.length) return answer;
  const byDay = new Map<string, { counts: number[]; items: string[] }>();
  for (const d of stale) byDay.set(d.day, { counts: [0, 0, 0], items: [] });
  for (const e of answer.items) {
    const kept = byDay.get(e.start.slice(0, 10));
    if (!kept) continue;
    kept.counts[kindIndex(e)]! += 1;
    kept.items.push(JSON.stringify(e));
  }
  const column = (f: (d: DayRow) => unknown) => sql.param(stale.map(f));
  await app.db.execute(sql`
    insert into calendar_days (day, culture, stays, gen, all_gen, texts, counts, items)
    select x.day, ${culture}, ${stays}, x.gen, ${stale[0]!.all_gen}::bigint, ${texts}, array[x.viewings, x.todos, x.moves], x.items
    from unnest(${column((d) => d.day)}::date[], ${column((d) => d.gen)}::bigint[], ${column((d) => byDay.get(d.day)!.counts[0])}::int[],
      ${column((d) => byDay.get(d.day)!.counts[1])}::int[], ${column((d) => byDay.get(d.day)!.counts[2])}::int[],
      ${column((d) => byDay.get(d.day)!.items.join(','))}::text[]) x(day, gen, viewings, todos, moves, items)
    where coalesce((select m.gen from calendar_day_marks m where m.day = x.day), 0) = x.gen
      and (select g.gen from calendar_all_marks g) = ${stale[0]!.all_gen}::bigint
    on conflict (day, culture, stays) do update set gen = excluded.gen, all_gen = excluded.all_gen, texts = excluded.texts, counts = excluded.counts,
      items = excluded.items, made_on = now()`);
  return answer;
}

/**
 * GET /api/calendar of everyone (decision 114): each day's entries kept as the answer's JSON, read
 * back while the day's mark has not moved since they were made (migration 0115: every change to
 * what a day shows moves its mark in the changing transaction). The days not kept, or kept under
 * an older mark, are made on the spot (the whole period, as `calendar` makes it) and kept then; the
 * job `calendar.keepDays` makes them again ahead of the next reader. A period whose kinds would be
 * cut (more than CALENDAR_MAX_EACH entries of one) is made on the spot.
 * The answer, as JSON text, is the one `calendar` makes, byte for byte: its entries are sorted by
 * their start, and every entry of a day starts on that day.
 */
export async function keptCalendar(app: FastifyInstance, from: string, till: string, stays: boolean, t: T, culture: TCulture): Promise<string> {
  const texts = calendarTexts(t);
  const days = await readDays(app, from, till, stays, culture, texts, true);
  const stale = days.filter((d) => d.items === null);
  if (!stale.length) {
    const sums = [0, 0, 0];
    for (const d of days) for (let i = 0; i < 3; i++) sums[i]! += d.counts![i]!;
    if (sums.every((n) => n <= CALENDAR_MAX_EACH)) {
      const items = days.map((d) => d.items!).filter((i) => i !== '');
      return `{"items":[${items.join(',')}],"truncated":false}`;
    }
  }
  return JSON.stringify(await makeDays(app, from, till, stays, t, culture, texts, stale));
}

/** The job that makes the kept days again once what they show changed, and the days kept around today. */
export const CALENDAR_KEEP_DAYS_JOB = 'calendar.keepDays';
/** The days kept ahead of their readers: from two years back to a year ahead. */
const KEPT_BACK = 730;
const KEPT_AHEAD = 365;

const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);

/**
 * For each language and view (with or without the stays) someone has opened, the days from two
 * years back to a year ahead not kept, or kept under an older mark, made again a week at a time,
 * the weeks nearest today first. A week whose kinds would be cut is made a day at a time.
 */
export async function keepCalendarDays(app: FastifyInstance, opts: { today?: string; back?: number; ahead?: number } = {}): Promise<number> {
  const { today = agencyToday(app.config.timeZone), back = KEPT_BACK, ahead = KEPT_AHEAD } = opts;
  const from = plusDays(today, -back);
  const variants = (await app.db.execute<{ culture: TCulture; stays: boolean }>(sql`select distinct culture, stays from calendar_days order by 1, 2`)).rows;
  let made = 0;
  for (const v of variants) {
    const t: T = (key, params) => app.translator.t(v.culture, key, params);
    const texts = calendarTexts(t);
    const days = await readDays(app, from, plusDays(today, ahead), v.stays, v.culture, texts, false);
    // Weeks counted from today (its week first, then a week back, a week ahead, ...).
    const weeks = new Map<number, DayRow[]>();
    days.forEach((d, i) => {
      if (d.items !== null) return;
      const week = Math.floor((i - back) / 7);
      weeks.set(week, [...(weeks.get(week) ?? []), d]);
    });
    for (const week of [...weeks.keys()].sort((a, b) => Math.abs(a + 0.25) - Math.abs(b + 0.25))) {
      const stale = weeks.get(week)!;
      const answer = await makeDays(app, stale[0]!.day, stale[stale.length - 1]!.day, v.stays, t, v.culture, texts, stale);
      if (answer.truncated) for (const d of stale) await makeDays(app, d.day, d.day, v.stays, t, v.culture, texts, [d]);
      made += stale.length;
    }
  }
  return made;
}
