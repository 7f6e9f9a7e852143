/**
 * The agency's clock. The API's dates and date-times are the agency's wall clock (its time zone,
 * Europe/Athens by default, from GET /api/config), so "today", "now" and "is it late" are read on
 * that clock too, not on the device's: an agent abroad, or a laptop left on another zone, sees the
 * same today as the office and the server.
 */
const KEY = 'crm.timeZone';
const CLOCK_KEY = 'crm.clock';
const DEFAULT_ZONE = 'Europe/Athens';

/** The zone's offsets as /api/config sends them (`clock`): from `from` on, `offsetMinutes` ahead of UTC, the last one until `until`. */
export type AgencyClock = { until: number; periods: { from: number; offsetMinutes: number }[] };

function valid(zone: unknown): zone is string {
  if (typeof zone !== 'string' || !zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function isClock(c: unknown): c is AgencyClock {
  const k = c as AgencyClock | null;
  return !!k && typeof k.until === 'number' && Array.isArray(k.periods) && k.periods.length > 0 && k.periods.every((p) => typeof p?.from === 'number' && typeof p.offsetMinutes === 'number');
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function keep(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage disabled: the default until the server answers next time.
  }
}

/** The offsets kept by the last start, when they are the kept zone's. */
function storedClock(): AgencyClock | null {
  try {
    const c = JSON.parse(read(CLOCK_KEY) ?? 'null') as (AgencyClock & { zone?: string }) | null;
    return isClock(c) && c.zone === agencyZone() ? c : null;
  } catch {
    return null;
  }
}

let zone: string | null = null;
let clock: AgencyClock | null | undefined;
let parts: Intl.DateTimeFormat | null = null;

/**
 * The agency's time zone: the server's, kept from the last start. What is kept is checked only when
 * it is used through Intl (`formatter`): checking costs the time-zone data's first load.
 */
export const agencyZone = () => (zone ??= read(KEY) || DEFAULT_ZONE);

/**
 * Set from GET /api/config on every start, with the zone's offsets; both kept for the next start.
 * A zone that comes with its offsets was worked out by the server, so it exists; one without them
 * is checked, and a zone that does not exist is ignored.
 */
export function setAgencyZone(next: unknown, offsets?: unknown): void {
  const withClock = isClock(offsets);
  if (typeof next !== 'string' || !next || (!withClock && !valid(next))) return;
  if (next !== agencyZone()) {
    zone = next;
    parts = null;
    keep(KEY, next);
  }
  clock = withClock ? offsets : null;
  if (withClock) keep(CLOCK_KEY, JSON.stringify({ zone: next, ...offsets }));
}

/** The agency's offset from UTC at a moment (minutes), from the server's periods; undefined outside them. */
function offsetAt(at: number): number | undefined {
  if (clock === undefined) clock = storedClock();
  if (!clock || at >= clock.until || at < clock.periods[0]!.from) return undefined;
  let found = clock.periods[0]!.offsetMinutes;
  for (const p of clock.periods) {
    if (p.from > at) break;
    found = p.offsetMinutes;
  }
  return found;
}

/** The Intl formatter of the agency's zone, for a moment outside the server's periods (the zone kept is checked here). */
function formatter(): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
  if (!parts) {
    try {
      parts = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: agencyZone() });
    } catch {
      zone = DEFAULT_ZONE;
      parts = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: DEFAULT_ZONE });
    }
  }
  return parts;
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** A moment as the API writes it: YYYY-MM-DDTHH:mm:ss on the agency's clock. */
export function agencyDateTime(at: Date | number = Date.now()): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  const offset = offsetAt(ms);
  if (offset !== undefined) {
    const d = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  }
  const p: Record<string, string> = {};
  for (const { type, value } of formatter().formatToParts(ms)) p[type] = value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** Today on the agency's clock, as the API writes dates (YYYY-MM-DD). */
export const agencyToday = () => agencyDateTime().slice(0, 10);

/** Today on the agency's clock as a date to compute with (midnight of that day on the device's calendar). */
export function agencyTodayDate(): Date {
  const [y, m, d] = agencyToday().split('-').map(Number);
  return new Date(y!, m! - 1, d!);
}

/** Whether an API date or date-time (the agency's clock, YYYY-MM-DD[THH:mm:ss]) has passed on that clock. */
export const isPast = (s: string | null | undefined) => !!s && s < agencyDateTime();
