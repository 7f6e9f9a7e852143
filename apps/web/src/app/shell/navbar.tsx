import { ActionIcon, Anchor, Button, Group, Indicator, Menu, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconChevronDown, IconMail } from '../../components/icons.ts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Link, useLocation, useNavigate } from 'react-router';
import { ALERT_POLL_MS } from '@crm/contract/constants';
import { SHELL } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';
import { useWhenIdle } from '../../lib/next-task.ts';
import { useSession } from '../../lib/session.ts';
import { visibleMenu } from './menu.ts';
import { useRouteTitle } from '../../lib/use-route-title.ts';

export function Brand() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to="/CRM" fw={700} c="blue.8" underline="never" style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0, flexShrink: 1 }} data-testid="brand">
      {t('app.brand')}
    </Anchor>
  );
}

/** Back in history when there is history, otherwise to /. */
export { LanguageMenu } from './language-menu.tsx';

/** Back in history when there is history, otherwise to /. */
export function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/');
  };
  return (
    <Tooltip label={t('nav.back')}>
      <ActionIcon variant="subtle" onClick={back} aria-label={t('nav.back')} data-testid="back">
        <IconArrowLeft size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

export function PageTitle() {
  const { t } = useTranslation();
  const title = useRouteTitle();
  return (
    <Text fw={600} truncate="end" miw={90} maw={{ base: 140, xl: 220 }} style={{ flexShrink: 0 }} className="page-title" data-testid="page-title">
      {t(title)}
    </Text>
  );
}

export function DesktopMenu({ branchUser }: { branchUser: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const admin = useSession()?.userroles.includes('admin') ?? false;
  return (
    <Group gap={0} wrap="nowrap" visibleFrom="lg" component="nav" aria-label={t('nav.menu')}>
      {visibleMenu(branchUser, admin).map((entry) =>
        'children' in entry ? (
          <Menu key={entry.label} trigger="click-hover" openDelay={50} closeDelay={150} position="bottom-start" withinPortal>
            <Menu.Target>
              <Button variant="subtle" size="compact-sm" px={6} rightSection={<IconChevronDown size={14} />} data-testid={`menu-${entry.label}`}>
                {t(entry.label)}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {entry.children.map((c) => (
                <Menu.Item key={c.to} component={Link} to={c.to}>
                  {t(c.label)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : (
          <Button
            key={entry.to}
            component={Link}
            to={entry.to}
            variant={location.pathname.startsWith(entry.to) ? 'light' : 'subtle'}
            size="compact-sm"
            px={6}
            data-testid={`menu-${entry.label}`}
          >
            {t(entry.label)}
          </Button>
        ),
      )}
    </Group>
  );
}

/** Unread alerts, polled every 5 minutes and on each route change. */
export function AlertsBadge() {
  const { t } = useTranslation();
  const location = useLocation();
  // Asked once the screen has been drawn and the browser is idle: the count is not what the reader
  // opened the page for, and on a phone's first visit its request competed with the screen's own.
  const started = useWhenIdle();
  const q = useQuery({
    queryKey: ['alerts', 'unreadCount'],
    queryFn: ({ signal }) => call(SHELL.calls.unreadCount, {}, { signal, background: true }),
    refetchInterval: ALERT_POLL_MS,
    enabled: started,
    meta: { handlesErrors: true },
  });
  const { refetch } = q;
  useEffect(() => {
    if (started) void refetch({ cancelRefetch: false });
  }, [location.pathname, refetch, started]);
  const count = q.data ?? 0;
  return (
    <Tooltip label={t('nav.unreadAlerts', { count })}>
      <Indicator label={count > 99 ? '99+' : count} size={16} color="red" disabled={count === 0} offset={4}>
        <ActionIcon component={Link} to="/Alerts" variant="subtle" aria-label={t('nav.unreadAlerts', { count })} data-testid="alerts-badge" data-count={count}>
          <IconMail size={20} />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}

