import { z } from 'zod';
import { ZDateTime, ZIdString } from './common.ts';
import { ZMessage } from './auth.ts';
import { ZExpenseForApproval, ZTransactionIdParam } from './payments.ts';
import type { CallSchemas } from './call.ts';

/**
 * The client side of payments: invitations to the payments-only app and the client's approval of
 * expenses through a mailed link.
 */

/** GET /api/transactions/sendInvitation/{accountId}. */
export const ZAccountIdParam = z.object({ accountId: ZIdString });

/**
 * The approval link's secret: 43 URL-safe characters (256 random bits). The link is
 * /Payments/ApproveExpense/{id}?token=..., bound to that one expense.
 */
export const ZApprovalTokenQuery = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'paymentsClient.approval.linkInvalid') });
export type TApprovalTokenQuery = z.infer<typeof ZApprovalTokenQuery>;

/** How long a revert stays possible after the client's approval (and only while the expense is unpaid). */
export const APPROVAL_REVERT_HOURS = 48;
/** How long an approval link works after it was sent. */
export const APPROVAL_LINK_DAYS = 30;

/** GET /api/transactions/viewExpense/{id}/files/{fileId}?token=: a file of the expense the link opens. */
export const ZApprovalFileParams = z.object({ id: ZIdString, fileId: ZIdString });
/** The same, with the file's name as the address's last part (as /api/transactions/files/{id}/{name}). */
export const ZApprovalNamedFileParams = z.object({ id: ZIdString, fileId: ZIdString, name: z.string().min(1).max(300) });

/**
 * POST /api/transactions/statement/approveExpense/{id} (the account's client, signed in): the
 * approval request the statement showed (its approvalRequestedOn). A request the office has sent
 * again or cancelled since is not the one the client saw: refused (409), as a stale link is.
 */
export const ZStatementApproval = z.object({ requestedOn: ZDateTime });
export type TStatementApproval = z.infer<typeof ZStatementApproval>;

/**
 * The calls of the client side of payments and their schemas (decision 057); their methods and
 * paths: `payments-client.resource.ts`. A file of an expense is answered as itself.
 */
export const PAYMENT_CLIENT_API = {
  sendInvitation: { params: ZAccountIdParam, answer: ZMessage },
  sendForApproval: { params: ZTransactionIdParam, answer: ZMessage },
  viewExpense: { params: ZTransactionIdParam, query: ZApprovalTokenQuery, answer: ZExpenseForApproval },
  approveExpense: { params: ZTransactionIdParam, query: ZApprovalTokenQuery, answer: ZExpenseForApproval },
  approveOwnExpense: { params: ZTransactionIdParam, body: ZStatementApproval, answer: ZExpenseForApproval },
  revertOwnApproval: { params: ZTransactionIdParam, answer: ZExpenseForApproval },
  revertApproval: { params: ZTransactionIdParam, query: ZApprovalTokenQuery, answer: ZExpenseForApproval },
  file: { params: ZApprovalFileParams, query: ZApprovalTokenQuery },
  namedFile: { params: ZApprovalNamedFileParams, query: ZApprovalTokenQuery },
} satisfies Record<string, CallSchemas>;
