import { expect, type Locator, type Page } from '@playwright/test';

/**
 * A record screen of the kit (an account, a property, a deal): its fields by name, the auto-save's
 * state, the switch between reading and editing, and Delete with its confirmation.
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
  async saved(text?: string) {
    await expect(this.saveStatus).toHaveAttribute('data-status', 'saved');
    if (text) await expect(this.saveStatus).toContainText(text);
  }
  async toggleEdit() {
    await this.page.getByTestId('edit-toggle').click();
  }
}
