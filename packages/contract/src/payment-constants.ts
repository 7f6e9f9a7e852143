// The payments' constants without zod: the web imports them as '@crm/contract/payment-constants'.
import { LIST_PAGE_SIZES, SHOW_ALL } from './constants.ts';

export const TRANSACTION_TYPES = ['income', 'expense'] as const;
export type TTransactionType = (typeof TRANSACTION_TYPES)[number];

/** Payment methods: 1 Banking (bank transfer, card), 2 Cash. The statement names them Banking / Cash. */
export const PAYMENT_METHODS = [1, 2] as const;
export const PAYMENT_METHOD_NAMES: Record<number, 'Banking' | 'Cash'> = { 1: 'Banking', 2: 'Cash' };

/** Income categories (ids 1..19) and expense categories (ids 21..39); texts `payments.category.{id}`. */
export const INCOME_CATEGORIES = [1, 2, 3, 4, 5, 6, 9] as const;
export const EXPENSE_CATEGORIES = [21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 39] as const;
export const categoriesOf = (type: TTransactionType): readonly number[] => (type === 'income' ? INCOME_CATEGORIES : EXPENSE_CATEGORIES);

/** Expense statuses: 0 not paid, 1 paid, 2 paid by the owner directly; texts `payments.status.{id}`. */
export const EXPENSE_STATUSES = [0, 1, 2] as const;
export const EXPENSE_STATUS_NOT_PAID = 0;
export const EXPENSE_STATUS_PAID = 1;

/** Attachment state in the forms: 0 Deleted, 1 Existing, 2 Added. */
export const AttachmentState = { Deleted: 0, Existing: 1, Added: 2 } as const;

/** Statement page sizes; it starts at 25 rows. */
export const STATEMENT_PAGE_SIZES = [25, 50, 100, SHOW_ALL] as const;
export const STATEMENT_DEFAULT_PAGE_SIZE = 25;
/** Payments list page sizes: the spec's for lists it names no others for (5, 10, 20, 50, Show all; default 20). */
export const PAYMENT_LIST_PAGE_SIZES = LIST_PAGE_SIZES;

