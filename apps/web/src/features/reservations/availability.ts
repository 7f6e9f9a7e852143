import type { TAvailabilityStay } from '@crm/contract';

/** The windows of the availability grid: a calendar month, or 14 or 30 nights from a day. */
export type AvailabilityMode = 'month' | '14' | '30';
export const AVAILABILITY_MODES: AvailabilityMode[] = ['month', '14', '30'];

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const day = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);

/** The nights a window shows around `anchor`: its month, or 14 / 30 nights from it. */
export function availabilityWindow(mode: AvailabilityMode, anchor: Date): { from: string; days: number } {
  if (mode === 'month') return { from: isoDay(new Date(anchor.getFullYear(), anchor.getMonth(), 1)), days: new Date(anchor.getFullYear(), anchor.getMonth() + 1, 0).getDate() };
  return { from: isoDay(anchor), days: Number(mode) };
}

/** Where Previous / Next lead: the month before or after, or the window's length back or on. */
export function stepAnchor(mode: AvailabilityMode, anchor: Date, dir: 1 | -1): Date {
  if (mode === 'month') return new Date(anchor.getFullYear(), anchor.getMonth() + dir, 1);
  return day(anchor, dir * Number(mode));
}

/** The window's nights, as days ("2026-12-01" …). */
export function nightsOf(from: string, days: number): string[] {
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  return Array.from({ length: days }, (_, i) => isoDay(new Date(y, m - 1, d + i)));
}

/**
 * A property's row of the grid, night by night: a free night is a cell of its own; the nights a
 * stay holds in the window are one cell across them, which says whether the stay began before the
 * window or goes on after it. A stay sharing a night with one drawn before it (the server never
 * answers such, but a cell never draws a night twice) is drawn from its first night still free.
 */
export type AvailabilityCell = { kind: 'free'; night: string } | { kind: 'stay'; night: string; span: number; stay: TAvailabilityStay; before: boolean; after: boolean };
export function rowCells(nights: string[], stays: TAvailabilityStay[]): AvailabilityCell[] {
  const cells: AvailabilityCell[] = [];
  const sorted = [...stays].sort((a, b) => a.checkIn.localeCompare(b.checkIn) || a.id - b.id);
  let i = 0;
  while (i < nights.length) {
    const night = nights[i]!;
    const stay = sorted.find((s) => s.checkIn <= night && night < s.checkOut);
    if (!stay) {
      cells.push({ kind: 'free', night });
      i++;
      continue;
    }
    let span = 1;
    while (i + span < nights.length && nights[i + span]! < stay.checkOut) span++;
    cells.push({ kind: 'stay', night, span, stay, before: stay.checkIn < night, after: stay.checkOut > nextOf(nights[i + span - 1]!) });
    i += span;
  }
  return cells;
}

const parse = (s: string) => {
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
};
/** The day after `s`. */
const nextOf = (s: string) => isoDay(day(parse(s), 1));

/** "2026-11-23" → that local day; anything else → null. */
export function parseDay(s: string | null): Date | null {
  const m = s ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) : null;
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return isoDay(d) === s ? d : null;
}

/** The grid's period and page size (cookie "ReservationAvailability.view"). */
export type AvailabilityView = { mode: AvailabilityMode; perPage: number };
export const AVAILABILITY_VIEW_COOKIE = 'ReservationAvailability.view';
export const AVAILABILITY_VIEW: AvailabilityView = { mode: 'month', perPage: 20 };
/** A kept view as the grid can show it: an unknown period or page size (an old or edited cookie) falls back to the default. */
export const keptView = (v: AvailabilityView, sizes: readonly number[]): AvailabilityView => ({
  mode: AVAILABILITY_MODES.includes(v.mode) ? v.mode : AVAILABILITY_VIEW.mode,
  perPage: sizes.includes(v.perPage) ? v.perPage : AVAILABILITY_VIEW.perPage,
});
