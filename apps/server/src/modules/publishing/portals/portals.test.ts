import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { SaxesParser } from 'saxes';
import { validateXML } from 'xmllint-wasm';
import { LinkKind } from '@crm/contract';
import { files, locations } from '../../../db/schema/index.ts';
import { getFileStorage } from '../../../storage/file-storage.ts';
import { createTestApp, json, patchField } from '../../../../test/harness.ts';
import { insertObject } from '../../../../test/records.ts';
import { runPublish } from '../publishing.service.ts';
import { PORTAL_MAPPINGS } from './feeds.ts';
import { REPORTS_PER_HOUR } from './portals.routes.ts';

/**
 * The portal channels (decision 083): each feed built for demo-like properties, Kyero's checked
 * against its published XSD; a property a channel cannot take is left out of that feed, with the
 * reason on its channel status, and goes in once the field is filled; a wrong secret is a 404.
 */
const PUBLIC = 'https://homes.example.gr';
const t = await createTestApp({ PUBLIC_URL: PUBLIC, LOG_LEVEL: 'error' });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const employee = await t.user({ roles: ['employee'] });
const XSD = fs.readFileSync(path.join(import.meta.dirname, 'kyero-v3.xsd'), 'utf8');

// The seeded places (locations-data.ts): Pefkochori in the municipality of Kassandra, Chalkidiki.
const [village] = await db.select().from(locations).where(eq(locations.key, 'chalkidiki.kassandra.pefkochori'));

const storage = getFileStorage(t.dataDir);
let seq = 0;
const GREEK = 'Φωτεινό διαμέρισμα δύο υπνοδωματίων στο Πευκοχώρι, 200 μέτρα από την παραλία, με μεγάλο μπαλκόνι.';
const ENGLISH = 'A bright two-bedroom flat in Pefkochori, 200 metres from the beach, with a large balcony.';

/** A demo-like flat with real photos (WebP copies, as uploads make them), published by the publishing work. */
async function flat(values: Record<string, unknown> = {}, photos = 2, sizes: [number, number][] = []) {
  const o = await insertObject(db, {
    forSale: true,
    salePrice: 185000,
    area: 78,
    bedrooms: 2,
    bathrooms: 1,
    locationId: village!.id,
    active: true,
    publishRequested: true,
    latitude: 39.984512,
    longitude: 23.612345,
    displayCoordinates: true,
    displayAddress: false,
    mapZoom: 15,
    title: 'Διαμέρισμα 78 τ.μ. στο Πευκοχώρι',
    description: GREEK,
    titleEn: '2-bedroom flat in Pefkochori, 78 m²',
    descriptionEn: ENGLISH,
    energyClass: 4,
    elevator: true,
    ...values,
  });
  const names: string[] = [];
  for (let k = 0; k < photos; k++) {
    const n = ++seq;
    const webp = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120 + k, b: 40 } } }).webp().toBuffer();
    await storage.put(`portal${n}-web.webp`, Readable.from(webp));
    await db.insert(files).values({
      systemName: `portal${n}.jpg`, userName: `IMG_${n}.jpg`, mime: 'image/jpeg', size: 100, parentType: LinkKind.Object, parentId: o!.id,
      type: 'image', sortOrder: k + 1, webName: `portal${n}-web.webp`, thumbName: `portal${n}-web.webp`,
      // The upload's own size, as files.service records it (the copies are made from it).
      width: sizes[k]?.[0] ?? null, height: sizes[k]?.[1] ?? null,
    });
    names.push(`portal${n}-web.jpg`);
  }
  expect((await runPublish(db, { objectId: o!.id, actor: { id: null, name: 'test' } })).state).toBe('published');
  return { id: o!.id, ref: String(o!.ref).padStart(4, '0'), photos: names };
}

