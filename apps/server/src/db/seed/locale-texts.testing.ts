import { expect, it } from 'vitest';
import { readLocaleFiles } from './index.ts';

/** The locale files' texts: every language's, and each of en, el and ru by name. */
export function localeTexts() {
  const cultures = readLocaleFiles();
  const of = (culture: string) => cultures.find((x) => x.culture === culture)!.texts;
  return { cultures, en: of('en'), el: of('el'), ru: of('ru') };
}

/** One test a language: each of `keys` has a text there (not empty, not white space only). */
export function itLabelsEvery(what: string, keys: readonly string[]) {
  it.each(readLocaleFiles().map((c) => [c.culture, c.texts] as const))(`labels every ${what} in %s`, (_culture, texts) => {
    expect(keys.filter((k) => !texts[k]?.trim())).toEqual([]);
  });
}
