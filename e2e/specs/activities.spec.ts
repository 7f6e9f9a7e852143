import { expect, test, type APIRequestContext } from '@playwright/test';
import { auth, expectAccessible, openAs, unique } from '../fixtures.ts';
import { ConflictMerge } from '../pages/conflict.ts';

/**
 * Activities and assignments on an account's page, and the home page's open actions — in English
 * and in Greek. The admin signs in through the API and the interface language comes from the
 * language cookie, so the admin's saved language is never touched.
 */
const LANGUAGES = [
  {
    cookie: 'en-UK',
    activities: 'Activities',
    timeline: 'Activities and e-mails',
    complete: 'Complete',
    todo: 'To do',
    saved: 'All changes saved',
    onlyLink: 'Cannot delete the only link.',
    deleteLink: 'Delete a link?',
    deleteAssignment: 'Delete assignment?',
    deleteActivity: 'Delete activity?',
    myActions: 'My open actions',
    empty: 'No activities yet. Record a call, a meeting or a note with “Add activity”.',
  },
  {
    cookie: 'el',
    activities: 'Δραστηριότητες',
    timeline: 'Δραστηριότητες και αλληλογραφία',
    complete: 'Ολοκληρώθηκε',
    todo: 'Προς εκτέλεση',
    saved: 'Όλες οι αλλαγές αποθηκεύτηκαν',
    onlyLink: 'Δεν μπορείτε να διαγράψετε τη μοναδική σύνδεση.',
    deleteLink: 'Να διαγραφεί η σύνδεση;',
    deleteAssignment: 'Να διαγραφεί η ανάθεση;',
    deleteActivity: 'Να διαγραφεί η δραστηριότητα;',
    myActions: 'Οι εκκρεμείς εργασίες μου',
    empty: 'Δεν υπάρχουν ακόμη δραστηριότητες. Καταγράψτε ένα τηλεφώνημα, μια συνάντηση ή μια σημείωση με το κουμπί «Νέα δραστηριότητα».',
  },
] as const;

/** A name nobody else uses in this run (letters only, so search treats it as one word). */

