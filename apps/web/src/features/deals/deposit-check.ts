import { DEAL_TYPE_RENTAL } from '@crm/contract/deal-fields';

/**
 * A rental's deposit above this many months' rent is worth a second look. The usual guarantee is
 * one or two months' rent, three for some furnished or short lets; more is mostly a slip (the
 * year's rent typed, or a sale price).
 */
export const DEAL_RENTAL_DEPOSIT_MONTHS = 3;

/**
 * What to say under a deal's deposit, as a text key, or null: a sale's deposit above its price, a
 * rental's above three months' rent (its price is a month's rent). Never refused: a deposit can be
 * unusual and still right.
 */
export function depositCheck(dealType: number, deposit: number | null, price: number | null): string | null {
  if (deposit == null || price == null) return null;
  if (dealType === DEAL_TYPE_RENTAL) return deposit > price * DEAL_RENTAL_DEPOSIT_MONTHS ? 'deals.ui.depositAboveRent' : null;
  return deposit > price ? 'deals.ui.depositAbovePrice' : null;
}
