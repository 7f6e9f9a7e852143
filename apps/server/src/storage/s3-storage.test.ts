import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../../test/s3-server.ts';
import { S3Storage } from './s3-storage.ts';

let s3: Awaited<ReturnType<typeof startS3Server>>;
beforeAll(async () => {
  s3 = await startS3Server('crm-files');
});
afterAll(async () => {
  await s3?.stop();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function bytesOf(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const parts: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}

describe('stored files in an S3-compatible store, through the AWS SDK', () => {
  it('keeps, streams back, sizes, lists and removes files; a large one goes up in parts', async () => {
    const store = new S3Storage({ ...s3.settings, prefix: 'rt/' });
    await store.check();
    const small = Buffer.from('a receipt');
    await store.put('rt-small.txt', Readable.from([small]));
    // A checked upload on local disk is moved in: the scratch copy goes.
    const scratch = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crm-s3-scratch-')), 'upload');
    const photo = randomBytes(300 * 1024);
    fs.writeFileSync(scratch, photo);
    await store.put('rt-photo.jpg', { path: scratch });
    expect(fs.existsSync(scratch)).toBe(false);
    // 20 MB: three parts of 8 MB at most, never all in memory.
    const big = randomBytes(20 * 1024 * 1024 + 7);
    await store.put('rt-big.bin', Readable.from([big.subarray(0, 1000), big.subarray(1000)]));

    expect(await bytesOf(await store.get('rt-small.txt'))).toEqual(small);
    expect(sha((await bytesOf(await store.get('rt-photo.jpg')))!)).toBe(sha(photo));
    expect(sha((await bytesOf(await store.get('rt-big.bin')))!)).toBe(sha(big));
    expect(await store.stat('rt-big.bin')).toEqual({ size: big.length });
    const listed: { name: string; size: number }[] = [];
    for await (const f of store.list()) listed.push(f);
    expect(listed.sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual([
      { name: 'rt-big.bin', size: big.length },
      { name: 'rt-photo.jpg', size: photo.length },
      { name: 'rt-small.txt', size: small.length },
    ]);
    await store.delete('rt-small.txt');
    expect(await store.get('rt-small.txt')).toBeUndefined();
    expect(await store.stat('rt-small.txt')).toBeUndefined();
    await store.delete('rt-small.txt'); // gone already: no error
    await expect(store.get('../escape')).rejects.toThrow(/unsafe stored file name/);
  });

  it('hands out a short-lived address with the headers asked for, which a changed signature does not open', async () => {
    const store = new S3Storage({ ...s3.settings, prefix: 'ps/', presignSeconds: 60 });
    await store.put('ps-web.webp', Readable.from([Buffer.from('webp bytes')]));
    const url = (await store.presign('ps-web.webp', { contentType: 'image/webp', contentDisposition: 'inline; filename="kitchen.webp"', cacheControl: 'private, max-age=86400' }))!;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="kitchen.webp"');
    expect(await res.text()).toBe('webp bytes');
    const forged = await fetch(url.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${'0'.repeat(64)}`));
    expect(forged.status).toBe(403);
    // Turned off: no address, the app streams the file itself.
    expect(await new S3Storage({ ...s3.settings, prefix: 'ps/' }).presign('ps-web.webp', { contentType: 'image/webp', contentDisposition: 'inline', cacheControl: 'private' })).toBeUndefined();
  });

  it('says why a store cannot be used: wrong keys, no such bucket', async () => {
    await expect(new S3Storage({ ...s3.settings, secretAccessKey: 'wrong' }).check()).rejects.toThrow(/access is denied/);
    await expect(new S3Storage({ ...s3.settings, bucket: 'no-such-bucket' }).check()).rejects.toThrow(/no such bucket/);
  });
});
