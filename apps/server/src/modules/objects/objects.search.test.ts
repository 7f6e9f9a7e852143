import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { accounts, locations, users } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';
import { LIST_COLUMNS, OBJECT_COLUMNS } from './objects.columns.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const emp = await t.user({ roles: ['employee'] });

const [empAccount] = await t.db.insert(accounts).values({ firstName: 'Maria', lastName: 'Lista', isEmploye: true }).returning();
await t.db.update(users).set({ accountId: empAccount!.id }).where(eq(users.id, emp.id));
const [thess] = await t.db.insert(locations).values({ level: 1, nameEn: 'Thessaloniki', nameEl: 'Θεσσαλονίκη', nameRu: 'Салоники' }).returning();
const [kal] = await t.db.insert(locations).values({ level: 2, parentId: thess!.id, nameEn: 'Kalamaria', nameEl: 'Καλαμαριά', nameRu: 'Каламария' }).returning();
const [kara] = await t.db.insert(locations).values({ level: 3, parentId: kal!.id, nameEn: 'Karampournaki', nameEl: 'Καραμπουρνάκι', nameRu: 'Карабурнаки' }).returning();
const [kas] = await t.db.insert(locations).values({ level: 1, nameEn: 'Chalkidiki', nameEl: 'Χαλκιδική', nameRu: 'Халкидики' }).returning();
const [nea] = await t.db.insert(locations).values({ level: 2, parentId: kas!.id, nameEn: 'Nea Kallikrateia', nameEl: 'Νέα Καλλικράτεια', nameRu: 'Неа Калликратия' }).returning();

