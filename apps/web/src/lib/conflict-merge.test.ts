import { describe, expect, it } from 'vitest';
import { carryForm, mergeOnConflict, mergeRowsOnConflict, splitOnConflict, takeCarriedForm } from './conflict-merge.ts';

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

describe('an auto-saved record refused as stale', () => {
  const keys = ['title', 'price', 'notes'];
  const base = { title: 'Flat', price: 100, notes: '' };

  it('puts back what only I typed and names what they changed over mine', () => {
    const s = splitOnConflict(keys, base, { ...base, price: 120, notes: 'Keys at the kiosk' }, { ...base, price: 110, title: 'Sunny flat' });
    expect(s).toEqual({ mine: ['notes'], lost: ['price'], foreign: true });
  });

  it('has nothing to tell when the other version is my own save whose answer was lost', () => {
    const sent = { price: 120 };
    const s = splitOnConflict(keys, base, { ...base, price: 120 }, { ...base, price: 120 }, sent);
    expect(s).toEqual({ mine: [], lost: [], foreign: false });
  });

  it('saves what I typed after the lost save, over my own earlier value, without a word', () => {
    const s = splitOnConflict(keys, base, { ...base, price: 130 }, { ...base, price: 120 }, { price: 120 });
    expect(s).toEqual({ mine: ['price'], lost: [], foreign: false });
  });

  it('still names a field someone else changed beside my lost save', () => {
    const s = splitOnConflict(keys, base, { ...base, price: 120, notes: 'Mine' }, { ...base, price: 120, notes: 'Theirs' }, { price: 120 });
    expect(s).toEqual({ mine: [], lost: ['notes'], foreign: true });
  });
});

type Row = { objectId: number; ref: string; result: number | null; comment: string };
const row = (objectId: number, result: number | null, comment = ''): Row => ({ objectId, ref: `#${String(objectId).padStart(4, '0')}`, result, comment });
const merge = (base: Row[], mine: Row[], theirs: Row[]) => mergeRowsOnConflict(base, mine, theirs, (r) => r.objectId, (r) => r.ref);

describe("a viewing's properties merged when someone else saved first", () => {
  it("keeps my comment on one property and their result on another", () => {
    const base = [row(1, null), row(2, null)];
    const m = merge(base, [row(1, null, 'Too dark for her'), row(2, null)], [row(1, null), row(2, 2)]);
    expect(m.rows).toEqual([row(1, null, 'Too dark for her'), row(2, 2)]);
    expect(m).toMatchObject({ changed: true, lost: [] });
  });

  it('keeps theirs where we both changed the same field, and names the property', () => {
    const base = [row(1, null, 'old')];
    const m = merge(base, [row(1, null, 'mine')], [row(1, null, 'theirs')]);
    expect(m.rows).toEqual([row(1, null, 'theirs')]);
    expect(m).toMatchObject({ changed: false, lost: ['#0001'] });
  });

  it('adds the property I added and drops the one I removed, keeping the one they added', () => {
    const base = [row(1, null), row(2, null)];
    const m = merge(base, [row(1, null), row(3, 1)], [row(1, null), row(2, null), row(4, null)]);
    expect(m.rows.map((r) => r.objectId)).toEqual([1, 4, 3]);
    expect(m.changed).toBe(true);
  });
});
