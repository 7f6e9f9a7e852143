import { describe, expect, it } from 'vitest';
import { placeholders } from '../../modules/settings/settings.service.ts';
import { readLocaleFiles } from './index.ts';

/**
 * The texts as shipped keep the English text's {{placeholders}} in Greek and Russian: the settings
 * page's texts import refuses a workbook that does not, so an exported workbook must pass it.
 */
describe('shipped texts', () => {
  it('keep the placeholders of the English text in every language', () => {
    const cultures = readLocaleFiles();
    const en = cultures.find((c) => c.culture === 'en')!.texts;
    const wrong: string[] = [];
    for (const c of cultures) {
      if (c.culture === 'en') continue;
      for (const [key, text] of Object.entries(c.texts)) if (en[key] !== undefined && placeholders(text) !== placeholders(en[key])) wrong.push(`${c.culture} ${key}`);
    }
    expect(wrong).toEqual([]);
  });
});
