import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp } from '../../test/harness.ts';

// A built web app in miniature: index.html, a hashed script with its .br and .gz, a plain file.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-web-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
const inline = '\n      window.__started = fetch("/api/config");\n    ';
const indexHtml = `<!doctype html><html><head><script>${inline}</script><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>`;
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), indexHtml);
fs.writeFileSync(path.join(dist, 'assets/index-AbC123.js'), script);
fs.writeFileSync(path.join(dist, 'assets/index-AbC123.js.br'), zlib.brotliCompressSync(script));
fs.writeFileSync(path.join(dist, 'assets/index-AbC123.js.gz'), zlib.gzipSync(script));
fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

const t = await createTestApp({ WEB_DIST: dist });
const { app } = t;
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

describe('the web app', () => {
  it('sends a hashed script brotli-compressed to a browser that accepts it, cached for a year', async () => {
    const res = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('falls back to gzip, then to the plain file', async () => {
    const gz = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(script);
  });

  it('answers every screen path with index.html, revalidated by ETag', async () => {
    for (const url of ['/', '/CRM', '/Accounts/View/12', '/login?next=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(indexHtml);
      expect(res.headers.etag).toBeTruthy();
      const again = await app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    }
  });

  it("allows index.html's inline start-up script by its hash, and no other inline script", async () => {
    const res = await app.inject({ url: '/CRM' });
    const csp = String(res.headers['content-security-policy']);
    const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
    const hash = `'sha256-${crypto.createHash('sha256').update(inline, 'utf8').digest('base64')}'`;
    expect(scriptSrc).toEqual(["'self'", hash]);
    // The API's answers carry the same policy.
    expect(String((await app.inject({ url: '/api/health' })).headers['content-security-policy'])).toContain(hash);
  });

  it('answers a missing asset with 404, never with index.html', async () => {
    for (const url of ['/assets/index-Old999.js', '/assets/gone.css', '/missing.js', '/assets/index-AbC123.js.br']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('<div id="root">');
    }
  });

  it('keeps files outside the web app out of reach', async () => {
    for (const url of ['/../package.json', '/%2e%2e/%2e%2e/package.json', '/assets/%2e%2e/%2e%2e/package.json']) {
      const res = await app.inject({ url });
      expect(res.body).not.toContain('"name"');
    }
  });

  it('revalidates files that are not hashed', async () => {
    const res = await app.inject({ url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('API answers', () => {
  it('are compressed above 1 KB for a client that accepts it, and left alone below', async () => {
    const u = await t.user();
    const big = await app.inject({ url: '/api/Localization?culture=el', headers: { 'accept-encoding': 'br, gzip' } });
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    const rows = JSON.parse(zlib.brotliDecompressSync(big.rawPayload).toString()) as { key: string; text: string }[];
    expect(rows.find((r) => r.key === 'nav.owners')?.text).toBe('Ιδιοκτήτες');
    const gz = await app.inject({ url: '/api/Localization?culture=ru', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const small = await app.inject({ url: '/api/Alert/unreadCount', headers: { ...bearer(u.token), 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toBe(0);
  });

  it('never inflates a compressed request body', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/authenticate/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ username: 'nobody@example.com', password: 'whatever1' })),
    });
    expect(res.statusCode).toBe(400);
  });
});
