import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { LinkKind, type TCulture } from '@crm/contract';
import { actionLog } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { readPdf } from '../../../test/pdf-text.ts';
import { BLANK, fillDocument, placeOf, plainText } from './doc-fill.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const employee = await t.user({ roles: ['employee'] });
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

// The agency as the set-up stores it: its names, registry number (ΓΕΜΗ), ΑΦΜ, tax office and address.
{
  const { version } = (await admin.get('/api/SiteSettings')).json() as { version: number };
  const res = await admin.post('/api/SiteSettings', {
    name: 'Thermaikos Homes', nameEl: 'Θερμαϊκός Ακίνητα', phone: '+30 2310 254 870', email: 'info@thermaikos-homes.gr', address: 'Τσιμισκή 45, Θεσσαλονίκη',
    licence: '123456704000', taxNumber: '094712341', taxOffice: 'Δ΄ Θεσσαλονίκης', version,
  });
  expect(res.statusCode, res.body).toBe(200);
}

const addAccount = async (firstName: string, lastName: string, fields: Record<string, unknown> = {}) => {
  const res = await admin.post('/api/account/add', { firstName, lastName, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const owner = await addAccount('Γιώργος', 'Παπαδόπουλος', { isOwner: true, middleName: 'Ιωάννης', internalPassportNumber: 'ΑΚ 123456', taxNumber: '090000045', address: 'Τσιμισκή 10', postcode: '54624', city: 'Θεσσαλονίκη' });
const buyer = await addAccount('Мария', 'Иванова', { isClient: true, passportNumber: '75 1234567' });
const addObject = async () => {
  const o = (await admin.get('/api/object/add')).json() as { id: number; referenceNumber: string };
  await t.db.execute(sql`update objects set address = 'Βασιλίσσης Όλγας 112', area = 85.5, floor = 3, draft = false,
    location_id = (select id from locations where coalesce(name_el, '') <> '' order by id limit 1) where id = ${o.id}`);
  return o;
};
const property = await addObject();
const mandate = async (kind: 'simple' | 'exclusive') => {
  const res = await admin.post('/api/Mandate/update', {
    objectId: property.id, kind, startDate: '2026-01-10', endDate: '2026-09-10', askingPrice: 185000, commissionPercent: 2,
    exceptions: kind === 'exclusive' ? [{ name: 'Νίκος Γεωργίου', note: 'γνωστός του εντολέα' }] : [], owners: [{ accountId: owner, taxOffice: 'Δ΄ Θεσσαλονίκης' }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const exclusive = await mandate('exclusive');
const simple = await mandate('simple');

const pdfOf = async (source: string, id: number, culture: TCulture, as = employee) => {
  const res = await as.get(`/api/DocTemplate/pdf/${source}/${id}?culture=${culture}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  const pdf = res.rawPayload;
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return { res, pdf, read: readPdf(pdf) };
};

describe('a mandate as a PDF', () => {
  it('is drawn in Greek with embedded DejaVu fonts, the agency header, the owner’s identity, the law’s terms and page numbers, as a download named for the property', async () => {
    const { res, read } = await pdfOf('mandate', exclusive, 'el');
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("filename*=UTF-8''")[1]!)).toBe(`Αποκλειστική εντολή ανάθεσης ${property.referenceNumber} (el).pdf`);
    expect(read.fonts.some((f) => f.endsWith('+DejaVuSans'))).toBe(true);
    expect(read.fonts.some((f) => f.endsWith('+DejaVuSans-Bold'))).toBe(true);
    expect(read.embeddedFonts).toBeGreaterThanOrEqual(2);
    const text = flat(read.text);
    for (const s of [
      'Θερμαϊκός Ακίνητα', 'Αρ. ΓΕΜΗ 123456704000', 'ΑΦΜ 094712341, ΔΟΥ Δ΄ Θεσσαλονίκης', 'ΑΠΟΚΛΕΙΣΤΙΚΗ ΕΝΤΟΛΗ ΑΝΑΘΕΣΗΣ ΜΕΣΙΤΕΙΑΣ',
      'πατρώνυμο: Ιωάννης, ΑΔΤ: ΑΚ 123456, ΑΦΜ: 090000045, ΔΟΥ: Δ΄ Θεσσαλονίκης, κάτοικος Τσιμισκή 10, 54624 Θεσσαλονίκη',
      'από 10/01/2026 έως 10/09/2026', 'οκτώ (8) μήνες', 'τέσσερις (4) ακόμη μήνες', '185 000 €', '2% επί του τελικού τιμήματος',
      '1. Νίκος Γεωργίου (γνωστός του εντολέα)', 'Βασιλίσσης Όλγας 112', `κωδ. ακινήτου ${property.referenceNumber}`, 'άρθρα 197 έως 204 του ν. 4072/2012', 'Ο/Η ΕΝΤΟΛΕΑΣ',
    ]) expect(text, s).toContain(s);
    // Where the property is: its street, then its area and town (a postcode alone named no town).
    const town = (await t.db.execute(sql`select name_el from locations where id = (select location_id from objects where id = ${property.id})`)).rows[0] as { name_el: string };
    expect(text.replace(/\s+/g, '')).toContain(`επίτηςΒασιλίσσηςΌλγας112,${town.name_el.replace(/\s+/g, '')}`);
    expect(read.pages.length).toBeGreaterThanOrEqual(2);
    read.pages.forEach((p, i) => expect(flat(p)).toContain(`Σελίδα ${i + 1} από ${read.pages.length}`));
    // What the PDF draws is the filled template, block by block, as its plain text says.
    const filled = await fillDocument(app, 'mandate', exclusive, 'el', employee.id);
    // (Compared without spaces: a line may break inside an address, where the reader puts one.)
    const dense = (s: string) => s.replace(/\s+/g, '');
    for (const b of filled.blocks) expect(dense(text)).toContain(dense(b.text));
    expect(flat(plainText(filled))).toContain(flat(filled.blocks[0]!.text));
  });

  it('is drawn in English and Russian with the reader’s date format, and a simple mandate has no exclusivity', async () => {
    const en = flat((await pdfOf('mandate', exclusive, 'en')).read.text);
    expect(en).toContain('EXCLUSIVE REAL-ESTATE AGENCY MANDATE');
    expect(en).toContain('Thermaikos Homes');
    expect(en).toContain('from 10/01/2026 to 10/09/2026');
    expect(en).toContain("father's name: Ιωάννης");
    const ru = flat((await pdfOf('mandate', exclusive, 'ru')).read.text);
    expect(ru).toContain('ИСКЛЮЧИТЕЛЬНОЕ ПОРУЧЕНИЕ АГЕНТСТВУ НЕДВИЖИМОСТИ');
    expect(ru).toContain('с 10.01.2026 по 10.09.2026');
    expect(ru).toContain('Страница 1 из');
    const simpleEl = flat((await pdfOf('mandate', simple, 'el')).read.text);
    expect(simpleEl).toContain('ΕΝΤΟΛΗ ΑΝΑΘΕΣΗΣ ΜΕΣΙΤΕΙΑΣ (ΑΠΛΗ – ΜΗ ΑΠΟΚΛΕΙΣΤΙΚΗ)');
    expect(simpleEl).toContain('δεν είναι αποκλειστική');
    expect(simpleEl).not.toContain('Εξαιρέσεις');
  });

  it('is a 404 for a mandate that does not exist, and a 400 for a language the CRM does not have', async () => {
    expect((await employee.get('/api/DocTemplate/pdf/mandate/999999?culture=el')).statusCode).toBe(404);
    expect((await employee.get(`/api/DocTemplate/pdf/mandate/${exclusive}?culture=de`)).statusCode).toBe(400);
    expect((await employee.get(`/api/DocTemplate/pdf/contract/${exclusive}?culture=el`)).statusCode).toBe(400);
  });
});

describe('the offer agreement and the handover protocol', () => {
  it('fill the offer from a deal: the parties, the price, the earnest money and its date, in el, en and ru', async () => {
    const res = await admin.post('/api/Deal/update', {
      dealType: 2, dealStage: 2, objectId: property.id, askingPrice: 185000, price: 178000, deposit: 10000, dateOfDeposit: '2026-03-02', commission: 3560, endDate: '2026-05-15',
      accounts: [{ accountId: owner, relation: 1 }, { accountId: buyer, relation: 2 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const deal = res.json().id as number;
    const el = flat((await pdfOf('offer', deal, 'el')).read.text);
    for (const s of ['ΣΥΜΦΩΝΗΤΙΚΟ ΠΡΟΣΦΟΡΑΣ ΚΑΙ ΑΡΡΑΒΩΝΑ', 'Παπαδόπουλος', 'Иванова', 'αρ. διαβατηρίου: 75 1234567', 'για την αγορά του ακινήτου το ποσό των 178 000 €', 'στις 02/03/2026 το ποσό των 10 000 €', 'έως 15/05/2026', '3 560 €'])
      expect(el, s).toContain(s);
    expect(flat((await pdfOf('offer', deal, 'en')).read.text)).toContain('The Offeror offers 178 000 € for the purchase of the property');
    expect(flat((await pdfOf('offer', deal, 'ru')).read.text)).toContain('Оферент предлагает за покупку объекта 178 000 €');
  });

  it('fill the handover protocol from a property: its owner, its tenant, the rent and the keys', async () => {
    const let_ = await addObject();
    const tenant = await addAccount('Anna', 'Schmidt', { isClient: true, passportNumber: 'C01X00T47' });
    for (const [accountId, relation, price] of [[owner, 1, null], [tenant, 4, 750]] as const) {
      const r = await admin.post('/api/objectAccount/add', { objectId: let_.id, accountId, relation, startDate: '2026-02-01', ...(price ? { price } : {}) });
      expect(r.statusCode, r.body).toBe(200);
    }
    await t.db.execute(sql`insert into object_keys (object_id, description) values (${let_.id}, 'Εξώπορτα πολυκατοικίας'), (${let_.id}, 'Διαμέρισμα (2 κλειδιά)')`);
    const el = flat((await pdfOf('handover', let_.id, 'el')).read.text);
    for (const s of ['ΠΡΩΤΟΚΟΛΛΟ ΠΑΡΑΔΟΣΗΣ – ΠΑΡΑΛΑΒΗΣ ΑΚΙΝΗΤΟΥ', 'Γιώργος Παπαδόπουλος', 'Anna Schmidt', 'αρ. διαβατηρίου: C01X00T47', '1. Εξώπορτα πολυκατοικίας 2. Διαμέρισμα (2 κλειδιά)', '750 € μηνιαίως', 'έναρξη μίσθωσης: 01/02/2026', 'αρ. παροχής'])
      expect(el, s).toContain(s);
    const ru = flat((await pdfOf('handover', let_.id, 'ru')).read.text);
    expect(ru).toContain('АКТ ПРИЁМА-ПЕРЕДАЧИ ОБЪЕКТА НЕДВИЖИМОСТИ');
    expect(ru).toContain('750 € в месяц');
  });
});

describe('the templates’ texts in the settings', () => {
  const greek = async () => ((await admin.get('/api/DocTemplate')).json().items as { kind: string; culture: string; body: string; version: number; edited: boolean }[]).find((i) => i.kind === 'mandateExclusive' && i.culture === 'el')!;

  it('lists every template in every language with its placeholders, the defaults at version 0', async () => {
    const res = await admin.get('/api/DocTemplate');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items).toHaveLength(21);
    expect(body.placeholders.mailViewing).toContain('client.greeting');
    expect(body.placeholders.mandateExclusive).toContain('mandate.exceptions');
    expect(body.placeholders.mandateSimple).not.toContain('mandate.exceptions');
    expect(await greek()).toMatchObject({ edited: false, version: 0 });
    expect((await employee.get('/api/DocTemplate')).statusCode).toBe(403);
  });

  it('uses the agency’s edited text in the PDF, guards the version, logs the change, and goes back to the default', async () => {
    const before = await greek();
    const body = `${before.body}\n\n## Ειδικός όρος\nΟ Εντολέας παραδίδει στον Μεσίτη αντίγραφο του τίτλου κτήσης για το ακίνητο {property.ref}.`;
    const denied = await employee.post('/api/DocTemplate/update', { kind: 'mandateExclusive', culture: 'el', title: 'X', body, signatures: '', version: 0 });
    expect(denied.statusCode).toBe(403);
    const saved = await admin.post('/api/DocTemplate/update', { kind: 'mandateExclusive', culture: 'el', title: 'ΑΠΟΚΛΕΙΣΤΙΚΗ ΕΝΤΟΛΗ ΠΩΛΗΣΗΣ', body, signatures: 'Ο ΕΝΤΟΛΕΑΣ\nΟ ΜΕΣΙΤΗΣ', version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ edited: true, version: 1, title: 'ΑΠΟΚΛΕΙΣΤΙΚΗ ΕΝΤΟΛΗ ΠΩΛΗΣΗΣ' });
    const text = flat((await pdfOf('mandate', exclusive, 'el')).read.text);
    expect(text).toContain('ΑΠΟΚΛΕΙΣΤΙΚΗ ΕΝΤΟΛΗ ΠΩΛΗΣΗΣ');
    expect(text).toContain(`αντίγραφο του τίτλου κτήσης για το ακίνητο ${property.referenceNumber}.`);
    expect(text).toContain('Ο ΜΕΣΙΤΗΣ');
    // The English template is untouched.
    expect(flat((await pdfOf('mandate', exclusive, 'en')).read.text)).toContain('EXCLUSIVE REAL-ESTATE AGENCY MANDATE');

    const stale = await admin.post('/api/DocTemplate/update', { kind: 'mandateExclusive', culture: 'el', title: 'Παλιό', body: 'Παλιό', signatures: '', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ version: 1, title: 'ΑΠΟΚΛΕΙΣΤΙΚΗ ΕΝΤΟΛΗ ΠΩΛΗΣΗΣ' });
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'DocTemplate'), eq(actionLog.action, 'Create'))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Create', message: 'mandateExclusive (el)' });
    expect((log!.data as { changed: string[] }).changed).toEqual(['title', 'body', 'signatures']);

    expect((await admin.post('/api/DocTemplate/reset', { kind: 'mandateExclusive', culture: 'el', version: 0 })).statusCode).toBe(409);
    const reset = await admin.post('/api/DocTemplate/reset', { kind: 'mandateExclusive', culture: 'el', version: 1 });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({ edited: false, version: 2, body: before.body });
    // A form opened before the reset is still stale after it, and after a save from the defaults.
    expect((await admin.post('/api/DocTemplate/update', { kind: 'mandateExclusive', culture: 'el', title: 'Παλιό', body: 'Παλιό', signatures: '', version: 1 })).statusCode).toBe(409);
    expect(flat((await pdfOf('mandate', exclusive, 'el')).read.text)).toContain('ΑΠΟΚΛΕΙΣΤΙΚΗ ΕΝΤΟΛΗ ΑΝΑΘΕΣΗΣ ΜΕΣΙΤΕΙΑΣ');
    const [undone] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'DocTemplate'), eq(actionLog.action, 'Delete'))).limit(1);
    expect(undone).toBeTruthy();
    const again = await admin.post('/api/DocTemplate/update', { kind: 'mandateExclusive', culture: 'el', title: 'ΝΕΟΣ ΤΙΤΛΟΣ', body: before.body, signatures: '', version: 2 });
    expect(again.json()).toMatchObject({ edited: true, version: 3, title: 'ΝΕΟΣ ΤΙΤΛΟΣ' });
    expect((await admin.post('/api/DocTemplate/update', { kind: 'mandateExclusive', culture: 'el', title: 'Παλιό', body: 'Παλιό', signatures: '', version: 1 })).statusCode).toBe(409);
    await admin.post('/api/DocTemplate/reset', { kind: 'mandateExclusive', culture: 'el', version: 3 });
  });

  it('refuses unknown placeholders, naming them in the reader’s language, and stores nothing', async () => {
    const res = await admin.post(
      '/api/DocTemplate/update',
      { kind: 'mandateSimple', culture: 'el', title: 'Εντολή {owner.surname}', body: 'Κείμενο {mandate.exceptions} και {agency.name}', signatures: '', version: 0 },
      { lang: 'el' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      title: ['Άγνωστα πεδία συμπλήρωσης: {owner.surname}. Χρησιμοποιήστε μόνο όσα αναφέρονται στη λίστα.'],
      body: ['Άγνωστα πεδία συμπλήρωσης: {mandate.exceptions}. Χρησιμοποιήστε μόνο όσα αναφέρονται στη λίστα.'],
    });
    const en = await admin.post('/api/DocTemplate/update', { kind: 'offer', culture: 'en', title: 'Offer', body: '{deal.price} {deal.vat}', signatures: '{x}', version: 0 }, { lang: 'en' });
    expect(en.json().errors).toEqual({ body: ['Unknown placeholders: {deal.vat}. Use only those in the list.'], signatures: ['Unknown placeholders: {x}. Use only those in the list.'] });
    expect((await t.db.execute(sql`select count(*)::int as n from doc_templates where title <> ''`)).rows[0]).toEqual({ n: 0 });
  });
});

