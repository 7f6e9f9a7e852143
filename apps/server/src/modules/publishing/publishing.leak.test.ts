import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { LinkKind, OBJECT_FIELDS } from '@crm/contract';
import { accounts, activities, activityLinks, files, leadObjects, leads, locations, objectAccounts, objectKeys, objects, users } from '../../db/schema/index.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { createTestApp } from '../../../test/harness.ts';
import { insertObject } from '../../../test/records.ts';
import { runPublish } from './publishing.service.ts';
import { PUBLIC_COLUMNS } from './public.view.ts';

/**
 * Everything an object holds that is not for the public, each with a value that cannot appear by
 * chance, is checked against every public answer: the list page, the object page (each language),
 * the JSON API and the portal feed.
 */
const t = await createTestApp();
const { app, db } = t;
const staff = await t.user({ roles: ['employee'] });

const [place] = await db.insert(locations).values({ level: 2, nameEn: 'Pylaia', nameEl: 'Πυλαία', nameRu: 'Пилея', textEn: 'Pylaia', textEl: 'Πυλαία', textRu: 'Пилея' }).returning();

/** Internal fields of the object and the marker each holds (the field's value as written to the row). */
const INTERNAL: Record<string, { value: unknown; markers: string[] }> = {
  internalNotes: { value: 'LEAK-NOTE owner accepts 5% less', markers: ['LEAK-NOTE'] },
  address: { value: 'Odos Leakou 713', markers: ['Leakou', '713'] },
  zipCode: { value: 'ZIP-LEAK-9', markers: ['ZIP-LEAK'] },
  websiteCode: { value: 'WEBCODE-LEAK', markers: ['WEBCODE-LEAK'] },
  latitude: { value: 40.571234, markers: ['40.571234', '40,571234', '571234'] },
  longitude: { value: 22.941234, markers: ['22.941234', '22,941234', '941234'] },
  dateOfSalePriceDiscount: { value: '1987-06-05', markers: ['1987-06-05', '1987'] },
  dateOfRentPriceDiscount: { value: '1986-05-04', markers: ['1986-05-04', '1986'] },
  recommended: { value: true, markers: [] },
  soldRecently: { value: true, markers: [] },
  hasBanner: { value: true, markers: [] },
  hasKey: { value: true, markers: [] },
  rented: { value: false, markers: [] },
  sold: { value: false, markers: [] },
};

const OBJECT_ID = 7654321;
await db.execute(sql`select setval('objects_id_seq', ${OBJECT_ID - 1})`);
const o = await insertObject(db, {
  title: 'Quiet flat in Pylaia',
  description: 'Two bedrooms, a large balcony.',
  forSale: true,
  salePrice: 150000,
  salePriceWithDiscount: 140000,
  forRent: true,
  rentPrice: 600,
  rentPriceWithDiscount: 550,
  area: 80,
  bedrooms: 2,
  locationId: place!.id,
  active: true,
  displayAddress: false,
  displayCoordinates: false,
  mapCircleLatitude: 40.6,
  mapCircleLongitude: 22.97,
  mapCircleRadius: 1000,
  publishRequested: true,
  createdBy: staff.id,
  modifiedBy: staff.id,
  ...Object.fromEntries(Object.entries(INTERNAL).map(([k, v]) => [k, v.value])),
});
const ref = String(o.ref).padStart(4, '0');
expect(o.id).toBe(OBJECT_ID);

