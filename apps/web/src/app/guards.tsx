import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session.ts';
import { paymentsHome, usePaymentsApp } from '../lib/variant.ts';

/** Every protected route: without a session, go to /login (and come back after signing in). */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

/**
 * "/" goes to /CRM when signed in, otherwise to /login. In the payments app home is the account
 * list for staff and the client's own statement for a client.
 */
export function RedirectHome() {
  const session = useSession();
  const payments = usePaymentsApp();
  if (payments) return <Navigate to={paymentsHome(session)} replace />;
  return <Navigate to={session ? '/CRM' : '/login'} replace />;
}
