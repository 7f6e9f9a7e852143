/**
 * An exact decimal text from the API ("-1234.50") as the agency writes money: space thousands,
 * comma decimals, the euro sign after ("-1 234,50 €"). Works on the text, never through a float.
 */
export function formatAmount(s: string | null | undefined): string {
  if (s == null || s === '') return '';
  const neg = s.startsWith('-');
  const [int = '0', frac = ''] = (neg ? s.slice(1) : s).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${neg ? '-' : ''}${grouped},${frac.padEnd(2, '0').slice(0, 2)}\u00a0€`;
}

/** The amount as the form's input shows it: "1234.50" becomes "1234,50" in Greek and Russian. */
export const amountForInput = (s: string, culture: string) => (culture === 'en' ? s : s.replace('.', ','));
