import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, alerts, files, leadObjects, locations, objects } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { leadsOfEmail, photoMaker, publishableObject, sendEnquiry } from '../../../test/records.ts';
import { runPublish } from './publishing.service.ts';

/**
 * The review of the public listing pages (decision 022): what a visitor sees and what is stored.
 * The public address is configured (PUBLIC_URL); requests come with another Host, which must not leak.
 */
const PUBLIC = 'https://homes.example.gr';
const t = await createTestApp({ PUBLIC_URL: PUBLIC });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

async function settle() {
  const jobs = (app as unknown as { jobs?: { drain: (ms?: number) => Promise<void> } }).jobs;
  if (jobs) await jobs.drain();
  await Promise.all([...app.pendingWork]);
}

async function place(level: number, names: [string, string, string], parent?: { id: number; path: number[] }) {
  const [l] = await db
    .insert(locations)
    .values({ level, parentId: parent?.id ?? null, nameEn: names[0], nameEl: names[1], nameRu: names[2], path: [] })
    .returning();
  const path = [...(parent?.path ?? []), l!.id];
  await db.update(locations).set({ path }).where(eq(locations.id, l!.id));
  return { id: l!.id, path };
}
const thess = await place(1, ['Thessaloniki', 'Θεσσαλονίκη', 'Салоники']);
const kalamaria = await place(2, ['Kalamaria', 'Καλαμαριά', 'Каламария'], thess);
const thessCity = await place(2, ['Thessaloniki', 'Θεσσαλονίκη', 'Салоники'], thess);
const triadaT = await place(2, ['Agia Triada', 'Αγία Τριάδα', 'Агия Триада'], thess);
const chalk = await place(1, ['Chalkidiki', 'Χαλκιδική', 'Халкидики']);
const kassandra = await place(2, ['Kassandra', 'Κασσάνδρα', 'Кассандра'], chalk);
const triadaC = await place(2, ['Agia Triada', 'Αγία Τριάδα', 'Агия Триада'], chalk);

/** An uploaded picture, not attached to anything yet (as the photo card's upload leaves it). */
const upload = photoMaker(t, 'r', { original: true, stamp: true });
/** Attaches a picture the way the photo card does (POST /api/files/setParent). */
async function attachPhoto(objectId: number) {
  const f = await upload();
  const res = await agent.post('/api/files/setParent', { entityType: LinkKind.Object, id: objectId, fileNames: [f.systemName], type: 'image' });
  expect(res.statusCode, res.body).toBe(200);
  return f;
}
/** A picture put straight into the table (a published object's existing photos). */
async function addPhoto(objectId: number) {
  const f = await upload();
  await db.update(files).set({ parentType: LinkKind.Object, parentId: objectId, type: 'image', sortOrder: f.n }).where(eq(files.id, f.id));
  return f;
}

const completeObject = (values: Record<string, unknown> = {}) => publishableObject(db, { title: 'Bright flat near the sea', locationId: kalamaria.id, ...values });
async function publishedObject(values: Record<string, unknown> = {}) {
  const o = await completeObject({ ...values, publishRequested: true });
  await addPhoto(o.id);
  expect((await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).state).toBe('published');
  app.publicPages.clear();
  return o;
}
const state = async (id: number) => (await agent.get(`/api/object/publishState/${id}`)).json();
const page = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { host: 'evil.example:8080', ...headers } });
const meta = (body: string, attr: string, name: string) => new RegExp(`<meta ${attr}="${name}" content="([^"]*)">`).exec(body)?.[1];

