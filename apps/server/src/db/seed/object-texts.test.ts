import { describe, expect, it } from 'vitest';
import { OBJECT_FIELDS, OBJECT_GROUPS } from '@crm/contract';
import { readLocaleFiles } from './index.ts';

/** The object screens label every described field and group from the texts: none may be missing. */
describe('object texts', () => {
  const cultures = readLocaleFiles();
  it.each(cultures.map((c) => [c.culture, c.texts] as const))('labels every object field and group in %s', (_culture, texts) => {
    const missing = [
      ...OBJECT_FIELDS.map((d) => `fields.object.${d.name}`),
      ...OBJECT_GROUPS.map((g) => `objects.group.${g}`),
    ].filter((k) => !texts[k]?.trim());
    expect(missing).toEqual([]);
  });
  it('writes Greek and Russian labels, not English ones', () => {
    const [en, el, ru] = ['en', 'el', 'ru'].map((c) => cultures.find((x) => x.culture === c)!.texts);
    const same = OBJECT_FIELDS.map((d) => `fields.object.${d.name}`).filter((k) => el![k] === en![k] || ru![k] === en![k]);
    expect(same).toEqual([]);
    expect(el!['fields.object.bedrooms']).toBe('Υπνοδωμάτια');
    expect(el!['fields.object.seaView']).toBe('Θέα θάλασσα');
  });
});
