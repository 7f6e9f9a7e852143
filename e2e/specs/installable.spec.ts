import { expect, test, type Page } from '@playwright/test';
import { apiToken, signIn, signedIn } from '../fixtures.ts';

/** Width and height of a PNG, from its IHDR chunk. */
const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

/** Waits until the service worker is active and controls the page. */
async function controlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 15000 }).toBe('activated');
}

test.describe('installable', () => {
  // The rest of the suite runs without the service worker; these tests are about it.
  test.use({ serviceWorkers: 'allow' });

  test('the web app manifest is served and complete, with its icons', async ({ page, request }) => {
    await page.goto('/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const res = await request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const m = (await res.json()) as { name: string; short_name: string; start_url: string; display: string; theme_color: string; icons: { src: string; sizes: string; type: string; purpose: string }[] };
    expect(m).toMatchObject({ name: 'Agency CRM', short_name: 'CRM', start_url: '/CRM', display: 'standalone', theme_color: '#1971c2' });
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', m.theme_color);
    for (const [purpose, size] of [['any', 192], ['any', 512], ['maskable', 192], ['maskable', 512]] as const) {
      const icon = m.icons.find((i) => i.purpose === purpose && i.sizes === `${size}x${size}`);
      expect(icon, `${purpose} ${size}`).toBeTruthy();
      const png = await request.get(icon!.src);
      expect(png.headers()['content-type']).toBe('image/png');
      expect(pngSize(await png.body())).toEqual({ width: size, height: size });
    }
  });

  test('the service worker controls the page; offline, a reload says so in the reader\'s language and comes back by itself', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'language', value: 'el', url: baseURL! }]);
    await page.goto('/login');
    await expect(page.getByTestId('login-submit')).toHaveText('Σύνδεση');
    await controlled(page);

    await context.setOffline(true);
    // The worker learns of the lost network a moment after the page (navigator.onLine); until then
    // it still opens the cached shell, so the reload is tried again until the offline page shows.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('offline-page')).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Είστε εκτός σύνδεσης');
    await expect(page.getByText('Το CRM χρειάζεται σύνδεση στο διαδίκτυο')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Δοκιμάστε ξανά' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');

    // Back online: the page reloads into the app without a tap.
    await context.setOffline(false);
    await expect(page.getByTestId('login-submit')).toHaveText('Σύνδεση');
  });

  test('the offline page follows the language chosen in the app (Russian)', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'language', value: 'ru', url: baseURL! }]);
    await page.goto('/login');
    await controlled(page);
    await context.setOffline(true);
    // As above: until the worker learns of the lost network it still opens the cached shell.
    await expect(async () => {
      await page.goto('/Owners');
      await expect(page.getByTestId('offline-page')).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Нет подключения к интернету');
    await expect(page.getByRole('link', { name: 'Повторить' })).toBeVisible();
    await context.setOffline(false);
  });

  test("the public listings stay the server's pages in a browser the CRM's service worker controls", async ({ page }) => {
    await signIn(page);
    await controlled(page);
    // Typed in, or followed from a property's "public page" link: the server answers, not the app's shell.
    const res = await page.goto('/listings?lang=el');
    expect(res?.fromServiceWorker()).toBe(false);
    await expect(page.getByTestId('public-count')).toBeVisible();
    await expect(page.getByTestId('not-found')).toHaveCount(0);
    // A screen of the app still opens from the cache.
    const screen = await page.goto('/Owners');
    expect(screen?.fromServiceWorker()).toBe(true);
  });

  test('a signed-in screen opens from the cache, while every API answer comes from the server', async ({ page }) => {
    await signIn(page);
    await controlled(page);
    const fromWorker: string[] = [];
    const fromServer: string[] = [];
    page.on('response', (r) => (r.fromServiceWorker() ? fromWorker : fromServer).push(new URL(r.url()).pathname));
    await page.reload();
    await expect(page.getByTestId('home-welcome')).toBeVisible();
    // The shell and its scripts from the service worker's cache ...
    expect(fromWorker).toContain('/CRM');
    expect(fromWorker.some((p) => /^\/assets\/.+\.js$/.test(p))).toBe(true);
    // ... the API never.
    // (The welcome line can show before the home answer's response event has fired.)
    await expect.poll(() => fromServer).toContain('/api/home');
    expect(fromWorker.filter((p) => /^\/api/i.test(p))).toEqual([]);

    // Nothing of the API is kept in any cache; the shell and the assets are.
    const cached = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) paths.push(new URL(req.url).pathname);
      return paths;
    });
    expect(cached).toContain('/index.html');
    expect(cached).toContain('/manifest.webmanifest');
    expect(cached.filter((p) => /^\/api/i.test(p))).toEqual([]);

    // A record added elsewhere shows on the next load: nothing stale is served.
    const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('crm.session')!) as { token: string }).token);
    const lastName = `Freshowner${Date.now()}`;
    const created = await page.request.post('/api/account/add', { headers: { authorization: `Bearer ${token}` }, data: { firstName: 'Eleni', lastName, isOwner: true } });
    expect(created.status(), await created.text()).toBe(200);
    await page.goto(`/Accounts/View/${((await created.json()) as { id: number }).id}`);
    await expect(page.getByTestId('account-page')).toContainText(lastName);
  });
});

