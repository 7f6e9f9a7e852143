import { queryOptions } from '@tanstack/react-query';
import type { TCulture } from '@crm/contract/constants';
import { PAYMENT_CLIENT, pathOf } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';

/** GET /api/transactions/viewExpense/{id}?token=: the expense the mailed link names (no sign-in). */
export const expenseForApprovalQuery = (id: number, token: string, culture: TCulture) =>
  queryOptions({
    // Per language: the page may switch to the mail's language once it has read the expense, and then
    // waits for the expense in that language instead of showing the first one's category meanwhile.
    queryKey: ['paymentsClient', 'approval', id, token, culture] as const,
    queryFn: ({ signal }) => call(PAYMENT_CLIENT.calls.viewExpense, { params: { id }, query: { token } }, { signal, handle401: true }),
    retry: false,
  });

/** POST /api/transactions/approveExpense/{id}?token=. */
export const approveExpense = (id: number, token: string) => call(PAYMENT_CLIENT.calls.approveExpense, { params: { id }, query: { token } }, { handle401: true });

/** POST /api/transactions/revertApprovalExpense/{id}?token=. */
export const revertApproval = (id: number, token: string) => call(PAYMENT_CLIENT.calls.revertApproval, { params: { id }, query: { token } }, { handle401: true });

/**
 * An attachment of that expense: a plain link (the token is its key; no bearer needed), the file's
 * name its last part, so the browser names the tab and the saved file after it.
 */
export const approvalFileUrl = (id: number, token: string, fileId: number, name: string) => `${pathOf(PAYMENT_CLIENT.calls.namedFile, { id, fileId, name })}?${new URLSearchParams({ token })}`;

/** POST /api/transactions/sendExpenseForApproval/{id}: mails the client the approval link. */
export const sendExpenseForApproval = (id: number) => call(PAYMENT_CLIENT.calls.sendForApproval, { params: { id } });

/**
 * POST /api/transactions/statement/approveExpense/{id}: the account's client approves, on its
 * statement, the approval request the statement showed (its approvalRequestedOn).
 */
export const approveOnStatement = (id: number, requestedOn: string) => call(PAYMENT_CLIENT.calls.approveOwnExpense, { params: { id }, body: { requestedOn } });

/** POST /api/transactions/statement/revertApprovalExpense/{id}: the client reverts its approval, while allowed. */
export const revertOnStatement = (id: number) => call(PAYMENT_CLIENT.calls.revertOwnApproval, { params: { id } });
