import { beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { isServerPage } from '@crm/contract/constants';
import { accounts, actionLog, alerts, leadObjects, leads, locations, objects, siteSettings } from '../../db/schema/index.ts';
import { createTestApp, patchField, type CallOptions } from '../../../test/harness.ts';
import { photoMaker, publishableObject, sendEnquiry } from '../../../test/records.ts';
import { PUBLISH_JOB, objectsAwaitingPublish, runPublish } from './publishing.service.ts';

const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });
const el = { lang: 'el' };

/** Waits for the publishing work started by the calls so far. */
async function settle() {
  const jobs = (app as unknown as { jobs?: { drain: (ms?: number) => Promise<void> } }).jobs;
  if (jobs) await jobs.drain();
  await Promise.all([...app.pendingWork]);
}

const [thess] = await db.insert(locations).values({ level: 1, nameEn: 'Thessaloniki', nameEl: 'Θεσσαλονίκη', nameRu: 'Салоники', path: [] }).returning();
await db.update(locations).set({ path: [thess!.id] }).where(eq(locations.id, thess!.id));
const [kalamaria] = await db
  .insert(locations)
  .values({ level: 2, parentId: thess!.id, nameEn: 'Kalamaria', nameEl: 'Καλαμαριά', nameRu: 'Каламария', path: [] })
  .returning();
// The staff's text tells the municipality from its namesake area; visitors read the place without that word.
await db.update(locations).set({ path: [thess!.id, kalamaria!.id], textEn: 'Kalamaria (municipality), Thessaloniki', textEl: 'Καλαμαριά (δήμος), Θεσσαλονίκη' }).where(eq(locations.id, kalamaria!.id));

const photo = photoMaker(t, 'p', { original: true, stamp: true });
const addPhoto = async (objectId: number, userName = 'IMG_0001.jpg') => (await photo(objectId, { userName })).systemName;

/** A complete object, ready to be published (not yet requested). */
async function completeObject(values: Record<string, unknown> = {}) {
  const { id, ref } = await publishableObject(db, { title: 'Sunny flat by the sea', description: 'Three bedrooms, renovated in 2020.', area: 96, bedrooms: 3, locationId: kalamaria!.id, ...values });
  return { id, ref };
}

/** A complete object with a photo, published by the publishing work itself. */
async function publishedObject(values: Record<string, unknown> = {}) {
  const o = await completeObject({ ...values, publishRequested: true });
  await addPhoto(o.id);
  expect((await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).state).toBe('published');
  return o;
}

