import { useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate, type NavigateOptions, type To } from 'react-router';

const never = () => () => undefined;

/**
 * True in the browser once the screen is its own; false while the server draws it (decision 054)
 * and in the browser's first render over the drawn page, which must come out the same.
 */
export const useInBrowser = (): boolean =>
  useSyncExternalStore(
    never,
    () => true,
    () => false,
  );

/**
 * What only a browser can run (Leaflet reads `navigator` and `window` as it loads): its
 * placeholder (`fallback`) on the server and in the browser's first render over a drawn page, the
 * thing itself from then on. Its code, when loaded lazily inside, is never asked for on the server.
 */
export function ClientOnly({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  return useInBrowser() ? children : fallback;
}

/**
 * Sends the browser to another screen once it has drawn this one: an effect, which a drawing on the
 * server never runs (React Router's <Navigate> warns there and draws an empty page). A screen that is
 * only a way to another has its server answer in the route's handle (`serverRedirect`, entry-server.tsx).
 */
export function ClientRedirect({ to, replace = true, state }: { to: To; replace?: boolean; state?: NavigateOptions['state'] }) {
  const navigate = useNavigate();
  const target = JSON.stringify(to);
  const kept = JSON.stringify(state ?? null);
  useEffect(() => {
    void navigate(JSON.parse(target) as To, { replace, state: JSON.parse(kept) as unknown });
  }, [navigate, target, replace, kept]);
  return null;
}
