// The service worker (/sw.js), built by build/service-worker.ts, which puts `__CRM_SW__` in front.
//
// - Installs this build's app shell (index.html) and every hashed asset in one cache per version.
// - A screen opened online is answered from that cache at once (the assets it names are in the same
//   cache, so the shell never points at a file that is gone); a screen opened offline shows a short
//   page in the reader's language that says so and reloads by itself when the connection is back.
// - /api is never touched: every call goes to the network, nothing of it is ever cached. The
//   server's own pages (the public listings) go to the network too, and so do the screens the server
//   writes per address (a shortlist's link, whose 404/410 and headers are the server's).
// - A new version installs in the background, takes over at once and deletes the older caches; the
//   open page keeps running, and the next load uses the new version. Should an open page of the
//   old version ask for a file the server no longer has, the app reloads itself (main.tsx).
//
// TypeScript's DOM library has no service-worker types; the few used here are declared below.

type Lang = 'en' | 'el' | 'ru';
type Config = {
  version: string;
  shell: string;
  /** The entry script named in this build's index.html: a shell without it belongs to another build. */
  entry: string;
  precache: string[];
  offline: Record<Lang, { title: string; text: string; retry: string }>;
  /** The offline page's inline script and its CSP hash. */
  offlineScript: string;
  offlineScriptHash: string;
};
declare const __CRM_SW__: Config;
/** The contract's isServerPage (the server's own pages: the public listings, the feed), written in by the build. */
declare const isServerPage: (pathname: string) => boolean;
/** The contract's isServerWrittenScreen (screens whose page the server writes per address: a shortlist's link), written in by the build. */
declare const isServerWrittenScreen: (pathname: string) => boolean;

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(r: Response | Promise<Response>): void;
}
type Scope = {
  location: Location;
  navigator: Navigator;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  cookieStore?: { get(name: string): Promise<{ value: string } | null> };
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEvent) => void): void;
};

const sw = self as unknown as Scope;
const cfg = __CRM_SW__;
const CACHE = `crm-${cfg.version}`;
const PRECACHED = new Set(cfg.precache);

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const shell = await fetch(cfg.shell, { cache: 'no-cache' });
      // A deploy between fetching sw.js and index.html: install nothing now, the next check retries.
      if (!shell.ok || !(await shell.clone().text()).includes(cfg.entry)) throw new Error('The app shell belongs to another version.');
      await cache.addAll(cfg.precache);
      await cache.put(cfg.shell, shell);
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('crm-') && name !== CACHE) await caches.delete(name);
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  // The API always goes to the network, untouched.
  if (/^\/api(\/|$)/i.test(url.pathname)) return;
  // So do the server's own pages (the public listings and their feed): they are not the app.
  if (isServerPage(url.pathname)) return;
  if (req.mode === 'navigate') event.respondWith(openScreen(req, url));
  else if (PRECACHED.has(url.pathname)) event.respondWith(fromCache(req));
});

/**
 * A screen: the cached shell when online, the offline page when the network is gone. A screen the
 * server writes per address (a shortlist's link: its 404/410, its headers) is always asked of the
 * server, so a dead link says so with its status here too.
 */
async function openScreen(req: Request, url: URL): Promise<Response> {
  // Paths with an extension (terms.htm, sw.js) are files, not screens of the app.
  const isScreen = !/\.[a-z0-9]+$/i.test(url.pathname);
  if (isScreen && !isServerWrittenScreen(url.pathname) && sw.navigator.onLine) {
    const shell = await caches.match(cfg.shell, { cacheName: CACHE });
    if (shell) return shell;
  }
  try {
    return await fetch(req);
  } catch {
    return offlinePage(await uiLanguage());
  }
}

async function fromCache(req: Request): Promise<Response> {
  return (await caches.match(req, { cacheName: CACHE })) ?? fetch(req);
}

/** The language the reader chose in the app (its cookie), else the browser's. */
async function uiLanguage(): Promise<Lang> {
  let chosen: string | undefined;
  try {
    chosen = (await sw.cookieStore?.get('language'))?.value;
  } catch {
    // No cookie store in this browser.
  }
  for (const tag of [chosen, ...sw.navigator.languages]) {
    const l = tag?.toLowerCase() ?? '';
    if (l.startsWith('el')) return 'el';
    if (l.startsWith('ru')) return 'ru';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function offlinePage(lang: Lang): Response {
  const t = cfg.offline[lang];
  const html = `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#1971c2">
<title>${escapeHtml(t.title)}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f8f9fa;color:#212529;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
main{max-width:28rem;margin:1rem;padding:2rem 1.5rem;background:#fff;border:1px solid #dee2e6;border-radius:8px;text-align:center}
h1{font-size:1.375rem;margin:0 0 .75rem}
p{margin:0 0 1.5rem;line-height:1.5;color:#495057}
a{display:inline-flex;align-items:center;justify-content:center;min-height:2.75rem;padding:0 1.25rem;border-radius:4px;background:#1971c2;color:#fff;font-weight:600;text-decoration:none}
a:focus-visible{outline:3px solid #1864ab;outline-offset:2px}
</style>
</head>
<body>
<main data-testid="offline-page">
<h1>${escapeHtml(t.title)}</h1>
<p>${escapeHtml(t.text)}</p>
<a href="">${escapeHtml(t.retry)}</a>
</main>
<script>${cfg.offlineScript}</script>
</body>
</html>`;
  return new Response(html, {
    status: 503,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; script-src '${cfg.offlineScriptHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}

export {};
