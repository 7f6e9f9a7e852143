import { Badge, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TPortalObjectStatus } from '@crm/contract';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { objectPortalsQuery, setObjectPortal } from '../api/portals.ts';

type Props = { objectId: number; onSite: boolean; lastUpdate?: string | null };

/**
 * The property on the portals (decision 083), in the publishing card: each active channel, whether
 * the property is in its feed, what that portal still needs ("ready" when nothing), when the portal
 * last fetched the feed, what the portal reported of it on its last import (decision 091), and for a channel of chosen properties the switch that sends this one.
 */
export function PortalStatus({ objectId, onSite, lastUpdate }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // Asked again when the property changes (a field filled can make it ready).
  const stamp = `${lastUpdate ?? ''} ${onSite}`;
  const q = useQuery(objectPortalsQuery(objectId, stamp));
  const choose = useMutation({
    mutationFn: (s: { channelId: number; included: boolean }) => setObjectPortal(objectId, s.channelId, s.included),
    onSuccess: (answer) => qc.setQueryData(objectPortalsQuery(objectId, stamp).queryKey, answer),
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    },
  });
  if (!q.data) return null;
  const items = q.data.items;
  const line = (s: TPortalObjectStatus) => (
    <Stack key={s.channelId} gap={2} data-testid="portal-status" data-kind={s.kind} data-included={s.included ? 'yes' : 'no'}>
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={600}>
          {s.name}
        </Text>
        <Badge variant="light" color={s.included ? 'green' : 'gray'} tt="none" data-testid="portal-included">
          {s.included ? t('portals.ui.included') : t('portals.ui.notIncluded')}
        </Badge>
        {s.selection === 'chosen' && (
          <Switch
            size="sm"
            label={t('portals.ui.choose', { name: s.name })}
            checked={s.selected}
            disabled={choose.isPending}
            onChange={(e) => choose.mutate({ channelId: s.channelId, included: e.currentTarget.checked })}
            data-testid="portal-choose"
          />
        )}
      </Group>
      {s.missing.length > 0 ? (
        <Text size="sm" c="red.8" data-testid="portal-missing">
          {t('portals.ui.missing', { list: s.missing.join('; ') })}
        </Text>
      ) : s.selection === 'chosen' && !s.selected ? (
        <Text size="sm" c="dimmed">
          {t('portals.ui.notChosen')}
        </Text>
      ) : (
        <Text size="sm" data-testid="portal-ready">
          {t('portals.ui.ready')}
        </Text>
      )}
      {s.reports.map((r, i) => (
        <Text key={i} size="sm" c="red.8" data-testid="portal-report">
          <PortalWords text={t('portals.ui.reports', { message: MARK, date: formatDateTime(r.reportedOn) })} words={r.message} />
        </Text>
      ))}
      {s.notes.length > 0 && (
        <Text size="sm" c="orange.9" data-testid="portal-notes">
          {t('portals.ui.notes', { list: s.notes.join('; ') })}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {s.lastFetchedOn ? t('portals.ui.lastFetched', { date: formatDateTime(s.lastFetchedOn) }) : t('portals.ui.neverFetched')}
      </Text>
    </Stack>
  );
  return (
    <Stack gap="xs" data-testid="portal-statuses">
      <Title order={4} size="h6">
        {t('portals.ui.card.title')}
      </Title>
      {!items.length && (
        <Text size="sm" c="dimmed">
          {t('portals.ui.noChannels')}
        </Text>
      )}
      {items.length > 0 && !onSite && (
        <Text size="sm" c="dimmed">
          {t('portals.ui.notOnSite')}
        </Text>
      )}
      {items.map(line)}
    </Stack>
  );
}

/** Where the portal's own words go in the sentence around them. */
const MARK = '\u241f';
/** A sentence with the portal's words in it, kept as the portal wrote them: not the interface's, not translated. */
function PortalWords({ text, words }: { text: string; words: string }) {
  const [before, after] = text.split(MARK);
  return (
    <>
      {before}
      <span translate="no">{words}</span>
      {after}
    </>
  );
}