async function update(id: number, fields: Record<string, unknown>) {
  const current = (await agent.get(`/api/object/edit/${id}`)).json().object;
  const res = await agent.post('/api/object/update', { id, version: current.version, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const patch = (id: number, field: string, value: unknown) => patchField(agent, 'object', id, field, value);
const state = async (id: number, opts?: CallOptions) => (await agent.get(`/api/object/publishState/${id}`, opts)).json();
const page = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });

describe('publishing an object', () => {
  it('answers "in progress" at once, then publishes a complete object, and logs it', async () => {
    const o = await completeObject();
    await addPhoto(o.id);
    const saved = await update(o.id, { publishRequested: true });
    // As saved: requested, neither published nor refused yet — the form reads 'Publish is in progress'.
    expect(saved).toMatchObject({ publishRequested: true, published: false, publishError: null });
    await settle();
    expect(await state(o.id)).toMatchObject({ publishRequested: true, published: true, publishError: null, referenceNumber: o.ref });
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Object'), eq(actionLog.entityId, o.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Publish' });
    expect((await page(`/listings/${o.ref}?lang=en`)).statusCode).toBe(200);
  });

  it('refuses an object without a photo: publishError names what is missing, in the reader\'s language', async () => {
    const o = await completeObject({ salePrice: null, description: '  ' });
    await update(o.id, { publishRequested: true });
    await settle();
    const en = await state(o.id);
    expect(en).toMatchObject({ publishRequested: true, published: false });
    expect(en.publishError).toBe('Not published: no sale price; no description; no photo.');
    const gr = await state(o.id, el);
    expect(gr.publishError).toBe('Δεν δημοσιεύτηκε: λείπει η τιμή πώλησης· λείπει η περιγραφή· δεν υπάρχει φωτογραφία.');
    // The object's own answers (edit, view) carry the same text.
    const edit = (await agent.get(`/api/object/edit/${o.id}`)).json().object;
    expect(edit.publishError).toBe(en.publishError);
    expect((await page(`/listings/${o.ref}`)).statusCode).toBe(404);
    // The office is told: an alert about the object, in the reader's language.
    const [alert] = await db.select().from(alerts).where(and(eq(alerts.entity, 'Object'), eq(alerts.entityId, o.id)));
    expect(alert).toMatchObject({ source: 'Publishing', messageKey: 'publishing.alert.refused' });
    expect(alert!.content).toBe(`Property #${o.ref} was not published on the website: no sale price; no description; no photo.`);
    const jobs = await db.execute(sql`select name, state from jobs where payload->>'objectId' = ${String(o.id)}`);
    expect(jobs.rows).toEqual([{ name: PUBLISH_JOB, state: 'done' }]);
    // Refused again while the gaps are filled (each save runs the job): still one unread alert, saying what is missing now.
    await update(o.id, { salePrice: 180000 });
    await settle();
    const now = await db.select().from(alerts).where(and(eq(alerts.entity, 'Object'), eq(alerts.entityId, o.id)));
    expect(now.map((a) => a.content)).toEqual([`Property #${o.ref} was not published on the website: no description; no photo.`]);
  });

  it('names a missing title, type and service', async () => {
    const o = await completeObject({ title: null, objectSubTypeId: null, subTypeObjectTypeId: null, forSale: false, displayCoordinates: false });
    await addPhoto(o.id);
    await update(o.id, { publishRequested: true, mapCircleLatitude: 40.58, mapCircleLongitude: 22.95, mapCircleRadius: 500 });
    await settle();
    expect((await state(o.id)).publishError).toBe('Not published: no title; no property type; not marked for sale, rent or short stays.');
  });

  it('names a missing approximate circle when the exact point is hidden', async () => {
    const o = await completeObject({ displayCoordinates: false, publishRequested: true });
    await addPhoto(o.id);
    const out = await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } });
    expect(out).toMatchObject({ state: 'refused', codes: ['publishing.missing.mapCircle'] });
    expect((await state(o.id)).publishError).toBe('Not published: no approximate area on the map (the exact point is hidden).');
  });

  it('judges again when the missing thing is added: the error goes, in progress, then published', async () => {
    const o = await completeObject();
    await update(o.id, { publishRequested: true });
    await settle();
    expect((await state(o.id)).publishError).toMatch(/no photo/);
    await addPhoto(o.id);
    // Any saved change of a refused object asks again (here one field, through the single-field editor).
    const res = await patch(o.id, 'title', 'Sunny flat by the sea, with a photo');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().dto).toMatchObject({ publishRequested: true, published: false, publishError: null });
    await settle();
    expect(await state(o.id)).toMatchObject({ published: true, publishError: null });
    // The alert that told of the refusal goes with it: nothing is missing any more.
    expect(await db.select().from(alerts).where(and(eq(alerts.entity, 'Object'), eq(alerts.entityId, o.id)))).toEqual([]);
  });

  it('unpublishes the same way: the request withdrawn, the public pages and the feed no longer show it', async () => {
    const o = await completeObject({ title: 'Withdrawn villa' });
    await addPhoto(o.id);
    await update(o.id, { publishRequested: true });
    await settle();
    expect((await page('/feed/listings.xml')).body).toContain(`ref="${o.ref}"`);
    // Seen (and so kept a while by the page cache) before it is withdrawn.
    expect((await page(`/listings/${o.ref}`)).statusCode).toBe(200);
    expect((await page(`/api/public/listings/${o.ref}`)).statusCode).toBe(200);
    const res = await patch(o.id, 'publishRequested', false);
    expect(res.statusCode, res.body).toBe(200);
    await settle();
    expect(await state(o.id)).toMatchObject({ publishRequested: false, published: false, publishError: null });
    // Gone for good, and said so (it was on the site): not a bare "not found".
    expect((await page(`/listings/${o.ref}`)).statusCode).toBe(410);
    expect((await page(`/api/public/listings/${o.ref}`)).statusCode).toBe(410);
    expect((await page('/feed/listings.xml')).body).not.toContain(`ref="${o.ref}"`);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Object'), eq(actionLog.entityId, o.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Unpublish' });
  });

  it('does not show a published object that is made inactive, and a refusal says so', async () => {
    const o = await completeObject({ title: 'Soon inactive' });
    await addPhoto(o.id);
    await update(o.id, { publishRequested: true });
    await settle();
    await update(o.id, { active: false });
    await settle();
    expect(await state(o.id)).toMatchObject({ published: false, publishError: 'Not published: the property is not active.' });
    expect((await page(`/listings/${o.ref}`)).statusCode).toBe(410);
  });

  it('finds a request whose work was lost (judged at start-up), and not once it is judged', async () => {
    const o = await completeObject({ publishRequested: true });
    expect(await objectsAwaitingPublish(db)).toContain(o.id);
    await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } });
    expect(await objectsAwaitingPublish(db)).not.toContain(o.id);
  });

  it('finds at start-up a property sold while it stayed published (its sale closed before a closing queued the publishing), and not once it is judged', async () => {
    const o = await publishedObject({ title: 'Sold before the closing took it off' });
    await db.update(objects).set({ sold: true } as never).where(eq(objects.id, o.id));
    expect(await state(o.id)).toMatchObject({ published: true, publishError: null });
    expect(await objectsAwaitingPublish(db)).toContain(o.id);
    expect((await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).state).toBe('refused');
    expect(await state(o.id)).toMatchObject({ published: false, publishError: 'Not published: the property is sold (a sale of it is closed).' });
    expect(await objectsAwaitingPublish(db)).not.toContain(o.id);
  });

  it('runs as a job named for publishing, and its state is for staff only', async () => {
    expect(PUBLISH_JOB).toBe('object-publish');
    const o = await completeObject();
    expect((await app.inject({ url: `/api/object/publishState/${o.id}` })).statusCode).toBe(401);
    expect((await agent.get('/api/object/publishState/2147483647')).statusCode).toBe(404);
  });
});

