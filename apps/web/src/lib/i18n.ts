import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/el';
import 'dayjs/locale/ru';
import 'dayjs/locale/en-gb';
import { cultureOf, type TCulture, type TLanguage } from '@crm/contract/constants';
import type { TLocalizationEntry } from '@crm/contract';
import { getCookie, setCookie } from './cookies.ts';

export const LANGUAGE_COOKIE = 'language';

/** The language cookie: en-UK, el or ru (default en-UK). */
export function cookieLanguage(): TLanguage {
  const v = getCookie(LANGUAGE_COOKIE);
  return v === 'el' || v === 'ru' || v === 'en-UK' ? v : 'en-UK';
}

export const currentCulture = (): TCulture => cultureOf(i18n.language === 'en' ? 'en-UK' : i18n.language);

/** Intl locale used for dates and numbers of each culture. */
export const INTL_LOCALE: Record<TCulture, string> = { en: 'en-GB', el: 'el-GR', ru: 'ru-RU' };
const DAYJS_LOCALE: Record<TCulture, string> = { en: 'en-gb', el: 'el', ru: 'ru' };

/** Loads every text from the server (GET /api/Localization) and starts i18next. */
export async function initI18n(): Promise<void> {
  const culture = cultureOf(cookieLanguage());
  const res = await fetch('/api/Localization', { headers: { 'Accept-Language': culture } });
  if (!res.ok) throw new Error(`GET /api/Localization: ${res.status}`);
  const rows = (await res.json()) as TLocalizationEntry[];
  const resources: Record<string, { translation: Record<string, string> }> = { en: { translation: {} }, el: { translation: {} }, ru: { translation: {} } };
  for (const r of rows) resources[r.culture]!.translation[r.key] = r.text;
  await i18n.use(initReactI18next).init({
    resources,
    lng: culture,
    fallbackLng: 'en',
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  applyDocumentLanguage(culture);
}

function applyDocumentLanguage(culture: TCulture) {
  document.documentElement.lang = culture;
  dayjs.locale(DAYJS_LOCALE[culture]);
}

/** Switches every visible text, date and number at once; no reload. */
export async function changeLanguage(language: TLanguage) {
  setCookie(LANGUAGE_COOKIE, language);
  const culture = cultureOf(language);
  applyDocumentLanguage(culture);
  await i18n.changeLanguage(culture);
}

export { i18n };
