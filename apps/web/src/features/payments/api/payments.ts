import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TExpenseForm, TIncomeForm, TTransactionType } from '@crm/contract';
import { PAYMENT_LIST_PAGE_SIZES, STATEMENT_DEFAULT_PAGE_SIZE, STATEMENT_PAGE_SIZES, TRANSACTION_TYPES } from '@crm/contract/payment-constants';
import { PAYMENT, PAYMENT_CLIENT, pathOf, sortKey } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { fileAnchor, saveBlob } from '../../../lib/download.ts';
import { readSavedFilter, readSavedList, type ListState, type SavedFilter, type SavedList } from '../../../lib/list-state.ts';
import { listSource } from '../../../kit/list-source.ts';

/** The statement's filter, kept per account in the cookie "Statement.{accountId}" (spec 2.11). */
export type TStatementFilterState = { type: '' | TTransactionType; paymentMethod: '' | '1' | '2'; categoryId: string; unpaidOnly: boolean; objectId: string };
export const NO_STATEMENT_FILTER: TStatementFilterState = { type: '', paymentMethod: '', categoryId: '', unpaidOnly: false, objectId: '' };
/** The filter as the query string of the statement and of its download. */
export const statementFilterQuery = (f: TStatementFilterState) => ({
  type: f.type || undefined,
  paymentMethod: f.paymentMethod || undefined,
  categoryId: f.categoryId || undefined,
  unpaidOnly: f.unpaidOnly ? ('true' as const) : undefined,
  objectId: f.objectId || undefined,
});

export type TTransactionForm = TIncomeForm | TExpenseForm;

export const paymentKeys = {
  all: ['payments'] as const,
  accounts: ['payments', 'accounts'] as const,
  statements: ['payments', 'statement'] as const,
  form: (type: TTransactionType, id: number | null, accountId: number | null) => ['payments', 'form', type, id, accountId] as const,
};

export const paymentAccountsQuery = (searchStr: string, q: ListState) =>
  queryOptions({
    queryKey: [...paymentKeys.accounts, searchStr, q],
    queryFn: ({ signal }) =>
      call(
        PAYMENT.calls.accounts,
        { query: { searchStr: searchStr.trim() || undefined, sortBy: sortKey(['transactionModifiedOn', 'name'], q.sortBy), sortDir: q.sortDir, perPage: q.perPage, currentPage: q.currentPage } },
        { signal, background: true },
      ),
    placeholderData: keepPreviousData,
  });

export const statementQuery = (accountId: number, f: TStatementFilterState, q: { perPage: number; currentPage: number }) =>
  queryOptions({
    queryKey: [...paymentKeys.statements, accountId, f, q.perPage, q.currentPage],
    queryFn: ({ signal }) => call(PAYMENT.calls.statement, { query: { accountId, ...statementFilterQuery(f), perPage: q.perPage, currentPage: q.currentPage } }, { signal, background: true }),
    placeholderData: keepPreviousData,
    meta: { handlesErrors: true },
  });

