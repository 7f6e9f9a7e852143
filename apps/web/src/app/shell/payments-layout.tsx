import { ModalsProvider } from '@mantine/modals';
import { Anchor, AppShell, Avatar, Button, Container, Group, Menu, Text, UnstyledButton, useMantineTheme, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { IconLogout } from '../../components/icons.ts';
import { api } from '../../lib/api.ts';
import { changeRouteBanner } from '../../lib/banner.ts';
import { setSession, useSession } from '../../lib/session.ts';
import { allowedInPaymentsApp } from '../../lib/variant.ts';
import { Banner } from './banner.tsx';
import { LanguageMenu } from './language-menu.tsx';
import { useRouteTitle } from './use-route-title.ts';

/**
 * The payments-only app's shell (document 001, 2.2): the payments brand, the language switcher,
 * the signed-in user's name and Logout (on a phone, both in a user menu). Only payments screens open in it: a client its own
 * statement, staff the payments screens; any other address goes home.
 */
export function PaymentsLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const session = useSession();
  const title = useRouteTitle();
  const navigate = useNavigate();
  const qc = useQueryClient();
  // A phone has no room for the name and a labelled Logout beside the brand: both go into a user menu there.
  const { breakpoints } = useMantineTheme();
  const wide = useMediaQuery(`(min-width: ${breakpoints.sm})`, true, { getInitialValueInEffect: false });

  useEffect(() => {
    changeRouteBanner();
  }, [location.pathname]);

  useEffect(() => {
    document.title = `${t(title)} · ${t('app.paymentsBrand')}`;
  }, [t, title]);

  if (!allowedInPaymentsApp(session, location.pathname)) return <Navigate to="/" replace />;

  const logout = async () => {
    await api('/api/authenticate/logout', { method: 'POST', handle401: true }).catch(() => undefined);
    setSession(null);
    qc.clear();
    navigate('/');
  };

  return (
    <ModalsProvider
      // Every dialog's close button is named, and its header is not a second page banner (a header in a dialog is one for axe).
      modalProps={{ closeButtonProps: { 'aria-label': t('common.close') }, attributes: { header: { role: 'presentation' } } }}
    >
        <AppShell header={{ height: 56 }} padding="md">
        <a href="#content" className="skip-link no-print">
          {t('nav.skipToContent')}
        </a>
        <AppShell.Header className="no-print">
          <Group h="100%" px="sm" gap="xs" wrap="nowrap" justify="space-between" component="nav" aria-label={t('nav.menu')}>
            <Anchor component={Link} to="/" fw={700} c="teal.9" underline="never" style={{ whiteSpace: 'nowrap' }} data-testid="brand">
              {t('app.paymentsBrand')}
            </Anchor>
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <LanguageMenu />
              {wide ? (
                <>
                  <Text size="sm" fw={500} truncate="end" maw={260} data-testid="user-name">
                    {session?.username}
                  </Text>
                  <Button variant="subtle" size="compact-sm" leftSection={<IconLogout size={16} />} onClick={() => void logout()} data-testid="logout">
                    {t('nav.logout')}
                  </Button>
                </>
              ) : (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <UnstyledButton aria-label={t('nav.userMenu')} data-testid="user-menu">
                      <Avatar color="teal" radius="xl" size={32}>
                        {session?.username.charAt(0).toUpperCase()}
                      </Avatar>
                    </UnstyledButton>
                  </Menu.Target>
                  <Menu.Dropdown maw="calc(100vw - 16px)">
                    <Menu.Label style={{ overflowWrap: 'anywhere' }} data-testid="user-name">
                      {t('nav.signedInAs', { name: session?.username })}
                    </Menu.Label>
                    <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void logout()} data-testid="logout">
                      {t('nav.logout')}
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Main id="content" tabIndex={-1} style={{ outline: 'none' }}>
          <Container size="xl" px={0}>
            <VisuallyHidden component="h1" data-testid="page-h1">
              {t(title)}
            </VisuallyHidden>
            <Banner />
            <Outlet />
          </Container>
        </AppShell.Main>
      </AppShell>
    </ModalsProvider>
  );
}
