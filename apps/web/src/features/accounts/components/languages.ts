import type { ComboboxItem, ComboboxParsedItem, OptionsFilter } from '@mantine/core';
import { ACCOUNT_LANGUAGES, isAccountLanguage } from '@crm/contract/account-fields';
import { i18n, INTL_LOCALE, currentCulture } from '../../../lib/i18n.ts';
import { findWords, searchWords } from '../../../lib/text-match.ts';

const displayNames = new Map<string, Intl.DisplayNames>();

/**
 * The language's name in the interface language: the listed languages from the texts (no Intl
 * language data to load: the first Intl.DisplayNames cost a phone a third of a second), any other
 * code through Intl, and what is no code Intl knows (a language typed as text before the list, such
 * as "Russian" or "русский") as it was stored.
 */
export function languageName(code: string | null | undefined): string {
  if (!code) return '';
  if (isAccountLanguage(code)) return i18n.t(`accounts.ui.language.${code}`);
  try {
    const locale = INTL_LOCALE[currentCulture()];
    let names = displayNames.get(locale);
    if (!names) displayNames.set(locale, (names = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' })));
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The account's language field's choices: the listed languages by their names in the reader's
 * language, in its alphabetical order, and the account's own value when it is not one of them
 * (stored before the list): it stays shown, and kept while other fields are saved.
 */
export function languageOptions(current: string | null | undefined): ComboboxItem[] {
  const codes: string[] = current && !isAccountLanguage(current) ? [...ACCOUNT_LANGUAGES, current] : [...ACCOUNT_LANGUAGES];
  const collator = new Intl.Collator(INTL_LOCALE[currentCulture()]);
  return codes.map((c) => ({ value: c, label: languageName(c) })).sort((a, b) => collator.compare(a.label, b.label));
}

/**
 * Finds a language by a part of its name, accents and case ignored ("ελληνικα" finds "Ελληνικά"), or
 * by its code ("de" finds German in every language).
 */
export const languageFilter: OptionsFilter = ({ options, search }) => {
  const words = searchWords(search);
  if (!words.length) return options;
  return (options as ComboboxParsedItem[]).filter((o) => {
    if (!('value' in o)) return false;
    if (words.length === 1 && o.value.toLowerCase() === words[0]) return true;
    return words.every((w) => findWords(o.label, w).length > 0);
  });
};