// The people around it: owner, tenant, key holder, the staff who made it; its activity, lead and a document.
const [owner] = await db.insert(accounts).values({ firstName: 'Zbigniew', lastName: 'Leakowski', emails: ['owner.leak@example.test'], phones: ['+30 699 7654 000'] }).returning();
const [tenant] = await db.insert(accounts).values({ firstName: 'Tenantia', lastName: 'Leakova', emails: ['tenant.leak@example.test'] }).returning();
const [holder] = await db.insert(accounts).values({ firstName: 'Keymaster', lastName: 'Leakidis' }).returning();
await db.insert(objectAccounts).values([
  { objectId: o.id, accountId: owner!.id, relation: 1, price: 123457 },
  { objectId: o.id, accountId: tenant!.id, relation: 4, rentPaymentDay: 5, price: 98765 },
]);
await db.update(objects).set({ ownerId: owner!.id } as never).where(eq(objects.id, o.id));
await db.insert(objectKeys).values({ objectId: o.id, accountId: holder!.id, received: '2020-02-02', description: 'KEY-LEAK under the mat' });
const [act] = await db.insert(activities).values({ description: 'ACTIVITY-LEAK call the owner' }).returning();
await db.insert(activityLinks).values({ activityId: act!.id, entity: LinkKind.Object, entityId: o.id });
const [lead] = await db.insert(leads).values({ accountId: tenant!.id, description: 'LEAD-LEAK wants a discount' } as never).returning({ id: leads.id });
await db.insert(leadObjects).values({ leadId: lead!.id, objectId: o.id, position: 0 });
const [staffUser] = await db.select().from(users).where(eq(users.id, staff.id));

