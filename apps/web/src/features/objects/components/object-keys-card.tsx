import { Anchor, Badge, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { objectKeysQuery } from '../api/object-keys.ts';
import { keyStateLine } from '../key-state.ts';
import { AddKeyButton } from './add-key-button.tsx';
import { OBJECT_KEY, href } from '@crm/contract/resources';

/** The most keys a property's page lists (an office holds a few per property). */
const SHOWN = 20;

/**
 * A property's keys on its page: who holds each, when it came in and went out, each opening the
 * key's form, and Add key (the form comes back here). Read from GET /api/ObjectKeys by the
 * property's id (by its number, #1000 would take the keys of #10000–#10009 too).
 */
export function ObjectKeysCard({ objectId }: { objectId: number }) {
  const { t } = useTranslation();
  const q = useQuery(objectKeysQuery({ referenceNumber: '', objectId, perPage: SHOWN, currentPage: 1 }));
  const keys = q.data?.items ?? [];
  return (
    <Card withBorder padding="sm" data-testid="object-keys">
      <Group justify="space-between" gap="xs" mb={6}>
        <Group gap={6}>
          <Title order={3} size="h5">
            {t('title.keys')}
          </Title>
          <Badge size="sm" variant="light" color={keys.length ? 'blue' : 'gray'} data-testid="object-keys-count">
            {q.data ? q.data.totalRows : '…'}
          </Badge>
        </Group>
        <AddKeyButton objectId={objectId} size="compact-sm" />
      </Group>
      {q.isPending ? (
        <Skeleton height={24} />
      ) : keys.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('objectkeys.noneForProperty')}
        </Text>
      ) : (
        <Stack gap={6}>
          {keys.map((k) => (
            <div key={k.id} data-testid="object-key">
              <Anchor component={Link} to={href(OBJECT_KEY.screens.view, { id: k.id })} size="sm" mih={24} style={{ display: 'inline-flex', alignItems: 'center', overflowWrap: 'anywhere' }}>
                {k.description || t('objectkeys.key')}
              </Anchor>
              <Text size="xs" c="dimmed" data-testid="object-key-state">
                {keyStateLine(t, k)}
              </Text>
            </div>
          ))}
        </Stack>
      )}
    </Card>
  );
}
