import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../../test/s3-server.ts';
import { LocalDiskStorage, shardOf } from './file-storage.ts';
import { S3Storage } from './s3-storage.ts';

/**
 * npm run storage:copy (scripts/storage-copy.ts) as an operator runs it, against a real S3-compatible
 * server (s3rver in npm test, Ceph's RADOS Gateway in npm run test:cluster): local disk into the
 * bucket, each copy read back and proven by size and SHA-256; run again safely; back again.
 */
let s3: Awaited<ReturnType<typeof startS3Server>>;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server('crm-copy');
});
afterAll(async () => {
  await s3?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const scratch = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-storage-copy-'));
  dirs.push(d);
  return d;
};

function storageCopy(dataDir: string, args: string[], keys?: { secretAccessKey: string }): Promise<{ code: number | null; out: string }> {
  const s = s3.settings;
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/storage-copy.ts', '--data-dir', dataDir, ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        STORAGE: 's3',
        S3_ENDPOINT: s.endpoint,
        S3_REGION: s.region,
        S3_BUCKET: s.bucket,
        S3_ACCESS_KEY_ID: s.accessKeyId,
        S3_SECRET_ACCESS_KEY: keys?.secretAccessKey ?? s.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'office/',
        S3_CHECKSUMS: s.checksums,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    p.stdout.on('data', (b: Buffer) => (said += b.toString()));
    p.stderr.on('data', (b: Buffer) => (said += b.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out: said }));
  });
}

describe('npm run storage:copy into an S3-compatible store', () => {
  it('copies every stored file and proves it, is safe to run again, copies a damaged copy again, and brings all back', async () => {
    const dataDir = scratch();
    const files = path.join(dataDir, 'files');
    fs.mkdirSync(path.join(files, '.incoming'), { recursive: true });
    const originals = new Map<string, Buffer>([
      ['receipt-2024-001.pdf', Buffer.from('%PDF-1.4 a receipt\n')],
      ['a1b2c3.jpg', randomBytes(300 * 1024)],
      ['survey-scan.pdf', randomBytes(1024 * 1024 + 3)],
    ]);
    const local = new LocalDiskStorage(files);
    for (const [name, bytes] of originals) await local.put(name, Readable.from([bytes]));
    // An upload still being checked is no stored file.
    fs.writeFileSync(path.join(files, '.incoming', 'half-checked'), 'x');

    const first = await storageCopy(dataDir, []);
    expect(first.out).toContain(`Copying the stored files from ${files} to s3://crm-copy/office/`);
    expect(first.out).toMatch(/3 copied \(1\.3 MB\), 0 there already and equal, 0 failed/);
    expect(first.out).toContain('Every file is in s3://crm-copy/office/, proven equal to its original. Now start the CRM with STORAGE=s3.');
    expect(first.code, first.out).toBe(0);
    const store = new S3Storage({ ...s3.settings, prefix: 'office/' });
    const listed = new Map<string, number>();
    for await (const f of store.list()) listed.set(f.name, f.size);
    expect(listed).toEqual(new Map([...originals].map(([n, b]) => [n, b.length])));
    for (const [name, bytes] of originals) {
      const parts: Buffer[] = [];
      for await (const c of (await store.get(name)) as AsyncIterable<Buffer>) parts.push(c);
      expect(sha(Buffer.concat(parts)), name).toBe(sha(bytes));
    }
    // The source is left as it was.
    for (const [name, bytes] of originals) expect(sha(fs.readFileSync(path.join(files, shardOf(name), name)))).toBe(sha(bytes));

    const again = await storageCopy(dataDir, []);
    expect(again.out).toMatch(/0 copied \(\d+ KB\), 3 there already and equal, 0 failed/);
    expect(again.code, again.out).toBe(0);

    // A copy of the same size but other bytes is found by its checksum and copied again.
    await store.put('a1b2c3.jpg', Readable.from([randomBytes(300 * 1024)]));
    const mended = await storageCopy(dataDir, []);
    expect(mended.out).toMatch(/1 copied \(300 KB\), 2 there already and equal, 0 failed/);
    expect(mended.code, mended.out).toBe(0);

    // --back: from the store into another machine's empty DATA_DIR/files.
    const elsewhere = scratch();
    const back = await storageCopy(elsewhere, ['--back']);
    expect(back.out).toMatch(/3 copied \(1\.3 MB\), 0 there already and equal, 0 failed/);
    expect(back.code, back.out).toBe(0);
    for (const [name, bytes] of originals) expect(sha(fs.readFileSync(path.join(elsewhere, 'files', shardOf(name), name))), name).toBe(sha(bytes));
  }, 120_000);

  it('stops before copying anything when the store refuses the keys, and says so', async () => {
    const dataDir = scratch();
    await new LocalDiskStorage(path.join(dataDir, 'files')).put('note.txt', Readable.from([Buffer.from('x')]));
    const r = await storageCopy(dataDir, [], { secretAccessKey: 'not-the-secret' });
    expect(r.out).toContain('cannot be used: access is denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)');
    expect(r.out).not.toContain('Copying');
    expect(r.code).toBe(1);
  }, 60_000);
});
