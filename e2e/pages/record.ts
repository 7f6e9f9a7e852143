import { expect, type Locator, type Page } from '@playwright/test';

/**
 * A record screen of the kit (an account, a property, a deal, a payment): its fields by name, the
 * auto-save's state, the switch between reading and editing (and More), the banner that tells of a
 * save, a delete or a colleague's change met on saving (the conflict), and Delete with its question.
 */
export class RecordPage {
  constructor(readonly page: Page) {}

  field(name: string): Locator {
    return this.page.getByTestId(`field-${name}`);
  }
  async fill(name: string, value: string) {
    await this.field(name).fill(value);
  }
  get saveStatus(): Locator {
    return this.page.getByTestId('save-status');
  }
  /** Waits until every change typed is saved (the status says so in the reader's language). */
  async saved(text?: string, timeout?: number) {
    await expect(this.saveStatus).toHaveAttribute('data-status', 'saved', timeout ? { timeout } : undefined);
    if (text) await expect(this.saveStatus).toContainText(text);
  }
  /** Waits until the auto-save says a change could not be saved. */
  async saveFailed(timeout?: number) {
    await expect(this.saveStatus).toHaveAttribute('data-status', 'error', timeout ? { timeout } : undefined);
  }
  /** Edit, or Done: from reading to editing and back. */
  get editToggle(): Locator {
    return this.page.getByTestId('edit-toggle');
  }
  async toggleEdit() {
    await this.editToggle.click();
  }
  /** What the screen says after a save, a delete, or a conflict met on saving. */
  get banner(): Locator {
    return this.page.getByTestId('banner');
  }
  get dialog(): Locator {
    return this.page.getByRole('dialog');
  }

  /**
   * Delete asked for: from the record's Actions menu (`menu`, its test id) when it has one, then its
   * Delete (`button`); the question is open, not yet answered.
   */
  async askDelete(button: string, menu?: string) {
    if (menu) await this.page.getByTestId(menu).click();
    await this.page.getByTestId(button).click();
  }
  /** The open question's Delete. */
  async confirmDelete() {
    await this.page.getByTestId('confirm-delete').click();
  }
}
