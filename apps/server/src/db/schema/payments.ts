import { date, index, integer, numeric, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './platform.ts';
import { accounts } from './records.ts';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Payment transactions of an account: income (a credit to the account) and expenses (a debit).
 * Amounts are exact (numeric(14,2), read as text). Hand SQL in the migration adds the checks
 * (type, amount > 0, status only on expenses) and the partial index of unpaid expenses.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: serial('id').primaryKey(),
    /** The number staff quote ("4711"): from its own sequence. */
    referenceNumber: serial('reference_number').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 'income' | 'expense' */
    type: text('type').notNull(),
    amount: numeric('amount', { precision: 14, scale: 2, mode: 'string' }).notNull(),
    /** The date and time of the transaction (the form's date and time inputs). */
    transactionDate: tsz('transaction_date').notNull(),
    /** 1 Banking, 2 Cash */
    paymentMethod: smallint('payment_method').notNull().default(1),
    /** INCOME_CATEGORIES / EXPENSE_CATEGORIES of the contract. */
    categoryId: smallint('category_id'),
    internalNotes: text('internal_notes'),
    /** Expenses only: 0 not paid, 1 paid, 2 paid by the owner. */
    status: smallint('status'),
    paymentDate: date('payment_date', { mode: 'string' }),
    /** When the expense falls due. */
    expirationDate: date('expiration_date', { mode: 'string' }),
    /** The billing period the expense covers. */
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    /** Client approval of an expense: when it was asked for, the link's token (hashed), when approved. */
    approvalRequestedOn: tsz('approval_requested_on'),
    approvalTokenHash: text('approval_token_hash'),
    confirmedByClientDate: tsz('confirmed_by_client_date'),
    createdOn: tsz('created_on').notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    modifiedOn: tsz('modified_on').notNull().defaultNow(),
    modifiedBy: integer('modified_by').references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    // The statement: an account's rows by date (the running balance's window walks it).
    index('transactions_account_date_idx').on(t.accountId, t.transactionDate, t.id),
    uniqueIndex('transactions_reference_number_uq').on(t.referenceNumber),
    uniqueIndex('transactions_approval_token_uq').on(t.approvalTokenHash),
  ],
);

/** Files attached to a transaction (receipts, invoices, bank slips); stored through the file storage. */
export const transactionAttachments = pgTable(
  'transaction_attachments',
  {
    id: serial('id').primaryKey(),
    transactionId: integer('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    systemName: text('system_name').notNull(),
    userName: text('user_name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    createdOn: tsz('created_on').notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
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
  },
  (t) => [index('payment_accounts_modified_idx').on(t.transactionsModifiedOn, t.accountId)],
);