describe("an object's photos and its publishing", () => {
  it('publishes a refused object once its missing photo is added on the photo card', async () => {
    const o = await completeObject({ publishRequested: true });
    await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } });
    expect((await state(o.id)).publishError).toBe('Not published: no photo.');
    await attachPhoto(o.id);
    await settle();
    expect(await state(o.id)).toMatchObject({ published: true, publishError: null });
    expect((await page(`/listings/${o.ref}?lang=en`)).statusCode).toBe(200);
  });

  it('refuses a published object whose only photo is deleted, and its page says it is no longer on the site', async () => {
    const o = await publishedObject({ title: 'Loses its photo' });
    const [photo] = await db.select().from(files).where(and(eq(files.parentType, LinkKind.Object), eq(files.parentId, o.id)));
    expect((await page(`/listings/${o.ref}?lang=en`)).statusCode).toBe(200);
    const res = await agent.del(`/api/files/${photo!.systemName}`);
    expect(res.statusCode, res.body).toBe(200);
    await settle();
    expect(await state(o.id)).toMatchObject({ published: false, publishError: 'Not published: no photo.' });
    expect((await page(`/listings/${o.ref}?lang=en`)).statusCode).toBe(410);
    expect((await page('/listings?lang=en')).body).not.toContain('Loses its photo');
  });

  it('shows the new first photo after a reordering, and the object counts as updated', async () => {
    const o = await publishedObject({ title: 'Reordered photos' });
    const second = await addPhoto(o.id);
    const [before] = await db.select({ lastUpdate: objects.lastUpdate }).from(objects).where(eq(objects.id, o.id));
    const first = (await page(`/listings/${o.ref}?lang=en`)).body;
    expect(meta(first, 'property', 'og:image')).not.toContain(second.systemName);
    const res = await agent.post('/api/files/reorder', { ids: [second.id] });
    expect(res.statusCode, res.body).toBe(200);
    await settle();
    const [after] = await db.select({ lastUpdate: objects.lastUpdate }).from(objects).where(eq(objects.id, o.id));
    expect(after!.lastUpdate!.getTime()).toBeGreaterThan(before!.lastUpdate!.getTime());
    expect(meta((await page(`/listings/${o.ref}?lang=en`)).body, 'property', 'og:image')).toBe(`${PUBLIC}/listings/photo/${second.webName}`);
  });
});

