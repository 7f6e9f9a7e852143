import { describe, expect, it } from 'vitest';
import { carryForm, mergeOnConflict, takeCarriedForm } from './conflict-merge.ts';

describe('a form merged after someone else saved first', () => {
  const base = { price: '100', notes: '', stage: 1, parties: [{ key: 1, account: 7, relation: 1 }] };

  it('keeps what only I changed, takes what only they changed, and names where both changed', () => {
    const mine = { ...base, price: '120', notes: 'Called the buyer' };
    const theirs = { ...base, price: '110', stage: 3 };
    const m = mergeOnConflict(base, mine, theirs);
    expect(m.next).toEqual({ price: '110', notes: 'Called the buyer', stage: 3, parties: base.parties });
    expect(m.changed).toEqual(['price', 'notes']);
    expect(m.lost).toEqual(['price']);
  });

  it('does not call a field lost when we both typed the same', () => {
    const m = mergeOnConflict(base, { ...base, price: '120' }, { ...base, price: '120' });
    expect(m.lost).toEqual([]);
    expect(m.next.price).toBe('120');
  });

  it('compares list rows without their React keys', () => {
    const reloaded = { ...base, parties: [{ key: 99, account: 7, relation: 1 }] };
    const m = mergeOnConflict(base, reloaded, { ...base, parties: [{ key: 5, account: 8, relation: 2 }] });
    expect(m.changed).toEqual([]);
    expect(m.next.parties).toEqual([{ key: 5, account: 8, relation: 2 }]);
  });

  it('hands the merged form over once', () => {
    carryForm('deal-1', { price: '1' });
    expect(takeCarriedForm('deal-1')).toEqual({ price: '1' });
    expect(takeCarriedForm('deal-1')).toBeUndefined();
  });
});
