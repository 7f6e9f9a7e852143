import { Button, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { asHeading } from '../../../lib/format.ts';
import { iso } from '../api/calendar-days.ts';
import { IconArrowUp } from '../icons.ts';
import './month-jump.css';

/** The id of a day's heading in the phone's month list, which the month's grid brings into view. */
export const agendaHeadingId = (day: string) => `calendar-agenda-${day}`;

/** The id of the month's grid of days, which each day of the list leads back to. */
const JUMP_ID = 'calendar-jump';

/** Smooth scrolling unless the reader asked for less motion. */
const motion = (): ScrollBehavior => (window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/** Brings a day's heading in the list into view and gives it the focus; false when the day has no heading (nothing planned). */
function scrollToHeading(day: string): boolean {
  const heading = document.getElementById(agendaHeadingId(day));
  if (!heading) return false;
  heading.scrollIntoView({ behavior: motion(), block: 'start' });
  heading.focus({ preventScroll: true });
  return true;
}

/**
 * The month on a phone, above its list of days: the month's days in seven columns (the week from
 * Monday, as the calendar's), each a button with its number of entries. Pressing a day brings its
 * part of the list into view and puts the focus on its heading; a day with nothing planned says so
 * under the grid. `counts` is null while the month's entries load: the days are there at once
 * (named by their date only), their counts come in their reserved place, and a day pressed
 * meanwhile is brought into view when they do.
 *
 * One Tab stop (a grid, as the ARIA grid pattern has it): the arrow keys move a day or a week, Home
 * and End to the week's ends within the month.
 */
export function MonthJump({ days, month, today, locale, counts }: { days: Date[]; month: number; today: string; locale: string; counts: ReadonlyMap<string, number> | null }) {
  const { t } = useTranslation();
  // The free day last pressed (its date), until another day is pressed or the month changes.
  const [free, setFree] = useState<string | null>(null);
  // A day pressed before the month's entries came.
  const [waiting, setWaiting] = useState<string | null>(null);
  const inMonth = days.filter((d) => d.getMonth() === month).map(iso);
  // The day the Tab key reaches: the one last focused, else today, else the 1st.
  const [active, setActive] = useState<string>(() => (inMonth.includes(today) ? today : inMonth[0]!));
  const full = (d: Date) => asHeading(d.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long' }));

  useEffect(() => {
    if (!counts || !waiting) return;
    setWaiting(null);
    if (!scrollToHeading(waiting)) setFree(waiting);
  }, [counts, waiting]);

  const go = (d: Date) => {
    const day = iso(d);
    setFree(null);
    if (!counts) setWaiting(day);
    else if (!scrollToHeading(day)) setFree(day);
  };

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const from = (ev.target as HTMLElement).closest<HTMLElement>('[data-day]')?.dataset.day;
    const i = days.findIndex((d) => iso(d) === from);
    if (i < 0) return;
    const row = i - (i % 7);
    const rowDays = days.slice(row, row + 7).filter((d) => d.getMonth() === month);
    const steps: Record<string, Date | undefined> = {
      ArrowLeft: days[i - 1],
      ArrowRight: days[i + 1],
      ArrowUp: days[i - 7],
      ArrowDown: days[i + 7],
      Home: rowDays[0],
      End: rowDays[rowDays.length - 1],
    };
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !Object.hasOwn(steps, ev.key)) return;
    const target = steps[ev.key];
    ev.preventDefault();
    // The grid ends with the month: a step past its first or last day stays where it is.
    if (!target || target.getMonth() !== month) return;
    setActive(iso(target));
    ev.currentTarget.querySelector<HTMLElement>(`[data-day="${iso(target)}"]`)?.focus();
  };

  const freeDay = free && counts && !counts.get(free) ? days.find((d) => iso(d) === free && d.getMonth() === month) : undefined;
  const weeks = Array.from({ length: Math.ceil(days.length / 7) }, (_, w) => days.slice(w * 7, w * 7 + 7));
  return (
    <div>
      <div className="calendar-jump" id={JUMP_ID} role="grid" aria-label={t('calendar.jumpLabel')} onKeyDown={onKeyDown} data-testid="calendar-jump" data-loading={!counts || undefined}>
        {/* The columns' weekdays: each button names its own day, so these are for the eye only. */}
        <div className="calendar-jump-row" aria-hidden="true">
          {days.slice(0, 7).map((d) => (
            <Text key={`h${d.getDay()}`} size="xs" c="dimmed" ta="center" className="calendar-jump-weekday">
              {asHeading(d.toLocaleDateString(locale, { weekday: 'short' }))}
            </Text>
          ))}
        </div>
        {weeks.map((week) => (
          <div key={iso(week[0]!)} className="calendar-jump-row" role="row">
            {week.map((d) => {
              const day = iso(d);
              if (d.getMonth() !== month) return <div key={day} role="gridcell" />;
              const count = counts?.get(day) ?? 0;
              return (
                <div key={day} role="gridcell">
                  <UnstyledButton
                    type="button"
                    className="calendar-jump-day"
                    tabIndex={day === active ? 0 : -1}
                    data-busy={count > 0 || undefined}
                    data-today={day === today || undefined}
                    data-picked={(freeDay && day === free) || undefined}
                    aria-current={day === today ? 'date' : undefined}
                    onClick={() => go(d)}
                    onFocus={() => setActive(day)}
                    data-testid="calendar-jump-day"
                    data-day={day}
                  >
                    {/* Read out whole ("Tuesday 1 December, 12 entries"); the number and the count are for the eye. Loading, the date alone. */}
                    <VisuallyHidden>{!counts ? full(d) : count ? t('calendar.jumpDay', { date: full(d), count }) : t('calendar.jumpDayFree', { date: full(d) })}</VisuallyHidden>
                    <span className="calendar-jump-number" aria-hidden="true">
                      {d.getDate()}
                    </span>
                    {/* Its line is there before the count comes, so nothing moves when it does. */}
                    <span className="calendar-jump-count" aria-hidden="true">
                      {count ? count : ''}
                    </span>
                  </UnstyledButton>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <Text size="sm" mt={6} role="status" data-testid="calendar-day-free">
        {freeDay ? t('calendar.dayFree', { date: full(freeDay) }) : ''}
      </Text>
    </div>
  );
}

/**
 * Beside a day's heading in the phone's month list: back to the month's grid, the focus on that
 * day's button (so the reader goes on from the day they came from).
 */
export function BackToDays({ day }: { day: string }) {
  const { t } = useTranslation();
  const back = () => {
    const grid = document.getElementById(JUMP_ID);
    if (!grid) return;
    grid.scrollIntoView({ behavior: motion(), block: 'start' });
    grid.querySelector<HTMLElement>(`[data-day="${day}"]`)?.focus({ preventScroll: true });
  };
  return (
    <Button variant="subtle" size="compact-sm" leftSection={<IconArrowUp size={14} aria-hidden="true" />} onClick={back} data-testid="calendar-back-to-days">
      {t('calendar.backToDays')}
    </Button>
  );
}
