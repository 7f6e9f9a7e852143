import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts } from '../../lib/shipped-texts.testing.ts';

let languageOptions: typeof import('./components/languages.ts').languageOptions;
let languageFilter: typeof import('./components/languages.ts').languageFilter;

beforeAll(async () => {
  await startShippedTexts();
  ({ languageOptions, languageFilter } = await import('./components/languages.ts'));
});
afterAll(() => i18next.changeLanguage('en'));

const find = (search: string, current: string | null = null) => languageFilter({ options: languageOptions(current), search, limit: Infinity }).map((o) => ('value' in o ? o.value : null));

describe("an account's language field", () => {
  it('offers the listed languages by their names in the reader’s language, in its alphabetical order', async () => {
    await i18next.changeLanguage('el');
    const options = languageOptions(null);
    expect(options).toHaveLength(26);
    expect(options.slice(0, 3)).toEqual([
      { value: 'en', label: 'Αγγλικά' },
      { value: 'sq', label: 'Αλβανικά' },
      { value: 'ar', label: 'Αραβικά' },
    ]);
    expect(options).toContainEqual({ value: 'de', label: 'Γερμανικά' });
    await i18next.changeLanguage('ru');
    expect(languageOptions(null)).toContainEqual({ value: 'de', label: 'Немецкий' });
  });

  it('keeps a value stored before the list, shown as it was typed', async () => {
    await i18next.changeLanguage('en');
    expect(languageOptions('Russian')).toContainEqual({ value: 'Russian', label: 'Russian' });
    expect(languageOptions('русский')).toContainEqual({ value: 'русский', label: 'русский' });
    expect(languageOptions('Russian')).toHaveLength(27);
    expect(languageOptions('ru')).toHaveLength(26);
  });

  it('finds a language by part of its name, accents and case ignored, or by its code', async () => {
    await i18next.changeLanguage('el');
    expect(find('ελληνικα')).toEqual(['el']);
    expect(find('ΓΕΡΜ')).toEqual(['de']);
    expect(find('de')).toEqual(['de']);
    expect(find('')).toHaveLength(26);
    expect(find('Russ', 'Russian')).toEqual(['Russian']);
    await i18next.changeLanguage('en');
    expect(find('ger')).toEqual(['de']);
  });
});
