import { describe, expect, it } from 'vitest';
import { headingTitleField, headingTitleLang, readerTitleField } from './object-title.ts';

describe("the title heading a property's page", () => {
  const both = { title: 'Μεζονέτα με θέα', titleRu: 'Мезонет с видом' };
  const russianOnly = { title: null, titleRu: 'Студия у моря' };
  const mainOnly = { title: 'Διαμέρισμα', titleRu: '' };
  it("is the reader's own when it is set", () => {
    // No English title: an English reader reads the main one.
    expect(headingTitleField(both, 'en')).toBe('title');
    expect(headingTitleField(both, 'el')).toBe('title');
    expect(headingTitleField(both, 'ru')).toBe('titleRu');
  });
  it('is the other one when the reader has none, and only then marked as Russian', () => {
    for (const lang of ['en', 'el']) {
      expect(headingTitleField(russianOnly, lang)).toBe('titleRu');
      expect(headingTitleField({ title: '   ', titleRu: 'Участок' }, lang)).toBe('titleRu');
      expect(headingTitleLang('titleRu', lang)).toBe('ru');
      expect(headingTitleLang('title', lang)).toBeUndefined();
    }
    expect(headingTitleField(mainOnly, 'ru')).toBe('title');
    expect(headingTitleLang('titleRu', 'ru')).toBeUndefined();
  });
  it('is the English title on an English screen, the main one elsewhere, the English one marked as English there', () => {
    const three = { title: 'Μεζονέτα με θέα', titleEn: 'Maisonette with a view', titleRu: 'Мезонет с видом' };
    expect(headingTitleField(three, 'en-UK')).toBe('titleEn');
    expect(headingTitleField(three, 'el')).toBe('title');
    expect(headingTitleField(three, 'ru')).toBe('titleRu');
    // A Greek screen with no main title: the English one before the Russian one.
    expect(headingTitleField({ ...three, title: '' }, 'el')).toBe('titleEn');
    expect(headingTitleLang('titleEn', 'el')).toBe('en');
    expect(headingTitleLang('titleEn', 'ru')).toBe('en');
    expect(headingTitleLang('titleEn', 'en')).toBeUndefined();
  });
  it("is the reader's own, to be filled in, when neither is set", () => {
    expect(headingTitleField({ title: null, titleRu: null }, 'el')).toBe('title');
    expect(headingTitleField({ title: '', titleRu: ' ' }, 'ru')).toBe('titleRu');
    expect(readerTitleField('ru')).toBe('titleRu');
    expect(readerTitleField('en')).toBe('titleEn');
    expect(readerTitleField('el')).toBe('title');
  });
});
