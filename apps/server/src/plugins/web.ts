import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
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

/** Files a browser asks for by name: a missing one is a 404, never the app's index.html served as script. */
const STATIC_FILE = /\.(?:js|mjs|css|map|json|webmanifest|png|jpe?g|gif|svg|ico|webp|avif|woff2?|txt|htm|br|gz)$/i;

/**
 * The built web app (apps/web/dist): each file is sent precompressed (`.br`, `.gz` written next to
 * it by the build) in the best encoding the browser accepts, with `Vary: Accept-Encoding`; hashed
 * assets are cached for a year as immutable, the rest revalidated (ETag → 304). Every other non-API
 * path is a screen of the single-page app and gets index.html.
 */
export async function webPlugin(app: FastifyInstance, opts: { root: string }) {
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
