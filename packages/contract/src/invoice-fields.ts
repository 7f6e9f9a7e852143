// Commission invoices and receipts reported to myDATA (issue 47, decision 085): the kinds, their
// myDATA document types, the statuses, VAT categories and payment methods as AADE numbers them,
// the Greek tax number's check digit and the exact sums in cents. No zod: the web imports it alone.
import { isGreekTaxNumber } from './account-fields.ts';

/** invoice: Τιμολόγιο Παροχής Υπηρεσιών (myDATA 2.1); receipt: Απόδειξη Παροχής Υπηρεσιών (11.2); credit: Πιστωτικό Τιμολόγιο συσχετιζόμενο (5.1) of an invoice, Πιστωτικό Στοιχείο Λιανικής (11.4) of a receipt. */
export const INVOICE_KINDS = ['invoice', 'receipt', 'credit'] as const;
export type TInvoiceKind = (typeof INVOICE_KINDS)[number];
export const MYDATA_TYPE: Record<TInvoiceKind, string> = { invoice: '2.1', receipt: '11.2', credit: '5.1' };
/** The series a new document of each kind is offered (the agency may keep others: each series is numbered on its own). */
export const DEFAULT_SERIES: Record<TInvoiceKind, string> = { invoice: 'ΤΠΥ', receipt: 'ΑΠΥ', credit: 'ΠΤ' };
/** A receipt's credit note: Πιστωτικό Στοιχείο Λιανικής (myDATA 11.4), in a series of its own. */
export const RETAIL_CREDIT_TYPE = '11.4';
export const RETAIL_CREDIT_SERIES = 'ΠΣΛ';
/** Latin capitals that look like Greek ones (A B E H I K M N O P T X Y Z), as their Greek letters. */
const LATIN_AS_GREEK: Readonly<Record<string, string>> = { A: 'Α', B: 'Β', E: 'Ε', H: 'Η', I: 'Ι', K: 'Κ', M: 'Μ', N: 'Ν', O: 'Ο', P: 'Ρ', T: 'Τ', X: 'Χ', Y: 'Υ', Z: 'Ζ' };
/**
 * A series as it is stored, numbered and compared (decision 085): NFKC, upper case with Greek
 * letters' accents and diaeresis dropped, no whitespace, no trailing dots, and, in a series with a
 * Greek letter, Latin capitals that look like Greek ones as Greek (`τπυ`, `ΤΠΥ.`, `Τ ΠΥ` and `ΑΠΥ`
 * typed with a Latin A are ΤΠΥ and ΑΠΥ). A series of Latin letters only stays Latin.
 */
export function canonicalSeries(typed: string): string {
  const upper = typed
    .normalize('NFKC')
    .replace(/\s+/gu, '')
    .toUpperCase()
    .normalize('NFD')
    .replace(/(\p{Script=Greek})\p{M}+/gu, '$1')
    .normalize('NFC')
    .replace(/\.+$/u, '');
  return /\p{Script=Greek}/u.test(upper) ? upper.replace(/[ABEHIKMNOPTXYZ]/g, (c) => LATIN_AS_GREEK[c]!) : upper;
}
/** A retail document (to a private person): a receipt, or a receipt's credit note. No counterpart ΑΦΜ required, nothing withheld. */
export const isRetail = (kind: TInvoiceKind, creditOfKind: TInvoiceKind | null | undefined) => kind === 'receipt' || (kind === 'credit' && creditOfKind === 'receipt');
/** The myDATA type of a document: a credit note's depends on what it credits (5.1 an invoice's, 11.4 a receipt's). */
export const mydataTypeOf = (kind: TInvoiceKind, creditOfKind: TInvoiceKind | null | undefined) => (kind === 'credit' && creditOfKind === 'receipt' ? RETAIL_CREDIT_TYPE : MYDATA_TYPE[kind]);
/** The label of a document's kind (invoices.kind.*): a receipt's credit note (11.4) is a retail credit note, not a credit invoice. */
export const kindLabel = (d: { kind: TInvoiceKind; mydataType: string }) => (d.mydataType === RETAIL_CREDIT_TYPE ? 'retailCredit' : d.kind);