const storage = getFileStorage(t.dataDir);
await storage.put('leak-photo-web.webp', Readable.from(Buffer.from('web copy')));
await db.insert(files).values([
  { systemName: 'photo-sys-1.jpg', userName: 'IMG_LEAK_ORIGINAL.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'image', webName: 'leak-photo-web.webp', thumbName: 'leak-photo-web.webp' },
  { systemName: 'DOC-SYS-LEAK.pdf', userName: 'CONTRACT-LEAK.pdf', mime: 'application/pdf', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'document' },
]);

const published = await runPublish(db, { objectId: o.id, actor: { id: staff.id, name: staffUser!.email } });

const OTHER_MARKERS = [
  'Leakowski', 'Zbigniew', 'owner.leak@', '7654 000', 'Leakova', 'tenant.leak@', 'Leakidis', 'KEY-LEAK', 'ACTIVITY-LEAK', 'LEAD-LEAK',
  'IMG_LEAK_ORIGINAL', 'CONTRACT-LEAK', 'DOC-SYS-LEAK', '123457', '98765', staffUser!.email, String(OBJECT_ID),
];

async function publicAnswers() {
  const answer = async (url: string) => {
    const res = await app.inject({ url });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    return { url, body: res.body };
  };
  return Promise.all([
    ...['en', 'el', 'ru'].flatMap((lang) => [answer(`/listings?lang=${lang}`), answer(`/listings/${ref}?lang=${lang}`), answer(`/feed/listings.xml?lang=${lang}`)]),
    answer(`/api/public/listings?lang=en`),
    answer(`/api/public/listings/${ref}?lang=en`),
  ]);
}

describe('what the public sees of a published object', () => {
  it('is published and shown everywhere public', async () => {
    expect(published.state).toBe('published');
    for (const a of await publicAnswers()) expect(a.body, a.url).toContain('Quiet flat in Pylaia');
  });

  it('has none of the object\'s internal values', async () => {
    for (const a of await publicAnswers()) {
      for (const [field, { markers }] of Object.entries(INTERNAL)) {
        for (const m of markers) expect(a.body.includes(m), `${field} (${m}) in ${a.url}`).toBe(false);
      }
    }
  });

  it('names no internal field: no label on the pages, no key in the API, no element in the feed', async () => {
    const internal = OBJECT_FIELDS.map((d) => d.name).filter((f) => !(PUBLIC_COLUMNS as readonly string[]).includes(f));
    // The allow-list itself: these (and nothing else) are kept from the public. The rooms, the
    // buildable area, the fittings, the orientation, the access and the zone are public facts (a
    // buyer reads them on every portal); the postcode goes out only with the address.
    expect(internal.sort()).toEqual(
      [
        'active', 'address', 'dateOfRentPriceDiscount', 'dateOfSalePriceDiscount', 'displayAddress', 'displayCoordinates',
        'hasBanner', 'hasKey', 'internalNotes', 'latitude', 'longitude',
        'publishError', 'publishRequested', 'published', 'recommended', 'rented', 'sold', 'soldRecently', 'websiteCode', 'zipCode',
      ].sort(),
    );
    const answers = await publicAnswers();
    // The address and the point are public when the object allows it (their values are checked above and below).
    const conditional = new Set(['address', 'latitude', 'longitude']);
    for (const f of internal.filter((x) => !conditional.has(x))) {
      const label = app.translator.t('en', `fields.object.${f}`);
      for (const a of answers) {
        if (a.url.startsWith('/api/')) expect(a.body.includes(`"${f}":`), `${f} key in ${a.url}`).toBe(false);
        else if (a.url.startsWith('/feed/')) expect(new RegExp(`<${f}[ >/]`).test(a.body), `${f} element in ${a.url}`).toBe(false);
        else if (a.url.includes('lang=en')) expect(a.body.includes(`>${label}<`), `${f} label in ${a.url}`).toBe(false);
      }
    }
  });

  it('has nothing of the people, keys, activities, leads, documents, staff or the internal id', async () => {
    for (const a of await publicAnswers()) {
      for (const m of OTHER_MARKERS) expect(a.body.includes(m), `${m} in ${a.url}`).toBe(false);
      // Only the public reference number identifies it.
      expect(a.body).toContain(ref);
    }
  });

  it('shows the approximate circle, not the point, and the address only when the object allows it', async () => {
    const pageBody = (await app.inject({ url: `/listings/${ref}?lang=en` })).body;
    expect(pageBody).toContain('data-kind="circle"');
    const api = (await app.inject({ url: `/api/public/listings/${ref}` })).json();
    expect(api.map).toEqual({ kind: 'circle', latitude: 40.6, longitude: 22.97, radius: 1000 });
    expect(api.address).toBeNull();
    // Allowed: the address appears; the point too once the object shows it.
    await db.update(objects).set({ displayAddress: true, displayCoordinates: true } as never).where(eq(objects.id, o.id));
    app.publicPages.clear(); // changed behind the publishing's back: the pages kept so far are stale
    const shown = (await app.inject({ url: `/api/public/listings/${ref}` })).json();
    expect(shown.address).toBe('Odos Leakou 713');
    expect(shown.facts).toContainEqual({ key: 'zipCode', value: 'ZIP-LEAK-9' });
    expect((await app.inject({ url: `/listings/${ref}?lang=en` })).body).toContain('<dt>Postcode</dt><dd>ZIP-LEAK-9</dd>');
    expect(shown.map).toMatchObject({ kind: 'point', latitude: 40.571234, longitude: 22.941234 });
    // The point shown but the address hidden: the point is the address, so the circle shows (decision 013), in the page, the API and the feed.
    await db.update(objects).set({ displayAddress: false, displayCoordinates: true } as never).where(eq(objects.id, o.id));
    app.publicPages.clear();
    const hidden = (await app.inject({ url: `/api/public/listings/${ref}` })).json();
    expect(hidden.address).toBeNull();
    expect(hidden.map).toEqual({ kind: 'circle', latitude: 40.6, longitude: 22.97, radius: 1000 });
    const page = (await app.inject({ url: `/listings/${ref}?lang=en` })).body;
    const feed = (await app.inject({ url: '/feed/listings.xml' })).body;
    for (const text of [page, feed, JSON.stringify(hidden)]) {
      expect(text).not.toContain('40.571234');
      expect(text).not.toContain('22.941234');
    }
    expect(feed).toContain('<approximateArea latitude="40.6" longitude="22.97" radius="1000"/>');
    await db.update(objects).set({ displayAddress: false, displayCoordinates: false } as never).where(eq(objects.id, o.id));
    app.publicPages.clear();
  });

  it('serves no file of the object but its pictures\' web copies', async () => {
    expect((await app.inject({ url: '/listings/photo/DOC-SYS-LEAK.pdf' })).statusCode).toBe(404);
    // The original's name (an address of before) leads to the web copy, never to the original.
    const old = await app.inject({ url: '/listings/photo/photo-sys-1.jpg?size=original' });
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/listings/photo/leak-photo-web.webp');
    const photo = await app.inject({ url: old.headers.location as string });
    expect(photo.statusCode).toBe(200);
    expect(photo.body).toBe('web copy');
  });
});
