import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, auth, createObject as createObjectWith, expectAccessible, placeId, signedIn, openAsAdmin, openSignedIn } from '../fixtures.ts';
import { RecordPage } from '../pages/record.ts';
import { ListPage } from '../pages/list.ts';

/** The keys register: give a key to an employee, the same-date warning, the list and its cookie, a stale save, delete. */
const unique = (s: string) => `${s}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

type Key = { id: number; version: number; objectId: number; accountId: number | null; received: string | null; givenAway: string | null; description: string | null };

/** A property with something in it (one left as Add made it is a draft, which no picker offers), named by its number alone. */
async function createObject(request: APIRequestContext, token: string): Promise<{ id: number; referenceNumber: string }> {
  const add = await request.get('/api/object/add', { headers: auth(token) });
  expect(add.ok(), await add.text()).toBeTruthy();
  const o = (await add.json()) as { id: number; version: number; referenceNumber: string };
  const filled = await request.post('/api/object/update', { data: { id: o.id, version: o.version, area: 75 }, headers: auth(token) });
  expect(filled.ok(), await filled.text()).toBeTruthy();
  return { id: o.id, referenceNumber: o.referenceNumber };
}

async function createEmployee(request: APIRequestContext, token: string, lastName: string): Promise<number> {
  const res = await request.post('/api/account/add', {
    data: { lastName, firstName: 'Stavros', isEmploye: true, role: 'employee', email: `${lastName.toLowerCase()}@example.com` },
    headers: auth(token),
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).id as number;
}

async function keysOf(request: APIRequestContext, token: string, ref: string): Promise<Key[]> {
  const res = await request.get('/api/ObjectKeys', { params: { referenceNumber: ref, perPage: 50 }, headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()) as { items: (Key & { objectReferenceNumber: string })[] }).items.filter((k) => k.objectReferenceNumber === ref);
}

const NO_SUCH_DATE = { 'en-UK': 'This date does not exist in the calendar', el: 'Αυτή η ημερομηνία δεν υπάρχει στο ημερολόγιο' };

const SAME_DATE = {
  'en-UK': 'Please reset one of the date above if they are the same',
  el: 'Αν οι δύο παραπάνω ημερομηνίες είναι ίδιες, καθαρίστε τη μία από αυτές',
};

/** The keys list's column of where a key is, and a key out with someone. */
const WHERE = {
  'en-UK': { column: 'Where it is', with: 'With ' },
  el: { column: 'Πού βρίσκεται', with: 'Το έχει: ' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`gives a key to an employee and warns when both dates are the same (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const token = await apiToken(request);
    const object = await createObject(request, token);
    const lastName = unique('Keyholder');
    const employee = await createEmployee(request, token, lastName);
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();

    // From the property's page: its keys (none yet) and Add key.
    await page.goto(`/Objects/View/${object.id}`);
    const keysCard = page.getByTestId('object-keys');
    await expect(keysCard.getByTestId('object-keys-count')).toHaveText('0');
    await keysCard.getByTestId('object-add-key').click();
    await expect(page).toHaveURL(new RegExp(`/ObjectKeys/new\\?objectId=${object.id}$`));
    await expect(page.getByTestId('key-object')).toHaveText(`#${object.referenceNumber}`);
    await page.getByTestId('key-account').fill(lastName);
    await page.getByRole('option', { name: new RegExp(lastName) }).click();
    // A date the calendar does not have stays as typed, is said to be wrong, and holds the save back.
    await page.getByTestId('key-received').fill('31/02/2026');
    await page.getByTestId('key-received').press('Tab');
    await expect(page.getByTestId('key-received')).toHaveValue('31/02/2026');
    await expect(page.getByText(NO_SUCH_DATE[language])).toBeVisible();
    await page.getByTestId('key-save').click();
    await expect(page.getByTestId('key-received')).toBeFocused();
    expect(await keysOf(request, token, object.referenceNumber)).toEqual([]);
    await page.getByTestId('key-received').fill('03/02/2026');
    await page.getByTestId('key-received').press('Tab');
    await expect(page.getByText(NO_SUCH_DATE[language])).toHaveCount(0);
    await page.getByTestId('key-givenaway').fill('03/02/2026');
    await page.getByTestId('key-givenaway').press('Tab');
    await expect(page.getByTestId('key-same-date')).toHaveText(SAME_DATE[language]);

    // Reset one of them: the warning goes; a later date is fine.
    await page.getByTestId('key-reset-givenaway').click();
    await expect(page.getByTestId('key-givenaway')).toHaveValue('');
    await expect(page.getByTestId('key-same-date')).toHaveCount(0);
    await page.getByTestId('key-givenaway').fill('10/02/2026');
    await page.getByTestId('key-givenaway').press('Tab');
    await expect(page.getByTestId('key-same-date')).toHaveCount(0);
    await page.getByTestId('key-description').fill('Spare set, blue tag');
    // A double click records one key.
    await page.getByTestId('key-save').dblclick();
    await expect(page).toHaveURL(new RegExp(`/Objects/View/${object.id}$`));
    await expect(keysCard.getByTestId('object-keys-count')).toHaveText('1');
    await expect(keysCard.getByTestId('object-key')).toContainText(lastName);
    await expect(keysCard.getByTestId('object-key')).toContainText('10/02/2026');

    const all = await keysOf(request, token, object.referenceNumber);
    expect(all).toHaveLength(1);
    const [stored] = all;
    expect(stored).toMatchObject({ objectId: object.id, accountId: employee, received: '2026-02-03', givenAway: '2026-02-10', description: 'Spare set, blue tag' });

    // The register: filtered by the reference number, the key with its holder and dates.
    await page.goto('/ObjectKeys');
    await expect(page.locator('main h1')).toHaveCount(1);
    await page.getByTestId('keys-filter-ref').fill(object.referenceNumber);
    const row = page.getByTestId('keys-table-row');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('key-object-link')).toHaveText(`#${object.referenceNumber}`);
    await expect(row.getByTestId('account-link')).toContainText(lastName);
    // Its column says where the key is, and the key is out with its holder.
    await expect(page.getByTestId('keys-table').getByRole('columnheader', { name: WHERE[language].column, exact: true })).toBeVisible();
    await expect(row.getByTestId('key-with')).toHaveText(new RegExp(`^${WHERE[language].with}${lastName}`));
    await expect(row).toContainText('03/02/2026');
    await expect(row).toContainText('10/02/2026');
    await expect(row).toContainText('Spare set, blue tag');
    await page.getByTestId('keys-filter-clear').click();
    await expect(page.getByTestId('keys-filter-ref')).toHaveValue('');

    // Someone else changes the key while it is open: the save is refused and their version shown.
    await page.getByTestId('keys-filter-ref').fill(object.referenceNumber);
    // Its row alone, once the filter has been asked for (until then the list shows every key).
    await expect(row).toHaveCount(1);
    await row.getByTestId('key-edit').click();
    await expect(page).toHaveURL(new RegExp(`/ObjectKeys/${stored!.id}$`));
    await expect(page.getByTestId('key-description')).toHaveValue('Spare set, blue tag');
    const other = await request.post('/api/ObjectKeys/edit', {
      data: { id: stored!.id, version: stored!.version, objectId: object.id, accountId: employee, received: '2026-02-03', givenAway: null, description: 'Back in the office safe' },
      headers: auth(token),
    });
    expect(other.ok(), await other.text()).toBeTruthy();
    await page.getByTestId('key-description').fill('Lent to the plumber');
    await page.getByTestId('key-save').click();
    await expect(page.getByTestId('banner')).toBeVisible();
    await expect(page.getByTestId('key-description')).toHaveValue('Back in the office safe');
    await expect(page.getByTestId('key-givenaway')).toHaveValue('');
    expect((await keysOf(request, token, object.referenceNumber))[0]!.description).toBe('Back in the office safe');

    // Delete, confirmed.
    const keyScreen = new RecordPage(page);
    await keyScreen.askDelete('key-delete');
    await keyScreen.confirmDelete();
    await expect(page).toHaveURL(/\/ObjectKeys$/);
    expect(await keysOf(request, token, object.referenceNumber)).toEqual([]);
    // The register's own Add key asks which property.
    await page.getByTestId('keys-add').click();
    await expect(page).toHaveURL(/\/ObjectKeys\/new$/);
    await expect(page.getByTestId('key-object-picker')).toBeVisible();
    await ctx.close();
  });
}

