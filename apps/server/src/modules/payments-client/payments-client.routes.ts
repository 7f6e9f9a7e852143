import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAccountIdParam, ZApprovalFileParams, ZApprovalNamedFileParams, ZApprovalTokenQuery, ZExpenseForApproval, ZMessage, ZStatementApproval, ZTransactionIdParam } from '@crm/contract';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { sendStoredFile } from '../files/files.service.ts';
import { approvalAttachment, approveExpense, approveOwnExpense, revertApproval, revertOwnApproval, sendForApproval, viewExpense } from './approvals.ts';
import { PAYMENTS_CLIENT } from '../payments/payments.access.ts';
import { ensureClientSignIn, findPaymentsAccountByEmail, sendInvitation } from './invitations.ts';

/**
 * The client side of payments: invitations (a clientPayments sign-in with a set-password mail) and
 * the client's approval of expenses by a mailed link. Registered after accounts: Set password also
 * creates a payments client's sign-in.
 */
export const paymentsClientRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const tags = ['payments'];

    // Set password for an e-mail nobody signs in with yet: an employee account's (accounts), else a
    // payments account's, which gets a clientPayments sign-in.
    const employeeAccount = root.findSignInAccount;
    const employeeSignIn = root.provisionSignIn;
    root.findSignInAccount = async (db, email) => {
      const found = await employeeAccount?.(db, email);
      if (found) return found;
      const a = await findPaymentsAccountByEmail(db, email);
      return a ? { id: a.id, displayName: a.displayName, role: 'clientPayments' as const, branchId: null } : undefined;
    };
    root.provisionSignIn = async (tx, email, actor) => {
      const made = await employeeSignIn?.(tx, email, actor);
      if (made) return made;
      const a = await findPaymentsAccountByEmail(tx, email);
      if (!a) return undefined;
      return ensureClientSignIn(tx, a.id, actor, email);
    };

    app.get(
      '/api/transactions/sendInvitation/:accountId',
      { config: { access: OFFICE_ADMIN }, schema: { tags, params: ZAccountIdParam, response: { 200: ZMessage } } },
      async (req) => {
        const email = await sendInvitation(app, req.params.accountId, req.actor, req.culture);
        return { message: app.translator.t(req.culture, 'paymentsClient.invite.sent', { email }) };
      },
    );

    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);

    app.post(
      '/api/transactions/sendExpenseForApproval/:id',
      { config: { access: OFFICE_ADMIN }, schema: { tags, params: ZTransactionIdParam, response: { 200: ZMessage } } },
      async (req) => {
        const email = await sendForApproval(app, req.user!, req.actor, req.params.id);
        return { message: app.translator.t(req.culture, 'paymentsClient.approval.sent', { email }) };
      },
    );

    // The client's approval page: no sign-in; the link's token opens that one expense.
    app.get(
      '/api/transactions/viewExpense/:id',
      { config: { access: 'public' }, schema: { tags, params: ZTransactionIdParam, querystring: ZApprovalTokenQuery, response: { 200: ZExpenseForApproval } } },
      async (req) => viewExpense(app, req.params.id, req.query.token, tr(req)),
    );
    app.post(
      '/api/transactions/approveExpense/:id',
      { config: { access: 'public' }, schema: { tags, params: ZTransactionIdParam, querystring: ZApprovalTokenQuery, response: { 200: ZExpenseForApproval } } },
      async (req) => approveExpense(app, req, req.params.id, req.query.token, tr(req)),
    );
    // The same, on the statement: the account's own client, signed in (the sign-in is the key).
    app.post(
      '/api/transactions/statement/approveExpense/:id',
      { config: { access: PAYMENTS_CLIENT }, schema: { tags, params: ZTransactionIdParam, body: ZStatementApproval, response: { 200: ZExpenseForApproval } } },
      async (req) => approveOwnExpense(app, req, req.params.id, req.body.requestedOn, tr(req)),
    );
    app.post(
      '/api/transactions/statement/revertApprovalExpense/:id',
      { config: { access: PAYMENTS_CLIENT }, schema: { tags, params: ZTransactionIdParam, response: { 200: ZExpenseForApproval } } },
      async (req) => revertOwnApproval(app, req, req.params.id, tr(req)),
    );
    app.post(
      '/api/transactions/revertApprovalExpense/:id',
      { config: { access: 'public' }, schema: { tags, params: ZTransactionIdParam, querystring: ZApprovalTokenQuery, response: { 200: ZExpenseForApproval } } },
      async (req) => revertApproval(app, req, req.params.id, req.query.token, tr(req)),
    );
    // A file of that expense: by its id, or by its id with its file name as the address's last part
    // (what the page links to, so that the browser names the tab and the saved file after it).
    const sendApprovalFile = async (reply: FastifyReply, id: number, token: string, fileId: number) => {
      const file = await approvalAttachment(app, id, token, fileId);
      const stream = await getFileStorage(app.config.dataDir).get(file.systemName);
      if (!stream) throw notFound('payments.attachmentNotFound');
      return sendStoredFile(reply, file, stream, 'private, no-store', { 'Referrer-Policy': 'no-referrer' });
    };
    app.get(
      '/api/transactions/viewExpense/:id/files/:fileId',
      { config: { access: 'public' }, schema: { tags, params: ZApprovalFileParams, querystring: ZApprovalTokenQuery } },
      async (req, reply) => sendApprovalFile(reply, req.params.id, req.query.token, req.params.fileId),
    );
    app.get(
      '/api/transactions/viewExpense/:id/files/:fileId/:name',
      { config: { access: 'public' }, schema: { tags, params: ZApprovalNamedFileParams, querystring: ZApprovalTokenQuery } },
      async (req, reply) => sendApprovalFile(reply, req.params.id, req.query.token, req.params.fileId),
    );
  },
  { name: 'payments-client', dependencies: ['accounts'] },
);
