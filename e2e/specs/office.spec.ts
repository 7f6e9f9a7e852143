import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN, auth, createObject, expectAccessible, openAs } from '../fixtures.ts';

/**
 * The office's library and records: a document form added with two files and one of them opened
 * from the list; an edit of an account found in the action log with its data; the settings page,
 * and (in Greek) a round trip of the interface texts — exported, one Greek text changed in the
 * workbook, imported, and shown in the browser at once.
 */
const LANGUAGES = [
  { cookie: 'en-UK', deleteConfirm: 'Delete the document?', changed: 'Changed', account: 'Account', notes: 'Internal notes', noMatch: 'No entry matches these filters.' },
  { cookie: 'el', deleteConfirm: 'Να διαγραφεί το έγγραφο;', changed: 'Αλλαγή', account: 'Επαφή', notes: 'Εσωτερικές σημειώσεις', noMatch: 'Καμία εγγραφή δεν ταιριάζει με αυτά τα φίλτρα.' },
] as const;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const NOTES = 'Παράδοση κλειδιών — Key handover\n';
const stamp = () => Date.now().toString(36).replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!);

for (const L of LANGUAGES) {
  test.describe(`office (${L.cookie})`, () => {
    test('a document with two files, opened from the list, at desk and phone width', async ({ context, request, baseURL }) => {
      test.setTimeout(150_000);
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const name = `${L.cookie === 'el' ? 'Ιδιωτικό συμφωνητικό μίσθωσης' : 'Lease agreement'} ${stamp()}`;

      // Add: name, description, two files in one Save.
      await page.goto('/DocumentList');
      await page.getByTestId('documents-add').click();
      await expect(page).toHaveURL(/\/Document\/Add$/);
      // Saved without a name: said at the field, and gone once the name is typed.
      await page.getByTestId('document-save').click();
      const nameMissing = page.getByText(L.cookie === 'el' ? 'Συμπληρώστε το όνομα του εγγράφου.' : "Enter the document's name.", { exact: true });
      await expect(nameMissing).toBeVisible();
      await page.getByTestId('document-name').fill(name);
      await expect(nameMissing).toHaveCount(0);
      await page.getByTestId('document-description-input').fill('Standard residential lease · Τυποποιημένο μισθωτήριο κατοικίας');
      await page.getByTestId('document-file-input').setInputFiles([
        { name: 'lease.pdf', mimeType: 'application/pdf', buffer: PDF },
        { name: 'Σημειώσεις.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTES) },
      ]);
      await expect(page.getByTestId('document-new-file')).toHaveCount(2);
      await expectAccessible(page, 'document create');
      await page.getByTestId('document-save').click();
      await expect(page).toHaveURL(/\/Document\/\d+$/);
      const docId = Number(/\/Document\/(\d+)/.exec(page.url())![1]);
      await expect(page.getByTestId('document-page')).toHaveAttribute('data-mode', 'view');
      await expect(page.getByTestId('document-files').getByTestId('file-link')).toHaveText(['lease.pdf', 'Σημειώσεις.txt']);
      await expectAccessible(page, 'document view');

      // The list: the name opens the first file (a PDF) in a new tab; the text file downloads from the form.
      await page.goto('/DocumentList');
      await page.getByTestId('documents-search').fill(name);
      const row = page.getByTestId('documents-table-row').filter({ hasText: name });
      await expect(row).toHaveCount(1);
      await expectAccessible(page, 'document list');
      const [popup] = await Promise.all([page.waitForEvent('popup'), row.getByTestId('document-link').click()]);
      // At its own address, its name the last part (the PDF viewer's tab and Save take it), opened by the session's file cookie.
      await expect(popup).toHaveURL(/\/api\/files\/[^/]+\/lease\.pdf$/);
      await expect.poll(() => popup.evaluate(() => document.contentType)).toBe('application/pdf');
      await popup.close();
      await row.getByTestId('document-edit-link').click();
      await expect(page.getByTestId('document-page')).toHaveAttribute('data-mode', 'edit');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('document-files').getByTestId('file-link').filter({ hasText: 'Σημειώσεις' }).click()]);
      expect(download.suggestedFilename()).toBe('Σημειώσεις.txt');
      expect(fs.readFileSync((await download.path())!, 'utf8')).toBe(NOTES);
      // Delete asks the spec's question; cancelling keeps it.
      await page.getByTestId('document-delete').click();
      await expect(page.getByRole('dialog')).toContainText(L.deleteConfirm);
      await page.getByRole('dialog').getByRole('button', { name: L.cookie === 'el' ? 'Ακύρωση' : 'Cancel' }).click();
      expect((await request.get(`/api/Documents/edit/${docId}`, { headers: auth(token) })).status()).toBe(200);
      // Saved from the list's pencil, it goes back to being read (it stayed in edit).
      await page.getByTestId('document-description-input').fill('Updated from the list');
      await page.getByTestId('document-save').click();
      await expect(page).toHaveURL(new RegExp(`/Document/${docId}$`));
      await expect(page.getByTestId('document-page')).toHaveAttribute('data-mode', 'view');
      await expect(page.getByTestId('document-edit')).toBeVisible();

      // At phone width the library is usable: the add button and the names in view, nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/DocumentList');
      await expect(page.getByTestId('documents-add')).toBeVisible();
      await expect(page.getByTestId('documents-table')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    });

    test('an account edit in the action log; the settings page and its texts workbook', async ({ context, request, baseURL }) => {
      test.setTimeout(150_000);
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);

      // An account edited through the API is in the action log, with what changed.
      const add = await request.post('/api/account/add', { data: { firstName: 'Ελένη', lastName: `Log${stamp()}`, isClient: true }, headers: auth(token) });
      expect(add.ok(), await add.text()).toBeTruthy();
      const accountId = ((await add.json()) as { id: number }).id;
      const edit = (await (await request.get(`/api/account/edit/${accountId}`, { headers: auth(token) })).json()) as { dto: Record<string, unknown> };
      const upd = await request.post('/api/account/update', { data: { ...edit.dto, notes: 'Calls after 18:00 · Τηλέφωνα μετά τις 18:00' }, headers: auth(token) });
      expect(upd.ok(), await upd.text()).toBeTruthy();
      await page.goto('/ActionLog');
      await page.getByTestId('action-log-filter-entity').click();
      await page.getByRole('option', { name: L.account, exact: true }).click();
      // A number past any record is said at the field, and not kept as the filter.
      await page.getByTestId('action-log-filter-id').fill('99999999999');
      await expect(page.getByTestId('action-log-filter').getByText('2\u00a0147\u00a0483\u00a0647', { exact: false })).toBeVisible();
      await expect(page.getByTestId('action-log-table-row').first()).toBeVisible();
      await page.getByTestId('action-log-filter-id').fill(String(accountId));
      await expect(page.getByTestId('action-log-filter').getByText('2\u00a0147\u00a0483\u00a0647', { exact: false })).toHaveCount(0);
      const logRow = page.getByTestId('action-log-table-row').filter({ hasText: L.changed });
      await expect(logRow).toHaveCount(1);
      // The change reads as the account form words it: the field's label, not its stored name.
      const notesRow = logRow.getByTestId('action-log-data').getByRole('row').filter({ hasText: 'Calls after 18:00' });
      await expect(notesRow.getByRole('cell').first()).toHaveText(L.notes);
      await expect(page.getByTestId('action-log-table-row')).toHaveCount(2);
      // By whom, typed: someone else's name finds none; a part of the e-mail of who made them, in
      // other capitals, finds both again.
      const byText = page.getByTestId('action-log-filter-by-text');
      await byText.fill('nobody-signed-in-as-this');
      await expect(page.getByTestId('action-log-table-empty')).toContainText(L.noMatch);
      await byText.fill('ADMIN@exam');
      await expect(page.getByTestId('action-log-table-row')).toHaveCount(2);
      await expectAccessible(page, 'action log');
      await logRow.getByTestId('action-log-over').click();
      await expect(page).toHaveURL(new RegExp(`/Accounts/View/${accountId}$`));

      // Settings: the texts download as a workbook.
      await page.goto('/Settings');
      await expect(page.getByTestId('settings-action-log')).toBeVisible();
      const [texts] = await Promise.all([page.waitForEvent('download'), page.getByTestId('settings-texts-export').click()]);
      expect(texts.suggestedFilename()).toBe('Localization.xlsx');
      await expectAccessible(page, 'settings');

      if (L.cookie === 'el') {
        // The round trip: one Greek text changed in the exported workbook shows at once after the import.
        const { default: ExcelJS } = await import('exceljs');
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.readFile((await texts.path())!);
        const title = `Λίστες παραληπτών ${stamp()}`;
        wb.worksheets[0]!.eachRow((r, n) => {
          if (n > 1 && r.getCell(1).value === 'settings.ui.mailing.title') r.getCell(3).value = title;
        });
        await page.getByTestId('settings-texts-file').setInputFiles({ name: 'Localization.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: Buffer.from(await wb.xlsx.writeBuffer()) });
        // Greek plural forms by count: "Άλλαξε 1 κείμενο", not "Άλλαξαν 1 κείμενα".
        await expect(page.getByTestId('settings-texts-result')).toHaveText(/^Άλλαξε 1 κείμενο\. Διαβάστηκαν \d+ γραμμές\.$/);
        await expect(page.getByTestId('settings-mailing').getByRole('heading')).toHaveText(title);
      }

    });
  });
}

/** The texts as shipped (the e2e server seeds them from these files). */
const officeTexts = (language: string): Record<string, string> => {
  const dir = path.resolve(import.meta.dirname, '../../apps/server/src/db/seed/locales');
  const culture = language === 'en-UK' ? 'en' : language;
  return Object.assign({}, ...fs.readdirSync(dir).filter((f) => f.endsWith(`.${culture}.json`)).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))));
};