/** Today in the agency's zone (the e2e server runs in Europe/Athens), as ISO and as the screens write it. */
const athensToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Athens', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const shown = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

const HISTORY_TEXTS = {
  'en-UK': {
    out: (holder: string, date: string) => `Out with ${holder} since ${date}`,
    inOffice: (date: string, holder: string) => `In the office since ${date} · last with ${holder}`,
    given: (holder: string, date: string) => `Given to ${holder} on ${date}`,
    back: (date: string) => `back on ${date}`,
    notBack: 'not back yet',
    returnedSaved: 'The key is back in the office',
    holderRequired: 'Choose who takes the key.',
    title: 'Lending history',
  },
  el: {
    out: (holder: string, date: string) => `Εκτός γραφείου: ${holder}, από ${date}`,
    inOffice: (date: string, holder: string) => `Στο γραφείο από ${date} · τελευταίος κάτοχος: ${holder}`,
    given: (holder: string, date: string) => `Δόθηκε σε: ${holder}, στις ${date}`,
    back: (date: string) => `επιστράφηκε στις ${date}`,
    notBack: 'δεν έχει επιστραφεί ακόμη',
    returnedSaved: 'Το κλειδί είναι ξανά στο γραφείο',
    holderRequired: 'Επιλέξτε ποιος παίρνει το κλειδί.',
    title: 'Ιστορικό δανεισμού',
  },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`a key lent, returned with one tap and lent again keeps its loans, newest first, on a phone (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const L = HISTORY_TEXTS[language];
    const token = await apiToken(request);
    const object = await createObject(request, token);
    const first = unique('Lender');
    const second = unique('Borrower');
    const firstId = await createEmployee(request, token, first);
    await createEmployee(request, token, second);
    const firstName = `${first} Stavros`;
    const secondName = `${second} Stavros`;
    const today = athensToday();
    const lent = '2026-01-12';
    const made = await request.post('/api/ObjectKeys/edit', { data: { objectId: object.id, accountId: firstId, givenAway: lent, description: 'Front door' }, headers: auth(token) });
    expect(made.ok(), await made.text()).toBeTruthy();
    const key = (await made.json()) as Key;

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, `/ObjectKeys/${key.id}`, { viewport: { width: 412, height: 915 }, isMobile: true });
    const loans = page.getByTestId('key-loan');
    await expect(page.getByTestId('key-history')).toContainText(L.title);
    await expect(page.getByTestId('key-state-text')).toHaveText(L.out(firstName, shown(lent)));
    await expect(loans).toHaveCount(1);
    await expect(loans.first()).toContainText(`${L.given(firstName, shown(lent))} · ${L.notBack}`);
    await expect(loans.first().getByTestId('key-loan-holder')).toHaveAttribute('href', `/Accounts/View/${firstId}`);

    // Key returned: one tap saves received = today; the form stays and the loan reads back today.
    await page.getByTestId('key-returned').click();
    await expect(page.getByTestId('banner')).toContainText(L.returnedSaved);
    await expect(page.getByTestId('key-state-text')).toHaveText(L.inOffice(shown(today), firstName));
    await expect(loans).toHaveCount(1);
    await expect(loans.first()).toContainText(`${L.given(firstName, shown(lent))} · ${L.back(shown(today))}`);
    await expect(page.getByTestId('key-received')).toHaveValue(shown(today));
    let stored = (await (await request.get(`/api/ObjectKeys/edit/${key.id}`, { headers: auth(token) })).json()) as Key & { history: unknown[] };
    expect(stored).toMatchObject({ accountId: firstId, givenAway: lent, received: today, version: 2 });

    // Lend again: today, holder to choose (asked for when missing), received cleared.
    await page.getByTestId('key-lend').click();
    await expect(page.getByTestId('key-givenaway')).toHaveValue(shown(today));
    await expect(page.getByTestId('key-received')).toHaveValue('');
    await expect(page.getByTestId('key-account')).toBeFocused();
    await page.getByTestId('key-save').click();
    await expect(page.getByText(L.holderRequired)).toBeVisible();
    await page.getByTestId('key-account').fill(second);
    await page.getByRole('option', { name: new RegExp(second) }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.getByTestId('key-save').click();
    await expect(page).toHaveURL(/\/ObjectKeys$/);

    // Reloaded: two loans, newest first; the property's page says who has it.
    await page.goto(`/ObjectKeys/${key.id}`);
    await expect(loans).toHaveCount(2);
    await expect(loans.nth(0)).toContainText(`${L.given(secondName, shown(today))} · ${L.notBack}`);
    await expect(loans.nth(1)).toContainText(`${L.given(firstName, shown(lent))} · ${L.back(shown(today))}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`key-history-phone-${language}.png`), fullPage: true });
    await expectAccessible(page, `key history on a phone ${language}`);

    // Back the same day it went out: both dates stay in the loan, the key's given-away date is cleared (no warning).
    await page.getByTestId('key-returned').click();
    await expect(page.getByTestId('banner')).toContainText(L.returnedSaved);
    await expect(loans.nth(0)).toContainText(`${L.given(secondName, shown(today))} · ${L.back(shown(today))}`);
    await expect(page.getByTestId('key-givenaway')).toHaveValue('');
    await expect(page.getByTestId('key-same-date')).toHaveCount(0);
    stored = (await (await request.get(`/api/ObjectKeys/edit/${key.id}`, { headers: auth(token) })).json()) as Key & { history: unknown[] };
    expect(stored).toMatchObject({ givenAway: null, received: today });
    expect(stored.history).toHaveLength(2);

    await page.goto(`/Objects/View/${object.id}`);
    await expect(page.getByTestId('object-keys').getByTestId('object-key-state')).toHaveText(L.inOffice(shown(today), secondName));
    await ctx.close();
  });
}

