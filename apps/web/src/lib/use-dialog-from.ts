import { useRef, useState } from 'react';

/**
 * A dialog opened by a button, for one thing at a time (`editing`): when it closes, the focus goes
 * back to the button it was opened from, or to `fallback` (a selector) when that button is gone.
 * The dialog is unmounted on close, so the modal's own return of the focus never runs, and without
 * this the next Tab began at the top of the page. `replace` swaps what is edited and keeps the
 * button to return to (a conflict answered with the newer version).
 */
export function useDialogFrom<T>(fallback: string) {
  const [editing, replace] = useState<T | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const open = (what: T) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    replace(what);
  };
  const close = () => {
    replace(null);
    const back = opener.current;
    requestAnimationFrame(() => (back?.isConnected ? back : document.querySelector<HTMLElement>(fallback))?.focus());
  };
  return { editing, open, close, replace };
}
