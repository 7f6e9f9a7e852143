import { i18n, INTL_LOCALE, currentCulture } from '../../../lib/i18n.ts';

/** Languages an agency's clients speak most; the account keeps the ISO code. */
export const LANGUAGE_CODES = ['el', 'en', 'ru', 'uk', 'de', 'fr', 'it', 'es', 'nl', 'pl', 'bg', 'ro', 'sr', 'sq', 'tr', 'he', 'ar', 'zh', 'ka', 'hy', 'sv', 'no', 'da', 'fi', 'cs', 'hu'];

const displayNames = new Map<string, Intl.DisplayNames>();

/**
 * The language's name in the interface language: the listed languages from the texts (no Intl
 * language data to load: the first Intl.DisplayNames cost a phone a third of a second), any other
 * code through Intl, and what Intl does not know as it was stored.
 */
export function languageName(code: string | null | undefined): string {
  if (!code) return '';
  if (LANGUAGE_CODES.includes(code)) return i18n.t(`accounts.ui.language.${code}`);
  try {
    const locale = INTL_LOCALE[currentCulture()];
    let names = displayNames.get(locale);
    if (!names) displayNames.set(locale, (names = new Intl.DisplayNames([locale], { type: 'language' })));
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

export function languageOptions(current: string | null | undefined) {
  const codes = current && !LANGUAGE_CODES.includes(current) ? [...LANGUAGE_CODES, current] : LANGUAGE_CODES;
  const collator = new Intl.Collator(INTL_LOCALE[currentCulture()]);
  return codes.map((c) => ({ value: c, label: languageName(c) })).sort((a, b) => collator.compare(a.label, b.label));
}
