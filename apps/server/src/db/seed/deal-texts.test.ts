import { describe, expect, it } from 'vitest';
import { DEAL_FIELDS, DEAL_GROUPS, DEAL_RELATIONS, DEAL_STAGES, DEAL_TYPED_TEXTS, DEAL_TYPES, DEAL_TYPE_RENTAL, DEAL_TYPE_SALE, dealTextKey } from '@crm/contract';
import { itLabelsEvery, localeTexts } from './locale-texts.testing.ts';

/** The deal screens label every described field, group, type, stage and party relation from the texts. */
describe('deal texts', () => {
  const { en, el, ru } = localeTexts();
  itLabelsEvery('deal field, group, type, stage and relation', [
    ...DEAL_FIELDS.map((d) => `fields.deal.${d.name}`),
    ...DEAL_GROUPS.map((g) => `deals.group.${g}`),
    ...DEAL_TYPES.map((v) => `deals.type.${v}`),
    ...DEAL_STAGES.map((v) => `deals.stage.${v}`),
    ...DEAL_RELATIONS.map((v) => `deals.relation.${v}`),
  ]);
  it('writes Greek and Russian labels, not English ones', () => {
    const all = Object.keys(en).filter((k) => k.startsWith('deals.') || k.startsWith('fields.deal.'));
    expect(all.filter((k) => el[k] === en[k] || ru[k] === en[k] || !el[k] || !ru[k])).toEqual([]);
  });
  it('names a sale\'s deposit earnest money and a rental\'s a security deposit, and both where no one type is meant', () => {
    const forms = (texts: Record<string, string>) =>
      DEAL_TYPED_TEXTS.map((k) => ({ key: k, sale: texts[dealTextKey(k, DEAL_TYPE_SALE)] ?? '', rental: texts[dealTextKey(k, DEAL_TYPE_RENTAL)] ?? '', both: texts[k] ?? '' }));
    for (const [texts, earnest, security] of [
      [el, /αρραβών/i, /εγγύησ/i],
      [ru, /задат/i, /залог/i],
    ] as const) {
      for (const f of forms(texts)) {
        expect(f.sale, f.key).toMatch(earnest);
        expect(f.sale, f.key).not.toMatch(security);
        expect(f.rental, f.key).toMatch(security);
        expect(f.rental, f.key).not.toMatch(earnest);
        expect(f.both, f.key).toMatch(earnest);
        expect(f.both, f.key).toMatch(security);
      }
      // The warning about a rental's deposit speaks of the security deposit.
      expect(texts['deals.ui.depositAboveRent']).toMatch(security);
      expect(texts['deals.ui.depositAboveRent']).not.toMatch(earnest);
    }
  });
});
