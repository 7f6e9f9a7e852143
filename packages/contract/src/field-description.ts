// The shape of a declarative field description (no runtime dependencies: the web imports it
// without zod). Objects (object-fields.ts) and accounts (account-fields.ts) describe their fields
// with it; the contract's schemas, the tables, the single-field editor's rules and the screens are
// made from those descriptions. See docs/decisions/009-field-descriptions.md.
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
  references?: 'accounts';
  /** Not editable one at a time (the single-field editor): changed only through the whole-record update. */
  wholeRecordOnly?: boolean;
};
