import { fieldError } from '../../lib/errors.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function offsetMs(at: number, timeZone: string): number {
  let f = formatters.get(timeZone);
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
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
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
  let at = wall - offsetMs(wall, timeZone);
  at = wall - offsetMs(at, timeZone);
  return new Date(at);
}

/** The day after a 'YYYY-MM-DD' date. */
export function nextDay(date: string): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
