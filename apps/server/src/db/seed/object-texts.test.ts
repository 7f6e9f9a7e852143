import { describe, expect, it } from 'vitest';
import { OBJECT_FIELDS, OBJECT_GROUPS } from '@crm/contract';
import { itLabelsEvery, localeTexts } from './locale-texts.testing.ts';

/** The object screens label every described field and group from the texts: none may be missing. */
describe('object texts', () => {
  const { en, el, ru } = localeTexts();
  itLabelsEvery('object field and group', [...OBJECT_FIELDS.map((d) => `fields.object.${d.name}`), ...OBJECT_GROUPS.map((g) => `objects.group.${g}`)]);
  it('writes Greek and Russian labels, not English ones', () => {
    const same = OBJECT_FIELDS.map((d) => `fields.object.${d.name}`).filter((k) => el[k] === en[k] || ru[k] === en[k]);
    expect(same).toEqual([]);
    expect(el['fields.object.bedrooms']).toBe('Υπνοδωμάτια');
    expect(el['fields.object.seaView']).toBe('Θέα θάλασσα');
  });
});
