import { ActionIcon, Anchor, Badge, Button, Center, Group, Loader, Modal, Paper, SegmentedControl, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CALENDAR_MAX_EACH } from '@crm/contract/constants';
import { TimeField } from '../../../components/fields/time-field.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { agencyToday, agencyTodayDate } from '../../../lib/agency-clock.ts';
import { ApiError } from '../../../lib/api.ts';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { currentCulture } from '../../../lib/i18n.ts';
import { useCookieState } from '../../../lib/list-state.ts';
import { hasBranch, useSession } from '../../../lib/session.ts';
import { asHeading } from '../../../lib/format.ts';
import { formatTypedNumber } from '../../../lib/typed-number.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { addDays, CALENDAR_EMPLOYEE_COOKIE, CALENDAR_STAYS_COOKIE, CALENDAR_VIEW_COOKIE, daysOf, inDayOrder, iso, parseDay, type CalendarView } from '../api/calendar-days.ts';
import { calendarQuery, moveActivity, moveViewing, viewingKeys, type TCalendarEvent } from '../api/viewings.ts';
import { agendaHeadingId, BackToDays, MonthJump } from '../components/month-jump.tsx';
import { IconChevronLeft, IconChevronRight } from '../icons.ts';
import { useMedia } from '../../../lib/first-paint.ts';
import { searchEmployees } from '../../../lib/pickers.ts';

type View = CalendarView;
const LOCALES = { en: 'en-GB', el: 'el-GR', ru: 'ru-RU' } as const;
const pad = (n: number) => String(n).padStart(2, '0');

/** The hours the day view lays out as rows (earlier and later entries get rows of their own). */
const DAY_HOURS = Array.from({ length: 15 }, (_, i) => i + 7);

/** Entries a day of the month view shows before "+N more". */
const MONTH_SHOWN = 3;

