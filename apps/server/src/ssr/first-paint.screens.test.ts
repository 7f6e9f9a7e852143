import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { locations, objects } from '../db/schema/index.ts';
import { createTestApp } from '../../test/harness.ts';
import { bootLoading } from '../../../web/build/boot-loading.ts';

// Screens that may hold a map (Leaflet, which needs a browser: it reads `navigator` as it loads),
// drawn by the app's real server build in the real worker (decision 054): each arrives drawn, the
// map's place held by its placeholder, and no error met while drawing (entry-server.tsx gives up a
// drawing on any error, and the page would then be the plain index.html). Waited for as long as it
// takes (FIRST_PAINT_MS): what is asserted is that it is drawn, not how fast.
const root = path.resolve(import.meta.dirname, '../../../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-first-paint-screens-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
// The server build of the app as it is now (the browser build is not needed: a page of its shape).
const built = spawnSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['vite', 'build', '-c', 'vite.ssr.config.ts', '--outDir', path.join(tmp, 'dist-ssr'), '--logLevel', 'error'], {
  cwd: path.join(root, 'apps/web'),
  // As `npm run build` makes it (under the tests' NODE_ENV=test, JSX would be built for React's development build).
  env: { ...process.env, NODE_ENV: 'production' },
  encoding: 'utf8',
});
if (built.status !== 0) throw new Error(`the server build of the app failed: ${built.stderr}`);
const dist = path.join(tmp, 'dist');
fs.mkdirSync(dist);
// The app's own index.html as the build writes it: its loading state in #root (build/boot-loading.ts),
// its entry script and stylesheet under hashed names.
const loading = bootLoading(path.join(root, 'apps/server/src/db/seed/locales')).transformIndexHtml as { handler: (html: string) => string };
const indexHtml = loading
  .handler(fs.readFileSync(path.join(root, 'apps/web/index.html'), 'utf8'))
  .replace('<script type="module" src="/src/main.tsx"></script>', '<script type="module" crossorigin src="/assets/index-AbC123.js"></script>')
  .replace('</head>', '<link rel="stylesheet" crossorigin href="/assets/index-AbC123.css">\n  </head>');
fs.writeFileSync(path.join(dist, 'index.html'), indexHtml);
fs.writeFileSync(path.join(dist, 'first-paint.json'), JSON.stringify({ css: '/assets/first-paint-X1.css', parts: ['/assets/index-AbC123.css'] }));

// The worker's calls for pages opened under this name wait until the test lets them go: the worker
// stays busy with one drawing, and the queue behind it fills.
const HELD = 'held.example';
let letGo: () => void = () => undefined;
const held = new Promise<void>((resolve) => {
  letGo = resolve;
});
const t = await createTestApp({ WEB_DIST: dist, FIRST_PAINT: 'true', FIRST_PAINT_MS: '60000', MAP_TILE_URL: 'https://tiles.example/{z}/{x}/{y}.png' }, (app) => {
  app.addHook('onRequest', async (req) => {
    if (req.headers.host === HELD && req.url.startsWith('/api/')) await held;
  });
});
const { app, db } = t;
await app.listen({ port: 0, host: '127.0.0.1' });
const admin = await t.user({ roles: ['admin'] });

const [place] = await db.insert(locations).values({ level: 1, nameEn: 'Chalkidiki', nameEl: 'Χαλκιδική', nameRu: 'Халкидики', path: [] }).returning();
await db.update(locations).set({ path: [place!.id] }).where(eq(locations.id, place!.id));
const object = async (values: Record<string, unknown>) =>
  (
    await db
      .insert(objects)
      .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, title: 'Μονοκατοικία', subTypeObjectTypeId: 1, objectSubTypeId: 4, forSale: true, salePrice: 250000, area: 120, locationId: place!.id, active: true, ...values } as never)
      .returning({ id: objects.id })
  )[0]!.id;
const point = await object({ latitude: 40.1, longitude: 23.4, displayCoordinates: true, mapZoom: 15 });
const circle = await object({ latitude: 40.2, longitude: 23.5, displayCoordinates: false, mapCircleLatitude: 40.21, mapCircleLongitude: 23.51, mapCircleRadius: 2500 });

/** A page the server drew (its <html> marked; the start-up script names the mark too). */
const DRAWN = /<html[^>]*\sdata-drawn/;

/** A browser's navigation to a screen, signed in: its page cookie and the app's mark. */
const open = (url: string, cookies = '', host?: string) =>
  app.inject({
    url,
    headers: {
      ...(host ? { host } : {}),
      accept: 'text/html,application/xhtml+xml',
      'sec-fetch-mode': 'navigate',
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)',
      'accept-language': 'el',
      cookie: `crm_page=${admin.token}; crm_signed_in=1; language=el${cookies}`,
    },
  });

describe('a screen with a map, drawn on the server', () => {
  for (const [name, url, cookies, mapId] of [
    ['a property with its point', () => `/Objects/View/${point}`, '', 'object-map'],
    ['a property with its approximate area', () => `/Objects/View/${circle}`, '', 'object-map'],
    ['the property search, on the map', () => '/Objects/Search', `; ObjectSearch.filter=${encodeURIComponent(JSON.stringify({ showOnMap: true }))}`, 'object-search-map'],
  ] as const) {
    it(`arrives drawn, the map's place kept for the browser, without an error: ${name}`, async () => {
      const res = await open(url(), cookies);
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(DRAWN);
      expect(res.body).toContain(`data-testid="${mapId}-loading"`);
      expect(res.body).not.toMatch(/leaflet-container/);
    });
  }
});

describe('a signed-in screen the server does not draw', () => {
  it('is handed to the browser saying it is loading, in the reader\'s language, never blank: the queue full', async () => {
    // More screens at once than the worker lets wait (one drawn at a time, four in all): those beyond
    // are answered with the plain page while the worker is still busy with the first.
    const asked = Array.from({ length: 16 }, (_, i) => open(`/Owners?n=${i}`, '', HELD));
    let settled = 0;
    await new Promise<void>((resolve) => {
      for (const a of asked)
        void a.finally(() => {
          if (++settled === 12) resolve();
        });
    });
    letGo();
    const answers = await Promise.all(asked);
    const plain = answers.filter((a) => !DRAWN.test(a.body));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(plain.length).toBeGreaterThanOrEqual(12);
    for (const a of plain) {
      expect(a.body).toMatch(/<div id="root"><div class="crm-loading" role="status"><span class="crm-spinner" aria-hidden="true"><\/span>/);
      expect(a.body).toContain('<span lang="el">Φόρτωση…</span>');
      // The start-up script shows the reader's language's text (by <html lang>), and asks for the app.
      expect(a.body).toContain('document.documentElement.lang = culture');
      expect(a.body).toContain('<script type="module" crossorigin src="/assets/index-AbC123.js"></script>');
    }
    // Drawn ones have the drawing in its place.
    for (const a of answers.filter((x) => DRAWN.test(x.body))) expect(a.body).not.toContain('class="crm-loading"');
  });

  it('"/" is answered with a redirect to the day\'s home, not an empty drawing', async () => {
    const res = await open('/');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/CRM');
  });
});
