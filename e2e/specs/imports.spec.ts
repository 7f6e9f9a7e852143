import { expect, test, type Page } from '@playwright/test';
import { agencyDay, agencyToday, apiToken, auth, createObject, expectAccessible, signedIn, openAsAdmin } from '../fixtures.ts';

/** Preview pressed: the preview card, with its `rows`, its counts (by name) and the first row's text checked. */
async function previewOf(page: Page, rows: number, counts: Record<string, string>, firstRow: string) {
  await page.getByTestId('import-preview').click();
  const preview = page.getByTestId('import-preview-card');
  await expect(preview.getByTestId('import-row')).toHaveCount(rows);
  for (const [name, text] of Object.entries(counts)) await expect(preview.getByTestId(`import-count-${name}`)).toHaveText(text);
  await expect(preview.getByTestId('import-row').first()).toContainText(firstRow);
  return preview;
}


/**
 * Import (decision 052): an office admin brings properties with their owners in from a CSV, sees
 * the columns mapped from the Greek headers, the preview, imports, and opens one of the properties.
 */
const L = {
  'en-UK': { done: 'Import finished', objects: 'New properties: 2', owners: 'New owners: 1', place: 'Pefkochori', headerRow: 'row 1 of the sheet' },
  el: { done: 'Η εισαγωγή ολοκληρώθηκε', objects: 'Νέα ακίνητα: 2', owners: 'Νέοι ιδιοκτήτες: 1', place: 'Πευκοχώρι', headerRow: 'γραμμή 1 του φύλλου' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`properties with their owner from a CSV: mapped, previewed, imported once, one of them opened (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    const l = L[language];
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const owner = `Εισαγωγή${tag}`;
    const phone = `69${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const csv = [
      'Τίτλος;Είδος;Περιοχή;Τιμή;Εμβαδόν;Υπνοδωμάτια;Επώνυμο ιδιοκτήτη;Όνομα ιδιοκτήτη;Κινητό ιδιοκτήτη',
      `Διαμέρισμα ${tag};Διαμέρισμα;Πευκοχώρι;185.000;72,5;2;${owner};Ελένη;${phone}`,
      `Στούντιο ${tag};Studio;Pefkochori;95.000;31;1;${owner};Ελένη;${phone}`,
    ].join('\r\n');

    await page.goto('/Settings');
    await page.getByTestId('settings-import').click();
    await expect(page).toHaveURL(/\/Import$/);
    await expectAccessible(page, `import (${language})`);

    await page.getByTestId('import-kind-objects').check();
    await page.locator('input[type="file"]').setInputFiles({ name: 'properties.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByTestId('import-read').click();
    const mapping = page.getByTestId('import-mapping');
    await expect(mapping).toBeVisible();
    // The columns are mapped from their Greek headers.
    await expect(page.getByTestId('import-map-3')).toHaveValue(language === 'el' ? 'Τιμή πώλησης' : 'Sale price');
    await expectAccessible(page, `import mapping (${language})`);

    const preview = await previewOf(page, 2, { objects: l.objects, owners: l.owners }, l.place);
    await expect(preview.getByTestId('import-cell-error')).toHaveCount(0);
    // The headers were the sheet's first row, and the preview says so.
    await expect(preview.getByTestId('import-preview-header-row')).toContainText(l.headerRow);
    await expectAccessible(page, `import preview (${language})`);

    await page.getByTestId('import-run').click();
    await expect(page.getByTestId('import-done')).toContainText(l.done);
    await expect(page.getByTestId('import-done')).toContainText(l.objects);
    await expectAccessible(page, `import done (${language})`);

    await page.getByTestId('import-open-objects').click();
    await expect(page).toHaveURL(/\/Objects$/);
    const row = page.getByTestId('objects-table-row').filter({ hasText: owner }).first();
    await row.getByTestId('object-link').click();
    await expect(page.getByTestId('object-view')).toBeVisible();
    await expect(page.getByTestId('object-view')).toContainText(owner);
    await ctx.close();
  });
}

/** Mandates (decision 094): the rows' texts in each language. */
const M = {
  'en-UK': { mandates: 'New mandates: 1', errors: 'Rows with errors: 1', law: 'An exclusive mandate lasts at most 8 months (law 4072/2012)', kind: 'Exclusive', inForce: 'Exclusive mandate until' },
  el: { mandates: 'Νέες εντολές ανάθεσης: 1', errors: 'Γραμμές με σφάλματα: 1', law: 'Η αποκλειστική εντολή διαρκεί το πολύ 8 μήνες (ν. 4072/2012)', kind: 'Αποκλειστική', inForce: 'Αποκλειστική εντολή έως' },
} as const;
const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

for (const language of ['en-UK', 'el'] as const) {
  test(`mandates from a CSV: the property by its number, the owner by e-mail, the law's limit per row, the mandate in force on the property (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const email = `mandate.${tag}@example.gr`;
    const owner = await request.post('/api/account/add', { data: { lastName: `Εντολέας${tag}`, firstName: 'Ελένη', email, isOwner: true }, headers: auth(token) });
    expect(owner.ok(), await owner.text()).toBeTruthy();
    const flat = await createObject(request, token, { title: `Mandate flat ${tag}`, forSale: true, salePrice: 185000 });
    const csv = [
      'Κωδικός ακινήτου;Είδος εντολής;Έναρξη;Λήξη;Ζητούμενο τίμημα;Email εντολέα;Εξαιρέσεις',
      `${flat.referenceNumber};Αποκλειστική;${dmy(agencyToday())};${dmy(agencyDay(120))};185.000;${email};Νίκος Γεωργίου`,
      `${flat.referenceNumber};Αποκλειστική;${dmy(agencyToday())};${dmy(agencyDay(300))};185.000;${email};`,
    ].join('\r\n');
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    const m = M[language];
    await page.goto('/Import');
    await page.getByTestId('import-kind-mandates').check();
    await page.locator('input[type="file"]').setInputFiles({ name: 'mandates.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByTestId('import-read').click();
    await expect(page.getByTestId('import-mandates-hint')).toBeVisible();
    const preview = await previewOf(page, 2, { mandates: m.mandates, withErrors: m.errors }, m.kind);
    // The second mandate runs past 8 months: the law's reason under its end date, as the form says it.
    await expect(preview.getByTestId('import-row').nth(1).getByTestId('import-cell-error')).toContainText(m.law);
    await expect(page.getByTestId('import-run')).toBeDisabled();
    await expectAccessible(page, `import mandates preview (${language})`);

    await page.getByTestId('import-skip-errors').check();
    await page.getByTestId('import-run').click();
    await expect(page.getByTestId('import-done')).toContainText(m.mandates);
    await page.goto(`/Objects/View/${flat.id}`);
    await expect(page.getByTestId('mandate-in-force-badge')).toContainText(m.inForce);
    await ctx.close();
  });
}

test('the import screen on a phone: the steps one under the other, the preview scrolls sideways (el)', async ({ browser, request, baseURL }) => {
  const { ctx, page } = await openAsAdmin(browser, request, baseURL!, 'el', '/Import', { viewport: { width: 412, height: 915 }, isMobile: true });
  await page.locator('input[type="file"]').setInputFiles({
    name: 'owners.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Επώνυμο;Όνομα;Κινητό;Email\r\nΠαπαδάκη;Μαρία;abc;maria@\r\n', 'utf8'),
  });
  await page.getByTestId('import-read').click();
  await page.getByTestId('import-preview').click();
  // Errors under their cells; the import waits until they are fixed or skipped.
  await expect(page.getByTestId('import-cell-error')).toHaveCount(2);
  await expect(page.getByTestId('import-run')).toBeDisabled();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(412);
  await expectAccessible(page, 'import on a phone (el)');
  await ctx.close();
});

/** Leads: the texts of each language. */
const LD = {
  'en-UK': { leads: 'New leads: 2', clients: 'New clients: 1', linked: 'Linked to existing accounts: 1', stage: 'Contacted', budget: '250' },
  el: { leads: 'Νέα ενδιαφέροντα: 2', clients: 'Νέοι πελάτες: 1', linked: 'Συνδέθηκαν με υπάρχουσες επαφές: 1', stage: 'Σε επικοινωνία', budget: '250' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`leads from a CSV: an existing client found by phone, a new one made, the lead's fields by name, the leads in the list (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const phone = `69${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const known = await request.post('/api/account/add', { data: { lastName: `Γνωστός${tag}`, firstName: 'Νίκος', phone, isOwner: true }, headers: auth(token) });
    expect(known.ok(), await known.text()).toBeTruthy();
    const csv = [
      'Ονοματεπώνυμο;Κινητό;Αγορά;Προϋπολογισμός αγοράς έως;Επιθυμητή περιοχή;Στάδιο;Περιγραφή',
      `Γνωστός${tag} Νίκος;${phone};Ναι;250.000;Πευκοχώρι;Σε επικοινωνία;Με θέα θάλασσα`,
      `Νέα${tag} Μαρία;2310${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')};Ναι;180.000;Kalamaria;;`,
    ].join('\r\n');
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    const l = LD[language];
    await page.goto('/Import');
    await page.getByTestId('import-kind-leads').check();
    await page.locator('input[type="file"]').setInputFiles({ name: 'leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByTestId('import-read').click();
    await expect(page.getByTestId('import-leads-hint')).toBeVisible();
    await expectAccessible(page, `import leads mapping (${language})`);
    const preview = await previewOf(page, 2, { leads: l.leads, clients: l.clients, linked: l.linked }, l.stage);
    await expect(preview.getByTestId('import-cell-error')).toHaveCount(0);
    await expectAccessible(page, `import leads preview (${language})`);

    await page.getByTestId('import-run').click();
    await expect(page.getByTestId('import-done')).toContainText(l.leads);
    await page.getByTestId('import-open-leads').click();
    await expect(page).toHaveURL(/\/Leads$/);
    await expect(page.getByTestId('leads-table-row').filter({ hasText: `Γνωστός${tag}` })).toContainText(l.budget);
    await expect(page.getByTestId('leads-table-row').filter({ hasText: `Νέα${tag}` })).toHaveCount(1);
    await ctx.close();
  });
}

/** Deals: the texts of each language. */
const DL = {
  'en-UK': { deals: 'New deals: 2', clients: 'New clients: 1', linked: 'Linked to existing accounts: 1', type: 'Sale', stage: 'Contract signing' },
  el: { deals: 'Νέες συμφωνίες: 2', clients: 'Νέοι πελάτες: 1', linked: 'Συνδέθηκαν με υπάρχουσες επαφές: 1', type: 'Πώληση', stage: 'Υπογραφή συμβολαίου' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`deals from a CSV: the property by its reference number, a client found by phone and one made, type and stage by name, the deals in the list (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const phone = `69${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const known = await request.post('/api/account/add', { data: { lastName: `Αγοραστής${tag}`, firstName: 'Νίκος', phone }, headers: auth(token) });
    expect(known.ok(), await known.text()).toBeTruthy();
    const [sold, let_] = [await createObject(request, token, { title: `Διαμέρισμα ${tag}` }), await createObject(request, token, { title: `Στούντιο ${tag}` })];
    const csv = [
      'Κωδικός ακινήτου;Ονοματεπώνυμο;Κινητό;Είδος συμφωνίας;Στάδιο;Τελική τιμή;Ημερομηνία υπογραφής συμβολαίου',
      `${sold.referenceNumber};Αγοραστής${tag} Νίκος;${phone};Πώληση;Υπογραφή συμβολαίου;185.000;20/03/2026`,
      `${let_.referenceNumber};Μισθωτής${tag} Γιάννης;2310${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')};Μίσθωση;Διαπραγμάτευση;750;`,
    ].join('\r\n');
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    const l = DL[language];
    await page.goto('/Import');
    await page.getByTestId('import-kind-deals').check();
    await page.locator('input[type="file"]').setInputFiles({ name: 'deals.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByTestId('import-read').click();
    await expect(page.getByTestId('import-deals-hint')).toBeVisible();
    await expectAccessible(page, `import deals mapping (${language})`);
    const preview = await previewOf(page, 2, { deals: l.deals, clients: l.clients, linked: l.linked }, l.stage);
    await expect(preview.getByTestId('import-cell-error')).toHaveCount(0);
    await expect(preview.getByTestId('import-row').first()).toContainText(`Διαμέρισμα ${tag}`);
    await expectAccessible(page, `import deals preview (${language})`);

    await page.getByTestId('import-run').click();
    await expect(page.getByTestId('import-done')).toContainText(l.deals);
    await expectAccessible(page, `import deals done (${language})`);
    await page.getByTestId('import-open-deals').click();
    await expect(page).toHaveURL(/\/Deals$/);
    const row = page.getByTestId('deals-table-row').filter({ hasText: `Αγοραστής${tag}` });
    await expect(row).toContainText(l.type);
    await expect(row).toContainText(l.stage);
    await expect(page.getByTestId('deals-table-row').filter({ hasText: `Μισθωτής${tag}` })).toHaveCount(1);
    await ctx.close();
  });
}