type Report = { ref: string; objectId: number | null; message: string; reportedOn: string };
type Channel = { id: number; kind: string; feedUrl: string; reportUrl: string; version: number; lastFetchedOn: string | null; included: number; refused: Report[]; refusedCount: number };
const channel = (kind: string, extra: Record<string, unknown> = {}) => json<Channel>(admin.post('/api/PortalChannels', { kind, name: `${kind} channel`, ...extra }));
/** The feed as the portal fetches it: by its address, no sign-in. */
const fetchFeed = async (c: Channel) => {
  const res = await app.inject({ url: c.feedUrl.slice(PUBLIC.length) });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
  return res.body;
};
/** The root element's name and how many of `item` it holds, read by a strict parser (a feed that is not well-formed fails). */
function wellFormed(xml: string, item: string) {
  const parser = new SaxesParser();
  let root = '';
  let items = 0;
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    root ||= tag.name;
    if (tag.name === item) items++;
  });
  parser.write(xml).close();
  return { root, items };
}
const status = async (objectId: number, lang = 'en') =>
  (await json<{ items: { channelId: number; included: boolean; selected: boolean; missing: string[]; notes: string[]; reports: Report[] }[] }>(employee.get(`/api/object/portals/${objectId}`, { lang }))).items;

const kyero = await channel('kyero');
const spitogatos = await channel('spitogatos', { agencyId: 'SG-1042' });
const indomio = await channel('indomio');
const xe = await channel('xe', { agencyId: '77120' });
const ready = await flat();
const noEnergy = await flat({ energyClass: null });
// The address hidden: the point is the address, so the approximate circle's centre goes out, rounded.
const hidden = await flat({ displayAddress: false, address: 'Οδός Ποσειδώνος 12', latitude: 39.981777, longitude: 23.607777, mapCircleLatitude: 39.99, mapCircleLongitude: 23.6, mapCircleRadius: 1000 });

