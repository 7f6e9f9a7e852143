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
