import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { connectDb } from '../db/client.ts';
import { apiClient, createTestApp } from '../../test/harness.ts';
import { getFileStorage } from './file-storage.ts';
import { sweepPendingFiles } from './pending-files.ts';

/**
 * Decision 109's third case: a COMMIT that PostgreSQL carried out, whose answer never reached the
 * app (the connection cut after the COMMIT was sent). The app cannot tell it from a COMMIT that
 * failed, so it removes only the names still pending: the committed transaction took its names off,
 * so no file of the committed row is removed. The lost connection fails the statement that ran on it
 * and nothing else: the instance goes on serving. A second app instance reaches the test's database
 * through a TCP proxy that, once it has seen the upload's claim (`delete from
 * stored_files_pending`), lets the COMMIT through and, when PostgreSQL answers that it committed,
 * closes the app's connection instead of passing the answer on.
 */
const t = await createTestApp({}, undefined, { jobs: false });
const JPEG = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#c8a27a' } }).jpeg().toBuffer();

/** CommandComplete with the tag COMMIT, as PostgreSQL answers a COMMIT that did commit. */
const COMMITTED = Buffer.concat([Buffer.from('C'), Buffer.from([0, 0, 0, 11]), Buffer.from('COMMIT\0')]);

/** A proxy to PostgreSQL that cuts the first connection whose transaction claimed stored files, once its COMMIT is done. */
async function commitCutter(target: URL) {
  // PostgreSQL on a unix socket (the tests' own) or on TCP.
  const socketDir = target.searchParams.get('host')?.startsWith('/') ? target.searchParams.get('host') : null;
  const port = Number(target.port || 5432);
  let cut = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = socketDir ? net.connect(`${socketDir}/.s.PGSQL.${port}`) : net.connect(port, target.hostname);
    sockets.add(client).add(upstream);
    let claimed = false;
    client.on('data', (b: Buffer) => {
      if (b.toString('latin1').includes('delete from stored_files_pending')) claimed = true;
      upstream.write(b);
    });
    upstream.on('data', (b: Buffer) => {
      // PostgreSQL's answer to the COMMIT (its tag, whether the statement was sent by text or
      // prepared): the transaction is done. The app never hears it.
      if (claimed && cut === 0 && b.includes(COMMITTED)) {
        cut++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(b);
    });
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = new URL(target);
  url.searchParams.delete('host');
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cuts: () => cut,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

const proxy = await commitCutter(new URL(t.dbUrl));
const handle = connectDb(proxy.url, 5, { timeZone: t.config.timeZone });
const second = await buildApp({ config: t.config, db: handle.db, jobs: false, serveWeb: false });
await second.ready();
afterAll(async () => {
  await second.close();
  await handle.close();
  await proxy.close();
});

async function storedFiles() {
  const out: string[] = [];
  for await (const f of getFileStorage(t.dataDir).list()) out.push(f.name);
  return out.sort();
}

describe('a COMMIT carried out whose answer is lost', () => {
  it('answers an error, and the committed photo keeps its three files', async () => {
    const admin = await t.user({ roles: ['admin'] });
    const before = await storedFiles();
    const res = await apiClient(second, admin.token).upload('/api/files', [{ field: 'files', name: 'commit-lost.jpg', data: JPEG, type: 'image/jpeg' }]);
    expect(proxy.cuts()).toBe(1);
    // The app could not know the upload was stored.
    expect(res.statusCode).toBe(500);

    // It was: the row committed, and names files that are all there.
    const rows = (await t.db.execute(sql`select system_name, thumb_name, web_name from files where user_name = 'commit-lost.jpg'`)).rows as Record<string, string>[];
    expect(rows).toHaveLength(1);
    const names = Object.values(rows[0]!).sort();
    expect(await storedFiles()).toEqual([...before, ...names].sort());
    expect((await t.db.execute(sql`select name from stored_files_pending`)).rows).toEqual([]);
    expect(await sweepPendingFiles(t.app, 0)).toBe(0);
    expect(await storedFiles()).toEqual([...before, ...names].sort());
    // Opened whole, by either instance: the one whose connection was cut goes on serving.
    for (const app of [t.app, second]) {
      const opened = await apiClient(app, admin.token).get(`/api/files/${rows[0]!.system_name}`);
      expect(opened.statusCode).toBe(200);
      expect(opened.rawPayload.equals(JPEG)).toBe(true);
    }
  }, 60_000);
});