async function createAccount(request: APIRequestContext, token: string, body: Record<string, unknown>): Promise<number> {
  const res = await request.post('/api/account/add', { data: body, headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id as number;
}

const DATE = /\d{1,2}[./]\d{1,2}[./]\d{4}/;

for (const L of LANGUAGES) {
  test.describe(`activities and assignments (${L.cookie})`, () => {
    test('on a phone the activities are drawn when the reader scrolls near them, or tabs into them', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      // A short phone screen: the block is well below the first screen and the 400 px margin.
      await page.setViewportSize({ width: 412, height: 300 });
      const id = await createAccount(request, token, { lastName: unique('Phone'), firstName: 'Eleni', email: 'eleni.phone@example.com', phone: '+30 697 000 3344', isClient: true });
      const placeholder = page.getByTestId('activity-list-placeholder');
      const list = page.getByTestId('activity-list');
      // The list's code, asked for only once the block is drawn.
      const asked: string[] = [];
      page.on('request', (r) => {
        if (/\/assets\/activity-list-(?!lazy-)[^/]*\.js$/.test(r.url())) asked.push(r.url());
      });

      await page.goto(`/Accounts/View/${id}`);
      await expect(page.getByTestId('assignments')).toBeVisible();
      // Held by a card with its title, nothing asked for yet: the title the block has (an account's
      // activities and e-mails, "All" being the first choice), so it does not change when drawn.
      await expect(placeholder.getByRole('heading', { name: L.timeline, exact: true })).toBeAttached();
      await page.waitForLoadState('networkidle');
      expect(asked).toEqual([]);
      await expect(list).toHaveCount(0);
      await placeholder.scrollIntoViewIfNeeded();
      await expect(list.getByTestId('activity-count')).toHaveText('0');
      await expect(placeholder).toHaveCount(0);
      await expect(list.getByRole('heading', { name: L.timeline, exact: true })).toBeVisible();

      // The keyboard: the placeholder is a named stop; reaching it draws the block, and Tab goes on into it.
      await page.goto(`/Accounts/View/${id}`);
      await expect(page.getByTestId('assignments')).toBeVisible();
      await expect(list).toHaveCount(0);
      const region = page.getByRole('region', { name: L.timeline, exact: true });
      await region.focus();
      await expect(list.getByTestId('activity-add')).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(list.getByTestId('activity-filter-toggle')).toBeFocused();
    });

    test('on a phone an activity is a card, and its editor fits the screen: no box or field out of view', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      await page.setViewportSize({ width: 412, height: 915 });
      const id = await createAccount(request, token, { lastName: unique('Card'), firstName: 'Eleni', isClient: true });
      await page.goto(`/Accounts/View/${id}`);
      const list = page.getByTestId('activity-list');
      await list.scrollIntoViewIfNeeded();
      await list.getByTestId('activity-add').click();
      const editor = list.getByTestId('activity-editor');
      await expect(editor).toBeVisible();
      const inView = async (testId: string) => {
        const box = (await editor.getByTestId(testId).boundingBox())!;
        return box.x >= 0 && box.x + box.width <= 412;
      };
      for (const field of ['activity-description', 'activity-category', 'activity-done', 'activity-date', 'activity-close']) expect(await inView(field), field).toBe(true);
      // Its calendar speaks the reader's language, the week from Monday (it was English in Greek).
      await editor.getByTestId('activity-date').click();
      const weekdays = page.locator('.mantine-DateTimePicker-weekday');
      await expect(weekdays.first()).toHaveText(L.cookie === 'el' ? 'Δε' : 'Mo');
      // Escape closes it (pressed again if it came while the calendar was still opening, on a loaded machine).
      await expect(async () => {
        await page.keyboard.press('Escape');
        await expect(weekdays).toHaveCount(0, { timeout: 1000 });
      }).toPass();
      await editor.getByTestId('activity-description').fill('Τηλεφώνησε για την υπόδειξη του Σαββάτου');
      const call = L.cookie === 'el' ? 'Τηλεφώνημα' : 'Call';
      await editor.getByTestId('activity-category').click();
      await page.getByRole('option', { name: call }).click();
      await expect(editor.getByTestId('activity-save-status')).toHaveAttribute('data-status', 'saved');
      await editor.getByTestId('activity-close').click();
      // The card: its text and its dates are on the screen, with their names.
      const row = list.getByTestId('activity-row');
      await expect(row.getByTestId('activity-text')).toBeInViewport();
      // A call reads as a call in the list, not as any note.
      await expect(row.getByTestId('activity-category-badge')).toHaveText(call);
      const rowBox = (await row.boundingBox())!;
      expect(rowBox.x + rowBox.width).toBeLessThanOrEqual(412);
      expect(await list.getByTestId('activity-table').evaluate((t) => t.scrollWidth <= (t.parentElement?.clientWidth ?? 0) + 1)).toBe(true);
      // A to-do's state icon sits beside the card's dates, never over them (in Greek it hid the
      // minutes of "Ημ/νία δημιουργίας: 25/11/2026, 15:2").
      const todo = await (await request.post('/api/activity/add', { data: { entityType: 2, id }, headers: auth(token) })).json();
      const planned = await request.post('/api/activity/update', { data: { id: todo.id, version: todo.version, description: 'Υπόδειξη', done: false, date: '2030-12-04T15:15:00' }, headers: auth(token) });
      expect(planned.ok()).toBeTruthy();
      await page.reload();
      await list.scrollIntoViewIfNeeded();
      const todoRow = list.getByTestId('activity-row').filter({ has: page.getByTestId('state-todo') });
      const dates = todoRow.getByTestId('activity-when');
      await expect(dates).toHaveCount(2);
      const icon = (await todoRow.getByTestId('state-todo').boundingBox())!;
      for (const date of await dates.all()) {
        const box = (await date.boundingBox())!;
        const overlaps = box.x < icon.x + icon.width && icon.x < box.x + box.width && box.y < icon.y + icon.height && icon.y < box.y + box.height;
        expect(overlaps, `${await date.textContent()} under the state icon`).toBe(false);
        expect(box.x + box.width).toBeLessThanOrEqual(412);
      }
      await expectAccessible(page, 'activities as cards on a phone');
    });

    test('a new activity stores nothing until something is typed: reloaded or closed blank, no empty activity is left', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token, { lastName: unique('Blank'), firstName: 'Eleni', isClient: true });
      // What the server holds for the account, as any client of the API reads it.
      const stored = async () => (await (await request.get(`/api/activity?parent=2&parentId=${id}`, { headers: auth(token) })).json()).items as { id: number; description: string | null }[];
      await page.goto(`/Accounts/View/${id}`);
      const list = page.getByTestId('activity-list');
      await expect(list.getByTestId('activity-empty')).toHaveText(L.empty);

      await list.getByTestId('activity-add').click();
      const editor = list.getByTestId('activity-editor');
      await expect(editor.getByTestId('activity-description')).toBeFocused();
      await page.reload();
      await expect(list.getByTestId('activity-empty')).toHaveText(L.empty);
      await expect(list.getByTestId('activity-count')).toHaveText('0');
      expect(await stored()).toEqual([]);

      // Opened again and closed with nothing typed: still nothing.
      await list.getByTestId('activity-add').click();
      await editor.getByTestId('activity-close').click();
      await expect(editor).toHaveCount(0);
      await expect(list.getByTestId('activity-empty')).toHaveText(L.empty);
      expect(await stored()).toEqual([]);

      // Typed into: stored at its first save, once, and the editor goes on saving the same activity.
      const text = `Asked for the floor plans ${unique('n')}`;
      await list.getByTestId('activity-add').click();
      await editor.getByTestId('activity-description').fill(text);
      await expect(editor.getByTestId('activity-save-status')).toHaveAttribute('data-status', 'saved');
      await editor.getByTestId('activity-done').getByText(L.todo, { exact: true }).click();
      // Closing saves what is pending first.
      await editor.getByTestId('activity-close').click();
      await expect(editor).toHaveCount(0);
      await page.reload();
      await expect(list.getByTestId('activity-count')).toHaveText('1');
      await expect(list.getByTestId('activity-row')).toHaveAttribute('data-state', 'todo');
      expect(await stored()).toMatchObject([{ description: text, done: false }]);
    });

    test('add an activity, describe it, mark it complete; after a reload it is complete with a completed date', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token, { lastName: unique('Activity'), firstName: 'Eleni', isClient: true });
      await page.goto(`/Accounts/View/${id}`);
      const list = page.getByTestId('activity-list');
      await expect(list.getByRole('heading', { name: L.activities })).toBeVisible();
      await expect(list.getByTestId('activity-count')).toHaveText('0');

      await list.getByTestId('activity-add').click();
      const editor = list.getByTestId('activity-editor');
      await expect(editor).toBeVisible();
      const text = `Called about the viewing on Saturday ${unique('n')}`;
      await editor.getByTestId('activity-description').fill(text);
      await editor.getByTestId('activity-done').getByText(L.complete, { exact: true }).click();
      await expect(editor.getByTestId('activity-save-status')).toHaveAttribute('data-status', 'saved');
      await expect(editor.getByTestId('activity-save-status')).toHaveText(L.saved);
      // The server stamps the completion date; the editor shows it.
      await expect(editor.getByTestId('activity-done-date')).toContainText(DATE);
      await editor.getByTestId('activity-close').click();
      await expect(editor).toHaveCount(0);

      await page.reload();
      const row = list.getByTestId('activity-row');
      await expect(row).toHaveCount(1);
      await expect(list.getByTestId('activity-count')).toHaveText('1');
      await expect(row).toHaveAttribute('data-state', 'complete');
      await expect(row.getByTestId('state-complete')).toBeVisible();
      await expect(row.getByTestId('activity-text')).toHaveText(text);
      await expect(row.getByTestId('activity-done-on')).toHaveText(DATE);

      const stored = await request.get(`/api/activity?parent=2&parentId=${id}`, { headers: auth(token) });
      const body = await stored.json();
      expect(body.items).toHaveLength(1);
      expect(body.items[0]).toMatchObject({ description: text, done: true, links: [{ entity: 2, id }] });
      expect(body.items[0].doneDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    });

    test('the only link cannot be deleted; an activity is deleted after a confirmation', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token, { lastName: unique('Links'), firstName: 'Petros', isClient: true });
      const added = await (await request.post('/api/activity/add', { data: { entityType: 2, id }, headers: auth(token) })).json();
      const upd = await request.post('/api/activity/update', { data: { id: added.id, version: added.version, description: 'Keys handed over', done: false }, headers: auth(token) });
      expect(upd.ok()).toBeTruthy();

      await page.goto(`/Accounts/View/${id}`);
      const list = page.getByTestId('activity-list');
      const row = list.getByTestId('activity-row');
      await expect(row).toHaveAttribute('data-state', 'todo');
      await expect(row.getByTestId('state-todo')).toBeVisible();
      await row.getByTestId('activity-edit').click();
      const editor = list.getByTestId('activity-editor');
      await expect(editor.getByTestId('activity-description')).toHaveValue('Keys handed over');

      await editor.getByTestId('activity-link-delete').click();
      await expect(page.getByText(L.deleteLink)).toBeVisible();
      await page.getByTestId('confirm-delete-link').click();
      await expect(editor.getByTestId('activity-editor-error')).toHaveText(L.onlyLink);
      // The link is back.
      await expect(editor.getByTestId('activity-links').getByTestId('activity-record-link')).toHaveCount(1);

      await editor.getByTestId('activity-delete').click();
      await expect(page.getByText(L.deleteActivity)).toBeVisible();
      await page.getByTestId('confirm-delete-activity').click();
      await expect(list.getByTestId('activity-row')).toHaveCount(0);
      await expect(list.getByTestId('activity-count')).toHaveText('0');
      expect((await request.get(`/api/activity/${added.id}`, { headers: auth(token) })).status()).toBe(404);
    });

    test('assign a person to the account and remove the assignment', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token, { lastName: unique('Assigned'), firstName: 'Anna', isClient: true });
      const specialistLast = unique('Notary');
      await createAccount(request, token, { lastName: specialistLast, firstName: 'Kostas', isProfessional: true, isNotary: true });

      await page.goto(`/Accounts/View/${id}`);
      const card = page.getByTestId('assignments');
      await expect(card.getByTestId('assignment-item')).toHaveCount(0);
      await card.getByTestId('assignment-add').fill(specialistLast);
      await page.getByRole('option', { name: new RegExp(specialistLast) }).click();
      const item = card.getByTestId('assignment-item');
      await expect(item).toHaveCount(1);
      await expect(item.getByRole('link')).toHaveText(`${specialistLast} Kostas`);
      // The name box keeps the focus while the pick is stored, ready for the next name.
      await expect(card.getByTestId('assignment-add')).toBeFocused();

      await item.getByTestId('assignment-delete').click();
      await expect(page.getByText(L.deleteAssignment)).toBeVisible();
      await page.getByTestId('confirm-delete-assignment').click();
      await expect(card.getByTestId('assignment-item')).toHaveCount(0);
      // The removed row's button is gone: the focus is in the name box, not at the top of the page.
      await expect(card.getByTestId('assignment-add')).toBeFocused();
      const stored = await request.get(`/api/assignment/account/${id}`, { headers: auth(token) });
      expect((await stored.json()).items).toEqual([]);
    });

    test("the home page lists the user's open actions", async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token, { lastName: unique('Home'), firstName: 'Maria', isClient: true });
      const added = await (await request.post('/api/activity/add', { data: { entityType: 2, id }, headers: auth(token) })).json();
      const text = `Send the contract draft ${unique('h')}`;
      // Planned long ago: the card lists open actions soonest-planned first, so it is on page 1.
      await request.post('/api/activity/update', { data: { id: added.id, version: added.version, description: text, done: false, date: '2001-01-01T09:00:00' }, headers: auth(token) });
      await page.goto('/CRM');
      const card = page.getByTestId('my-actions');
      await expect(card.getByRole('heading', { name: L.myActions })).toBeVisible();
      const row = card.getByTestId('my-actions-row').filter({ hasText: text });
      await expect(row).toHaveCount(1);
      await expect(row).toHaveAttribute('data-state', 'todo');
      // Planned in the past and not done: marked as late.
      await expect(row).toHaveAttribute('data-overdue', 'true');
      // On a phone the card shows the whole task, and the page does not scroll sideways.
      await page.setViewportSize({ width: 412, height: 900 });
      await row.getByText(text).scrollIntoViewIfNeeded();
      await expect(row.getByText(text)).toBeInViewport();
      const box = (await row.getByText(text).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(412);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await row.getByTestId('activity-record-link').click();
      await expect(page).toHaveURL(new RegExp(`/Accounts/View/${id}$`));
    });
  });
}

