import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session.ts';

/** Every protected route: without a session, go to /login (and come back after signing in). */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Outlet />;
}

/** "/" goes to /CRM when signed in, otherwise to /login. */
export function RedirectHome() {
  const session = useSession();
  return <Navigate to={session ? '/CRM' : '/login'} replace />;
}
