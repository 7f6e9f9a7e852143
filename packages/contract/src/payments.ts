import { z } from 'zod';
import { listAnswer, MAX_ID, queryPaging, sorting, ZAmountInput, ZDate, ZDateTimeInput, ZId, ZIdString, ZMoney, ZOk, ZSelectOption, ZText, optionLists } from './common.ts';
import type { CallSchemas } from './call.ts';
import { LANGUAGES, SHOW_ALL } from './constants.ts';
import { STATEMENT_DEFAULT_PAGE_SIZE, TRANSACTION_TYPES, type TTransactionType } from './payment-constants.ts';
import {
  TRANSACTION_LISTS,
  listValuesOf,
  transactionFieldsOf,
  transactionListsOf,
  type TTransactionFieldDescription,
  type TTransactionFieldOf,
  type TTransactionListName,
} from './transaction-fields.ts';

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
  ...sorting(['transactionModifiedOn', 'name'], 'transactionModifiedOn'),
  ...queryPaging(SHOW_ALL),
});
export type TPaymentAccountsQuery = z.infer<typeof ZPaymentAccountsQuery>;

/**
 * Who owes whom on an account (issue 45), from its paid balance: `owed` the agency holds money of the
 * account's (the owner is owed it), `owes` the account owes the agency, `settled` neither.
 */
export const BALANCE_STATES = ['owed', 'owes', 'settled'] as const;
export type TBalanceState = (typeof BALANCE_STATES)[number];
/** The state a paid balance ("1240.00", "-80.00", "0.00") says. */
export const balanceStateOf = (balance: string): TBalanceState => (/^-?0*(\.0*)?$/.test(balance) ? 'settled' : balance.startsWith('-') ? 'owes' : 'owed');

/**
 * Payment list row: id (the account), name, transactionModifiedOn (last change of its transactions,
 * else of the account); and (issue 45) the account's balance of what was paid (every income less the
 * paid expenses), who owes whom by it, and its unpaid expenses' sum (to pay, apart from the balance).
 */
export const ZPaymentListRow = z.object({
  id: z.number().int(),
  name: z.string(),
  transactionModifiedOn: z.string().nullable(),
  balance: ZMoney,
  balanceState: z.enum(BALANCE_STATES),
  toPay: ZMoney,
});
export type TPaymentListRow = z.infer<typeof ZPaymentListRow>;
export const ZPaymentAccountsAnswer = listAnswer(ZPaymentListRow);
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
  /** One of the account's properties: only the rows tied to it (issue 45). */
  objectId: z.union([z.literal(''), z.coerce.number().int().min(1).max(MAX_ID)]).optional(),
});
export type TStatementFilterQuery = z.infer<typeof ZStatementFilter>;
export type TStatementFilter = { type?: TTransactionType; paymentMethod?: number; categoryId?: number; unpaidOnly: boolean; objectId?: number };
export function readStatementFilter(q: TStatementFilterQuery): TStatementFilter {
  return {
    type: q.type || undefined,
    paymentMethod: q.paymentMethod === '' || q.paymentMethod === undefined ? undefined : q.paymentMethod,
    categoryId: q.categoryId === '' || q.categoryId === undefined ? undefined : q.categoryId,
    unpaidOnly: q.unpaidOnly === 'true' || q.unpaidOnly === '1',
    objectId: q.objectId === '' || q.objectId === undefined ? undefined : q.objectId,
  };
}

