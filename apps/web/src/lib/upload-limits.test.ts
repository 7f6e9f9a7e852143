import fs from 'node:fs';
import path from 'node:path';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import type { TUploadLimits } from '@crm/contract';
import { checkUploads, describeLeftOut, type TPickedFile } from './upload-limits.ts';

const MB = 1024 * 1024;
const LIMITS: TUploadLimits = {
  fileMaxBytes: 2 * MB,
  requestMaxBytes: 3 * MB,
  maxFiles: 3,
  photoTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff'],
};
const file = (name: string, mb: number, type = ''): TPickedFile => ({ name, size: Math.round(mb * MB), type });
const names = (files: TPickedFile[]) => files.map((f) => f.name);

/** The shipped texts of one language, as the server seeds them. */
async function translator(culture: 'en' | 'el' | 'ru') {
  const dir = path.resolve(import.meta.dirname, '../../../server/src/db/seed/locales');
  const texts = JSON.parse(fs.readFileSync(path.join(dir, `files.${culture}.json`), 'utf8')) as Record<string, string>;
  const i18n = createInstance();
  await i18n.init({ resources: { [culture]: { translation: texts } }, lng: culture, keySeparator: false, nsSeparator: false, interpolation: { escapeValue: false } });
  return i18n.t.bind(i18n) as (key: string, params?: Record<string, unknown>) => string;
}

describe('files checked before they are sent', () => {
  it('leaves out a file past the size of one file and keeps the others', () => {
    const c = checkUploads([file('plan.pdf', 0.5), file('IMG_2041.jpg', 30, 'image/jpeg'), file('notes.txt', 0.1)], LIMITS);
    expect(names(c.accepted)).toEqual(['plan.pdf', 'notes.txt']);
    expect(c.leftOut.map((l) => [l.file.name, l.reason])).toEqual([['IMG_2041.jpg', 'tooLarge']]);
  });

  it('takes a file of exactly the limit', () => {
    expect(names(checkUploads([file('exact.bin', 2)], LIMITS).accepted)).toEqual(['exact.bin']);
  });

  it('counts the files a form holds already, for the number and the total', () => {
    const already = [file('a.pdf', 1.5), file('b.pdf', 1)];
    const c = checkUploads([file('c.pdf', 0.6), file('d.pdf', 0.1), file('e.pdf', 0.1)], LIMITS, { already });
    // 2.5 MB held: 0.6 MB more is past 3 MB in all; d fits; then three files are the most.
    expect(names(c.accepted)).toEqual(['d.pdf']);
    expect(c.leftOut.map((l) => [l.file.name, l.reason])).toEqual([
      ['c.pdf', 'requestTooLarge'],
      ['e.pdf', 'tooMany'],
    ]);
  });

  it('for photos, leaves out what the server cannot show, by type or by extension, and leaves an unknown type to the server', () => {
    const c = checkUploads(
      [file('kitchen.png', 0.2, 'image/png'), file('contract.pdf', 0.1, 'application/pdf'), file('IMG_0001.HEIC', 0.3), file('balcony.jpg', 0.2), file('odd', 0.1)],
      LIMITS,
      { photos: true },
    );
    expect(names(c.accepted)).toEqual(['kitchen.png', 'balcony.jpg', 'odd']);
    expect(c.leftOut.map((l) => l.reason)).toEqual(['notAPhoto', 'notAPhoto']);
    // The same files as documents: only size and number count.
    expect(checkUploads([file('contract.pdf', 0.1, 'application/pdf'), file('IMG_0001.HEIC', 0.3)], LIMITS).leftOut).toEqual([]);
  });

  it('accepts everything while the limits are not known (the server still checks)', () => {
    const c = checkUploads([file('huge.mov', 900)], undefined);
    expect(names(c.accepted)).toEqual(['huge.mov']);
    expect(describeLeftOut((k) => k, c, undefined, 'uploaded')).toBeNull();
  });

  it('names each file left out and the limit, and says how many went on, in English, Greek and Russian', async () => {
    const check = checkUploads([file('IMG_2041.jpg', 30, 'image/jpeg'), file('plan.pdf', 1), file('deed.pdf', 1.5), file('a.txt', 0.1), file('b.txt', 0.1)], LIMITS);
    expect(names(check.accepted)).toEqual(['plan.pdf', 'deed.pdf', 'a.txt']);

    const en = await translator('en');
    expect(describeLeftOut(en, check, LIMITS, 'uploaded')).toBe(
      ['The file “IMG_2041.jpg” is larger than the allowed 2 MB.', 'At most 3 files can be sent at once. Left out: “b.txt”.', '3 files were uploaded.'].join('\n'),
    );
    const el = await translator('el');
    expect(describeLeftOut(el, check, LIMITS, 'added')).toBe(
      [
        'Το αρχείο «IMG_2041.jpg» υπερβαίνει το επιτρεπόμενο μέγεθος των 2 MB.',
        'Μπορείτε να στείλετε έως 3 αρχεία τη φορά. Δεν συμπεριλήφθηκαν: «b.txt».',
        'Προστέθηκαν 3 αρχεία.',
      ].join('\n'),
    );
    const ru = await translator('ru');
    const one = checkUploads([file('big.jpg', 2.5), file('small.jpg', 1)], { ...LIMITS, maxFiles: 1 });
    expect(describeLeftOut(ru, one, { ...LIMITS, maxFiles: 1 }, 'uploaded')).toBe('Файл «big.jpg» превышает допустимый размер 2 МБ.\nЗагружен 1 файл.');
    const total = checkUploads([file('a.pdf', 1.8), file('b.pdf', 1.8), file('c.pdf', 1.8)], LIMITS);
    expect(describeLeftOut(ru, total, LIMITS, 'uploaded')).toBe('За одну загрузку можно передать не более 3 МБ. Пропущены: «b.pdf», «c.pdf».\nЗагружен 1 файл.');
    // Nothing fits: only the reasons.
    expect(describeLeftOut(en, checkUploads([file('IMG_2041.jpg', 30)], LIMITS), LIMITS, 'uploaded')).toBe('The file “IMG_2041.jpg” is larger than the allowed 2 MB.');
  });

  it('has every text of the check in each plural form of every language', () => {
    const dir = path.resolve(import.meta.dirname, '../../../server/src/db/seed/locales');
    for (const culture of ['en', 'el', 'ru']) {
      const texts = JSON.parse(fs.readFileSync(path.join(dir, `files.${culture}.json`), 'utf8')) as Record<string, string>;
      for (const key of ['files.check.tooMany', 'files.check.uploaded', 'files.check.added'])
        for (const form of ['one', 'few', 'many', 'other']) expect(texts[`${key}_${form}`], `${culture} ${key}_${form}`).toContain('{{count}}');
    }
  });
});
