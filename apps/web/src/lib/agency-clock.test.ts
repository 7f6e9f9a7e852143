import { afterEach, describe, expect, it, vi } from 'vitest';
import { markAgencyToday } from '../components/fields/agency-today.ts';
import { agencyDateTime, agencyToday, agencyZone, isPast, setAgencyZone } from './agency-clock.ts';

// 23:30 UTC on 24 November: already the 25th in Athens (UTC+2), still the 24th in New York.
const LATE_EVENING_UTC = Date.UTC(2026, 10, 24, 23, 30, 0);

// The browser's storage, in memory (the unit tests run in Node, which has none).
const storage = new Map<string, string>();
globalThis.localStorage ??= {
  getItem: (k: string) => storage.get(k) ?? null,
  setItem: (k: string, v: string) => void storage.set(k, String(v)),
  removeItem: (k: string) => void storage.delete(k),
  clear: () => storage.clear(),
  key: (i: number) => [...storage.keys()][i] ?? null,
  get length() {
    return storage.size;
  },
} as Storage;

describe('the agency clock', () => {
  afterEach(() => {
    vi.useRealTimers();
    setAgencyZone('Europe/Athens');
  });

  it('reads today and now in the agency zone, whatever the device zone', () => {
    expect(agencyZone()).toBe('Europe/Athens');
    expect(agencyDateTime(LATE_EVENING_UTC)).toBe('2026-11-25T01:30:00');
    vi.useFakeTimers({ now: LATE_EVENING_UTC });
    expect(agencyToday()).toBe('2026-11-25');
    setAgencyZone('America/New_York');
    expect(agencyToday()).toBe('2026-11-24');
    expect(agencyDateTime()).toBe('2026-11-24T18:30:00');
  });

  it("reads the agency's now from the server's offsets when it has them, as Intl would, and through Intl outside them", () => {
    // Athens from 1 March 2026 to 1 March 2027: UTC+2, +3 from 29 March 01:00 UTC, +2 again from 25 October 01:00 UTC.
    const periods = [
      { from: Date.UTC(2026, 2, 1), offsetMinutes: 120 },
      { from: Date.UTC(2026, 2, 29, 1), offsetMinutes: 180 },
      { from: Date.UTC(2026, 9, 25, 1), offsetMinutes: 120 },
    ];
    const until = Date.UTC(2027, 2, 1);
    const byIntl = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Athens', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    const intl = (at: number) => {
      const p = Object.fromEntries(byIntl.formatToParts(at).map((x) => [x.type, x.value]));
      return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
    };
    setAgencyZone('Europe/Athens', { until, periods });
    for (let at = Date.UTC(2026, 2, 1) + 1234; at < until; at += 3_600_000 - 7_000) expect(agencyDateTime(at)).toBe(intl(at));
    // Around the spring change: 02:59:59 then 04:00:00 on the agency's clock.
    expect(agencyDateTime(Date.UTC(2026, 2, 29, 0, 59, 59))).toBe('2026-03-29T02:59:59');
    expect(agencyDateTime(Date.UTC(2026, 2, 29, 1, 0, 0))).toBe('2026-03-29T04:00:00');
    // The offsets are what is used: a clock that says UTC+5 is read as UTC+5 while it lasts ...
    setAgencyZone('Europe/Athens', { until, periods: [{ from: Date.UTC(2026, 2, 1), offsetMinutes: 300 }] });
    expect(agencyDateTime(LATE_EVENING_UTC)).toBe('2026-11-25T04:30:00');
    // ... and Intl outside them.
    expect(agencyDateTime(Date.UTC(2027, 5, 1, 12))).toBe('2027-06-01T15:00:00');
    expect(agencyDateTime(Date.UTC(2026, 1, 1, 12))).toBe('2026-02-01T14:00:00');
  });

  it("keeps the offsets for the next start, and uses them only for the zone they were worked out for", () => {
    const clock = { until: Date.UTC(2027, 2, 1), periods: [{ from: Date.UTC(2026, 2, 1), offsetMinutes: 300 }] };
    setAgencyZone('Europe/Athens', clock);
    expect(JSON.parse(localStorage.getItem('crm.clock')!)).toEqual({ zone: 'Europe/Athens', ...clock });
    setAgencyZone('America/New_York');
    // No offsets with the new zone: Intl, and the kept offsets of Athens are not New York's.
    expect(agencyDateTime(LATE_EVENING_UTC)).toBe('2026-11-24T18:30:00');
  });

  it('keeps the zone it had when the server names one that does not exist', () => {
    setAgencyZone('Mars/Olympus_Mons');
    expect(agencyZone()).toBe('Europe/Athens');
    setAgencyZone(undefined);
    expect(agencyZone()).toBe('Europe/Athens');
  });

  it('says a to-do is late by the agency clock', () => {
    vi.useFakeTimers({ now: LATE_EVENING_UTC });
    // 01:00 on the 25th in Athens has passed at 01:30 Athens time; 02:00 has not.
    expect(isPast('2026-11-25T01:00:00')).toBe(true);
    expect(isPast('2026-11-25T02:00:00')).toBe(false);
    expect(isPast('2026-11-24')).toBe(true);
    expect(isPast(null)).toBe(false);
  });

  it("frames the agency's today in a date picker, not the device's", () => {
    vi.useFakeTimers({ now: LATE_EVENING_UTC });
    expect(markAgencyToday('2026-11-25')).toEqual({ className: 'agency-today' });
    expect(markAgencyToday('2026-11-25 00:00:00')).toEqual({ className: 'agency-today' });
    expect(markAgencyToday('2026-11-24')).toEqual({});
    setAgencyZone('America/New_York');
    expect(markAgencyToday('2026-11-24')).toEqual({ className: 'agency-today' });
    expect(markAgencyToday('2026-11-25')).toEqual({});
  });
});
