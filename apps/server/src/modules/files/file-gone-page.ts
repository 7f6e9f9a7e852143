import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cultureOf, type TCulture } from '@crm/contract';
import { html } from '../publishing/html.ts';

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
 * A file's link opened after the file was deleted (or moved to another record, or its content lost):
 * a small page in the reader's language saying so, with the way back to the CRM, instead of the
 * browser showing the API's bare 404 answer. Status 404 still.
 */
export function sendFileGonePage(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const culture = screenCulture(req);
  const t = (key: string) => app.translator.t(culture, key);
  const page = html`<!DOCTYPE html>
<html lang="${culture}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t('files.gone.title')}</title>
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
<h1>${t('files.gone.title')}</h1>
<p>${t('files.gone.text')}</p>
<p><a href="/CRM">${t('files.gone.back')}</a></p>
</main>
</body>
</html>
`;
  return reply.status(404).header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').header('Vary', 'Accept').send(page.text);
}
