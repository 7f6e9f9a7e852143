import { describe, expect, it } from 'vitest';
import { LEAD_FIELDS, LEAD_GROUPS, LEAD_PRIORITIES, LEAD_STAGES, VIEWING_RESULTS } from '@crm/contract';
import { itLabelsEvery, localeTexts } from './locale-texts.testing.ts';

/** The lead and viewing screens label every described field, group and list value from the texts. */
describe('lead and viewing texts', () => {
  const { en, el, ru } = localeTexts();
  const keys = [
    ...LEAD_FIELDS.map((d) => `fields.lead.${d.name}`),
    ...LEAD_GROUPS.map((g) => `leads.group.${g}`),
    ...LEAD_STAGES.map((s) => `leads.stage.${s}`),
    ...LEAD_PRIORITIES.map((p) => `leads.priority.${p}`),
    ...VIEWING_RESULTS.map((r) => `viewings.result.${r}`),
  ];
  itLabelsEvery('lead field, group, stage, priority and viewing result', keys);
  it('writes Greek and Russian labels, not English ones', () => {
    expect(keys.filter((k) => el[k] === en[k] || ru[k] === en[k])).toEqual([]);
  });
});
