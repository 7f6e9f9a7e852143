import { ModalsProvider } from '@mantine/modals';
import { Anchor, AppShell, Button, Container, Group, Text, useMantineTheme, VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Link, Outlet, useLocation } from 'react-router';
import { ClientRedirect } from '../../components/client-only.tsx';
import { IconKey, IconLogout } from '../../components/icons.ts';
import { changeRouteBanner } from '../../lib/banner.ts';
import { useSession } from '../../lib/session.ts';
import { allowedInPaymentsApp } from '../../lib/variant.ts';
import { Banner } from './banner.tsx';
import { ChangePasswordDialog } from './change-password.tsx';
import { LanguageMenu } from './language-menu.tsx';
import { useRouteTitle } from '../../lib/use-route-title.ts';
import { useLogout, UserMenu } from './user-menu.tsx';
import { UnsavedChangesGuard } from '../../lib/unsaved-guard.tsx';
import { useMedia } from '../../lib/first-paint.ts';

/**
 * The payments-only app's shell (document 001, 2.2): the payments brand, the language switcher,
 * the signed-in user's name, Change password and Logout (on a phone, all in a user menu). Only payments screens open in it: a client its own
 * statement, staff the payments screens; any other address goes home.
 */
export function PaymentsLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const session = useSession();
  const title = useRouteTitle();
  const logout = useLogout();
  const [changing, setChanging] = useState(false);
  // A phone has no room for the name and a labelled Logout beside the brand: both go into a user menu there.
  const { breakpoints } = useMantineTheme();
  const wide = useMedia(`(min-width: ${breakpoints.sm})`, true);

  useEffect(() => {
    changeRouteBanner();
  }, [location.pathname]);

  useEffect(() => {
    document.title = `${t(title)} · ${t('app.paymentsBrand')}`;
  }, [t, title]);

  if (!allowedInPaymentsApp(session, location.pathname)) return <ClientRedirect to="/" />;


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
                  <Button variant="subtle" size="compact-sm" leftSection={<IconKey size={16} />} onClick={() => setChanging(true)} data-testid="change-password">
                    {t('nav.changePassword')}
                  </Button>
                  <Button variant="subtle" size="compact-sm" leftSection={<IconLogout size={16} />} onClick={logout} data-testid="logout">
                    {t('nav.logout')}
                  </Button>
                  <ChangePasswordDialog opened={changing} onClose={() => setChanging(false)} />
                </>
              ) : (
                <UserMenu color="teal" />
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
            {/* Leaving a form with what was typed (an expense, the account's own form) asks first, as in the CRM. */}
            <UnsavedChangesGuard />
          </Container>
        </AppShell.Main>
      </AppShell>
    </ModalsProvider>
  );
}
