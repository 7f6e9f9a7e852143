import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'drizzle-orm';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { addressAllowed, guardedLookup } from '../integrations/webhook-address.ts';
import { visibleTo } from './mail.service.ts';

/** The pictures shown: what a mail program shows (never SVG, which can carry a script). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const MAX_BYTES = 5 * 1024 * 1024;
/** The pictures of one message fetched at most (a mail of a thousand pictures is not a thousand requests). */
export const MAX_MAIL_IMAGES = 50;
/** Fetches running at once across the instance: a reader's click never turns into a flood. */
const MAX_RUNNING = 8;
let running = 0;
const TIMEOUT_MS = 10_000;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&lt;': '<', '&gt;': '>' };

/** The remote pictures' addresses a stored message's HTML holds, in order (the sanitiser kept them apart as data-blocked-src). */
export function blockedImages(html: string): string[] {
  return [...html.matchAll(/\sdata-blocked-src="([^"]*)"/g)].map((m) => m[1]!.replace(/&(?:amp|quot|#39|#x27|lt|gt);/g, (e) => ENTITIES[e]!));
}

/**
 * GET /api/mail/{id}/image/{n}: the n-th remote picture of a message, fetched by the server when the
 * reader asks to see the pictures (decision 078). The sender's server sees the CRM's address, not
 * the reader's; only http(s) addresses on public networks (private ones where MAIL_IMAGES_ALLOW_PRIVATE
 * allows them), the first 50 of a message, 8 at once per instance, no redirect, 10 s and 5 MB at most, a picture type the browser shows safely.
 */
export async function sendRemoteImage(app: FastifyInstance, user: SessionUser, id: number, n: number, reply: FastifyReply) {
  const res = await app.db.execute(sql`select m.html from mail_messages m join mailboxes mb on mb.id = m.mailbox_id where m.id = ${id} and ${visibleTo(user)}`);
  const html = (res.rows[0] as { html: string | null } | undefined)?.html;
  const src = html ? blockedImages(html)[n] : undefined;
  if (!src || n >= MAX_MAIL_IMAGES) throw notFound('mailbox.messageNotFound');
  let url: URL;
  try {
    url = new URL(src.startsWith('//') ? `https:${src}` : src);
  } catch {
    throw new AppError(502, 'mailbox.imageUnavailable');
  }
  const rule = { allowPrivate: app.config.integrations.mailImagesAllowPrivate };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || (net.isIP(host) && !addressAllowed(host, rule))) {
    throw new AppError(502, 'mailbox.imageUnavailable');
  }
  if (running >= MAX_RUNNING) throw new AppError(503, 'mailbox.imageUnavailable');
  running++;
  const got = await fetchImage(url, rule)
    .catch(() => null)
    .finally(() => running--);
  if (!got) throw new AppError(502, 'mailbox.imageUnavailable');
  return reply
    .header('content-type', got.type)
    .header('cache-control', 'private, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    .send(got.body);
}

/** One GET of a picture: its bytes and type, or null (an answer other than 200, another type, too big, too slow). */
function fetchImage(url: URL, rule: { allowPrivate: boolean }): Promise<{ type: string; body: Buffer } | null> {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = lib.get(url, { lookup: guardedLookup(rule), timeout: TIMEOUT_MS, headers: { accept: 'image/*', 'user-agent': 'AgencyCRM-Mail/1' } }, (res) => {
      const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (res.statusCode !== 200 || !IMAGE_TYPES.has(type) || Number(res.headers['content-length'] ?? 0) > MAX_BYTES) {
        res.resume();
        req.destroy();
        return resolve(null);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BYTES) {
          req.destroy();
          resolve(null);
        } else chunks.push(c);
      });
      res.on('end', () => resolve({ type, body: Buffer.concat(chunks) }));
      res.on('error', () => resolve(null));
    });
    const deadline = setTimeout(() => req.destroy(), TIMEOUT_MS);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}
