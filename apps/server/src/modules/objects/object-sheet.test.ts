import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, assignments, files, locations, objectAccounts, objectKeys, objects, siteSettings, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { insertObject } from '../../../test/records.ts';

/** The property sheet: what it prints, in the language asked for, and nothing of the office's own. */
const t = await createTestApp();
const { app, db } = t;
const staff = await t.user({ roles: ['employee'] });

const [place] = await db.insert(locations).values({ level: 2, nameEn: 'Pylaia', nameEl: 'Πυλαία', nameRu: 'Пилея', textEn: 'Pylaia', textEl: 'Πυλαία', textRu: 'Пилея' }).returning();
await db.insert(siteSettings).values({ id: 1, name: 'Acropolis Homes', phone: '+30 2310 555 111', email: 'office@acropolis.test', address: 'Tsimiski 10, Thessaloniki' }).onConflictDoUpdate({
  target: siteSettings.id,
  set: { name: 'Acropolis Homes', phone: '+30 2310 555 111', email: 'office@acropolis.test', address: 'Tsimiski 10, Thessaloniki' },
});
const o = await insertObject(db, {
  title: 'Quiet flat in Pylaia',
  titleRu: 'Тихая квартира в Пилее',
  description: 'Two bedrooms, a large balcony.',
  descriptionRu: 'Две спальни, большой балкон.',
  forSale: true,
  salePrice: 150000,
  salePriceWithDiscount: 140000,
  forRent: true,
  rentPrice: 600,
  area: 85.5,
  bedrooms: 2,
  bathrooms: 1,
  floor: 0,
  constructionYear: 1998,
  energyClass: 3,
  elevator: true,
  airCondition: true,
  balcony: true,
  locationId: place!.id,
  active: true,
  displayAddress: true,
  address: 'Odos Sheetou 713',
  zipCode: 'ZIP-SHEET-9',
  internalNotes: 'NOTE-SHEET owner accepts 5% less',
  websiteCode: 'WEBCODE-SHEET',
  createdBy: staff.id,
  modifiedBy: staff.id,
});
const ref = String(o.ref).padStart(4, '0');
const [owner] = await db.insert(accounts).values({ firstName: 'Zbigniew', lastName: 'Sheetowski', emails: ['owner.sheet@example.test'], phones: ['+30 699 7654 000'] }).returning();
const [holder] = await db.insert(accounts).values({ firstName: 'Keymaster', lastName: 'Sheetidis' }).returning();
await db.insert(objectAccounts).values({ objectId: o.id, accountId: owner!.id, relation: 1, price: 123457 });
await db.insert(objectKeys).values({ objectId: o.id, accountId: holder!.id, received: '2020-02-02', description: 'KEY-SHEET under the mat' });
await db.insert(files).values([
  { systemName: 'sheet-1.jpg', userName: 'IMG_SHEET_ORIGINAL.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'image', webName: 'sheet-1-web.webp', thumbName: 'sheet-1-thumb.webp', sortOrder: 2 },
  { systemName: 'sheet-2.jpg', userName: 'b.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'image', webName: 'sheet-2-web.webp', thumbName: 'sheet-2-thumb.webp', sortOrder: 1 },
  { systemName: 'SHEET-DOC.pdf', userName: 'CONTRACT-SHEET.pdf', mime: 'application/pdf', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'document' },
] as never);

const sheet = (query = '') => staff.get(`/api/object/sheet/${o.id}${query}`);

describe('GET /api/object/sheet/{idOrRef}', () => {
  it('prints the agency, reference, prices with the discount, facts and features in English', async () => {
    const res = await sheet('?culture=en');
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.agency).toEqual({ name: 'Acropolis Homes', phone: '+30 2310 555 111', email: 'office@acropolis.test', address: 'Tsimiski 10, Thessaloniki', licence: null, taxNumber: null, taxOffice: null, website: null, logo: null });
    expect(s.ref).toBe(ref);
    expect(s.labels.ref).toBe(`Ref. ${ref}`);
    expect(s.title).toBe('Quiet flat in Pylaia');
    expect(s.place).toBe('Pylaia');
    expect(s.prices).toEqual([
      { service: 'sale', label: 'For sale', price: '140\u00a0000\u00a0€', was: '150\u00a0000\u00a0€', per: null },
      { service: 'rent', label: 'For rent', price: '600\u00a0€', was: null, per: 'per month' },
    ]);
    const facts = Object.fromEntries(s.facts.map((f: { label: string; value: string }) => [f.label, f.value]));
    expect(facts).toMatchObject({ Area: '85.5\u00a0m²', Bedrooms: '2', Bathrooms: '1', Floor: 'Ground floor', 'Year built': '1998', 'Energy class': 'B+' });
    expect(s.featureGroups.map((g: { key: string; items: string[] }) => [g.key, g.items])).toEqual([
      ['building', ['Lift']],
      ['comfort', ['Air conditioning']],
      ['outdoor', ['Balcony']],
    ]);
    // The photos in the property's order, the documents not among them.
    const photos = await db.select({ id: files.id, name: files.systemName }).from(files).where(eq(files.parentId, o.id));
    expect(s.photos).toEqual(['sheet-2.jpg', 'sheet-1.jpg'].map((n) => photos.find((p) => p.name === n)!.id));
  });

  it('speaks the language asked for, whatever the reader\'s', async () => {
    const el = (await sheet('?culture=el')).json();
    expect(el.culture).toBe('el');
    expect(el.place).toBe('Πυλαία');
    expect(el.labels.price).toBe('Τιμή');
    expect(el.facts.find((f: { key: string }) => f.key === 'area').value).toBe('85,5\u00a0τ.μ.');
    expect(el.prices[0].label).toBe('Πώληση');
    const ru = (await sheet('?culture=ru')).json();
    expect(ru.title).toBe('Тихая квартира в Пилее');
    expect(ru.description).toBe('Две спальни, большой балкон.');
    expect(ru.prices[1].per).toBe('в месяц');
  });

  it('prints the English title and description on an English sheet, and the main ones on a Greek one', async () => {
    await db.update(objects).set({ title: 'Ήσυχο διαμέρισμα στην Πυλαία', description: 'Δύο υπνοδωμάτια, μεγάλο μπαλκόνι.', titleEn: 'Quiet two-bedroom flat in Pylaia', descriptionEn: 'Two bedrooms and a large balcony, on the ground floor.' } as never).where(eq(objects.id, o.id));
    try {
      const en = (await sheet('?culture=en')).json();
      expect([en.title, en.description]).toEqual(['Quiet two-bedroom flat in Pylaia', 'Two bedrooms and a large balcony, on the ground floor.']);
      const el = (await sheet('?culture=el')).json();
      expect([el.title, el.description]).toEqual(['Ήσυχο διαμέρισμα στην Πυλαία', 'Δύο υπνοδωμάτια, μεγάλο μπαλκόνι.']);
    } finally {
      await db.update(objects).set({ title: 'Quiet flat in Pylaia', description: 'Two bedrooms, a large balcony.', titleEn: null, descriptionEn: null } as never).where(eq(objects.id, o.id));
    }
  });

  it('names the assigned agent; with none, the agent who prints it; a bare sign-in, no one', async () => {
    expect((await sheet()).json().agent).toBeNull();
    // An agent with an account of their own prints a property nobody is assigned to: they are its contact.
    const printer = await t.user({ roles: ['employee'] });
    const [own] = await db.insert(accounts).values({ firstName: 'Σοφία', lastName: 'Πρίντου', firstNameEng: 'Sofia', lastNameEng: 'Printou', isEmploye: true, phones: ['+30 697 333 4444'], emails: ['sofia@acropolis.test'] } as never).returning();
    await db.update(users).set({ accountId: own!.id }).where(eq(users.id, printer.id));
    expect((await printer.get(`/api/object/sheet/${o.id}?culture=el`)).json().agent).toEqual({ name: 'Σοφία Πρίντου', phone: '+30 697 333 4444', email: 'sofia@acropolis.test' });
    // For a reader of English or Russian, the Latin letters the account holds.
    expect((await printer.get(`/api/object/sheet/${o.id}?culture=ru`)).json().agent.name).toBe('Sofia Printou');
    const [agent] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Agentou', isEmploye: true, phones: ['+30 697 111 2222'], emails: ['eleni@acropolis.test'] } as never).returning();
    await db.insert(assignments).values({ parent: 0, parentId: o.id, accountId: agent!.id });
    expect((await sheet()).json().agent).toEqual({ name: 'Eleni Agentou', phone: '+30 697 111 2222', email: 'eleni@acropolis.test' });
  });

  it('has nothing of the owner, notes, keys, documents or the address unless asked for the address', async () => {
    const body = (await sheet('?culture=en')).body;
    for (const m of ['Sheetowski', 'Zbigniew', 'owner.sheet@', '7654 000', 'NOTE-SHEET', 'KEY-SHEET', 'Sheetidis', '123457', 'WEBCODE-SHEET', 'CONTRACT-SHEET', 'IMG_SHEET', 'Sheetou', 'ZIP-SHEET'])
      expect(body.includes(m), m).toBe(false);
    const withAddress = (await sheet('?culture=en&address=1')).json();
    expect(withAddress.address).toBe('Odos Sheetou 713, ZIP-SHEET-9');
  });

  it('finds a property by its reference number; a bad one is a translated 400, an unknown one a 404', async () => {
    expect((await staff.get(`/api/object/sheet/ref${o.ref}`)).json().ref).toBe(ref);
    expect((await staff.get('/api/object/sheet/99999999')).statusCode).toBe(404);
    expect((await staff.get('/api/object/sheet/abc')).statusCode).toBe(400);
    expect((await sheet('?culture=de')).statusCode).toBe(400);
    expect((await app.inject({ url: `/api/object/sheet/${o.id}` })).statusCode).toBe(401);
  });
});