for (const language of ['en-UK', 'el'] as const) {
  test(`recent changes say in the reader's language what the system wrote: a deal moved, an expense (${language})`, async ({ browser, request, baseURL }) => {
    const texts = officeTexts(language);
    const admin = (await (await request.post('/api/authenticate/login', { data: { username: ADMIN.email, password: ADMIN.password } })).json()) as { token: string };
    // An employee of their own, so that their recent changes are only these.
    const email = `recent-${stamp()}-${language}@example.com`;
    const added = await request.post('/api/account/add', { data: { lastName: 'Recent', firstName: 'Nikos', isEmploye: true, role: 'admin', email }, headers: auth(admin.token) });
    expect(added.ok(), await added.text()).toBeTruthy();
    const pw = await request.post('/api/authenticate/setPassword', { headers: auth(admin.token), data: { email, password: 'staff-pass-12' } });
    expect(pw.ok(), await pw.text()).toBeTruthy();
    const session = (await (await request.post('/api/authenticate/login', { data: { username: email, password: 'staff-pass-12' } })).json()) as { token: string };
    const token = session.token;
    // A deal moved on the board ("Moved"), and an expense recorded ("expense 125.5").
    const owner = (await (await request.post('/api/account/add', { data: { lastName: `Ledger${stamp()}`, firstName: 'Maria', isOwner: true, hasTransactions: true }, headers: auth(token) })).json()) as { id: number };
    const deal = (await (await request.post('/api/Deal/update', { data: { dealType: 2, dealStage: 1, askingPrice: 1000, accounts: [{ accountId: owner.id, relation: 1 }] }, headers: auth(token) })).json()) as { id: number; version: number };
    const moved = await request.post('/api/Deal/move', { data: { id: deal.id, version: deal.version, dealStage: 2, deposit: 100, dateOfDeposit: '2026-11-20' }, headers: auth(token) });
    expect(moved.ok(), await moved.text()).toBeTruthy();
    const expense = await request.post('/api/transactions/addExpense', {
      multipart: { accountId: String(owner.id), amount: '125.50', transactionDate: '2026-11-20T09:30:00', paymentMethod: '1', categoryId: '22', status: '0' },
      headers: auth(token),
    });
    expect(expense.ok(), await expense.text()).toBeTruthy();

    await browser.newContext().then(async (ctx) => {
      await ctx.addCookies([{ name: 'language', value: language, url: baseURL! }]);
      await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
      const page = await ctx.newPage();
      await page.goto('/CRM');
      // Greeted by the first name on the employee's account, never by the e-mail (Greek greets without
      // a name: addressing one needs its vocative).
      await expect(page.getByTestId('home-welcome')).toHaveText(language === 'el' ? 'Καλώς ορίσατε' : 'Welcome, Nikos');
      const recent = page.getByTestId('home-recent');
      const movedRow = recent.locator('tr').filter({ hasText: `${texts['actionLog.entity.Deal']} #${deal.id}` }).filter({ hasText: texts['actionLog.message.Moved']! });
      await expect(movedRow).toHaveCount(1);
      await expect(movedRow).toContainText(texts['actionLog.action.Update']!);
      // The money as the app writes it (space thousands, comma decimals, the symbol after).
      const money = '125,50 €';
      await expect(recent).toContainText(texts['actionLog.message.expense']!.replace('{{amount}}', money));
      await expect(recent).toContainText(texts['actionLog.entity.Transaction']!);
      await expect(recent).not.toContainText('expense 125');
      await ctx.close();
    });
  });
}

