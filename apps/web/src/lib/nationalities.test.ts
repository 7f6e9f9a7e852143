import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts } from './shipped-texts.testing.ts';

let m: typeof import('./nationalities.ts');
let countryFilter: typeof import('./countries.ts').countryFilter;
let countryNames: typeof import('./countries.ts').countryNames;

beforeAll(async () => {
  await startShippedTexts();
  m = await import('./nationalities.ts');
  ({ countryFilter, countryNames } = await import('./countries.ts'));
});

const find = (search: string, culture: 'en' | 'el' | 'ru') =>
  countryFilter({ options: m.nationalityNames(culture).map((n) => ({ value: n, label: n })), search, limit: 50 }).map((o) => ('value' in o ? o.value : null));

describe("the nationalities offered for an account's nationality", () => {
  it('has one for every member of the United Nations, the Vatican, Palestine and Taiwan, in English, Greek and Russian', () => {
    expect(m.NATIONALITIES.size).toBe(196);
    const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (const code of m.NATIONALITIES.keys()) {
      expect(regions.of(code), code).toBeTruthy(); // an ISO 3166 code
      for (const culture of ['en', 'el', 'ru'] as const) expect(m.nationalityOf(code, culture)?.trim(), `${code} ${culture}`).toBeTruthy();
      expect(m.nationalityOf(code, 'el'), code).toMatch(/^[Α-ΩΆ-Ώ][^A-Za-z]*$/); // Greek, capitalised
      expect(m.nationalityOf(code, 'en'), code).toMatch(/^[A-Z][A-Za-z ()-]*$/);
    }
    // Each language's list names each nationality once.
    for (const culture of ['en', 'el', 'ru'] as const) expect(new Set(m.nationalityNames(culture)).size, culture).toBe(196);
  });

  it('is written as the office writes it: adjectives in Greek and English, the country in Russian (Гражданство: Великобритания)', () => {
    expect(m.nationalityNames('el').slice(0, 7)).toEqual(['Ελληνική', 'Κυπριακή', 'Ρωσική', 'Αλβανική', 'Βόρειας Μακεδονίας', 'Βουλγαρική', 'Τουρκική']);
    expect(m.nationalityNames('en').slice(0, 3)).toEqual(['Greek', 'Cypriot', 'Russian']);
    expect(m.nationalityNames('ru').slice(0, 3)).toEqual(['Греция', 'Кипр', 'Россия']);
    expect(m.nationalityOf('GB', 'el')).toBe('Βρετανική');
    expect(m.nationalityOf('GB', 'en')).toBe('British');
    expect(m.nationalityOf('GB', 'ru')).toBe('Великобритания');
    expect(m.nationalityOf('UA', 'el')).toBe('Ουκρανική');
    // No nationality for a place nobody holds one of.
    expect(m.nationalityOf('AQ', 'el')).toBeUndefined();
    // The Russian names are those of the countries' list.
    expect(countryNames('ru')).toEqual(expect.arrayContaining(m.nationalityNames('ru')));
  });

  it('finds a nationality as one types, accents and case ignored, those beginning with it first', () => {
    expect(find('Ρωσ', 'el')[0]).toBe('Ρωσική');
    expect(find('ρωσ', 'el')).toEqual(['Ρωσική', 'Λευκορωσική']);
    expect(find('βρετ', 'el')).toEqual(['Βρετανική']);
    expect(find('brit', 'en')).toEqual(['British']);
    expect(find('велико', 'ru')).toEqual(['Великобритания']);
    expect(find('ελλην', 'el')).toEqual(['Ελληνική']);
  });
});
