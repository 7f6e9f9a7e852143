import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.ts';
import { firstPaintHtml } from './web.ts';

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
    const small = await u.get('/api/Alert/unreadCount', { headers: { 'accept-encoding': 'br, gzip' } });
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

describe('a screen drawn on the server', () => {
  const built = `<!doctype html>
<html lang="en">
  <head>
    <title>Agency CRM</title>
    <script>boot()</script>
    <script type="module" crossorigin src="/assets/index-AbC123.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-AbC123.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;
  const styles = { css: '/assets/first-paint-X1.css', parts: ['/assets/index-AbC123.css', '/assets/ui-Y2.css'] };
  const paint = { html: '<main><h1>Ιδιοκτήτες</h1></main>', state: { queries: [{ note: '</script><script>alert(1)</script>' }] }, config: { timeZone: 'Europe/Athens' }, width: 412, user: 'maria', lang: 'el', title: 'Ιδιοκτήτες · Agency CRM' };

  it('arrives drawn, inert until the app takes it over, its code asked only once it is painted', () => {
    const html = firstPaintHtml(built, paint, styles)!;
    expect(html).toContain('<html lang="el" data-mantine-color-scheme="light" data-drawn>');
    expect(html).toContain('<title>Ιδιοκτήτες · Agency CRM</title>');
    expect(html).toContain('<div id="root" inert><main><h1>Ιδιοκτήτες</h1></main></div>');
    // The entry is named for the start-up script, not loaded by the parser.
    expect(html).not.toContain('<script type="module"');
    expect(html).toContain('<meta name="crm-entry" content="/assets/index-AbC123.js" />');
    // Every style in one file; the files it holds named but never loaded, so the app's code adds none again.
    expect(html).toContain('<link rel="stylesheet" href="/assets/first-paint-X1.css" />');
    expect(html).toContain('<link rel="stylesheet" href="/assets/ui-Y2.css" disabled />');
    expect(html).not.toContain('crossorigin href="/assets/index-AbC123.css"');
    // The start-up script is untouched (its CSP hash holds); no other script runs.
    expect(html).toContain('<script>boot()</script>');
    expect(html.match(/<script\b(?![^>]*type="application\/json")/g)).toHaveLength(1);
  });

  it('sends the data as JSON that cannot end its block', () => {
    const html = firstPaintHtml(built, paint, styles)!;
    const block = /<script type="application\/json" id="crm-first-paint">(.*?)<\/script>/s.exec(html)![1]!;
    expect(block).not.toContain('<');
    expect(JSON.parse(block)).toEqual({ state: paint.state, config: paint.config, width: 412, user: 'maria' });
  });

  it("takes the place of the page's loading state", () => {
    const loading = built.replace('<div id="root"></div>', '<div id="root"><div class="crm-loading" role="status"><span class="crm-spinner" aria-hidden="true"></span><span lang="en">Loading…</span></div></div>');
    const html = firstPaintHtml(loading, paint, styles)!;
    expect(html).toContain('<div id="root" inert><main><h1>Ιδιοκτήτες</h1></main></div><script type="application/json" id="crm-first-paint">');
    expect(html).not.toContain('crm-loading');
  });

  it('is not drawn when the drawing would need a script, or the page has another shape', () => {
    expect(firstPaintHtml(built, { ...paint, html: '<div>a</div><script>$RC("B:0","S:0")</script>' }, styles)).toBeNull();
    expect(firstPaintHtml(built.replace('<div id="root"></div>', '<div id="app"></div>'), paint, styles)).toBeNull();
  });

  it('is not drawn without a valid page cookie and the signed-in mark the app keeps: the plain index.html', async () => {
    for (const cookie of ['crm_page=' + 'x'.repeat(43) + '; crm_signed_in=1', 'crm_page=' + 'x'.repeat(43), 'crm_signed_in=1']) {
      const res = await app.inject({ method: 'GET', url: '/Owners', headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate', cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(indexHtml);
    }
  });
});