test("the action log names a deal's parties by name, each a link to the account; one deleted since by its number (en-UK)", async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'en-UK');
  const mark = stamp();
  const account = async (fields: Record<string, unknown>) => {
    const res = await request.post('/api/account/add', { data: fields, headers: auth(token) });
    expect(res.ok(), await res.text()).toBeTruthy();
    return ((await res.json()) as { id: number }).id;
  };
  const seller = await account({ firstName: 'Giorgos', lastName: `Seller${mark}`, isOwner: true });
  const buyer = await account({ firstName: 'Maria', lastName: `Buyer${mark}`, isClient: true });
  const gone = await account({ firstName: 'Nikos', lastName: `Gone${mark}`, isClient: true });
  const made = await request.post('/api/Deal/update', {
    data: { dealType: 2, dealStage: 1, accounts: [{ accountId: seller, relation: 1 }, { accountId: buyer, relation: 2 }, { accountId: gone, relation: 2 }] },
    headers: auth(token),
  });
  expect(made.ok(), await made.text()).toBeTruthy();
  const deal = ((await made.json()) as { id: number }).id;
  expect((await request.delete(`/api/account/${gone}`, { headers: auth(token) })).ok()).toBeTruthy();

  await page.goto('/ActionLog');
  await page.getByTestId('action-log-filter-id').fill(String(deal));
  const row = page.getByTestId('action-log-table-row').filter({ has: page.locator(`a[href="/Deals/${deal}"]`) });
  await expect(row).toHaveCount(1);
  const parties = row.getByTestId('action-log-party');
  await expect(parties).toHaveText([`Seller${mark} Giorgos`, `Buyer${mark} Maria`]);
  await expect(parties.first()).toHaveAttribute('href', `/Accounts/View/${seller}`);
  await expect(row.getByTestId('action-log-data')).toContainText(`#${gone}`);
  await expect(row.getByTestId('action-log-data')).not.toContainText(`#${seller}`);
  await parties.nth(1).click();
  await expect(page).toHaveURL(new RegExp(`/Accounts/View/${buyer}$`));
});

