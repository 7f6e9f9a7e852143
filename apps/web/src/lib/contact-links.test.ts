import { describe, expect, it } from 'vitest';
import { mailtoOf, phoneLinks } from './contact-links.ts';

describe("a booking's guest contacts", () => {
  it('dial each phone written with ;, as typed, by its digits and leading +', () => {
    expect(phoneLinks('+30 697 123 4567')).toEqual([{ text: '+30 697 123 4567', href: 'tel:+306971234567' }]);
    expect(phoneLinks('697 1234567; 2310 123456')).toEqual([
      { text: '697 1234567', href: 'tel:6971234567' },
      { text: '2310 123456', href: 'tel:2310123456' },
    ]);
    expect(phoneLinks('+44 7700 900123 (Mike)')).toEqual([{ text: '+44 7700 900123 (Mike)', href: 'tel:+447700900123' }]);
    expect(phoneLinks('(210) 123-4567')).toEqual([{ text: '(210) 123-4567', href: 'tel:2101234567' }]);
  });
  it('leave a part that is no number as text, and nothing for no phone', () => {
    expect(phoneLinks('via reception; 12')).toEqual([
      { text: 'via reception', href: null },
      { text: '12', href: null },
    ]);
    expect(phoneLinks(null)).toEqual([]);
    expect(phoneLinks(' ; ')).toEqual([]);
  });
  it('write the e-mail to', () => {
    expect(mailtoOf('guest@example.com')).toBe('mailto:guest@example.com');
    expect(mailtoOf('')).toBeNull();
    expect(mailtoOf(null)).toBeNull();
  });
});
