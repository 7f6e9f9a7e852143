import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { accounts, users } from '../../db/schema/index.ts';

/**
 * SQL pieces shared by the account lists, the record and the search: who created / last changed a
 * record (the person's account name when the sign-in belongs to one, else the sign-in's user name),
 * dates in the agency's time zone, and search patterns in the search normal form.
 */
export const creator = alias(users, 'cu');
export const creatorAccount = alias(accounts, 'cua');
export const modifier = alias(users, 'mu');
export const modifierAccount = alias(accounts, 'mua');

/** The joins behind createdByName / modifiedByName, for statements written as SQL. */
export const stampJoins = sql`
  left join ${users} as ${sql.identifier('cu')} on ${creator.id} = ${accounts.createdBy}
  left join ${accounts} as ${sql.identifier('cua')} on ${creatorAccount.id} = ${creator.accountId}
  left join ${users} as ${sql.identifier('mu')} on ${modifier.id} = ${accounts.modifiedBy}
  left join ${accounts} as ${sql.identifier('mua')} on ${modifierAccount.id} = ${modifier.accountId}`;

export const createdByName = sql<string | null>`coalesce(${creatorAccount.displayName}, ${creator.username})`;
export const modifiedByName = sql<string | null>`coalesce(${modifierAccount.displayName}, ${modifier.username})`;

/** The start of a local calendar day (YYYY-MM-DD) as a moment. */
export const localDayStart = (day: string, timeZone: string) => sql`(${day}::date::timestamp at time zone ${timeZone})`;
/** The start of the day after a local calendar day: `created_on < this` includes the whole day. */
export const localDayEnd = (day: string, timeZone: string) => sql`((${day}::date + 1)::timestamp at time zone ${timeZone})`;

/** Escapes LIKE wildcards of user input (backslash is PostgreSQL's default LIKE escape). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

/** `%fragment%` of user text in the search normal form (lower case, no accents, final sigma folded). */
export const containsPattern = (text: string) => sql`'%' || crm_search_norm(${escapeLike(text)}) || '%'`;
export const startsPattern = (text: string) => sql`crm_search_norm(${escapeLike(text)}) || '%'`;
/** Any word of the normalised text starts with the fragment. */
export const wordStartsPattern = (text: string) => sql`'% ' || crm_search_norm(${escapeLike(text)}) || '%'`;

/** The digits of text that looks like a phone number ("+30 694-123 45 67"), else null. */
export function phoneDigits(text: string): string | null {
  if (!/^[\d\s+()./-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  return digits.length >= 3 ? digits : null;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const QUARTER_HOUR = 15 * 60 * 1000;
const DAY = 24 * 3600 * 1000;

/**
 * A formatter of moments (epoch ms) as YYYY-MM-DDTHH:mm:ss in a time zone, for long lists: the
 * same output as lib/dates toLocalDateTime, without an Intl call per value. The zone's offset is
 * looked up per UTC day (when it is the same at both ends, the day has no change), else per
 * quarter hour (offsets change only on quarter-hour boundaries).
 */
export function makeStampFormatter(timeZone: string) {
  const dtf = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const offsetOf = (at: number) => {
    const p: Record<string, string> = {};
    for (const x of dtf.formatToParts(new Date(at))) p[x.type] = x.value;
    return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - at;
  };
  const days = new Map<number, number | null>();
  const quarters = new Map<number, number>();
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
export const epochMs = (col: SQL | typeof accounts.createdOn) => sql<number>`(extract(epoch from ${col}) * 1000)::float8`;
