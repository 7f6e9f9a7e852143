import { describe, expect, it } from 'vitest';
import { LEAD_FIELDS, LEAD_GROUPS, LEAD_PRIORITIES, LEAD_STAGES, VIEWING_RESULTS } from '@crm/contract';
import { readLocaleFiles } from './index.ts';

/** The lead and viewing screens label every described field, group and list value from the texts. */
describe('lead and viewing texts', () => {
  const cultures = readLocaleFiles();
  const keys = [
    ...LEAD_FIELDS.map((d) => `fields.lead.${d.name}`),
    ...LEAD_GROUPS.map((g) => `leads.group.${g}`),
    ...LEAD_STAGES.map((s) => `leads.stage.${s}`),
    ...LEAD_PRIORITIES.map((p) => `leads.priority.${p}`),
    ...VIEWING_RESULTS.map((r) => `viewings.result.${r}`),
  ];
  it.each(cultures.map((c) => [c.culture, c.texts] as const))('labels every lead field, group, stage, priority and viewing result in %s', (_culture, texts) => {
    expect(keys.filter((k) => !texts[k]?.trim())).toEqual([]);
  });
  it('writes Greek and Russian labels, not English ones', () => {
    const [en, el, ru] = ['en', 'el', 'ru'].map((c) => cultures.find((x) => x.culture === c)!.texts);
    expect(keys.filter((k) => el![k] === en![k] || ru![k] === en![k])).toEqual([]);
  });
});