const LOAN_TEXTS = {
  'en-UK': {
    backBeforeGiven: 'The key cannot have come back before it was given.',
    saved: 'The loan was corrected.',
    deleted: 'The loan was deleted from the lending history.',
    conflict: 'Someone else changed this loan in the meantime.',
    holderLabel: 'Held by, now or before',
    hadIt: (holder: string, from: string, to: string) => `Had it: ${holder}, ${from} – ${to}`,
    noneHeld: (holder: string) => `No key was ever given to anyone matching “${holder}”.`,
  },
  el: {
    backBeforeGiven: 'Η ημερομηνία επιστροφής δεν μπορεί να είναι πριν από την ημερομηνία παράδοσης.',
    saved: 'Ο δανεισμός διορθώθηκε.',
    deleted: 'Ο δανεισμός διαγράφηκε από το ιστορικό δανεισμού.',
    conflict: 'Κάποιος άλλος άλλαξε στο μεταξύ αυτόν τον δανεισμό.',
    holderLabel: 'Κάτοχος, τωρινός ή παλαιότερος',
    hadIt: (holder: string, from: string, to: string) => `Το είχε: ${holder}, ${from} – ${to}`,
    noneHeld: (holder: string) => `Κανένα κλειδί δεν έχει δοθεί ποτέ σε κάποιον που να ταιριάζει με «${holder}».`,
  },
} as const;

