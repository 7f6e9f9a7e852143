import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { apiToken, expectAccessible } from '../fixtures.ts';
import { ListPage } from '../pages/list.ts';

/**
 * Using it every day: the office laptop widths, a phone, the menu's way to Sources and to the
 * generic list, and one clear state for a record that is not there.
 */
async function openAs(context: BrowserContext, baseURL: string, language: string, token: string): Promise<Page> {
  const me = { token, username: 'admin@example.com', userroles: ['admin'], branchId: null, language: null, accountId: null };
  await context.addCookies([{ name: 'language', value: language, url: baseURL }]);
  await context.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(me));
  return context.newPage();
}

// Both office laptop widths on the same pages: the window is resized, the layout follows.
const WIDTHS = [1280, 1366];
for (const language of ['en-UK', 'el', 'ru']) {
  test(`at ${WIDTHS.join(' and ')} px in ${language} the whole navbar is in view and list tables show every column`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const context = await browser.newContext({ viewport: { width: WIDTHS[0]!, height: 800 } });
    const page = await openAs(context, baseURL!, language, token);
    await page.goto('/Clients');
    await expect(page.getByTestId('clients-table')).toBeVisible();
    const nav = page.getByRole('navigation').first();
    await expect(nav).toBeVisible();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const outside = await page.evaluate(() =>
        [...document.querySelectorAll('header a, header button, header input')]
          .map((el) => ({ text: (el.textContent || el.getAttribute('aria-label') || '').trim(), r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && (r.left < 0 || r.right > window.innerWidth || r.bottom > 56))
          .map(({ text }) => text),
      );
      expect(outside, `navbar at ${width} px in ${language}`).toEqual([]);
      // Eight single links and two dropdowns, all shown at once.
      await expect(nav.locator('a, button')).toHaveCount(8);
    }
    for (const list of ['/Clients', '/Owners', '/Partners', '/Professionals', '/Accounts', '/Employes', '/Sources']) {
      await page.setViewportSize({ width: WIDTHS[0]!, height: 800 });
      await page.goto(list);
      const table = page.locator('table').first();
      await expect(table).toBeVisible();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await expect
          .poll(() => table.evaluate((t) => t.scrollWidth <= (t.parentElement?.clientWidth ?? 0) + 1), { message: `${list} at ${width} px in ${language}` })
          .toBe(true);
      }
    }
    await context.close();
  });
}

for (const language of ['el', 'ru']) {
  test(`at ${WIDTHS.join(' and ')} px in ${language} the reports, the action log, the deals board, the import and the bookings cut nothing off`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    // An agent with a long run-together surname, as the results list every agent: it must not widen the table.
    const surname = `Παπαδημητρακοπούλου${Date.now().toString(36)}xyzxyz`;
    await request.post('/api/account/add', { data: { lastName: surname, firstName: 'Αικατερίνη', isEmploye: true, role: 'employee' }, headers: { authorization: `Bearer ${token}` } });
    const context = await browser.newContext({ viewport: { width: WIDTHS[0]!, height: 800 } });
    const page = await openAs(context, baseURL!, language, token);
    for (const path of ['/Reports', '/ActionLog', '/Deals/Board', '/Import', '/Reservations']) {
      await page.setViewportSize({ width: WIDTHS[0]!, height: 800 });
      await page.goto(path);
      await expect(page.getByTestId('page-h1').or(page.locator('main h1')).first()).toBeAttached();
      await expect(page.locator('[data-loading="true"], .mantine-Loader-root')).toHaveCount(0);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        // Nothing scrolls sideways or is cut: no box whose content is wider than it, apart from
        // words kept for screen readers and texts that end in "…" on purpose (their whole text in a title).
        await expect
          .poll(
            () =>
              page.evaluate(() =>
                [document.documentElement, ...document.querySelectorAll('main *')]
                  .filter((el) => {
                    const cs = getComputedStyle(el);
                    if (el.closest('.mantine-VisuallyHidden-root') || cs.textOverflow === 'ellipsis') return false;
                    return el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && (el === document.documentElement || ['hidden', 'clip', 'auto', 'scroll'].includes(cs.overflowX));
                  })
                  .map((el) => `${el.tagName}.${String(el.className).slice(0, 40)} «${(el.textContent ?? '').slice(0, 30)}» ${el.scrollWidth}>${el.clientWidth}`),
              ),
            { message: `${path} at ${width} px in ${language}` },
          )
          .toEqual([]);
      }
    }
    await context.close();
  });
}

