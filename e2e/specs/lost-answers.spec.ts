import { expect, test, type Page } from '@playwright/test';
import { apiToken, expectAccessible, signedIn, inLanguage } from '../fixtures.ts';

/**
 * A save that reached the server but whose answer was lost (the phone's connection dropped on the
 * way back): the form says it could not reach the server and keeps everything; Save pressed again
 * sends the same change with the same Idempotency-Key, and the server answers with what it did the
 * first time. One viewing, one key: never two.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The next `method` request to `path` reaches the server, which carries it out; its answer never
 * reaches the page. `answer` is what the server had answered (wrapped: an async function's promise
 * of a promise would wait for it).
 */
async function loseNextAnswer(page: Page, path: string, method = 'POST'): Promise<{ answer: Promise<string> }> {
  let lost = false;
  let told: (body: string) => void = () => {};
  const answer = new Promise<string>((resolve) => (told = resolve));
  await page.route(`**${path}`, async (route) => {
    if (lost || route.request().method() !== method) return route.continue();
    lost = true;
    const response = await route.fetch();
    told(await response.text());
    await route.abort('connectionreset');
  });
  return { answer };
}

const NETWORK = { 'en-UK': /Cannot reach the server|connection/i, el: /σύνδεση/i } as const;

for (const language of inLanguage('el')) {
  test(`a viewing saved again after its answer was lost is stored once (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const lead = ((await (await request.post('/api/lead/add', { data: {}, headers: auth(token) })).json()) as { id: number }).id;
    // A day of its own, so that only this test's viewings are counted.
    const day = `2032-05-${language === 'el' ? '12' : '11'}`;
    const onThatDay = async () =>
      ((await (await request.post('/api/Viewing/search', { data: { dateOfViewingFrom: day, dateOfViewingTill: day, perPage: 5, currentPage: 1 }, headers: auth(token) })).json()) as { totalRows: number }).totalRows;
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 412, height: 915 }, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(`/Viewing/Add?demandId=${lead}`);
    await page.getByTestId('viewing-date-date').fill(`${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`);
    await page.getByTestId('viewing-date-time').fill('18:30');
    await loseNextAnswer(page, '/api/Viewing/update');
    await page.getByTestId('viewing-save').click();
    await expect(page.getByText(NETWORK[language]).first()).toBeVisible();
    await expect(page).toHaveURL(/\/Viewing\/Add/);
    expect(await onThatDay()).toBe(1);
    await expectAccessible(page, 'viewing form after a lost answer');
    // Save again: the same change, answered with the viewing stored the first time.
    await page.getByTestId('viewing-save').click();
    await expect(page).toHaveURL(/\/Viewing\/\d+$/);
    await expect(page.getByTestId('viewing-date')).toContainText('18:30');
    expect(await onThatDay()).toBe(1);
    await ctx.close();
  });
}

for (const language of inLanguage('en-UK')) {
  test(`a new key saved again after its answer was lost is stored once (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const object = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number; referenceNumber: string };
    const keysOfObject = async () =>
      ((await (await request.get('/api/ObjectKeys', { params: { referenceNumber: object.referenceNumber, perPage: 20, currentPage: 1 }, headers: auth(token) })).json()) as { totalRows: number }).totalRows;
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/ObjectKeys/new?objectId=${object.id}`);
    await expect(page.getByTestId('key-object')).toHaveText(`#${object.referenceNumber}`);
    await page.getByTestId('key-description').fill(language === 'el' ? 'Κλειδί εισόδου, μπλε μπρελόκ' : 'Front door, blue key ring');
    await loseNextAnswer(page, '/api/ObjectKeys/edit');
    await page.getByTestId('key-save').click();
    await expect(page.getByText(NETWORK[language]).first()).toBeVisible();
    expect(await keysOfObject()).toBe(1);
    await page.getByTestId('key-save').click();
    await expect(page).not.toHaveURL(/\/ObjectKeys\/new/);
    expect(await keysOfObject()).toBe(1);
    await ctx.close();
  });
}

/**
 * An auto-saved record (a property) whose save got no answer: it is sent again by itself, as the
 * same change, and the screen ends on "All changes saved" without telling the user that "someone
 * else" saved first (that someone was their own save). What was typed after the lost save is
 * saved on top, and the property is changed once.
 */
