import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/el';
import 'dayjs/locale/ru';
import 'dayjs/locale/en-gb';
import { cultureOf, type TCulture, type TLanguage } from '@crm/contract/constants';
import { SHELL, urlOf, type AnswerOf } from '@crm/contract/resources';
import { deleteCookie, getCookie, setCookie } from './cookies.ts';
import { bootLanguage, takeBootRequest } from './boot.ts';
import { whenIdle } from './next-task.ts';

export const LANGUAGE_COOKIE = 'language';

/** The language cookie: en-UK, el or ru (default en-UK). */
export function cookieLanguage(): TLanguage {
  const v = getCookie(LANGUAGE_COOKIE);
  return asLanguage(v);
}

const asLanguage = (v: string | undefined): TLanguage => (v === 'el' || v === 'ru' || v === 'en-UK' ? v : 'en-UK');

/**
 * Set beside the language cookie while its language is only a guess: the browser's own (index.html,
 * on a first visit), or a language a page chose for the reader (the approval page speaks its mail's).
 * A choice of the reader's (the language buttons and menu, the saved language at sign-in) removes it.
 */
const GUESSED_COOKIE = 'languageGuessed';

/** The reader has chosen a language (the cookie is theirs, not a guess). */
export const languageChosen = (): boolean => getCookie(LANGUAGE_COOKIE) !== undefined && getCookie(GUESSED_COOKIE) === undefined;

/**
 * The reader's culture, which every API call sends (Accept-Language). Before the texts have started
 * (the route loaders of the first screen ask for its data while they load), the culture the texts
 * will start in: the language cookie, as initI18n reads it.
 */
export const currentCulture = (): TCulture =>
  i18n.language ? cultureOf(i18n.language === 'en' ? 'en-UK' : i18n.language) : cultureOf(cookieLanguage());

/** Intl locale used for dates and numbers of each culture. */
export const INTL_LOCALE: Record<TCulture, string> = { en: 'en-GB', el: 'el-GR', ru: 'ru-RU' };
export const DAYJS_LOCALE: Record<TCulture, string> = { en: 'en-gb', el: 'el', ru: 'ru' };

/** A calendar's language and week (Monday first) for the date pickers: their own default is English. */
export const pickerLocale = () => ({ locale: DAYJS_LOCALE[currentCulture()], firstDayOfWeek: 1 as const });

type Texts = Record<string, string>;
type StoredTexts = { etag: string; texts: Texts };

/** The last texts of each language, kept so that the next start renders at once. */
const storageKey = (culture: TCulture) => `crm.texts.${culture}`;

/** Characters a stored part holds: a write of ~20 KB is a few milliseconds, not one long task. */
const PART = 20_000;

/**
 * The stored texts: a head (`{ parts: n, gen }`) under the language's key and the JSON in n parts
 * under `key.gen.0` ... `key.gen.(n-1)`. A copy stored whole by an earlier version (`{ etag, texts }`
 * under the key) is read too.
 */
type Head = { parts?: unknown; gen?: unknown };
const partKey = (key: string, gen: string, i: number) => `${key}.${gen}.${i}`;

function readStored(culture: TCulture): StoredTexts | null {
  try {
    const key = storageKey(culture);
    const head = JSON.parse(localStorage.getItem(key) ?? 'null') as (Head & Partial<StoredTexts>) | null;
    let s: StoredTexts | null = null;
    if (head && typeof head.parts === 'number' && typeof head.gen === 'string') {
      const gen = head.gen;
      const parts = Array.from({ length: head.parts }, (_, i) => localStorage.getItem(partKey(key, gen, i)));
      if (parts.some((p) => p === null)) return null;
      s = JSON.parse(parts.join('')) as StoredTexts;
    } else s = head as StoredTexts | null;
    return s && typeof s.etag === 'string' && s.texts && typeof s.texts === 'object' ? s : null;
  } catch {
    return null;
  }
}

/** Removes the parts of a language's texts that `keepGen` (if any) does not name. */
function removeParts(key: string, keepGen?: string) {
  const prefix = `${key}.`;
  const gone: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k?.startsWith(prefix) && !(keepGen && k.startsWith(`${prefix}${keepGen}.`))) gone.push(k);
  }
  for (const k of gone) localStorage.removeItem(k);
}

/** Forgets a language's stored texts (after an import the server's are newer). */
export function forgetStoredTexts(culture: TCulture) {
  const key = storageKey(culture);
  try {
    localStorage.removeItem(key);
    removeParts(key);
  } catch {
    // Storage disabled: nothing stored.
  }
}

/**
 * Kept for the next start when the browser is idle, in parts of 20 KB, each written in an idle
 * moment of its own: the whole (~200 KB of Greek) in one localStorage write was a task of 40 ms on a
 * desktop core, 150 ms on a phone's, on every first visit, and nothing on this visit waits for it.
 * A new copy is written beside the old one under a generation of its own and its head is written
 * last: until then the old copy is read, and a copy half written (the tab closed meanwhile, two tabs
 * at once) is never read; the parts no head names are removed when a head is written.
 */
