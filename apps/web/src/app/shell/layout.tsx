import { ModalsProvider } from '@mantine/modals';
import { ActionIcon, AppShell, Box, Burger, Container, Drawer, Group, NavLink, ScrollArea, Stack, VisuallyHidden, useMantineTheme } from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Outlet, Link, useLocation } from 'react-router';
import { changeRouteBanner } from '../../lib/banner.ts';
import { UnsavedChangesGuard } from '../../lib/unsaved-guard.tsx';
import { useCurrentRecord } from '../../lib/recent.ts';
import { hasBranch, useSession } from '../../lib/session.ts';
import { Banner } from './banner.tsx';
import { SetupBanner } from '../../features/settings/components/setup-banner.tsx';
import { visibleMenu } from './menu.ts';
import { BackButton, Brand, PageTitle, DesktopMenu, AlertsBadge, LanguageMenu } from './navbar.tsx';
import { UserMenu } from './user-menu.tsx';
import { GlobalSearch } from './global-search.tsx';
import { IconSearch } from '../../components/icons.ts';
import { useRouteHandle, useRouteTitle } from '../../lib/use-route-title.ts';
import { AccessDenied } from './access-denied.tsx';
import { useMedia } from '../../lib/first-paint.ts';
import { useOnceOpened } from '../../lib/once-opened.ts';
import { SHELL, href } from '@crm/contract/resources';

export function Layout() {
  const { t } = useTranslation();
  const location = useLocation();
  const session = useSession();
  const handle = useRouteHandle();
  const title = useRouteTitle();
  const [drawer, { toggle, open, close }] = useDisclosure(false);
  // The phone's menu is mounted when first opened.
  const drawerOnce = useOnceOpened(drawer);
  // The menu was opened by the phone's search button: its search box takes the focus.
  const [searchFirst, setSearchFirst] = useState(false);
  const branchUser = hasBranch(session);
  // The desktop menu and the header's search box are only rendered where they are shown (CSS hid
  // them on a phone, after rendering their menus and combobox: a tenth of the first screen's work).
  const { breakpoints } = useMantineTheme();
  const wide = useMedia(`(min-width: ${breakpoints.lg})`, false);
  const roomForSearch = useMedia(`(min-width: ${breakpoints.sm})`, false);

  // Ctrl+K (⌘K on Apple keyboards) reaches the global search from anywhere, typing in a field included
  // (a shortcut with a modifier, so WCAG 2.1.4 asks for no way to turn it off). On a phone it opens
  // the menu with the search box ready. An open dialog keeps the keyboard.
  const searchInput = useRef<HTMLInputElement>(null);
  useHotkeys(
    [
      [
        'mod+K',
        () => {
          if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
          if (roomForSearch && searchInput.current) {
            searchInput.current.focus();
            searchInput.current.select();
          } else {
            setSearchFirst(true);
            open();
          }
        },
      ],
    ],
    [],
    true,
  );

  // The banner belongs to one screen: a route change clears it.
  useEffect(() => {
    changeRouteBanner();
    close();
    setSearchFirst(false);
  }, [location.pathname, close]);

  const denied = (handle?.noBranch && branchUser) || (handle?.adminOnly && !session?.userroles.includes('admin'));

  return (
    <ModalsProvider
      // Every dialog's close button is named, and its header is not a second page banner (a header in a dialog is one for axe).
      modalProps={{ closeButtonProps: { 'aria-label': t('common.close') }, attributes: { header: { role: 'presentation' } } }}
    >
    <AppShell header={{ height: 56 }} padding="md">
      <TabTitle title={title} />
      <a href="#content" className="skip-link no-print">
        {t('nav.skipToContent')}
      </a>
      <AppShell.Header className="no-print">
        <Group h="100%" px="sm" gap="xs" wrap="nowrap" justify="space-between">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger opened={drawer} onClick={toggle} hiddenFrom="lg" size="sm" aria-label={t('nav.menu')} />
            <Brand />
            <BackButton />
            <PageTitle />
            {wide && <DesktopMenu branchUser={branchUser} />}
          </Group>
          <Group gap={6} wrap="nowrap">
            {roomForSearch ? (
              <Box visibleFrom="sm">
                <GlobalSearch inputRef={searchInput} shortcutHint />
              </Box>
            ) : (
              // On a phone the search is one tap away: it opens the menu with the search box ready to type in.
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={t('nav.searchLabel')}
                onClick={() => {
                  setSearchFirst(true);
                  open();
                }}
                data-testid="phone-search"
              >
                <IconSearch size={20} />
              </ActionIcon>
            )}
            {!branchUser && <AlertsBadge />}
            <LanguageMenu />
            <UserMenu mailboxes />
          </Group>
        </Group>
      </AppShell.Header>
      {drawerOnce && (
      <Drawer
        opened={drawer}
        onClose={() => {
          setSearchFirst(false);
          close();
        }}
        title={t('app.brand')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        size="xs"
        hiddenFrom="lg"
      >
        <ScrollArea>
          <Stack gap={0}>
            <Box hiddenFrom="sm" mb="sm">
              <GlobalSearch autoFocus={searchFirst} />
            </Box>
            <NavLink component={Link} to={href(SHELL.screens.home)} label={t('nav.home')} active={location.pathname === SHELL.screens.home} />
            {/* The agent's day (viewings and to-dos), one tap from the menu on a phone. */}
            <NavLink component={Link} to="/Calendar" label={t('title.calendar')} active={location.pathname === '/Calendar'} data-testid="drawer-calendar" />
            {visibleMenu(branchUser, session?.userroles.includes('admin') ?? false).map((entry) =>
              'children' in entry ? (
                <NavLink key={entry.label} label={t(entry.label)} defaultOpened>
                  {entry.children.map((c) => (
                    <NavLink key={c.to} component={Link} to={c.to} label={t(c.label)} active={location.pathname.startsWith(c.to)} />
                  ))}
                </NavLink>
              ) : (
                <NavLink key={entry.to} component={Link} to={entry.to} label={t(entry.label)} active={location.pathname.startsWith(entry.to)} />
              ),
            )}
          </Stack>
        </ScrollArea>
      </Drawer>
      )}
      <AppShell.Main id="content" tabIndex={-1} style={{ outline: 'none' }}>
        <Container size="xl" px={0}>
          {/* The page's one h1: its title, for screen readers and the outline (the header shows it visually when there is room). */}
          <VisuallyHidden component="h1" data-testid="page-h1">
            {t(title)}
          </VisuallyHidden>
          <Banner />
          <SetupBanner />
          {denied ? <AccessDenied /> : <Outlet />}
          <UnsavedChangesGuard />
        </Container>
      </AppShell.Main>
    </AppShell>
    </ModalsProvider>
  );
}

/**
 * The tab names the record on screen first (a name is what tells ten open tabs apart), then the
 * screen. A component of its own: the record's name arrives once the record has loaded, and only
 * this re-renders for it, not the whole shell (its header, menus and dialogs).
 */
function TabTitle({ title }: { title: string }) {
  const { t } = useTranslation();
  const record = useCurrentRecord();
  useEffect(() => {
    document.title = `${record ? `${record} · ` : ''}${t(title)} · ${t('app.brand')}`;
  }, [t, title, record]);
  return null;
}
