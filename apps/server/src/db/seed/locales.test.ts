import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR, readLocaleFiles } from './index.ts';

const files = fs.readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json'));

describe('the shipped texts', () => {
  it('are one file per key namespace and language: objects.el.json holds the objects.* texts in Greek and nothing else', () => {
    const wrong = files.flatMap((f) => {
      const namespace = f.split('.')[0]!;
      const keys = Object.keys(JSON.parse(fs.readFileSync(`${LOCALES_DIR}/${f}`, 'utf8')) as Record<string, string>);
      return keys.filter((k) => k.split('.')[0]!.toLowerCase() !== namespace).map((k) => `${f}: ${k}`);
    });
    expect(wrong).toEqual([]);
    expect(files.every((f) => /^[a-z]+\.(en|el|ru)\.json$/.test(f))).toBe(true);
  });

  it('have the same files, and the same keys, in English, Greek and Russian', () => {
    const of = (c: string) => files.filter((f) => f.endsWith(`.${c}.json`)).map((f) => f.split('.')[0]).sort();
    expect(of('el')).toEqual(of('en'));
    expect(of('ru')).toEqual(of('en'));
    const [en, el, ru] = readLocaleFiles();
    expect(Object.keys(el!.texts).sort()).toEqual(Object.keys(en!.texts).sort());
    expect(Object.keys(ru!.texts).sort()).toEqual(Object.keys(en!.texts).sort());
  });
});
