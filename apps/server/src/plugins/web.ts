import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { pageCookieToken } from './auth.ts';
import { startFirstPainter, type FirstPaint } from '../ssr/first-paint.ts';
import { dataVersionOfAll } from '../lib/kept-answers.ts';

/** Hashed build output: its name changes whenever its content does, so it never needs revalidating. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the service worker, the manifest, icons): kept, but revalidated by ETag on every use. */
export const REVALIDATE = 'no-cache';

/**
 * The CSP sources ('sha256-…') of index.html's inline scripts: the page's start-up script runs
 * before any module and is allowed by its hash, never by 'unsafe-inline'. None when there is no
 * build (an API-only server).
 */
export function inlineScriptHashes(indexHtml: string): string[] {
  let html: string;
  try {
    html = fs.readFileSync(indexHtml, 'utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const m of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    if (m[1]!.trim()) out.push(`'sha256-${crypto.createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`);
  }
  return out;
}

/**
 * What the server says of a screen before the app runs: its HTTP status, the page's language and
 * title, and its <meta> tags (link previews read these; they run no script), plus headers.
 */
export type AppPage = {
  status: number;
  lang?: string;
  title?: string;
  meta: { name?: string; property?: string; content: string }[];
  headers?: Record<string, string>;
};
/** A screen whose index.html the server writes per address (e.g. a shared link's preview). */
export type AppPageRoute = { path: string; page: (req: FastifyRequest) => Promise<AppPage> };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * index.html with a screen's language, title and meta tags, every value escaped. Only the <html>
 * tag and the <title> change: the inline start-up script stays as it is, so its CSP hash holds.
 */
export function pageHtml(indexHtml: string, page: AppPage): string {
  const tags = page.meta.map((m) => `<meta ${m.property ? `property="${escapeHtml(m.property)}"` : `name="${escapeHtml(m.name ?? '')}"`} content="${escapeHtml(m.content)}" />`);
  let html = indexHtml;
  if (page.lang) html = html.replace(/<html\b[^>]*>/i, `<html lang="${escapeHtml(page.lang)}">`);
  const title = /<title>[\s\S]*?<\/title>/i;
  const head = [...(page.title ? [`<title>${escapeHtml(page.title)}</title>`] : []), ...tags].join('\n    ');
  if (page.title && title.test(html)) return html.replace(title, () => head);
  return html.replace(/<\/head>/i, () => `  ${head}\n  </head>`);
}

/**
 * A phone's browser (its mobile hint, else its user agent): its screen is drawn for a phone's width,
 * any other for a desktop's. The browser corrects a wrong guess once it has taken the screen over.
 */
export const phoneBrowser = (req: FastifyRequest): boolean =>
  req.headers['sec-ch-ua-mobile'] === '?1' || /\b(Mobi|Android|iPhone|iPod)\b/i.test(String(req.headers['user-agent'] ?? ''));

/** Screens without a sign-in: never drawn on the server (ssr/first-paint.ts). */
const PUBLIC_SCREEN = /^\/(?:(?:login|ForgotPassword|ResetPassword|index\.html)(?:[/?]|$)|(?:Shortlist|OwnerReport|Payments\/ApproveExpense)\/)/i;

/** The cookie the app keeps beside its session and removes on every sign-out (lib/session.ts). */
const SIGNED_IN = /(?:^|;\s*)crm_signed_in=1(?:;|$)/;

/**
 * index.html with a screen drawn in it (decision 054): the drawing inside #root, not to be used
 * (inert) until the app has started and replaced it with the live screen; the data it shows beside
 * it, for the app's queries (a JSON block, never run); and the build's styles in one file, since the
 * drawing is shown before any script has run.
 */
export function firstPaintHtml(indexHtml: string, paint: FirstPaint, styles: { css: string; parts: string[] }): string | null {
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
  // #root with the page's loading state (build/boot-loading.ts), replaced by the drawing.
  const root = /<div id="root">(?:<div class="crm-loading"[^>]*>[\s\S]*?<\/div>)?<\/div>/;
  // A page of another shape than this code knows: not drawn (the browser draws it as always).
  if (!entry.test(indexHtml) || !root.test(indexHtml)) return null;
  // A drawing that needs a script to put its parts in place (the CSP runs none inline): not sent.
  if (/<script\b/i.test(paint.html)) return null;
  const state = JSON.stringify({ state: paint.state, config: paint.config, width: paint.width, user: paint.user }).replace(/</g, '\\u003c');
  const lang = escapeHtml(paint.lang);
  return (
    indexHtml
      .replace(/<html\b[^>]*>/i, () => `<html lang="${lang}" data-mantine-color-scheme="light" data-drawn>`)
      .replace(/<title>[\s\S]*?<\/title>/i, (t) => (paint.title ? `<title>${escapeHtml(paint.title)}</title>` : t))
      // The app's entry is asked once the drawing has been painted (index.html's start-up script).
      .replace(entry, (_m, src: string) => `<meta name="crm-entry" content="${escapeHtml(src)}" />`)
      // The entry's styles are in the first paint's file, with every screen's. The files it holds are
      // named too, disabled (never loaded): the app's code loads a screen's styles only when no such
      // link is there, and each one added would restyle the whole page again.
      .replace(/<link rel="stylesheet" crossorigin href="[^"]+">/, () =>
        [`<link rel="stylesheet" href="${escapeHtml(styles.css)}" />`, ...styles.parts.map((p) => `<link rel="stylesheet" href="${escapeHtml(p)}" disabled />`)].join('\n    '),
      )
      .replace(root, () => `<div id="root" inert>${paint.html}</div><script type="application/json" id="crm-first-paint">${state}</script>`)
  );
}

/** A drawn page's HTML, and its compressed forms once asked for. */
type DrawnPage = { html: string; br?: Buffer; gz?: Buffer; redirect?: string };

/** Files a browser asks for by name: a missing one is a 404, never the app's index.html served as script. */
const STATIC_FILE = /\.(?:js|mjs|css|map|json|webmanifest|png|jpe?g|gif|svg|ico|webp|avif|woff2?|txt|htm|br|gz)$/i;

/**
 * The built web app (apps/web/dist): each file is sent precompressed (`.br`, `.gz` written next to
 * it by the build) in the best encoding the browser accepts, with `Vary: Accept-Encoding`; hashed
 * assets are cached for a year as immutable, the rest revalidated (ETag → 304). Every other non-API
 * path is a screen of the single-page app and gets index.html.
 */
export async function webPlugin(app: FastifyInstance, opts: { root: string; pages?: AppPageRoute[]; firstPaint?: { bundle: string } }) {
  const { root } = opts;
  // The build's index.html, read once (as its script hashes are, for the CSP).
  let indexHtml: string | undefined;
  // The screens drawn on the server: the build's first-paint styles and the server build of the app.
  let firstPaintCss: { css: string; parts: string[] } | undefined;
  try {
    const built = JSON.parse(fs.readFileSync(path.join(root, 'first-paint.json'), 'utf8')) as { css?: unknown; parts?: unknown };
    if (typeof built.css === 'string' && Array.isArray(built.parts)) firstPaintCss = { css: built.css, parts: built.parts.filter((p): p is string => typeof p === 'string') };
  } catch {
    firstPaintCss = undefined;
  }
  // Drawn pages kept while nothing they show has changed (decision 054).
  // How long a signed-in screen may wait for its drawing, from the moment its request came in
  // (FIRST_PAINT_MS, default 0.8 s): then the plain index.html goes, its loading state on screen at
  // once, and the browser draws the screen. Under 1 s with room to send it, on a busy server too
  // (issue 45: 8 users at once on 2 cores).
  const FIRST_PAINT_MS = app.config.firstPaintMs;
  const painter =
    opts.firstPaint && firstPaintCss && fs.existsSync(opts.firstPaint.bundle) ? startFirstPainter(opts.firstPaint.bundle, app.log, FIRST_PAINT_MS, { version: () => dataVersionOfAll(app.db) }) : null;
  if (painter) app.addHook('onClose', async () => painter.close());

  /** A signed-in reader opening a screen by its address: the screen drawn, or null (index.html as it is). */
  const drawn = async (req: FastifyRequest, elapsedMs: number): Promise<DrawnPage | null> => {
    if (!painter || !firstPaintCss || req.method !== 'GET' || PUBLIC_SCREEN.test(req.url)) return null;
    if (req.headers['sec-fetch-mode'] !== undefined && req.headers['sec-fetch-mode'] !== 'navigate') return null;
    if (!/text\/html/.test(req.headers.accept ?? '')) return null;
    // Signed in in this browser as far as the app knows (a sign-out that never reached the server
    // removed this cookie all the same).
    if (!SIGNED_IN.test(req.headers.cookie ?? '')) return null;
    const token = pageCookieToken(req);
    // Looked up before any drawing is queued (plugins/auth.ts, as for every request): a made-up or
    // ended token, or a sign-in that is not staff's, costs the worker nothing.
    if (!req.user?.roles.some((r) => r === 'admin' || r === 'employee')) return null;
    const address = app.server.address() as AddressInfo | null;
    if (!token || !address || typeof address !== 'object') return null;
    const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    // The name the browser used, as the server reads it (behind a trusted proxy, the proxy's header).
    const pageHost = req.host;
    if (!pageHost || !/^[\w.-]+(?::\d+)?$|^\[[\d:a-f.]+\](?::\d+)?$/i.test(pageHost)) return null;
    // The time left of the screen's budget: whatever the drawing waits for (the queue, the worker,
    // the database), the page is handed to the browser by then.
    const left = FIRST_PAINT_MS - elapsedMs;
    if (left <= 0) return null;
    let late: NodeJS.Timeout | undefined;
    const inTime = new Promise<null>((resolve) => {
      late = setTimeout(() => resolve(null), left);
    });
    const painting = painter.paint({
      origin: `http://${host}:${address.port}`,
      host: pageHost,
      url: req.url,
      token,
      // The app's code never sees the session's HttpOnly cookies in a browser; nor here.
      cookie: (req.headers.cookie ?? '').replace(/(?:^|;\s*)crm_(?:page|files|device)=[^;]*/g, ''),
      acceptLanguage: req.headers['accept-language'],
      width: phoneBrowser(req) ? 412 : 1280,
    });
    const paint = await Promise.race([painting, inTime]).finally(() => clearTimeout(late));
    if (!paint) return null;
    // A screen that only sends elsewhere ("/" to the day's home): answered with the address, on this site only.
    if (paint.redirect) return /^\/(?![/\\])/.test(paint.redirect) ? { html: '', redirect: paint.redirect } : null;
    indexHtml ??= fs.readFileSync(path.join(root, 'index.html'), 'utf8');
    // A page kept by the painter comes back as the same object: its HTML and compressed bytes are made once.
    let page = pages.get(paint);
    if (!page) {
      const html = firstPaintHtml(indexHtml, paint, firstPaintCss);
      if (html === null) return null;
      page = { html };
      pages.set(paint, page);
    }
    return page;
  };
  const pages = new WeakMap<FirstPaint, DrawnPage>();
  /** A drawn screen: personal data, so kept by no cache; compressed here (the route sends files precompressed). */
  const sendDrawn = (req: FastifyRequest, reply: FastifyReply, page: DrawnPage) => {
    const accepts = String(req.headers['accept-encoding'] ?? '');
    reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Vary', 'Cookie, Accept-Encoding');
    if (/\bbr\b/.test(accepts)) return reply.header('Content-Encoding', 'br').send((page.br ??= zlib.brotliCompressSync(page.html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })));
    if (/\bgzip\b/.test(accepts)) return reply.header('Content-Encoding', 'gzip').send((page.gz ??= zlib.gzipSync(page.html, { level: 6 })));
    return reply.send(page.html);
  };
  await app.register(fastifyStatic, {
    root,
    serve: false,
    preCompressed: true,
    cacheControl: false,
    index: false,
    // Only the browser's own copy is kept (ETag); a hashed asset is the same file forever.
    etag: true,
    lastModified: false,
  });

  const isFile = (rel: string) => {
    try {
      return fs.statSync(path.join(root, rel)).isFile();
    } catch {
      return false;
    }
  };

  for (const { path: route, page } of opts.pages ?? []) {
    app.get(route, { config: { access: 'public' }, schema: { hide: true } }, async (req, reply) => {
      indexHtml ??= fs.readFileSync(path.join(root, 'index.html'), 'utf8');
      const p = await page(req);
      return reply
        .status(p.status)
        .headers(p.headers ?? {})
        .header('Content-Type', 'text/html; charset=utf-8')
        .send(pageHtml(indexHtml, p));
    });
  }

  app.get('/*', { config: { access: 'public', pageCookie: true }, compress: false, schema: { hide: true } }, async (req, reply) => {
    if (/^\/api(?:\/|$)/i.test(req.url)) return reply.callNotFound();
    let rel: string;
    try {
      rel = decodeURIComponent(req.url.split('?')[0]!).replace(/^\/+/, '');
    } catch {
      return reply.callNotFound();
    }
    const safe = rel && !rel.split('/').includes('..') && !rel.includes('\0');
    if (safe && !/\.(?:br|gz)$/i.test(rel) && isFile(rel)) {
      return reply.header('Cache-Control', rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE).sendFile(rel);
    }
    if (rel.startsWith('assets/') || STATIC_FILE.test(rel)) return reply.callNotFound();
    const html = await drawn(req, reply.elapsedTime);
    if (html?.redirect) return reply.header('Cache-Control', 'no-store').header('Vary', 'Cookie').redirect(html.redirect, 302);
    if (html) return sendDrawn(req, reply, html);
    return reply.header('Cache-Control', REVALIDATE).sendFile('index.html');
  });
}
