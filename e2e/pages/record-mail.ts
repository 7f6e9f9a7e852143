import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The e-mails of a record (an account, a property, a lead, a deal) in its timeline, among its
 * activities: a thread's rows, a message, a new e-mail written from it.
 */
export class RecordMailPanel {
  constructor(readonly page: Page) {}

  get panel(): Locator {
    return this.page.getByTestId('activity-list');
  }
  /** The timeline's rows in their order: "mail-row" or "activity-row" each. */
  get rows(): Locator {
    return this.panel.locator('[data-testid="activity-table"] > tbody > tr');
  }
  /** Shows all, activities or e-mails only, by the control's label. */
  async show(label: string) {
    await this.panel.getByTestId('timeline-kind').getByText(label, { exact: true }).click();
  }
  row(subject: string): Locator {
    return this.panel.getByTestId('mail-row').filter({ hasText: subject });
  }
  get composer(): Locator {
    return this.page.getByTestId('mail-compose');
  }
  get message(): Locator {
    return this.page.getByTestId('mail-message');
  }

  /** Opens the composer and picks the mailbox it is sent from by its name. */
  async startNew(mailbox: string) {
    await this.panel.getByTestId('mail-new').click();
    await expect(this.composer).toBeVisible();
    await this.composer.getByTestId('mail-compose-from').click();
    await this.page.getByRole('option', { name: mailbox }).click();
  }
  /** Starts the message from one of the agency's texts, by its name on the list. */
  async useTemplate(name: string) {
    await this.composer.getByTestId('mail-compose-template').click();
    await this.page.getByRole('option', { name }).click();
  }
  async send() {
    await this.composer.getByTestId('mail-compose-send').click();
    await expect(this.composer).toBeHidden();
  }
}
