import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config.ts';
import { startFreshOffice } from '../fresh-office.ts';
import { expectAccessible, signedIn } from '../fixtures.ts';

/**
 * A new office's first look, on a server of its own started without the demo (DEMO_DATA=false, as an
 * agency installs it): the suite's server holds the demo, so its lists are never empty. Starting one
 * costs some 20 s, so this file holds only what an empty office alone can show.
 */

test('an empty office: the properties list and the property search say so and offer Add property (el)', async ({ browser }) => {
  test.setTimeout(240_000);
  const office = await startFreshOffice('empty-office');
  try {
    const login = await fetch(`${office.baseURL}/api/authenticate/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    });
    expect(login.ok).toBe(true);
    const token = ((await login.json()) as { token: string }).token;
    const ctx = await signedIn(browser, office.baseURL, token, 'el');
    const page = await ctx.newPage();
    const nothingYet = 'Δεν υπάρχουν ακόμη ακίνητα. Καταχωρίστε το πρώτο και θα εμφανιστεί εδώ.';

    // The list: a count of 0, what the emptiness means, and the next action in its place.
    await page.goto(`${office.baseURL}/Objects`);
    await expect(page.getByTestId('objects-count')).toHaveText('0');
    const empty = page.getByTestId('objects-table-empty');
    await expect(empty).toContainText(nothingYet);
    await expect(page.getByTestId('objects-table-row')).toHaveCount(0);
    await expectAccessible(page, 'empty agency: properties');

    // The search, with no criteria, says the same (not "nothing matches"), with Add property.
    await page.goto(`${office.baseURL}/Objects/Search`);
    const searchEmpty = page.getByTestId('object-search-table-empty');
    await expect(searchEmpty).toContainText(nothingYet);
    await expect(searchEmpty.getByTestId('object-search-add')).toHaveText('Νέο ακίνητο');

    // Add property in the empty list opens the new property, ready to fill in.
    await page.goto(`${office.baseURL}/Objects`);
    await empty.getByTestId('objects-add').click();
    await expect(page).toHaveURL(/\/Objects\/View\/\d+\/2$/);
    await ctx.close();
  } finally {
    await office.stop();
  }
});
