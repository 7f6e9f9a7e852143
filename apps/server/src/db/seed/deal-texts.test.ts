import { describe, expect, it } from 'vitest';
import { DEAL_FIELDS, DEAL_GROUPS, DEAL_RELATIONS, DEAL_STAGES, DEAL_TYPES } from '@crm/contract';
import { readLocaleFiles } from './index.ts';

/** The deal screens label every described field, group, type, stage and party relation from the texts. */
describe('deal texts', () => {
  const cultures = readLocaleFiles();
  const keys = [
    ...DEAL_FIELDS.map((d) => `fields.deal.${d.name}`),
    ...DEAL_GROUPS.map((g) => `deals.group.${g}`),
    ...DEAL_TYPES.map((v) => `deals.type.${v}`),
    ...DEAL_STAGES.map((v) => `deals.stage.${v}`),
    ...DEAL_RELATIONS.map((v) => `deals.relation.${v}`),
  ];
  it.each(cultures.map((c) => [c.culture, c.texts] as const))('labels every deal field, group, type, stage and relation in %s', (_culture, texts) => {
    expect(keys.filter((k) => !texts[k]?.trim())).toEqual([]);
  });
  it('writes Greek and Russian labels, not English ones', () => {
    const [en, el, ru] = ['en', 'el', 'ru'].map((c) => cultures.find((x) => x.culture === c)!.texts);
    const all = Object.keys(en!).filter((k) => k.startsWith('deals.') || k.startsWith('fields.deal.'));
    expect(all.filter((k) => el![k] === en![k] || ru![k] === en![k] || !el![k] || !ru![k])).toEqual([]);
  });
});
