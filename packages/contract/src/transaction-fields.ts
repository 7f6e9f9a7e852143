// The transactions' (income and expense) fields, described once. No runtime dependencies: the web
// imports it as '@crm/contract/transaction-fields' without zod. The payments contract's schemas
// (the forms' updateFields and lists, the form-data fields of a save), the `transactions` table's
// columns, the income and expense forms, and the statement's and Transactions.xlsx's heads are made
// from TRANSACTION_FIELDS (decisions 009 and 018). Adding a field: one entry here, a migration
// (`npm run db:generate -w @crm/server -- --name <field>`), and its label
// `fields.transaction.<name>` in en/el/ru.
import type { TFieldDescriptionOf } from './field-description.ts';
import type { TFieldType } from './fields.ts';
import {
  EXPENSE_CATEGORIES,
  EXPENSE_STATUSES,
  EXPENSE_STATUS_NOT_PAID,
  INCOME_CATEGORIES,
  PAYMENT_METHODS,
  PAYMENT_METHOD_NAMES,
  TRANSACTION_TYPES,
  type TTransactionType,
} from './payment-constants.ts';

/** The sections of the income and expense forms, in order; titles `payments.group.<group>`. */
export const TRANSACTION_GROUPS = ['main', 'payment', 'period', 'notes'] as const;
export type TTransactionGroup = (typeof TRANSACTION_GROUPS)[number];

/**
 * The select lists of transactions, by the kind of transaction: the values, and the text key of
 * each value. Categories name their kind as the option's parent (the statement's category filter
 * narrows them by type).
 */
export const TRANSACTION_LISTS = {
  paymentMethod: { values: { income: PAYMENT_METHODS, expense: PAYMENT_METHODS }, textKey: (v: number) => `payments.method.${PAYMENT_METHOD_NAMES[v]}`, kindIsParent: false },
  categoryId: { values: { income: INCOME_CATEGORIES, expense: EXPENSE_CATEGORIES }, textKey: (v: number) => `payments.category.${v}`, kindIsParent: true },
  status: { values: { expense: EXPENSE_STATUSES }, textKey: (v: number) => `payments.status.${v}`, kindIsParent: false },
} as const satisfies Record<string, { values: Partial<Record<TTransactionType, readonly number[]>>; textKey: (v: number) => string; kindIsParent: boolean }>;
export type TTransactionListName = keyof typeof TRANSACTION_LISTS;

/** The field types a transaction's form-data, table and form know how to handle. */
export type TTransactionFieldType = Extract<TFieldType, 'money' | 'date-time' | 'select' | 'date' | 'text' | 'textarea'>;

export type TTransactionFieldDescription = Omit<TFieldDescriptionOf<TTransactionGroup>, 'type' | 'list' | 'kinds'> & {
  type: TTransactionFieldType;
  /** Income, expense or both. */
  kinds: readonly TTransactionType[];
  list?: TTransactionListName;
  /** The agency's own: a clientPayments reader gets null, and the statement and its file leave it out. */
  staffOnly?: boolean;
  /** What a client approves in an expense: changing it withdraws the client's approval. */
  approvalTerm?: boolean;
  /** The column allows null although the form requires a value (as created by migration 0019). */
  nullableColumn?: boolean;
};

const BOTH = TRANSACTION_TYPES;
const EXPENSE_ONLY = ['expense'] as const;

/**
 * Every field of an income or an expense that a person enters, in the order of the forms. The
 * record's own fields (id, account, type, reference number, version, approval, stamps) are not
 * described: the system sets them.
 */
export const TRANSACTION_FIELDS = [
  { name: 'amount', type: 'money', group: 'main', kinds: BOTH, required: true, approvalTerm: true },
  { name: 'transactionDate', type: 'date-time', group: 'main', kinds: BOTH, required: true, approvalTerm: true },
  { name: 'paymentMethod', type: 'select', group: 'main', kinds: BOTH, required: true, list: 'paymentMethod', default: 1 },
  { name: 'categoryId', type: 'select', group: 'main', kinds: BOTH, required: true, list: 'categoryId', approvalTerm: true, nullableColumn: true },
  /**
   * The owner's property the income or expense is for (issue 45): one of the account's own
   * properties (its owner links), offered by the form (`objects` of its answer) and checked by the
   * save; not set, it is the account's as a whole. The statement filters by it.
   */
  { name: 'objectId', type: 'select', group: 'main', kinds: BOTH, references: 'objects', approvalTerm: true },
  { name: 'status', type: 'select', group: 'payment', kinds: EXPENSE_ONLY, list: 'status', default: EXPENSE_STATUS_NOT_PAID },
  { name: 'paymentDate', type: 'date', group: 'payment', kinds: EXPENSE_ONLY },
  /** When the expense falls due. */
  { name: 'expirationDate', type: 'date', group: 'payment', kinds: EXPENSE_ONLY, approvalTerm: true },
  /** The billing period the expense covers. */
  { name: 'startDate', type: 'date', group: 'period', kinds: EXPENSE_ONLY, approvalTerm: true },
  { name: 'endDate', type: 'date', group: 'period', kinds: EXPENSE_ONLY, approvalTerm: true },
  { name: 'internalNotes', type: 'textarea', group: 'notes', kinds: BOTH, max: 4000, staffOnly: true },
] as const satisfies readonly TTransactionFieldDescription[];

