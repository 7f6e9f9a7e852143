import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { describeError } from '../../../lib/errors.ts';
import { calendarFeedsQuery } from '../api/calendar-feed.ts';
import { FeedCard } from '../components/feed-card.tsx';
import { SubscribeHelp } from '../components/subscribe-help.tsx';

/**
 * /CalendarFeed (every staff member, from the user menu; decision 081): the reader's own calendar
 * address for the phone, and, for office administrators, the office-wide one; how to subscribe.
 */
export function CalendarFeedPage() {
  const { t } = useTranslation();
  const q = useQuery(calendarFeedsQuery());
  return (
    <Stack gap="md" maw={900}>
      <Title order={2}>{t('title.calendarFeed')}</Title>
      <Text size="sm">{t('icalfeed.ui.intro')}</Text>
      {q.isError && <Text c="red">{describeError(q.error).message}</Text>}
      {q.data && <FeedCard feed={q.data.own} />}
      {q.data?.office && <FeedCard feed={q.data.office} />}
      <SubscribeHelp />
    </Stack>
  );
}