for (const language of inLanguage('el')) {
  test(`a property's auto-save whose answer was lost is sent again by itself, and no one else is blamed (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const object = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number };
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 412, height: 915 }, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(`/Objects/View/${object.id}/1`);
    const status = page.getByTestId('save-status');
    await loseNextAnswer(page, '/api/object/update');
    await page.getByTestId('field-bedrooms').fill('3');
    // The lost answer: not saved, for now.
    await expect(status).toHaveAttribute('data-status', 'error');
    // Typed while the save was unanswered.
    await page.getByTestId('field-bathrooms').fill('2');
    const stored = async () => ((await (await request.get(`/api/object/edit/${object.id}`, { headers: auth(token) })).json()) as { object: { bedrooms: number; bathrooms: number } }).object;
    await expect.poll(stored, { timeout: 15_000 }).toMatchObject({ bedrooms: 3, bathrooms: 2 });
    await expect(status).toHaveAttribute('data-status', 'saved');
    await expect(page.getByTestId('banner')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('field-bedrooms')).toHaveValue('3');
    await expect(page.getByTestId('field-bathrooms')).toHaveValue('2');
    await expectAccessible(page, 'property edit after a lost answer');
    await ctx.close();
  });
}

for (const language of inLanguage('en-UK')) {
  test(`an account's auto-save whose answer was lost is saved once, by itself (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const last = `Lostanswer${language === 'el' ? 'El' : 'En'}${Date.now()}`;
    const { id } = (await (await request.post('/api/account/add', { data: { firstName: 'Nikos', lastName: last }, headers: auth(token) })).json()) as { id: number };
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Accounts/View/${id}/1`);
    await loseNextAnswer(page, '/api/account/update');
    await page.getByTestId('field-city').fill('Θεσσαλονίκη');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'error');
    // Sent again by itself (the same change): saved, and no conflict to tell of.
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved', { timeout: 15_000 });
    await expect(page.getByTestId('banner')).toHaveCount(0);
    const stored = (await (await request.get(`/api/account/view/${id}`, { headers: auth(token) })).json()) as { city: string };
    expect(stored.city).toBe('Θεσσαλονίκη');
    await ctx.close();
  });
}

for (const language of inLanguage('el')) {
  test(`a document saved again after its answer was lost is stored once (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const name = `${language === 'el' ? 'Ιδιωτικό συμφωνητικό' : 'Private agreement'} ${Date.now()}`;
    const named = async () =>
      ((await (await request.get('/api/Documents', { params: { searchStr: name, perPage: 20, currentPage: 1 }, headers: auth(token) })).json()) as { totalRows: number }).totalRows;
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto('/Document/Add');
    await page.getByTestId('document-name').fill(name);
    await page.getByTestId('document-file-input').setInputFiles([{ name: 'agreement.txt', mimeType: 'text/plain', buffer: Buffer.from('Between the owner and the tenant') }]);
    await loseNextAnswer(page, '/api/Documents/update');
    await page.getByTestId('document-save').click();
    await expect(page.getByText(NETWORK[language]).first()).toBeVisible();
    expect(await named()).toBe(1);
    await page.getByTestId('document-save').click();
    await expect(page).toHaveURL(/\/Document\/\d+$/);
    await expect(page.getByTestId('document-files').getByTestId('file-link')).toHaveText(['agreement.txt']);
    expect(await named()).toBe(1);
    await ctx.close();
  });
}

for (const language of inLanguage('en-UK')) {
  test(`Retry after the answer of Add property was lost opens the property made, not a second one (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto('/CRM');
    const lost = await loseNextAnswer(page, '/api/object/add', 'GET');
    await page.goto('/Objects/Add');
    await expect(page.getByTestId('object-add-error')).toContainText(NETWORK[language]);
    await expectAccessible(page, 'Add property after a lost answer');
    await page.getByRole('button', { name: language === 'el' ? 'Δοκιμάστε ξανά' : 'Try again' }).click();
    // The property the lost answer had named: Retry made no second one (that would have a new id).
    const made = (JSON.parse(await lost.answer) as { id: number }).id;
    await expect(page).toHaveURL(new RegExp(`/Objects/View/${made}/2$`));
    await ctx.close();
  });
}

for (const language of inLanguage('el')) {
  test(`Add account pressed again after its answer was lost opens the account made, not a namesake (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const last = `${language === 'el' ? 'Λαμπράκη' : 'Lambraki'}${Date.now() % 1_000_000}`;
    const namesakes = async () =>
      ((await (await request.get('/api/account/search', { params: { searchStr: last }, headers: auth(token) })).json()) as { items: unknown[] }).items.length;
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto('/Accounts/AddClient');
    await page.getByTestId('add-lastName').fill(last);
    await page.getByTestId('add-firstName').fill('Σοφία');
    const lost = await loseNextAnswer(page, '/api/account/add');
    await page.getByTestId('add-submit').click();
    await expect(page.getByTestId('add-error')).toContainText(NETWORK[language]);
    await expect(page).toHaveURL(/\/Accounts\/AddClient$/);
    expect(await namesakes()).toBe(1);
    await expectAccessible(page, 'Add account after a lost answer');
    // Pressed again: the same account, opened; no second one with the same name.
    await page.getByTestId('add-submit').click();
    const made = (JSON.parse(await lost.answer) as { id: number }).id;
    await expect(page).toHaveURL(new RegExp(`/Accounts/View/${made}/2$`));
    expect(await namesakes()).toBe(1);
    await ctx.close();
  });
}