/** GET /api/transactions?accountId=..: the statement of one account. */
export const ZStatementQuery = ZStatementFilter.extend({
  accountId: ZIdString,
  ...queryPaging(SHOW_ALL, STATEMENT_DEFAULT_PAGE_SIZE),
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
  /**
   * The account's balance after this row: over all its rows oldest first, whatever the filter, of
   * what was paid (an unpaid expense leaves it as it was; issue 45).
   */
  balance: ZMoney,
  /** Expense status text (null for an income) and id (0 = not paid). */
  status: z.string().nullable(),
  statusId: z.number().int().nullable(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  /** The owner's property the row is tied to, and its reference number and title (issue 45). */
  objectId: z.number().int().nullable(),
  objectTitle: z.string().nullable(),
  confirmedByClientDate: z.string().nullable(),
  /** The expense was sent to the client for approval (not yet approved when confirmedByClientDate is null). */
  approvalRequestedOn: z.string().nullable(),
  /** The client's approval may still be reverted: approved, not paid, and within APPROVAL_REVERT_HOURS of the approval. */
  canRevertApproval: z.boolean(),
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
  /**
   * The account's balance of what was paid: every income less every paid expense, whatever the
   * filter (issue 45: an unpaid expense is apart, in toPay).
   */
  balance: ZMoney,
  /** Who owes whom by the balance. */
  balanceState: z.enum(BALANCE_STATES),
  /** The account's unpaid expenses' sum, whatever the filter ("to pay"). */
  toPay: ZMoney,
  /** With a filter set, the shown rows' sum (their credit less their debit); null without one. */
  shownSum: ZMoney.nullable(),
  /** Over the rows the filter shows (all rows when no filter is set). */
  totalDebit: ZMoney,
  totalCredit: ZMoney,
  items: z.array(ZStatementItem),
  totalRows: z.number().int(),
  /** Expenses of the account with status not paid (whatever the filter). */
  unpaidCount: z.number().int(),
  /** The properties the statement may be filtered by: the account's own, and any its rows are tied to. */
  objects: z.array(ZSelectOption),
  /** The caller may add and edit (admins); others read. */
  canEdit: z.boolean(),
  /**
   * The caller is the account's own payments client: it approves, on the statement, the expenses
   * sent to it for approval, and reverts an approval while that is allowed (as on the mailed link's page).
   */
  canApprove: z.boolean(),
  /** Every list of the described fields, both kinds' values (the filters). */
  lists: optionLists(...(Object.keys(TRANSACTION_LISTS) as TTransactionListName[])),
});
export type TStatementAnswer = z.infer<typeof ZStatementAnswer>;

// ---------- Income and expense forms ----------
//
// Made from the description (transaction-fields.ts): each described field of the kind is a
// property of the form's updateFields and of the save's form-data, and each of their lists is in the
// form's lists. The types follow the description too (the mapped types below), so a field added
// there is typed everywhere it is used.

export const ZAttachment = z.object({ id: z.number().int(), name: z.string(), state: z.number().int().min(0).max(2) });
export type TAttachment = z.infer<typeof ZAttachment>;

export const ZTransactionFormQuery = z.object({ accountId: ZIdString });

/**
 * A described field's value in a form's answer (updateFields): money as the stored decimal text
 * ("80.50"; "" on a blank form), the date-time as its 19 characters, a select's value (null on a
 * blank form unless the field has a default), texts and dates or null.
 */
type TFormValueSchema<D> = D extends { type: 'money' | 'date-time' }
  ? z.ZodString
  : D extends { type: 'select' }
    ? D extends { default: number }
      ? z.ZodNumber
      : z.ZodNullable<z.ZodNumber>
    : z.ZodNullable<z.ZodString>;

function formValueSchema(d: TTransactionFieldDescription): z.ZodType {
  switch (d.type) {
    case 'money':
    case 'date-time':
      return z.string();
    case 'select':
      return d.default === undefined ? z.number().int().nullable() : z.number().int();
    case 'date':
    case 'text':
    case 'textarea':
      return z.string().nullable();
  }
}

type TListOf<K extends TTransactionType> = TTransactionFieldOf<K> extends infer D ? (D extends { list: infer L extends string } ? L : never) : never;
type TFormValuesShape<K extends TTransactionType> = { [D in TTransactionFieldOf<K> as D['name']]: TFormValueSchema<D> };

/** The record's own properties of a form's updateFields (before the described fields). */
const formRecordFields = {
  id: z.number().int().nullable(),
  accountId: z.number().int(),
  version: z.number().int().nullable(),
};

function formSchema<K extends TTransactionType>(kind: K) {
  const values = Object.fromEntries(transactionFieldsOf(kind).map((d) => [d.name, formValueSchema(d)])) as unknown as TFormValuesShape<K>;
  return z.object({
    displayFields: z.object({ accountDisplayName: z.string(), referenceNumber: z.string().nullable() }),
    updateFields: z.object({ ...formRecordFields, ...values }),
    lists: optionLists(...(transactionListsOf(kind) as TListOf<K>[])),
    attachments: z.array(ZAttachment),
    canEdit: z.boolean(),
    confirmedByClientDate: z.string().nullable(),
    /** The account's own properties, the choices of objectId (and the one it holds, if no longer the account's). */
    objects: z.array(ZSelectOption),
  });
}

/** GET /api/transactions/addIncome?accountId=, GET /api/transactions/editIncome/{id}. */
export const ZIncomeForm = formSchema('income');
export type TIncomeForm = z.infer<typeof ZIncomeForm>;

/** GET /api/transactions/addExpense?accountId=, GET /api/transactions/editExpense/{id}. */
export const ZExpenseForm = formSchema('expense').extend({ approvalRequestedOn: z.string().nullable() });
export type TExpenseForm = z.infer<typeof ZExpenseForm>;

const intText = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
/** A select's value as form-data sends it (a text): one of the list's values. */
const choiceText = (values: readonly number[]) => z.coerce.number().int().refine((v) => values.includes(v), { message: 'validation.choice' });
/** An empty text of a field that is not required: not set. */
const emptyAsNull = z.literal('').transform(() => null);

/** What a described field's form-data text becomes once checked. */
type TFormDataValue<D> = D extends { type: 'select' }
  ? D extends { required: true } | { default: number }
    ? number
    : number | null | undefined
  : D extends { required: true }
    ? string
    : string | null | undefined;
type TFormDataShape<K extends TTransactionType> = { [D in TTransactionFieldOf<K> as D['name']]: z.ZodType<TFormDataValue<D>> };

/**
 * A described field as a save's form-data carries it (always a text): money through parseAmount,
 * the date-time's 19 characters, a select's value from the kind's list (validation.choice), a date,
 * a text within its length. A field that is not required may be left out or empty (null), or takes
 * its default.
 */
function formDataSchema(d: TTransactionFieldDescription, kind: TTransactionType): z.ZodType {
  let s: z.ZodType;
  switch (d.type) {
    case 'money':
      s = ZAmountInput;
      break;
    case 'date-time':
      s = ZDateTimeInput;
      break;
    case 'select':
      // A reference (the owner's property) is an id: the save checks that it is the account's.
      s = d.references ? intText(1, MAX_ID) : choiceText(listValuesOf(d.list!, kind));
      if (!d.required && d.default !== undefined) return s.default(d.default);
      break;
    case 'date':
      s = ZDate;
      break;
    case 'text':
      s = ZText(d.max ?? 200);
      break;
    case 'textarea':
      s = ZText(d.max ?? 20000);
      break;
  }
  if (d.required) return s;
  // A text that is not required keeps what was sent ("" too): the save trims it to null.
  return d.type === 'text' || d.type === 'textarea' ? s.optional().nullable() : z.union([s, emptyAsNull]).nullable().optional();
}

function formDataFields<K extends TTransactionType>(kind: K) {
  return Object.fromEntries(transactionFieldsOf(kind).map((d) => [d.name, formDataSchema(d, kind)])) as unknown as TFormDataShape<K>;
}

/** The record's own form-data fields: id and version (edit) or account (add), and `attachments`, JSON of [{ id, state }] for the existing attachments (state 0 removes one). */
const formDataRecordFields = {
  id: intText(1, MAX_ID).optional(),
  accountId: intText(1, MAX_ID).optional(),
  version: intText(1, MAX_ID).optional(),
  attachments: z.string().max(20000).optional(),
};
/**
 * The form-data fields of POST /api/transactions/addIncome|editIncome|addExpense|editExpense
 * (every value a text, as form-data sends it), plus file parts named `files`: the record's own
 * fields and the described fields of the kind.
 */
export const ZIncomeFormData = z.object({ ...formDataRecordFields, ...formDataFields('income') });
export type TIncomeFormData = z.infer<typeof ZIncomeFormData>;
export const ZExpenseFormData = z.object({ ...formDataRecordFields, ...formDataFields('expense') });
export type TExpenseFormData = z.infer<typeof ZExpenseFormData>;
/** The names a save's form-data may carry (other text parts are ignored). */
export const FORM_DATA_FIELD_NAMES: ReadonlySet<string> = new Set([...Object.keys(ZIncomeFormData.shape), ...Object.keys(ZExpenseFormData.shape)]);

/** The JSON of the `attachments` field: existing attachments and their state (0 Deleted, 1 Existing). */
export const ZAttachmentStates = z.array(z.object({ id: ZId, state: z.number().int().min(0).max(2) })).max(200);

/** The answer of a save: the transaction and its account. */
export const ZTransactionSaved = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  version: z.number().int(),
  /** The edit changed what the client had approved: the approval (and its link) is withdrawn. */
  approvalWithdrawn: z.boolean().optional(),
  /** The edit changed what the client was asked to approve and has not answered yet: that request (and its link) is cancelled. */
  approvalRequestCancelled: z.boolean().optional(),
});
export type TTransactionSaved = z.infer<typeof ZTransactionSaved>;

