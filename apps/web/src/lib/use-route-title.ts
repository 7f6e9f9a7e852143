import { useMatches } from 'react-router';
import type { RouteHandle } from './route-handle.ts';

/** The deepest matched route's handle (title key, branch rule). */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const h = matches[i]!.handle as RouteHandle | undefined;
    if (h?.title) return h;
  }
  return undefined;
}

export const useRouteTitle = () => useRouteHandle()?.title ?? 'app.brand';
