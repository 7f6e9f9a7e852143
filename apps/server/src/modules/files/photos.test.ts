import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { createTestApp, type CallOptions, type Client } from '../../../test/harness.ts';
import { objects } from '../../db/schema/index.ts';

/** A camera-sized JPEG (4000×3000) taken upright on its side (EXIF orientation 6), with a GPS position. */
const CAMERA = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#c8a27a' } })
  .composite([{ input: Buffer.from('<svg width="4000" height="3000"><rect x="800" y="600" width="2400" height="1800" fill="#5a7fa8"/></svg>') }])
  .jpeg({ quality: 90 })
  .withExif({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 35/1 0/1' } })
  .withMetadata({ orientation: 6 })
  .toBuffer();
const SMALL_PNG = await sharp({ create: { width: 300, height: 200, channels: 4, background: '#ffffff' } }).png().toBuffer();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** A JPEG whose picture data is cut off: the type is right, the picture cannot be read. */
const BROKEN_JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 0x41)]);

type Part = { name: string; data: Buffer; type?: string };
const t = await createTestApp();
const { app } = t;
const staff = await t.user({ roles: ['employee'] });

type Uploaded = { id: number; systemName: string; userName: string; mime: string; size: number; width?: number | null; height?: number | null; preview?: boolean };
async function upload(parts: Part[]) {
  const res = await staff.upload('/api/files', parts.map((p) => ({ field: 'files', ...p })));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Uploaded[];
}
async function newObject() {
  const [o] = (await t.db.execute(sql`insert into ${objects} default values returning id`)).rows as { id: number }[];
  return o!.id;
}
const attach = (objectId: number, ids: number[], type: string | null = 'image') =>
  staff.post('/api/files/setParent', { entityType: LinkKind.Object, id: objectId, fileNames: ids, type });
const anon = t.client();
const openFile = (key: string | number, query = '', as: Client = staff, opts?: CallOptions) => as.get(`/api/files/${key}${query}`, opts);

describe('photos of an object', () => {
  it('get a thumbnail and a screen-size copy on upload, upright and without the camera\'s metadata', async () => {
    const [photo] = await upload([{ name: 'σαλόνι.jpg', data: CAMERA, type: 'image/jpeg' }]);
    // the picture was taken on its side: upright it is 3000 wide and 4000 high
    expect(photo).toMatchObject({ mime: 'image/jpeg', width: 3000, height: 4000, preview: true });

    const thumb = await openFile(photo!.id, '?size=thumb');
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.headers['content-disposition']).toContain("filename*=UTF-8''%CF%83%CE%B1%CE%BB%CF%8C%CE%BD%CE%B9.webp");
    const tm = await sharp(thumb.rawPayload).metadata();
    expect([tm.format, tm.width, tm.height]).toEqual(['webp', 480, 640]);
    expect(tm.exif).toBeUndefined();
    expect(thumb.rawPayload.length).toBeLessThan(CAMERA.length / 10);

    const web = await openFile(photo!.systemName, '?size=web');
    const wm = await sharp(web.rawPayload).metadata();
    expect([wm.format, wm.width, wm.height]).toEqual(['webp', 1200, 1600]);

    const original = await openFile(photo!.id);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.rawPayload.equals(CAMERA)).toBe(true);
  });

  it('never enlarges a small picture', async () => {
    const [png] = await upload([{ name: 'plan.png', data: SMALL_PNG, type: 'image/png' }]);
    const tm = await sharp((await openFile(png!.id, '?size=thumb')).rawPayload).metadata();
    expect([tm.width, tm.height]).toEqual([300, 200]);
  });

  it('a file that is no picture has no copies and is refused as a photo with a clear 415, changing nothing', async () => {
    const objectId = await newObject();
    const [pdf, broken] = await upload([
      { name: 'energy-certificate.pdf', data: PDF, type: 'application/pdf' },
      { name: 'IMG_0001.jpg', data: BROKEN_JPEG, type: 'image/jpeg' },
    ]);
    expect(pdf).toMatchObject({ preview: false, width: null });
    expect(broken).toMatchObject({ mime: 'image/jpeg', preview: false });
    const [good] = await upload([{ name: 'kitchen.png', data: SMALL_PNG }]);

    for (const bad of [pdf!, broken!]) {
      const res = await attach(objectId, [good!.id, bad.id]);
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ status: 415, code: 'files.notAPhoto' });
      expect(res.json().title).toContain(bad.userName);
    }
    const el = await staff.post('/api/files/setParent', { entityType: LinkKind.Object, id: objectId, fileNames: [pdf!.id], type: 'image' }, { lang: 'el' });
    expect(el.json().title).toBe('Το «energy-certificate.pdf» δεν μπορεί να μπει ως φωτογραφία: γίνονται δεκτές μόνο εικόνες JPEG, PNG, WebP, GIF, AVIF ή TIFF. Μετατρέψτε πρώτα τις φωτογραφίες HEIC του iPhone σε JPEG.');
    // Nor through the property's own save (its new photos given with the form).
    const current = (await staff.get(`/api/object/edit/${objectId}`)).json().object;
    const viaSave = await staff.post('/api/object/update', { id: objectId, version: current.version, title: 'With photos', imagesNew: `${good!.id},${broken!.id}` });
    expect(viaSave.statusCode).toBe(415);
    expect(viaSave.json()).toMatchObject({ code: 'files.notAPhoto' });
    expect(viaSave.json().title).toContain('IMG_0001.jpg');
    expect((await staff.get(`/api/object/edit/${objectId}`)).json().object).toMatchObject({ version: current.version, title: current.title });
    // nothing was attached, not even the good one
    const left = (await t.db.execute(sql`select count(*)::int as n from files where parent_type = ${LinkKind.Object} and parent_id = ${objectId}`)).rows[0];
    expect(left).toEqual({ n: 0 });
    // the same PDF is fine as a document of the object
    expect((await attach(objectId, [pdf!.id], 'document')).statusCode).toBe(200);
    // a file without copies asked for its thumbnail answers the original
    expect((await openFile(pdf!.id, '?size=thumb')).headers['content-type']).toBe('application/pdf');
  });

  it('are reordered by dragging, and ids of another record are refused', async () => {
    const objectId = await newObject();
    const other = await newObject();
    const photos = await upload([
      { name: 'a.png', data: SMALL_PNG },
      { name: 'b.png', data: SMALL_PNG },
      { name: 'c.png', data: SMALL_PNG },
    ]);
    const [a, b, c] = photos.map((p) => p.id) as [number, number, number];
    expect((await attach(objectId, [a, b, c])).statusCode).toBe(200);
    const [x] = await upload([{ name: 'x.png', data: SMALL_PNG }]);
    expect((await attach(other, [x!.id])).statusCode).toBe(200);

    const res = await staff.post('/api/files/reorder', { ids: [c, a, b] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((i: { userName: string }) => i.userName)).toEqual(['c.png', 'a.png', 'b.png']);
    expect(res.json().items.every((i: { preview: boolean; type: string }) => i.preview && i.type === 'image')).toBe(true);

    const mixed = await staff.post('/api/files/reorder', { ids: [a, x!.id] });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().code).toBe('files.reorderMixed');
    const list = await staff.get(`/api/files?parentType=${LinkKind.Object}&parentId=${objectId}`);
    expect(list.json().items.map((i: { userName: string }) => i.userName)).toEqual(['c.png', 'a.png', 'b.png']);
  });

  it('deleting a photo removes its copies too', async () => {
    const [p] = await upload([{ name: 'gone.png', data: SMALL_PNG }]);
    const del = await staff.del(`/api/files/${p!.systemName}`);
    expect(del.statusCode).toBe(200);
    const stem = p!.systemName.split('.')[0]!;
    const fs = await import('node:fs');
    const left = fs.readdirSync(`${t.dataDir}/files`, { recursive: true }).map(String).filter((n) => n.includes(stem));
    expect(left).toEqual([]);
  });

  it('bad size values are a 400', async () => {
    const [p] = await upload([{ name: 'p.png', data: SMALL_PNG }]);
    const res = await openFile(p!.id, '?size=huge');
    expect(res.statusCode).toBe(400);
  });
});

