import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { zonePeriods } from '../../lib/dates.ts';

const pad2 = (n: number) => String(n).padStart(2, '0');
const MINUTE = 60_000;

/**
 * A wall-clock time of the agency's zone as ical-generator takes one (its "TZDate" shape), written
 * as it is after `TZID=<zone>:` whatever zone the server process runs in. ical-generator writes a
 * zoned time from the fields of `withTimeZone(zone)`'s answer; a plain Date would answer the
 * process's zone there. This Date holds the wall clock in its UTC fields and answers them as its own.
 */
class WallClock extends Date {
  readonly internal: Date;
  constructor(local: string) {
    // `YYYY-MM-DDTHH:mm:ss`, the agency's wall clock (decision 027).
    super(Date.parse(`${local}Z`));
    this.internal = new Date(this.getTime());
  }
  withTimeZone(): WallClock {
    return this;
  }
  tzComponents() {
    return this;
  }
  override getFullYear() {
    return this.getUTCFullYear();
  }
  override getMonth() {
    return this.getUTCMonth();
  }
  override getDate() {
    return this.getUTCDate();
  }
  override getHours() {
    return this.getUTCHours();
  }
  override getMinutes() {
    return this.getUTCMinutes();
  }
  override getSeconds() {
    return this.getUTCSeconds();
  }
}

/** `YYYY-MM-DDTHH:mm:ss` plus minutes, as a wall clock (the end of an event). */
function plusMinutes(local: string, minutes: number): string {
  const d = new Date(Date.parse(`${local}Z`) + minutes * MINUTE);
  return d.toISOString().slice(0, 19);
}

const offsetText = (minutes: number) => {
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad2(Math.floor(a / 60))}${pad2(a % 60)}`;
};
const icsLocal = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '');

/**
 * The zone's VTIMEZONE for the days from `start` to `end` (epoch ms): one observance a period of
 * its clock (the server's own zone data, as `/api/config` sends the browser: decision 027), each
 * starting at its change's local time on the clock before it. No rule is guessed from the changes;
 * a reader needs none for the feed's own days.
 */
export function vtimezone(zone: string, start: number, end: number): string {
  const periods = zonePeriods(zone, start, end);
  const lowest = Math.min(...periods.map((p) => p.offsetMinutes));
  const lines = ['BEGIN:VTIMEZONE', `TZID:${zone}`];
  periods.forEach((p, i) => {
    const before = i === 0 ? p.offsetMinutes : periods[i - 1]!.offsetMinutes;
    const kind = p.offsetMinutes > lowest ? 'DAYLIGHT' : 'STANDARD';
    lines.push(`BEGIN:${kind}`, `DTSTART:${icsLocal(p.from + before * MINUTE)}`, `TZOFFSETFROM:${offsetText(before)}`, `TZOFFSETTO:${offsetText(p.offsetMinutes)}`, `END:${kind}`);
  });
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/** One event of the feed. */
export type FeedEvent = {
  uid: string;
  /** The agency's wall clock, `YYYY-MM-DDTHH:mm:ss`. */
  start: string;
  minutes: number;
  summary: string;
  location: string | null;
  description: string;
  url: string;
  /** The record's version: SEQUENCE goes up with each change. */
  sequence: number;
  lastModified: Date;
  created: Date;
};

export type Feed = { name: string; zone: string; prodHost: string; from: number; till: number; events: FeedEvent[] };

/** The calendar as iCalendar text (RFC 5545): every time with the agency zone's TZID and its VTIMEZONE. */
export function buildIcs(feed: Feed): string {
  const cal = ical({
    name: feed.name,
    prodId: { company: feed.prodHost, product: 'CRM', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    // A hint to clients that honour it (Apple's, Outlook's) to fetch it again within the hour.
    ttl: 60 * 60,
    // No calendar-wide zone: DTSTAMP, CREATED and LAST-MODIFIED stay in UTC (with Z), as RFC 5545 asks;
    // each event carries the agency's zone, and the generator writes its VTIMEZONE once.
    timezone: { name: null, generator: (zone) => vtimezone(zone, feed.from, feed.till) },
  });
  cal.x('X-WR-TIMEZONE', feed.zone);
  for (const e of feed.events) {
    cal.createEvent({
      id: e.uid,
      start: new WallClock(e.start),
      end: new WallClock(plusMinutes(e.start, e.minutes)),
      timezone: feed.zone,
      summary: e.summary,
      location: e.location,
      description: e.description,
      url: e.url,
      sequence: e.sequence,
      lastModified: e.lastModified,
      created: e.created,
      stamp: e.lastModified,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
