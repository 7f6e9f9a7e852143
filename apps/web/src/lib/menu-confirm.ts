import type { RefObject } from 'react';

/**
 * A question opened from a menu's item (Delete… in a record's "more" menu): the item is gone once
 * the menu closes, so the dialog has nowhere to give the focus back, and a keyboard user who
 * answered "Cancel" or pressed Escape would be left at the top of the page. Called on the dialog's
 * close, this puts the focus on the menu's own button once the dialog and the closing menu have let
 * go of it (the dialog gives it back to the item a moment after it closes, and the item then
 * disappears), unless the focus has already gone somewhere else on purpose.
 */
export function focusMenuButtonAfterDialog(button: RefObject<HTMLElement | null>) {
  const settle = (tries: number) => {
    const active = document.activeElement;
    const adrift = active == null || active === document.body || !active.isConnected;
    if (adrift && button.current?.isConnected) button.current.focus();
    else if (tries > 0 && active?.closest('[role="dialog"], [role="menu"]')) setTimeout(() => settle(tries - 1), 30);
  };
  setTimeout(() => settle(20), 30);
}
