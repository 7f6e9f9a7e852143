import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ClientRedirect } from '../components/client-only.tsx';
import { SESSION } from '@crm/contract/resources';
import { call } from '../lib/api.ts';
import { whenIdle } from '../lib/next-task.ts';
import { renameRecent } from '../lib/recent.ts';
import { sessionStore, setSession, useSession } from '../lib/session.ts';
import { paymentsHome, usePaymentsApp } from '../lib/variant.ts';

/**
 * The signed-in user's name as the server has it now: it is the name of their account and follows
 * a rename of it, while the session kept in this browser holds the name of the day they signed in.
 * Asked once a start, in the background, when the browser is idle.
 */
function followSessionName(token: string) {
  whenIdle(() => {
    call(SESSION.calls.me, {}, { background: true })
      .then((me) => {
        const now = sessionStore.get();
        if (now?.token === token && me.username && me.username !== now.username) {
          renameRecent(now.username, me.username);
          setSession({ ...now, username: me.username });
        }
      })
      .catch(() => undefined);
  });
}

/** Every protected route: without a session, go to /login (and come back after signing in). */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  const token = session?.token;
  useEffect(() => {
    if (token) followSessionName(token);
  }, [token]);
  if (!session) return <ClientRedirect to="/login" state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

/**
 * "/" goes to /CRM when signed in, otherwise to /login. In the payments app home is the account
 * list for staff and the client's own statement for a client.
 */
export function RedirectHome() {
  const session = useSession();
  const payments = usePaymentsApp();
  if (payments) return <ClientRedirect to={paymentsHome(session)} />;
  return <ClientRedirect to={session ? '/CRM' : '/login'} />;
}
