import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

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

/** Files a browser asks for by name: a missing one is a 404, never the app's index.html served as script. */
const STATIC_FILE = /\.(?:js|mjs|css|map|json|webmanifest|png|jpe?g|gif|svg|ico|webp|avif|woff2?|txt|htm|br|gz)$/i;

/**
 * The built web app (apps/web/dist): each file is sent precompressed (`.br`, `.gz` written next to
 * it by the build) in the best encoding the browser accepts, with `Vary: Accept-Encoding`; hashed
 * assets are cached for a year as immutable, the rest revalidated (ETag → 304). Every other non-API
 * path is a screen of the single-page app and gets index.html.
 */
export async function webPlugin(app: FastifyInstance, opts: { root: string; pages?: AppPageRoute[] }) {
  const { root } = opts;
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

  // The build's index.html, read once (as its script hashes are, for the CSP).
  let indexHtml: string | undefined;
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

  app.get('/*', { config: { access: 'public' }, compress: false, schema: { hide: true } }, async (req, reply) => {
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
    return reply.header('Cache-Control', REVALIDATE).sendFile('index.html');
  });
}
