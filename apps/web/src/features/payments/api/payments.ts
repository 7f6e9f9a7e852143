import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { TExpenseForm, TIncomeForm, TPaymentAccountsAnswer, TStatementAnswer, TTransactionSaved, TTransactionType } from '@crm/contract';
import { STATEMENT_DEFAULT_PAGE_SIZE, STATEMENT_PAGE_SIZES, TRANSACTION_TYPES } from '@crm/contract/payment-constants';
import { api } from '../../../lib/api.ts';
import { fileAnchor, saveBlob } from '../../../lib/download.ts';
import { readSavedFilter, readSavedList, type ListState, type SavedFilter, type SavedList } from '../../../lib/list-state.ts';

/** The statement's filter, kept per account in the cookie "Statement.{accountId}" (spec 2.11). */
export type TStatementFilterState = { type: '' | TTransactionType; paymentMethod: '' | '1' | '2'; categoryId: string; unpaidOnly: boolean };
export const NO_STATEMENT_FILTER: TStatementFilterState = { type: '', paymentMethod: '', categoryId: '', unpaidOnly: false };
/** The filter as the query string of the statement and of its download. */
export const statementFilterQuery = (f: TStatementFilterState) => ({
  type: f.type || undefined,
  paymentMethod: f.paymentMethod || undefined,
  categoryId: f.categoryId || undefined,
  unpaidOnly: f.unpaidOnly ? 'true' : undefined,
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
      api<TPaymentAccountsAnswer>('/api/transactions/accounts', {
        query: { searchStr: searchStr.trim() || undefined, sortBy: q.sortBy, sortDir: q.sortDir, perPage: q.perPage, currentPage: q.currentPage },
        signal,
        background: true,
      }),
    placeholderData: keepPreviousData,
  });

export const statementQuery = (accountId: number, f: TStatementFilterState, q: { perPage: number; currentPage: number }) =>
  queryOptions({
    queryKey: [...paymentKeys.statements, accountId, f, q.perPage, q.currentPage],
    queryFn: ({ signal }) =>
      api<TStatementAnswer>('/api/transactions', { query: { accountId, ...statementFilterQuery(f), perPage: q.perPage, currentPage: q.currentPage }, signal, background: true }),
    placeholderData: keepPreviousData,
    meta: { handlesErrors: true },
  });

const formName = (type: TTransactionType) => (type === 'income' ? 'Income' : 'Expense');

/** The income or expense form: blank for an account (create), or the stored one (edit). */
export const transactionFormQuery = (type: TTransactionType, id: number | null, accountId: number | null) =>
  queryOptions({
    queryKey: paymentKeys.form(type, id, accountId),
    queryFn: ({ signal }) =>
      id != null
        ? api<TTransactionForm>(`/api/transactions/edit${formName(type)}/${id}`, { signal })
        : api<TTransactionForm>(`/api/transactions/add${formName(type)}`, { query: { accountId }, signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { handlesErrors: true },
  });

/** POST form-data to add{Income|Expense} or edit{Income|Expense}. */
export const saveTransaction = (type: TTransactionType, mode: 'add' | 'edit', body: FormData, changeKey?: string) =>
  api<TTransactionSaved>(`/api/transactions/${mode}${formName(type)}`, { body, changeKey });

export const deleteTransaction = (id: number) => api<unknown>(`/api/transactions/${id}`, { method: 'DELETE' });

export const sendInvitation = (accountId: number) => api<unknown>(`/api/transactions/sendInvitation/${accountId}`);

/** GET /api/transactions/download/{accountId} with the statement's filter: Transactions.xlsx. */
export async function downloadStatement(accountId: number, f: TStatementFilterState) {
  const blob = await api<Blob>(`/api/transactions/download/${accountId}`, { query: statementFilterQuery(f), blob: true });
  saveBlob(blob, 'Transactions.xlsx');
}

/**
 * An attachment's address: /api/transactions/files/{id}/{name}. A plain link opens it with the
 * session's file cookie (decision 012), so the browser gets the file itself, not a copy under a
 * random blob: address: the PDF's tab, its viewer's Save and a picture's "Save as" take the file's
 * own name from the address's last part (and from the answer's Content-Disposition).
 */
export const attachmentUrl = (id: number, name: string) => `/api/transactions/files/${id}/${encodeURIComponent(name)}`;

/** Pictures and PDFs the browser shows itself: opened in a new tab; other files are saved. */
export const opensInBrowser = (name: string) => /\.(jpe?g|png|gif|webp|pdf)$/i.test(name);

/** The attributes of an attachment's link: a new tab for what the browser shows, a download under its name for the rest. */
export const attachmentLink = (a: { id: number; name: string }) => fileAnchor(attachmentUrl(a.id, a.name), a.name, opensInBrowser(a.name));

/** The list's cookies, read by its screen and by its route's loader (which asks for the first page while the screen's code loads). */
export const PAYMENT_LIST: SavedList = { list: 'PaymentList', defaults: { sortBy: 'transactionModifiedOn', sortDir: 'desc' } };
export const PAYMENT_SEARCH: SavedFilter<string> = { cookie: 'PaymentList.search', initial: '' };
export const paymentsFirstPage = () => paymentAccountsQuery(readSavedFilter(PAYMENT_SEARCH), readSavedList(PAYMENT_LIST));

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