describe('the public pages', () => {
  it('takes any whole-euro price in the price filter (a rent of 450)', async () => {
    const rent = await publishedObject({ title: 'Rent of 450', forSale: false, salePrice: null, forRent: true, rentPrice: 450 });
    const list = (await page('/listings?lang=en&service=rent&priceMax=450')).body;
    expect(list).toContain('name="priceMin" type="number" min="0" step="1" ');
    expect(list).toContain('name="priceMax" type="number" min="0" step="1" ');
    expect(list).not.toContain('step="1000"');
    expect(list).toContain(`data-ref="${rent.ref}"`);
  });

  it('filters and sorts by the prices a property is offered at, not one left from a service it no longer offers', async () => {
    const rentOnly = await publishedObject({ title: 'Let only, old sale price', forSale: false, salePrice: 250000, forRent: true, rentPrice: 800 });
    const both = await publishedObject({ title: 'Sale and let', forSale: true, salePrice: 200000, forRent: true, rentPrice: 900 });
    const cheap = (await page('/listings?lang=en&priceMax=1000')).body;
    expect(cheap).toContain(`data-ref="${rentOnly.ref}"`);
    expect(cheap).toContain(`data-ref="${both.ref}"`);
    const dear = (await page('/listings?lang=en&priceMin=240000')).body;
    expect(dear).not.toContain(`data-ref="${rentOnly.ref}"`);
    // Low to high: the let at 800 a month comes before the sale at 200 000.
    const sorted = (await page('/listings?lang=en&sort=priceAsc&perPage=100')).body;
    const at = (ref: string) => sorted.indexOf(`data-ref="${ref}"`);
    expect(at(rentOnly.ref)).toBeGreaterThanOrEqual(0);
    expect(at(rentOnly.ref)).toBeLessThan(at(both.ref));
  });

  it('sends a GET of the form\'s address to the property\'s form, never to the CRM', async () => {
    const o = await publishedObject();
    const res = await page(`/listings/${o.ref}/contact?lang=en`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/listings/${o.ref}?lang=en#contact`);
    expect((await page(`/listings/ref${o.ref}/contact`)).headers.location).toBe(`/listings/${o.ref}#contact`);
    expect(res.body).not.toContain('Agency CRM');
  });

  it('shares well: og tags, one canonical address for every alias, absolute hreflang with x-default, from PUBLIC_URL', async () => {
    const long =
      'A bright and quiet flat on the third floor of a well kept building, two bedrooms, a large living room with a balcony towards the sea, air conditioning, a renovated kitchen and bathroom.';
    const o = await publishedObject({ title: 'Share me', description: long });
    const [photo] = await db.select().from(files).where(and(eq(files.parentType, LinkKind.Object), eq(files.parentId, o.id)));
    const canonical = `${PUBLIC}/listings/${o.ref}?lang=en`;
    for (const alias of [`/listings/${o.ref}?lang=en`, `/listings/${o.n}?lang=en`, `/listings/ref${o.ref}?lang=en`, `/listings/${o.ref}/?lang=en`, `/listings/00000${o.n}?lang=en`]) {
      const res = await page(alias);
      expect(res.statusCode, alias).toBe(200);
      expect(res.body, alias).toContain(`<link rel="canonical" href="${canonical}">`);
    }
    const body = (await page(`/listings/${o.ref}`, { 'accept-language': 'en' })).body;
    expect(body).toContain(`<link rel="canonical" href="${canonical}">`);
    expect(meta(body, 'property', 'og:url')).toBe(canonical);
    expect(meta(body, 'property', 'og:title')).toBe('Share me');
    expect(meta(body, 'property', 'og:image')).toBe(`${PUBLIC}/listings/photo/${photo!.webName}`);
    expect(body).toContain(`<link rel="alternate" hreflang="el" href="${PUBLIC}/listings/${o.ref}?lang=el">`);
    expect(body).toContain(`<link rel="alternate" hreflang="ru" href="${PUBLIC}/listings/${o.ref}?lang=ru">`);
    expect(body).toContain(`<link rel="alternate" hreflang="x-default" href="${PUBLIC}/listings/${o.ref}">`);
    expect(body).not.toContain('evil.example');
    // Cut at a word, with an ellipsis; the same text for link previews.
    const description = meta(body, 'name', 'description')!;
    expect(description.length).toBeLessThanOrEqual(160);
    expect(description.endsWith('…')).toBe(true);
    expect(long.startsWith(description.slice(0, -1))).toBe(true);
    expect(long[description.length - 1]).toBe(' ');
    expect(meta(body, 'property', 'og:description')).toBe(description);
  });

  it('titles a filtered list by what it lists, in the page\'s language', async () => {
    await publishedObject({ title: 'Flat to let in Kalamaria', forSale: false, salePrice: null, forRent: true, rentPrice: 700 });
    const en = (await page(`/listings?lang=en&service=rent&kind=s1&place=${kalamaria.id}`)).body;
    expect(en).toContain('<h1>Apartments for rent in Kalamaria</h1>');
    expect(en).toContain('<title>Apartments for rent in Kalamaria · ');
    expect(en).toContain(`<link rel="canonical" href="${PUBLIC}/listings?lang=en&amp;service=rent&amp;kind=s1&amp;place=${kalamaria.id}">`);
    expect((await page(`/listings?lang=el&service=rent&kind=s1&place=${kalamaria.id}`)).body).toContain('<h1>Διαμερίσματα προς ενοικίαση – Καλαμαριά</h1>');
    expect((await page('/listings?lang=ru&service=sale')).body).toContain('<h1>Недвижимость на продажу</h1>');
    expect((await page('/listings?lang=en')).body).toContain('<h1>Properties for sale and rent</h1>');
  });

  it('lists the areas under their own region, and tells apart places of the same name; a chosen place reads as its name, never indented', async () => {
    for (const p of [kassandra, thessCity, triadaT, triadaC]) await publishedObject({ locationId: p.id });
    // The filter as a list of lines: a region's name (its group), then its choices; no text of a
    // choice starts with spaces, which the closed box would show (decision 022).
    const filter = (body: string) => {
      const select = /<select id="f-place" name="place">(.*?)<\/select>/s.exec(body)![1]!;
      return [...select.matchAll(/<optgroup label="([^"]*)">|<option value="(\d*)"[^>]*>([^<]*)<\/option>/g)].map((m) => (m[1] !== undefined ? `[${m[1]}]` : m[3]!));
    };
    const options = filter((await page('/listings?lang=en')).body);
    expect(options).toEqual([
      'Any',
      '[Chalkidiki]',
      'Chalkidiki – all areas',
      'Agia Triada (Chalkidiki)',
      'Kassandra',
      '[Thessaloniki]',
      'Thessaloniki – all areas',
      'Agia Triada (Thessaloniki)',
      'Kalamaria',
      'Thessaloniki',
    ]);
    for (const o of options) expect(o).not.toMatch(/^[\s\u00a0]/);
    // Chosen, the place is selected by its own name.
    expect((await page(`/listings?lang=en&place=${kalamaria.id}`)).body).toContain(`<option value="${kalamaria.id}" selected>Kalamaria</option>`);
    // In Greek, Χαλκιδική sorts after Θεσσαλονίκη, and takes its places with it.
    const el = filter((await page('/listings?lang=el')).body);
    expect(el.indexOf('Κασσάνδρα')).toBe(el.indexOf('[Χαλκιδική]') + 3);
    expect(el.indexOf('[Χαλκιδική]')).toBeGreaterThan(el.indexOf('Καλαμαριά'));
  });

  it('says how many pages there are when the page asked for is past the last', async () => {
    const res = await page('/listings?lang=en&page=99');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('No property matches these filters.');
    expect(res.body).toContain('There is no such page: the results end at page 1.');
    expect(res.body).toContain('<meta name="robots" content="noindex">');
  });

  it('writes floor 0 as the ground floor, leaves out "Bedrooms: 0", and uses the language\'s decimal separator', async () => {
    const o = await publishedObject({ title: 'Studio on the ground floor', objectSubTypeId: 2, floor: 0, bedrooms: 0, distanceFromSea: 1500, distanceFromAirport: 60000 });
    const en = (await page(`/listings/${o.ref}?lang=en`)).body;
    expect(en).toContain('<dt>Floor</dt><dd>Ground floor</dd>');
    expect(en).toContain('<dd>1.5\u00a0km</dd>');
    // Whole kilometres as agents write them, without ".0".
    expect(en).toContain('<dd>60\u00a0km</dd>');
    expect(en).not.toContain('<dt>Bedrooms</dt>');
    const el = (await page(`/listings/${o.ref}?lang=el`)).body;
    expect(el).toContain('<dd>Ισόγειο</dd>');
    expect(el).toContain('<dd>1,5\u00a0χλμ.</dd>');
    expect(el).toContain('<dd>60\u00a0χλμ.</dd>');
    const ru = (await page(`/listings/${o.ref}?lang=ru`)).body;
    expect(ru).toContain('<dd>Первый (на уровне земли)</dd>');
    expect(ru).toContain('<dd>1,5\u00a0км</dd>');
    const card = /<article class="card" data-ref="[^"]*">(?:(?!<\/article>).)*Studio on the ground floor(?:(?!<\/article>).)*<\/article>/s.exec((await page('/listings?lang=en')).body)![0];
    expect(card).not.toContain('Bedrooms');
  });

  it('shows the living rooms and the other facts a buyer looks for, in three languages, in the API and the feed', async () => {
    const o = await publishedObject({
      title: 'Family flat with two living rooms',
      bedrooms: 3,
      livingRooms: 2,
      kitchens: 1,
      bathrooms: 2,
      wc: 1,
      floor: 3,
      constructionYear: 2008,
      energyClass: 4,
      heating: 1,
      parkingLots: 1,
      framesType: 4,
      floorsType: 2,
      orientation: [5, 3],
      accessFrom: 1,
      zone: 1,
      lotArea: 400,
      buildableArea: 320.5,
      address: 'Tsimiski 10',
      zipCode: '546 24',
      displayAddress: true,
    });
    const facts = (body: string) => Object.fromEntries([...body.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]));
    const en = facts((await page(`/listings/${o.ref}?lang=en`)).body);
    expect(en).toMatchObject({
      Bedrooms: '3',
      'Living rooms': '2',
      Kitchens: '1',
      Bathrooms: '2',
      WC: '1',
      Floor: '3',
      'Window frames': 'Aluminium with thermal break',
      Flooring: 'Marble',
      Orientation: 'East, South',
      'Access from': 'Asphalt road',
      Zone: 'Residential',
      'Buildable area': '320.5\u00a0m²',
      Address: 'Tsimiski 10',
      Postcode: '546 24',
    });
    const el = facts((await page(`/listings/${o.ref}?lang=el`)).body);
    expect(el).toMatchObject({ Σαλόνια: '2', Κουζίνες: '1', Τουαλέτες: '1', Κουφώματα: 'Αλουμίνιο με θερμοδιακοπή', Δάπεδα: 'Μάρμαρο', Προσανατολισμός: 'Ανατολικός, Νότιος', 'Τ.Κ.': '546 24' });
    const ru = facts((await page(`/listings/${o.ref}?lang=ru`)).body);
    expect(ru).toMatchObject({ Гостиные: '2', Кухни: '1', Туалеты: '1', 'Оконные рамы': expect.any(String), Ориентация: expect.stringContaining(', ') });
    // The JSON API and the portal feed carry the same facts.
    const api = (await page(`/api/public/listings/${o.ref}?lang=en`)).json();
    expect(api.facts).toEqual(expect.arrayContaining([{ key: 'livingRooms', value: 2 }, { key: 'kitchens', value: 1 }, { key: 'wc', value: 1 }, { key: 'orientation', value: 'East, South' }]));
    const feed = (await page('/feed/listings.xml?lang=en')).body;
    const listing = new RegExp(`<listing ref="${o.ref}"[^>]*>.*?</listing>`, 's').exec(feed)![0];
    expect(listing).toContain('<livingRooms>2</livingRooms>');
    expect(listing).toContain('<buildableArea>320.5</buildableArea>');
  });

  it('leaves out a room count of 0, and the postcode when the address is hidden', async () => {
    const o = await publishedObject({ title: 'Studio, address hidden', objectSubTypeId: 2, bedrooms: 0, livingRooms: 0, wc: 0, bathrooms: 1, address: 'Hidden street 5', zipCode: '551 33', displayAddress: false, mapCircleLatitude: 40.59, mapCircleLongitude: 22.96, mapCircleRadius: 1000 });
    const body = (await page(`/listings/${o.ref}?lang=en`)).body;
    expect(body).toContain('<dt>Bathrooms</dt><dd>1</dd>');
    for (const label of ['Bedrooms', 'Living rooms', 'WC', 'Postcode', 'Address']) expect(body).not.toContain(`<dt>${label}</dt>`);
    expect(body).not.toContain('551 33');
    expect(JSON.stringify((await page(`/api/public/listings/${o.ref}`)).json())).not.toContain('551 33');
    expect((await page('/feed/listings.xml?lang=en')).body).not.toContain('551 33');
  });

  it('says on the card when a let flat is free, or that it is let', async () => {
    await publishedObject({ title: 'Let until 2030', forSale: false, salePrice: null, forRent: true, rentPrice: 600, rented: true, dateAvailable: '2030-03-26' });
    await publishedObject({ title: 'Let, no date', forSale: false, salePrice: null, forRent: true, rentPrice: 650, rented: true });
    await publishedObject({ title: 'Free now', forSale: false, salePrice: null, forRent: true, rentPrice: 680 });
    const cards = (await page('/listings?lang=en&service=rent')).body;
    const card = (title: string) => [...cards.matchAll(/<article class="card"(?:(?!<\/article>).)*<\/article>/gs)].map((m) => m[0]).find((c) => c.includes(title))!;
    expect(card('Let until 2030')).toContain('Available from 26 March 2030');
    expect(card('Let, no date')).toContain('Currently let');
    expect(card('Free now')).not.toContain('data-testid="available-from"');
    expect((await page('/listings?lang=el&service=rent')).body).toContain('Διαθέσιμο από 26 Μαρτίου 2030');
    expect((await page('/listings?lang=ru&service=rent')).body).toContain('Свободен с 26 марта 2030');
  });
});