/** A booking's check-in or check-out: shown and opened, never moved from here (its nights are the booking's). */
const isStay = (e: TCalendarEvent) => e.kind === 'checkIn' || e.kind === 'checkOut';
const KIND_COLOR: Record<TCalendarEvent['kind'], string> = { viewing: 'blue', activity: 'grape', checkIn: 'teal', checkOut: 'pink' };

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

  /** The day view: one row per hour, each a place to drop an entry. */
  const hourRows = (day: string, all: TCalendarEvent[]) => {
    // A day's entries without a time (a check-out, a check-in with no arrival time) come first, above the hours.
    const events = all.filter((e) => !e.allDay);
    const hours = [...new Set([...DAY_HOURS, ...events.map((e) => Number(e.start.slice(11, 13)))])].sort((a, b) => a - b);
    return (
      <Stack gap={0} data-testid="calendar-hours">
        {all.some((e) => e.allDay) && (
          <Stack gap={4} pb={4} data-testid="calendar-all-day">
            {all.filter((e) => e.allDay).map((e) => entry(e, false))}
          </Stack>
        )}
        {hours.map((h) => (
          <Group
            key={h}
            gap="xs"
            align="flex-start"
            wrap="nowrap"
            mih={36}
            py={2}
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
            onDragOver={(ev) => ev.preventDefault()}
            onDrop={onDropHour(day, h)}
            data-testid="calendar-hour"
            data-hour={h}
          >
            <Text size="xs" c="dimmed" w={44} ta="right" style={{ flexShrink: 0 }}>
              {pad(h)}:00
            </Text>
            <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
              {events.filter((e) => Number(e.start.slice(11, 13)) === h).map((e) => entry(e, false))}
            </Stack>
          </Group>
        ))}
      </Stack>
    );
  };

  const entry = (e: TCalendarEvent, compact: boolean) => (
    <Paper
      key={`${e.kind}-${e.id}`}
      withBorder
      p={4}
      draggable={!isStay(e)}
      onDragStart={isStay(e) ? undefined : (ev) => ev.dataTransfer.setData('application/x-crm-event', `${e.kind}:${e.id}`)}
      className={`calendar-entry calendar-${e.kind}`}
      data-testid="calendar-entry"
      data-kind={e.kind}
      data-id={e.id}
    >
      <Anchor component={Link} to={e.link} size="sm" style={{ display: 'block', minWidth: 0 }}>
        {!e.allDay && (
          <>
            <Text span fw={600} size="sm">
              {e.start.slice(11, 16)}
            </Text>{' '}
          </>
        )}
        <Text span size="sm" lineClamp={compact ? 2 : undefined}>
          {e.title}
        </Text>
      </Anchor>
      {!compact && e.assigned && (
        <Text size="xs" c="dimmed">
          {e.assigned}
        </Text>
      )}
      {/* In a week's narrow column the Move button goes under the badge rather than being cut; on a phone it is a finger's target (26 px high, not 22). */}
      <Group gap={4} justify="space-between" wrap="wrap" mt={2}>
        <Badge size="xs" variant="light" color={KIND_COLOR[e.kind]} style={{ maxWidth: '100%' }}>
          {t(`calendar.kind.${e.kind}`)}
        </Badge>
        {!compact && !isStay(e) && (
          <Button size={wide ? 'compact-xs' : 'compact-sm'} variant="subtle" onClick={() => setMoving(e)} data-testid="calendar-move">
            {t('calendar.move')}
          </Button>
        )}
      </Group>
    </Paper>
  );

  const today = agencyToday();
  const month = anchor.getMonth();

  /**
   * The month on a phone: only the days of the month that have entries, one under another, each
   * entry in full with its Move button (a finger cannot drag). A month with nothing says so. Above
   * the list, the month's grid of days takes the reader to a day's part of it (drawn at once: it
   * needs only the month), and each day's heading leads back to it.
   */
  const monthAgenda = () => {
    const busy = q.isPending ? [] : days.filter((d) => d.getMonth() === month && byDay.has(iso(d)));
    return (
      <>
        <MonthJump
          key={iso(days[0]!)}
          days={days}
          month={month}
          today={today}
          locale={locale}
          counts={q.isPending ? null : new Map(busy.map((d) => [iso(d), byDay.get(iso(d))!.length]))}
        />
        {q.isPending ? (
          <Center py="md">
            <Loader size="sm" />
          </Center>
        ) : !busy.length ? (
          <Text c="dimmed" size="sm" data-testid="calendar-month-free">
            {t('calendar.freeMonth')}
          </Text>
        ) : (
          <Stack gap={6} data-testid="calendar-agenda">
            {busy.map((d) => {
              const day = iso(d);
              const label = asHeading(d.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long' }));
              return (
                <Paper key={day} withBorder p={6} bg={day === today ? 'var(--mantine-color-blue-0)' : undefined} data-testid="calendar-day" data-day={day} aria-label={label} role="group">
                  <Group justify="space-between" align="center" gap={4} wrap="nowrap" mb={4}>
                    <Text component="h3" size="sm" fw={day === today ? 700 : 600} id={agendaHeadingId(day)} tabIndex={-1} className="calendar-agenda-heading">
                      {label}
                    </Text>
                    <BackToDays day={day} />
                  </Group>
                  <Stack gap={4}>{byDay.get(day)!.map((e) => entry(e, false))}</Stack>
                </Paper>
              );
            })}
          </Stack>
        )}
      </>
    );
  };

  return (
    <Stack gap="sm" data-testid="calendar-page" data-view={view}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <ActionIcon variant="default" size="lg" onClick={() => step(-1)} aria-label={t('calendar.previous')} data-testid="calendar-prev">
            <IconChevronLeft size={18} />
          </ActionIcon>
          <Button variant="default" onClick={() => setAnchor(agencyTodayDate())}>
            {t('calendar.today')}
          </Button>
          <ActionIcon variant="default" size="lg" onClick={() => step(1)} aria-label={t('calendar.next')} data-testid="calendar-next">
            <IconChevronRight size={18} />
          </ActionIcon>
          <Title order={2} size="h4" data-testid="calendar-title">
            {title}
          </Title>
        </Group>
        <Group gap="xs" align="flex-end">
          {!branch && (
            <Switch
              label={t('calendar.stays')}
              checked={stays}
              onChange={(ev) => setStays(ev.currentTarget.checked)}
              mb={8}
              data-testid="calendar-stays"
            />
          )}
          <SearchPicker label={t('calendar.employee')} value={employee} onChange={setEmployee} search={searchEmployees} queryKey="employee" placeholder={t('calendar.everyone')} />
          <SegmentedControl
            value={view}
            onChange={(v) => setView(v as View)}
            data={(['day', 'week', 'month'] as const).map((v) => ({ value: v, label: t(`calendar.view.${v}`) }))}
            aria-label={t('calendar.viewLabel')}
            data-testid="calendar-view"
          />
        </Group>
      </Group>
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      {q.data?.truncated && (
        <Text c="orange.9" size="sm" role="status" data-testid="calendar-truncated">
          {t('calendar.truncated', { max: formatTypedNumber(CALENDAR_MAX_EACH) })}
        </Text>
      )}
      {agenda ? (
        monthAgenda()
      ) : (
        <SimpleGrid cols={{ base: 1, sm: view === 'day' ? 1 : 7 }} spacing={4} verticalSpacing={4}>
          {days.map((d) => {
            const day = iso(d);
            const events = byDay.get(day) ?? [];
            const outside = view === 'month' && d.getMonth() !== month;
            return (
              <Paper
                key={day}
                withBorder
                p={6}
                // On a phone (one column) a free day of the week is one line, not a 160 px box.
                mih={view === 'month' ? 110 : { base: 0, sm: 160 }}
                onDragOver={(ev) => ev.preventDefault()}
                onDrop={onDrop(day)}
                bg={day === today ? 'var(--mantine-color-blue-0)' : outside ? 'var(--mantine-color-gray-0)' : undefined}
                data-testid="calendar-day"
                data-day={day}
                aria-label={d.toLocaleDateString(locale, { weekday: 'long', day: 'numeric', month: 'long' })}
                role="group"
              >
                <Text size="sm" fw={day === today ? 700 : 500} c={outside ? 'dimmed' : undefined} mb={4}>
                  {asHeading(d.toLocaleDateString(locale, view === 'month' ? { weekday: 'short', day: 'numeric' } : { weekday: 'short', day: 'numeric', month: 'short' }))}
                </Text>
                {view === 'day' ? (
                  hourRows(day, events)
                ) : (
                  <Stack gap={4}>
                    {(view === 'month' ? events.slice(0, MONTH_SHOWN) : events).map((e) => entry(e, view === 'month'))}
                    {/* A busy day of the month shows its first entries; the rest are a click away, on the day itself. */}
                    {view === 'month' && events.length > MONTH_SHOWN && (
                      <Anchor
                        component="button"
                        type="button"
                        size="xs"
                        ta="left"
                        // At least 24 px to tap (WCAG 2.5.8) for the 17 px of its line: 4 px more above
                        // and below, taken back by the margins, so the day keeps its height.
                        py={4}
                        my={-4}
                        onClick={() => {
                          setAnchor(d);
                          setView('day');
                        }}
                        data-testid="calendar-more"
                      >
                        {t('calendar.more', { count: events.length - MONTH_SHOWN })}
                      </Anchor>
                    )}
                    {view !== 'month' && events.length === 0 && (
                      <Text size="xs" c="dimmed">
                        {t('calendar.free')}
                      </Text>
                    )}
                  </Stack>
                )}
              </Paper>
            );
          })}
        </SimpleGrid>
      )}
      {moving && <MoveDialog event={moving} onClose={() => setMoving(null)} onMove={(start) => move(moving, start).then(() => setMoving(null))} />}
    </Stack>
  );
}

/** The keyboard and touch way to move an entry: a new date and time. */
function MoveDialog({ event, onClose, onMove }: { event: TCalendarEvent; onClose: () => void; onMove: (start: string) => Promise<unknown> }) {
  const { t } = useTranslation();
  const [date, setDate] = useState<string | null>(event.start.slice(0, 10));
  const [time, setTime] = useState(event.start.slice(11, 16));
  // One move at a time: a second click would carry the version the first one spent.
  const [moving, setMoving] = useState(false);
  const submit = (start: string) => {
    if (moving) return;
    setMoving(true);
    void onMove(start).finally(() => setMoving(false));
  };
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ 'aria-label': t('common.close') }} title={t('calendar.moveTitle', { title: event.title })}>
      <Stack>
        <DateField label={t('calendar.newDate')} value={date} onChange={setDate} clearable={false} data-testid="calendar-move-date" />
        <TimeField label={t('viewings.ui.time')} value={time} onChange={setTime} required data-testid="calendar-move-time" />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!date || !time} loading={moving} onClick={() => date && !focusInvalidEntry() && submit(`${date}T${time.slice(0, 5)}:00`)} data-testid="calendar-move-save">
            {t('calendar.move')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

