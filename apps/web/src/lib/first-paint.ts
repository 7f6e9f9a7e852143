import { useMediaQuery } from '@mantine/hooks';

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

/**
 * A media query's answer for a component: read at once in the browser; on a drawn page, drawn for
 * the assumed width on the server and in the browser's first render over it (so the two are the
 * same), then read from the browser.
 */
export function useMedia(query: string, fallback: boolean): boolean {
  const over = takingOver();
  return useMediaQuery(query, over ? assumedMatches(query) : fallback, { getInitialValueInEffect: over }) ?? fallback;
}
