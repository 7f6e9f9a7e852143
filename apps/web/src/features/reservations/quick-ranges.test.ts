import { describe, expect, it } from 'vitest';
import { quickRange } from './quick-ranges.ts';

describe("the reservations list's quick date ranges", () => {
  // Thursday 26 November 2026.
  const thursday = new Date(2026, 10, 26);
  it('reads today, this week from Monday, the next seven days and this month', () => {
    expect(quickRange('today', thursday)).toEqual({ startDate: '2026-11-26', endDate: '2026-11-26' });
    expect(quickRange('week', thursday)).toEqual({ startDate: '2026-11-23', endDate: '2026-11-29' });
    expect(quickRange('next7', thursday)).toEqual({ startDate: '2026-11-26', endDate: '2026-12-02' });
    expect(quickRange('month', thursday)).toEqual({ startDate: '2026-11-01', endDate: '2026-11-30' });
  });
  it('counts a Sunday in the week that began the Monday before, and a leap February whole', () => {
    expect(quickRange('week', new Date(2026, 10, 29))).toEqual({ startDate: '2026-11-23', endDate: '2026-11-29' });
    expect(quickRange('week', new Date(2026, 10, 30))).toEqual({ startDate: '2026-11-30', endDate: '2026-12-06' });
    expect(quickRange('month', new Date(2028, 1, 10))).toEqual({ startDate: '2028-02-01', endDate: '2028-02-29' });
  });
});
