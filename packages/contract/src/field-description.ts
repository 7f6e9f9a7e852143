// The shape of a declarative field description (no runtime dependencies: the web imports it
// without zod). Objects (object-fields.ts), accounts, leads, deals, reservations and transactions
// (transaction-fields.ts) describe their fields with it; the contract's schemas, the tables, the
// single-field editor's rules and the screens are made from those descriptions. See
// docs/decisions/009-field-descriptions.md and 018-payments-ledger.md.
import type { TFieldType } from './fields.ts';

export type TFieldDescriptionOf<G extends string = string> = {
  name: string;
  type: TFieldType;
  /** The section of the view and of the edit form; its title is `<entity>.group.<group>`. */
  group: G;
  /** Texts: characters; numbers: the bounds. */
  max?: number;
  min?: number;
  integer?: boolean;
  step?: number;
  /** select / multi-select: the list its values come from. */
  list?: string;
  required?: boolean;
  /** Set by the system, shown but never edited by hand. */
  readOnly?: boolean;
  /** Shown on the edit form in expanded mode only (view mode 2). */
  expandedOnly?: boolean;
  /** select: the values are ids of these records (an integer column with a foreign key), not a fixed list. */
  references?: 'accounts' | 'objects';
  /** Not editable one at a time (the single-field editor): changed only through the whole-record update. */
  wholeRecordOnly?: boolean;
  /**
   * The kinds of record that have the field, for an entity with kinds that differ in their fields
   * (a transaction is an income or an expense); absent: every record has it.
   */
  kinds?: readonly string[];
  /** The value of a new record (a blank form), and the value stored when a form leaves out a field that is not required. */
  default?: number;
};

/** A date-time field's two inputs: "2026-03-01T10:30:00" gives ["2026-03-01", "10:30"]; a value shorter than 19 characters is not split (spec: the editors leave it alone). */
export function splitDateTime(value: string | null | undefined): [date: string | null, time: string] {
  return value && value.length >= 19 ? [value.slice(0, 10), value.slice(11, 16)] : [null, ''];
}

/**
 * A date-time field's two inputs joined into the 19-character moment the server reads: the date
 * ("YYYY-MM-DD") and the time ("HH:mm" or "HH:mm:ss"). A missing date or time gives what was
 * typed (too short), so the server answers with its field error instead of guessing midnight.
 */
export function joinDateTime(date: string | null | undefined, time: string | null | undefined): string {
  if (!date) return '';
  if (!time) return date;
  return `${date}T${/^\d{2}:\d{2}$/.test(time) ? `${time}:00` : time}`;
}

/**
 * The row style classes of a list whose rows are styled by a numbered value (a stage, a result): the
 * classes of the values 1, 2, 3 … in order, each the value's English name lowercased without spaces.
 */
export function classesByValue(classes: readonly string[]): Record<number, string> {
  return Object.fromEntries(classes.map((c, i) => [i + 1, c]));
}
