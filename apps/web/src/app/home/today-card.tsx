import { Anchor, Button, Card, Group, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { useCookieState } from '../../lib/list-state.ts';
import { useSession } from '../../lib/session.ts';
import { inDayOrder } from '../../features/viewings/api/calendar-days.ts';
import type { TCalendarEvent } from '@crm/contract';
import { phoneLinks } from '../../lib/contact-links.ts';
import { HOME_TODAY_COOKIE, homeTodayQuery, type HomeTodayWhose } from './home-api.ts';
import { VIEWING, href } from '@crm/contract/resources';

/** How many of the day's entries the card lists; the rest are a link to the calendar. */
export const TODAY_SHOWN = 8;

/**
 * The home page's day: the agency's viewings of today (the reader's own or everyone's) and the
 * short lets' check-ins and check-outs, in the calendar's day order, each a link to its record. A
 * branch user has no short lets to see. The to-dos are the list under it (the action list).
 */
export function TodayCard() {
  const { t } = useTranslation();
  const session = useSession();
  const accountId = session?.accountId ?? null;
  const [whose, setWhose] = useCookieState<HomeTodayWhose>(HOME_TODAY_COOKIE, 'mine');
  const mine = whose === 'mine' && accountId != null;
  const q = useQuery(homeTodayQuery(session, whose));
  const events = inDayOrder((q.data?.items ?? []).filter((e) => e.kind !== 'activity'));
  const shown = events.slice(0, TODAY_SHOWN);
  return (
    <Card withBorder data-testid="home-today">
      <Group justify="space-between" mb="xs" gap="xs">
        <Title order={2} size="h4">
          {t('home.todayTitle')}
        </Title>
        <Group gap="xs">
          {accountId != null && (
            <SegmentedControl
              size="xs"
              aria-label={t('home.todayWhose')}
              value={whose}
              onChange={(v) => setWhose(v as HomeTodayWhose)}
              data={[
                { value: 'mine', label: t('home.todayMine') },
                { value: 'all', label: t('home.todayAll') },
              ]}
              data-testid="home-today-whose"
            />
          )}
          <Button component={Link} to={href(VIEWING.screens.calendar)} variant="subtle" size="compact-sm">
            {t('home.openCalendar')}
          </Button>
        </Group>
      </Group>
      {!q.data ? (
        <Stack gap="xs">
          <Skeleton h={16} />
          <Skeleton h={16} />
        </Stack>
      ) : shown.length === 0 ? (
        <Text c="dimmed" data-testid="home-today-empty">
          {t(mine ? 'home.todayEmptyMine' : 'home.todayEmpty')}
        </Text>
      ) : (
        <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {shown.map((e) => (
            <Group key={`${e.kind}-${e.id}`} component="li" gap="sm" wrap="nowrap" align="baseline" data-testid="home-today-item" data-kind={e.kind}>
              <Text fw={600} w={48} style={{ flex: 'none', fontVariantNumeric: 'tabular-nums' }}>
                {e.allDay ? '' : e.start.slice(11, 16)}
              </Text>
              <div style={{ minWidth: 0 }}>
                <Anchor component={Link} to={e.link} style={{ overflowWrap: 'anywhere' }}>
                  {e.title}
                </Anchor>
                {e.kind === 'viewing' && <ViewingOnTheWay event={e} />}
              </div>
              {e.assigned && (
                <Text size="sm" c="dimmed" visibleFrom="sm" style={{ flex: 'none' }}>
                  {e.assigned}
                </Text>
              )}
            </Group>
          ))}
          {events.length > shown.length && (
            <li>
              <Anchor component={Link} to={href(VIEWING.screens.calendar)} size="sm" data-testid="home-today-more">
                {t('home.todayMore', { count: events.length - shown.length })}
              </Anchor>
            </li>
          )}
        </Stack>
      )}
    </Card>
  );
}

/**
 * Under a viewing of the day: its client, a tap from a call (tel:), and where its properties are,
 * for the agent on the way.
 */
function ViewingOnTheWay({ event }: { event: TCalendarEvent }) {
  const { t } = useTranslation();
  const tel = phoneLinks(event.clientPhone).find((p) => p.href)?.href;
  const addresses = event.addresses ?? [];
  if (!event.client && !addresses.length) return null;
  return (
    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {event.client &&
        (tel ? (
          <Anchor href={tel} size="sm" underline="always" aria-label={t('home.callClient', { name: event.client, phone: event.clientPhone })} data-testid="home-today-call">
            {event.client}
          </Anchor>
        ) : (
          event.client
        ))}
      {event.client && addresses.length > 0 && ' · '}
      <span data-testid="home-today-address">{addresses.join(' · ')}</span>
    </Text>
  );
}