type LoanRow = { id: number; version: number; accountId: number | null; givenAway: string | null; received: string | null };

// English on a desktop, Greek on a 412 px phone: the loan's correction, then the list searched by its holders.
for (const [language, size] of [
  ['en-UK', { viewport: { width: 1280, height: 800 }, isMobile: false }],
  ['el', { viewport: { width: 412, height: 915 }, isMobile: true }],
] as const) {
  test(`corrects a loan's holder in the history and finds the key by a past holder (${language}, ${size.viewport.width} px)`, async ({ browser, request, baseURL }) => {
    test.setTimeout(150_000);
    const L = { ...HISTORY_TEXTS[language], ...LOAN_TEXTS[language] };
    const token = await apiToken(request);
    const object = await createObject(request, token);
    const wrong = unique('Mistyped');
    const right = unique('Pastholder');
    const now = unique('Nowholder');
    const wrongId = await createEmployee(request, token, wrong);
    const rightId = await createEmployee(request, token, right);
    const nowId = await createEmployee(request, token, now);
    // Lent to "Mistyped" (it was Pastholder), back three days later; then lent to Nowholder.
    let res = await request.post('/api/ObjectKeys/edit', { data: { objectId: object.id, accountId: wrongId, givenAway: '2026-01-05' }, headers: auth(token) });
    let key = (await res.json()) as Key;
    res = await request.post('/api/ObjectKeys/edit', { data: { ...key, received: '2026-01-08' }, headers: auth(token) });
    key = (await res.json()) as Key;
    res = await request.post('/api/ObjectKeys/edit', { data: { ...key, accountId: nowId, givenAway: '2026-02-01', received: null }, headers: auth(token) });
    expect(res.ok(), await res.text()).toBeTruthy();
    const history = async () => ((await (await request.get(`/api/ObjectKeys/edit/${key.id}`, { headers: auth(token) })).json()) as { history: LoanRow[] }).history;
    expect((await history()).map((l) => l.accountId)).toEqual([nowId, wrongId]);

    const { ctx, page } = await openSignedIn(browser, baseURL!, token, language, `/ObjectKeys/${key.id}`, size);
    const loans = page.getByTestId('key-loan');
    await expect(loans).toHaveCount(2);
    await expect(loans.nth(1)).toContainText(`${L.given(`${wrong} Stavros`, '05/01/2026')} · ${L.back('08/01/2026')}`);

    // Correct the older loan: a return before it was given is refused under the field, and nothing is stored.
    await loans.nth(1).getByTestId('key-loan-edit').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('loan-account')).toHaveValue(`${wrong} Stavros`);
    await expect(dialog.getByTestId('loan-current-note')).toHaveCount(0);
    await dialog.getByTestId('loan-received').fill('04/01/2026');
    await dialog.getByTestId('loan-received').press('Tab');
    await dialog.getByTestId('loan-save').click();
    await expect(dialog.getByText(L.backBeforeGiven)).toBeVisible();
    // Said once, under the field: no banner repeats it.
    await expect(page.getByTestId('banner')).toHaveCount(0);
    expect((await history())[1]).toMatchObject({ accountId: wrongId, received: '2026-01-08' });
    if (size.isMobile) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await page.screenshot({ path: test.info().outputPath(`loan-edit-phone-${language}.png`) });
    }
    await expectAccessible(page, `loan correction ${language}`);

    // The holder was Pastholder, and it came back on the 8th after all.
    await dialog.getByTestId('loan-received').fill('08/01/2026');
    await dialog.getByTestId('loan-received').press('Tab');
    await dialog.getByTestId('loan-account').fill(right);
    await page.getByRole('option', { name: new RegExp(right) }).click();
    await dialog.getByTestId('loan-save').click();
    await expect(page.getByTestId('banner')).toContainText(L.saved);
    await expect(dialog).toHaveCount(0);
    await expect(loans.nth(1)).toContainText(`${L.given(`${right} Stavros`, '05/01/2026')} · ${L.back('08/01/2026')}`);
    await expect(loans.nth(1).getByTestId('key-loan-holder')).toHaveAttribute('href', `/Accounts/View/${rightId}`);
    // An earlier loan is history: the key itself is still out with Nowholder.
    await expect(page.getByTestId('key-state-text')).toHaveText(L.out(`${now} Stavros`, '01/02/2026'));
    expect((await history())[1]).toMatchObject({ accountId: rightId, givenAway: '2026-01-05', received: '2026-01-08' });

    // The list, searched by the past holder: the key, with the loan that was theirs.
    await page.goto('/ObjectKeys');
    // On a phone the filters fold away behind their button.
    if (size.isMobile) await page.getByTestId('keys-filter-toggle').click();
    await expect(page.getByText(L.holderLabel, { exact: true })).toBeVisible();
    await page.getByTestId('keys-filter-holder').fill(right);
    const row = page.getByTestId('keys-table-row');
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('key-object-link')).toHaveText(`#${object.referenceNumber}`);
    await expect(row.getByTestId('account-link')).toContainText(now);
    await expect(row.getByTestId('key-held-by')).toHaveText(L.hadIt(`${right} Stavros`, '05/01/2026', '08/01/2026'));
    // The mistyped holder no longer held it.
    await page.getByTestId('keys-filter-holder').fill(wrong);
    await expect(page.getByTestId('keys-table-empty')).toContainText(L.noneHeld(wrong));
    if (size.isMobile) expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await page.getByTestId('keys-filter-holder').fill(right);
    await expect(row).toHaveCount(1);
    if (size.isMobile) await page.screenshot({ path: test.info().outputPath(`keys-by-holder-phone-${language}.png`), fullPage: true });
    await expectAccessible(page, `keys list by a past holder ${language}`);
    await page.getByTestId('keys-filter-holder-clear').click();
    await expect(page.getByTestId('keys-filter-holder')).toHaveValue('');

    if (!size.isMobile) {
      // Someone else corrects the same loan while the dialog is open: their version, with what only this user changed.
      await page.goto(`/ObjectKeys/${key.id}`);
      await loans.nth(1).getByTestId('key-loan-edit').click();
      const [, older] = await history();
      const theirs = await request.post('/api/ObjectKeys/loan', {
        data: { id: older!.id, version: older!.version, accountId: rightId, givenAway: '2026-01-04', received: '2026-01-08' },
        headers: auth(token),
      });
      expect(theirs.ok(), await theirs.text()).toBeTruthy();
      await dialog.getByTestId('loan-received').fill('09/01/2026');
      await dialog.getByTestId('loan-received').press('Tab');
      await dialog.getByTestId('loan-save').click();
      await expect(dialog.getByTestId('loan-conflict')).toBeVisible();
      await expect(dialog.getByTestId('loan-givenaway')).toHaveValue('04/01/2026');
      await expect(dialog.getByTestId('loan-received')).toHaveValue('09/01/2026');
      expect((await history())[1]).toMatchObject({ givenAway: '2026-01-04', received: '2026-01-08' });
      await dialog.getByTestId('loan-save').click();
      await expect(dialog).toHaveCount(0);
      expect((await history())[1]).toMatchObject({ accountId: rightId, givenAway: '2026-01-04', received: '2026-01-09' });

      // The newest loan was recorded by mistake: deleted, confirmed; the key goes back to the loan before it.
      await loans.first().getByTestId('key-loan-edit').click();
      await expect(dialog.getByTestId('loan-current-note')).toBeVisible();
      await dialog.getByTestId('loan-delete').click();
      await page.getByTestId('loan-delete-confirm').click();
      await expect(page.getByTestId('banner')).toContainText(L.deleted);
      await expect(loans).toHaveCount(1);
      await expect(page.getByTestId('key-state-text')).toHaveText(L.inOffice('09/01/2026', `${right} Stavros`));
      await expect(page.getByTestId('key-account')).toHaveValue(`${right} Stavros`);
      const stored = (await (await request.get(`/api/ObjectKeys/edit/${key.id}`, { headers: auth(token) })).json()) as Key;
      expect(stored).toMatchObject({ accountId: rightId, givenAway: '2026-01-04', received: '2026-01-09' });
    }
    await ctx.close();
  });
}