for (const [language, phone, columns] of [['en-UK', 'Phone', 'Columns'], ['el', 'Τηλέφωνο', 'Στήλες']] as const) {
  test(`every list lets its columns be chosen, and keeps the choice (${language})`, async ({ context, request, baseURL }) => {
    const page = await openAs(context, baseURL!, language, await apiToken(request));
    const owners = new ListPage(page, 'owners', '/Owners');
    await owners.open();
    await expect(owners.heading(phone)).toBeVisible();
    await page.getByTestId('owners-columns').click();
    await expect(page.getByRole('group', { name: columns })).toBeVisible();
    await expectAccessible(page, `column chooser ${language}`);
    // The name, which opens the record, cannot be hidden.
    await expect(page.getByTestId('owners-column-name')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await owners.toggleColumn('phone');
    await expect(owners.heading(phone)).toHaveCount(0);
    await page.reload();
    await expect(owners.rows.first()).toBeVisible();
    await expect(owners.heading(phone)).toHaveCount(0);
    await owners.showAllColumns();
    await expect(owners.heading(phone)).toBeVisible();
  });
}

test('the Accounts menu leads to Sources and to the generic list, the way into merge', async ({ context, request, baseURL }) => {
  const page = await openAs(context, baseURL!, 'en-UK', await apiToken(request));
  await page.goto('/CRM');
  await page.getByTestId('menu-nav.accounts').click();
  await page.getByRole('menuitem', { name: 'Sources' }).click();
  await expect(page).toHaveURL(/\/Sources$/);
  await page.getByTestId('menu-nav.accounts').click();
  await page.getByRole('menuitem', { name: 'All accounts (merge)' }).click();
  await expect(page).toHaveURL(/\/Accounts$/);
});

for (const [language, text] of [
  ['en-UK', 'This record does not exist, or it has been deleted.'],
  ['el', 'Αυτή η εγγραφή δεν υπάρχει ή έχει διαγραφεί.'],
] as const) {
  test(`an unknown account shows one clear not-found state without the record's toolbar (${language})`, async ({ context, request, baseURL }) => {
    const page = await openAs(context, baseURL!, language, await apiToken(request));
    for (const path of ['/Accounts/View/987654321', '/Accounts/View/987654321/2']) {
      await page.goto(path);
      await expect(page.getByTestId('account-not-found')).toContainText(text);
      await expect(page.getByTestId('edit-toggle')).toHaveCount(0);
      await expect(page.getByTestId('account-menu')).toHaveCount(0);
    }
  });
}

test('on a phone the filters fold away and the pager fits the width', async ({ browser, request, baseURL }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const token = await apiToken(request);
  // An account of its own to find (a fresh database need not have any name the test could guess).
  const last = `Παπαδάκη${Date.now().toString(36)}`;
  await request.post('/api/account/add', { data: { lastName: last, firstName: 'Ελένη', isClient: true }, headers: { authorization: `Bearer ${token}` } });
  const page = await openAs(context, baseURL!, 'el', token);
  await page.goto('/Clients');
  await expect(page.getByTestId('clients-table')).toBeVisible();
  await expect(page.getByTestId('clients-filter-service')).toBeHidden();
  await page.getByTestId('clients-filter-toggle').click();
  await expect(page.getByTestId('clients-filter-service')).toBeVisible();
  const pager = page.locator('.mantine-Pagination-root').first();
  await pager.scrollIntoViewIfNeeded();
  const box = await pager.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  // The search is one tap from the header: the menu opens with its search box taking what is typed.
  await page.getByTestId('phone-search').tap();
  await expect(page.getByTestId('global-search')).toBeFocused();
  await page.keyboard.type(last);
  await expect(page.getByTestId('search-hit').filter({ hasText: last })).toBeVisible();
  // The calendar is in the menu, right under Home.
  await page.goto('/Clients');
  await expect(page.getByTestId('clients-table')).toBeVisible();
  await page.getByRole('button', { name: 'Μενού', exact: true }).tap();
  await page.getByTestId('drawer-calendar').tap();
  await expect(page).toHaveURL(/\/Calendar$/);
  await expect(page.getByTestId('page-h1')).toHaveText('Ημερολόγιο');
  await context.close();
});

test('a first click on a column header sorts it ascending', async ({ context, request, baseURL }) => {
  const page = await openAs(context, baseURL!, 'en-UK', await apiToken(request));
  const owners = new ListPage(page, 'owners', '/Owners');
  await owners.open();
  const next = page.waitForRequest((r) => r.url().includes('/api/owner?') && r.url().includes('sortBy=name'));
  await owners.sortBy(/^Name\b/);
  const url = new URL((await next).url());
  expect(url.searchParams.get('sortDir')).toBe('asc');
});

test('the global search finds a Greek name typed in Greeklish', async ({ context, request, baseURL }) => {
  const token = await apiToken(request);
  // A name of its own: consonant + α pairs, which read the same in Greek and in Latin letters.
  const pairs = [...Date.now().toString(36) + Math.random().toString(36).slice(2, 6)].map((c) => 'κλμνπρστφδβζ'[parseInt(c, 36) % 12]!);
  const greek = `Παπαδοπούλου${pairs.map((p) => `${p}α`).join('')}`;
  const latin = `papadopoulou${pairs.map((p) => `${'klmnprstfdvz'['κλμνπρστφδβζ'.indexOf(p)]}a`).join('')}`;
  const res = await request.post('/api/account/add', { data: { lastName: greek, firstName: 'Ελένη', isOwner: true }, headers: { authorization: `Bearer ${token}` } });
  const id = (await res.json()).id as number;
  const page = await openAs(context, baseURL!, 'el', token);
  await page.goto('/CRM');
  await page.getByTestId('global-search').fill(latin);
  const hit = page.getByTestId('search-hit').filter({ hasText: greek });
  await expect(hit).toHaveCount(1);
  await hit.click();
  await expect(page).toHaveURL(new RegExp(`/Accounts/View/${id}$`));
});

test('a date typed without its year ("27/11", "27.11") is read as this year’s', async ({ browser, request, baseURL }) => {
  const token = await apiToken(request);
  const object = (await (await request.get('/api/object/add', { headers: { authorization: `Bearer ${token}` } })).json()) as { id: number };
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
  const page = await openAs(context, baseURL!, 'el', token);
  await page.goto(`/ObjectKeys/new?objectId=${object.id}`);
  const year = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Athens', year: 'numeric' }).format(new Date());
  for (const [box, typed] of [['key-received', '27/11'], ['key-givenaway', '3.12']] as const) {
    await page.getByTestId(box).fill(typed);
    await page.getByTestId('key-description').focus();
    await expect(page.getByTestId(box)).toHaveValue(typed === '27/11' ? `27/11/${year}` : `03/12/${year}`);
    await expect(page.getByTestId(box)).not.toHaveAttribute('data-entry-invalid', 'true');
  }
  await context.close();
});

test('a kept filter naming a source deleted since lets it go, instead of an empty pill and an empty list', async ({ context, request, baseURL }) => {
  const token = await apiToken(request);
  const res = await request.post('/api/lead/search', { data: { currentPage: 1, perPage: 5 }, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const source = ((await res.json()).options.sourceList as { value: number; text: string }[])[0]!;
  const kept = { service: 0, sources: [source.value, 2147480000], stages: [], priorities: [], startDate: null, endDate: null, budgetRangeMin: null, budgetRangeMax: null, lastName: '' };
  await context.addCookies([{ name: 'LeadList.filter', value: encodeURIComponent(JSON.stringify(kept)), url: baseURL! }]);
  const page = await openAs(context, baseURL!, 'en-UK', token);
  const asked = page.waitForRequest((r) => r.url().includes('/api/lead/search') && JSON.stringify(r.postDataJSON()?.sources) === JSON.stringify([source.value]));
  await page.goto('/Leads');
  await asked;
  const pills = page.locator('.mantine-MultiSelect-pill');
  await expect(pills).toHaveCount(1);
  await expect(pills).toHaveText(source.text);
});
