import { Badge, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { href, OBJECT } from '@crm/contract/resources';
import { useCookieState } from '../../../lib/list-state.ts';
import { formatDate } from '../../../lib/format.ts';
import { mandatesEndingQuery } from '../api/mandates.ts';
import { CardsTable } from '../../../components/cards-table.tsx';
import { QueryCard } from '../../../components/query-card.tsx';

/**
 * The agents' list of mandates ending soon (decision 079): in force, ending within 30 days, soonest
 * first, each opening its property; "Only my properties" is kept in a cookie.
 */
export function MandatesEndingPage() {
  const { t } = useTranslation();
  const [mine, setMine] = useCookieState<boolean>('Mandates.endingMine', false);
  const q = useQuery(mandatesEndingQuery(mine));
  const items = q.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            {t('mandates.endingSoon.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('mandates.endingSoon.intro')}
          </Text>
        </div>
        <Switch label={t('mandates.endingSoon.mine')} checked={mine} onChange={(e) => setMine(e.currentTarget.checked)} data-testid="mandates-ending-mine" />
      </Group>
      <QueryCard query={q} empty={items.length === 0} emptyText={t('mandates.endingSoon.empty')} emptyTestId="mandates-ending-empty">
        <CardsTable
          testId="mandates-ending"
          minWidth={640}
          headers={[t('mandates.col.property'), t('mandates.col.kind'), t('mandates.col.endsOn'), t('mandates.col.daysLeft'), t('mandates.col.owners'), t('mandates.col.agents')]}
        >
          {items.map((m) => (
            <tr key={m.id} data-testid="mandate-ending">
              <td data-card="title">
                <Link to={href(OBJECT.screens.view, { id: m.objectId })} className="cell-link mantine-focus-auto">
                  #{m.referenceNumber}
                  {m.objectTitle ? ` · ${m.objectTitle}` : ''}
                </Link>
              </td>
              <td data-label={t('mandates.col.kind')}>{t(`mandates.kind.${m.kind}`)}</td>
              <td data-label={t('mandates.col.endsOn')}>{formatDate(m.endsOn)}</td>
              <td data-label={t('mandates.col.daysLeft')}>
                <Badge color={m.daysLeft <= 10 ? 'red' : 'orange'} variant="light">
                  {m.daysLeft}
                </Badge>
              </td>
              <td data-label={t('mandates.col.owners')} {...(m.owners ? {} : { 'data-empty': '' })}>
                {m.owners}
              </td>
              <td data-label={t('mandates.col.agents')} {...(m.agents ? {} : { 'data-empty': '' })}>
                {m.agents}
              </td>
            </tr>
          ))}
        </CardsTable>
      </QueryCard>
    </Stack>
  );
}
