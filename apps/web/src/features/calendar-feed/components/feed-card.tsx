import { Button, Group, Text } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TCalendarFeed, TCalendarFeedCreated } from '@crm/contract';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { createFeed, revokeFeed } from '../api/calendar-feed.ts';
import { FeedShown } from './feed-shown.tsx';
import { TitledCard } from '../../../components/titled-card.tsx';

/**
 * One calendar address (the reader's own, or the office-wide one): its state, a new address (in
 * place of the old one, after a question), revoke; a new address is shown here this once.
 */
export function FeedCard({ feed }: { feed: TCalendarFeed }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [made, setMade] = useState<TCalendarFeedCreated | null>(null);
  const scope = feed.scope;
  const testId = `calendar-feed-${scope}`;
  const onError = (e: unknown) => {
    const d = describeError(e);
    showBanner(d.type, d.message, { details: d.details });
  };
  const create = useMutation({
    mutationFn: () => createFeed(scope),
    onSuccess: (m) => setMade(m),
    onError,
    onSettled: () => void qc.invalidateQueries({ queryKey: ['calendarFeeds'] }),
  });
  const revoke = useMutation({
    mutationFn: () => revokeFeed(scope),
    onSuccess: () => {
      setMade(null);
      showBanner('success', t('icalfeed.ui.revoked'));
    },
    onError,
    onSettled: () => void qc.invalidateQueries({ queryKey: ['calendarFeeds'] }),
  });
  const ask = (title: string, text: string, confirm: string, color: string, id: string, go: () => void) =>
    confirmAction(t, { title, text, confirm, color, testId: id, onConfirm: go });
  const onCreate = () =>
    feed.active ? ask(t('icalfeed.ui.replace'), t('icalfeed.ui.replaceConfirm'), t('icalfeed.ui.replace'), 'blue', `${testId}-replace-confirm`, () => create.mutate()) : create.mutate();
  const onRevoke = () => ask(t('icalfeed.ui.revoke'), t('icalfeed.ui.revokeConfirm'), t('icalfeed.ui.revoke'), 'red', `${testId}-revoke-confirm`, () => revoke.mutate());
  return (
    <TitledCard title={t(`icalfeed.ui.${scope}.title`)} testId={testId}>
      <Text size="sm">{t(`icalfeed.ui.${scope}.what`)}</Text>
      <Text size="sm" data-testid={`${testId}-state`}>
        {feed.active
          ? `${t('icalfeed.ui.state.active', { date: formatDateTime(feed.createdOn ?? ''), hint: feed.hint ?? '' })} ${feed.lastUsedOn ? t('icalfeed.ui.state.lastUsed', { date: formatDateTime(feed.lastUsedOn) }) : t('icalfeed.ui.state.neverUsed')}`
          : t('icalfeed.ui.state.none')}
      </Text>
      <Group gap="sm">
        <Button onClick={onCreate} loading={create.isPending} data-testid={`${testId}-create`}>
          {feed.active ? t('icalfeed.ui.replace') : t('icalfeed.ui.create')}
        </Button>
        {feed.active && (
          <Button variant="light" color="red" onClick={onRevoke} loading={revoke.isPending} data-testid={`${testId}-revoke`}>
            {t('icalfeed.ui.revoke')}
          </Button>
        )}
      </Group>
      {made && feed.active && <FeedShown made={made} testId={`${testId}-shown`} />}
    </TitledCard>
  );
}