describe('portal channels', () => {
  it('give each channel an unguessable feed address on the public address; only office admins list them', async () => {
    expect(kyero.feedUrl).toMatch(/^https:\/\/homes\.example\.gr\/feed\/[A-Za-z0-9_-]{32}\/kyero\.xml$/);
    expect(spitogatos.feedUrl).not.toBe(kyero.feedUrl.replace('kyero', 'spitogatos'));
    expect((await employee.get('/api/PortalChannels')).statusCode).toBe(403);
    const list = await json<{ items: Channel[] }>(admin.get('/api/PortalChannels'));
    expect(list.items.map((c) => c.kind)).toEqual(['kyero', 'spitogatos', 'indomio', 'xe']);
  });

  it('build the Kyero feed valid against Kyero’s published v3 XSD, texts by language, JPEG photos by absolute address', async () => {
    const xml = await fetchFeed(kyero);
    const result = await validateXML({ xml: [{ fileName: 'kyero.xml', contents: xml }], schema: [{ fileName: 'kyero-v3.xsd', contents: XSD }] });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(xml).toContain(`<id>${ready.ref}</id>`);
    // Kyero's languages have no Greek: the English text only.
    expect(xml).toContain(`<desc><en>${ENGLISH}</en></desc>`);
    expect(xml).not.toContain(GREEK);
    expect(xml).toContain('<type>Apartment</type>');
    expect(xml).toContain('<town>Kassandra</town>');
    expect(xml).toContain('<province>Chalkidiki</province>');
    expect(xml).toContain('<energy_rating><consumption>B</consumption></energy_rating>');
    expect(xml).toContain('<feature>Lift</feature>');
    expect(xml).toMatch(/<image id="1"><url>https:\/\/homes\.example\.gr\/listings\/photo\/portal\d+-web\.jpg<\/url><\/image>/);
    // The photo's address answers a JPEG made from the upload's copy.
    const photo = /<url>https:\/\/homes\.example\.gr(\/listings\/photo\/portal\d+-web\.jpg)<\/url>/.exec(xml)![1]!;
    const res = await app.inject({ url: photo });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(res.rawPayload).metadata()).format).toBe('jpeg');
    // Asked again (a portal fetches its photos again and again): the same picture, kept.
    const again = await app.inject({ url: photo });
    expect(again.statusCode).toBe(200);
    expect(Buffer.compare(again.rawPayload, res.rawPayload)).toBe(0);
    // Kyero takes the property without an energy class (its format has it optional).
    expect(xml).toContain(`<id>${noEnergy.ref}</id>`);
  });

  it('send the same feed gzipped to a fetcher that accepts gzip, and plain to one that does not', async () => {
    const plain = await fetchFeed(kyero);
    const url = kyero.feedUrl.slice(PUBLIC.length);
    for (const accept of ['gzip', 'br, gzip;q=0.8', '*']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers.vary).toContain('Accept-Encoding');
      expect(gunzipSync(res.rawPayload).toString('utf8')).toBe(plain);
    }
    for (const accept of ['identity', 'gzip;q=0']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.body).toBe(plain);
    }
    // Brotli alone: compressed as the other answers are, on the fly.
    const br = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain);
  });

  it('round the coordinates where the property hides its address, and never send the hidden point', async () => {
    for (const c of [kyero, indomio, spitogatos, xe]) {
      const xml = await fetchFeed(c);
      expect(xml).not.toContain('39.981777');
      expect(xml).not.toContain('Ποσειδώνος');
    }
    expect(await fetchFeed(kyero)).toContain('<location><latitude>39.99</latitude><longitude>23.6</longitude></location>');
    expect(await fetchFeed(spitogatos)).toMatch(new RegExp(`<ref>${hidden.ref}</ref>[\\s\\S]*?<exact_location>0</exact_location>`));
  });

  it('build the Greek portals’ and Indomio’s feeds, each in its own shape, with the Greek text marked el', async () => {
    const sg = await fetchFeed(spitogatos);
    expect(wellFormed(sg, 'property')).toEqual({ root: 'properties', items: 2 });
    expect(wellFormed(await fetchFeed(xe), 'ad')).toEqual({ root: 'ads', items: 2 });
    expect(wellFormed(await fetchFeed(indomio), 'listing')).toEqual({ root: 'listings', items: 2 });
    expect(sg).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<properties agent_id="SG-1042"/);
    expect(sg).toContain(`<ref>${ready.ref}</ref>`);
    expect(sg).toContain(`<description lang="el">${GREEK}</description>`);
    expect(sg).toContain('<energy_class>B</energy_class>');
    const xeFeed = await fetchFeed(xe);
    expect(xeFeed).toContain(`<ad ref="${ready.ref}">`);
    expect(xeFeed).toContain('<type>DIAMERISMA</type>');
    expect(xeFeed).toContain('<energy>Β</energy>');
    const ind = await fetchFeed(indomio);
    expect(ind).toContain(`<listing id="${ready.ref}"`);
    expect(ind).toContain(`<description lang="en">${ENGLISH}</description>`);
  });

  it('leave out of a channel’s feed a property missing what it requires, say why on its status, and take it once fixed', async () => {
    for (const c of [spitogatos, indomio, xe]) expect(await fetchFeed(c)).not.toContain(`${noEnergy.ref}<`);
    const before = await status(noEnergy.id);
    expect(before.find((s) => s.channelId === kyero.id)).toMatchObject({ included: true, missing: [] });
    expect(before.find((s) => s.channelId === spitogatos.id)).toMatchObject({ included: false, selected: true, missing: ['the energy class (the law requires it in every advertisement)'] });
    const greek = await status(noEnergy.id, 'el');
    expect(greek.find((s) => s.channelId === xe.id)!.missing).toEqual(['η ενεργειακή κλάση (ο νόμος την απαιτεί σε κάθε αγγελία)']);

    expect((await patchField(admin, 'object', noEnergy.id, 'energyClass', 5)).statusCode).toBe(200);
    expect((await status(noEnergy.id)).every((s) => s.included && s.missing.length === 0)).toBe(true);
    // The feed kept is rebuilt once the change is known (the database's notice of a published property's change).
    await expect.poll(async () => (await fetchFeed(spitogatos)).includes(`<ref>${noEnergy.ref}</ref>`)).toBe(true);
    expect(await fetchFeed(xe)).toContain(`<ad ref="${noEnergy.ref}">`);
    expect(await fetchFeed(xe)).toContain('<energy>Γ</energy>');
  });

  it('block a property whose type the portal has no code for, naming the type, rather than send it half-filled', async () => {
    const other = await flat({ subTypeObjectTypeId: 4, objectSubTypeId: 17 });
    const s = await status(other.id);
    expect(s.find((c) => c.channelId === kyero.id)!.missing).toEqual(['kyero channel has no code for the property type “Other”']);
    expect(await fetchFeed(kyero)).not.toContain(`<id>${other.ref}</id>`);
  });

  it('answer a Kyero channel with no property 204, no file, since Kyero’s XSD refuses a root without a property', async () => {
    const none = await channel('kyero', { name: 'Kyero, nothing chosen', selection: 'chosen' });
    const res = await app.inject({ url: none.feedUrl.slice(PUBLIC.length) });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    // What the feed would have been: the root, Kyero's header and the agent only. Its schema refuses it.
    const ctx = { base: PUBLIC, channelName: 'x', agencyId: '12', agencyName: 'Agency', agencyEmail: 'office@example.gr', agencyPhone: null, generated: new Date(), tEn: (k: string) => k };
    const empty = PORTAL_MAPPINGS.kyero.open(ctx) + PORTAL_MAPPINGS.kyero.close(ctx);
    const result = await validateXML({ xml: [{ fileName: 'kyero.xml', contents: empty }], schema: [{ fileName: 'kyero-v3.xsd', contents: XSD }] });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.message).join(' ')).toMatch(/Missing child element\(s\)\. Expected is \( property \)/);
    // The same header with one property of the feed above is valid: only the empty case is refused.
    const full = await fetchFeed(kyero);
    const oneProperty = PORTAL_MAPPINGS.kyero.open(ctx) + / {2}<property>[\s\S]*?<\/property>\n/.exec(full)![0] + PORTAL_MAPPINGS.kyero.close(ctx);
    expect((await validateXML({ xml: [{ fileName: 'kyero.xml', contents: oneProperty }], schema: [{ fileName: 'kyero-v3.xsd', contents: XSD }] })).valid).toBe(true);
    // The formats without a schema's minimum answer their empty root.
    const noneXe = await channel('xe', { name: 'xe, nothing chosen', selection: 'chosen' });
    expect(wellFormed(await fetchFeed(noneXe), 'ad')).toEqual({ root: 'ads', items: 0 });
  });

  it('leave out a photo too small for a portal, naming it on the card, and refuse a property with none large enough', async () => {
    // A camera's photo (its screen-size copy 1600×1200 goes), a small one, a portrait one large enough.
    const mixed = await flat({}, 3, [[4000, 3000], [640, 480], [900, 1200]]);
    const s = (await status(mixed.id)).find((c) => c.channelId === kyero.id)!;
    expect(s).toMatchObject({ included: true, missing: [] });
    expect(s.notes).toEqual(['photo 2 is 640×480; kyero channel asks at least 800×600, so it is left out']);
    const el = (await status(mixed.id, 'el')).find((c) => c.channelId === kyero.id)!;
    expect(el.notes).toEqual(['η φωτογραφία 2 είναι 640×480· το kyero channel ζητά τουλάχιστον 800×600, οπότε δεν αποστέλλεται']);
    const feed = await fetchFeed(kyero);
    const property = new RegExp(`<property>\\n    <id>${mixed.ref}</id>[\\s\\S]*?</property>`).exec(feed)![0];
    expect(property).toContain(`<image id="1"><url>${PUBLIC}/listings/photo/${mixed.photos[0]}</url></image><image id="2"><url>${PUBLIC}/listings/photo/${mixed.photos[2]}</url></image></images>`);
    expect(feed).not.toContain(mixed.photos[1]);
    for (const c of [xe, spitogatos, indomio]) expect(await fetchFeed(c)).not.toContain(mixed.photos[1]);
    const result = await validateXML({ xml: [{ fileName: 'kyero.xml', contents: feed }], schema: [{ fileName: 'kyero-v3.xsd', contents: XSD }] });
    expect(result.errors.map((e) => e.message)).toEqual([]);

    // Only small photos: nothing a portal takes, so the property stays out, and the card says which.
    const small = await flat({}, 1, [[640, 480]]);
    const refused = (await status(small.id)).find((c) => c.channelId === kyero.id)!;
    expect(refused).toMatchObject({ included: false, missing: ['at least 1 photos of 800×600 pixels or larger (it has 0)'] });
    expect(refused.notes).toEqual(['photo 1 is 640×480; kyero channel asks at least 800×600, so it is left out']);
    expect(await fetchFeed(kyero)).not.toContain(`<id>${small.ref}</id>`);
  });

  it('send to a "chosen" channel only the properties chosen for it', async () => {
    const chosen = await channel('kyero', { name: 'Kyero, chosen', selection: 'chosen' });
    expect((await app.inject({ url: chosen.feedUrl.slice(PUBLIC.length) })).statusCode).toBe(204);
    const after = await json<{ items: { channelId: number; included: boolean }[] }>(employee.post(`/api/object/portals/${ready.id}`, { channelId: chosen.id, included: true }));
    expect(after.items.find((s) => s.channelId === chosen.id)!.included).toBe(true);
    expect(await fetchFeed(chosen)).toContain(`<id>${ready.ref}</id>`);
    const logged = await t.pool.query(`select action from action_log where entity = 'Object' and entity_id = $1 and action = 'PortalInclude'`, [ready.id]);
    expect(logged.rowCount).toBe(1);
    // A channel that sends all has nothing to choose.
    expect((await employee.post(`/api/object/portals/${ready.id}`, { channelId: kyero.id, included: false })).statusCode).toBe(409);
  });

  it('answer 404 to a wrong secret, another portal’s kind or a switched-off channel, and record each fetch', async () => {
    const good = kyero.feedUrl.slice(PUBLIC.length);
    expect((await app.inject({ url: good.replace(/\/feed\/[^/]+\//, '/feed/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/') })).statusCode).toBe(404);
    expect((await app.inject({ url: good.replace('kyero.xml', 'xe.xml') })).statusCode).toBe(404);
    // Written beside the answer: read until it is there.
    const listed = async () => (await json<{ items: Channel[] }>(admin.get('/api/PortalChannels'))).items.find((c) => c.id === kyero.id)!;
    await expect.poll(async () => (await listed()).lastFetchedOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect((await listed()).included).toBeGreaterThanOrEqual(3);
    const off = await json<Channel>(admin.post(`/api/PortalChannels/${xe.id}`, { name: 'xe.gr', enabled: false, selection: 'all', agencyId: '77120', version: xe.version }));
    expect(off.version).toBe(xe.version + 1);
    expect((await app.inject({ url: xe.feedUrl.slice(PUBLIC.length) })).statusCode).toBe(404);
  });

  it('take a portal’s error report at the channel’s report address, show it on the property’s card and the channel’s list', async () => {
    const chan = await channel('kyero', { name: 'Kyero reports' });
    expect(chan.reportUrl).toBe(chan.feedUrl.replace(/\/kyero\.xml$/, '/report'));
    const post = (payload: string, type: string, url = chan.reportUrl) => app.inject({ method: 'POST', url: url.slice(PUBLIC.length), payload, headers: { 'content-type': type } });

    // JSON, as a portal without a format of its own would post it; a reference not ours is kept too.
    const first = await post(JSON.stringify({ errors: [{ ref: ready.ref, message: 'Price below the regional minimum' }, { ref: '99999', message: 'Unknown property' }] }), 'application/json');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ recorded: 2 });
    const card = (await status(ready.id)).find((c) => c.channelId === chan.id)!;
    expect(card.reports).toEqual([{ ref: ready.ref, objectId: ready.id, message: 'Price below the regional minimum', reportedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/) }]);
    // Only that channel's card says it.
    expect((await status(ready.id)).find((c) => c.channelId === kyero.id)!.reports).toEqual([]);
    const listed = async () => (await json<{ items: Channel[] }>(admin.get('/api/PortalChannels'))).items.find((c) => c.id === chan.id)!;
    const one = await listed();
    expect(one.refusedCount).toBe(2);
    expect(one.refused.map((r) => [r.ref, r.objectId, r.message])).toEqual([
      [ready.ref, ready.id, 'Price below the regional minimum'],
      ['99999', null, 'Unknown property'],
    ]);

    // CSV with a header and a quoted message: the new report replaces the old.
    const csv = `ref,message\r\n${noEnergy.ref},"Photos too dark, ""main"" photo refused"\r\n`;
    expect((await post(csv, 'text/csv')).json()).toEqual({ recorded: 1 });
    expect((await status(ready.id)).find((c) => c.channelId === chan.id)!.reports).toEqual([]);
    expect((await status(noEnergy.id)).find((c) => c.channelId === chan.id)!.reports.map((r) => r.message)).toEqual(['Photos too dark, "main" photo refused']);
    expect((await listed()).refused.map((r) => r.ref)).toEqual([noEnergy.ref]);
    const log = await t.pool.query(`select data from action_log where entity = 'PortalChannel' and entity_id = $1 and action = 'PortalReport' order by id`, [chan.id]);
    expect(log.rows.map((r) => r.data)).toEqual([{ errors: 2 }, { errors: 1 }]);

    // What is not a report is refused and changes nothing; a wrong secret is a 404; an empty report clears.
    expect((await post(JSON.stringify({ problems: [] }), 'application/json')).statusCode).toBe(400);
    expect((await post('just one column\n', 'text/csv')).statusCode).toBe(400);
    expect((await listed()).refusedCount).toBe(1);
    expect((await post('[]', 'application/json', chan.reportUrl.replace(/\/feed\/[^/]+\//, '/feed/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/'))).statusCode).toBe(404);
    expect((await post('{"errors":[]}', 'application/json')).json()).toEqual({ recorded: 0 });
    expect((await listed()).refusedCount).toBe(0);

    // A channel that sends only its chosen properties, none chosen: a reference to one it does not
    // send is kept unmatched, never shown on that property's card.
    const picky = await channel('kyero', { name: 'Kyero, reports of the chosen', selection: 'chosen' });
    const posted = await app.inject({ method: 'POST', url: picky.reportUrl.slice(PUBLIC.length), payload: JSON.stringify([{ ref: ready.ref, message: 'Not in our feed' }]), headers: { 'content-type': 'application/json' } });
    expect(posted.json()).toEqual({ recorded: 1 });
    expect((await status(ready.id)).find((c) => c.channelId === picky.id)!.reports).toEqual([]);
    expect((await json<{ items: Channel[] }>(admin.get('/api/PortalChannels'))).items.find((c) => c.id === picky.id)!.refused.map((r) => [r.ref, r.objectId])).toEqual([[ready.ref, null]]);
  });

  it('take at most REPORTS_PER_HOUR reports a channel, then answer 429 with Retry-After and keep the last report', async () => {
    const busy = await channel('kyero', { name: 'Kyero, a looping portal' });
    const post = (payload: string) => app.inject({ method: 'POST', url: busy.reportUrl.slice(PUBLIC.length), payload, headers: { 'content-type': 'application/json' } });
    for (let i = 0; i < REPORTS_PER_HOUR; i++) expect((await post(JSON.stringify([{ ref: 'X1', message: `report ${i}` }]))).statusCode).toBe(200);
    const refused = await post(JSON.stringify([{ ref: 'X1', message: 'one too many' }]));
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const kept = (await json<{ items: Channel[] }>(admin.get('/api/PortalChannels'))).items.find((c) => c.id === busy.id)!;
    expect(kept.refused.map((r) => r.message)).toEqual([`report ${REPORTS_PER_HOUR - 1}`]);
  });

  it('refuse a stale change (409) and log every change', async () => {
    const stale = await admin.post(`/api/PortalChannels/${indomio.id}`, { name: 'Indomio', enabled: true, selection: 'all', agencyId: null, version: indomio.version + 5 });
    expect(stale.statusCode).toBe(409);
    expect((await admin.del(`/api/PortalChannels/${indomio.id}?version=${indomio.version}`)).statusCode).toBe(200);
    const log = await t.pool.query(`select action from action_log where entity = 'PortalChannel' and entity_id = $1 order by id`, [indomio.id]);
    expect(log.rows.map((r) => r.action)).toEqual(['Create', 'Delete']);
  });
});
