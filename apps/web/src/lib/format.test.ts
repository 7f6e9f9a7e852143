import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts } from './shipped-texts.testing.ts';

let formatLongDate: typeof import('./format.ts').formatLongDate;
let asHeading: typeof import('./format.ts').asHeading;
let formatDistance: typeof import('./format.ts').formatDistance;

beforeAll(async () => {
  await startShippedTexts();
  ({ formatLongDate, asHeading, formatDistance } = await import('./format.ts'));
});

describe("a day in words (the home page's today)", () => {
  it('reads as Intl writes it for en-GB, el-GR and ru-RU, on every day of two years', async () => {
    for (const [culture, locale] of [
      ['en', 'en-GB'],
      ['el', 'el-GR'],
      ['ru', 'ru-RU'],
    ] as const) {
      await i18next.changeLanguage(culture);
      const intl = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
      for (let d = new Date(2026, 0, 1); d.getFullYear() < 2028; d = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1)) {
        expect(formatLongDate(d), `${culture} ${d.toDateString()}`).toBe(intl.format(d));
      }
    }
    await i18next.changeLanguage('en');
  });

  it('names the day and the month in each language', async () => {
    const day = new Date(2026, 10, 26);
    await i18next.changeLanguage('el');
    expect(formatLongDate(day)).toBe('Πέμπτη 26 Νοεμβρίου 2026');
    await i18next.changeLanguage('ru');
    expect(formatLongDate(day)).toBe('четверг, 26 ноября 2026 г.');
    await i18next.changeLanguage('en');
    expect(formatLongDate(day)).toBe('Thursday, 26 November 2026');
  });
});

describe('a date as a heading', () => {
  it('starts with a capital in Russian, and leaves English and Greek as Intl writes them', async () => {
    const day = new Date(2026, 11, 1);
    const heading = (locale: string, options: Intl.DateTimeFormatOptions) => asHeading(day.toLocaleDateString(locale, options));
    await i18next.changeLanguage('ru');
    expect(heading('ru-RU', { month: 'long', year: 'numeric' })).toBe('Декабрь 2026 г.');
    expect(heading('ru-RU', { weekday: 'long', day: 'numeric', month: 'long' })).toBe('Вторник, 1 декабря');
    await i18next.changeLanguage('el');
    expect(heading('el-GR', { month: 'long', year: 'numeric' })).toBe('Δεκέμβριος 2026');
    await i18next.changeLanguage('en');
    expect(heading('en-GB', { weekday: 'long', day: 'numeric', month: 'long' })).toBe('Tuesday 1 December');
  });
});

describe('a distance', () => {
  it('writes whole kilometres without a ",0" and others to a tenth, in the reader\'s units', async () => {
    await i18next.changeLanguage('el');
    expect(formatDistance(60000)).toBe('60\u00a0χλμ.');
    expect(formatDistance(1000)).toBe('1\u00a0χλμ.');
    expect(formatDistance(1530)).toBe('1,5\u00a0χλμ.');
    expect(formatDistance(59960)).toBe('60\u00a0χλμ.');
    expect(formatDistance(120000)).toBe('120\u00a0χλμ.');
    expect(formatDistance(1234500)).toBe('1\u00a0234,5\u00a0χλμ.');
    expect(formatDistance(850)).toBe('850\u00a0μ.');
    await i18next.changeLanguage('ru');
    expect(formatDistance(2000)).toBe('2\u00a0км');
    await i18next.changeLanguage('en');
    expect(formatDistance(2250)).toBe('2,3\u00a0km');
  });
});
