import type { TFunction } from 'i18next';
import { DEAL_TYPE_RENTAL, DEAL_TYPE_SALE } from '@crm/contract/deal-fields';

/**
 * A party's role as the deal's type names it: the seller and buyer of a sale, the landlord and
 * tenant of a rental ("Seller / landlord" only while the type is not chosen). Other roles (lawyer,
 * notary...) as the list says.
 */
export function partyRelationText(t: TFunction, relation: number, dealType: number | null | undefined, listed: string): string {
  if (relation !== 1 && relation !== 2) return listed;
  if (dealType === DEAL_TYPE_SALE) return t(`deals.ui.party.sale.${relation}`);
  if (dealType === DEAL_TYPE_RENTAL) return t(`deals.ui.party.rental.${relation}`);
  return listed;
}