function store(culture: TCulture, s: StoredTexts) {
  const key = storageKey(culture);
  whenIdle(() => {
    try {
      const text = JSON.stringify(s);
      const parts = Math.ceil(text.length / PART);
      const gen = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      const write = (i: number) => {
        try {
          if (i < parts) {
            localStorage.setItem(partKey(key, gen, i), text.slice(i * PART, (i + 1) * PART));
            whenIdle(() => write(i + 1));
            return;
          }
          localStorage.setItem(key, JSON.stringify({ parts, gen }));
          removeParts(key, gen);
        } catch {
          // Storage full or disabled: the next start loads the texts from the server again.
          removeParts(key, readGen(key));
        }
      };
      write(0);
    } catch {
      // As above.
    }
  });
}

/** The generation the stored head names, if any. */
function readGen(key: string): string | undefined {
  try {
    const head = JSON.parse(localStorage.getItem(key) ?? 'null') as Head | null;
    return typeof head?.gen === 'string' ? head.gen : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One language's texts (GET /api/Localization?culture=). The answer carries an ETag and is
 * revalidated by the browser's HTTP cache, so an unchanged answer costs a 304.
 */
async function fetchTexts(culture: TCulture, started?: Promise<Response>): Promise<StoredTexts> {
  const res = await (started ?? fetch(urlOf(SHELL.calls.localization, { query: { culture } })));
  if (!res.ok) throw new Error(`GET ${SHELL.calls.localization.path}: ${res.status}`);
  const rows = (await res.json()) as AnswerOf<typeof SHELL.calls.localization>;
  const texts: Texts = {};
  for (const r of rows) texts[r.key] = r.text;
  return { etag: res.headers.get('ETag') ?? '', texts };
}

function addTexts(culture: TCulture, texts: Texts) {
  i18n.addResourceBundle(culture, 'translation', texts, true, true);
}

/** Fresh texts from the server replace the stored ones; the screen re-renders only if they changed. */
function refresh(culture: TCulture, loading: Promise<StoredTexts>, storedEtag: string | undefined) {
  loading.then(
    (fresh) => {
      if (fresh.etag && fresh.etag === storedEtag) return;
      store(culture, fresh);
      addTexts(culture, fresh.texts);
    },
    () => {
      // Offline or the server unreachable: the stored texts serve until the next start.
    },
  );
}

/**
 * How i18next reads the texts, in the browser and on the server alike: keys are whole strings (no
 * nesting, no namespaces), texts are not escaped (React does it), and a missing text falls back to
 * nothing, as the server fills a text a language lacks with the English one.
 */
export const I18N_OPTIONS = {
  fallbackLng: false,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
} as const;

/**
 * Starts i18next with the reader's language only. With texts stored from an earlier visit the
 * screen renders at once (answers true) and the texts are revalidated in the background;
 * otherwise the promise settles when the texts have arrived (or failed).
 */
export function initI18n(): true | Promise<void> {
  const early = bootLanguage();
  const culture = cultureOf(early !== undefined ? asLanguage(early) : cookieLanguage());
  // index.html asked for the same language's texts already (it read the same cookie).
  const loading = fetchTexts(culture, early !== undefined ? takeBootRequest('texts') : undefined);
  const stored = readStored(culture);
  const start = (texts: Texts) => {
    void i18n.use(initReactI18next).init({
      ...I18N_OPTIONS,
      resources: { [culture]: { translation: texts } },
      lng: culture,
      react: { bindI18nStore: 'added' },
    });
    applyDocumentLanguage(culture);
  };
  if (stored) {
    start(stored.texts);
    refresh(culture, loading, stored.etag);
    return true;
  }
  return loading.then((fresh) => {
    start(fresh.texts);
    store(culture, fresh);
  });
}

function applyDocumentLanguage(culture: TCulture) {
  document.documentElement.lang = culture;
  dayjs.locale(DAYJS_LOCALE[culture]);
}

type SwitchListener = (culture: TCulture) => void;
const switchListeners = new Set<SwitchListener>();

/**
 * Called after each switch to another language (not at the start): what was read from the server in
 * the language before (names of stages, types, places, a property's title) is to be read again.
 * Answers the function that stops listening.
 */
export function onLanguageSwitched(listener: SwitchListener): () => void {
  switchListeners.add(listener);
  return () => switchListeners.delete(listener);
}

/**
 * Switches every visible text, date and number at once; no reload. `chosen: false`: the language is
 * the page's guess for the reader, kept as a guess (see languageChosen).
 */
export async function changeLanguage(language: TLanguage, { chosen = true }: { chosen?: boolean } = {}) {
  setCookie(LANGUAGE_COOKIE, language);
  if (chosen) deleteCookie(GUESSED_COOKIE);
  else setCookie(GUESSED_COOKIE, '1');
  const before = currentCulture();
  const culture = cultureOf(language);
  if (!i18n.hasResourceBundle(culture, 'translation')) {
    const loading = fetchTexts(culture);
    const stored = readStored(culture);
    if (stored) {
      addTexts(culture, stored.texts);
      refresh(culture, loading, stored.etag);
    } else {
      const fresh = await loading;
      store(culture, fresh);
      addTexts(culture, fresh.texts);
    }
  }
  applyDocumentLanguage(culture);
  await i18n.changeLanguage(culture);
  // After the change: what is read again now asks in the new language (currentCulture).
  if (culture !== before) for (const listener of switchListeners) listener(culture);
}

export { i18n };