test('the keys list keeps its page size in a cookie (default 10)', async ({ browser, request, baseURL }) => {
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'en-UK', '/ObjectKeys');
  const keys = new ListPage(page, 'keys', '/ObjectKeys');
  // With keys there is a page-size selector; with none the register says so.
  await expect(keys.pageSize.or(keys.empty)).toBeVisible();
  if (await keys.empty.isVisible()) {
    await expect(keys.empty).toContainText('The agency holds no keys yet');
  } else {
    await expect(keys.pageSize).toHaveValue('10');
    await keys.choosePageSize('5');
    await page.reload();
    await expect(keys.pageSize).toHaveValue('5');
    const cookie = (await ctx.cookies()).find((c) => c.name === 'ObjectKeys.perPage');
    expect(cookie?.value).toBe('5');
  }
  await ctx.close();
});

// Each keys screen in both languages and at both sizes, two of the four pairs each (as in a11y.spec.ts).
for (const [sizeIndex, size] of ([
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const).entries()) {
  for (const [languageIndex, language] of (['en-UK', 'el'] as const).entries()) {
    test(`the keys screens pass axe (${size.name}, ${language})`, async ({ browser, request, baseURL }) => {
      test.setTimeout(90_000);
      const token = await apiToken(request);
      const object = await createObject(request, token);
      const employee = await createEmployee(request, token, unique('Axekey'));
      const res = await request.post('/api/ObjectKeys/edit', { data: { objectId: object.id, accountId: employee, received: '2026-03-01', givenAway: '2026-03-01', description: 'Two keys' }, headers: auth(token) });
      expect(res.ok(), await res.text()).toBeTruthy();
      const key = (await res.json()) as Key;
      const ctx = await signedIn(browser, baseURL!, token, language, { viewport: size.viewport, isMobile: size.isMobile });
      const page = await ctx.newPage();
      const screens = [
        async () => {
          await page.goto('/ObjectKeys');
          await expect(page.getByTestId('keys-table-row').first()).toBeVisible();
          await expectAccessible(page, `keys list ${size.name} ${language}`);
        },
        async () => {
          await page.goto(`/ObjectKeys/${key.id}`);
          await expect(page.getByTestId('key-same-date')).toBeVisible();
          await expectAccessible(page, `key form ${size.name} ${language}`);
        },
        async () => {
          await page.goto(`/ObjectKeys/new?objectId=${object.id}`);
          await expect(page.getByTestId('key-object')).toHaveText(`#${object.referenceNumber}`);
          await expectAccessible(page, `new key ${size.name} ${language}`);
        },
      ];
      for (const [index, check] of screens.entries()) if ((index + sizeIndex + languageIndex) % 2 === 0) await check();
      await ctx.close();
    });
  }
}

/** The day after `iso` (YYYY-MM-DD). */
const nextDay = (iso: string) => new Date(Date.parse(`${iso}T12:00:00Z`) + 86400000).toISOString().slice(0, 10);
const shownRu = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;

test('a received date after today is said once, under its field, and goes when it is corrected (ru)', async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const object = await createObject(request, token);
  const holder = unique('Ivanov');
  const holderId = await createEmployee(request, token, holder);
  const made = await request.post('/api/ObjectKeys/edit', { data: { objectId: object.id, accountId: holderId, givenAway: '2026-01-12', description: 'Front door' }, headers: auth(token) });
  expect(made.ok(), await made.text()).toBeTruthy();
  const key = (await made.json()) as Key;
  const today = athensToday();
  const future = 'Дата получения не может быть позже сегодняшней.';

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'ru', `/ObjectKeys/${key.id}`, { viewport: { width: 1366, height: 800 } });
  await page.getByTestId('key-received').fill(shownRu(nextDay(today)));
  await page.getByTestId('key-received').press('Tab');
  await page.getByTestId('key-save').click();
  // Refused under the field, which takes the focus; no banner repeats it; nothing stored.
  await expect(page.getByTestId('key-form').getByText(future)).toBeVisible();
  await expect(page.getByTestId('key-received')).toBeFocused();
  await expect(page.getByTestId('banner')).toHaveCount(0);
  expect((await keysOf(request, token, object.referenceNumber))[0]).toMatchObject({ received: null, version: key.version });

  // Corrected to today: the error goes at once, and the save goes through with only its own message.
  await page.getByTestId('key-received').fill(shownRu(today));
  await page.getByTestId('key-received').press('Tab');
  await expect(page.getByText(future)).toHaveCount(0);
  await page.getByTestId('key-save').click();
  await expect(page).toHaveURL(/\/ObjectKeys$/);
  await expect(page.getByTestId('banner')).toHaveText('Ключ сохранён.');
  expect((await keysOf(request, token, object.referenceNumber))[0]).toMatchObject({ received: today });
  await ctx.close();
});

