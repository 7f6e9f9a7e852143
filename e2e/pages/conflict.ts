import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The version conflict met on saving a record (a colleague saved it first): the banner that tells
 * of it and names the fields where their value was kept, and beside each such field the note of
 * what this user had typed there, with a button that puts it back (saved over theirs, knowingly).
 */
export class ConflictMerge {
  constructor(readonly page: Page) {}

  get banner(): Locator {
    return this.page.getByTestId('banner');
  }
  /** Waits until the banner tells of the conflict, saying each text given (the fields named, what was typed). */
  async told(...texts: string[]) {
    for (const text of texts) await expect(this.banner).toContainText(text);
  }
  /** The note beside a field (its test id) where the other person's value was kept. */
  replaced(field: string): Locator {
    return this.page.getByTestId(`${field}-replaced`);
  }
  /** Puts back what this user had typed in a field (its test id). */
  async putBack(field: string) {
    await this.page.getByTestId(`${field}-put-back`).click();
  }
}