async function make(fields: Record<string, unknown>, as: Client = admin) {
  const o = (await as.get('/api/object/add')).json();
  const res = await admin.post('/api/object/update', { id: o.id, version: o.version, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; referenceNumber: string };
}
const point = { latitude: 40.58, longitude: 22.95, displayCoordinates: true };
const sale = await make({ title: 'Penthouse with sea view', forSale: true, salePrice: 300000, area: 120, bedrooms: 3, locationId: kara!.id, objectSubTypeId: 1, ...point }, emp);
const rent = await make({ title: 'Studio near the university', forRent: true, rentPrice: 450, area: 35, locationId: kal!.id, address: 'Egnatia 12' });
const both = await make({ title: 'Maisonette Panorama', forSale: true, forRent: true, salePrice: 180000, rentPrice: 900, area: 140, bedrooms: 2, locationId: thess!.id, ...point });
const shortLet = await make({ title: 'Beach house Kassandra', forShortRent: true, shortRentPrice: 120, area: 80, locationId: kas!.id });
const ids = (r: { json: () => { items: { id: number }[] } }) => r.json().items.map((i) => i.id).sort((a, b) => a - b);
const sorted = (...xs: { id: number }[]) => xs.map((x) => x.id).sort((a, b) => a - b);

describe('the object search form', () => {
  it('ORs the chosen services and applies the price range to their prices', async () => {
    expect(ids(await admin.post('/api/object/search', { forSale: true }))).toEqual(sorted(sale, both));
    expect(ids(await admin.post('/api/object/search', { forRent: true, forShortRent: true }))).toEqual(sorted(rent, both, shortLet));
    expect(ids(await admin.post('/api/object/search', { forSale: true, priceMax: 200000 }))).toEqual(sorted(both));
    expect(ids(await admin.post('/api/object/search', { forSale: true, forRent: true, priceMin: 400, priceMax: 500 }))).toEqual(sorted(rent));
    // no service chosen: the range applies to any price the object is offered at
    expect(ids(await admin.post('/api/object/search', { priceMin: 100, priceMax: 130 }))).toEqual(sorted(shortLet));
  });

  it('with no service chosen, a price left from a service no longer offered does not match (list and map)', async () => {
    const former = await make({ title: 'Was for sale, now to let', forSale: false, salePrice: 155555, forRent: true, rentPrice: 555, area: 60, locationId: kal!.id, ...point });
    expect(ids(await admin.post('/api/object/search', { priceMin: 155000, priceMax: 156000 }))).toEqual([]);
    expect(ids(await admin.post('/api/object/search', { priceMin: 155000, priceMax: 156000, showOnMap: true }))).toEqual([]);
    expect(ids(await admin.post('/api/object/search', { priceMin: 550, priceMax: 560 }))).toEqual([former.id]);
    expect(ids(await admin.post('/api/object/search', { priceMin: 550, priceMax: 560, showOnMap: true }))).toEqual([former.id]);
    // Not one of the objects the other searches here expect.
    expect((await admin.del(`/api/object/${former.id}`)).statusCode).toBe(200);
  });

  it('filters by area, by bedrooms, by a place with the places under it, and by the creator', async () => {
    expect(ids(await admin.post('/api/object/search', { areaMin: 100 }))).toEqual(sorted(sale, both));
    // "2+" bedrooms: those with 2 or more; a property whose bedrooms nobody entered is not among them.
    expect(ids(await admin.post('/api/object/search', { bedroomsMin: 2 }))).toEqual(sorted(sale, both));
    expect(ids(await admin.post('/api/object/search', { bedroomsMin: 3, forSale: true }))).toEqual(sorted(sale));
    expect(ids(await admin.post('/api/object/search', { bedroomsMin: 3, showOnMap: true }))).toEqual(sorted(sale));
    expect(ids(await admin.post('/api/object/search', { bedroomsMin: null }))).toHaveLength(4);
    expect(ids(await admin.post('/api/object/search', { locationId: thess!.id }))).toEqual(sorted(sale, rent, both));
    expect(ids(await admin.post('/api/object/search', { locationId: kal!.id }))).toEqual(sorted(sale, rent));
    expect(ids(await admin.post('/api/object/search', { locationId: kara!.id }))).toEqual(sorted(sale));
    // The municipality's seat of the same name stands for the whole municipality.
    const [seat] = await t.db.insert(locations).values({ level: 3, parentId: kal!.id, nameEn: 'Kalamaria', nameEl: 'Καλαμαριά', nameRu: 'Каламария' }).returning();
    expect(ids(await admin.post('/api/object/search', { locationId: seat!.id }))).toEqual(sorted(sale, rent));
    expect(ids(await admin.post('/api/object/search', { createdBy: empAccount!.id }))).toEqual(sorted(sale));
    expect(ids(await admin.post('/api/object/search', { createdByText: 'lista' }))).toEqual(sorted(sale));
  });

  it('answers the rows the list shows, in the reader\'s language, paged with the count', async () => {
    const res = await admin.post('/api/object/search', { forSale: true, perPage: 1, currentPage: 1 }, { lang: 'el' });
    expect(res.json().totalRows).toBe(2);
    expect(res.json().items).toHaveLength(1);
    const row = (await admin.post('/api/object/search', { locationId: kara!.id }, { lang: 'el' })).json().items[0];
    expect(row).toMatchObject({ id: sale.id, referenceNumber: sale.referenceNumber, title: 'Penthouse with sea view', type: 'Διαμέρισμα', location: 'Καραμπουρνάκι, Καλαμαριά', area: 120, forSale: true, salePrice: 300000, latitude: 40.58, longitude: 22.95, imageId: null });
  });

  it('answers the further columns asked for (the column chooser), and refuses a field that is no column', async () => {
    const rows = (await admin.post('/api/object/search', { locationId: kal!.id, more: ['bedrooms', 'address', 'sold', 'internalNotes'] })).statusCode;
    // What stays in the CRM is never a column.
    expect(rows).toBe(400);
    const res = await admin.post('/api/object/search', { locationId: kal!.id, more: ['bedrooms', 'address', 'sold'] }, { lang: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    const byId = new Map(res.json().items.map((r: { id: number; more: unknown }) => [r.id, r.more]));
    expect(byId.get(sale.id)).toEqual({ bedrooms: 3, address: null, sold: false });
    expect(byId.get(rent.id)).toEqual({ bedrooms: null, address: 'Egnatia 12', sold: false });
    // Not asked: no `more` at all.
    expect((await admin.post('/api/object/search', { locationId: kal!.id })).json().items[0]).not.toHaveProperty('more');
  });

  it('on the map answers every matching object that has a place on the map', async () => {
    const res = await admin.post('/api/object/search', { showOnMap: true, perPage: 1 });
    expect(ids(res)).toEqual(sorted(sale, both));
    expect(res.json().totalRows).toBe(2);
    // A pin carries what its popup shows, in the reader's language; filters apply as on the list.
    const pins = (await admin.post('/api/object/search', { showOnMap: true, locationId: kara!.id }, { lang: 'el' })).json();
    expect(pins.totalRows).toBe(1);
    expect(pins.items).toEqual([
      { id: sale.id, referenceNumber: sale.referenceNumber, title: 'Penthouse with sea view', type: 'Διαμέρισμα', location: 'Καραμπουρνάκι, Καλαμαριά', area: 120, forSale: true, forRent: false, forShortRent: false, salePrice: 300000, rentPrice: null, shortRentPrice: null, owner: null, ownerId: null, latitude: 40.58, longitude: 22.95, imageId: null },
    ]);
    const none = (await admin.post('/api/object/search', { showOnMap: true, areaMin: 100000 })).json();
    expect(none).toEqual({ items: [], totalRows: 0 });
  });

  it('refuses a range upside down and bad values with clear errors', async () => {
    const res = await admin.post('/api/object/search', { priceMin: 500, priceMax: 100 }, { lang: 'el' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.priceMax).toEqual(['Το ανώτατο όριο δεν μπορεί να είναι μικρότερο από το κατώτατο']);
    for (const body of [{ locationId: 2 ** 31 }, { areaMin: -1 }, { forSale: 'yes' }, { currentPage: 0 }, { bedroomsMin: 1.5 }, { bedroomsMin: 101 }]) {
      expect((await admin.post('/api/object/search', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('Properties.xlsx', () => {
  const sheet = async (body: unknown, lang: string) => {
    const res = await admin.post('/api/object/download', body, { lang });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('Properties.xlsx');
    const wb = await workbookOf(res);
    return wb.worksheets[0]!;
  };

  it("holds every property the search's filters match, newest first, in the reader's language, with real numbers and no formulas", async () => {
    const odd = await make({ title: '=HYPERLINK("http://evil")', forSale: true, salePrice: 250000.5, area: 99.5, bedrooms: 3, locationId: kara!.id });
    const ws = await sheet({ forSale: true, locationId: thess!.id }, 'el');
    expect(ws.name).toBe('Ακίνητα');
    expect(ws.getCell('A1').value).toBe('3 ακίνητα');
    expect(ws.getCell('A2').value).toBe('Εμφανίζονται: Πώληση; Περιοχή: Θεσσαλονίκη');
    const head = (ws.getRow(5).values as unknown[]).slice(1);
    const col = (name: string) => head.indexOf(name) + 1;
    const rows = [6, 7, 8].map((r) => ws.getRow(r));
    // Newest first, as the search lists them; the one to let only is not there.
    expect(rows.map((r) => r.getCell(1).value)).toEqual([odd, both, sale].map((o) => `#${o.referenceNumber}`));
    expect(ws.getRow(9).getCell(1).value ?? null).toBeNull();
    expect(String(rows[0]!.getCell(col('Τίτλος')).value)).toMatch(/^'=HYPERLINK/);
    expect(rows[0]!.getCell(col('Τιμή πώλησης')).value).toBe(250000.5);
    expect(rows[0]!.getCell(col('Τιμή πώλησης')).numFmt).toContain('€');
    expect(rows[0]!.getCell(col('Υπνοδωμάτια')).value).toBe(3);
    expect(rows[1]!.getCell(col('Μηνιαίο μίσθωμα')).value).toBe(900);
    expect(rows[2]!.getCell(col('Περιοχή')).value).toMatch(/^Καραμπουρνάκι/);
    for (let r = 1; r <= 8; r++) ws.getRow(r).eachCell((c) => expect(c.formula).toBeUndefined());
    expect((await admin.del(`/api/object/${odd.id}`)).statusCode).toBe(200);
  });

  it("has every column of the property list, with the list's values: one description serves both", async () => {
    const filter = { forSale: true, locationId: thess!.id };
    const listed = (await admin.post('/api/object/search', { ...filter, perPage: 1 })).json().items[0];
    const ws = await sheet(filter, 'en');
    const head = (ws.getRow(5).values as unknown[]).slice(1);
    const en = (key: string) => app.translator.t('en', key);
    expect(head).toEqual(OBJECT_COLUMNS.map((c) => en(c.head)));
    // Every value the list's row shows of it is in the file, under that column's head.
    const { id: _id, ownerId: _o, latitude: _la, longitude: _lo, imageId: _i, ...shown } = listed;
    const cells = Object.fromEntries(LIST_COLUMNS.map((c) => [c.key, ws.getRow(6).getCell(head.indexOf(en(c.head)) + 1).value ?? null]));
    const yes = (v: boolean) => (v ? 'Yes' : null);
    expect(cells).toEqual({
      ...Object.fromEntries(Object.entries(shown).map(([k, v]) => [k, v === '' ? null : v])),
      referenceNumber: `#${listed.referenceNumber}`,
      forSale: yes(listed.forSale),
      forRent: yes(listed.forRent),
      forShortRent: yes(listed.forShortRent),
    });
  });

  it('says when nothing is filtered, and refuses a range upside down as the search does', async () => {
    const en = await sheet({}, 'en');
    expect(en.getCell('A2').value).toBe('Showing: All properties');
    expect((await admin.post('/api/object/download', { priceMin: 10, priceMax: 5 })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/object/download', payload: {} })).statusCode).toBe(401);
  });
});

describe('finding an object by reference number or title', () => {
  it('finds by reference number prefix (bare, padded, # or ref) and by words of the title or address', async () => {
    const q = async (s: string, options = 'no') =>
      (await admin.get(`/api/object/searchByRefNumOrTitle?searchStr=${encodeURIComponent(s)}&options=${options}`)).json().items as { id: number; referenceNumber: string; description: string }[];
    const bare = String(Number(sale.referenceNumber));
    expect((await q(sale.referenceNumber))[0]).toEqual({ id: sale.id, referenceNumber: sale.referenceNumber, description: `#${sale.referenceNumber} · Penthouse with sea view` });
    expect((await q(bare))[0]!.id).toBe(sale.id);
    expect((await q(`#${sale.referenceNumber}`))[0]!.id).toBe(sale.id);
    expect((await q(`ref${sale.referenceNumber}`))[0]!.id).toBe(sale.id);
    expect((await q('sea penthouse')).map((i) => i.id)).toEqual([sale.id]);
    expect((await q('egnatia')).map((i) => i.id)).toEqual([rent.id]);
    expect((await q('beach')).map((i) => i.id)).toEqual([shortLet.id]);
    expect(await q('house', 'STR')).toHaveLength(1);
    expect(await q('studio', 'STR')).toEqual([]);
    // The short let's place by the start of its name, in Greek or Russian (its title is English).
    expect((await q('Χαλκ', 'STR')).map((i) => i.id)).toEqual([shortLet.id]);
    expect((await q('халкид', 'STR')).map((i) => i.id)).toEqual([shortLet.id]);
    expect(await q('Χαλ', 'STR')).toEqual([]);
    expect(await q('   ')).toEqual([]);
    expect((await admin.get('/api/object/searchByRefNumOrTitle?options=all')).statusCode).toBe(400);
  });

  it("finds a short let by the code its listing site gives it, and a place by a later word of its name", async () => {
    const q = async (s: string) => (await admin.get(`/api/object/searchByRefNumOrTitle?searchStr=${encodeURIComponent(s)}&options=STR`)).json().items as { id: number; description: string }[];
    const villa = await make({ title: 'Seaside villa', forShortRent: true, shortRentPrice: 200, locationId: nea!.id, websiteCode: 'TH-7020' });
    for (const typed of ['TH-7020', 'th-70', 'Th-7020']) expect((await q(typed)).map((i) => i.id), typed).toEqual([villa.id]);
    expect((await q('TH-7020'))[0]!.description).toBe(`#${villa.referenceNumber} (TH-7020) · Seaside villa`);
    expect(await q('TH-9')).toEqual([]);
    for (const typed of ['Καλλικράτεια', 'kallikrateia', 'Νέα Καλλικράτεια']) expect((await q(typed)).map((i) => i.id), typed).toEqual([villa.id]);
  });

  it("finds, by a place's name, the properties there and in the areas inside it, and by a kind's name those of that kind", async () => {
    const objectHits = async (text: string) =>
      ((await admin.get(`/api/search?searchStr=${encodeURIComponent(text)}`)).json().items as { id: number; entity: string }[]).filter((h) => h.entity === 'Object').map((h) => h.id).sort((a, b) => a - b);
    // Kalamaria: the studio there and the penthouse in Karampournaki (titled by neither place).
    for (const typed of ['Καλαμαριά', 'καλαμαρια', 'Kalamaria', 'Каламария']) expect(await objectHits(typed), typed).toEqual(sorted(sale, rent));
    // A kind of property in any language: the maisonette's kind is a maisonette; "Βίλα" names another kind.
    const maisonette = await make({ title: 'Family home', forSale: true, salePrice: 250000, subTypeObjectTypeId: 1, objectSubTypeId: 3 });
    const kindEl = app.translator.t('el', 'objects.list.objectSubTypes.3');
    expect(await objectHits(kindEl.toLowerCase())).toContain(maisonette.id);
    expect(await objectHits(app.translator.t('en', 'objects.list.objectSubTypes.3'))).toContain(maisonette.id);
    expect(await objectHits(app.translator.t('el', 'objects.list.objectSubTypes.5'))).not.toContain(maisonette.id);
  });

  it("shows what the text itself matches before the properties of the place it names", async () => {
    // Titled by the place, elsewhere, and newer (a higher reference number) than the two there.
    const titled = await make({ title: 'Sea view flat, ten minutes from Καλαμαριά', forSale: true, salePrice: 180000 });
    const hits = ((await admin.get(`/api/search?searchStr=${encodeURIComponent('Καλαμαριά')}`)).json().items as { id: number; entity: string }[]).filter((h) => h.entity === 'Object');
    expect(hits.map((h) => h.id)).toEqual([titled.id, ...sorted(sale, rent)]);
  });

  it('keeps a reference number of five digits whole in the search text and the words, not also cut to its first four', async () => {
    const five = await make({ title: 'Loft on the harbour', forSale: true, salePrice: 90000 });
    const four = await make({ title: 'Loft by the park', forSale: true, salePrice: 80000 });
    await t.db.execute(sql`update objects set reference_number = case when id = ${five.id} then 12345 else 1234 end where id in (${five.id}, ${four.id})`);
    // Stored: "12345" as shown and bare, no "1234" of its own (0011 wrote "1234 12345").
    const [stored] = (await t.db.execute<{ text: string; words: string[] }>(sql`select o.search_text as text,
      array(select w.word from object_words w where w.object_id = o.id order by w.word) as words from objects o where o.id = ${five.id}`)).rows;
    expect(stored!.text.split(' ').slice(0, 2)).toEqual(['12345', '12345']);
    expect(stored!.words).toContain('12345');
    expect(stored!.words).not.toContain('1234');
    const found = async (typed: string) => ({
      search: ((await admin.get(`/api/search?searchStr=${encodeURIComponent(typed)}`)).json().items as { id: number; entity: string }[]).filter((h) => h.entity === 'Object').map((h) => h.id),
      picker: ((await admin.get(`/api/object/searchByRefNumOrTitle?searchStr=${encodeURIComponent(typed)}`)).json().items as { id: number }[]).map((h) => h.id),
    });
    for (const typed of ['12345', '#12345', 'ref12345']) {
      const { search, picker } = await found(typed);
      expect(search[0], typed).toBe(five.id);
      expect(picker[0], typed).toBe(five.id);
      expect(search, typed).not.toContain(four.id);
    }
    // «1234» is property 1234 first; 12345 only after it, as a number starting with those digits.
    for (const hits of Object.values(await found('1234'))) expect(hits.slice(0, 2)).toEqual([four.id, five.id]);
  });

  it('answers global search with Object hits that link to the object', async () => {
    const hits = (await admin.get(`/api/search?searchStr=ref${both.referenceNumber}`)).json().items;
    expect(hits[0]).toEqual({ id: both.id, entity: 'Object', description: `#${both.referenceNumber} · Maisonette Panorama` });
    const byTitle = (await admin.get('/api/search?searchStr=maisonette')).json().items;
    expect(byTitle).toContainEqual({ id: both.id, entity: 'Object', description: `#${both.referenceNumber} · Maisonette Panorama` });
    // a phone number is no reference number
    expect((await admin.get('/api/search?searchStr=6944123456')).statusCode).toBe(200);
    // The reference typed as digits, unpadded or padded with #: the property comes before contacts
    // whose phone numbers hold the same digits.
    const digits = String(Number(both.referenceNumber));
    await t.db.insert(accounts).values([1, 2, 3].map((i) => ({ firstName: 'Ρένα', lastName: `Τηλέφωνο${i}`, isClient: true, phones: [`+30 210 ${i}${digits.padStart(4, '0')}`] })));
    for (const typed of [digits, `#${both.referenceNumber}`, both.referenceNumber]) {
      const items = (await admin.get(`/api/search?searchStr=${encodeURIComponent(typed)}`)).json().items as { id: number; entity: string }[];
      expect(items.some((h) => h.entity !== 'Object'), typed).toBe(true);
      expect(items[0], typed).toMatchObject({ id: both.id, entity: 'Object' });
    }
  });
});
