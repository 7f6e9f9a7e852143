import { describe, expect, it } from 'vitest';
import { mergeBody } from './merge-body.ts';

describe('the kept account Merge sends', () => {
  const kept = { id: 7, version: 3, lastName: 'Kosta', taxNumber: '123', email: 'at the office', phone: '2310 111111', isClient: false, notes: null };
  const dup = { id: 9, version: 1, lastName: 'Kosta', taxNumber: null, email: 'eleni@example.gr', phone: '2310 111111', isClient: true, notes: 'Calls after 6' };

  it('holds the values taken from the duplicate, and none of the kept account’s own', () => {
    expect(mergeBody(kept, dup, ['email', 'isClient', 'notes'])).toEqual({ id: 7, version: 3, email: 'eleni@example.gr', isClient: true, notes: 'Calls after 6' });
  });

  it('leaves out a value taken that is the same on both', () => {
    expect(mergeBody(kept, dup, ['phone', 'lastName'])).toEqual({ id: 7, version: 3 });
  });

  it('sends an emptied value when the duplicate’s empty one is chosen', () => {
    expect(mergeBody(kept, dup, ['taxNumber'])).toEqual({ id: 7, version: 3, taxNumber: null });
  });
});
