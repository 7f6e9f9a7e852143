import { Avatar, Badge, Menu, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/use-translation.tsx';
import { Link, useNavigate } from 'react-router';
import { IconCalendarEvent, IconKey, IconLogout, IconMail } from '../../components/icons.ts';
import { CALENDAR_FEED, MAILBOX, SESSION, href } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';
import { forgetRecent } from '../../lib/recent.ts';
import { sessionStore, setSession, useSession } from '../../lib/session.ts';
import { ChangePasswordDialog } from './change-password.tsx';
import { useOnceOpened } from '../../lib/once-opened.ts';

/**
 * Signs out: ends the session on the server, forgets it here with everything read under it (the
 * recently opened records too), goes to /.
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return () => {
    void (async () => {
      await call(SESSION.calls.logout, {}, { handle401: true }).catch(() => undefined);
      forgetRecent(sessionStore.get()?.username);
      setSession(null);
      qc.clear();
      navigate('/');
    })();
  };
}

/**
 * The signed-in user's menu: the first letter of the username as its button, who is signed in (and
 * the branch, for branch users), the mailboxes (the CRM's staff: the shared ones and their own),
 * the calendar on their phone (their calendar address), Change password and Logout. The CRM's header uses it everywhere, the payments app on a phone (in
 * its own colour, without the mailboxes).
 */
export function UserMenu({ color = 'blue', mailboxes = false }: { color?: string; mailboxes?: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const logout = useLogout();
  const [changing, setChanging] = useState(false);
  const changingOnce = useOnceOpened(changing);
  if (!session) return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t('nav.userMenu')} data-testid="user-menu">
            <Avatar color={color} radius="xl" size={32}>
              {session.username.charAt(0).toUpperCase()}
            </Avatar>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown maw="calc(100vw - 16px)">
          <Menu.Label style={{ overflowWrap: 'anywhere' }} data-testid="user-name">
            {t('nav.signedInAs', { name: session.username })}
          </Menu.Label>
          {session.branchId != null && (
            <Menu.Label>
              <Badge variant="light">{t(`branch.${session.branchId}`)}</Badge>
            </Menu.Label>
          )}
          {mailboxes && (
            <Menu.Item component={Link} to={href(MAILBOX.screens.list)} leftSection={<IconMail size={16} />} data-testid="user-mailboxes">
              {t('title.mailboxes')}
            </Menu.Item>
          )}
          {mailboxes && (
            <Menu.Item component={Link} to={href(CALENDAR_FEED.screens.page)} leftSection={<IconCalendarEvent size={16} />} data-testid="user-calendar-feed">
              {t('title.calendarFeed')}
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setChanging(true)} data-testid="change-password">
            {t('nav.changePassword')}
          </Menu.Item>
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={logout} data-testid="logout">
            {t('nav.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {changingOnce && <ChangePasswordDialog opened={changing} onClose={() => setChanging(false)} />}
    </>
  );
}
