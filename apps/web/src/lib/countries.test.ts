import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts } from './shipped-texts.testing.ts';

let countryNames: typeof import('./countries.ts').countryNames;
let countryFilter: typeof import('./countries.ts').countryFilter;

beforeAll(async () => {
  await startShippedTexts();
  ({ countryNames, countryFilter } = await import('./countries.ts'));
});

const find = (search: string, culture: 'en' | 'el' | 'ru') =>
  countryFilter({ options: countryNames(culture).map((n) => ({ value: n, label: n })), search, limit: 50 }).map((o) => ('value' in o ? o.value : null));

describe("the countries offered for an account's country and nationality", () => {
  it("names every country of ISO 3166 in the reader's language: Greece, Cyprus, Russia and the neighbours first, then the European Union, then the rest", () => {
    const el = countryNames('el');
    expect(el).toHaveLength(249);
    expect(new Set(el).size).toBe(249);
    expect(el.slice(0, 8)).toEqual(['Ελλάδα', 'Κύπρος', 'Ρωσία', 'Αλβανία', 'Βόρεια Μακεδονία', 'Βουλγαρία', 'Τουρκία', 'Αυστρία']);
    // The European Union before the others, each in alphabetical order.
    expect(el.indexOf('Σουηδία')).toBeLessThan(el.indexOf('Αγκόλα'));
    expect(el.indexOf('Ηνωμένο Βασίλειο')).toBeGreaterThan(el.indexOf('Σουηδία'));
    expect(countryNames('en').slice(0, 3)).toEqual(['Greece', 'Cyprus', 'Russia']);
    expect(countryNames('ru').slice(0, 3)).toEqual(['Греция', 'Кипр', 'Россия']);
  });

  it('finds a country by part of its name, accents and case ignored, the names beginning with it first', () => {
    expect(find('ελλαδα', 'el')).toEqual(['Ελλάδα']);
    expect(find('ελλ', 'el')[0]).toBe('Ελλάδα');
    expect(find('ΚΥΠ', 'el')).toEqual(['Κύπρος']);
    expect(find('ger', 'en').slice(0, 2)).toEqual(['Germany', 'Algeria']);
    expect(find('македония', 'ru')).toEqual(['Северная Македония']);
    expect(find('Ελληνική', 'el')).toEqual([]);
    expect(find('', 'el')).toHaveLength(50);
  });
});
