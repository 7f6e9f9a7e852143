import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { sendBody } from './wire.ts';

const MB = 1024 * 1024;
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MAX_MB: '5', UPLOAD_REQUEST_MAX_MB: '8' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => t.app.close());

describe('a request that will be refused is refused before its body is read', () => {
  it('an anonymous 500 MB upload gets its 401 after a few megabytes at most', async () => {
    const a = await sendBody(`${base}/api/files`, { total: 500 * MB, headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    console.log(JSON.stringify({ ...a, body: a.body.slice(0, 80) }));
    expect(a.status).toBe(401);
    expect(a.sent).toBeLessThan(16 * MB);
    expect(a.taken).toBeLessThan(16 * MB);
    expect(a.closed).toBe(true);
  });
});
