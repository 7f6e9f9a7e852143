import type { TFunction } from 'i18next';
import { formatMoney } from '../../../lib/format.ts';

/** A purchase budget range: "100 000 € – 250 000 €", "from 100 000 €", "up to 250 000 €". */
export function formatBudget(t: TFunction, min: number | null | undefined, max: number | null | undefined): string {
  if (min != null && max != null) return `${formatMoney(min)} – ${formatMoney(max)}`;
  if (min != null) return t('accounts.ui.budget.from', { amount: formatMoney(min) });
  if (max != null) return t('accounts.ui.budget.upTo', { amount: formatMoney(max) });
  return '';
}
