import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cultureOf, type TCulture } from '@crm/contract';
import { html } from '../publishing/html.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * The language the CRM's screens are read in: its `language` cookie (en-UK, el, ru), else the caller's.
 * Compared as sent: none of ours needs decoding, and a value that is not valid percent-encoding
 * (another site's cookie, one mangled) would make decodeURIComponent throw.
 */
function screenCulture(req: FastifyRequest): TCulture {
  const m = /(?:^|;\s*)language=([^;\s]*)/.exec(req.headers.cookie ?? '');
  const v = m ? m[1]! : '';
  return v === 'el' || v === 'ru' || v === 'en-UK' ? cultureOf(v) : req.culture;
}

/**
 * A browser opening the address itself (a file's link opened in a new tab) asks for a page; a call of
 * the API (the screens' own, JSON) or a picture's <img> does not.
 */
export const wantsPage = (req: FastifyRequest) => {
  const accept = req.headers.accept ?? '';
  return /\btext\/html\b/i.test(accept) && !/\bapplication\/(?:problem\+)?json\b/i.test(accept);
};

/**
 * Why a file's link opened in a tab shows no file, each with its status, its texts and where its link leads.
 * gone: deleted, moved to another record, or its content lost. signIn: the browser is not signed in (or
 * its session ended); the sign-in page gets the file's own address (path and query) as its return
 * address, and opens the file once signed in. denied: the reader may not see the record the file
 * belongs to ("/" leads to the reader's own home).
 */
const PAGES = {
  gone: { status: 404, key: 'files.gone', href: () => '/CRM' },
  signIn: { status: 401, key: 'files.signIn', href: (req) => `/login?returnUrl=${encodeURIComponent(req.url)}` },
  denied: { status: 403, key: 'files.denied', href: () => '/' },
} satisfies Record<string, { status: number; key: string; href: (req: FastifyRequest) => string }>;
export type FilePage = keyof typeof PAGES;

/**
 * A small page in the reader's language saying why the file is not shown, with the way on, instead of
 * the browser showing the API's bare JSON answer. The status stays the API's.
 */
export function sendFilePage(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, which: FilePage) {
  const { status, key, href } = PAGES[which];
  const culture = screenCulture(req);
  const t = (part: string) => app.translator.t(culture, `${key}.${part}`);
  const page = html`<!DOCTYPE html>
<html lang="${culture}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t('title')}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #212529; margin: 0; padding: 48px 16px; }
main { max-width: 560px; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0 0 12px; }
p { line-height: 1.5; margin: 0 0 20px; }
a { color: #1864ab; font-weight: 600; }
</style>
</head>
<body>
<main>
<h1>${t('title')}</h1>
<p>${t('text')}</p>
<p><a href="${href(req)}">${t('back')}</a></p>
</main>
</body>
</html>
`;
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer');
  return reply.status(status).header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Vary', 'Accept').send(page.text);
}

/**
 * The error handler of a file's address: a tab that opened it gets the page for a missing file, a
 * signed-out browser or a record the reader may not see; everything else (and every API call) goes
 * on to the CRM's problem details.
 */
export const filePageOnError = (app: FastifyInstance) => <Req extends FastifyRequest>(err: FastifyError, req: Req, reply: FastifyReply) => {
  if (wantsPage(req) && err instanceof AppError) {
    if (err.status === 401) return sendFilePage(app, req, reply, 'signIn');
    if (err.status === 403) return sendFilePage(app, req, reply, 'denied');
    if (err.code === 'files.notFound') return sendFilePage(app, req, reply, 'gone');
  }
  throw err;
};
