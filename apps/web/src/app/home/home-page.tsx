import { Badge, Button, Card, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBell, IconBuildingEstate, IconCalendarEvent, IconFile, IconSearch, IconUserPlus, IconUsers, IconTargetArrow } from '../../components/icons.ts';
import { ALERT, INVOICE, MANDATE, href } from '@crm/contract/resources';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { homeQuery } from './home-api.ts';
import { TodayCard } from './today-card.tsx';
import { formatDateTime, formatLongDate } from '../../lib/format.ts';
import { agencyTodayDate } from '../../lib/agency-clock.ts';
import { logActionText, logEntityText, logSummaryText, logRecordPath } from '../../lib/log-texts.ts';
import { hasBranch, useSession } from '../../lib/session.ts';
import { CardsTable } from '../../components/cards-table.tsx';
import { currentCulture } from '../../lib/i18n.ts';

// The action list brings the date pickers: loaded after the page itself shows.
const ActionList = lazy(() => import('../../components/action-list.tsx').then((m) => ({ default: m.ActionList })));

const QUICK = [
  { to: '/Accounts/AddClient', label: 'home.addClient', icon: IconUserPlus },
  { to: '/Accounts/AddOwner', label: 'home.addOwner', icon: IconUsers },
  { to: '/Objects/Add', label: 'home.addObject', icon: IconBuildingEstate },
  { to: '/Leads/Add', label: 'home.addLead', icon: IconTargetArrow },
  { to: '/Objects/Search', label: 'home.findObject', icon: IconSearch },
  { to: '/Calendar', label: 'title.calendar', icon: IconCalendarEvent },
  // The agents' list of mandates ending within 30 days (decision 079).
  { to: href(MANDATE.screens.endingSoon), label: 'mandates.endingSoon.open', icon: IconFile },
  // The commission invoices and receipts and their myDATA status (decision 085).
  { to: href(INVOICE.screens.list), label: 'invoices.title', icon: IconFile },
];

export function HomePage() {
  const { t } = useTranslation();
  const session = useSession();
  const home = useQuery(homeQuery());
  const data = home.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} data-testid="home-welcome">
            {/* Greek addresses a person in the vocative (Δημήτρη, not Δημήτρης), which a name
                alone does not give reliably: the Greek greeting has no name. */}
            {data?.name && currentCulture() !== 'el' ? t('home.welcome', { name: data.name }) : t('home.welcomePlain')}
          </Title>
          <Text c="dimmed">{t('home.today', { date: formatLongDate(agencyTodayDate()) })}</Text>
        </div>
      </Group>
      <Grid>
        {/* On a phone the day's viewings come first (the agent on the way); a wider screen keeps its order. */}
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('home.quickActions')}
            </Title>
            <Group gap="xs">
              {QUICK.map(({ to, label, icon: Icon }) => (
                <Button key={to} component={Link} to={to} variant="light" leftSection={<Icon size={16} />}>
                  {t(label)}
                </Button>
              ))}
            </Group>
          </Card>
        </Grid.Col>
        {!hasBranch(session) && (
          <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 3, md: 2 }}>
            <Card withBorder h="100%">
              <Group justify="space-between">
                <Group gap="xs">
                  <IconBell size={20} />
                  <Title order={2} size="h4">{t('home.unreadAlerts')}</Title>
                </Group>
                {data ? (
                  <Badge size="lg" color={data.unreadAlerts ? 'red' : 'gray'} data-testid="home-unread">
                    {data.unreadAlerts}
                  </Badge>
                ) : (
                  <Skeleton w={30} h={20} />
                )}
              </Group>
              <Button component={Link} to={href(ALERT.screens.list)} variant="subtle" mt="sm" px={0}>
                {t('home.openAlerts')}
              </Button>
            </Card>
          </Grid.Col>
        )}
        <Grid.Col span={12} order={{ base: 1, md: 3 }}>
          <TodayCard />
        </Grid.Col>
        <Grid.Col span={12} order={4}>
          <Suspense fallback={<Skeleton h={120} />}>
            <ActionList mine />
          </Suspense>
        </Grid.Col>
        <Grid.Col span={12} order={5}>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t('home.recent')}
            </Title>
            {!data ? (
              <Stack gap="xs">
                <Skeleton h={16} />
                <Skeleton h={16} />
                <Skeleton h={16} />
              </Stack>
            ) : data.recent.length === 0 ? (
              <Text c="dimmed">{t('home.noRecent')}</Text>
            ) : (
              <CardsTable
                testId="home-recent"
                minWidth={480}
                headers={[t('actionLog.ui.col.date'), t('actionLog.ui.col.action'), t('actionLog.ui.col.entity'), t('actionLog.ui.col.message')]}
              >
                {data.recent.map((r) => {
                  const to = logRecordPath(r.action, r.entity, r.entityId);
                  const message = logSummaryText(t, r.entity, r.message, r.data ?? undefined);
                  return (
                    <tr key={r.id}>
                      <td style={{ width: 170 }} data-card="title">
                        {formatDateTime(r.date)}
                      </td>
                      <td data-label={t('actionLog.ui.col.action')}>{logActionText(t, r.action)}</td>
                      <td data-label={t('actionLog.ui.col.entity')}>
                        {to ? (
                          <Link to={to} className="cell-link mantine-focus-auto">
                            {logEntityText(t, r.entity)} #{r.reference ?? r.entityId}
                          </Link>
                        ) : (
                          logEntityText(t, r.entity)
                        )}
                      </td>
                      <td className="dimmed" data-label={t('actionLog.ui.col.message')} {...(message ? {} : { 'data-empty': '' })}>
                        {message}
                      </td>
                    </tr>
                  );
                })}
              </CardsTable>
            )}
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
