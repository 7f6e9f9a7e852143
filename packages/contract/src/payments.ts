import { z } from 'zod';
import { MAX_ID, MAX_PAGE, ZAmountInput, ZDate, ZDateTimeInput, ZId, ZIdString, ZMoney, ZSelectOption, ZText } from './common.ts';
import { SHOW_ALL } from './constants.ts';
import { EXPENSE_STATUS_NOT_PAID, STATEMENT_DEFAULT_PAGE_SIZE, TRANSACTION_TYPES, type TTransactionType } from './payment-constants.ts';

/**
 * Payments: per-account income and expense transactions (the agency's ledger for the owners whose
 * properties it manages), the statement, attachments, and the client's approval of expenses.
 *
 * Money is exact: numeric(14,2) in PostgreSQL and a decimal text with two decimals in JSON
 * ("1234.50", "-80.00"); no float ever holds a sum. An income is a credit to the account, an
 * expense a debit; the balance is credits minus debits.
 */
export * from './payment-constants.ts';

// ---------- Payments list ----------

/** GET /api/transactions/accounts: accounts that keep payments; search by the start of any word of the name. */
export const ZPaymentAccountsQuery = z.object({
  searchStr: ZText(200).optional(),
  sortBy: z.enum(['transactionModifiedOn', 'name']).default('transactionModifiedOn'),
  sortDir: z.enum(['asc', 'desc']).default('desc'),
  perPage: z.coerce.number().int().min(1).max(SHOW_ALL).default(20),
  currentPage: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
});
export type TPaymentAccountsQuery = z.infer<typeof ZPaymentAccountsQuery>;

/** Payment list row: id (the account), name, transactionModifiedOn (last change of its transactions, else of the account). */
export const ZPaymentListRow = z.object({ id: z.number().int(), name: z.string(), transactionModifiedOn: z.string().nullable() });
export type TPaymentListRow = z.infer<typeof ZPaymentListRow>;
export const ZPaymentAccountsAnswer = z.object({ items: z.array(ZPaymentListRow), totalRows: z.number().int() });
export type TPaymentAccountsAnswer = z.infer<typeof ZPaymentAccountsAnswer>;

// ---------- Statement ----------

/**
 * The statement's filters (also the download's): type, payment method, category, unpaid only. An
 * empty value ("type=") means the filter is not set (readStatementFilter gives the typed form).
 */
export const ZStatementFilter = z.object({
  type: z.enum(['income', 'expense', '']).optional(),
  paymentMethod: z.union([z.literal(''), z.coerce.number().int().min(1).max(2)]).optional(),
  categoryId: z.union([z.literal(''), z.coerce.number().int().min(1).max(99)]).optional(),
  unpaidOnly: z.enum(['true', 'false', '1', '0', '']).optional(),
});
export type TStatementFilterQuery = z.infer<typeof ZStatementFilter>;
export type TStatementFilter = { type?: TTransactionType; paymentMethod?: number; categoryId?: number; unpaidOnly: boolean };
export function readStatementFilter(q: TStatementFilterQuery): TStatementFilter {
  return {
    type: q.type || undefined,
    paymentMethod: q.paymentMethod === '' || q.paymentMethod === undefined ? undefined : q.paymentMethod,
    categoryId: q.categoryId === '' || q.categoryId === undefined ? undefined : q.categoryId,
    unpaidOnly: q.unpaidOnly === 'true' || q.unpaidOnly === '1',
  };
}

/** GET /api/transactions?accountId=..: the statement of one account. */
export const ZStatementQuery = ZStatementFilter.extend({
  accountId: ZIdString,
  perPage: z.coerce.number().int().min(1).max(SHOW_ALL).default(STATEMENT_DEFAULT_PAGE_SIZE),
  currentPage: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
});
export type TStatementQuery = z.infer<typeof ZStatementQuery>;

/** GET /api/transactions/download/{accountId}: the same filters, every row. */
export const ZStatementDownloadParams = z.object({ accountId: ZIdString });

export const ZAttachmentLink = z.object({ id: z.number().int(), name: z.string() });
export type TAttachmentLink = z.infer<typeof ZAttachmentLink>;