test.describe('compression and caching', () => {
  test('scripts go brotli-compressed and cached for a year; index.html is revalidated by ETag', async ({ request }) => {
    const html = await request.get('/login', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(html.status()).toBe(200);
    expect(html.headers()['cache-control']).toBe('no-cache');
    const etag = html.headers()['etag'];
    expect(etag).toBeTruthy();
    expect((await request.get('/CRM', { headers: { 'if-none-match': etag! } })).status()).toBe(304);

    const script = /<script type="module"[^>]*src="(\/assets\/[^"]+\.js)"/.exec(await html.text())?.[1];
    expect(script).toBeTruthy();
    const js = await request.get(script!, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(js.status()).toBe(200);
    expect(js.headers()['content-encoding']).toBe('br');
    expect(js.headers()['content-type']).toMatch(/javascript/);
    expect(js.headers()['vary']).toMatch(/accept-encoding/i);
    expect(js.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await request.get(script!, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers()['content-encoding']).toBe('gzip');

    const sw = await request.get('/sw.js');
    expect(sw.headers()['cache-control']).toBe('no-cache');
  });

  test('the browser asks for its language\'s texts only; an unchanged answer is a 304', async ({ page, context, baseURL, request }) => {
    await context.addCookies([{ name: 'language', value: 'el', url: baseURL! }]);
    const texts = page.waitForResponse((r) => r.url().includes('/api/Localization'));
    await page.goto('/login');
    const res = await texts;
    expect(new URL(res.url()).search).toBe('?culture=el');
    const rows = (await res.json()) as { key: string; text: string; culture: string }[];
    expect(rows.length).toBeGreaterThan(150);
    expect(new Set(rows.map((r) => r.culture))).toEqual(new Set(['el']));
    const etag = (await res.allHeaders())['etag'];
    expect(etag).toMatch(/^W\/"el-/);

    const again = await request.get('/api/Localization?culture=el', { headers: { 'if-none-match': etag! } });
    expect(again.status()).toBe(304);
    // The texts are kept for the next start (written in parts when the browser is idle, the head
    // last): it renders before the server answers.
    const stored = () =>
      page.evaluate(() => {
        const head = JSON.parse(localStorage.getItem('crm.texts.el') ?? '{}') as { parts?: number; gen?: string };
        if (!head.parts || !head.gen) return 0;
        const text = Array.from({ length: head.parts }, (_, i) => localStorage.getItem(`crm.texts.el.${head.gen}.${i}`) ?? '').join('');
        // Only the parts the head names are kept.
        const parts = Object.keys(localStorage).filter((k) => k.startsWith('crm.texts.el.')).length;
        return parts === head.parts ? Object.keys((JSON.parse(text) as { texts?: object }).texts ?? {}).length : -parts;
      });
    await expect.poll(stored).toBe(rows.length);
  });

  test('index.html asks for the texts and the configuration itself, before its scripts run, once each, within the CSP', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'language', value: 'ru', url: baseURL! }]);
    // Who started each API request: the page's own inline script (its stack is in the document) or a module.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const asked: { path: string; by: string }[] = [];
    cdp.on('Network.requestWillBeSent', (e) => {
      const u = new URL(e.request.url);
      if (u.pathname.startsWith('/api/')) asked.push({ path: u.pathname + u.search, by: new URL(e.initiator.stack?.callFrames[0]?.url || e.initiator.url || 'about:blank').pathname });
    });
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    await page.goto('/login');
    await expect(page.getByTestId('login-submit')).toHaveText('Войти');
    // Asked by index.html (the document /login), and not asked again by the app once it ran.
    expect(asked.filter((a) => a.path === '/api/Localization?culture=ru')).toEqual([{ path: '/api/Localization?culture=ru', by: '/login' }]);
    expect(asked.filter((a) => a.path === '/api/config')).toEqual([{ path: '/api/config', by: '/login' }]);
    expect(await page.evaluate(() => (window as unknown as { __crmBoot?: { language: string } }).__crmBoot?.language)).toBe('ru');
    expect(refused).toEqual([]);
  });
  test('signed in, index.html asks for the shell and the shared components alongside the entry; the sign-in page does not', async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    for (const withSession of [true, false]) {
      const context = withSession ? await signedIn(browser, baseURL!, token, 'en-UK') : await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const asked: { file: string; by: string }[] = [];
      cdp.on('Network.requestWillBeSent', (e) => {
        const u = new URL(e.request.url);
        if (u.pathname.startsWith("/assets/")) asked.push({ file: u.pathname, by: new URL(e.initiator.stack?.callFrames[0]?.url || e.initiator.url || 'about:blank').pathname });
      });
      const refused: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      await page.goto(withSession ? '/Owners' : '/login');
      if (withSession) {
        await expect(page.getByRole('heading', { level: 1, name: 'Owners' })).toBeVisible();
        // Asked by the document's own script (a stack in /Owners, or the browser's module preload),
        // not by the app's code once it ran; each once, the stylesheets too.
        const name = (file: string) => /^\/assets\/(ui|shell-switch)-[^/]+\.(js|css)$/.exec(file)?.slice(1).join('.');
        const early = asked.filter((a) => name(a.file));
        expect(early.map((a) => name(a.file)).sort(), JSON.stringify(asked)).toEqual(['shell-switch.css', 'shell-switch.js', 'ui.css', 'ui.js']);
        expect(early.filter((a) => a.by.startsWith('/assets/')), JSON.stringify(early)).toEqual([]);
      } else {
        await expect(page.getByTestId('login-submit')).toBeVisible();
        expect(asked.filter((a) => /^\/assets\/(ui|shell-switch)-/.test(a.file))).toEqual([]);
      }
      expect(refused).toEqual([]);
      await context.close();
    }
  });
});
