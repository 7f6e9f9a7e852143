import { afterEach, describe, expect, it, vi } from 'vitest';
import { markAgencyToday } from '../components/fields/agency-today.ts';
import { agencyDateTime, agencyToday, agencyZone, isPast, setAgencyZone } from './agency-clock.ts';

// 23:30 UTC on 24 November: already the 25th in Athens (UTC+2), still the 24th in New York.
const LATE_EVENING_UTC = Date.UTC(2026, 10, 24, 23, 30, 0);

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