test("the action log names the property and lead a deal was made for, and a lead's client, each a link to it (en-UK)", async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'en-UK');
  const mark = stamp();
  const post = async (url: string, data: Record<string, unknown>) => {
    const res = await request.post(url, { data, headers: auth(token) });
    expect(res.ok(), await res.text()).toBeTruthy();
    return (await res.json()) as { id: number; version: number };
  };
  const client = (await post('/api/account/add', { firstName: 'Sofia', lastName: `Client${mark}`, isClient: true })).id;
  const flat = await createObject(request, token, { subTypeObjectTypeId: 1, objectSubTypeId: 1, title: `Flat in Kalamaria ${mark}`, forSale: true, salePrice: 180000 });
  const lead = (await post('/api/lead/add', { accountId: client })).id;
  await post('/api/lead/update', { id: lead, version: 1, forPurchase: true, purchaseBudgetRangeMax: 250000 });
  const deal = (await post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat.id, demandId: lead })).id;

  await page.goto('/ActionLog');
  await page.getByTestId('action-log-filter-id').fill(String(deal));
  const row = page.getByTestId('action-log-table-row').filter({ has: page.locator(`a[href="/Deals/${deal}"]`) });
  await expect(row).toHaveCount(1);
  const property = row.getByTestId('action-log-ref').filter({ hasText: `#${flat.referenceNumber} Flat in Kalamaria ${mark}` });
  await expect(property).toHaveAttribute('href', `/Objects/View/${flat.id}`);
  await expect(row.getByTestId('action-log-ref').filter({ hasText: `Client${mark} Sofia — Purchase` })).toHaveAttribute('href', `/Leads/View/${lead}`);
  await expect(row.getByTestId('action-log-data')).not.toContainText(`#${flat.id} `);

  // The lead's creation names its client.
  await page.getByTestId('action-log-filter-id').fill(String(lead));
  const made = page.getByTestId('action-log-table-row').filter({ has: page.locator(`a[href="/Leads/View/${lead}"]`) }).filter({ has: page.getByTestId('action-log-ref') }).filter({ hasNotText: `Deal #${deal}` });
  await expect(made.getByTestId('action-log-ref')).toHaveText([`Client${mark} Sofia`]);
  await expect(made.getByTestId('action-log-ref')).toHaveAttribute('href', `/Accounts/View/${client}`);
  // The deal moved the lead on: that entry names the deal, a link to it.
  const movedOn = page.getByTestId('action-log-table-row').filter({ has: page.getByTestId('action-log-ref').filter({ hasText: `Deal #${deal}` }) });
  await expect(movedOn).toHaveCount(1);
  await expect(movedOn.getByTestId('action-log-data')).toContainText('Negotiating');

  await page.getByTestId('action-log-filter-id').fill(String(deal));
  await property.click();
  await expect(page).toHaveURL(new RegExp(`/Objects/View/${flat.id}$`));
  await page.goBack();
  await page.getByTestId('action-log-filter-id').fill(String(lead));
  await movedOn.getByTestId('action-log-ref').filter({ hasText: `Deal #${deal}` }).click();
  await expect(page).toHaveURL(new RegExp(`/Deals/${deal}$`));
});
