// For the web's unit tests only: the screens' real texts, as the server ships them
// (apps/server/src/db/seed/locales), and i18next started on them as the app starts it.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';

const LOCALES = fileURLToPath(new URL('../../../server/src/db/seed/locales/', import.meta.url));

/** Every text of one language, from all its locale files. */
export function texts(culture: 'en' | 'el' | 'ru'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(LOCALES)) if (f === `${culture}.json` || f.endsWith(`.${culture}.json`)) Object.assign(out, JSON.parse(readFileSync(LOCALES + f, 'utf8')));
  return out;
}

/**
 * i18next on the shipped texts of the three languages (English first), with the page globals the
 * web modules read when they load (boot state, cookies): call before importing those modules.
 */
export async function startShippedTexts() {
  Object.assign(globalThis, { window: {}, document: { cookie: '' } });
  await i18next.init({
    resources: { en: { translation: texts('en') }, el: { translation: texts('el') }, ru: { translation: texts('ru') } },
    lng: 'en',
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
}

/**
 * As `startShippedTexts`, with an empty local and session storage and a page that takes listeners:
 * what the session module reads and listens to when it loads (the API client, the error texts).
 */
export async function startShippedTextsSignedOut() {
  await startShippedTexts();
  const storage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
  Object.assign(globalThis.window, { addEventListener: () => {}, removeEventListener: () => {}, localStorage: storage, sessionStorage: storage });
  Object.assign(globalThis, { localStorage: storage, sessionStorage: storage });
}
