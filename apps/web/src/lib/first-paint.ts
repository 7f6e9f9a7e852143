import { useCallback, useSyncExternalStore } from 'react';

/**
 * A screen's first paint drawn on the server (entry-server.tsx, decision 054), and taken over in the
 * browser by hydration: React attaches itself to the drawn page instead of drawing it again.
 *
 * `drawingOnServer`: the server is drawing. `takingOver()`: the browser's first render over a drawn
 * page, which must come out exactly as the server's did. What waits for the browser's effects to
 * show itself (sections revealed together, blocks drawn when near) shows at once in both: the data
 * is there already.
 */
export const drawingOnServer = typeof globalThis === 'object' && '__firstPaint' in globalThis;

let overDrawn = !drawingOnServer && typeof document !== 'undefined' && document.documentElement.hasAttribute('data-drawn');

/** True while the server draws, and during the browser's first render over a drawn page. */
export const takingOver = (): boolean => drawingOnServer || overDrawn;

/** The browser's first render over the drawn page has been committed: the page is live. */
export function tookOver(): void {
  if (!overDrawn) return;
  overDrawn = false;
  document.getElementById('root')?.removeAttribute('inert');
  document.documentElement.removeAttribute('data-drawn');
}

/**
 * The screen width a drawn page is drawn for: a phone's or a desktop's, as the server guessed from
 * the browser (its mobile hint or user agent), and the same in the browser's first render over it.
 */
let assumedWidth = 1280;
export const setAssumedWidth = (px: number) => {
  assumedWidth = px;
};

/**
 * Whether a width media query (`(min-width: 48em)`, `(max-width: 35.99em)`, px or em, joined by
 * `and`) holds at the assumed width; any other feature (motion, hover…) does not.
 */
export function assumedMatches(query: string): boolean {
  const parts = query.split(/\s+and\s+/i);
  return parts.every((p) => {
    const m = /^\(\s*(min|max)-width\s*:\s*([\d.]+)(px|em|rem)\s*\)$/i.exec(p.trim());
    if (!m) return false;
    const px = Number(m[2]) * (m[3]!.toLowerCase() === 'px' ? 1 : 16);
    return m[1]!.toLowerCase() === 'min' ? assumedWidth >= px : assumedWidth <= px;
  });
}

/** One list per query, asked again on every render. */
const lists = new Map<string, MediaQueryList>();
function listOf(query: string): MediaQueryList | null {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return null;
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/**
 * A media query's answer for a component: read at once in the browser; on a drawn page, drawn for
 * the assumed width on the server and in the browser's first render over it (so the two are the
 * same), then read from the browser. Read as an outside store: taking over a drawn page whose width
 * was guessed right sets no state (a state set in every shell's effect drew the whole header and its
 * menus again in the same long task as the hydration's commit); a wrong guess or a change of width
 * draws the component again.
 */
export function useMedia(query: string, fallback: boolean): boolean {
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = listOf(query);
      list?.addEventListener('change', changed);
      return () => list?.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => listOf(query)?.matches ?? fallback,
    () => (takingOver() ? assumedMatches(query) : fallback),
  );
}
