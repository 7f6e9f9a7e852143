import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, expectAccessible, signedIn, openAsAdmin, openSignedIn } from '../fixtures.ts';

/**
 * A rent reminder from start to notes: a tenant whose rent is due today is linked to a property
 * (saving the link makes the reminder at once), the navbar badge agrees with the unread count, the
 * alert is bold in the list, opening it marks it read, Mark as Unread brings it back, and a note is
 * saved.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });


async function unreadCount(request: APIRequestContext, token: string) {
  return (await (await request.get('/api/Alert/unreadCount', { headers: auth(token) })).json()) as number;
}

/** Today's day of the month in the agency's zone (the server's; the e2e server runs in Europe/Athens). */
const todayInAthens = () => Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Athens', day: 'numeric' }).format(new Date()));

for (const language of ['en-UK', 'el'] as const) {
  test(`a rent reminder due today: badge, list, read, unread and a note (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(60_000);
    const token = await apiToken(request);
    const mark = `${language === 'el' ? 'Ενοικιαστής' : 'Tenant'}${Date.now() % 1000000}`;
    const add = await request.get('/api/object/add', { headers: auth(token) });
    const object = (await add.json()) as { id: number };
    const tenant = await request.post('/api/account/add', { data: { firstName: 'Νίκος', lastName: mark, isClient: true }, headers: auth(token) });
    expect(tenant.ok(), await tenant.text()).toBeTruthy();
    const tenantId = ((await tenant.json()) as { id: number }).id;
    const link = await request.post('/api/objectAccount/add', {
      data: { objectId: object.id, accountId: tenantId, relation: 4, startDate: '2024-01-01', rentPaymentDay: todayInAthens() },
      headers: auth(token),
    });
    expect(link.ok(), await link.text()).toBeTruthy();

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Alerts');
    const row = page.getByTestId('alerts-table-row').filter({ hasText: mark });
    // The reminder is made by a job right after the link is saved: the list shows it within moments.
    await expect(async () => {
      await page.reload();
      await expect(row).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toHaveClass(/alert-unread/);
    const badge = page.getByTestId('alerts-badge');
    // Other specs make alerts at the same time, and the badge polls every few minutes: the badge of a
    // freshly loaded page shows the count the server gives (retried if an alert arrived in between).
    const badgeAgrees = () =>
      expect(async () => {
        const count = await unreadCount(request, token);
        await page.reload();
        await expect(badge).toHaveAttribute('data-count', String(count), { timeout: 3000 });
      }).toPass({ timeout: 20_000 });
    await badgeAgrees();
    await expectAccessible(page, 'alert list');

    // Opening marks it read.
    await row.click();
    await expect(page).toHaveURL(/\/Alerts\/\d+$/);
    await expect(page.getByTestId('alert-content')).toContainText(mark);
    await expect(page.getByTestId('alert-read')).toBeVisible();
    await expectAccessible(page, 'alert');
    await page.getByTestId('alert-notes').fill('Τηλεφώνησα, θα πληρώσει αύριο');
    // A double click saves once: no "someone else changed it" from the second click.
    await page.getByTestId('alert-save-notes').dblclick();
    await expect(page.getByTestId('alert-notes')).toHaveValue('Τηλεφώνησα, θα πληρώσει αύριο');
    await expect(page.getByTestId('banner')).toHaveAttribute('data-type', 'success');
    const id = Number(/\/Alerts\/(\d+)/.exec(page.url())![1]);
    const notesOf = async () => ((await (await request.get(`/api/alert/${id}`, { headers: auth(token) })).json()) as { notes: string }).notes;
    expect(await notesOf()).toBe('Τηλεφώνησα, θα πληρώσει αύριο');

    // A colleague marks it unread (and opens it again) meanwhile: that is no conflict for my notes.
    await request.post(`/api/alert/mark-as-unread/${id}`, { headers: auth(token) });
    await request.get(`/api/alert/${id}`, { headers: auth(token) });
    await page.getByTestId('alert-notes').fill('Τηλεφώνησα ξανά');
    await page.getByTestId('alert-save-notes').click();
    await expect(page.getByTestId('banner')).toHaveAttribute('data-type', 'success');
    await expect.poll(notesOf).toBe('Τηλεφώνησα ξανά');
    // A colleague saves other notes meanwhile: mine stay in the box, theirs are quoted, and saving
    // again puts mine in their place.
    // (A change carries the version it is based on, or it is refused with 428: the colleague's as read now.)
    const theirs = (await (await request.get(`/api/alert/${id}`, { headers: auth(token) })).json()) as { version: number };
    const colleague = await request.post(`/api/alert/update-notes/${id}`, { data: { notes: 'Colleague: owner called', version: theirs.version }, headers: auth(token) });
    expect(colleague.ok(), await colleague.text()).toBeTruthy();
    await page.getByTestId('alert-notes').fill('Πληρώνει την Παρασκευή ή το Σάββατο');
    await page.getByTestId('alert-save-notes').click();
    await expect(page.getByTestId('banner')).toHaveAttribute('data-type', 'warning');
    await expect(page.getByTestId('banner')).toContainText('Colleague: owner called');
    await expect(page.getByTestId('alert-notes')).toHaveValue('Πληρώνει την Παρασκευή ή το Σάββατο');
    expect(await notesOf()).toBe('Colleague: owner called');
    await page.getByTestId('alert-save-notes').click();
    await expect(page.getByTestId('banner')).toHaveAttribute('data-type', 'success');
    await expect.poll(notesOf).toBe('Πληρώνει την Παρασκευή ή το Σάββατο');

    // Notes typed and left with Back to List are saved, not dropped.
    await page.getByTestId('alert-notes').fill('Πληρώνει την Παρασκευή');
    await page.getByTestId('alert-back').click();
    await expect(page).toHaveURL(/\/Alerts$/);
    expect(await notesOf()).toBe('Πληρώνει την Παρασκευή');

    // Back in the list it is read; Mark as Unread makes it bold again.
    await expect(row).toHaveClass(/alert-read/);
    await row.getByTestId('alert-link').click();
    await page.getByTestId('alert-mark-unread').click();
    await expect(page).toHaveURL(/\/Alerts$/);
    await expect(row).toHaveClass(/alert-unread/);
    await badgeAgrees();
    await expect(row).toHaveClass(/alert-unread/);

    // At phone width the list and the alert still work.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('alerts-table-row').first()).toBeVisible();
    // The card shows the whole text (the property and the date at its end), not two lines of it.
    const text = row.getByTestId('alert-row-content');
    await expect(text).toContainText(new RegExp(`#\\d+.*\\d{2}[./]\\d{2}[./]\\d{4}`));
    expect(await text.evaluate((e) => e.scrollHeight - e.clientHeight)).toBeLessThanOrEqual(1);
    expect(await text.evaluate((e) => e.getBoundingClientRect().height)).toBeGreaterThan(50);
    await page.goto(`/Alerts/${id}`);
    await expect(page.getByTestId('alert-content')).toContainText(mark);
    await page.getByTestId('alert-save-notes').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('alert-save-notes')).toBeVisible();
    // Notes typed and not saved: closing the tab asks first.
    await page.getByTestId('alert-notes').fill('Not saved yet');
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type());
        void d.accept();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    await ctx.close();
  });
}

