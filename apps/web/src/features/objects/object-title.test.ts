import { describe, expect, it } from 'vitest';
import { headingTitleField, headingTitleLang, readerTitleField } from './object-title.ts';

describe("the title heading a property's page", () => {
  const both = { title: 'Μεζονέτα με θέα', titleRu: 'Мезонет с видом' };
  const russianOnly = { title: null, titleRu: 'Студия у моря' };
  const mainOnly = { title: 'Διαμέρισμα', titleRu: '' };
  it("is the reader's own when it is set", () => {
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
  it("is the reader's own, to be filled in, when neither is set", () => {
    expect(headingTitleField({ title: null, titleRu: null }, 'el')).toBe('title');
    expect(headingTitleField({ title: '', titleRu: ' ' }, 'ru')).toBe('titleRu');
    expect(readerTitleField('ru')).toBe('titleRu');
    expect(readerTitleField('en')).toBe('title');
  });
});
