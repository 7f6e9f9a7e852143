import { describe, expect, it } from 'vitest';
import { fromLocalDateTime, toLocalDateTime, zonePeriods } from './dates.ts';
import { AppError } from './errors.ts';

const ATHENS = 'Europe/Athens';
const refused = (s: string) => {
  try {
    fromLocalDateTime(s, ATHENS, 'transactionDate');
  } catch (e) {
    return e instanceof AppError ? Object.keys(e.fieldErrors ?? {}) : ['not an AppError'];
  }
  return [];
};

describe("the agency's wall clock", () => {
  it('reads a wall time into the moment it names, on both sides of the clock changes', () => {
    for (const s of ['2026-03-29T02:59:59', '2026-03-29T04:00:00', '2026-10-25T03:30:00', '2026-07-01T12:00:00', '2026-12-31T23:59:59']) {
      expect(toLocalDateTime(fromLocalDateTime(s, ATHENS, 'd'), ATHENS)).toBe(s);
    }
    expect(fromLocalDateTime('2026-07-01T12:00:00', ATHENS, 'd').toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(fromLocalDateTime('2026-01-15', ATHENS, 'd').toISOString()).toBe('2026-01-14T22:00:00.000Z');
  });

  it('refuses a time the spring change skips, and impossible dates, naming the field', () => {
    expect(refused('2026-03-29T03:30:00')).toEqual(['transactionDate']);
    expect(refused('2026-03-29T03:00:00')).toEqual(['transactionDate']);
    expect(refused('2026-02-30T10:00:00')).toEqual(['transactionDate']);
    expect(refused('2026-03-29T02:30:00')).toEqual([]);
  });
});

describe("a zone's periods, as the web app reads the agency's clock from them", () => {
  const offsetAt = (periods: { from: number; offsetMinutes: number }[], at: number) => periods.filter((p) => p.from <= at).at(-1)!.offsetMinutes;
  it('name each change of offset at its quarter hour, and agree with the zone at every hour of two years', () => {
    for (const zone of ['Europe/Athens', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC']) {
      const start = Date.UTC(2026, 0, 1);
      const end = Date.UTC(2028, 0, 1);
      const periods = zonePeriods(zone, start, end);
      for (let at = start; at < end; at += 3_600_000) expect(offsetAt(periods, at), `${zone} ${new Date(at).toISOString()}`).toBe(toOffset(zone, at));
      // Each change, to the quarter hour: a quarter hour before it is still the old offset.
      for (const [i, p] of periods.entries()) if (i > 0) expect(toOffset(zone, p.from - 900_000)).toBe(periods[i - 1]!.offsetMinutes);
    }
    const athens = zonePeriods('Europe/Athens', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
    expect(athens.map((p) => [new Date(p.from).toISOString(), p.offsetMinutes])).toEqual([
      ['2026-01-01T00:00:00.000Z', 120],
      ['2026-03-29T01:00:00.000Z', 180],
      ['2026-10-25T01:00:00.000Z', 120],
    ]);
    // Lord Howe moves its clock half an hour.
    expect(new Set(zonePeriods('Australia/Lord_Howe', Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1)).map((p) => p.offsetMinutes))).toEqual(new Set([630, 660]));
  });
});

/** The zone's offset in minutes, read from its wall clock as Intl writes it. */
function toOffset(zone: string, at: number): number {
  const wall = toLocalDateTime(new Date(at), zone)!;
  return Math.round((Date.parse(`${wall}Z`) - Math.floor(at / 1000) * 1000) / 60_000);
}