test('the property picked for a new key stays picked when it is chosen again; only clearing empties it (ru, 412 px)', async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const object = await createObject(request, token);
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'ru', '/ObjectKeys/new', { viewport: { width: 412, height: 915 }, isMobile: true });
  const picker = page.getByTestId('key-object-picker');
  await picker.fill(object.referenceNumber);
  const option = page.getByRole('option', { name: new RegExp(`^#${object.referenceNumber}`) });
  await option.click();
  const picked = await picker.inputValue();
  expect(picked).toContain(`#${object.referenceNumber}`);
  // The list opened again and the same property tapped: it stays picked.
  await picker.click();
  await option.click();
  await expect(picker).toHaveValue(picked);
  await page.getByTestId('key-description').fill('Spare set');
  await page.getByTestId('key-save').click();
  await expect(page).toHaveURL(/\/ObjectKeys$/);
  await expect(page.getByTestId('banner')).toHaveText('Ключ сохранён.');
  expect(await keysOf(request, token, object.referenceNumber)).toMatchObject([{ objectId: object.id, description: 'Spare set' }]);

  // Emptied by its clear button, the form asks for the property and saves nothing.
  await page.goto('/ObjectKeys/new');
  await picker.fill(object.referenceNumber);
  await option.click();
  // Mantine's clear button (a mouse or a finger's; hidden from the keyboard and screen readers).
  await page.getByTestId('key-form').locator('.mantine-InputClearButton-root').click();
  await expect(picker).toHaveValue('');
  await page.getByTestId('key-description').fill('Nobody knows which door');
  await page.getByTestId('key-save').click();
  await expect(page.getByText('Выберите объект, к которому относится ключ.')).toBeVisible();
  expect(await keysOf(request, token, object.referenceNumber)).toHaveLength(1);
  await ctx.close();
});

