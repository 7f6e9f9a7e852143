import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** Where index.html's #root holds the loading state this plugin writes. */
export const LOADING_MARK = '<!--crm:loading-->';

const LANGUAGES = ['en', 'el', 'ru'] as const;

/**
 * The page says it is loading from its first paint, before any script: a signed-in screen the
 * server did not draw (the worker busy, slow or failed: the plain index.html) is never a white page
 * while the app's code arrives (issue 45). Written into #root, so the app's first render replaces
 * it. The text is the texts' own `app.loading` in each language (the locale files); the start-up
 * script puts the reader's language on <html>, and the page's CSS shows that one.
 */
export function bootLoading(localesDir: string): Plugin {
  const texts = LANGUAGES.map((lang) => {
    const all = JSON.parse(fs.readFileSync(path.join(localesDir, `app.${lang}.json`), 'utf8')) as Record<string, string>;
    const text = all['app.loading'];
    if (!text) throw new Error(`app.${lang}.json has no app.loading`);
    return { lang, text: text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!) };
  });
  return {
    name: 'crm-boot-loading',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        if (!html.includes(LOADING_MARK)) throw new Error(`index.html has no ${LOADING_MARK} in #root`);
        const spans = texts.map((t) => `<span lang="${t.lang}">${t.text}</span>`).join('');
        return html.replace(LOADING_MARK, `<div class="crm-loading" role="status"><span class="crm-spinner" aria-hidden="true"></span>${spans}</div>`);
      },
    },
  };
}
