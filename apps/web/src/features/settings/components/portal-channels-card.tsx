import { Anchor, Badge, Button, Card, CopyButton, Group, Stack, Text, Title } from '@mantine/core';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { href, OBJECT } from '@crm/contract/resources';
import type { TPortalChannel } from '@crm/contract';
import { showBanner } from '../../../lib/banner.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { deletePortalChannel, portalChannelsQuery } from '../api/portals.ts';
import { PortalChannelForm } from './portal-channel-form.tsx';

/**
 * The property portals (decision 083): each channel with its portal, feed address (to give the
 * portal), its report address, the properties in its feed, when the portal last fetched it and the
 * properties it refused in its last report (decision 091); add, change, delete.
 */
export function PortalChannelsCard() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const q = useQuery({ ...portalChannelsQuery(), refetchInterval: 30000 });
  const [editing, setEditing] = useState<TPortalChannel | 'new' | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['portalChannels'] });
  const remove = useMutation({
    mutationFn: (c: TPortalChannel) => deletePortalChannel(c.id, c.version),
    onError: (e) => {
      const d = describeError(e);
      showBanner(d.type, d.message, { details: d.details });
    },
    onSettled: refresh,
  });
  const confirmDelete = (c: TPortalChannel) =>
    confirmAction(t, { title: t('portals.ui.delete'), text: t('portals.ui.deleteConfirm', { name: c.name }), testId: 'portal-delete-confirm', onConfirm: () => remove.mutate(c),
    });
  return (
    <Card withBorder padding="md" data-testid="portal-channels">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4">
          {t('portals.ui.title')}
        </Title>
        <Button size="xs" onClick={() => setEditing('new')} data-testid="portal-add">
          {t('portals.ui.add')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('portals.ui.intro')}
      </Text>
      {q.isError && <Text c="red.8">{describeError(q.error).message}</Text>}
      {q.data && !q.data.items.length && <Text size="sm">{t('portals.ui.empty')}</Text>}
      <Stack gap="sm">
        {q.data?.items.map((c) => (
          <Card key={c.id} withBorder padding="sm" data-testid="portal-channel" data-kind={c.kind}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="xs">
                <Text fw={600}>{c.name}</Text>
                <Badge variant="light" tt="none">
                  {t(`portals.kind.${c.kind}`)}
                </Badge>
                <Badge variant="light" color={c.enabled ? 'teal' : 'gray'} tt="none">
                  {c.enabled ? t('portals.ui.enabled') : t('portals.ui.disabled')}
                </Badge>
              </Group>
              <Group gap={6}>
                <Button size="xs" variant="default" onClick={() => setEditing(c)} data-testid="portal-edit">
                  {t('common.edit')}
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => confirmDelete(c)} aria-label={`${t('portals.ui.delete')}: ${c.name}`} data-testid="portal-delete">
                  {t('portals.ui.delete')}
                </Button>
              </Group>
            </Group>
            <CopyableAddress label={t('portals.ui.feedUrl')} value={c.feedUrl}>
              <Anchor href={c.feedUrl} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="portal-feed-url">
                {c.feedUrl}
              </Anchor>
            </CopyableAddress>
            <CopyableAddress label={t('portals.ui.reportUrl')} value={c.reportUrl}>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="portal-report-url">
                {c.reportUrl}
              </Text>
            </CopyableAddress>
            <Text size="sm" mt={4}>
              {t(`portals.ui.selection.${c.selection}`)} · {t('portals.ui.includedCount', { count: c.included })}
              {c.agencyId ? ` · ${t('portals.ui.agencyId')}: ${c.agencyId}` : ''}
            </Text>
            <Text size="xs" c="dimmed" data-testid="portal-last-fetched">
              {c.lastFetchedOn ? t('portals.ui.lastFetched', { date: formatDateTime(c.lastFetchedOn) }) : t('portals.ui.neverFetched')}
            </Text>
            {c.refusedCount > 0 && (
              <Stack gap={2} mt={6} data-testid="portal-refused">
                <Text size="sm" c="red.8" fw={600}>
                  {t('portals.ui.refused', { count: c.refusedCount })}
                </Text>
                {c.refused.map((r, i) => (
                  <Text key={i} size="sm" data-testid="portal-refused-item">
                    {r.objectId ? (
                      <Anchor component={Link} to={href(OBJECT.screens.view, { id: r.objectId })}>
                        {r.ref}
                      </Anchor>
                    ) : (
                      r.ref
                    )}
                    {': '}
                    {/* The portal's own words, as it wrote them: not the interface's, not translated. */}
                    <span translate="no">{r.message}</span>
                    {` (${formatDateTime(r.reportedOn)})`}
                  </Text>
                ))}
                {c.refusedCount > c.refused.length && (
                  <Text size="sm" c="dimmed">
                    {t('portals.ui.refusedMore', { count: c.refusedCount - c.refused.length })}
                  </Text>
                )}
              </Stack>
            )}
          </Card>
        ))}
      </Stack>
      <PortalChannelForm
        opened={editing !== null}
        channel={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refresh();
        }}
      />
    </Card>
  );
}

/** An address the portal is given (its feed, its report), named above it, with a copy button. */
function CopyableAddress({ label, value, children }: { label: string; value: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="xs" c="dimmed" mt={6}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        {children}
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button size="compact-xs" variant="subtle" onClick={copy}>
              {copied ? t('portals.ui.copied') : t('portals.ui.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </>
  );
}