test("a key's property is named by its number and title, as the deal form names it (ru)", async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await apiToken(request);
  const mark = String(Date.now() % 1000000);
  const russian = `Квартира у моря ${mark}`;
  const place = await placeId(request, token, 'Karabournaki');
  const object = await createObjectWith(request, token, {
    subTypeObjectTypeId: 1,
    objectSubTypeId: 1,
    forSale: true,
    locationId: place,
    latitude: 40.5872,
    longitude: 22.9481,
    displayCoordinates: true,
    title: `Διαμέρισμα ${mark}`,
    titleRu: russian,
  });
  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'ru', '/ObjectKeys/new', { viewport: { width: 1366, height: 800 } });
  const picker = page.getByTestId('key-object-picker');
  await picker.fill(object.referenceNumber);
  await page.getByRole('option', { name: new RegExp(`^#${object.referenceNumber}`) }).click();
  // Picked, it keeps its title (on a Russian screen the Russian one), not the number alone.
  await expect(picker).toHaveValue(new RegExp(`^#${object.referenceNumber} · ${russian}`));
  await page.getByTestId('key-description').fill('Front door');
  await page.getByTestId('key-save').click();
  await expect(page).toHaveURL(/\/ObjectKeys$/);
  const [stored] = await keysOf(request, token, object.referenceNumber);
  expect(stored).toMatchObject({ objectId: object.id });

  // The key's own form, and a new key added from the property's page, name it the same way.
  await page.goto(`/ObjectKeys/${stored!.id}`);
  await expect(page.getByTestId('key-object')).toHaveText(`#${object.referenceNumber} ${russian}`);
  await page.goto(`/ObjectKeys/new?objectId=${object.id}`);
  await expect(page.getByTestId('key-object')).toHaveText(`#${object.referenceNumber} ${russian}`);
  await ctx.close();
});

