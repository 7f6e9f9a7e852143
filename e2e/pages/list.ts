import { expect, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';

/**
 * The workbook a download button gives (a list's xlsx, a statement, the results): pressed as told
 * (a double click is one download too), its file named `filename`, read back.
 */
export async function downloadWorkbook(page: Page, button: Locator, filename: string, press: 'click' | 'dblclick' = 'click'): Promise<ExcelJS.Workbook> {
  const download = page.waitForEvent('download');
  await button[press]();
  const file = await download;
  expect(file.suggestedFilename()).toBe(filename);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await file.path());
  return wb;
}

/**
 * A list screen of the kit (`testId` as the screen names itself: "owners", "deals"): its search and
 * filters, its rows, its count, its columns, its page size and what it says when it is empty.
 */
export class ListPage {
  constructor(
    readonly page: Page,
    readonly testId: string,
    readonly path: string,
  ) {}

  async open() {
    await this.page.goto(this.path);
    await expect(this.table).toBeVisible();
  }

  get table(): Locator {
    return this.page.getByTestId(`${this.testId}-table`);
  }
  get rows(): Locator {
    return this.page.getByTestId(`${this.testId}-table-row`);
  }
  get count(): Locator {
    return this.page.getByTestId(`${this.testId}-count`);
  }
  /** A filter field by its name ("search", "country"). */
  filter(name: string): Locator {
    return this.page.getByTestId(`${this.testId}-filter-${name}`);
  }
  async search(text: string) {
    await this.filter('search').fill(text);
  }
  /** The row whose link opens `href` (a record's address). */
  rowLinkingTo(href: string): Locator {
    return this.rows.filter({ has: this.page.locator(`a[href="${href}"]`) });
  }
  /** Sorts by a column: its heading's button, by its name (a first click sorts ascending). */
  async sortBy(name: string | RegExp) {
    await this.table.getByRole('button', { name }).click();
  }
  /** A column's heading, by its title. */
  heading(title: string): Locator {
    return this.table.locator('thead').getByText(title, { exact: true });
  }

  /** Shows or hides a column from the Columns button (by its field), and closes the menu. */
  async toggleColumn(accessor: string) {
    await this.page.getByTestId(`${this.testId}-columns`).click();
    await this.page.getByTestId(`${this.testId}-column-${accessor}`).click();
    await this.page.keyboard.press('Escape');
  }
  async showAllColumns() {
    await this.page.getByTestId(`${this.testId}-columns`).click();
    await this.page.getByTestId(`${this.testId}-columns-all`).click();
    await this.page.keyboard.press('Escape');
  }

  async choosePageSize(size: string) {
    await this.page.getByTestId(`${this.testId}-table-page-size`).click();
    await this.page.getByRole('option', { name: size, exact: true }).click();
  }
  get pageSize(): Locator {
    return this.page.getByTestId(`${this.testId}-table-page-size`);
  }
  /** What an empty list says. */
  get empty(): Locator {
    return this.page.getByTestId(`${this.testId}-table-empty`);
  }

  /** The list's xlsx (its Download button), named `filename`: its first sheet. */
  async downloadSheet(filename: string, press: 'click' | 'dblclick' = 'click'): Promise<ExcelJS.Worksheet> {
    return (await downloadWorkbook(this.page, this.page.getByTestId(`${this.testId}-download`), filename, press)).worksheets[0]!;
  }
}
