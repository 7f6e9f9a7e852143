import { expect, test, type Page } from '@playwright/test';
import { expectAccessible, openAsAdmin } from '../fixtures.ts';
import { downloadWorkbook } from '../pages/list.ts';

/**
 * The first agent's link to their `kind` (sales, leads) in the results, followed: the list it leads
 * to (`list`, at `address`) counts what the link showed, filtered by that agent. Answers the count.
 */
async function followFirstAgent(page: Page, kind: string, list: string, address: RegExp): Promise<string> {
  const link = page.getByTestId('results-row').getByTestId(`results-link-${kind}`).first();
  const agent = (await link.locator('xpath=ancestor::tr/th').textContent())!.trim();
  const count = (await link.textContent())!.trim();
  await link.click();
  await expect(page).toHaveURL(address);
  await expect(page.getByTestId(`${list}-count`)).toHaveText(count, { timeout: 20_000 });
  await expect(page.getByTestId(`${list}-filter-agent`)).toHaveValue(agent);
  return count;
}


/**
 * The manager's monthly question: what each agent did and brought in. The demo agency's agents over
 * this year, a number that opens the list it counts, and the same figures as Results.xlsx.
 */
const agencyYear = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Athens' }).format(new Date()).slice(0, 4);

for (const language of ['en-UK', 'el'] as const) {
  test(`the agents' results for the year, viewings, sales and leads numbers opening the filtered lists, and Results.xlsx (${language})`, async ({ browser, request, baseURL }) => {
    const el = language === 'el';
    const { ctx, page } = await openAsAdmin(browser, request, baseURL!, language, '/CRM', { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    // Under Accounts, beside the employees.
    await page.getByTestId('menu-nav.accounts').click();
    await page.getByRole('menuitem', { name: el ? 'Απόδοση συνεργατών' : "Agents' results" }).click();
    await expect(page).toHaveURL(/\/Reports$/);
    await expect(page.getByRole('heading', { level: 2, name: el ? 'Απόδοση συνεργατών' : "Agents' results" })).toBeVisible();

    await page.getByTestId('results-period').click();
    await page.getByRole('option', { name: el ? 'Τρέχον έτος' : 'This year' }).click();
    const year = agencyYear();
    await expect(page.getByTestId('results-covers')).toHaveText(el ? `Από 01/01/${year} έως 31/12/${year}` : `From 01/01/${year} to 31/12/${year}`, { timeout: 20_000 });
    const rows = page.getByTestId('results-row');
    expect(await rows.count()).toBeGreaterThan(1);
    const totals = page.getByTestId('results-total');
    await expect(totals.locator('th')).toHaveText(el ? 'Σύνολο' : 'Total');
    // The demo's year: properties taken on, viewings, leads and closed deals with their commission.
    for (const key of ['properties', 'viewings', 'leads', 'sales']) expect(Number(await totals.getByTestId(`results-${key}`).textContent())).toBeGreaterThan(0);
    await expect(totals.getByTestId('results-commission')).not.toHaveText('0,00\u00a0€');
    await expectAccessible(page, 'results');

    // The first agent with viewings: the number opens the viewings list with that agent and the year.
    const link = page.getByTestId('results-row').getByTestId('results-link-viewings').first();
    const agent = (await link.locator('xpath=ancestor::tr/th').textContent())!.trim();
    const count = (await link.textContent())!.trim();
    await link.click();
    await expect(page).toHaveURL(/\/Viewing$/);
    await expect(page.getByTestId('viewings-count')).toHaveText(count, { timeout: 20_000 });
    await expect(page.getByText(agent).first()).toBeVisible();

    // The file: the year in the title row, the agents and the totals as numbers and euros.
    await page.goBack();
    await expect(page.getByTestId('results-covers')).toContainText(year, { timeout: 20_000 });
    const ws = (await downloadWorkbook(page, page.getByTestId('results-download'), 'Results.xlsx')).worksheets[0]!;
    expect(ws.getCell('A1').value).toBe(`${el ? 'Απόδοση συνεργατών' : "Agents' results"}: 01/01/${year} – 31/12/${year}`);
    expect(ws.getCell('A3').value).toBe(el ? 'Συνεργάτης' : 'Agent');
    const last = ws.getRow(ws.rowCount);
    expect(last.getCell(1).value).toBe(el ? 'Σύνολο' : 'Total');
    expect(typeof last.getCell(2).value).toBe('number');
    expect(Number(last.getCell(12).value)).toBeGreaterThan(0);

    // An agent's sales: the deals list with that agent, closed sales of the year, as many rows.
    const sold = await followFirstAgent(page, 'sales', 'deals', /\/Deals$/);
    await expect(page.getByTestId('deals-table').locator('tbody tr')).toHaveCount(Math.min(Number(sold), 20));

    // An agent's leads: the leads list with that agent and the year.
    await page.goBack();
    await followFirstAgent(page, 'leads', 'leads', /\/Leads$/);
    await expectAccessible(page, 'leads filtered by agent');
    await ctx.close();
  });
}

test('the results on a phone: the table scrolls sideways inside the page, the agent stays in view (el)', async ({ browser, request, baseURL }) => {
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'el', '/Reports', { viewport: { width: 412, height: 915 }, isMobile: true });
  await page.getByTestId('results-filter-toggle').click();
  await page.getByTestId('results-period').click();
  await page.getByRole('option', { name: 'Τρέχον έτος' }).click();
  await expect(page.getByTestId('results-row').first()).toBeVisible({ timeout: 20_000 });
  const widths = await page.getByTestId('results-table').evaluate((el) => ({ inner: el.scrollWidth, outer: el.clientWidth, page: document.documentElement.scrollWidth }));
  expect(widths.inner).toBeGreaterThan(widths.outer);
  expect(widths.page).toBeLessThanOrEqual(412);
  await expectAccessible(page, 'results on a phone');
  await ctx.close();
});
