import { ActionIcon, Anchor, Badge, Button, Center, Group, Loader, Modal, Paper, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { TimeField } from '../../../components/fields/time-field.tsx';
import { focusInvalidEntry } from '../../../components/fields/invalid-entry.ts';
import { DateField } from '../../../components/fields/date-field.tsx';
import { SearchPicker, type Picked } from '../../../components/search-picker.tsx';
import { asHeading } from '../../../lib/format.ts';
import { searchEmployees } from '../../../lib/pickers.ts';
import { iso, type CalendarView } from '../api/calendar-days.ts';
import type { TCalendarEvent } from '../api/viewings.ts';
import { IconChevronLeft, IconChevronRight } from '../icons.ts';
import { agendaHeadingId, BackToDays, MonthJump } from './month-jump.tsx';

export const pad = (n: number) => String(n).padStart(2, '0');

/** The hours the day view lays out as rows (earlier and later entries get rows of their own). */
const DAY_HOURS = Array.from({ length: 15 }, (_, i) => i + 7);

/** Entries a day of the month view shows before "+N more". */
const MONTH_SHOWN = 3;

/** A booking's check-in or check-out: shown and opened, never moved from here (its nights are the booking's). */
const isStay = (e: TCalendarEvent) => e.kind === 'checkIn' || e.kind === 'checkOut';
const KIND_COLOR: Record<TCalendarEvent['kind'], string> = { viewing: 'blue', activity: 'grape', checkIn: 'teal', checkOut: 'pink' };

/** An entry as the calendar draws it (compact: a month's day). */
export type EntryOf = (e: TCalendarEvent, compact: boolean) => ReactNode;

/** One entry: its time and title (a link to it), whose it is, its kind, and Move (dragged, it moves too). */
export function CalendarEntry({ e, compact, wide, onMove }: { e: TCalendarEvent; compact: boolean; wide: boolean; onMove: (e: TCalendarEvent) => void }) {
  const { t } = useTranslation();
  return (
    <Paper
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
          <Button size={wide ? 'compact-xs' : 'compact-sm'} variant="subtle" onClick={() => onMove(e)} data-testid="calendar-move">
            {t('calendar.move')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

/** The day view: one row per hour, each a place to drop an entry. */
export function HourRows({ day, all, entry, onDropHour }: { day: string; all: TCalendarEvent[]; entry: EntryOf; onDropHour: (day: string, hour: number) => (ev: DragEvent) => void }) {
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
}

/**
 * The month on a phone: only the days of the month that have entries, one under another, each
 * entry in full with its Move button (a finger cannot drag). A month with nothing says so. Above
 * the list, the month's grid of days takes the reader to a day's part of it (drawn at once: it
 * needs only the month), and each day's heading leads back to it.
 */
export function MonthAgenda({ days, month, today, locale, byDay, pending, entry }: { days: Date[]; month: number; today: string; locale: string; byDay: Map<string, TCalendarEvent[]>; pending: boolean; entry: EntryOf }) {
  const { t } = useTranslation();
  const busy = pending ? [] : days.filter((d) => d.getMonth() === month && byDay.has(iso(d)));
  return (
    <>
      <MonthJump
        key={iso(days[0]!)}
        days={days}
        month={month}
        today={today}
        locale={locale}
        counts={pending ? null : new Map(busy.map((d) => [iso(d), byDay.get(iso(d))!.length]))}
      />
      {pending ? (
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
}

/** A day of the week or month views (the day view's with its hours): a place to drop an entry. */
export function CalendarDay({ d, view, month, today, locale, events, entry, onDrop, onDropHour, openDay }: {
  d: Date;
  view: CalendarView;
  month: number;
  today: string;
  locale: string;
  events: TCalendarEvent[];
  entry: EntryOf;
  onDrop: (day: string) => (ev: DragEvent) => void;
  onDropHour: (day: string, hour: number) => (ev: DragEvent) => void;
  openDay: (d: Date) => void;
}) {
  const { t } = useTranslation();
  const day = iso(d);
  const outside = view === 'month' && d.getMonth() !== month;
  return (
    <Paper
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
        <HourRows day={day} all={events} entry={entry} onDropHour={onDropHour} />
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
              onClick={() => openDay(d)}
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
}

/** The calendar's bar: back and forth, today, its title, the stays' switch, whose entries, and the view. */
export function CalendarBar(p: {
  title: string;
  step: (dir: number) => void;
  toToday: () => void;
  branch: boolean;
  stays: boolean;
  setStays: (v: boolean) => void;
  employee: Picked;
  setEmployee: (v: Picked) => void;
  view: CalendarView;
  setView: (v: CalendarView) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Group gap="xs">
        <ActionIcon variant="default" size="lg" onClick={() => p.step(-1)} aria-label={t('calendar.previous')} data-testid="calendar-prev">
          <IconChevronLeft size={18} />
        </ActionIcon>
        <Button variant="default" onClick={p.toToday}>
          {t('calendar.today')}
        </Button>
        <ActionIcon variant="default" size="lg" onClick={() => p.step(1)} aria-label={t('calendar.next')} data-testid="calendar-next">
          <IconChevronRight size={18} />
        </ActionIcon>
        <Title order={2} size="h4" data-testid="calendar-title">
          {p.title}
        </Title>
      </Group>
      <Group gap="xs" align="flex-end">
        {!p.branch && (
          <Switch
            label={t('calendar.stays')}
            checked={p.stays}
            onChange={(ev) => p.setStays(ev.currentTarget.checked)}
            mb={8}
            data-testid="calendar-stays"
          />
        )}
        <SearchPicker label={t('calendar.employee')} value={p.employee} onChange={p.setEmployee} search={searchEmployees} queryKey="employee" placeholder={t('calendar.everyone')} />
        <SegmentedControl
          value={p.view}
          onChange={(v) => p.setView(v as CalendarView)}
          data={(['day', 'week', 'month'] as const).map((v) => ({ value: v, label: t(`calendar.view.${v}`) }))}
          aria-label={t('calendar.viewLabel')}
          data-testid="calendar-view"
        />
      </Group>
    </Group>
  );
}

/** The keyboard and touch way to move an entry: a new date and time. */
export function MoveDialog({ event, onClose, onMove }: { event: TCalendarEvent; onClose: () => void; onMove: (start: string) => Promise<unknown> }) {
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
