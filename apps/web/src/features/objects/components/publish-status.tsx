import { useEffect, useRef } from 'react';
import { Anchor, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TObjectPublishState } from '@crm/contract';
import { publishInProgress, publishStateQuery, withdrawalInProgress } from '../api/publish-state.ts';

type Props = {
  id: number;
  referenceNumber: string;
  publishRequested?: boolean;
  published: boolean;
  publishError: string | null;
  /** The publishing has answered (published or refused) while this was shown. */
  onSettled?: (s: TObjectPublishState) => void;
};

const siteLanguage = (lng: string) => (lng.startsWith('el') ? 'el' : lng.startsWith('ru') ? 'ru' : 'en');

/**
 * Where the object's publishing stands: 'Publish is in progress' or, once no longer wanted on the
 * website, 'Being taken off the website' (asked again every second until the publishing answers), the publishError in red, or a link to the object's public page.
 */
export function PublishStatus(p: Props) {
  const { t, i18n } = useTranslation();
  const inProgress = publishInProgress(p);
  const { data } = useQuery(publishStateQuery(p.id, inProgress));
  const settled = inProgress && data && !publishInProgress(data) && data.publishRequested === p.publishRequested ? data : null;
  const told = useRef<TObjectPublishState | null>(null);
  const onSettled = p.onSettled;
  useEffect(() => {
    if (settled && told.current !== settled) {
      told.current = settled;
      onSettled?.(settled);
    }
  }, [settled, onSettled]);

  const s = settled ?? p;
  if (publishInProgress(s)) {
    return (
      <Group gap={6} data-testid="publish-progress" role="status">
        <Loader size={14} aria-hidden />
        <Text size="sm" c="blue.8">
          {t(withdrawalInProgress(s) ? 'objects.publish.withdrawing' : 'objects.publish.inProgress')}
        </Text>
      </Group>
    );
  }
  if (s.publishError) {
    return (
      <Text size="sm" c="red.8" data-testid="publish-error" role="alert">
        {s.publishError}
      </Text>
    );
  }
  if (s.published && s.publishRequested) {
    return (
      <Anchor
        href={`/listings/${p.referenceNumber}?lang=${siteLanguage(i18n.language)}`}
        target="_blank"
        rel="noopener noreferrer"
        size="sm"
        data-testid="public-page-link"
      >
        {t('objects.publish.openPublic')}
      </Anchor>
    );
  }
  return null;
}
