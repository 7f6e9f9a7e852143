import type { Page } from '@playwright/test';

/** A select or search picker (`field-…` or a filter's test id): opens it, types if asked, takes the option named `text` (the whole name, or a pattern in it). */
export async function pick(page: Page, testId: string, text: string | RegExp, typed?: string) {
  const input = page.getByTestId(testId);
  if (typed !== undefined) await input.fill(typed);
  else await input.click();
  await page.getByRole('option', { name: text, exact: true }).click();
}
