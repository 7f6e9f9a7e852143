import { sql, type SQL } from 'drizzle-orm';

/**
 * A property's reference number as shown, written by PostgreSQL ("0042", "12345"): the twin of the
 * contract's `formatReferenceNumber`. `lpad(…, 4, '0')` alone cuts a longer text to four characters,
 * which showed property 12345 as "1234".
 */
export const refDigits = (n: SQL) => sql<string>`lpad(${n}::text, greatest(4, length(${n}::text)), '0')`;

/** The same, of `o.reference_number` (statements that name the objects `o`). */
export const refDigitsOfO = refDigits(sql.raw('o.reference_number'));