/**
 * draft: editable, no number yet; issued: numbered and final, not (yet) transmitted; sent: handed to
 * myDATA, awaiting its answer (retried while unreachable); accepted: myDATA gave it a MARK;
 * rejected: myDATA answered with errors (shown; fixed and sent again).
 */
export const INVOICE_STATUSES = ['draft', 'issued', 'sent', 'accepted', 'rejected'] as const;
export type TInvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** myDATA's VAT categories (vatCategory) this CRM issues, with their rates in percent; 7 is 0% and needs an exemption reason. */
export const VAT_RATES: Readonly<Record<number, number>> = { 1: 24, 2: 13, 3: 6, 4: 17, 5: 9, 6: 4, 7: 0 };
export const VAT_CATEGORIES = [1, 2, 3, 4, 5, 6, 7] as const;
export const VAT_CATEGORY_DEFAULT = 1;
export const VAT_CATEGORY_EXEMPT = 7;

/**
 * myDATA's withholding categories (withheldPercentCategory, AADE's code list) a commission invoice may
 * carry, chosen per line: 3, art. 64(1)(δ) of law 4172/2013, 20% (fees for services paid by a business,
 * where the law asks it); 7, services 8% (payments by public bodies). None unless chosen.
 */
export const WITHHELD_RATES: Readonly<Record<number, number>> = { 3: 20, 7: 8 };
export const WITHHELD_CATEGORIES = [3, 7] as const;
/** The tax withheld on a net amount in cents at a category's rate, rounded half up (0 without a category). */
export function withheldCents(netCents: number, category: number | null | undefined): number {
  const rate = category ? (WITHHELD_RATES[category] ?? 0) : 0;
  return Math.floor((netCents * rate + 50) / 100);
}

/** myDATA's payment methods: 1 business account in Greece, 3 cash, 4 cheque, 5 on credit, 6 web banking, 7 POS / e-POS, 8 IRIS. */
export const MYDATA_PAYMENT_METHODS = [1, 3, 4, 5, 6, 7, 8] as const;

export const INVOICE_MAX_LINES = 50;
/** A line's net amount at most (cents): myDATA's amounts have 15 digits with 2 decimals; ours stay far below. */
export const INVOICE_MAX_CENTS = 99_999_999_999;

/** A Greek tax number (ΑΦΜ) as myDATA takes it: nine digits exactly, the last the check digit (account-fields.ts, isGreekTaxNumber). */
export const isValidGreekVat = (v: string): boolean => /^\d{9}$/.test(v) && isGreekTaxNumber(v);

/** The VAT of a net amount in cents at a category's rate, rounded half up to the cent. */
export function vatCents(netCents: number, vatCategory: number): number {
  const rate = VAT_RATES[vatCategory] ?? 0;
  return Math.floor((netCents * rate + 50) / 100);
}

export type TInvoiceSums = { netCents: number; vatCents: number; grossCents: number };

/** A document's sums: each line's VAT rounded once, and the totals the sums of the lines (so the document adds up to the cent). */
export function invoiceSums(lines: readonly { netCents: number; vatCategory: number }[]): TInvoiceSums & { lines: TInvoiceSums[] } {
  const each = lines.map((l) => {
    const vat = vatCents(l.netCents, l.vatCategory);
    return { netCents: l.netCents, vatCents: vat, grossCents: l.netCents + vat };
  });
  const netCents = each.reduce((s, l) => s + l.netCents, 0);
  const vat = each.reduce((s, l) => s + l.vatCents, 0);
  return { netCents, vatCents: vat, grossCents: netCents + vat, lines: each };
}

/** Cents as myDATA writes amounts: a decimal point and two decimals ("1234.50"). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(cents);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}
