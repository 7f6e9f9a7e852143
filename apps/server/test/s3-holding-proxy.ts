import net from 'node:net';
import { afterAll } from 'vitest';
import { createTestApp } from './harness.ts';
import { s3Env, startS3Server } from './s3-server.ts';

/**
 * A TCP proxy in front of a real S3-compatible server (test/s3-server.ts) that can hold one request:
 * `hold(method, name)` makes the next request whose first line is that method on a key ending in
 * `name` (or any key, when `name` is omitted) stop at the proxy: nothing of it reaches the server
 * and nothing comes back, as when a store hangs. `held` resolves once it is being held; `release()`
 * lets it (and whatever followed on its connection) through. Everything else passes untouched.
 */
export async function startHoldingProxy(endpoint: string) {
  const target = new URL(endpoint);
  const sockets = new Set<net.Socket>();
  let want: { method: string; name?: string; onHeld: () => void } | null = null;
  let releaseHeld: (() => void) | null = null;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 80), target.hostname);
    sockets.add(client).add(upstream);
    let queue: Buffer[] | null = null;
    client.on('data', (b: Buffer) => {
      if (queue) return void queue.push(b);
      const line = b.toString('latin1', 0, Math.min(b.length, 2048)).split('\r\n', 1)[0]!;
      const [method, target] = line.split(' ');
      const key = decodeURIComponent((target ?? '').split('?')[0]!);
      if (want && method === want.method && (!want.name || key.endsWith(want.name))) {
        const w = want;
        want = null;
        const q: Buffer[] = [b];
        queue = q;
        releaseHeld = () => {
          queue = null;
          for (const c of q) upstream.write(c);
        };
        w.onHeld();
        return;
      }
      upstream.write(b);
    });
    upstream.on('data', (b: Buffer) => client.write(b));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    /** Holds the next request of `method` on a key ending in `name`; resolves when it is held. */
    hold(method: 'GET' | 'PUT' | 'HEAD' | 'DELETE', name?: string): Promise<void> {
      return new Promise<void>((onHeld) => (want = { method, name, onHeld }));
    },
    /** Lets the held request through. */
    release() {
      releaseHeld?.();
      releaseHeld = null;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/**
 * A test file's app with STORAGE=s3 on a real S3-compatible server (test/s3-server.ts) reached
 * through a holding proxy, all stopped after the file's tests.
 */
export async function startHeldS3App(bucket: string) {
  const s3 = await startS3Server(bucket);
  const proxy = await startHoldingProxy(s3.settings.endpoint!);
  const t = await createTestApp(s3Env(s3.settings, { S3_ENDPOINT: proxy.endpoint }));
  afterAll(async () => {
    proxy.release();
    await proxy.close();
    await s3.stop();
  });
  return { s3, proxy, t };
}
