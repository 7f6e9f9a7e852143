import { boolean, date, index, integer, numeric, pgTable, serial, smallint, text, uniqueIndex, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { sql, type HasDefault, type NotNull } from 'drizzle-orm';
import { TRANSACTION_FIELDS, TRANSACTION_TYPES, type TTransactionField, type TTransactionFieldDescription, type TTransactionFieldType, type TTransactionType } from '@crm/contract';
import { accounts } from './records.ts';
import { columnName } from './objects.ts';
import { createStamps, versionedStamps } from './columns.ts';
import { partOf, tsz } from './column-types.ts';

/** The column of each type a transaction's described field may have. */
const COLUMN_OF_TYPE = {
  /** Exact: read as text ("80.50"), never as a JS number. */
  money: (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'string' }),
  /** A moment; the forms show and take the agency's local time. */
  'date-time': (name: string) => tsz(name),
  select: (name: string) => smallint(name),
  date: (name: string) => date(name, { mode: 'string' }),
  text: (name: string) => text(name),
  textarea: (name: string) => text(name),
} satisfies Record<TTransactionFieldType, (name: string) => PgColumnBuilderBase>;

/** Every kind of transaction has the field, and the form requires it: the column is NOT NULL (unless described otherwise). */
export const isNotNullColumn = (d: TTransactionFieldDescription) => !!d.required && !d.nullableColumn && TRANSACTION_TYPES.every((k) => d.kinds.includes(k));
/** Every kind of transaction has the field, with a default: the column has it as its default. */
export const columnDefaultOf = (d: TTransactionFieldDescription) => (d.default !== undefined && TRANSACTION_TYPES.every((k) => d.kinds.includes(k)) ? d.default : undefined);

type TEveryKind<D extends TTransactionField> = TTransactionType extends D['kinds'][number] ? true : false;
type TWithNotNull<D extends TTransactionField, C extends PgColumnBuilderBase> = D extends { required: true } ? (D extends { nullableColumn: true } ? C : TEveryKind<D> extends true ? NotNull<C> : C) : C;
type TWithDefault<D extends TTransactionField, C extends PgColumnBuilderBase> = D extends { default: number } ? (TEveryKind<D> extends true ? HasDefault<C> : C) : C;
type TDescribedColumns = { [D in TTransactionField as D['name']]: TWithDefault<D, TWithNotNull<D, ReturnType<(typeof COLUMN_OF_TYPE)[D['type']]>>> };

/** The described fields' columns (snake_case names), typed from the description. */
function describedColumns(): TDescribedColumns {
  const columns: Record<string, PgColumnBuilderBase> = {};
  for (const d of TRANSACTION_FIELDS as readonly TTransactionFieldDescription[]) {
    // A reference (a record's id) is an integer column; its foreign key is in the migration (0073).
    let c = (d.references ? integer(columnName(d.name)) : COLUMN_OF_TYPE[d.type](columnName(d.name))) as PgColumnBuilderBase & { notNull(): PgColumnBuilderBase; default(v: unknown): PgColumnBuilderBase };
    if (isNotNullColumn(d)) c = c.notNull() as typeof c;
    const def = columnDefaultOf(d);
    if (def !== undefined) c = c.default(def) as typeof c;
    columns[d.name] = c;
  }
  return columns as unknown as TDescribedColumns;
}

/**
 * Payment transactions of an account: income (a credit to the account) and expenses (a debit).
 * The columns of what a person enters are made from the description (TRANSACTION_FIELDS);
 * amounts are exact (numeric(14,2), read as text). Hand SQL in the migration adds the checks
 * (type, amount > 0, status only on expenses) and the partial index of unpaid expenses.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: serial('id').primaryKey(),
    /** The number staff quote ("4711"): from its own sequence. */
    referenceNumber: serial('reference_number').notNull(),
    accountId: partOf('account_id', () => accounts.id),
    /** 'income' | 'expense' */
    type: text('type').notNull(),
    /**
     * What a person enters (TRANSACTION_FIELDS): amount, date, payment method, category, notes;
     * for expenses also the status, payment and due dates and the billing period.
     */
    ...describedColumns(),
    /** Client approval of an expense: when it was asked for, the link's token (hashed), when approved. */
    approvalRequestedOn: tsz('approval_requested_on'),
    approvalTokenHash: text('approval_token_hash'),
    confirmedByClientDate: tsz('confirmed_by_client_date'),
    /**
     * The account's balance after this row, in the statement's order (date, then id): kept by the
     * database's triggers (0114, decision 112) whenever the account's rows change; never written here.
     */
    balance: numeric('balance'),
    ...versionedStamps(),
  },
  (t) => [
    // The statement: an account's rows by date (the running balance's window walks it).
    index('transactions_account_date_idx').on(t.accountId, t.transactionDate, t.id),
    // The payments list's balances (issue 45): INCLUDE (type, status, amount) in SQL (0073), an account's rows summed from the index alone.
    index('transactions_account_sums_idx').on(t.accountId),
    // The statement filtered by a property (0073).
    index('transactions_account_object_idx').on(t.accountId, t.objectId).where(sql`${t.objectId} is not null`),
    uniqueIndex('transactions_reference_number_uq').on(t.referenceNumber),
    uniqueIndex('transactions_approval_token_uq').on(t.approvalTokenHash),
  ],
);

/** Files attached to a transaction (receipts, invoices, bank slips); stored through the file storage. */
export const transactionAttachments = pgTable(
  'transaction_attachments',
  {
    id: serial('id').primaryKey(),
    transactionId: partOf('transaction_id', () => transactions.id),
    systemName: text('system_name').notNull(),
    userName: text('user_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    ...createStamps(),
  },
  (t) => [index('transaction_attachments_transaction_idx').on(t.transactionId, t.id), uniqueIndex('transaction_attachments_system_name_uq').on(t.systemName)],
);

/**
 * One row per account with transactions: when its transactions last changed (the payments list's
 * "Modified on" and its order), kept by the payments module in the same transaction as the change.
 */
export const paymentAccounts = pgTable(
  'payment_accounts',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    transactionsModifiedOn: tsz('transactions_modified_on').notNull().default(sql`now()`),
    /** The account keeps payments (accounts.has_transactions, mirrored by a trigger): in the list. */
    listed: boolean('listed').notNull().default(true),
  },
  (t) => [index('payment_accounts_listed_idx').on(t.transactionsModifiedOn, t.accountId).where(sql`${t.listed}`)],
);
