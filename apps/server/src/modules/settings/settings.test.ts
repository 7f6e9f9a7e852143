import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { createTestApp, json } from '../../../test/harness.ts';
import { zip } from '../../../test/zip.ts';
import { zipUnpackedSize } from '../../lib/excel.ts';
import { accounts, actionLog, localization, objects, users } from '../../db/schema/index.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
const agent = await t.user({ roles: ['employee'] });

async function readWorkbook(body: Buffer) {
  const wb = await workbookOf(body);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v)))));
  return { wb, ws, rows };
}
const importTexts = async (wb: ExcelJS.Workbook, lang = 'en') =>
  admin.upload('/api/LocalizationExport', [{ field: 'file', name: 'Localization.xlsx', data: Buffer.from(await wb.xlsx.writeBuffer()) }], { lang });
const text = async (key: string, culture: string) => (await db.select().from(localization).where(and(eq(localization.key, key), eq(localization.culture, culture))))[0]?.text;

describe('settings are for office administrators only', () => {
  it('refuses employees and branch admins on every settings call', async () => {
    for (const who of [agent, branchAdmin]) {
      expect((await who.get('/api/LocalizationExport')).statusCode).toBe(403);
      expect((await who.get('/api/DataExport?language=russian&except=false')).statusCode).toBe(403);
      expect((await who.post('/api/actionLog', {})).statusCode).toBe(403);
      const up = await who.upload('/api/LocalizationExport', [{ field: 'file', name: 'x.xlsx', data: Buffer.from('x') }]);
      expect(up.statusCode).toBe(403);
    }
    expect((await app.inject({ method: 'POST', url: '/api/actionLog', payload: {} })).statusCode).toBe(401);
  });
});