test('a key back in the office says so in the list and the form, and names its last holder only as that (ru, 412 px)', async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const token = await apiToken(request);
  const object = await createObject(request, token);
  const holder = unique('Ivanov');
  const holderId = await createEmployee(request, token, holder);
  const name = `${holder} Stavros`;
  const today = athensToday();
  // Lent this morning, back this afternoon (the explorer's case: the given-away date goes, the loan keeps both).
  const made = await request.post('/api/ObjectKeys/edit', { data: { objectId: object.id, accountId: holderId, givenAway: today, description: 'Front door' }, headers: auth(token) });
  expect(made.ok(), await made.text()).toBeTruthy();
  const key = (await made.json()) as Key;

  const { ctx, page } = await openSignedIn(browser, baseURL!, token, 'ru', `/ObjectKeys/${key.id}`, { viewport: { width: 412, height: 915 }, isMobile: true });
  const form = page.getByTestId('key-form');
  await expect(form.getByRole('combobox', { name: 'Кому выдан', exact: true })).toHaveValue(name);
  await page.getByTestId('key-returned').click();
  await expect(page.getByTestId('banner')).toContainText('Ключ снова в офисе');
  // In the office: the holder the key keeps is its last one, and the field says so.
  await expect(page.getByTestId('key-state-text')).toHaveText(`В офисе с ${shownRu(today)} · последний раз был у: ${name}`);
  await expect(form.getByRole('combobox', { name: 'Кому выдан последним', exact: true })).toHaveValue(name);
  await expect(form.getByRole('combobox', { name: 'Кому выдан', exact: true })).toHaveCount(0);
  // The history keeps who had it (the record too).
  await expect(page.getByTestId('key-loan').first()).toContainText(`Выдан: ${name}, ${shownRu(today)} · возвращён ${shownRu(today)}`);
  expect((await keysOf(request, token, object.referenceNumber))[0]).toMatchObject({ accountId: holderId, givenAway: null, received: today });

  // The list: in the office, last given to … and when it came back; no "given to" link.
  await page.goto('/ObjectKeys');
  await page.getByTestId('keys-filter-toggle').click();
  await page.getByTestId('keys-filter-ref').fill(object.referenceNumber);
  const row = page.getByTestId('keys-table-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('key-in-office')).toHaveText('В офисе');
  // The card's line says where the key is («Где сейчас»), not to whom it was given.
  expect(await row.locator('td:has([data-testid="key-in-office"])').evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"Где сейчас" / ""');
  await expect(row.getByTestId('key-last-holder')).toHaveText(`Последний раз выдан: ${name}, возвращён ${shownRu(today)}`);
  await expect(row.getByTestId('key-last-holder').getByRole('link')).toHaveAttribute('href', `/Accounts/View/${holderId}`);
  await expect(row.getByTestId('account-link')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await page.screenshot({ path: test.info().outputPath('key-in-office-phone-ru.png'), fullPage: true });

  // Lent again: the field asks who takes it, and the list names the holder again.
  await page.goto(`/ObjectKeys/${key.id}`);
  await page.getByTestId('key-lend').click();
  await expect(form.getByRole('combobox', { name: 'Кому выдан', exact: true })).toBeVisible();
  await ctx.close();
});