describe('the contact form', () => {
  let ip = 20;
  const send = (ref: string, form: Record<string, string>, address = `10.1.0.${ip++}`, lang = 'en') => sendEnquiry(app, ref, form, { address, lang });
  const leadsOf = (email: string) => leadsOfEmail(db, email);

  it('makes one lead and one alert of the same enquiry sent twice, and thanks both times', async () => {
    const o = await publishedObject({ title: 'Asked twice' });
    const form = { name: 'Maria Resend', email: 'maria.resend@example.gr', phone: '6944 123456', message: 'Is it still available?' };
    const first = await send(o.ref, form);
    const again = await send(o.ref, form, '10.1.1.1');
    expect(first.statusCode).toBe(303);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(first.headers.location);
    const made = await leadsOf('maria.resend@example.gr');
    expect(made).toHaveLength(1);
    expect(await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, made[0]!.id)))).toHaveLength(1);
    // Another message is another enquiry.
    expect((await send(o.ref, { ...form, message: 'And is there parking?' })).statusCode).toBe(303);
    expect(await leadsOf('maria.resend@example.gr')).toHaveLength(2);
    // The lead's text names the fields without the form's "(optional)".
    const description = String((made[0] as Record<string, unknown>).description);
    expect(description).toContain('Τηλέφωνο: 6944 123456');
    expect(description).not.toMatch(/προαιρετικ|optional/i);
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, made[0]!.id))).toMatchObject([{ objectId: o.id }]);
  });

  it('two first enquiries from one new e-mail at once, about two properties, make one client with two leads', async () => {
    const a = await publishedObject({ title: 'First of two' });
    const b = await publishedObject({ title: 'Second of two' });
    const form = { name: 'Nikos Twice', email: 'nikos.twice@example.gr', message: 'Both interest me.' };
    const [one, two] = await Promise.all([send(a.ref, form), send(b.ref, form)]);
    expect([one.statusCode, two.statusCode]).toEqual([303, 303]);
    const clients = await db.select().from(accounts).where(sql`'nikos.twice@example.gr' = any(${accounts.emails})`);
    expect(clients).toHaveLength(1);
    expect(await leadsOf('nikos.twice@example.gr')).toHaveLength(2);
  });

  it('an enquiry about a property withdrawn meanwhile is kept, its lead saying so (decision 022)', async () => {
    const { createEnquiry } = await import('./public.service.ts');
    const o = await publishedObject({ title: 'Withdrawn while typing' });
    await db.update(objects).set({ publishRequested: false } as never).where(eq(objects.id, o.id));
    const made = await createEnquiry(app, o.n, { name: 'Late Visitor', email: 'late.visitor@example.gr', phone: null, message: 'Still there?' }, 'en', (k, p) => app.translator.t('en', k, p));
    expect(made).toMatchObject({ listed: false, newAccount: true });
    const [lead] = await leadsOf('late.visitor@example.gr');
    expect(String((lead as Record<string, unknown>).description)).toMatch(new RegExp(`^Website enquiry about property ${o.ref} \\(sent when it was no longer on the website\\)\nStill there\\?`));
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, lead!.id))).toMatchObject([{ objectId: o.id }]);
  });

  it('answers too many enquiries with the form and what was typed, and promises no phone call', async () => {
    const o = await publishedObject({ title: 'Popular flat' });
    const addr = '198.51.100.9';
    for (let i = 0; i < 5; i++) expect((await send(o.ref, { name: `Visitor ${i}`, email: `v${i}@example.com`, message: `Hello ${i}` }, addr)).statusCode).toBe(303);
    for (const lang of ['en', 'el', 'ru']) {
      const res = await send(o.ref, { name: 'Eleni Late', email: 'eleni.late@example.gr', phone: '2310 123456', message: 'Can I see it on Saturday?' }, addr, lang);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toContain(`<html lang="${lang}"`);
      expect(res.body).toContain('data-testid="contact-form"');
      expect(res.body).toContain('value="Eleni Late"');
      expect(res.body).toContain('value="eleni.late@example.gr"');
      expect(res.body).toContain('value="2310 123456"');
      expect(res.body).toContain('>Can I see it on Saturday?</textarea>');
      expect(res.body).not.toMatch(/call us|τηλεφωνήστε|позвоните/i);
    }
    expect(await leadsOf('eleni.late@example.gr')).toHaveLength(0);
  });
});
