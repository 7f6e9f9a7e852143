import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useSearchParams } from 'react-router';
import { CALENDAR_MAX_EACH } from '@crm/contract/constants';
import type { Picked } from '../../../components/search-picker.tsx';
import { agencyToday, agencyTodayDate } from '../../../lib/agency-clock.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { useCookieState } from '../../../lib/list-state.ts';
import { hasBranch, useSession } from '../../../lib/session.ts';
import { asHeading } from '../../../lib/format.ts';
import { formatTypedNumber } from '../../../lib/typed-number.ts';
import { addDays, CALENDAR_EMPLOYEE_COOKIE, CALENDAR_STAYS_COOKIE, CALENDAR_VIEW_COOKIE, daysOf, inDayOrder, iso, parseDay, type CalendarView } from '../api/calendar-days.ts';
import { calendarQuery, moveActivity, moveViewing, viewingKeys, type TCalendarEvent } from '../api/viewings.ts';
import { CalendarBar, CalendarDay, CalendarEntry, MonthAgenda, MoveDialog, pad, type EntryOf } from '../components/calendar-parts.tsx';
import { useMedia } from '../../../lib/first-paint.ts';

type View = CalendarView;
const LOCALES = { en: 'en-GB', el: 'el-GR', ru: 'ru-RU' } as const;

/**
 * /Calendar: viewings and planned activities by day, week or month, of everyone or one employee,
 * and the short lets' check-ins and check-outs (a switch, kept in a cookie; not for branch users,
 * who have no reservations). A click opens the record; dragging an entry to another day moves it there at the same time, in
 * the day view to another hour (same minutes), and "Move" (keyboard and touch) sets a new date and time. Moves carry the version: if someone changed
 * the record meanwhile, nothing is overwritten and the calendar reloads.
 */
export function CalendarPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const locale = LOCALES[currentCulture()];
  const [view, setView] = useCookieState<View>(CALENDAR_VIEW_COOKIE, 'week');
  const [employee, setEmployee] = useCookieState<Picked>(CALENDAR_EMPLOYEE_COOKIE, null);
  const [stays, setStays] = useCookieState<boolean>(CALENDAR_STAYS_COOKIE, true);
  const branch = hasBranch(useSession());
  // The day shown is in the address (?date=2026-11-23), so a reload or a shared link opens the same place.
  const [params, setParams] = useSearchParams();
  const anchor = parseDay(params.get('date')) ?? agencyTodayDate();
  const setAnchor = (next: Date | ((a: Date) => Date)) => {
    const d = typeof next === 'function' ? next(anchor) : next;
    setParams((p) => {
      const n = new URLSearchParams(p);
      n.set('date', iso(d));
      return n;
    }, { replace: true });
  };
  const [moving, setMoving] = useState<TCalendarEvent | null>(null);
  // A phone shows the month as a list of the days that have entries: seven columns do not fit, and
  // one column of 35 boxes was mostly empty space.
  const wide = useMedia('(min-width: 48em)', true);
  const agenda = view === 'month' && !wide;
  const days = daysOf(view, anchor);
  const from = iso(days[0]!);
  const till = iso(days[days.length - 1]!);
  const q = useQuery(calendarQuery(from, till, employee?.id ?? null, stays));
  const byDay = new Map<string, TCalendarEvent[]>();
  for (const e of q.data?.items ?? []) byDay.set(e.start.slice(0, 10), [...(byDay.get(e.start.slice(0, 10)) ?? []), e]);
  // Viewings and activities before the stays, in every view: a month's day shows the first three.
  for (const [day, events] of byDay) byDay.set(day, inDayOrder(events));

  const step = (dir: number) => setAnchor((a) => (view === 'day' ? addDays(a, dir) : view === 'week' ? addDays(a, 7 * dir) : new Date(a.getFullYear(), a.getMonth() + dir, 1)));
  const title = asHeading(
    view === 'month'
      ? anchor.toLocaleDateString(locale, { month: 'long', year: 'numeric' })
      : view === 'week'
        ? `${days[0]!.toLocaleDateString(locale, { day: 'numeric', month: 'short' })} – ${days[6]!.toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric' })}`
        : anchor.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
  );

  const move = async (e: TCalendarEvent, start: string) => {
    if (start === e.start) return;
    try {
      if (e.kind === 'viewing') await moveViewing(e.id, e.version, start);
      else await moveActivity(e.id, e.version, start);
      showBanner('success', t('calendar.moved'));
    } catch (err) {
      showBanner(err instanceof ApiError && err.status === 409 ? 'warning' : 'danger', err instanceof ApiError && err.status === 409 ? t('calendar.changedMeanwhile') : describeError(err).message);
    }
    void client.invalidateQueries({ queryKey: viewingKeys.all });
    void client.invalidateQueries({ queryKey: ['activities'] });
  };

  const dropped = (ev: DragEvent) => {
    ev.preventDefault();
    ev.stopPropagation();
    const data = ev.dataTransfer.getData('application/x-crm-event');
    return (q.data?.items ?? []).find((x) => `${x.kind}:${x.id}` === data);
  };
  const onDrop = (day: string) => (ev: DragEvent) => {
    const e = dropped(ev);
    if (e) void move(e, `${day}${e.start.slice(10)}`);
  };
  const onDropHour = (day: string, hour: number) => (ev: DragEvent) => {
    const e = dropped(ev);
    if (e) void move(e, `${day}T${pad(hour)}${e.start.slice(13)}`);
  };

  const entry: EntryOf = (e, compact) => <CalendarEntry key={`${e.kind}-${e.id}`} e={e} compact={compact} wide={wide} onMove={setMoving} />;
  const today = agencyToday();
  const month = anchor.getMonth();

  return (
    <Stack gap="sm" data-testid="calendar-page" data-view={view}>
      <CalendarBar title={title} step={step} toToday={() => setAnchor(agencyTodayDate())} branch={branch} stays={stays} setStays={setStays} employee={employee} setEmployee={setEmployee} view={view} setView={setView} />
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      {q.data?.truncated && (
        <Text c="orange.9" size="sm" role="status" data-testid="calendar-truncated">
          {t('calendar.truncated', { max: formatTypedNumber(CALENDAR_MAX_EACH) })}
        </Text>
      )}
      {agenda ? (
        <MonthAgenda days={days} month={month} today={today} locale={locale} byDay={byDay} pending={q.isPending} entry={entry} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: view === 'day' ? 1 : 7 }} spacing={4} verticalSpacing={4}>
          {days.map((d) => (
            <CalendarDay
              key={iso(d)}
              d={d}
              view={view}
              month={month}
              today={today}
              locale={locale}
              events={byDay.get(iso(d)) ?? []}
              entry={entry}
              onDrop={onDrop}
              onDropHour={onDropHour}
              openDay={(day) => {
                setAnchor(day);
                setView('day');
              }}
            />
          ))}
        </SimpleGrid>
      )}
      {moving && <MoveDialog event={moving} onClose={() => setMoving(null)} onMove={(start) => move(moving, start).then(() => setMoving(null))} />}
    </Stack>
  );
}
