import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LinkKind } from '@crm/contract';
import { apiClient } from '../../test/harness.ts';
import { startS3Instances } from '../../test/s3-instances.ts';
import { objects } from '../db/schema/index.ts';
import { S3Storage } from './s3-storage.ts';

/**
 * Stored files with STORAGE=s3 through the app (decision 062), against s3rver (a real S3 protocol
 * server that checks signatures): what one instance takes in is kept in the store only, and read,
 * sized and handed out by a presigned address from another instance with a DATA_DIR of its own.
 */
const { s3, t, other, otherDir } = await startS3Instances('crm-app-files', { S3_PREFIX: 'crm/', S3_PRESIGN_SECONDS: '300' });
const staff = await t.user({ roles: ['employee'] });

const sha = (b: Buffer | Uint8Array) => createHash('sha256').update(b).digest('hex');
const PHOTO = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#7aa2c8' } }).jpeg({ quality: 85 }).toBuffer();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** Every file under a folder, recursively (scratch folders included). */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)) : [];

describe('stored files in an S3-compatible store, through two instances', () => {
  it('a photo and a document uploaded on one are in the store only, read whole from the other, and its sizes handed out by short-lived addresses', async () => {
    const res = await staff.upload('/api/files', [
      { field: 'files', name: 'σαλόνι.jpg', data: PHOTO, type: 'image/jpeg' },
      { field: 'files', name: 'energy-certificate.pdf', data: PDF, type: 'application/pdf' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [photo, pdf] = res.json() as { id: number; systemName: string; preview?: boolean }[];
    expect(photo!.preview).toBe(true);
    const [o] = (await t.db.execute(sql`insert into ${objects} default values returning id`)).rows as { id: number }[];
    const attached = await staff.post('/api/files/setParent', { entityType: LinkKind.Object, id: o!.id, fileNames: [photo!.id, pdf!.id], type: null });
    expect(attached.statusCode, attached.body).toBe(200);

    // In the bucket under the prefix: the two files and the photo's two sizes; nothing kept on either instance's disk.
    const store = new S3Storage({ ...s3.settings, prefix: 'crm/' });
    const listed = new Map<string, number>();
    for await (const f of store.list()) listed.set(f.name, f.size);
    expect(listed.get(photo!.systemName)).toBe(PHOTO.length);
    expect(listed.get(pdf!.systemName)).toBe(PDF.length);
    const [row] = (await t.db.execute(sql`select thumb_name, web_name from files where id = ${photo!.id}`)).rows as { thumb_name: string; web_name: string }[];
    expect(listed.has(row!.thumb_name) && listed.has(row!.web_name)).toBe(true);
    expect(filesUnder(path.join(t.dataDir, 'files'))).toEqual([]);
    expect(filesUnder(path.join(otherDir, 'files'))).toEqual([]);

    // The other instance streams the originals back, byte for byte.
    const there = apiClient(other, staff.token);
    const original = await there.get(`/api/files/${photo!.systemName}`);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(sha(original.rawPayload)).toBe(sha(PHOTO));
    const document = await there.get(`/api/files/${pdf!.id}`);
    expect(document.statusCode).toBe(200);
    expect(sha(document.rawPayload)).toBe(sha(PDF));

    // A photo's size: after the access check, a 302 to the store itself, valid for a while, which
    // the browser opens without the CRM; the address changed by one character opens nothing.
    const thumb = await there.get(`/api/files/${photo!.id}?size=thumb`);
    expect(thumb.statusCode).toBe(302);
    expect(thumb.headers['cache-control']).toBe('private, no-store');
    const address = String(thumb.headers.location);
    expect(address.startsWith(`${s3.settings.endpoint}/${s3.settings.bucket}/crm/${row!.thumb_name}?`)).toBe(true);
    expect(new URL(address).searchParams.get('X-Amz-Expires')).toBe('300');
    const fromStore = await fetch(address);
    expect(fromStore.status).toBe(200);
    expect(fromStore.headers.get('content-type')).toBe('image/webp');
    // Under the photo's own (Greek) name, as the app itself would send it.
    expect(fromStore.headers.get('content-disposition')).toBe(`inline; filename="______.webp"; filename*=UTF-8''%CF%83%CE%B1%CE%BB%CF%8C%CE%BD%CE%B9.webp`);
    const meta = await sharp(Buffer.from(await fromStore.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 480, 360]);
    const u = new URL(address);
    const signature = u.searchParams.get('X-Amz-Signature')!;
    u.searchParams.set('X-Amz-Signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1));
    expect((await fetch(u)).status).toBe(403);
    // Nobody signed in gets no address at all.
    expect((await apiClient(other).get(`/api/files/${photo!.id}?size=thumb`)).statusCode).toBe(401);

  });

  it('a file over 8 MB goes up in parts and is streamed back whole', async () => {
    const big = Buffer.alloc(12 * 1024 * 1024 + 5, 1);
    const res = await staff.upload('/api/files', [{ field: 'files', name: 'survey.pdf', data: Buffer.concat([PDF, big]), type: 'application/pdf' }]);
    expect(res.statusCode, res.body).toBe(200);
    const [file] = res.json() as { systemName: string; size: number }[];
    const store = new S3Storage({ ...s3.settings, prefix: 'crm/' });
    const body = await store.get(file!.systemName);
    let bytes = 0;
    for await (const c of body as Readable) bytes += (c as Buffer).length;
    expect(bytes).toBe(PDF.length + big.length);
    expect(file!.size).toBe(PDF.length + big.length);
  });
});
