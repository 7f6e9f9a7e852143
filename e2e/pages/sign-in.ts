import { expect, type Page } from '@playwright/test';
import { ADMIN } from '../playwright.config.ts';

/** The sign-in screen (/login): what a person types and what they are told. */
export class SignInPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto('/login');
    await expect(this.page.locator('main h1')).toBeVisible();
  }

  /** Types the e-mail and password and signs in; `landsOn`: where a right password leads (the home page). */
  async signIn(email = ADMIN.email, password = ADMIN.password, landsOn: RegExp | null = /\/CRM$/) {
    await this.page.getByTestId('login-email').fill(email);
    await this.page.getByTestId('login-password').fill(password);
    await this.page.getByTestId('login-submit').click();
    if (landsOn) await expect(this.page).toHaveURL(landsOn);
  }

  /** What the screen says of a refused sign-in. */
  get error() {
    return this.page.getByRole('alert');
  }
}
