import { fieldError } from './errors.ts';

/** A moment as YYYY-MM-DDTHH:mm:ss in the agency's time zone (the API's date-time format). */
export function toLocalDateTime(d: Date | null | undefined, timeZone: string): string | null {
  if (!d) return null;
  let f = zoneFormatters.get(timeZone);
  if (!f) {
    f = makeStampFormatter(timeZone);
    zoneFormatters.set(timeZone, f);
  }
  return f(d.getTime());
}
const zoneFormatters = new Map<string, (ms: number | null | undefined) => string | null>();

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far the zone's wall clock is ahead of UTC at a moment (ms, whole seconds). */
export function zoneOffsetMs(at: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, f);
  }
  const p: Record<string, string> = {};
  for (const x of f.formatToParts(new Date(at))) p[x.type] = x.value;
  const asUtc = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * A local date-time of the agency ('YYYY-MM-DDTHH:mm:ss' or 'YYYY-MM-DD') as a moment. An
 * impossible date (2024-02-30) is a field error on `field`.
 */
export function fromLocalDateTime(s: string, timeZone: string, field: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?$/.exec(s);
  if (!m) throw fieldError(field, 'validation.format');
  const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  const wall = Date.UTC(y!, mo! - 1, d!, h, mi, se);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) {
    throw fieldError(field, 'validation.format');
  }
  // The offset at the wall time read as UTC is right except within an hour of a DST change; one
  // more round settles it.
  let at = wall - zoneOffsetMs(wall, timeZone);
  at = wall - zoneOffsetMs(at, timeZone);
  // A time the clocks skip (the spring change: 03:00-03:59 on the last Sunday of March in Athens)
  // does not exist on the agency's clock: refused, not moved an hour on without a word.
  if (m[4] !== undefined && toLocalDateTime(new Date(at), timeZone) !== s) throw fieldError(field, 'validation.format');
  return new Date(at);
}

/** The day after a 'YYYY-MM-DD' date. */
export function nextDay(date: string): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const QUARTER_HOUR = 15 * 60 * 1000;
const DAY = 24 * 3600 * 1000;

/**
 * A formatter of moments (epoch ms) as YYYY-MM-DDTHH:mm:ss in a time zone, for long lists: the
 * same output as lib/dates toLocalDateTime, without an Intl call per value. The zone's offset is
 * looked up per UTC day (when it is the same at both ends, the day has no change), else per
 * quarter hour (offsets change only on quarter-hour boundaries). What was looked up is kept for the
 * zone, across requests (a zone's rules do not change while the process runs), up to a bound.
 */
const stampCaches = new Map<string, { days: Map<number, number | null>; quarters: Map<number, number> }>();
const STAMP_CACHE_MAX = 50_000;

export function makeStampFormatter(timeZone: string) {
  const offsetOf = (at: number) => zoneOffsetMs(at, timeZone) - (at - Math.floor(at / 1000) * 1000);
  let cache = stampCaches.get(timeZone);
  if (!cache || cache.days.size + cache.quarters.size > STAMP_CACHE_MAX) {
    cache = { days: new Map(), quarters: new Map() };
    stampCaches.set(timeZone, cache);
  }
  const { days, quarters } = cache;
  const offsetAt = (ms: number) => {
    const day = Math.floor(ms / DAY);
    let off = days.get(day);
    if (off === undefined) {
      const first = offsetOf(day * DAY);
      off = first === offsetOf((day + 1) * DAY - QUARTER_HOUR) ? first : null;
      days.set(day, off);
    }
    if (off !== null) return off;
    const q = Math.floor(ms / QUARTER_HOUR);
    let qOff = quarters.get(q);
    if (qOff === undefined) {
      qOff = offsetOf(q * QUARTER_HOUR);
      quarters.set(q, qOff);
    }
    return qOff;
  };
  return (ms: number | null | undefined): string | null => {
    if (ms === null || ms === undefined) return null;
    const d = new Date(Math.floor(ms) + offsetAt(ms));
    return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
  };
}

/** A timestamptz as epoch milliseconds (a float8: cheap to send and to parse). */

/** One stretch of a zone's clock: from `from` (epoch ms) on, the wall clock is `offsetMinutes` ahead of UTC. */
export type ZonePeriod = { from: number; offsetMinutes: number };

/**
 * The zone's offsets from `start` to `end` (epoch ms): the offset at `start`, then one period per
 * change (a daylight-saving change, or a zone's rule change). Changes fall on a quarter hour; a day
 * is checked at its two ends, and a day that differs is narrowed to its quarter hour by halving.
 */
export function zonePeriods(timeZone: string, start: number, end: number): ZonePeriod[] {
  const minutes = (at: number) => Math.round(zoneOffsetMs(at, timeZone) / 60_000);
  const first = Math.floor(start / QUARTER_HOUR) * QUARTER_HOUR;
  const periods: ZonePeriod[] = [{ from: first, offsetMinutes: minutes(first) }];
  for (let day = first; day < end; day += DAY) {
    const last = periods[periods.length - 1]!.offsetMinutes;
    const next = Math.min(day + DAY, end);
    if (minutes(next) === last) continue;
    // The first quarter hour in (day, next] on the new offset.
    let lo = day / QUARTER_HOUR;
    let hi = next / QUARTER_HOUR;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (minutes(mid * QUARTER_HOUR) === last) lo = mid;
      else hi = mid;
    }
    periods.push({ from: hi * QUARTER_HOUR, offsetMinutes: minutes(hi * QUARTER_HOUR) });
  }
  return periods;
}

/** Today in the agency's time zone, YYYY-MM-DD. */
export const agencyToday = (timeZone: string, at = new Date()) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
