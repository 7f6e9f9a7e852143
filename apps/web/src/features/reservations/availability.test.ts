import { describe, expect, it } from 'vitest';
import type { TAvailabilityStay } from '@crm/contract';
import { availabilityWindow, nightsOf, rowCells, stepAnchor } from './availability.ts';

const stay = (id: number, checkIn: string, checkOut: string): TAvailabilityStay => ({ id, checkIn, checkOut, reservationStage: 3, stage: 'Confirmed', rowClass: 'confirmed', clientDisplayName: `Guest ${id}` });
const drawn = (cells: ReturnType<typeof rowCells>) =>
  cells.map((c) => (c.kind === 'free' ? c.night.slice(8) : `${c.night.slice(8)}#${c.stay.id}x${c.span}${c.before ? '<' : ''}${c.after ? '>' : ''}`));

describe('the availability window', () => {
  it('is the month of the day chosen, or 14 or 30 nights from it', () => {
    expect(availabilityWindow('month', new Date(2028, 1, 17))).toEqual({ from: '2028-02-01', days: 29 });
    expect(availabilityWindow('month', new Date(2027, 11, 31))).toEqual({ from: '2027-12-01', days: 31 });
    expect(availabilityWindow('14', new Date(2027, 11, 25))).toEqual({ from: '2027-12-25', days: 14 });
    expect(nightsOf('2027-12-25', 14).slice(5, 9)).toEqual(['2027-12-30', '2027-12-31', '2028-01-01', '2028-01-02']);
  });
  it('steps a month, or its own length', () => {
    expect(stepAnchor('month', new Date(2027, 0, 31), 1)).toEqual(new Date(2027, 1, 1));
    expect(stepAnchor('month', new Date(2027, 0, 31), -1)).toEqual(new Date(2026, 11, 1));
    expect(stepAnchor('30', new Date(2027, 0, 31), 1)).toEqual(new Date(2027, 2, 2));
    expect(stepAnchor('14', new Date(2027, 0, 10), -1)).toEqual(new Date(2026, 11, 27));
  });
});

describe("a property's row", () => {
  const nights = nightsOf('2026-12-01', 31);
  it('draws each stay once across its nights, cut at the window with the side it goes on, and every other night free', () => {
    const cells = rowCells(nights, [stay(4, '2026-12-31', '2027-01-03'), stay(1, '2026-11-28', '2026-12-03'), stay(2, '2026-12-10', '2026-12-13'), stay(3, '2026-12-13', '2026-12-15')]);
    expect(drawn(cells)).toEqual([
      '01#1x2<',
      '03', '04', '05', '06', '07', '08', '09',
      '10#2x3',
      '13#3x2',
      ...Array.from({ length: 16 }, (_, i) => String(15 + i)),
      '31#4x1>',
    ]);
    // Every night of the window is in exactly one cell.
    expect(cells.reduce((n, c) => n + (c.kind === 'free' ? 1 : c.span), 0)).toBe(31);
  });
  it('draws a stay longer than the window as one cell over all of it', () => {
    expect(drawn(rowCells(nightsOf('2026-12-01', 14), [stay(7, '2026-11-20', '2027-02-01')]))).toEqual(['01#7x14<>']);
  });
  it('never draws a night twice', () => {
    const cells = rowCells(nightsOf('2026-12-01', 5), [stay(1, '2026-12-01', '2026-12-04'), stay(2, '2026-12-02', '2026-12-06')]);
    expect(drawn(cells)).toEqual(['01#1x3', '04#2x2<']);
  });
});
