import { calls } from './call.ts';
import type { PAYMENT_CLIENT_API } from './payments-client.ts';

/**
 * The client's side of payments: invitations to the payments-only app, an expense sent for the
 * client's approval, the approval by the mailed link's token (no sign-in) or on the statement
 * (signed in), and the expense's files by the link (decision 057).
 */
export const PAYMENT_CLIENT = {
  calls: calls<typeof PAYMENT_CLIENT_API>({
    sendInvitation: 'GET /api/transactions/sendInvitation/:accountId',
    sendForApproval: 'POST /api/transactions/sendExpenseForApproval/:id',
    viewExpense: 'GET /api/transactions/viewExpense/:id',
    approveExpense: 'POST /api/transactions/approveExpense/:id',
    approveOwnExpense: 'POST /api/transactions/statement/approveExpense/:id',
    revertOwnApproval: 'POST /api/transactions/statement/revertApprovalExpense/:id',
    revertApproval: 'POST /api/transactions/revertApprovalExpense/:id',
    file: 'GET /api/transactions/viewExpense/:id/files/:fileId',
    namedFile: 'GET /api/transactions/viewExpense/:id/files/:fileId/:name',
  }),
  screens: {
    approveExpense: '/Payments/ApproveExpense/:id',
  },
} as const;
