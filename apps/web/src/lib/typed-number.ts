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
 */
export type TypedNumber = { kind: 'empty' } | { kind: 'number'; value: number } | { kind: 'bad'; reason: 'format' | 'precision' | 'negative' };

export function readTypedNumber(raw: string, scale: number, allowNegative = false): TypedNumber {
  let s = raw.replace(/[\s\u00a0\u202f€]/g, '');
  if (!s) return { kind: 'empty' };
  const negative = /^[-\u2212]/.test(s);
  if (negative) {
    if (!allowNegative) return { kind: 'bad', reason: 'negative' };
    s = s.slice(1);
  }
  const groupedDots = /^(\d{1,3}(?:\.\d{3})+)(?:,(\d*))?$/.exec(s);
  const groupedCommas = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d*))?$/.exec(s);
  const plain = /^(\d*)(?:[.,](\d*))?$/.exec(s);
  let int: string;
  let frac: string;
  if (groupedDots && (scale < 3 || groupedDots[2] !== undefined)) {
    int = groupedDots[1]!.replace(/\./g, '');
    frac = groupedDots[2] ?? '';
  } else if (groupedCommas && (scale < 3 || groupedCommas[2] !== undefined)) {
    int = groupedCommas[1]!.replace(/,/g, '');
    frac = groupedCommas[2] ?? '';
  } else if (plain && (plain[1] || plain[2])) {
    int = plain[1] || '0';
    frac = plain[2] ?? '';
  } else return { kind: 'bad', reason: 'format' };
  if (frac.length > scale) return { kind: 'bad', reason: 'precision' };
  if (int.replace(/^0+/, '').length > 15) return { kind: 'bad', reason: 'format' };
  const value = Number(`${negative ? '-' : ''}${int}.${frac || '0'}`);
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
