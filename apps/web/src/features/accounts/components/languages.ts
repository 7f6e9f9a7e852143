import { INTL_LOCALE, currentCulture } from '../../../lib/i18n.ts';

/** Languages an agency's clients speak most; the account keeps the ISO code. */
export const LANGUAGE_CODES = ['el', 'en', 'ru', 'uk', 'de', 'fr', 'it', 'es', 'nl', 'pl', 'bg', 'ro', 'sr', 'sq', 'tr', 'he', 'ar', 'zh', 'ka', 'hy', 'sv', 'no', 'da', 'fi', 'cs', 'hu'];

/** The language's name in the interface language (Intl), or the stored value as it is. */
export function languageName(code: string | null | undefined): string {
  if (!code) return '';
  try {
    return new Intl.DisplayNames([INTL_LOCALE[currentCulture()]], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function languageOptions(current: string | null | undefined) {
  const codes = current && !LANGUAGE_CODES.includes(current) ? [...LANGUAGE_CODES, current] : LANGUAGE_CODES;
  return codes.map((c) => ({ value: c, label: languageName(c) })).sort((a, b) => a.label.localeCompare(b.label));
}
