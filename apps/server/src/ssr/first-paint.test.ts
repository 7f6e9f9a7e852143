import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startFirstPainter, type FirstPaintInput } from './first-paint.ts';

// Stand-ins for the server build of the app (apps/web/dist-ssr): how the worker around it behaves
// when a screen is drawn, fails, never ends, or the worker itself stops.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-first-paint-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const bundle = (name: string, body: string) => {
  const file = path.join(dir, `${name}.mjs`);
  fs.writeFileSync(file, `export async function renderFirstPaint(input) {\n${body}\n}\n`);
  return file;
};
const input: FirstPaintInput = { origin: 'http://127.0.0.1:1', host: 'crm.example', url: '/Owners', token: 't'.repeat(43), cookie: 'language=el', width: 412 };
const log = { warn: () => undefined } as unknown as FastifyBaseLogger;

describe('the worker that draws a first paint', () => {
  it("answers what the app's server build drew, given the page's address under the browser's name for this server and the browser's stand-ins", async () => {
    const p = startFirstPainter(
      bundle('ok', `return { html: '<p>' + input.origin + input.url + '|' + typeof window + '|' + typeof localStorage.getItem + '|' + typeof document.cookie + '</p>', state: {}, config: {}, width: input.width, lang: 'el', title: '' };`),
      log,
    );
    const out = await p.paint(input);
    expect(out?.html).toBe('<p>http://crm.example/Owners|object|function|string</p>');
    await p.close();
  });

  it('answers null for a screen that failed, and goes on drawing the next', async () => {
    const flag = path.join(dir, 'failed-once');
    const p = startFirstPainter(bundle('fails', `const fs = await import('node:fs'); if (!fs.existsSync(${JSON.stringify(flag)})) { fs.writeFileSync(${JSON.stringify(flag)}, '1'); throw new Error('broken screen'); } return { html: '<p>next</p>', state: {}, config: {}, width: 412, lang: 'en', title: '' };`), log);
    expect(await p.paint(input)).toBeNull();
    expect((await p.paint(input))?.html).toBe('<p>next</p>');
    await p.close();
  });

  it('answers null in time when a screen takes too long (the browser draws it), not the screen drawn late', async () => {
    // The screen is slow on purpose: 5 s, against the painter's 200 ms.
    const p = startFirstPainter(bundle('slow', `await new Promise((r) => setTimeout(r, 5000)); return { html: '<p>late</p>', state: {}, config: {}, width: 412, lang: 'en', title: '' };`), log, 200);
    await p.paint(input).catch(() => null);
    expect(await p.paint(input)).toBeNull();
    await p.close();
  });

  it('answers null, for a while, once its worker has stopped: no worker is started again to draw it', async () => {
    const tries = path.join(dir, 'exits-tries');
    fs.writeFileSync(tries, '');
    const p = startFirstPainter(bundle('exits', `(await import('node:fs')).appendFileSync(${JSON.stringify(tries)}, 'x'); process.exit(3);`), log);
    expect(await p.paint(input)).toBeNull();
    expect(await p.paint(input)).toBeNull();
    expect(fs.readFileSync(tries, 'utf8')).toBe('x');
    await p.close();
  });

  it('keeps a drawn page while nothing has changed, for the same session, address, cookies, languages and width only (decision 054)', async () => {
    const counter = path.join(dir, 'drawings');
    fs.writeFileSync(counter, '0');
    const drawing = bundle(
      'counted',
      `const fs = await import('node:fs'); const n = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1; fs.writeFileSync(${JSON.stringify(counter)}, String(n));
       return { html: '<p>' + n + '</p>', state: {}, config: {}, width: input.width, lang: 'el', title: '' };`,
    );
    let version = 1;
    let bumpWhileDrawing = false;
    const p = startFirstPainter(drawing, log, 2000, {
      version: async () => {
        if (bumpWhileDrawing) {
          bumpWhileDrawing = false;
          version++;
          return String(version - 1);
        }
        return String(version);
      },
    });
    const html = async (i: FirstPaintInput) => (await p.paint(i))?.html;
    expect(await html(input)).toBe('<p>1</p>');
    expect(await html(input)).toBe('<p>1</p>');
    // Anything else about the reader: drawn for them.
    expect(await html({ ...input, token: 'u'.repeat(43) })).toBe('<p>2</p>');
    expect(await html({ ...input, url: '/Owners?x=1' })).toBe('<p>3</p>');
    expect(await html({ ...input, cookie: 'language=el; OwnerList.perPage=100' })).toBe('<p>4</p>');
    expect(await html({ ...input, width: 1280 })).toBe('<p>5</p>');
    expect(await html({ ...input, acceptLanguage: 'ru' })).toBe('<p>6</p>');
    expect(await html(input)).toBe('<p>1</p>');
    // A change committed: drawn again, and kept from then on.
    version++;
    expect(await html(input)).toBe('<p>7</p>');
    expect(await html(input)).toBe('<p>7</p>');
    // A change committed while it was being drawn: sent, but not kept.
    version++;
    bumpWhileDrawing = true;
    expect(await html(input)).toBe('<p>8</p>');
    expect(await html(input)).toBe('<p>9</p>');
    expect(await html(input)).toBe('<p>9</p>');
    expect(p.kept!().entries).toBeGreaterThan(0);
    await p.close();
  });

  it('keeps at most as many pages, and bytes, as it is given', async () => {
    const p = startFirstPainter(bundle('big', `return { html: 'x'.repeat(1000) + input.url, state: {}, config: {}, width: 412, lang: 'el', title: '' };`), log, 2000, {
      version: async () => '1',
      maxEntries: 5,
      maxBytes: 100_000,
    });
    for (let i = 0; i < 40; i++) await p.paint({ ...input, url: `/Owners?page=${i}` });
    expect(p.kept!().entries).toBe(5);
    expect(p.kept!().bytes).toBeLessThanOrEqual(100_000);
    await p.close();
  });
});
