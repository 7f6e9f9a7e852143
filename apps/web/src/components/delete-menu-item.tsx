import { Menu } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';
import { IconTrash } from './icons.ts';

/**
 * A record's Delete in its Actions menu: red (with the contrast kept while hovered or chosen from the
 * keyboard, `.menu-item-danger`), a bin. With `returnFocusTo`, the focus goes to the menu's button
 * before the delete question opens: the question gives the focus back to what had it, and this item is
 * gone by then.
 */
export function DeleteMenuItem({ onClick, returnFocusTo, testId, children }: { onClick: () => void; returnFocusTo?: RefObject<HTMLElement | null>; testId: string; children: ReactNode }) {
  return (
    <Menu.Item
      color="red"
      className="menu-item-danger"
      leftSection={<IconTrash size={16} />}
      onClick={() => {
        returnFocusTo?.current?.focus();
        onClick();
      }}
      data-testid={testId}
    >
      {children}
    </Menu.Item>
  );
}
