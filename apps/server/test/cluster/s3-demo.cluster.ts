import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../harness.ts';
import { startS3Server } from '../s3-server.ts';
import { seedDemo } from '../../src/db/seed/demo.ts';
import { files } from '../../src/db/schema/index.ts';
import { LocalDiskStorage, getFileStorage } from '../../src/storage/file-storage.ts';
import { S3Storage } from '../../src/storage/s3-storage.ts';
import { copyStore, storedDigest } from '../../src/storage/copy-store.ts';
import { createBackup, restoreBackup } from '../../src/modules/backup/backup.ts';

// Part of npm run test:cluster, not of npm test: the demo's 1 800 files through Ceph's RADOS Gateway
// (test/cluster/rgw-setup.ts, decision 108).
const t = await createTestApp();

/** `fn` of every item, eight at a time (the store's round trips are what take the time), in order. */
async function eightAtATime<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += 8) out.push(...(await Promise.all(items.slice(i, i + 8).map(fn))));
  return out;
}
let s3: Awaited<ReturnType<typeof startS3Server>>;
/** The store the first test filled with the demo's files and proved equal, file by file: the second backs it up (one pass of 1,800 uploads fewer). */
let provenCopy: S3Storage | undefined;
beforeAll(async () => {
  s3 = await startS3Server('crm-files');
});
afterAll(async () => {
  await s3?.stop();
});

describe("the demo agency's files copied into S3 and back", () => {
  it('copies every file, proves each by its checksum, can run again, and comes back identical', async () => {
    await seedDemo(t.app);
    const local = getFileStorage(t.dataDir);
    const originals = new Map<string, string>();
    for await (const f of local.list()) originals.set(f.name, (await storedDigest(local, f.name))!.sha256);
    // Every photo and its sizes the demo made (the files table names each stored name).
    const rows = await t.db.select({ systemName: files.systemName, thumb: files.thumbName, web: files.webName }).from(files);
    const named = new Set(rows.flatMap((r) => [r.systemName, r.thumb, r.web]).filter((n): n is string => !!n));
    expect(named.size).toBeGreaterThan(20);
    for (const n of named) expect(originals.has(n), n).toBe(true);

    const store = new S3Storage({ ...s3.settings, prefix: 'demo/' });
    const there = await copyStore(local, store);
    expect(there).toMatchObject({ copied: originals.size, alreadyThere: 0, failed: [] });
    // Run again (after an interruption, or to check): nothing copied twice, every file proven equal.
    const again = await copyStore(local, store);
    expect(again).toMatchObject({ copied: 0, alreadyThere: originals.size, failed: [] });
    // A copy damaged in the store is found and copied again.
    const victim = [...originals.keys()][0]!;
    await store.put(victim, Readable.from([Buffer.from('damaged')]));
    expect(await copyStore(local, store)).toMatchObject({ copied: 1, alreadyThere: originals.size - 1, failed: [] });

    const back = new LocalDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'crm-s3-back-')));
    expect(await copyStore(store, back)).toMatchObject({ copied: originals.size, failed: [] });
    const backNames: string[] = [];
    for await (const f of back.list()) backNames.push(f.name);
    const backDigests = await eightAtATime(backNames, async (name) => (await storedDigest(back, name))!.sha256);
    expect(new Map(backNames.map((n, i) => [n, backDigests[i]]))).toEqual(originals);
    provenCopy = store;
  }, 300_000);

  it("backs up the files from the store and restores them into another, checksums equal", async () => {
    // The first test's proven copy; when run alone, a copy of its own.
    const store = provenCopy ?? new S3Storage({ ...s3.settings, prefix: 'bk/' });
    if (!provenCopy) expect(await copyStore(getFileStorage(t.dataDir), store)).toMatchObject({ failed: [] });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-s3-backups-'));
    const client = await t.pool.connect();
    let b;
    try {
      b = await createBackup({ client, dataDir: t.dataDir, dir, keep: 0, timeZone: 'Europe/Athens', appVersion: 'test', storage: store });
    } finally {
      client.release();
    }
    const inStore: string[] = [];
    for await (const f of store.list()) inStore.push(f.name);
    expect(b.manifest.files.count).toBe(inStore.length);

    const { Client } = pg;
    const admin = new Client({ connectionString: t.dbUrl });
    await admin.connect();
    const target = `crm_s3_restore_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${target}`);
    await admin.end();
    const url = new URL(t.dbUrl);
    url.pathname = `/${target}`;
    const into = new S3Storage({ ...s3.settings, prefix: 'restored/' });
    const r = await restoreBackup({ file: b.file, url: url.toString(), dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'crm-s3-rdata-')), storage: into });
    expect(r.files).toBe(inStore.length);
    const restored = await eightAtATime(inStore, async (name) => (await storedDigest(into, name))?.sha256);
    const backedUp = await eightAtATime(inStore, async (name) => (await storedDigest(store, name))?.sha256);
    expect(restored).toEqual(backedUp);
    expect(restored.every((d) => typeof d === 'string')).toBe(true);
    const drop = new Client({ connectionString: t.dbUrl });
    await drop.connect();
    await drop.query(`drop database ${target} with (force)`);
    await drop.end();
  }, 300_000);
});
