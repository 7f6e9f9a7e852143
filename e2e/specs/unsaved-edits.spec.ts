import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, expectAccessible, openAsAdmin, openSignedIn } from '../fixtures.ts';
import { RecordPage } from '../pages/record.ts';

/**
 * One refused box does not cost the rest of the record: on a lead and on an account, a budget
 * "from" above its "up to" is refused and kept in its box with the message, the other changes typed
 * after it are stored all the same, and leaving (Done) while it is refused asks first. Keep editing
 * stays; fixing the box saves it; Leave without them goes, and only the refused value is lost.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

const TEXTS = {
  'en-UK': { title: 'Changes not saved', keep: 'Keep editing', leave: 'Leave without them', budgetOrder: /must not|cannot|higher/i },
  el: { title: 'Μη αποθηκευμένες αλλαγές', keep: 'Συνέχεια επεξεργασίας', leave: 'Έξοδος χωρίς αυτές', budgetOrder: /προϋπολογισμός/i },
} as const;

async function lead(request: APIRequestContext, token: string, id: number) {
  const res = await request.get(`/api/lead/get/${id}`, { headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()) as Record<string, unknown>;
}

for (const language of ['en-UK', 'el'] as const) {
  test(`a refused budget holds back only itself, and leaving asks first (${language})`, async ({ browser, request, baseURL }) => {
    const L = TEXTS[language];
    const token = await apiToken(request);
    const added = await request.post('/api/lead/add', { data: {}, headers: auth(token) });
    expect(added.ok(), await added.text()).toBeTruthy();
    const id = ((await added.json()) as { id: number }).id;
    const set = await request.post('/api/lead/update', { data: { id, version: 1, forPurchase: true, purchaseBudgetRangeMax: 200000 }, headers: auth(token) });
    expect(set.ok(), await set.text()).toBeTruthy();

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, `/Leads/View/${id}/1`);
    const record = new RecordPage(page);

    // "From" above "up to": refused, the box keeps 300 000 and says why.
    await page.getByTestId('lead-purchaseBudgetRangeMin').fill('300000');
    await record.saveFailed(15_000);
    await expect(page.getByTestId('lead-field-purchaseBudgetRangeMin')).toContainText(L.budgetOrder);

    // A change typed after it is stored all the same; the refused one is not, and the box still holds it.
    await page.getByTestId('lead-bedroomsMin').fill('2');
    await expect.poll(async () => (await lead(request, token, id)).bedroomsMin, { timeout: 15_000 }).toBe(2);
    expect((await lead(request, token, id)).purchaseBudgetRangeMin ?? null).toBeNull();
    await record.saveFailed();
    await expect(page.getByTestId('lead-purchaseBudgetRangeMin')).toHaveValue(/300/);

    // Done asks; Keep editing stays in the form.
    await record.toggleEdit();
    const dialog = page.getByRole('dialog', { name: L.title });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, `unsaved changes question ${language}`);
    await dialog.getByRole('button', { name: L.keep }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/Leads/View/${id}/1$`));

    // Fixed, it saves, and Done leaves without a question.
    await page.getByTestId('lead-purchaseBudgetRangeMin').fill('150000');
    await record.saved(undefined, 15_000);
    await record.toggleEdit();
    await expect(page).toHaveURL(new RegExp(`/Leads/View/${id}(/0)?$`));
    await expect(page.getByTestId('lead-details')).toBeVisible();
    expect((await lead(request, token, id)).purchaseBudgetRangeMin).toBe(150000);

    // Refused again and left: the question, then the view; only the refused value is gone.
    await record.toggleEdit();
    await expect(page).toHaveURL(new RegExp(`/Leads/View/${id}/1$`));
    await page.getByTestId('lead-purchaseBudgetRangeMin').fill('900000');
    await record.saveFailed(15_000);
    await record.toggleEdit();
    await page.getByRole('dialog', { name: L.title }).getByRole('button', { name: L.leave }).click();
    await expect(page).toHaveURL(new RegExp(`/Leads/View/${id}(/0)?$`));
    const stored = await lead(request, token, id);
    expect([stored.purchaseBudgetRangeMin, stored.bedroomsMin]).toEqual([150000, 2]);
    await ctx.close();
  });
}

test('an account: a refused budget does not hold back the city typed after it', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const add = await request.post('/api/account/add', { data: { firstName: 'Αναστασία', lastName: `Held${Date.now() % 1000000}`, isClient: true, purchaseBudgetRangeMax: 200000 }, headers: auth(token) });
  expect(add.ok(), await add.text()).toBeTruthy();
  const id = ((await add.json()) as { id: number }).id;
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', `/Accounts/View/${id}/1`);
  const record = new RecordPage(page);
  await page.getByTestId('field-purchaseBudgetRangeMin').fill('300000');
  await record.saveFailed(15_000);
  await page.getByTestId('field-city').fill('Θεσσαλονίκη');
  const view = async () => ((await (await request.get(`/api/account/view/${id}`, { headers: auth(token) })).json()) as { city: string | null; purchaseBudgetRangeMin: number | null });
  await expect.poll(async () => (await view()).city, { timeout: 15_000 }).toBe('Θεσσαλονίκη');
  expect((await view()).purchaseBudgetRangeMin ?? null).toBeNull();
  await record.toggleEdit();
  await expect(page.getByRole('dialog', { name: TEXTS.el.title })).toBeVisible();
  await ctx.close();
});

test('a number typed so that it cannot be read keeps its text, is not saved, and leaving asks first', async ({ browser, request, baseURL }) => {
  const L = TEXTS.el;
  const token = await apiToken(request);
  const added = await request.post('/api/lead/add', { data: {}, headers: auth(token) });
  const id = ((await added.json()) as { id: number }).id;
  const set = await request.post('/api/lead/update', { data: { id, version: 1, bedroomsMin: 2 }, headers: auth(token) });
  expect(set.ok(), await set.text()).toBeTruthy();
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', `/Leads/View/${id}/1`);
  const record = new RecordPage(page);
  const box = page.getByTestId('lead-bedroomsMin');
  await box.fill('2,5');
  await expect(page.getByTestId('lead-field-bedroomsMin')).toContainText('Ακέραιος αριθμός, χωρίς δεκαδικά');
  await expect(box).toHaveValue('2,5');
  // The toolbar does not claim the changes are saved while the box keeps text that was not.
  const status = record.saveStatus;
  await expect(status).toHaveAttribute('data-status', 'unreadable');
  await expect(status).toHaveText('Δεν αποθηκεύτηκε: ένα πεδίο έχει μη έγκυρη τιμή');
  // Done asks: the record still holds 2, and the box what was typed.
  await record.toggleEdit();
  const dialog = page.getByRole('dialog', { name: L.title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: L.keep }).click();
  await expect(page).toHaveURL(new RegExp(`/Leads/View/${id}/1$`));
  expect((await lead(request, token, id)).bedroomsMin).toBe(2);
  // Typed right, it saves and Done leaves without a question.
  await box.fill('3');
  await record.saved(undefined, 15_000);
  await expect(status).toHaveText('Όλες οι αλλαγές αποθηκεύτηκαν');
  await record.toggleEdit();
  await expect(page).toHaveURL(new RegExp(`/Leads/View/${id}(/0)?$`));
  expect((await lead(request, token, id)).bedroomsMin).toBe(3);
  await ctx.close();
});

test('a new contact typed and not added: a menu link asks first, and Keep editing keeps the names', async ({ browser, request, baseURL }) => {
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'en-UK', '/Accounts/AddOwner');
  await page.getByTestId('add-lastName').fill('Kalogirou');
  await page.getByTestId('add-firstName').fill('Eleni');
  await page.getByRole('link', { name: 'Deals' }).click();
  const dialog = page.getByRole('dialog', { name: TEXTS['en-UK'].title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: TEXTS['en-UK'].keep }).click();
  await expect(page.getByTestId('add-lastName')).toHaveValue('Kalogirou');
  await expect(page).toHaveURL(/\/Accounts\/AddOwner$/);
  // Added: the account opens without a question.
  await page.getByTestId('add-submit').click();
  await expect(page).toHaveURL(/\/Accounts\/View\/\d+\/2$/);
  await expect(page.getByRole('dialog', { name: TEXTS['en-UK'].title })).toHaveCount(0);
  await ctx.close();
});
