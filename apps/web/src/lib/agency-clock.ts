/**
 * The agency's clock. The API's dates and date-times are the agency's wall clock (its time zone,
 * Europe/Athens by default, from GET /api/config), so "today", "now" and "is it late" are read on
 * that clock too, not on the device's: an agent abroad, or a laptop left on another zone, sees the
 * same today as the office and the server.
 */
const KEY = 'crm.timeZone';
const DEFAULT_ZONE = 'Europe/Athens';

function valid(zone: unknown): zone is string {
  if (typeof zone !== 'string' || !zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function stored(): string {
  try {
    const z = localStorage.getItem(KEY);
    return valid(z) ? z : DEFAULT_ZONE;
  } catch {
    return DEFAULT_ZONE;
  }
}

let zone: string | null = null;
let parts: Intl.DateTimeFormat | null = null;

/** The agency's time zone: the server's, kept from the last start. */
export const agencyZone = () => (zone ??= stored());

/** Set from GET /api/config on every start; kept for the next one. */
export function setAgencyZone(next: unknown): void {
  if (!valid(next) || next === agencyZone()) return;
  zone = next;
  parts = null;
  try {
    localStorage.setItem(KEY, next);
  } catch {
    // Storage disabled: the default until the server answers next time.
  }
}

/** A moment as the API writes it: YYYY-MM-DDTHH:mm:ss on the agency's clock. */
export function agencyDateTime(at: Date | number = Date.now()): string {
  parts ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: agencyZone(),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const p: Record<string, string> = {};
  for (const { type, value } of parts.formatToParts(at)) p[type] = value;
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