export type TTransactionField = (typeof TRANSACTION_FIELDS)[number];
export type TTransactionFieldName = TTransactionField['name'];
/** The described fields an income (or an expense) has. */
export type TTransactionFieldOf<K extends TTransactionType> = TTransactionField extends infer D ? (D extends { kinds: readonly (infer X)[] } ? (K extends X ? D : never) : never) : never;

/**
 * The days a transaction's dates may name (its date and time, and an expense's payment date, due
 * date and period), as a limit on what is typed: from 1 January 2000 (the ledger is in euro; nothing
 * of an agency's payments is older) to 31 December TRANSACTION_YEARS_AHEAD years after the agency's
 * current year (a due date or a period ahead, never "2206" for 2026). As the construction year has
 * its bounds (1800-2100), a year out of them is a typing slip, refused at the field.
 */
export const TRANSACTION_FIRST_DAY = '2000-01-01';
export const TRANSACTION_YEARS_AHEAD = 10;
/** The first and last day a transaction's date may name, for the agency's today (YYYY-MM-DD). */
export const transactionDayBounds = (today: string) => ({ from: TRANSACTION_FIRST_DAY, to: `${Number(today.slice(0, 4)) + TRANSACTION_YEARS_AHEAD}-12-31` });

/** Pairs that must be in order (start ≤ end); the error is on the second. */
export const TRANSACTION_RANGES = [['startDate', 'endDate']] as const satisfies readonly (readonly [TTransactionFieldName, TTransactionFieldName])[];

/** The described fields of an income or an expense, in form order. */
export const transactionFieldsOf = (kind: TTransactionType): readonly TTransactionFieldDescription[] =>
  TRANSACTION_FIELDS.filter((d) => (d.kinds as readonly TTransactionType[]).includes(kind));

export const TRANSACTION_FIELD_BY_NAME: ReadonlyMap<string, TTransactionFieldDescription> = new Map(TRANSACTION_FIELDS.map((d) => [d.name, d]));

/** The values of a list for a kind of transaction (empty when that kind has no such field). */
export const listValuesOf = (list: TTransactionListName, kind: TTransactionType): readonly number[] =>
  (TRANSACTION_LISTS[list].values as Partial<Record<TTransactionType, readonly number[]>>)[kind] ?? [];

/**
 * A list's options for one kind of transaction, or for every kind (the statement's filters), with
 * their texts. Where the kind is the option's parent (categories) each kind's values come in turn;
 * otherwise a value shared by the kinds is listed once.
 */
export function transactionOptions(list: TTransactionListName, t: (key: string) => string, kind?: TTransactionType): { value: number; text: string; parent: TTransactionType | null }[] {
  const def = TRANSACTION_LISTS[list];
  const options = (kind ? [kind] : TRANSACTION_TYPES).flatMap((k) => listValuesOf(list, k).map((value) => ({ value, parent: def.kindIsParent ? k : null })));
  const seen = new Set<string>();
  return options.filter((o) => !seen.has(`${o.parent}:${o.value}`) && seen.add(`${o.parent}:${o.value}`)).map((o) => ({ value: o.value, text: t(def.textKey(o.value)), parent: o.parent }));
}

/** The lists of the described fields a kind of transaction has (the form's `lists`). */
export const transactionListsOf = (kind: TTransactionType): TTransactionListName[] => transactionFieldsOf(kind).flatMap((d) => (d.list ? [d.list] : []));

/** A field's label: the form's label, the statement's and the file's column head. */
export const transactionLabelKey = (name: string) => `fields.transaction.${name}`;

/**
 * The statement's columns (on screen and in Transactions.xlsx), in order: described fields by name
 * (head from their label, cells by their type), and the ledger's own columns. The statement's
 * items are fixed by the spec, so a new field shows in the forms; it joins the statement only by
 * naming it here (and in the statement's query).
 */
export const STATEMENT_COLUMNS = [
  'transactionDate',
  'referenceNumber',
  'type',
  'categoryId',
  'paymentMethod',
  'status',
  'debit',
  'credit',
  'balance',
  'paymentDate',
  'expirationDate',
  'startDate',
  'endDate',
  'confirmedByClientDate',
] as const;
export type TStatementColumn = (typeof STATEMENT_COLUMNS)[number];
/** The ledger's own statement columns (not described fields): their heads are `payments.col.<column>`. */
export type TStatementLedgerColumn = Exclude<TStatementColumn, TTransactionFieldName>;
/** The text key of a statement column's head: a described field's label, or the ledger column's own text. */
export const statementHeadKey = (column: TStatementColumn) => (TRANSACTION_FIELD_BY_NAME.has(column) ? transactionLabelKey(column) : `payments.col.${column}`);
