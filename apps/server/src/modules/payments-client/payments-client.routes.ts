import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PAYMENT_CLIENT_API } from '@crm/contract';
import { PAYMENT_CLIENT } from '@crm/contract/resources';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
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
    const app = root;

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

    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);

    // A file of that expense: by its id, or by its id with its file name as the address's last part
    // (what the page links to, so that the browser names the tab and the saved file after it).
    const sendApprovalFile = async (reply: FastifyReply, id: number, token: string, fileId: number) => {
      const file = await approvalAttachment(app, id, token, fileId);
      const stream = await getFileStorage(app.config.dataDir).get(file.systemName);
      if (!stream) throw notFound('payments.attachmentNotFound');
      return sendStoredFile(reply, file, stream, 'private, no-store', { 'Referrer-Policy': 'no-referrer' });
    };

    registerCalls(
      app,
      PAYMENT_CLIENT.calls,
      PAYMENT_CLIENT_API,
      {
        sendInvitation: {
          access: OFFICE_ADMIN,
          handler: async (req) => {
            const email = await sendInvitation(app, req.params.accountId, req.actor, req.culture);
            return { message: app.translator.t(req.culture, 'paymentsClient.invite.sent', { email }) };
          },
        },
        sendForApproval: {
          access: OFFICE_ADMIN,
          handler: async (req) => {
            const email = await sendForApproval(app, req.user!, req.actor, req.params.id);
            return { message: app.translator.t(req.culture, 'paymentsClient.approval.sent', { email }) };
          },
        },
        // The client's approval page: no sign-in; the link's token opens that one expense.
        viewExpense: { access: 'public', handler: async (req) => viewExpense(app, req.params.id, req.query.token, tr(req)) },
        approveExpense: { access: 'public', handler: async (req) => approveExpense(app, req, req.params.id, req.query.token, tr(req)) },
        // The same, on the statement: the account's own client, signed in (the sign-in is the key).
        approveOwnExpense: { access: PAYMENTS_CLIENT, handler: async (req) => approveOwnExpense(app, req, req.params.id, req.body.requestedOn, tr(req)) },
        revertOwnApproval: { access: PAYMENTS_CLIENT, handler: async (req) => revertOwnApproval(app, req, req.params.id, tr(req)) },
        revertApproval: { access: 'public', handler: async (req) => revertApproval(app, req, req.params.id, req.query.token, tr(req)) },
        file: { access: 'public', handler: async (req, reply) => sendApprovalFile(reply, req.params.id, req.query.token, req.params.fileId) },
        namedFile: { access: 'public', handler: async (req, reply) => sendApprovalFile(reply, req.params.id, req.query.token, req.params.fileId) },
      },
      { tags: ['payments'] },
    );
  },
  { name: 'payments-client', dependencies: ['accounts'] },
);