describe('the public site', () => {
  it("lies under the server's own page addresses, which the web app's service worker leaves to the server", () => {
    // Every GET the server answers outside /api, other than the web app's files and screens (/*).
    const pages = app.routeAccess.filter((r) => r.method === 'GET' && !r.url.startsWith('/api') && r.url !== '/*').map((r) => r.url);
    expect(pages).toContain('/listings');
    expect(pages.filter((u) => !isServerPage(u))).toEqual([]);
    expect(isServerPage('/listingsx')).toBe(false);
    expect(isServerPage('/Objects/View/1')).toBe(false);
  });

  let listed: { id: number; ref: string };
  let rental: { id: number; ref: string };
  beforeAll(async () => {
    listed = await publishedObject({ title: 'Maisonette in Kalamaria', salePrice: 240000, bedrooms: 4, featured: true });
    rental = await publishedObject({ title: 'Studio to let', forSale: false, salePrice: null, forRent: true, rentPrice: 450, bedrooms: 1 });
  });

  it('lists published objects without sign-in, filtered by service, price, type and place', async () => {
    const all = await page('/listings?lang=en');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toMatch(/text\/html/);
    expect(all.headers['cache-control']).toMatch(/public/);
    expect(all.body).toContain('Maisonette in Kalamaria');
    expect(all.body).toContain('Studio to let');
    // The agency's icon, not a browser's guess at /favicon.ico (a 404).
    expect(all.body).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    const rent = await page('/listings?lang=en&service=rent');
    expect(rent.body).toContain('Studio to let');
    expect(rent.body).not.toContain('Maisonette in Kalamaria');
    const pricey = await page('/listings?lang=en&service=sale&priceMin=200000&priceMax=250000&bedrooms=4');
    expect(pricey.body).toContain('Maisonette in Kalamaria');
    // A price typed as a Greek or Russian visitor writes it: the same as the plain number.
    for (const typed of ['250.000', '250%20000', '250,000']) {
      const body = (await page(`/listings?lang=el&service=sale&priceMin=200000&priceMax=${typed}&bedrooms=4`)).body;
      expect(body, typed).toContain('Maisonette in Kalamaria');
      expect(body, typed).toContain('value="250000"');
    }
    expect((await page('/listings?lang=el&service=sale&priceMax=250.5')).body).toContain('id="f-max" name="priceMax" type="number" min="0" step="1" inputmode="numeric" value=""');
    const none = await page('/listings?lang=en&priceMin=999999999');
    expect(none.body).toContain('No property matches these filters.');
    const place = await page(`/listings?lang=en&place=${thess!.id}&kind=t1`);
    expect(place.body).toContain('Maisonette in Kalamaria');
    // A value it cannot read is left out, never an error page.
    expect((await page('/listings?page=-1&priceMin=abc&service=%00&kind=zz')).statusCode).toBe(200);
    // A kind that is no type or subtype is left out too: the page is the whole list, not a text key.
    for (const kind of ['t9', 's18', 's0', 't0']) {
      const odd = await page(`/listings?lang=en&kind=${kind}`);
      expect(odd.statusCode).toBe(200);
      expect(odd.body).not.toContain('publishing.plural');
      expect(odd.body).toContain('Maisonette in Kalamaria');
      expect((await page(`/api/public/listings?kind=${kind}`)).statusCode).toBe(400);
    }
    expect((await page('/api/public/listings?kind=s17')).statusCode).toBe(200);
    // A page far past the last one: empty, with the true total.
    const far = (await page('/api/public/listings?currentPage=5000')).json();
    expect(far.items).toEqual([]);
    expect(far.totalRows).toBeGreaterThan(0);
    const second = (await page('/api/public/listings?perPage=1&currentPage=2')).json();
    expect(second.items).toHaveLength(1);
  });

  it('answers in the visitor\'s language and tells shared caches it depends on it', async () => {
    const gr = await page('/listings', { 'accept-language': 'el-GR,el;q=0.9' });
    expect(gr.body).toContain('<html lang="el"');
    expect(gr.body).toContain('Ακίνητα προς πώληση και ενοικίαση');
    expect(gr.headers.vary).toMatch(/accept-language/i);
    const ru = await page('/listings?lang=ru');
    expect(ru.body).toContain('Недвижимость на продажу и в аренду');
  });

  it('shows an object page with photos, prices and a map point when the object shows its point', async () => {
    const res = await page(`/listings/${listed.ref}?lang=en`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Maisonette in Kalamaria');
    expect(res.body).toContain('240\u00a0000\u00a0€');
    expect(res.body).toMatch(/<img src="\/listings\/photo\/p\d+-web\.webp"/);
    expect(res.body).toContain('data-kind="point"');
    // Its tiles name this site as their referrer (tile servers may refuse requests without one).
    const tiles = res.body.match(/<img src="https:\/\/tile[^>]*>/g) ?? [];
    expect(tiles.length).toBeGreaterThan(0);
    for (const img of tiles) expect(img).toContain('referrerpolicy="strict-origin-when-cross-origin"');
    expect(res.body).toContain('data-testid="contact-form"');
    // Areas in the reader's unit.
    expect(res.body).toMatch(/\d\u00a0m²/);
    const el = (await page(`/listings/${listed.ref}?lang=el`)).body;
    expect(el).toMatch(/\d\u00a0τ\.μ\./);
    expect(el).not.toContain('m²');
  });

  it('shows an English reader the English title and description, others the main ones, and the main ones when there are no English ones', async () => {
    const o = await publishedObject({
      title: 'Μεζονέτα στην Πανόραμα',
      description: 'Μεζονέτα 140 τ.μ. σε τρία επίπεδα, με κήπο.',
      titleEn: 'Three-level maisonette in Panorama',
      descriptionEn: 'A 140 m² maisonette over three levels, with a garden.',
    });
    const en = (await page(`/listings/${o.ref}?lang=en`)).body;
    expect(en).toContain('<h1>Three-level maisonette in Panorama</h1>');
    expect(en).toContain('A 140 m² maisonette over three levels, with a garden.');
    expect(en).not.toContain('Μεζονέτα');
    const el = (await page(`/listings/${o.ref}?lang=el`)).body;
    expect(el).toContain('<h1>Μεζονέτα στην Πανόραμα</h1>');
    expect(el).not.toContain('Three-level');
    const ru = (await page(`/listings/${o.ref}?lang=ru`)).body;
    expect(ru).toContain('<h1>Μεζονέτα στην Πανόραμα</h1>');
    // The list in English names it in English too.
    app.publicPages.clear();
    expect((await page('/listings?lang=en')).body).toContain('>Three-level maisonette in Panorama</a>');
    // An English title without its description (or the other way round) is not published: a reader would get half of each.
    const half = await completeObject({ publishRequested: true, titleEn: 'Flat with a view' });
    await addPhoto(half.id);
    expect((await runPublish(db, { objectId: half.id, actor: { id: null, name: 'test' } })).state).not.toBe('published');
    expect((await state(half.id, { lang: 'en' })).publishError).toContain('no English description (there is an English title)');
  });

  it('shows an area with its decimals as stored, in the reader\'s writing', async () => {
    const o = await publishedObject({ title: 'Flat of 85.5 m²', area: 85.5, sizeOfBalconies: 12.25 });
    const en = (await page(`/listings/${o.ref}?lang=en`)).body;
    expect(en).toContain('85.5\u00a0m²');
    expect(en).toContain('12.25\u00a0m²');
    const el = (await page(`/listings/${o.ref}?lang=el`)).body;
    expect(el).toContain('85,5\u00a0τ.μ.');
    expect(el).not.toContain('86\u00a0τ.μ.');
    app.publicPages.clear(); // the list as kept by an earlier test did not have it yet
    expect((await page(`/listings?lang=ru`)).body).toContain('85,5\u00a0м²');
  });

  it('serves a published object\'s photo copy, never the camera original, and nothing of an unpublished object', async () => {
    const body = (await page(`/listings/${listed.ref}?lang=en`)).body;
    const name = /<img src="\/listings\/photo\/([^"]+)"/.exec(body)![1]!;
    // Its address names the copy served, and its extension the format served.
    expect(name).toMatch(/-web\.webp$/);
    const photo = await page(`/listings/photo/${name}`);
    expect(photo.statusCode).toBe(200);
    expect(photo.body).toMatch(/^web copy/);
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.headers['content-disposition']).toBe(`inline; filename="${name}"`);
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    const hidden = await completeObject();
    const hiddenPhoto = await addPhoto(hidden.id);
    expect((await page(`/listings/photo/${hiddenPhoto}`)).statusCode).toBe(404);
    expect((await page('/listings/photo/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
  });

  it('draws a circle instead of the point when the object hides it, and keeps the point out of the page', async () => {
    const o = await publishedObject({
      title: 'Hidden-point house',
      latitude: 40.591234,
      longitude: 22.961234,
      displayCoordinates: false,
      mapCircleLatitude: 40.6,
      mapCircleLongitude: 22.97,
      mapCircleRadius: 800,
    });
    const res = await page(`/listings/${o.ref}?lang=en`);
    expect(res.body).toContain('data-kind="circle"');
    expect(res.body).toContain('Approximate location');
    expect(res.body).not.toMatch(/40[.,]591234|22[.,]961234/);
    const feed = await page('/feed/listings.xml');
    expect(feed.body).toContain(`<approximateArea latitude="40.6" longitude="22.97" radius="800"/>`);
    expect(feed.body).not.toMatch(/40[.,]591234|22[.,]961234/);
  });

  it('never publishes a circle drawn around the hidden point itself: refused, and no circle shown if one is moved there later', async () => {
    const around = { latitude: 40.581234, longitude: 22.950123, displayCoordinates: false, mapCircleRadius: 2500 };
    const o = await completeObject({ ...around, mapCircleLatitude: 40.581234, mapCircleLongitude: 22.950123, publishRequested: true });
    await addPhoto(o.id);
    expect(await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).toMatchObject({ state: 'refused', codes: ['publishing.circleOnPoint'] });
    expect((await state(o.id)).publishError).toBe('Not published: the approximate area on the map is centred on the exact point it should hide (move the circle off the address).');
    expect((await state(o.id, el)).publishError).toMatch(/^Δεν δημοσιεύτηκε: ο κύκλος κατά προσέγγιση θέσης/);
    // Moved a quarter of the radius off the point (625 m north): published, with its circle.
    await update(o.id, { mapCircleLatitude: 40.586849, mapCircleLongitude: 22.950123 });
    await settle();
    expect(await state(o.id)).toMatchObject({ published: true, publishError: null });
    expect((await page(`/api/public/listings/${o.ref}`)).json().map).toEqual({ kind: 'circle', latitude: 40.586849, longitude: 22.950123, radius: 2500 });
    // Put back on the point behind the publishing's back: the public side shows no circle at all.
    await db.update(objects).set({ mapCircleLatitude: 40.58125, mapCircleLongitude: 22.95013 } as never).where(eq(objects.id, o.id));
    app.publicPages.clear();
    expect((await page(`/api/public/listings/${o.ref}`)).json().map).toBeNull();
    const html = (await page(`/listings/${o.ref}?lang=en`)).body;
    expect(html).not.toContain('data-kind="circle"');
    expect(html).not.toMatch(/40[.,]5812|22[.,]9501/);
    const feed = (await page('/feed/listings.xml')).body;
    const listing = feed.slice(feed.indexOf(`<listing ref="${o.ref}"`), feed.indexOf('</listing>', feed.indexOf(`<listing ref="${o.ref}"`)));
    expect(listing).toContain('<title');
    expect(listing).not.toMatch(/approximateArea|<point|40[.,]5812|22[.,]9501/);
    app.publicPages.clear();
  });

  it('the SQL rule and the contract agree on which circles hide their point, and the data fix moves those that do not', async () => {
    const { circleHidesPoint, circleCentreAround, metresBetween } = await import('@crm/contract');
    const away = (c: { latitude: number; longitude: number }) => metresBetween(point.latitude, point.longitude, c.latitude, c.longitude);
    const point = { latitude: 40.58, longitude: 22.95 };
    const cases = [
      { latitude: 40.58, longitude: 22.95, radius: 500 },
      { latitude: 40.5809, longitude: 22.95, radius: 500 }, // 100 m north: exactly a fifth
      { latitude: 40.5808, longitude: 22.95, radius: 500 }, // 89 m
      { latitude: 40.58, longitude: 22.9512, radius: 500 }, // 101 m east
      { latitude: 40.58, longitude: 22.9511, radius: 500 }, // 93 m east
      { latitude: 40.7, longitude: 23.1, radius: 10000 },
    ];
    for (const c of cases) {
      const [row] = (await db.execute(sql`select crm_circle_hides_point(${point.latitude}::float8, ${point.longitude}::float8, ${c.latitude}::float8, ${c.longitude}::float8, ${c.radius}::float8) as hides`)).rows as { hides: boolean }[];
      expect(row!.hides, JSON.stringify(c)).toBe(circleHidesPoint(point, c));
    }
    expect(cases.map((c) => circleHidesPoint(point, c))).toEqual([false, true, false, true, false, true]);
    // The editor's new circles always hide their point, and always hold it.
    for (let i = 0; i < 200; i++) {
      const c = { ...circleCentreAround(point.latitude, point.longitude, 40 + 10 * i), radius: 40 + 10 * i };
      expect(circleHidesPoint(point, c)).toBe(true);
      // Within half the radius (and a rounding to six decimals): the point stays well inside.
      expect(away(c)).toBeLessThanOrEqual(c.radius / 2 + 0.2);
    }
    // The migration's data fix, run again: a circle on its point moves off it, others stay.
    const onPoint = await completeObject({ ...point, displayCoordinates: false, mapCircleLatitude: 40.58, mapCircleLongitude: 22.95, mapCircleRadius: 1000 });
    const fine = await completeObject({ ...point, displayCoordinates: false, mapCircleLatitude: 40.59, mapCircleLongitude: 22.95, mapCircleRadius: 1000 });
    const { readFileSync } = await import('node:fs');
    const migration = readFileSync(new URL('../../../drizzle/0043_circle_hides_point.sql', import.meta.url), 'utf8').split('--> statement-breakpoint')[1]!;
    await db.execute(sql.raw(migration));
    const rows = await db.select().from(objects).where(sql`${objects.id} in (${onPoint.id}, ${fine.id})`).orderBy(objects.id);
    const [moved, kept] = rows as unknown as { mapCircleLatitude: number; mapCircleLongitude: number; mapCircleRadius: number }[];
    const m = { latitude: moved!.mapCircleLatitude, longitude: moved!.mapCircleLongitude, radius: 1000 };
    expect(circleHidesPoint(point, m)).toBe(true);
    expect(away(m)).toBeLessThanOrEqual(500.2); // at most half the radius away: the point stays inside
    expect(kept).toMatchObject({ mapCircleLatitude: 40.59, mapCircleLongitude: 22.95 });
  });

  it('a sold property leaves the site at once, and publishing refuses it saying so', async () => {
    const o = await publishedObject({ title: 'Flat sold this morning' });
    expect((await page(`/api/public/listings/${o.ref}`)).statusCode).toBe(200);
    await db.update(objects).set({ sold: true } as never).where(eq(objects.id, o.id));
    app.publicPages.clear();
    expect((await page(`/api/public/listings/${o.ref}`)).statusCode).toBe(410);
    expect((await page(`/listings/${o.ref}?lang=en`)).statusCode).toBe(410);
    expect((await page('/feed/listings.xml')).body).not.toContain(`ref="${o.ref}"`);
    expect((await page('/api/public/listings?perPage=100')).json().items.map((i: { ref: string }) => i.ref)).not.toContain(o.ref);
    expect(await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).toMatchObject({ state: 'refused', codes: ['publishing.sold'] });
    expect((await state(o.id, el)).publishError).toBe('Δεν δημοσιεύτηκε: το ακίνητο έχει πωληθεί (η πώλησή του έχει ολοκληρωθεί).');
    app.publicPages.clear();
  });

  it('a sale of it closed takes it off the site and its page in the office says so; reopened, it is published again', async () => {
    const o = await publishedObject({ title: 'Flat sold through a deal' });
    const saveDeal = (payload: Record<string, unknown>) => agent.post('/api/Deal/update', payload);
    const opened = await saveDeal({ dealType: 2, dealStage: 1, objectId: o.id, price: 178000 });
    expect(opened.statusCode, opened.body).toBe(200);
    const closed = await saveDeal({ id: opened.json().id, version: opened.json().version, dealStage: 5 });
    expect(closed.statusCode, closed.body).toBe(200);
    await settle();
    expect(await state(o.id)).toMatchObject({ published: false, publicUrl: null, publishError: 'Not published: the property is sold (a sale of it is closed).' });
    // The office closed the sale itself: no alert that something is missing.
    expect(await db.select().from(alerts).where(and(eq(alerts.entity, 'Object'), eq(alerts.entityId, o.id)))).toEqual([]);
    const [logged] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Object'), eq(actionLog.entityId, o.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(logged).toMatchObject({ action: 'PublishRefused', actionBy: agent.id });
    // The action log and the home page's recent changes name the action in the reader's words.
    expect(['en', 'el', 'ru'].map((c) => app.translator.t(c as 'en', `actionLog.action.${logged!.action}`))).toEqual([
      'Not published on the website',
      'Η δημοσίευση στην ιστοσελίδα απορρίφθηκε',
      'Публикация на сайте отклонена',
    ]);

    const reopened = await saveDeal({ id: closed.json().id, version: closed.json().version, dealStage: 4 });
    expect(reopened.statusCode, reopened.body).toBe(200);
    await settle();
    expect(await state(o.id)).toMatchObject({ published: true, publishError: null, publicUrl: `/listings/${o.ref}?lang=en` });
    app.publicPages.clear();
  });

  it('gives the portals an XML feed of every published object', async () => {
    const res = await page('/feed/listings.xml?lang=el');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/xml/);
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<listings /);
    expect(res.body).toContain(`<listing ref="${listed.ref}"`);
    expect(res.body).toContain('<price service="sale" currency="EUR">240000</price>');
    expect(res.body).toContain('<price service="rent" currency="EUR">450</price>');
    expect(res.body).toContain('<location>Καλαμαριά, Θεσσαλονίκη</location>');
    expect(res.body.trim().endsWith('</listings>')).toBe(true);
  });

  it('answers the same as JSON without sign-in: the list with filters and paging, and one object', async () => {
    const res = await page('/api/public/listings?service=rent&perPage=5&lang=en');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list.items.map((i: { ref: string }) => i.ref)).toContain(rental.ref);
    expect(list.items.every((i: { services: string[] }) => i.services.includes('rent'))).toBe(true);
    const one = (await page(`/api/public/listings/${listed.ref}?lang=el`)).json();
    expect(one).toMatchObject({ ref: listed.ref, title: 'Maisonette in Kalamaria', url: `/listings/${listed.ref}?lang=el`, place: 'Καλαμαριά, Θεσσαλονίκη' });
    expect(one.prices).toEqual([{ service: 'sale', price: 240000, was: null }]);
    expect(one.photos[0].web).toMatch(/^\/listings\/photo\//);
    expect(one).not.toHaveProperty('id');
    expect((await page('/api/public/listings?perPage=1000')).statusCode).toBe(400);
    const hidden = await completeObject();
    expect((await page(`/api/public/listings/${hidden.ref}`)).statusCode).toBe(404);
  });

  it('answers 304 to a browser that has the page already', async () => {
    const first = await page(`/listings/${listed.ref}?lang=en`);
    const again = await page(`/listings/${listed.ref}?lang=en`, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 for an object that is not published, and for nonsense', async () => {
    const o = await completeObject();
    expect((await page(`/listings/${o.ref}`)).statusCode).toBe(404);
    expect((await page('/listings/not-a-ref')).statusCode).toBe(404);
    expect((await page('/listings/99999999999999')).statusCode).toBe(404);
  });
});

describe('the contact form', () => {
  let o: { id: number; ref: string };
  beforeAll(async () => {
    o = await publishedObject({ title: 'Flat with a view', forRent: true, rentPrice: 700 });
  });
  let ip = 10;
  const send = (form: Record<string, string>, address = `10.0.0.${ip++}`, lang = 'en') => sendEnquiry(app, o.ref, form, { address, lang });

  it('makes a lead in the CRM for a new client, with the object offered', async () => {
    // The office named the source its site's enquiries come from.
    const [website] = await db.insert(accounts).values({ lastName: 'Own website', isSource: true }).returning({ id: accounts.id });
    await db.insert(siteSettings).values({ id: 1, enquirySourceId: website!.id }).onConflictDoUpdate({ target: siteSettings.id, set: { enquirySourceId: website!.id } });
    const res = await send({ name: 'Anna Schmidt', email: 'anna.schmidt@example.de', phone: '+49 151 2345678', message: 'Is it still free in May?' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/listings/${o.ref}?lang=en&sent=1#contact`);
    const [acc] = await db.select().from(accounts).where(sql`'anna.schmidt@example.de' = any(${accounts.emails})`);
    expect(acc).toMatchObject({ firstName: 'Anna', lastName: 'Schmidt', isClient: true, phones: ['+49 151 2345678'] });
    const [lead] = await db.select().from(leads).where(eq(leads.accountId, acc!.id));
    expect(lead).toMatchObject({ stage: 1, forPurchase: true, forRent: true, source: website!.id });
    expect((lead as Record<string, unknown>).description).toContain('Is it still free in May?');
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, lead!.id))).toMatchObject([{ objectId: o.id }]);
    // The office is told: an unread alert from the website, linking to the new lead, in the reader's language.
    const told = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead!.id)));
    expect(told).toMatchObject([{ source: 'Website', kind: 'enquiry', messageKey: 'alerts.msg.websiteEnquiry', readedOn: null }]);
    const opened = (await agent.get(`/api/alert/${told[0]!.id}`, el)).json();
    expect(opened).toMatchObject({ link: `/Leads/View/${lead!.id}` });
    expect(opened.content).toBe(`Νέο αίτημα από την ιστοσελίδα για το ακίνητο #${o.ref} — Anna Schmidt (anna.schmidt@example.de). Θα το βρείτε στα νέα ενδιαφέροντα.`);
    const sent = await page(res.headers.location as string);
    expect(sent.body).toContain('data-testid="contact-sent"');
  });

  it('takes the enquiry about a property at the highest price the office can enter: the budget stops at the largest amount a lead keeps', async () => {
    const dear = await publishedObject({ salePrice: 999999999999.99 });
    const res = await sendEnquiry(app, dear.ref, { name: 'Irini Stavrou', email: 'i.stavrou@example.gr', message: 'Is the price right?' }, { address: '10.0.9.3' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    const [acc] = await db.select().from(accounts).where(sql`'i.stavrou@example.gr' = any(${accounts.emails})`);
    const [lead] = await db.select().from(leads).where(eq(leads.accountId, acc!.id));
    expect(lead).toMatchObject({ forPurchase: true, purchaseBudgetRangeMin: 800000000000, purchaseBudgetRangeMax: 999999999999.99 });
  });

  it('gives the new lead the property\'s criteria (service, type, place, a budget around the price shown), so its matches are that kind of property', async () => {
    const [pylaia] = await db.insert(locations).values({ level: 2, parentId: thess!.id, nameEn: 'Pylaia', nameEl: 'Πυλαία', nameRu: 'Пилея', path: [] }).returning();
    await db.update(locations).set({ path: [thess!.id, pylaia!.id] }).where(eq(locations.id, pylaia!.id));
    // Shown on the site at 179 000 € (discounted from 185 000 €), and for rent at 700 € a month.
    const asked = await publishedObject({ objectSubTypeId: 3, locationId: pylaia!.id, salePrice: 185000, salePriceWithDiscount: 179000, forRent: true, rentPrice: 700 });
    const similar = await completeObject({ objectSubTypeId: 3, locationId: pylaia!.id, salePrice: 200000 });
    const otherType = await completeObject({ objectSubTypeId: 9, subTypeObjectTypeId: 2, locationId: pylaia!.id, salePrice: 180000 });
    const otherPlace = await completeObject({ objectSubTypeId: 3, locationId: kalamaria!.id, salePrice: 180000 });
    const tooDear = await completeObject({ objectSubTypeId: 3, locationId: pylaia!.id, salePrice: 320000 });
    const res = await sendEnquiry(app, asked.ref, { name: 'Petros Alexiou', email: 'p.alexiou@example.gr', message: 'Can I see it on Saturday?' }, { address: '10.0.9.1' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    const [acc] = await db.select().from(accounts).where(sql`'p.alexiou@example.gr' = any(${accounts.emails})`);
    const [lead] = await db.select().from(leads).where(eq(leads.accountId, acc!.id));
    expect(lead).toMatchObject({
      forPurchase: true,
      forRent: true,
      forShortRent: false,
      objectSubTypes: [3],
      locationId: pylaia!.id,
      // 80 % and 110 % of 179 000 €, to the thousand; of 700 €, to ten euros.
      purchaseBudgetRangeMin: 143000,
      purchaseBudgetRangeMax: 197000,
      rentBudgetRangeMin: 560,
      rentBudgetRangeMax: 770,
      shortRentBudgetRangeMin: null,
      shortRentBudgetRangeMax: null,
    });
    expect(await db.select({ objectId: leadObjects.objectId }).from(leadObjects).where(eq(leadObjects.leadId, lead!.id))).toEqual([{ objectId: asked.id }]);

    const matches = async () => ((await agent.get(`/api/lead/${lead!.id}/matches`)).json().items as { objectId: number; score: number }[]);
    // The property asked about is already offered; the matches are its kind, in its place, near its price.
    const found = (await matches()).map((m) => m.objectId);
    expect(found).toContain(similar.id);
    for (const other of [otherType, otherPlace, tooDear, asked]) expect(found).not.toContain(other.id);
    // Taken off the offered list, it is the best match of its own lead.
    expect((await agent.post('/api/lead/removeObject', { leadId: lead!.id, objectId: asked.id })).statusCode).toBe(200);
    const ranked = await matches();
    expect(ranked[0]).toMatchObject({ objectId: asked.id, score: 100 });
    expect(ranked.map((m) => m.objectId)).toEqual([asked.id, similar.id]);

    // Staff set their own budget; the same enquiry sent again joins that lead and changes nothing.
    const current = (await agent.get(`/api/lead/get/${lead!.id}`)).json();
    const upd = await agent.post('/api/lead/update', { id: lead!.id, version: current.version ?? current.lead?.version, purchaseBudgetRangeMin: 150000, purchaseBudgetRangeMax: 210000, locationId: thess!.id });
    expect(upd.statusCode, upd.body).toBe(200);
    const again = await sendEnquiry(app, asked.ref, { name: 'Petros Alexiou', email: 'p.alexiou@example.gr', message: 'Can I see it on Saturday?' }, { address: '10.0.9.2' });
    expect(again.statusCode).toBe(303);
    const kept = await db.select().from(leads).where(eq(leads.accountId, acc!.id));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ purchaseBudgetRangeMin: 150000, purchaseBudgetRangeMax: 210000, locationId: thess!.id });
  });

  it('rounds an enquiry\'s budget outwards to three figures, and keeps the undiscounted price inside it', async () => {
    const { enquiryBudget } = await import('./public.service.ts');
    expect(enquiryBudget(185000, null)).toEqual({ min: 148000, max: 204000 });
    expect(enquiryBudget('1250000.00', null)).toEqual({ min: 1000000, max: 1380000 });
    expect(enquiryBudget(85000, null)).toEqual({ min: 68000, max: 93500 });
    expect(enquiryBudget(650, null)).toEqual({ min: 520, max: 715 });
    expect(enquiryBudget(75, null)).toEqual({ min: 60, max: 83 });
    // A deep discount: the shown 150 000 € sets the budget, whose top reaches the full 200 000 €.
    expect(enquiryBudget(200000, 150000)).toEqual({ min: 120000, max: 200000 });
    expect(enquiryBudget(null, null)).toBeNull();
    expect(enquiryBudget(0, null)).toBeNull();
  });

  it('takes a message of 2000 characters as the browser counted them, its line breaks sent as CRLF', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `Line ${String(i).padStart(2, '0')} `.padEnd(99, '.'));
    const message = lines.join('\r\n');
    expect(message.replace(/\r\n/g, '\n').length).toBe(1999);
    const res = await send({ name: 'Long Writer', email: 'long.writer@example.com', message });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
    const [acc] = await db.select().from(accounts).where(sql`'long.writer@example.com' = any(${accounts.emails})`);
    const [lead] = await db.select().from(leads).where(eq(leads.accountId, acc!.id));
    expect((lead as Record<string, unknown>).description).toContain(`${lines[0]}\n${lines[1]}`);
  });

  it('adds the lead to the client who has that e-mail already, marked unverified, and leaves the client as it was', async () => {
    const [known] = await db.insert(accounts).values({ firstName: 'Giorgos', lastName: 'Ioannou', emails: ['g.ioannou@example.gr'], phones: ['2310 111222'], isOwner: true }).returning();
    const res = await send({ name: 'Someone Else', email: 'G.Ioannou@example.gr', phone: '697 0000000', message: 'Call me' });
    expect(res.statusCode).toBe(303);
    const [acc] = await db.select().from(accounts).where(eq(accounts.id, known!.id));
    // Not a field of the record changed: not its names, phones, kinds or version.
    expect(acc).toEqual(known);
    const mine = await db.select().from(leads).where(eq(leads.accountId, known!.id));
    expect(mine).toHaveLength(1);
    const lines = String((mine[0] as Record<string, unknown>).description).split('\n');
    expect(lines[1]).toBe('Από την ιστοσελίδα, μη επιβεβαιωμένο: το e-mail ανήκει σε πελάτη που υπάρχει ήδη στο CRM, αλλά δεν είναι βέβαιο ποιος το έστειλε. Τα στοιχεία του πελάτη δεν άλλαξαν· επιβεβαιώστε με τον πελάτη πριν βασιστείτε στο όνομα ή στο τηλέφωνο παραπάνω.');
    expect(lines).toContain('Call me');
    // A new visitor's lead has no such line.
    await send({ name: 'Nea Pelatissa', email: 'nea.pelatissa@example.gr', message: 'Call me too' });
    const [fresh] = await db.select().from(accounts).where(sql`'nea.pelatissa@example.gr' = any(${accounts.emails})`);
    const [theirs] = await db.select().from(leads).where(eq(leads.accountId, fresh!.id));
    expect(String((theirs as Record<string, unknown>).description)).not.toContain('μη επιβεβαιωμένο');
  });

  it('answers bad input with the form again, the fields marked, in the visitor\'s language, and keeps nothing', async () => {
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n;
    const res = await send({ name: '', email: 'not-an-email', message: '' }, undefined, 'el');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Διορθώστε τα πεδία που επισημαίνονται.');
    expect(res.body).toContain('aria-invalid="true"');
    // The answer opens at the form (its errors), not at the top of the page.
    expect(res.body).toContain(`action="/listings/${o.ref}/contact?lang=el#contact"`);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n).toBe(before);
  });

  it('asks for an e-mail and phone the client’s account can keep: two numbers in one box or a doubled dot are refused, a bracketed country code is fine', async () => {
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n;
    for (const [email, phone] of [
      ['maria..k@example.gr', ''],
      ['maria.k@example.gr', '2310 123456 / 697 1234567'],
    ]) {
      const res = await send({ name: 'Maria K.', email, phone, message: 'Is it still free?' });
      expect(res.statusCode, `${email} ${phone}`).toBe(400);
      expect(res.body).toContain('aria-invalid="true"');
    }
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n).toBe(before);
    const ok = await send({ name: 'Maria K.', email: 'maria.k@example.gr', phone: '(+30) 697 123 4567', message: 'Is it still free?' });
    expect(ok.statusCode, ok.body.slice(0, 300)).toBe(303);
    const [acc] = await db.select().from(accounts).where(sql`'maria.k@example.gr' = any(${accounts.emails})`);
    expect(acc!.phones).toEqual(['(+30) 697 123 4567']);
    // The account it made saves whole as it is, with one more phone.
    const admin = await t.user({ roles: ['admin'] });
    const upd = await app.inject({ method: 'POST', url: '/api/account/update', headers: { authorization: `Bearer ${admin.token}` }, payload: { id: acc!.id, version: acc!.version, phone: '(+30) 697 123 4567; 2310 123456' } });
    expect(upd.statusCode, upd.body).toBe(200);
    // An office's number with its extension, as the spec's free text allows.
    const ext = await send({ name: 'Grafeio K.', email: 'grafeio.k@example.gr', phone: '2310 123456 ext 5', message: 'Is it still free?' });
    expect(ext.statusCode, ext.body.slice(0, 300)).toBe(303);
    const [office] = await db.select().from(accounts).where(sql`'grafeio.k@example.gr' = any(${accounts.emails})`);
    expect(office!.phones).toEqual(['2310 123456 ext 5']);
  });

  it('keeps nothing from a robot that fills the hidden field, and answers it as a person', async () => {
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n;
    const res = await send({ name: 'Bot', email: 'bot@spam.example', message: 'cheap pills', website: 'http://spam.example' });
    expect(res.statusCode).toBe(303);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(leads))[0]!.n).toBe(before);
  });

  it('limits enquiries from one address (429 with Retry-After), others still get through', async () => {
    const addr = '192.0.2.77';
    for (let i = 0; i < 5; i++) expect((await send({ name: `Person ${i}`, email: `p${i}@example.com`, message: 'Hello' }, addr)).statusCode).toBe(303);
    const sixth = await send({ name: 'Person 6', email: 'p6@example.com', message: 'Hello' }, addr);
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send({ name: 'Other', email: 'other@example.com', message: 'Hello' }, '192.0.2.78')).statusCode).toBe(303);
  });
});
