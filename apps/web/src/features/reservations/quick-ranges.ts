const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

export type QuickRange = 'today' | 'week' | 'next7' | 'month';
export const QUICK_RANGES: QuickRange[] = ['today', 'week', 'next7', 'month'];

/**
 * The days a booking manager asks for most (this week's arrivals, today's departures): today, this
 * week (Monday to Sunday, as Greece counts weeks), the next seven days from today, this month.
 */
export function quickRange(range: QuickRange, today: Date): { startDate: string; endDate: string } {
  const day = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
  switch (range) {
    case 'today':
      return { startDate: isoDay(today), endDate: isoDay(today) };
    case 'week': {
      const monday = day(today, -((today.getDay() + 6) % 7));
      return { startDate: isoDay(monday), endDate: isoDay(day(monday, 6)) };
    }
    case 'next7':
      return { startDate: isoDay(today), endDate: isoDay(day(today, 6)) };
    case 'month':
      return { startDate: isoDay(new Date(today.getFullYear(), today.getMonth(), 1)), endDate: isoDay(new Date(today.getFullYear(), today.getMonth() + 1, 0)) };
  }
}
