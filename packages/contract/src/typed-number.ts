// How the app reads a number a person typed, once for the web's number fields (readTypedNumber in
// apps/web/src/lib/typed-number.ts) and for the payments' amounts (parseAmount, on the server and
// in the web), so that "1.500" is 1 500 € in a booking and in an income alike. No runtime
// dependencies: the web imports it as '@crm/contract/typed-number' without zod.

/**
 * What a person typed into a number field, read the way agents in Greece write numbers: a comma or
 * a point is the decimal mark ("12,5", "12.5"); dots before a decimal comma ("1.250,50") or commas
 * before a decimal point ("1,250.50") group thousands; spaces and the euro sign are ignored.
 *
 * A lone separator followed by exactly three digits ("250.000", "250,000") after a number that does
 * not start with 0 is a thousands separator
 * when the field holds at most two decimals (prices, areas, distances, amounts): it cannot be a
 * decimal mark there, and reading it as one stored 250 € for a flat of 250 000 €. In a field with
 * more decimals (coordinates) it stays a decimal mark. Anything else that is no number, more
 * decimals than the field holds, or a minus where none is allowed is refused, never rounded or
 * dropped.
 *
 * Answers the digits as text (`int` without leading zeros, "0" at least; `frac` as typed), never a
 * float: a money amount is kept exact from the box to the column.
 */
export type TypedDecimal =
  | { kind: 'empty' }
  | { kind: 'number'; negative: boolean; int: string; frac: string }
  | { kind: 'bad'; reason: 'format' | 'precision' | 'negative' };

export function readTypedDecimal(raw: string, scale: number, allowNegative = false): TypedDecimal {
  let s = raw.replace(/[\s\u00a0\u202f€]/g, '');
  if (!s) return { kind: 'empty' };
  const negative = /^[-\u2212]/.test(s);
  if (negative) {
    if (!allowNegative) return { kind: 'bad', reason: 'negative' };
    s = s.slice(1);
  }
  // A first group of thousands starts with 1-9: "0,500" and "00.250" are no grouped numbers (read
  // plainly they are half a euro written with too many decimals, refused, never 500 €).
  const groupedDots = /^([1-9]\d{0,2}(?:\.\d{3})+)(?:,(\d*))?$/.exec(s);
  const groupedCommas = /^([1-9]\d{0,2}(?:,\d{3})+)(?:\.(\d*))?$/.exec(s);
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
  return { kind: 'number', negative, int: int.replace(/^0+(?=\d)/, ''), frac };
}

/**
 * An amount typed by a person (a payment's income or expense): read as every number of the app
 * (readTypedDecimal with two decimals: "1.500" and "1.500,50" in Greek, "1,500.50" in English), a
 * positive number below 10^12. Answers the canonical text "1500.50". Negative, zero, over-precise
 * ("10.005") and malformed amounts are field errors (their text keys).
 */
export function parseAmount(raw: string): { ok: true; value: string } | { ok: false; code: string } {
  const r = readTypedDecimal(raw, 2);
  if (r.kind === 'empty') return { ok: false, code: 'validation.required' };
  if (r.kind === 'bad') return { ok: false, code: r.reason === 'negative' ? 'payments.amountPositive' : r.reason === 'precision' ? 'payments.amountPrecision' : 'payments.amountFormat' };
  if (r.int.length > 12) return { ok: false, code: 'payments.amountTooBig' };
  const value = `${r.int}.${r.frac.padEnd(2, '0')}`;
  if (value === '0.00') return { ok: false, code: 'payments.amountPositive' };
  return { ok: true, value };
}