describe('the file cookie: pictures open in <img> without a token in the address', () => {
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    ([res.headers['set-cookie']].flat().filter(Boolean) as string[]).find((c) => c.startsWith('crm_files='));

  it('is set by the sign-in, HttpOnly and SameSite=Strict, and opens a picture', async () => {
    const u = await t.user({ roles: ['employee'] });
    const res = await app.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: u.email, password: u.password } });
    const set = cookieOf(res)!;
    expect(set).toMatch(/^crm_files=[^;]+; Path=\/api; HttpOnly; SameSite=Strict$/);
    const cookie = set.split(';')[0]!;
    const [p] = await upload([{ name: 'p.png', data: SMALL_PNG }]);
    const img = await openFile(p!.id, '?size=thumb', anon, { headers: { cookie } });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/webp');
    // A request with its bearer token and the matching cookie does not set it again.
    const again = await t.client(res.json().token).get('/api/authenticate/me', { headers: { cookie } });
    expect(cookieOf(again)).toBeUndefined();
  });

  it('is accepted only for reading a file: nothing else runs on it', async () => {
    const u = await t.user({ roles: ['employee'] });
    const cookie = `crm_files=${u.token}`;
    expect((await app.inject({ url: '/api/authenticate/me', headers: { cookie } })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/files?parentType=1&parentId=1`, headers: { cookie } })).statusCode).toBe(401);
    const [p] = await upload([{ name: 'keep.png', data: SMALL_PNG }]);
    expect((await app.inject({ method: 'DELETE', url: `/api/files/${p!.systemName}`, headers: { cookie } })).statusCode).toBe(401);
    expect((await openFile(p!.id, '', anon, { headers: { cookie } })).statusCode).toBe(200);
  });

  it('follows the session a browser works with, and is worth nothing once the session ends', async () => {
    const u = await t.user({ roles: ['employee'] });
    const [p] = await upload([{ name: 'p.png', data: SMALL_PNG }]);
    // a session restored from the browser's storage: the first call with its token sets the cookie
    const first = await u.get('/api/authenticate/me', { headers: { cookie: 'crm_files=someone-elses-old-session-token' } });
    const cookie = cookieOf(first)!.split(';')[0]!;
    expect(cookie).toBe(`crm_files=${u.token}`);
    expect((await openFile(p!.id, '?size=thumb', anon, { headers: { cookie } })).statusCode).toBe(200);

    const out = await u.post('/api/authenticate/logout');
    expect(cookieOf(out)).toMatch(/^crm_files=; Path=\/api; Max-Age=0/);
    // a copy of the cookie kept after sign-out opens nothing
    expect((await openFile(p!.id, '?size=thumb', anon, { headers: { cookie } })).statusCode).toBe(401);
  });

  it('a client of the payments variant opens no staff file with it', async () => {
    const c = await t.user({ roles: ['clientPayments'] });
    const [p] = await upload([{ name: 'p.png', data: SMALL_PNG }]);
    expect((await openFile(p!.id, '?size=thumb', anon, { headers: { cookie: `crm_files=${c.token}` } })).statusCode).toBe(403);
  });
});