test('someone else saves the activity meanwhile: what only I typed is saved on their version; where we both changed the text, theirs stays and the banner says what I typed', async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'en-UK');
  const id = await createAccount(request, token, { lastName: unique('Conflict'), firstName: 'Eleni', isClient: true });
  const added = await request.post('/api/activity/add', { data: { entityType: 2, id }, headers: auth(token) });
  const blank = (await added.json()) as { id: number; version: number };
  const update = async (body: Record<string, unknown>) => {
    const res = await request.post('/api/activity/update', { data: body, headers: auth(token) });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as { version: number };
  };
  const stored = async () => (await (await request.get(`/api/activity/${blank.id}`, { headers: auth(token) })).json()) as { description: string; category: number; version: number };
  const first = await update({ id: blank.id, version: blank.version, description: 'Call the owner' });
  await page.goto(`/Accounts/View/${id}`);
  const list = page.getByTestId('activity-list');
  await list.getByTestId('activity-row').getByTestId('activity-edit').click();
  const editor = list.getByTestId('activity-editor');
  await expect(editor).toBeVisible();

  // They change its type; I change the text: mine is saved on their version, their type kept.
  await update({ id: blank.id, version: first.version, category: 1 });
  await editor.getByTestId('activity-description').fill('Call the owner about the keys');
  await expect.poll(async () => (await stored()).description).toBe('Call the owner about the keys');
  expect((await stored()).category).toBe(1);
  await expect(editor.getByTestId('activity-save-status')).toHaveAttribute('data-status', 'saved');

  // We both change the text: theirs stays, and the banner says what I had typed.
  await update({ id: blank.id, version: (await stored()).version, description: 'Keys are with the neighbour' });
  await editor.getByTestId('activity-description').fill('Keys at the office');
  await new ConflictMerge(page).told('Keys at the office');
  await expect(editor.getByTestId('activity-description')).toHaveValue('Keys are with the neighbour');
  expect((await stored()).description).toBe('Keys are with the neighbour');
  await expectAccessible(page, 'activity editor after a conflict');
});

