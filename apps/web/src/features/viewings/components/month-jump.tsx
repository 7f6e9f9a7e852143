import { Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asHeading } from '../../../lib/format.ts';
import { iso } from '../api/calendar-days.ts';
import './month-jump.css';

/** The id of a day's heading in the phone's month list, which the month's grid brings into view. */
export const agendaHeadingId = (day: string) => `calendar-agenda-${day}`;

/**
 * The month on a phone, above its list of days: the month's days in seven columns (the week from
 * Monday, as the calendar's), each a button with its number of entries. Pressing a day brings its
 * part of the list into view and puts the focus on its heading; a day with nothing planned says so
 * under the grid.
 */
export function MonthJump({ days, month, today, locale, counts }: { days: Date[]; month: number; today: string; locale: string; counts: ReadonlyMap<string, number> }) {
  const { t } = useTranslation();
  // The free day last pressed (its date), until another day is pressed or the month changes.
  const [free, setFree] = useState<string | null>(null);
  const full = (d: Date) => asHeading(d.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long' }));

  const go = (d: Date) => {
    const day = iso(d);
    const heading = document.getElementById(agendaHeadingId(day));
    if (!heading) {
      setFree(day);
      return;
    }
    setFree(null);
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    heading.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
    heading.focus({ preventScroll: true });
  };

  const freeDay = free && !counts.get(free) ? days.find((d) => iso(d) === free && d.getMonth() === month) : undefined;
  return (
    <div>
      <div className="calendar-jump" role="group" aria-label={t('calendar.jumpLabel')} data-testid="calendar-jump">
        {/* The columns' weekdays: each button names its own day, so these are for the eye only. */}
        {days.slice(0, 7).map((d) => (
          <Text key={`h${d.getDay()}`} size="xs" c="dimmed" ta="center" aria-hidden="true" className="calendar-jump-weekday">
            {asHeading(d.toLocaleDateString(locale, { weekday: 'short' }))}
          </Text>
        ))}
        {days.map((d) => {
          const day = iso(d);
          if (d.getMonth() !== month) return <span key={day} aria-hidden="true" />;
          const count = counts.get(day) ?? 0;
          return (
            <UnstyledButton
              key={day}
              type="button"
              className="calendar-jump-day"
              data-busy={count > 0 || undefined}
              data-today={day === today || undefined}
              data-picked={(freeDay && day === free) || undefined}
              aria-current={day === today ? 'date' : undefined}
              onClick={() => go(d)}
              data-testid="calendar-jump-day"
              data-day={day}
            >
              {/* Read out whole ("Tuesday 1 December, 12 entries"); the number and the count are for the eye. */}
              <VisuallyHidden>{count ? t('calendar.jumpDay', { date: full(d), count }) : t('calendar.jumpDayFree', { date: full(d) })}</VisuallyHidden>
              <span className="calendar-jump-number" aria-hidden="true">
                {d.getDate()}
              </span>
              <span className="calendar-jump-count" aria-hidden="true">
                {count ? count : ''}
              </span>
            </UnstyledButton>
          );
        })}
      </div>
      <Text size="sm" mt={6} role="status" data-testid="calendar-day-free">
        {freeDay ? t('calendar.dayFree', { date: full(freeDay) }) : ''}
      </Text>
    </div>
  );
}
