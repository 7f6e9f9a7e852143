import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconPlus } from '../../../components/icons.ts';
import { formatMoney } from '../../../lib/format.ts';
import { dealsOfQuery } from '../api/deals.ts';

/** The deals made from a lead, on the lead's page, with a way to start one from it. */
export function LeadDeals({ leadId }: { leadId: number }) {
  const { t } = useTranslation();
  const q = useQuery(dealsOfQuery({ demandId: leadId }));
  const items = q.data?.items ?? [];
  return (
    <Paper withBorder p="sm" data-testid="lead-deals">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {t('deals.ui.ofLead')}
        </Title>
        <Button component={Link} to={`/Deals/Add?demandId=${leadId}`} size="compact-sm" variant="light" leftSection={<IconPlus size={14} />}>
          {t('deals.ui.addFromLead')}
        </Button>
      </Group>
      {q.data && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('deals.ui.noneOfLead')}
        </Text>
      )}
      <Stack gap={4}>
        {items.map((d) => (
          <Anchor key={d.id} component={Link} to={`/Deals/${d.id}`} size="sm" data-testid="lead-deal">
            #{d.id} · {d.type} · {d.stage}
            {d.objectReferenceNumber ? ` · #${d.objectReferenceNumber}` : ''}
            {(d.price ?? d.askingPrice) != null ? ` · ${formatMoney(d.price ?? d.askingPrice)}` : ''}
          </Anchor>
        ))}
      </Stack>
    </Paper>
  );
}
