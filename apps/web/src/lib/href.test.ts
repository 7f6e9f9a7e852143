import { describe, expect, it } from 'vitest';
import { ACCOUNT, DEAL, OBJECT, PAYMENT, RESERVATION, href } from '@crm/contract/resources';

describe('href: a link to a screen from its declared path', () => {
  it('fills the params, drops an optional one left out with its slash', () => {
    expect(href(OBJECT.screens.view, { id: 12 })).toBe('/Objects/View/12');
    expect(href(OBJECT.screens.view, { id: 12, viewMode: 2 })).toBe('/Objects/View/12/2');
    expect(href(OBJECT.screens.view, { id: 'ref123' })).toBe('/Objects/View/ref123');
    expect(href(OBJECT.screens.add, {})).toBe('/Objects/Add');
    expect(href(PAYMENT.screens.addIncome, { accountId: null })).toBe('/Payments/AddIncome');
    expect(href(ACCOUNT.screens.mergePair, { a1: 1, a2: 2 })).toBe('/Accounts/Merge/a1/1/a2/2');
  });

  it('encodes the values', () => {
    expect(href(OBJECT.screens.view, { id: 'a b/c?' })).toBe('/Objects/View/a%20b%2Fc%3F');
  });

  it('appends a query string of the values given, none empty', () => {
    expect(href(DEAL.screens.add, undefined, { demandId: 7 })).toBe('/Deals/Add?demandId=7');
    expect(href(RESERVATION.screens.add, undefined, { objectId: 3, checkIn: '2026-01-02', x: '', y: undefined })).toBe('/Reservations/Add?objectId=3&checkIn=2026-01-02');
    expect(href(DEAL.screens.list)).toBe('/Deals');
  });

  it('refuses a path whose required param has no value', () => {
    expect(() => href(DEAL.screens.view, { id: '' })).toThrow(/no value for :id/);
    // @ts-expect-error a required param left out fails the typecheck
    expect(() => href(DEAL.screens.view, {})).toThrow(/no value for :id/);
  });
});
