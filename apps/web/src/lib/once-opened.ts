import { useState } from 'react';

/**
 * True from the first time `opened` is true on: a dialog or drawer the shell offers on every screen
 * is mounted when first opened (and kept, so that it closes with its animation), not with every
 * screen. Closed, each was a dialog, a portal and a focus trap mounted and re-rendered in the
 * screen's first commit, for nothing.
 */
export function useOnceOpened(opened: boolean): boolean {
  const [ever, setEver] = useState(opened);
  if (opened && !ever) setEver(true);
  return ever || opened;
}