export const ZStatementItem = z.object({
  id: z.number().int(),
  referenceNumber: z.string(),
  type: z.enum(TRANSACTION_TYPES),
  transactionDate: z.string(),
  isDebit: z.boolean(),
  debit: ZMoney.nullable(),
  credit: ZMoney.nullable(),
  /** The running balance after this row, over the rows the filter shows, oldest first. */
  balance: ZMoney,
  /** Expense status text (null for an income) and id (0 = not paid). */
  status: z.string().nullable(),
  statusId: z.number().int().nullable(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  confirmedByClientDate: z.string().nullable(),
  /** The expense was sent to the client for approval (not yet approved when confirmedByClientDate is null). */
  approvalRequestedOn: z.string().nullable(),
  expirationDate: z.string().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  paymentDate: z.string().nullable(),
  paymentMethod: z.enum(['Banking', 'Cash']),
  paymentMethodId: z.number().int(),
  attachments: z.array(ZAttachmentLink),
});
export type TStatementItem = z.infer<typeof ZStatementItem>;

export const ZStatementAnswer = z.object({
  id: z.number().int(),
  accountDisplayName: z.string(),
  accountEmail: z.string().nullable(),
  accountCreatedOn: z.string(),
  /** Over the rows the filter shows (all rows when no filter is set). */
  balance: ZMoney,
  totalDebit: ZMoney,
  totalCredit: ZMoney,
  items: z.array(ZStatementItem),
  totalRows: z.number().int(),
  /** Expenses of the account with status not paid (whatever the filter). */
  unpaidCount: z.number().int(),
  /** The caller may add and edit (admins); others read. */
  canEdit: z.boolean(),
  lists: z.object({ paymentMethod: z.array(ZSelectOption), categoryId: z.array(ZSelectOption), status: z.array(ZSelectOption) }),
});
export type TStatementAnswer = z.infer<typeof ZStatementAnswer>;

// ---------- Income and expense forms ----------

export const ZAttachment = z.object({ id: z.number().int(), name: z.string(), state: z.number().int().min(0).max(2) });
export type TAttachment = z.infer<typeof ZAttachment>;

export const ZTransactionFormQuery = z.object({ accountId: ZIdString });

const formUpdateFields = {
  id: z.number().int().nullable(),
  accountId: z.number().int(),
  version: z.number().int().nullable(),
  amount: z.string(),
  transactionDate: z.string(),
  paymentMethod: z.number().int(),
  categoryId: z.number().int().nullable(),
  internalNotes: z.string().nullable(),
};

/** GET /api/transactions/addIncome?accountId=, GET /api/transactions/editIncome/{id}. */
export const ZIncomeForm = z.object({
  displayFields: z.object({ accountDisplayName: z.string(), referenceNumber: z.string().nullable() }),
  updateFields: z.object(formUpdateFields),
  lists: z.object({ paymentMethod: z.array(ZSelectOption), categoryId: z.array(ZSelectOption) }),
  attachments: z.array(ZAttachment),
  canEdit: z.boolean(),
  confirmedByClientDate: z.string().nullable(),
});
export type TIncomeForm = z.infer<typeof ZIncomeForm>;

/** GET /api/transactions/addExpense?accountId=, GET /api/transactions/editExpense/{id}. */
export const ZExpenseForm = z.object({
  displayFields: z.object({ accountDisplayName: z.string(), referenceNumber: z.string().nullable() }),
  updateFields: z.object({
    ...formUpdateFields,
    status: z.number().int(),
    paymentDate: z.string().nullable(),
    expirationDate: z.string().nullable(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
  }),
  lists: z.object({ paymentMethod: z.array(ZSelectOption), categoryId: z.array(ZSelectOption), status: z.array(ZSelectOption) }),
  attachments: z.array(ZAttachment),
  canEdit: z.boolean(),
  confirmedByClientDate: z.string().nullable(),
  approvalRequestedOn: z.string().nullable(),
});
export type TExpenseForm = z.infer<typeof ZExpenseForm>;

const optionalDate = z.union([ZDate, z.literal('').transform(() => null)]).nullable().optional();
const intText = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * The form-data fields of POST /api/transactions/addIncome and editIncome (every value a text, as
 * form-data sends it), plus file parts named `files`. `attachments`: JSON of [{ id, state }] for the
 * existing attachments (state 0 removes one). Edit needs id and version; add needs accountId.
 */
export const ZIncomeFormData = z.object({
  id: intText(1, MAX_ID).optional(),
  accountId: intText(1, MAX_ID).optional(),
  version: intText(1, MAX_ID).optional(),
  amount: ZAmountInput,
  transactionDate: ZDateTimeInput,
  paymentMethod: intText(1, 2),
  categoryId: intText(1, 99),
  internalNotes: ZText(4000).optional().nullable(),
  attachments: z.string().max(20000).optional(),
});
export type TIncomeFormData = z.infer<typeof ZIncomeFormData>;

export const ZExpenseFormData = ZIncomeFormData.extend({
  status: intText(0, 9).default(EXPENSE_STATUS_NOT_PAID),
  paymentDate: optionalDate,
  expirationDate: optionalDate,
  startDate: optionalDate,
  endDate: optionalDate,
});
export type TExpenseFormData = z.infer<typeof ZExpenseFormData>;

/** The JSON of the `attachments` field: existing attachments and their state (0 Deleted, 1 Existing). */
export const ZAttachmentStates = z.array(z.object({ id: ZId, state: z.number().int().min(0).max(2) })).max(200);

/** The answer of a save: the transaction and its account. */
export const ZTransactionSaved = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  version: z.number().int(),
  /** The edit changed what the client had approved: the approval (and its link) is withdrawn. */
  approvalWithdrawn: z.boolean().optional(),
});
export type TTransactionSaved = z.infer<typeof ZTransactionSaved>;

export const ZTransactionIdParam = z.object({ id: ZIdString });

// ---------- Expense approval (by the client) ----------

/** GET /api/transactions/viewExpense/{id}, approveExpense, revertApprovalExpense: the expense for approval. */
export const ZExpenseForApproval = z.object({
  amount: ZMoney,
  categoryName: z.string().nullable(),
  transactionDate: z.string(),
  attachments: z.array(ZAttachmentLink),
  confirmedByClientDate: z.string().nullable(),
  canRevertApproval: z.boolean(),
});
export type TExpenseForApproval = z.infer<typeof ZExpenseForApproval>;
