import { describe, expect, it } from 'vitest';
import { fromLocalDateTime, toLocalDateTime } from './dates.ts';
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
