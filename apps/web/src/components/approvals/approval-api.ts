import { queryOptions } from '@tanstack/react-query';
import type { TExpenseForApproval } from '@crm/contract';
import type { TCulture } from '@crm/contract/constants';
import { api } from '../../lib/api.ts';

/** GET /api/transactions/viewExpense/{id}?token=: the expense the mailed link names (no sign-in). */
export const expenseForApprovalQuery = (id: number, token: string, culture: TCulture) =>
  queryOptions({
    // Per language: the page may switch to the mail's language once it has read the expense, and then
    // waits for the expense in that language instead of showing the first one's category meanwhile.
    queryKey: ['paymentsClient', 'approval', id, token, culture] as const,
    queryFn: ({ signal }) => api<TExpenseForApproval>(`/api/transactions/viewExpense/${id}`, { query: { token }, signal, handle401: true }),
    retry: false,
  });

/** POST /api/transactions/approveExpense/{id}?token=. */
export const approveExpense = (id: number, token: string) =>
  api<TExpenseForApproval>(`/api/transactions/approveExpense/${id}`, { method: 'POST', query: { token }, handle401: true });

/** POST /api/transactions/revertApprovalExpense/{id}?token=. */
export const revertApproval = (id: number, token: string) =>
  api<TExpenseForApproval>(`/api/transactions/revertApprovalExpense/${id}`, { method: 'POST', query: { token }, handle401: true });

/**
 * An attachment of that expense: a plain link (the token is its key; no bearer needed), the file's
 * name its last part, so the browser names the tab and the saved file after it.
 */
export const approvalFileUrl = (id: number, token: string, fileId: number, name: string) =>
  `/api/transactions/viewExpense/${id}/files/${fileId}/${encodeURIComponent(name)}?token=${encodeURIComponent(token)}`;

/** POST /api/transactions/sendExpenseForApproval/{id}: mails the client the approval link. */
export const sendExpenseForApproval = (id: number) => api<{ message: string }>(`/api/transactions/sendExpenseForApproval/${id}`, { method: 'POST' });

/**
 * POST /api/transactions/statement/approveExpense/{id}: the account's client approves, on its
 * statement, the approval request the statement showed (its approvalRequestedOn).
 */
export const approveOnStatement = (id: number, requestedOn: string) =>
  api<TExpenseForApproval>(`/api/transactions/statement/approveExpense/${id}`, { body: { requestedOn } });

/** POST /api/transactions/statement/revertApprovalExpense/{id}: the client reverts its approval, while allowed. */
export const revertOnStatement = (id: number) => api<TExpenseForApproval>(`/api/transactions/statement/revertApprovalExpense/${id}`, { method: 'POST' });