describe('saving a document to the record’s files', () => {
  it('stores the PDF among the mandate’s files in one click, logged, readable back', async () => {
    const res = await employee.post('/api/DocTemplate/save', { source: 'mandate', id: exclusive, culture: 'ru' });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json();
    expect(saved).toMatchObject({ parentType: LinkKind.Mandate, parentId: exclusive, name: `Эксклюзивное поручение ${property.referenceNumber} (ru).pdf` });
    const list = await employee.get(`/api/files?parentType=${LinkKind.Mandate}&parentId=${exclusive}`);
    expect(list.statusCode, list.body).toBe(200);
    const file = (list.json().items as { id: number; systemName: string; userName: string; mime: string }[]).find((f) => f.id === saved.fileId)!;
    expect(file).toMatchObject({ userName: saved.name, mime: 'application/pdf' });
    const got = await employee.get(`/api/files/${file.systemName}`);
    expect(got.statusCode).toBe(200);
    expect(flat(readPdf(got.rawPayload).text)).toContain('ИСКЛЮЧИТЕЛЬНОЕ ПОРУЧЕНИЕ');
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'File'), eq(actionLog.entityId, saved.fileId)));
    expect(log).toMatchObject({ action: 'Create', message: saved.name });
  });

  it('stores the offer among the deal’s files and the handover protocol among the property’s', async () => {
    const deal = (await admin.post('/api/Deal/update', { dealType: 1, dealStage: 1, objectId: property.id, price: 900, accounts: [{ accountId: owner, relation: 1 }] })).json().id as number;
    for (const [source, id, parentType] of [['offer', deal, LinkKind.Deal], ['handover', property.id, LinkKind.Object]] as const) {
      const res = await employee.post('/api/DocTemplate/save', { source, id, culture: 'el' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ parentType, parentId: id });
      const items = (await employee.get(`/api/files?parentType=${parentType}&parentId=${id}`)).json().items as { id: number; mime: string }[];
      expect(items.find((f) => f.id === res.json().fileId)).toMatchObject({ mime: 'application/pdf' });
    }
    expect((await employee.post('/api/DocTemplate/save', { source: 'offer', id: 999999, culture: 'el' })).statusCode).toBe(404);
  });

  it('puts the agency’s logo in the header when it has one', async () => {
    const { version } = (await admin.get('/api/SiteSettings')).json() as { version: number };
    const png = await sharp({ create: { width: 600, height: 200, channels: 4, background: '#1d4e89' } }).png().toBuffer();
    const up = await admin.upload('/api/SiteSettings/logo', [{ field: 'version', value: String(version) }, { field: 'file', name: 'logo.png', data: png, type: 'image/png' }]);
    expect(up.statusCode, up.body).toBe(200);
    expect((await pdfOf('handover', property.id, 'en')).read.images).toBeGreaterThanOrEqual(1);
  });
});

describe("a document's property address", () => {
  it('is the street and postcode, then the area and town; with no street, a blank to fill in by hand, never "επί της 57200"', () => {
    expect(placeOf({ address: 'Βασιλίσσης Όλγας 112, 54643', place: 'Καλαμαριά, Θεσσαλονίκη' })).toBe('Βασιλίσσης Όλγας 112, 54643, Καλαμαριά, Θεσσαλονίκη');
    expect(placeOf({ address: '57200', place: 'Σοχός, Λαγκαδάς, Θεσσαλονίκη' })).toBe(`${BLANK}, Σοχός, Λαγκαδάς, Θεσσαλονίκη, 57200`);
    expect(placeOf({ address: null, place: 'Σοχός' })).toBe(`${BLANK}, Σοχός`);
    expect(placeOf({ address: ' ', place: '' })).toBe('');
  });
});
