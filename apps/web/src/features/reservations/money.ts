import { groupThousands } from '../../lib/typed-number.ts';

/**
 * An exact decimal ("1234567.80", as the server sums it) in the agency's money format:
 * 1 234 567,80 € (space thousands, comma decimals, symbol after), without passing through a float.
 */
export function formatDecimalMoney(s: string | null | undefined): string {
  if (s == null || s === '') return '';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s.trim());
  if (!m) return s;
  const int = groupThousands(m[2]!.replace(/^0+(?=\d)/, ''));
  const frac = (m[3] ?? '').padEnd(2, '0').slice(0, 2);
  return `${m[1]}${int},${frac}\u00a0€`;
}
