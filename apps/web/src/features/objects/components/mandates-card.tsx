// A property's mandates (εντολές ανάθεσης) on its page, and the one in force beside the publish switch.
import { Anchor, Badge, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TMandate } from '@crm/contract';
import { agencyToday } from '../../../lib/agency-clock.ts';
import { formatDate } from '../../../lib/format.ts';
import { IconPlus } from '../../../components/icons.ts';
import { DocumentButton } from '../../../components/document-button.tsx';
import { SignRequests } from '../../../components/sign-requests.tsx';
import { type TObjectView } from '../api/objects.ts';
import { mandatesQuery } from '../api/mandates.ts';
import { MandateDialog } from './mandate-dialog.tsx';

const status = (m: TMandate, today: string) => (m.inForce ? 'inForce' : m.startDate > today ? 'future' : 'ended');
const STATUS_COLOR = { inForce: 'green', future: 'blue', ended: 'gray' } as const;

/** "Exclusive mandate until 10/09/2026" (its extension's end when extended), or "No mandate". */
export function MandateInForce({ objectId }: { objectId: number }) {
  const { t } = useTranslation();
  const q = useQuery(mandatesQuery(objectId));
  const m = q.data?.inForce;
  if (q.isPending) return <Skeleton h={18} w={200} />;
  return (
    <Group gap={6} data-testid="mandate-in-force">
      <Text size="sm" c="dimmed">
        {t('mandates.one')}:
      </Text>
      {m ? (
        <Badge color="green" variant="light" tt="none" data-testid="mandate-in-force-badge">
          {t(`mandates.inForce.${m.kind}`, { date: formatDate(m.extendedUntil ?? m.endDate) })}
        </Badge>
      ) : (
        <Badge color="orange" variant="light" tt="none" data-testid="mandate-none">
          {t('mandates.none')}
        </Badge>
      )}
    </Group>
  );
}

function MandateLine({ m, onOpen }: { m: TMandate; onOpen: () => void }) {
  const { t } = useTranslation();
  const s = status(m, agencyToday());
  return (
    <Stack gap={2} data-testid="mandate">
      <Group gap={6} wrap="wrap">
        <Anchor component="button" type="button" size="sm" fw={600} onClick={onOpen} mih={24} data-testid="mandate-open">
          {t(`mandates.kind.${m.kind}`)} · {formatDate(m.startDate)} – {formatDate(m.endDate)}
        </Anchor>
        <Badge size="sm" variant="light" color={STATUS_COLOR[s]} tt="none">
          {t(`mandates.status.${s}`)}
        </Badge>
        <DocumentButton source="mandate" id={m.id} title={t(`doctemplates.ui.kind.${m.kind === 'exclusive' ? 'mandateExclusive' : 'mandateSimple'}`)} testId="mandate-document" />
      </Group>
      <SignRequests source="mandate" id={m.id} title={t(`doctemplates.ui.kind.${m.kind === 'exclusive' ? 'mandateExclusive' : 'mandateSimple'}`)} />
      {m.extendedUntil && (
        <Text size="xs" c="dimmed">
          {t('mandates.extended', { date: formatDate(m.extendedUntil) })}
        </Text>
      )}
      {m.owners.length > 0 && (
        <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
          {t('mandates.col.owners')}: {m.owners.map((o) => o.name).join(', ')}
        </Text>
      )}
      {m.exceptions.length > 0 && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('mandates.exceptionsCount', { names: m.exceptions.map((e) => e.name).join(', ') })}
        </Text>
      )}
    </Stack>
  );
}

/** The mandates card: each mandate (its kind, period, status, owners, exceptions) opening its dialog, and Add a mandate. */
export function MandatesCard({ data }: { data: TObjectView }) {
  const { t } = useTranslation();
  const q = useQuery(mandatesQuery(data.id));
  const [open, setOpen] = useState<TMandate | 'new' | null>(null);
  const items = q.data?.items ?? [];
  const price = typeof data.salePrice === 'number' ? data.salePrice : typeof data.rentPrice === 'number' ? data.rentPrice : null;
  return (
    <Card withBorder padding="sm" data-testid="object-mandates">
      <Group justify="space-between" gap="xs" mb={6}>
        <Title order={3} size="h5">
          {t('mandates.title')}
        </Title>
        <Button size="compact-sm" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setOpen('new')} data-testid="mandate-add">
          {t('mandates.add')}
        </Button>
      </Group>
      {q.isPending ? (
        <Skeleton height={24} />
      ) : items.length === 0 ? (
        <Text size="xs" c="dimmed" data-testid="mandates-none">
          {t('mandates.noneYet')}
        </Text>
      ) : (
        <Stack gap="sm">
          {items.map((m) => (
            <MandateLine key={m.id} m={m} onOpen={() => setOpen(m)} />
          ))}
        </Stack>
      )}
      <MandateDialog
        objectId={data.id}
        mandate={open === 'new' ? null : open}
        contacts={data.contacts ?? []}
        askingPrice={price}
        opened={open !== null}
        onClose={() => setOpen(null)}
      />
    </Card>
  );
}
