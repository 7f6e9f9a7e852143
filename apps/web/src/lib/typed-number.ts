import { readTypedDecimal } from '@crm/contract/typed-number';

/**
 * What a person typed into a number field, read the way agents in Greece write numbers: a comma or
 * a point is the decimal mark ("12,5", "12.5"); dots before a decimal comma ("1.250,50") or commas
 * before a decimal point ("1,250.50") group thousands; spaces and the euro sign are ignored.
 *
 * A lone separator followed by exactly three digits ("250.000", "250,000") is a thousands separator
 * when the field holds at most two decimals (prices, areas, distances): it cannot be a decimal
 * mark there, and reading it as one stored 250 € for a flat of 250 000 €. In a field with more
 * decimals (coordinates) it stays a decimal mark. Anything else that is no number, more decimals
 * than the field holds, or a minus where none is allowed is refused, never rounded or dropped.
 *
 * The reading itself is the contract's readTypedDecimal, which the payments' amounts (parseAmount)
 * use too, as exact text.
 */
export type TypedNumber = { kind: 'empty' } | { kind: 'number'; value: number } | { kind: 'bad'; reason: 'format' | 'precision' | 'negative' };

export function readTypedNumber(raw: string, scale: number, allowNegative = false): TypedNumber {
  const r = readTypedDecimal(raw, scale, allowNegative);
  if (r.kind !== 'number') return r;
  if (r.int.length > 15) return { kind: 'bad', reason: 'format' };
  const value = Number(`${r.negative ? '-' : ''}${r.int}.${r.frac || '0'}`);
  return Number.isFinite(value) ? { kind: 'number', value: Object.is(value, -0) ? 0 : value } : { kind: 'bad', reason: 'format' };
}

/**
 * A number as the field shows it: space thousands (when grouped), comma decimals, no rounding; a
 * number with decimals shows at least `pad` of them (1 250,50 €), a whole one none (250 000 €).
 */
/** The digits of a whole number with a no-break space between thousands ("1234567" → "1 234 567"). */
export const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');

export function formatTypedNumber(n: number, grouping = true, pad = 0): string {
  const [int = '0', frac] = String(Math.abs(n)).split('.');
  const whole = grouping ? groupThousands(int) : int;
  return `${n < 0 ? '-' : ''}${whole}${frac ? `,${frac.padEnd(pad, '0')}` : ''}`;
}