/** The income or expense form: blank for an account (create), or the stored one (edit). */
export const transactionFormQuery = (type: TTransactionType, id: number | null, accountId: number | null) =>
  queryOptions({
    queryKey: paymentKeys.form(type, id, accountId),
    queryFn: ({ signal }): Promise<TTransactionForm> =>
      id != null
        ? call(type === 'income' ? PAYMENT.calls.editIncome : PAYMENT.calls.editExpense, { params: { id } }, { signal })
        : call(type === 'income' ? PAYMENT.calls.addIncome : PAYMENT.calls.addExpense, { query: { accountId: accountId ?? undefined } }, { signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { handlesErrors: true },
  });

/** POST form-data to add{Income|Expense} or edit{Income|Expense}. */
export const saveTransaction = (type: TTransactionType, mode: 'add' | 'edit', form: FormData, changeKey?: string) => {
  const c = PAYMENT.calls;
  return call(type === 'income' ? (mode === 'add' ? c.createIncome : c.updateIncome) : mode === 'add' ? c.createExpense : c.updateExpense, {}, { form, changeKey });
};

export const deleteTransaction = (id: number) => call(PAYMENT.calls.remove, { params: { id } });

export const sendInvitation = (accountId: number) => call(PAYMENT_CLIENT.calls.sendInvitation, { params: { accountId } });

/** GET /api/transactions/download/{accountId} with the statement's filter: Transactions.xlsx. */
export async function downloadStatement(accountId: number, f: TStatementFilterState) {
  const blob = await call(PAYMENT.calls.download, { params: { accountId }, query: statementFilterQuery(f) }, { blob: true });
  saveBlob(blob, 'Transactions.xlsx');
}

/**
 * An attachment's address: /api/transactions/files/{id}/{name}. A plain link opens it with the
 * session's file cookie (decision 012), so the browser gets the file itself, not a copy under a
 * random blob: address: the PDF's tab, its viewer's Save and a picture's "Save as" take the file's
 * own name from the address's last part (and from the answer's Content-Disposition).
 */
export const attachmentUrl = (id: number, name: string) => pathOf(PAYMENT.calls.namedFile, { id, name });

/** Pictures and PDFs the browser shows itself: opened in a new tab; other files are saved. */
export const opensInBrowser = (name: string) => /\.(jpe?g|png|gif|webp|pdf)$/i.test(name);

/** The attributes of an attachment's link: a new tab for what the browser shows, a download under its name for the rest. */
export const attachmentLink = (a: { id: number; name: string }) => fileAnchor(attachmentUrl(a.id, a.name), a.name, opensInBrowser(a.name));

export const PAYMENT_LIST: SavedList = { list: 'PaymentList', defaults: { sortBy: 'transactionModifiedOn', sortDir: 'desc' } };
export const PAYMENT_SEARCH: SavedFilter<string> = { cookie: 'PaymentList.search', initial: '' };
/** The payments list: its page's cookie, its search box and its call (the search kept as its text alone, held by the screen), for its screen and its route's loader. */
export const PAYMENTS = listSource({
  list: PAYMENT.list,
  saved: { list: PAYMENT_LIST },
  debounced: ['searchStr'],
  pageSizes: PAYMENT_LIST_PAGE_SIZES,
  query: (f: { searchStr: string }, page) => paymentAccountsQuery(f.searchStr, page),
  first: () => paymentAccountsQuery(readSavedFilter(PAYMENT_SEARCH), readSavedList(PAYMENT_LIST)),
});

/** The statement's filter and page size, kept per account: read by its screen and by its route's loader (the first page). */
export type TStatementSaved = TStatementFilterState & { perPage: number };
/** Kept per account (spec), for the 30 accounts whose statement filter changed last (see CookieFamily). */
const STATEMENT_COOKIES = { index: 'Statement.recent', keep: 30, prefix: 'Statement.' };
const STATEMENT_START: TStatementSaved = { ...NO_STATEMENT_FILTER, perPage: STATEMENT_DEFAULT_PAGE_SIZE };
/** A kept statement filter made usable: a value no screen writes is its default (the server refused it, and the screen showed only the error). */
export function usableStatementFilter(kept: TStatementSaved): TStatementSaved {
  const pick = <T,>(v: unknown, allowed: readonly T[], otherwise: T): T => (allowed.includes(v as T) ? (v as T) : otherwise);
  return {
    type: pick(kept.type, ['', ...TRANSACTION_TYPES], ''),
    paymentMethod: pick(kept.paymentMethod, ['', '1', '2'] as const, ''),
    categoryId: typeof kept.categoryId === 'string' && /^[1-9]\d?$/.test(kept.categoryId) ? kept.categoryId : '',
    unpaidOnly: kept.unpaidOnly === true,
    // One of the owner's properties (kept from before this filter existed: none).
    objectId: typeof kept.objectId === 'string' && /^[1-9]\d{0,8}$/.test(kept.objectId) ? kept.objectId : '',
    perPage: pick(kept.perPage, STATEMENT_PAGE_SIZES as readonly number[], STATEMENT_DEFAULT_PAGE_SIZE),
  };
}
const statementSavedOf = new Map<number, SavedFilter<TStatementSaved>>();
export const statementSaved = (accountId: number): SavedFilter<TStatementSaved> => {
  let c = statementSavedOf.get(accountId);
  if (!c) statementSavedOf.set(accountId, (c = { cookie: `Statement.${accountId}`, initial: STATEMENT_START, family: STATEMENT_COOKIES, read: usableStatementFilter }));
  return c;
};
export const statementFirstPage = (accountId: number) => {
  const { perPage, ...filter } = readSavedFilter(statementSaved(accountId));
  return statementQuery(accountId, filter, { perPage, currentPage: 1 });
};
