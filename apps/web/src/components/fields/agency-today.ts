import { agencyToday } from '../../lib/agency-clock.ts';

/**
 * The calendars' mark for today: the agency's today (its clock), not the device's. Given to a date
 * picker as `getDayProps`; the `agency-today` class is drawn in app.css. Mantine's own
 * `highlightToday` would mark the device's date, a day off for a laptop left on another zone.
 */
export function markAgencyToday(date: string): { className?: string } {
  return date.slice(0, 10) === agencyToday() ? { className: 'agency-today' } : {};
}
