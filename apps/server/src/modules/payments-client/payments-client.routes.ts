import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAccountIdParam, ZMessage } from '@crm/contract';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
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
    root.provisionSignIn = async (tx, email) => {
      const made = await employeeSignIn?.(tx, email);
      if (made) return made;
      const a = await findPaymentsAccountByEmail(tx, email);
      if (!a) return undefined;
      return ensureClientSignIn(tx, a.id, { id: null, name: null }, email);
    };

    app.get(
      '/api/transactions/sendInvitation/:accountId',
      { config: { access: OFFICE_ADMIN }, schema: { tags, params: ZAccountIdParam, response: { 200: ZMessage } } },
      async (req) => {
        const email = await sendInvitation(app, req.params.accountId, req.actor);
        return { message: app.translator.t(req.culture, 'paymentsClient.invite.sent', { email }) };
      },
    );
  },
  { name: 'payments-client', dependencies: ['accounts'] },
);
