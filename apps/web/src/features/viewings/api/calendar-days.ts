import { isoDay } from '../../../lib/format.ts';
import { agencyTodayDate } from '../../../lib/agency-clock.ts';
import { readCookieState } from '../../../lib/list-state.ts';
import type { Picked } from '../../../components/search-picker.tsx';
import { calendarQuery } from './viewings.ts';

/** The calendar's days, shared by its screen and its route's loader (which asks for them while the screen's code loads). */
export type CalendarView = 'day' | 'week' | 'month';

/** The calendar's cookies: the view and the employee whose diary it shows (everyone when none). */
export const CALENDAR_VIEW_COOKIE = 'Calendar.view';
export const CALENDAR_EMPLOYEE_COOKIE = 'Calendar.employee';
/** Whether the calendar shows the short lets' check-ins and check-outs (a branch user has none to show). */
export const CALENDAR_STAYS_COOKIE = 'Calendar.stays';

export const iso = isoDay;
export const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
/** Monday of the week of `d`. */
const monday = (d: Date) => addDays(d, -((d.getDay() + 6) % 7));

/** The days a view shows around `anchor`: a day, a week from Monday, or the month's weeks. */
export function daysOf(view: CalendarView, anchor: Date): Date[] {
  if (view === 'day') return [anchor];
  if (view === 'week') return Array.from({ length: 7 }, (_, i) => addDays(monday(anchor), i));
  const first = monday(new Date(anchor.getFullYear(), anchor.getMonth(), 1));
  const last = addDays(monday(new Date(anchor.getFullYear(), anchor.getMonth() + 1, 0)), 6);
  const n = Math.round((last.getTime() - first.getTime()) / 86400000) + 1;
  return Array.from({ length: n }, (_, i) => addDays(first, i));
}

/**
 * A day's entries in the order the calendar lists them: the appointments (viewings, planned
 * activities) first, by their time, then the short lets' check-outs and check-ins. The calendar's
 * answer is by time, where a stay without an hour is at midnight: it came first and, three to a day
 * in the month, pushed the day's viewings behind "+N more".
 */
export function inDayOrder<T extends { kind: string }>(events: readonly T[]): T[] {
  const stay = (e: T) => e.kind === 'checkIn' || e.kind === 'checkOut';
  return [...events.filter((e) => !stay(e)), ...events.filter(stay)];
}

/** "2026-11-23" → that local day; anything else → null. */
export function parseDay(s: string | null): Date | null {
  const m = s ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) : null;
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return iso(d) === s ? d : null;
}

/** What the calendar at this address (?date=) shows first, as its cookies stand. */
export function calendarFirstQuery(search: URLSearchParams) {
  const view = readCookieState<CalendarView>(CALENDAR_VIEW_COOKIE, 'week');
  const employee = readCookieState<Picked>(CALENDAR_EMPLOYEE_COOKIE, null);
  const stays = readCookieState<boolean>(CALENDAR_STAYS_COOKIE, true);
  const days = daysOf(view, parseDay(search.get('date')) ?? agencyTodayDate());
  return calendarQuery(iso(days[0]!), iso(days[days.length - 1]!), employee?.id ?? null, stays);
}