describe('localization export and import', () => {
  it('exports every key with its English, Greek and Russian text', async () => {
    const res = await admin.get('/api/LocalizationExport');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('Localization.xlsx');
    const { rows } = await readWorkbook(res.rawPayload);
    expect(rows[0]).toEqual(['key', 'en', 'el', 'ru']);
    const save = rows.find((r) => r[0] === 'common.save');
    expect(save).toEqual(['common.save', 'Save', await text('common.save', 'el'), await text('common.save', 'ru')]);
  });

  it('round trip: a changed Greek text is stored, served with a new ETag and used by the server at once', async () => {
    const before = await admin.get('/api/Localization?culture=el');
    const etag = before.headers.etag as string;
    const { wb, ws } = await readWorkbook((await admin.get('/api/LocalizationExport')).rawPayload);
    ws.eachRow((row, n) => {
      if (n > 1 && row.getCell(1).value === 'common.save') row.getCell(3).value = 'Καταχώριση';
    });
    const res = await importTexts(wb);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 1 });
    expect(await text('common.save', 'el')).toBe('Καταχώριση');
    const [row] = await db.select().from(localization).where(and(eq(localization.key, 'common.save'), eq(localization.culture, 'el')));
    expect(row!.custom).toBe(true);
    const after = await admin.get('/api/Localization?culture=el');
    expect(after.headers.etag).not.toBe(etag);
    expect(after.json().find((e: { key: string }) => e.key === 'common.save').text).toBe('Καταχώριση');
    const notModified = await app.inject({ method: 'GET', url: '/api/Localization?culture=el', headers: { 'if-none-match': etag } });
    expect(notModified.statusCode).toBe(200);
    expect(app.translator.t('el', 'common.save')).toBe('Καταχώριση');
    // The texts' download is in the log too (a row of its own); the import is the one that changed them.
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Localization'), eq(actionLog.action, 'Import')));
    expect(log).toMatchObject({ action: 'Import', actionBy: admin.id });
    // The same workbook again changes nothing.
    expect((await importTexts(wb)).json()).toMatchObject({ changed: 0 });
  });

  it('a text the office imported for a key is not overshadowed by plural forms it did not write', async () => {
    // An office's workbook from before `deals.ui.more` had plural forms: only the base key changed.
    const { wb, ws } = await readWorkbook((await admin.get('/api/LocalizationExport')).rawPayload);
    ws.eachRow((row, n) => {
      if (n > 1 && row.getCell(1).value === 'deals.ui.more') row.getCell(4).value = 'И ещё {{count}} ниже';
      if (n > 1 && row.getCell(1).value === 'reservations.ui.sums_one') row.getCell(4).value = 'Итого по {{count}} брони';
    });
    expect((await importTexts(wb)).json()).toMatchObject({ changed: 2 });
    const served = async (culture: string) => new Map<string, string>((await admin.get(`/api/Localization?culture=${culture}`)).json().map((e: { key: string; text: string }) => [e.key, e.text]));
    const ru = await served('ru');
    for (const form of ['one', 'few', 'many', 'other']) expect(ru.get(`deals.ui.more_${form}`)).toBe('И ещё {{count}} ниже');
    // A plural form the office wrote itself stays its own; the others keep the shipped text.
    expect(ru.get('reservations.ui.sums_one')).toBe('Итого по {{count}} брони');
    expect(ru.get('reservations.ui.sums_few')).toBe(await text('reservations.ui.sums_few', 'ru'));
    // Other languages keep their shipped plural forms.
    const el = await served('el');
    expect(el.get('deals.ui.more_one')).toBe(await text('deals.ui.more_one', 'el'));
    expect(el.get('deals.ui.more_one')).not.toBe('И ещё {{count}} ниже');
    // The server's own texts (mails, errors) read the same.
    expect(app.translator.t('ru', 'deals.ui.more', { count: 3 })).toBe('И ещё 3 ниже');
  });

  it('refuses a workbook that would unpack to far more than texts (a zip bomb) before unpacking it', async () => {
    // 60 MB of one letter, deflated to a few dozen kilobytes, as one entry of a zip.
    const bomb = zip([{ name: 'xl/sharedStrings.xml', data: Buffer.alloc(60 * 1024 * 1024, 0x41), deflate: true }]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const res = await admin.upload('/api/LocalizationExport', [{ field: 'file', name: 'Localization.xlsx', data: bomb }], { lang: 'ru' });
    expect(res.statusCode).toBe(413);
    expect(res.json().title).toBe('В распакованном виде книга больше, чем может быть книга с текстами (не более 10 МБ). Выгрузите тексты заново и измените в ней только тексты.');
    // A bomb whose zip lies about itself: its end record counts one entry of two (the library reads
    // both), or its directory says the entry unpacks to a thousand bytes (checked only once unpacked).
    const two = zip([{ name: '[Content_Types].xml', data: '<Types/>' }, { name: 'xl/sharedStrings.xml', data: Buffer.alloc(60 * 1024 * 1024, 0x41), deflate: true }]);
    two.writeUInt16LE(1, two.length - 22 + 8);
    two.writeUInt16LE(1, two.length - 22 + 10);
    const small = Buffer.from(bomb);
    small.writeUInt32LE(1000, small.length - 22 - 46 - 'xl/sharedStrings.xml'.length + 24);
    for (const lying of [two, small]) {
      const answer = await admin.upload('/api/LocalizationExport', [{ field: 'file', name: 'Localization.xlsx', data: lying }]);
      expect(answer.statusCode).toBe(413);
      expect(answer.json().code).toBe('settings.import.unpackedTooLarge');
    }
    // A zip without its directory is no workbook.
    const broken = await admin.upload('/api/LocalizationExport', [{ field: 'file', name: 'Localization.xlsx', data: bomb.subarray(0, bomb.length - 22) }]);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().code).toBe('settings.import.notXlsx');
  });

  it('refuses a workbook of a few megabytes that unpacks to ten times what the texts are, before the spreadsheet library holds it', async () => {
    // A real workbook: the right header, and 12 MB of numbers in columns the import does not read
    // (the spreadsheet library would hold some 200 MB of memory for it; 50 MB of them, a gigabyte).
    const col = (i: number): string => (i >= 26 ? col(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26));
    const head = ['key', 'en', 'el', 'ru'].map((v, i) => `<c r="${col(i)}1" t="inlineStr"><is><t>${v}</t></is></c>`).join('');
    const rows = [`<row r="1">${head}</row>`];
    for (let r = 2; rows.length < 520; r++) rows.push(`<row r="${r}">${Array.from({ length: 1000 }, (_, i) => `<c r="${col(i + 4)}${r}"><v>1</v></c>`).join('')}</row>`);
    const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData></worksheet>`;
    const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const book = zip([
      {
        name: '[Content_Types].xml',
        data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      },
      { name: '_rels/.rels', data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="xl/workbook.xml"/></Relationships>` },
      { name: 'xl/workbook.xml', data: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${R}"><sheets><sheet name="Localization" sheetId="1" r:id="rId1"/></sheets></workbook>` },
      { name: 'xl/_rels/workbook.xml.rels', data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>` },
      { name: 'xl/worksheets/sheet1.xml', data: sheet, deflate: true },
    ]);
    expect(sheet.length).toBeGreaterThan(12 * 1024 * 1024);
    expect(book.length).toBeLessThan(2 * 1024 * 1024);
    const res = await admin.upload('/api/LocalizationExport', [{ field: 'file', name: 'Localization.xlsx', data: book }], { lang: 'el' });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().title).toBe('Το βιβλίο εργασίας αποσυμπιέζεται σε περισσότερα από όσα χωράει ένα αρχείο κειμένων (έως 10 MB). Κάντε ξανά εξαγωγή των κειμένων και αλλάξτε μόνο τα κείμενα.');
    // The texts as they are shipped unpack to a fifth of the limit at most (about 1 MB today): room to grow.
    const shipped = (await admin.get('/api/LocalizationExport')).rawPayload;
    expect(zipUnpackedSize(shipped, 10 * 1024 * 1024)).toBeLessThan(2 * 1024 * 1024);
  }, 180_000);

  it('refuses a bad workbook row by row, in the reader\'s language, and changes nothing', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('x');
    ws.addRow(['key', 'en', 'el', 'ru']);
    ws.addRow(['common.cancel', 'Cancel it', 'Ακύρωση τώρα', '']);
    ws.addRow(['no.such.key', 'x', 'y', 'z']);
    ws.addRow(['common.cancel', 'Again', '', '']);
    ws.addRow(['common.delete', { formula: '1+1', result: 2 }, '', '']);
    ws.addRow(['', 'text without key', '', '']);
    ws.addRow(['files.uploading', 'Uploading', '', '']);
    const before = await text('common.cancel', 'el');
    const res = await importTexts(wb, 'el');
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors as Record<string, string[]>;
    expect(Object.keys(errors).sort()).toEqual(['row 3', 'row 4', 'row 5', 'row 6', 'row 7']);
    expect(errors['row 3']![0]).toContain('no.such.key');
    expect(errors['row 4']![0]).toContain('2');
    expect(errors['row 7']![0]).toContain('{{percent}}');
    // Plural forms by count (not "γραμμή(ές)"): five rows in Greek, one row in Russian and in English.
    expect(res.json().title).toBe('Το αρχείο δεν εισήχθη και δεν άλλαξε τίποτα: 5 γραμμές χρειάζονται διόρθωση.');
    const one = new ExcelJS.Workbook();
    one.addWorksheet('x').addRow(['key', 'en', 'el', 'ru']);
    one.worksheets[0]!.addRow(['no.such.key', 'x', 'y', 'z']);
    expect((await importTexts(one, 'ru')).json().title).toBe('Файл не загружен, ничего не изменено: нужно исправить 1 строку.');
    expect((await importTexts(one, 'en')).json().title).toBe('The file was not imported, nothing changed: 1 row needs correcting.');
    expect(await text('common.cancel', 'el')).toBe(before);
    expect(await text('common.cancel', 'en')).toBe('Cancel');

    const header = new ExcelJS.Workbook();
    header.addWorksheet('x').addRow(['key', 'el', 'en', 'ru']);
    expect((await importTexts(header)).statusCode).toBe(400);
    const r2 = await admin.upload('/api/LocalizationExport', [{ field: 'file', name: 'texts.xlsx', data: Buffer.from('key,en,el,ru\n') }]);
    expect(r2.statusCode).toBe(400);
    const r3 = await admin.upload('/api/LocalizationExport', [{ field: 'file', name: 'texts.xlsx', data: Buffer.from('PK\x03\x04garbage', 'latin1') }]);
    expect(r3.statusCode).toBe(400);
    const none = await admin.post('/api/LocalizationExport', { file: 'x' });
    expect(none.statusCode).toBeGreaterThanOrEqual(400);
    expect(none.statusCode).toBeLessThan(500);
  });
});

describe('e-mail list exports', () => {
  it('exports Russian-speaking and other accounts apart, without employees, formulas neutralised', async () => {
    await db.insert(accounts).values([
      { firstName: 'Ivan', lastName: 'Petrov', language: 'ru', emails: ['ivan@example.ru', '=HYPERLINK("http://evil")@x.ru'] },
      { firstName: 'Maria', lastName: 'Papadopoulou', language: 'el', emails: ['maria@example.gr'] },
      { firstName: 'John', lastName: 'Smith', emails: ['+john@example.com'] },
      { firstName: 'Olga', lastName: 'Staff', language: 'ru', isEmploye: true, emails: ['olga@agency.gr'] },
    ] as never);
    const ru = await admin.get('/api/DataExport?language=russian&except=false');
    expect(ru.statusCode).toBe(200);
    const ruRows = (await readWorkbook(ru.rawPayload)).rows.slice(1).map((r) => r[0]);
    expect(ruRows.sort()).toEqual(["'=HYPERLINK(\"http://evil\")@x.ru", 'ivan@example.ru']);
    const other = await admin.get('/api/DataExport?language=russian&except=true');
    const otherRows = (await readWorkbook(other.rawPayload)).rows.slice(1).map((r) => r[0]);
    expect(otherRows.sort()).toEqual(["'+john@example.com", 'maria@example.gr']);
    expect((await admin.get('/api/DataExport?language=greek&except=false')).statusCode).toBe(400);
    expect((await admin.get('/api/DataExport?language=russian&except=maybe')).statusCode).toBe(400);
  });

  it('a sheet name the office wrote with characters a sheet cannot have still gives a workbook', async () => {
    const { wb, ws } = await readWorkbook((await admin.get('/api/LocalizationExport')).rawPayload);
    ws.eachRow((row, n) => {
      if (n > 1 && row.getCell(1).value === 'settings.export.sheetRussian') row.getCell(2).value = 'Russian/Ukrainian: speakers?';
    });
    expect((await importTexts(wb)).json()).toMatchObject({ changed: 1 });
    const res = await admin.get('/api/DataExport?language=russian&except=false');
    expect(res.statusCode, res.body).toBe(200);
    expect((await readWorkbook(res.rawPayload)).ws.name).toBe('Russian-Ukrainian speakers');
  });
});

describe('the action log', () => {
  it('finds an edit of an account by the account, by whom, by kind and by day, newest first with the record named', async () => {
    const me = await t.user({ roles: ['admin'] });
    const [emp] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Agent', isEmploye: true }).returning({ id: accounts.id });
    const { users } = await import('../../db/schema/index.ts');
    await db.update(users).set({ accountId: emp!.id }).where(eq(users.id, me.id));
    const add = await me.post('/api/account/add', { firstName: 'Giorgos', lastName: 'Log', isClient: true });
    const accountId = add.json().id as number;
    const view = (await me.get(`/api/account/edit/${accountId}`)).json();
    const upd = await me.post('/api/account/update', { ...view.dto, notes: 'Prefers calls after 6 pm' });
    expect(upd.statusCode, upd.body).toBe(200);
    const [obj] = await db.insert(objects).values({ title: 'x' } as never).returning({ id: objects.id });

    const byAccount = await admin.post('/api/actionLog', { entity: 1, entityId: accountId });
    expect(byAccount.statusCode).toBe(200);
    expect(byAccount.json()).toMatchObject({ totalRows: 2, totalCapped: false });
    const [edit, create] = byAccount.json().items;
    expect(edit).toMatchObject({ action: 'Update', entity: 'Account', entityId: accountId, actionOver: 'Log Giorgos', actionBy: 'Agent Eleni' });
    expect(edit.data).toMatchObject({ notes: 'Prefers calls after 6 pm' });
    expect(create.action).toBe('Create');

    const byWhom = await admin.post('/api/actionLog', { actionBy: emp!.id, entity: 1 });
    expect(byWhom.json().items.map((i: { entityId: number }) => i.entityId)).toEqual([accountId, accountId]);
    const byText = await admin.post('/api/actionLog', { actionByText: 'Agent', entity: 1 });
    expect(byText.json().totalRows).toBe(2);
    const objectsOnly = await admin.post('/api/actionLog', { entity: 2, entityId: accountId });
    expect(objectsOnly.json().totalRows).toBe(0);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Athens' }).format(new Date());
    const days = await admin.post('/api/actionLog', { startDate: today, endDate: today, entity: 1, entityId: accountId });
    expect(days.json().totalRows).toBe(2);
    const past = await admin.post('/api/actionLog', { startDate: '2020-01-01', endDate: '2020-12-31' });
    expect(past.json()).toMatchObject({ totalRows: 0, items: [] });
    const page = await admin.post('/api/actionLog', {});
    expect(page.json().items.length).toBeLessThanOrEqual(20);
    expect(obj).toBeDefined();
  });

  it('pages in SQL newest first and stops counting at the cap, saying so', async () => {
    const { sql } = await import('drizzle-orm');
    await db.execute(sql`insert into action_log (date, action, entity, entity_id, message)
      select timestamptz '2021-03-01 12:00+02' + g * interval '1 minute', 'Update', 'Object', 900000 + g, 'bulk ' || g from generate_series(1, 2100) g`);
    const all = await admin.post('/api/actionLog', { entity: 2, startDate: '2021-03-01', endDate: '2021-03-31' });
    expect(all.json()).toMatchObject({ totalRows: 2000, totalCapped: true });
    const third = (await admin.post('/api/actionLog', { entity: 2, startDate: '2021-03-01', endDate: '2021-03-31', currentPage: 3 })).json();
    expect(third.items.map((i: { message: string }) => i.message)).toEqual(Array.from({ length: 20 }, (_, k) => `bulk ${2100 - 40 - k}`));
    expect(third.items[0]).toMatchObject({ entity: 'Object', entityId: 902060, actionOver: '#902060', actionBy: null });
    const one = (await admin.post('/api/actionLog', { entity: 2, entityId: 900007 })).json();
    expect(one).toMatchObject({ totalRows: 1, totalCapped: false });
    const nobody = (await admin.post('/api/actionLog', { actionByText: 'no such person here' })).json();
    expect(nobody).toMatchObject({ totalRows: 0, items: [] });
  });

  it('names a deal\'s parties by their accounts\' names, read with the page; an account deleted since stays a number', async () => {
    const [seller] = await db.insert(accounts).values({ firstName: 'Giorgos', lastName: 'Pavlidis', isOwner: true }).returning({ id: accounts.id });
    const [buyer] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Markou', isClient: true }).returning({ id: accounts.id });
    const [notary] = await db.insert(accounts).values({ firstName: 'Anna', lastName: 'Notaridou', isProfessional: true, isNotary: true }).returning({ id: accounts.id });
    const made = await admin.post('/api/Deal/update', { dealType: 2, dealStage: 1, accounts: [{ accountId: seller!.id, relation: 1 }, { accountId: buyer!.id, relation: 2 }] });
    expect(made.statusCode, made.body).toBe(200);
    const deal = made.json();
    const changed = await admin.post('/api/Deal/update', { id: deal.id, version: deal.version, accounts: [{ accountId: seller!.id, relation: 1 }, { accountId: buyer!.id, relation: 2 }, { accountId: notary!.id, relation: 4 }] });
    expect(changed.statusCode, changed.body).toBe(200);
    // The notary's account is deleted afterwards: the log still says which number it was.
    await db.delete(accounts).where(eq(accounts.id, notary!.id));
    const page = (await admin.post('/api/actionLog', { perPage: 100 })).json();
    const rows = page.items.filter((r: { entity: string; entityId: number }) => r.entity === 'Deal' && r.entityId === deal.id);
    expect(rows.map((r: { action: string }) => r.action)).toEqual(['Update', 'Create']);
    expect(rows[1].accountNames).toEqual({ [seller!.id]: 'Pavlidis Giorgos', [buyer!.id]: 'Markou Eleni' });
    expect(rows[0].accountNames).toEqual({ [seller!.id]: 'Pavlidis Giorgos', [buyer!.id]: 'Markou Eleni' });
    expect(rows[0].data.accounts).toContainEqual({ accountId: notary!.id, relation: 4 });
    // Rows naming no parties carry no names.
    const other = page.items.find((r: { entity: string }) => r.entity !== 'Deal');
    expect(other).not.toHaveProperty('accountNames');
  });

  it('names the accounts, properties and leads other entries hold by number (a lead\'s client, a deal\'s property and lead, a viewing\'s, a key\'s holder), read with the page; one deleted since stays a number', async () => {
    const [client] = await db.insert(accounts).values({ firstName: 'Sofia', lastName: 'Petridou', isClient: true }).returning({ id: accounts.id });
    const [holder] = await db.insert(accounts).values({ firstName: 'Kostas', lastName: 'Kleidas', isEmploye: true }).returning({ id: accounts.id });
    const [flat] = await db.insert(objects).values({ title: 'Flat in Kalamaria', forSale: true } as never).returning({ id: objects.id, ref: objects.referenceNumber });
    const [studio] = await db.insert(objects).values({ title: 'Studio in Toumba', forRent: true } as never).returning({ id: objects.id });
    const lead = (await json(admin.post('/api/lead/add', { accountId: client!.id }))).id as number;
    await json(admin.post('/api/lead/update', { id: lead, version: 1, forPurchase: true, purchaseBudgetRangeMax: 250000 }));
    const deal = (await json(admin.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat!.id, demandId: lead }))).id as number;
    const viewing = (await json(admin.post('/api/Viewing/update', { demandId: lead, dateOfViewing: '2026-11-26T18:30:00', results: [{ objectId: flat!.id, result: 2 }] }))).id as number;
    const key = (await json(admin.post('/api/ObjectKeys/edit', { objectId: flat!.id, accountId: holder!.id, givenAway: '2026-03-01' }))).id as number;
    // The loan's holder corrected: the key's holder changes from one account to the other.
    const [loan] = (await admin.get(`/api/ObjectKeys/edit/${key}`)).json().history as { id: number; version: number }[];
    await json(admin.post('/api/ObjectKeys/loan', { id: loan!.id, version: loan!.version, accountId: client!.id, givenAway: '2026-03-01', received: null }));
    // The studio, offered to the lead and taken off its list, is deleted afterwards: the lead's
    // entries still say which number it was.
    await json(admin.post('/api/lead/addObject', { leadId: lead, objectId: studio!.id }));
    await json(admin.post('/api/lead/removeObject', { leadId: lead, objectId: studio!.id }));
    expect((await admin.del(`/api/object/${studio!.id}`)).statusCode).toBe(200);

    const entries = async (lang = 'en') => {
      const res = await admin.post('/api/actionLog', { perPage: 100 }, { lang });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as Record<string, unknown>[];
    };
    const entry = async (entity: string, entityId: number, lang = 'en') => (await entries(lang)).find((r) => r.entity === entity && r.entityId === entityId && r.action === 'Create')!;
    const flatText = `#${String(flat!.ref).padStart(4, '0')} Flat in Kalamaria`;
    const leadCreated = await entry('Lead', lead);
    expect(leadCreated).toMatchObject({ data: { accountId: client!.id }, accountNames: { [client!.id]: 'Petridou Sofia' } });
    expect(leadCreated).not.toHaveProperty('objectNames');
    const dealCreated = await entry('Deal', deal);
    expect(dealCreated).toMatchObject({ objectNames: { [flat!.id]: flatText }, leadNames: { [lead]: 'Petridou Sofia — Purchase, ≤ 250\u00a0000\u00a0€' } });
    // In the reader's language.
    expect((await entry('Deal', deal, 'el')).leadNames).toEqual({ [lead]: 'Petridou Sofia — Αγορά, ≤ 250\u00a0000\u00a0€' });
    const viewingCreated = await entry('Viewing', viewing);
    expect(viewingCreated.objectNames).toEqual({ [flat!.id]: flatText });
    expect(viewingCreated.leadNames).toEqual({ [lead]: 'Petridou Sofia — Purchase, ≤ 250\u00a0000\u00a0€' });
    expect(await entry('ObjectKey', key)).toMatchObject({ accountNames: { [holder!.id]: 'Kleidas Kostas' }, objectNames: { [flat!.id]: flatText } });
    const corrected = (await entries()).find((r) => r.entity === 'ObjectKey' && r.entityId === key && r.action === 'UpdateLoan')!;
    expect(corrected.data).toMatchObject({ accountId: { from: holder!.id, to: client!.id }, keyAccountId: { from: holder!.id, to: client!.id } });
    expect(corrected.accountNames).toEqual({ [holder!.id]: 'Kleidas Kostas', [client!.id]: 'Petridou Sofia' });
    // Data of another shape under those keys names nothing, and the page is still read.
    const [odd] = await db
      .insert(actionLog)
      .values({ action: 'Update', entity: 'Lead', entityId: lead, data: { objects: 'none', accountId: 'x', demandId: 1.5, objectId: 2147483648, field: 'objectId', from: [], to: { a: 1 } } } as never)
      .returning({ id: actionLog.id });
    const oddRow = (await entries()).find((r) => r.id === odd!.id)!;
    for (const names of ['accountNames', 'objectNames', 'leadNames']) expect(oddRow).not.toHaveProperty(names);
    const offered = (await entries()).filter((r) => r.entity === 'Lead' && r.entityId === lead && (r.data as { objectId?: number }).objectId === studio!.id);
    expect(offered).toHaveLength(2);
    for (const r of offered) expect(r).not.toHaveProperty('objectNames');
  });

  it("names the deals, viewings, sign-ins, branches and an account's source other entries hold by number, read with the page; one deleted since stays a number", async () => {
    const [source] = await db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Spitogatos', isSource: true }).returning({ id: accounts.id });
    const client = (await json(admin.post('/api/account/add', { firstName: 'Eleni', lastName: 'Vlachou', isClient: true, sourceId: source!.id }))).id as number;
    const lead = (await json(admin.post('/api/lead/add', { accountId: client }))).id as number;
    // A viewing, then a deal, move the new lead on: its entries hold the viewing's and the deal's numbers.
    const viewing = (await json(admin.post('/api/Viewing/update', { demandId: lead, dateOfViewing: '2026-03-12T10:30:00', results: [] }))).id as number;
    const [flat] = await db.insert(objects).values({ title: 'Flat in Pylaia', forSale: true } as never).returning({ id: objects.id });
    const deal = (await json(admin.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat!.id, demandId: lead }))).id as number;
    const gone = (await json(admin.post('/api/Deal/update', { dealType: 2, dealStage: 1, objectId: flat!.id }))).id as number;
    expect((await admin.del(`/api/Deal/${gone}`)).statusCode).toBe(200);
    // A sign-in of a person (an account) and one of no account; a branch.
    const [person] = await db.insert(accounts).values({ firstName: 'Maria', lastName: 'Georgiou', isEmploye: true }).returning({ id: accounts.id });
    await db.update(users).set({ accountId: person!.id }).where(eq(users.id, agent.id));
    const [signIns] = await db
      .insert(actionLog)
      .values({ action: 'SendInvitation', entity: 'Account', entityId: client, data: { userId: agent.id, others: [{ userId: admin.id }], branchId: { from: null, to: 1 }, dealId: gone } } as never)
      .returning({ id: actionLog.id });
    // A booking's sourceId is where it was booked, not an account.
    const [booking] = await db.insert(actionLog).values({ action: 'Update', entity: 'Reservation', entityId: 1, data: { sourceId: source!.id } } as never).returning({ id: actionLog.id });

    const entries = async (lang = 'en') => {
      const res = await admin.post('/api/actionLog', { perPage: 100 }, { lang });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as Record<string, unknown>[];
    };
    const all = await entries();
    const created = all.find((r) => r.entity === 'Account' && r.entityId === client && r.action === 'Create')!;
    expect(created).toMatchObject({ data: { sourceId: source!.id }, accountNames: { [source!.id]: 'Spitogatos Nikos' } });
    const moved = all.filter((r) => r.entity === 'Lead' && r.entityId === lead && r.action === 'Update');
    expect(moved.find((r) => (r.data as { viewingId?: number }).viewingId === viewing)).toMatchObject({ viewingDates: { [viewing]: '2026-03-12T10:30:00' } });
    expect(moved.find((r) => (r.data as { dealId?: number }).dealId === deal)).toMatchObject({ dealIds: [deal] });
    const named = all.find((r) => r.id === signIns!.id)!;
    expect(named.userNames).toEqual({ [agent.id]: 'Georgiou Maria', [admin.id]: admin.email });
    expect(named.branchNames).toEqual({ 1: 'Thessaloniki' });
    // The deal deleted since is not named: the reader sees its number.
    expect(named).not.toHaveProperty('dealIds');
    expect((await entries('el')).find((r) => r.id === signIns!.id)!.branchNames).toEqual({ 1: 'Θεσσαλονίκη' });
    expect(all.find((r) => r.id === booking!.id)).not.toHaveProperty('accountNames');
  });

  it('refuses bad filters with a translated 400', async () => {
    for (const body of [{ entity: 3 }, { entityId: 2147483648 }, { startDate: '2024-02-30' }, { perPage: 0 }, { currentPage: 0 }, { actionBy: 'x' }, { actionByText: 'x'.repeat(201) }]) {
      const res = await admin.post('/api/actionLog', body, { lang: 'el' });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toBeDefined();
    }
  });
});