test('my actions kept on a page that no longer exists (done elsewhere meanwhile) come back to the last one', async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'el');
  const id = await createAccount(request, token, { lastName: unique('Pages'), firstName: 'Nikos', isClient: true });
  const added = await (await request.post('/api/activity/add', { data: { entityType: 2, id }, headers: auth(token) })).json();
  await request.post('/api/activity/update', { data: { id: added.id, version: added.version, description: 'Call back about the keys', done: false, date: '2001-01-02T09:00:00' }, headers: auth(token) });
  // The card was left on page 9999 of 5 a page: far past the open actions there are now.
  const kept = { dateFilterType: 2, done: 'todo', employee: null, employeeFilterType: 1, startDate: null, endDate: null, perPage: 5, currentPage: 9999 };
  await context.addCookies([{ name: 'MyActions', value: encodeURIComponent(JSON.stringify(kept)), url: baseURL! }]);
  await page.goto('/CRM');
  const card = page.getByTestId('my-actions');
  await expect(card.getByTestId('my-actions-row').first()).toBeVisible();
  await expect(card.getByTestId('my-actions-empty')).toHaveCount(0);
  const saved = JSON.parse(decodeURIComponent((await context.cookies()).find((c) => c.name === 'MyActions')!.value)) as { currentPage: number };
  expect(saved.currentPage).toBeLessThan(9999);
  expect(saved.currentPage).toBeGreaterThanOrEqual(1);
});