export const ZTransactionIdParam = z.object({ id: ZIdString });

/**
 * GET /api/transactions/files/{id}/{name}: an attachment, its file name the address's last part.
 * A browser names what it opens after that part (a PDF's tab and the name its viewer saves under, a
 * picture's "Save as"); the name itself is not read (the id says which file).
 */
export const ZAttachmentFileName = z.string().min(1).max(300);
export const ZTransactionFileParams = z.object({ id: ZIdString, name: ZAttachmentFileName });

// ---------- Expense approval (by the client) ----------

/** GET /api/transactions/viewExpense/{id}, approveExpense, revertApprovalExpense: the expense for approval. */
export const ZExpenseForApproval = z.object({
  amount: ZMoney,
  categoryName: z.string().nullable(),
  transactionDate: z.string(),
  attachments: z.array(ZAttachmentLink),
  confirmedByClientDate: z.string().nullable(),
  canRevertApproval: z.boolean(),
  /**
   * The language the approval mail was written in (the account's, as the app names it); null when
   * the account has none. The page speaks it to a visitor who has not chosen a language.
   */
  language: z.enum(LANGUAGES).nullable(),
});
export type TExpenseForApproval = z.infer<typeof ZExpenseForApproval>;

/**
 * The payments' calls and their schemas (decision 057); their methods and paths: `payments.resource.ts`.
 * An income or expense is saved as a multipart form (its fields and its attachments), read by the
 * server part by part; a statement's download and an attachment are answered as files.
 */
export const PAYMENT_API = {
  accounts: { query: ZPaymentAccountsQuery, answer: ZPaymentAccountsAnswer },
  statement: { query: ZStatementQuery, answer: ZStatementAnswer },
  download: { params: ZStatementDownloadParams, query: ZStatementFilter },
  file: { params: ZTransactionIdParam },
  namedFile: { params: ZTransactionFileParams },
  addIncome: { query: ZTransactionFormQuery, answer: ZIncomeForm },
  editIncome: { params: ZTransactionIdParam, answer: ZIncomeForm },
  createIncome: { answer: ZTransactionSaved },
  updateIncome: { answer: ZTransactionSaved },
  addExpense: { query: ZTransactionFormQuery, answer: ZExpenseForm },
  editExpense: { params: ZTransactionIdParam, answer: ZExpenseForm },
  createExpense: { answer: ZTransactionSaved },
  updateExpense: { answer: ZTransactionSaved },
  remove: { params: ZTransactionIdParam, answer: ZOk },
} satisfies Record<string, CallSchemas>;
