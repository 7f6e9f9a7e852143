import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startHeldS3App } from '../../../test/s3-holding-proxy.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { backupAreaOf, backupNow } from './backup.routes.ts';

/**
 * A backup of files kept in an S3-compatible store (s3rver, behind a proxy that can hold one
 * request) whose store stops answering while the files are fetched: given up (the job's signal, as
 * when the instance stops), it ends at once instead of waiting for the store, and keeps nothing.
 */
const { proxy, t } = await startHeldS3App('crm-backup-hold');

describe('a backup given up while the store does not answer', () => {
  it('ends without waiting for the held fetch, and no backup is kept', async () => {
    const store = getFileStorage(t.dataDir);
    for (const name of ['a1a1a1a1a1a1.jpg', 'b2b2b2b2b2b2.pdf', 'c3c3c3c3c3c3.webp']) await store.put(name, Readable.from([randomBytes(20 * 1024)]));
    const held = proxy.hold('GET', 'b2b2b2b2b2b2.pdf');
    const stop = new AbortController();
    const backup = backupNow(t.app, stop.signal);
    backup.catch(() => {});
    await held;
    stop.abort(new Error('the instance is stopping'));
    // Never released: with the fetch still held at the proxy, the backup has ended all the same.
    await expect(backup).rejects.toThrow();
    expect(await backupAreaOf(t.app)!.list()).toEqual([]);
  });
});