for (const [index, language] of (['en-UK', 'el'] as const).entries()) {
  test(`an administrator sees the background jobs by state, from Settings (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const el = language === 'el';
    // Each language at one size, the other size in the other language.
    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, '/Settings', { viewport: index === 0 ? { width: 1280, height: 800 } : { width: 390, height: 844 } });
    await page.getByTestId('settings-jobs').click();
    await expect(page).toHaveURL(/\/Jobs$/);
    await expect(page.getByRole('heading', { name: el ? 'Εργασίες παρασκηνίου' : 'Background jobs', level: 2 })).toBeVisible();
    // The title counts all the jobs, which the four states split (it repeated the chosen state's
    // count: "0" beside Failed (0) while jobs were waiting and done). Read in one go: the list refreshes.
    const titleAndStates = () =>
      page.evaluate(() => {
        const title = Number(document.querySelector('[data-testid="jobs-count"]')?.textContent);
        const states = [...document.querySelectorAll('[data-testid="jobs-state"] label')].map((l) => Number(/\((\d+)\)/.exec(l.textContent ?? '')?.[1]));
        return { title, states: states.length, sum: states.reduce((a, b) => a + b, 0) };
      });
    await expect
      .poll(async () => {
        const r = await titleAndStates();
        return r.states === 4 && r.sum > 0 && r.title === r.sum;
      })
      .toBe(true);
    // The hourly rent check runs at start-up: it is among the done jobs, by its name in the reader's language.
    await page.getByTestId('jobs-state').getByText(el ? /^Ολοκληρώθηκαν/ : /^Done/).click();
    await expect(page.getByTestId('jobs-table-row').filter({ hasText: el ? 'Έλεγχος υπενθυμίσεων μισθώματος' : 'Rent reminders check' }).first()).toBeVisible();
    // The four states with their counts fit the screen: on a phone the page never scrolls sideways
    // (it did, and a phone then zoomed out and pushed the header's buttons off the screen).
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await expectAccessible(page, `jobs ${language}`);
    await ctx.close();
  });
}

// The backups made for real by the e2e server, one after the other (one of them puts a file where
// the backups folder should be).
test.describe.serial('backups made by the e2e server', () => {
  test('an administrator backs up now from the Jobs page and sees the backup: when, how big, where (ru)', async ({ browser, request, baseURL }) => {
    const { token, ctx, page } = await openAsAdmin(browser, request, baseURL!, 'ru', '/Jobs');
    const card = page.getByTestId('backups');
    await expect(card.getByRole('heading', { name: 'Резервные копии' })).toBeVisible();
    // The test server makes no daily backups (BACKUPS=false), and says so.
    await expect(page.getByTestId('backups-where')).toContainText('Автоматическое резервное копирование отключено');
    const before = (await (await request.get('/api/backups', { headers: auth(token) })).json()) as { items: { name: string }[] };
    await page.getByTestId('backups-now').click();
    await expect(page.getByText('Резервное копирование началось')).toBeVisible();
    await expect
      .poll(async () => ((await (await request.get('/api/backups', { headers: auth(token) })).json()) as { items: unknown[] }).items.length, { timeout: 60000 })
      .toBe(before.items.length + 1);
    const after = (await (await request.get('/api/backups', { headers: auth(token) })).json()) as { items: { name: string; size: number }[]; dir: string };
    await expect(page.getByTestId('backups-last')).toContainText(`Последняя копия: `, { timeout: 15000 });
    await expect(page.getByTestId('backups-last')).toContainText(after.items[0]!.name);
    await expect(page.getByTestId('backups-last')).toContainText(/\d+(,\d)? (МБ|кБ)/);
    await expect(page.getByTestId('backups-where')).toContainText(after.dir);
    // Downloaded from the card: the whole archive, under its own name.
    await expect(page.getByTestId('backups-download')).toHaveText('Скачать');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backups-download').click()]);
    expect(download.suggestedFilename()).toBe(after.items[0]!.name);
    expect(fs.statSync(await download.path()).size).toBe(after.items[0]!.size);
    await ctx.close();
  });

  test('a backup into a folder that cannot be written says why in the reader\'s language, the technical message under it (el)', async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const { dir } = (await (await request.get('/api/backups', { headers: auth(token) })).json()) as { dir: string };
    // A file where the backups folder should be (the e2e server runs on this machine).
    const aside = `${dir}.aside-${Date.now()}`;
    if (fs.existsSync(dir)) fs.renameSync(dir, aside);
    fs.writeFileSync(dir, 'not a folder');
    try {
      const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'el', '/Jobs');
      await page.getByTestId('backups-now').click();
      const failure = page.getByTestId('backups-failure');
      await expect(failure).toBeVisible({ timeout: 60_000 });
      await expect(page.getByTestId('backups-failure-reason')).toContainText('Η τελευταία προσπάθεια δημιουργίας αντιγράφου ασφαλείας απέτυχε');
      await expect(page.getByTestId('backups-failure-reason')).toContainText(`Το CRM δεν μπορεί να γράψει στον φάκελο των αντιγράφων ${dir}.`);
      await expect(page.getByTestId('backups-failure-reason')).not.toContainText('EEXIST');
      await expect(page.getByTestId('backups-failure-reason')).toContainText(/Θα ξαναδοκιμαστεί στις \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} ή αμέσως με το «Αντίγραφο τώρα»\./);
      await expect(page.getByTestId('backups-failure-details')).toContainText(/^Λεπτομέρειες: .*EEXIST/);
      // Its next try waits: nothing is said to be under way, and "Back up now" can be pressed again.
      await expect(page.getByTestId('backups-pending')).toHaveCount(0);
      await expect(page.getByTestId('backups-now')).toBeEnabled();
      await expectAccessible(page, 'jobs el, a failed backup');
      await ctx.close();
    } finally {
      fs.rmSync(dir, { force: true });
      if (fs.existsSync(aside)) fs.renameSync(aside, dir);
    }
  });
});

test('the Jobs page says when the backups could not be read, and shows them once they can (en-UK)', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const ctx = await signedIn(browser, baseURL!, token, 'en-UK');
  const page = await ctx.newPage();
  // The connection drops on every read of the backups (the page's retries too) until it comes back.
  let down = true;
  await page.route('**/api/backups', async (route) => {
    if (!down || route.request().method() !== 'GET') return route.continue();
    await route.abort('connectionreset');
  });
  await page.goto('/Jobs');
  await expect(page.getByTestId('backups-error')).toHaveText('Cannot reach the server. Check your connection and try again.', { timeout: 20_000 });
  await expect(page.getByTestId('backups-last')).toHaveCount(0);
  // Back (read again here by a reload): the error goes, the backups show.
  down = false;
  await page.reload();
  await expect(page.getByTestId('backups-last')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('backups-error')).toHaveCount(0);
  await ctx.close();
});
