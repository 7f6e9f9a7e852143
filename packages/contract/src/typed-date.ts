// How the app reads a date a person typed, once for the web's date fields and the spreadsheet import
// (no runtime dependencies: the web imports it as '@crm/contract/typed-date').
const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * A date as typed in the agency's order, day first: "31/12/2026", "31.12.2026", "31-12-2026",
 * "5/3/26" (a two-digit year is this century's), "27/11" or "27.11" (no year: the current one,
 * `thisYear`, the agency's). Answers YYYY-MM-DD, or null for a text that is not a date the
 * calendar has: "31/02/2026" is refused, never read as 3 March.
 */
export function parseTypedDate(text: string, thisYear: number = new Date().getFullYear()): string | null {
  const m = /^\s*(\d{1,2})\s*[./\-\s]\s*(\d{1,2})\s*(?:[./\-\s]\s*(\d{4}|\d{2})\s*|\.?\s*)$/.exec(text);
  if (!m) return null;
  const day = Number(m[1]);
  const month = Number(m[2]);
  const year = m[3] === undefined ? thisYear : m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day > last ? null : `${year}-${pad2(month)}-${pad2(day)}`;
}
