import { describe, expect, it } from 'vitest';
import { DEAL_TYPE_RENTAL, DEAL_TYPE_SALE } from '@crm/contract/deal-fields';
import { depositCheck } from './deposit-check.ts';

describe("a deal's deposit checked against its price", () => {
  it("lets a rental's deposit of one to three months' rent pass: its price is a month's rent", () => {
    expect(depositCheck(DEAL_TYPE_RENTAL, 1700, 850)).toBeNull();
    expect(depositCheck(DEAL_TYPE_RENTAL, 2550, 850)).toBeNull();
  });
  it("says a rental's deposit above three months' rent (a year's rent typed, a slip)", () => {
    expect(depositCheck(DEAL_TYPE_RENTAL, 2550.01, 850)).toBe('deals.ui.depositAboveRent');
    expect(depositCheck(DEAL_TYPE_RENTAL, 10200, 850)).toBe('deals.ui.depositAboveRent');
  });
  it("says a sale's deposit above its price, as before", () => {
    expect(depositCheck(DEAL_TYPE_SALE, 1700, 850)).toBe('deals.ui.depositAbovePrice');
    expect(depositCheck(DEAL_TYPE_SALE, 20000, 205000)).toBeNull();
  });
  it('says nothing while the deposit or the price is not typed', () => {
    expect(depositCheck(DEAL_TYPE_RENTAL, null, 850)).toBeNull();
    expect(depositCheck(DEAL_TYPE_SALE, 1700, null)).toBeNull();
  });
});
