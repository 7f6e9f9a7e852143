import { expect, type Page } from '@playwright/test';

/**
 * Closes the open menu with Escape, as a keyboard user does: the menu takes the focus once it has
 * opened, and only a menu holding the focus hears the key (a key pressed while it is still opening
 * reaches the button under it). Then the menu is gone.
 */
export async function closeMenuWithEscape(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('[role="menu"]') !== null))
    .toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
}
