import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import { PAYMENT_API, readStatementFilter, type TTransactionType } from '@crm/contract';
import { PAYMENT } from '@crm/contract/resources';
import { transactionAttachments } from '../../db/schema/index.ts';
import { accessDenied, notFound } from '../../lib/errors.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { sendDownload, sendStoredFile } from '../files/files.service.ts';
import { PAYMENTS_READ, PAYMENTS_WRITE, isPaymentsStaff } from './payments.access.ts';
import { blankForm, deleteAccountTransactions, deleteTransaction, getStatement, listPaymentAccounts, moveTransactions, requireReadableTransaction, transactionForm } from './payments.service.ts';
import { saveTransaction } from './payments.save.ts';
import { statementWorkbook } from './payments.xlsx.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';
import { type CallRoutes, okRoute, registerCalls } from '../../lib/calls.ts';

/**
 * Payments (document 001, 2.11 and 7): the accounts that keep payments, an account's statement and
 * its Transactions.xlsx, income and expense forms (form-data with attachments), delete, and the
 * attachments. Every call that names an account, a transaction or an attachment checks that a
 * clientPayments caller reads only its own account (payments.access.ts).
 */
export const paymentsRoutes = async (app: FastifyInstance) => {
  // Registered here, so multipart bodies are parsed only by this module's routes (and files').
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: app.config.uploadMaxBytes, files: app.config.upload.maxFiles, fields: 30, parts: app.config.upload.maxFiles + 30, fieldSize: 30000 },
  });
  app.accountMergeSteps.push(moveTransactions);
  app.accountDeleteSteps.push(deleteAccountTransactions(app));

  const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
  const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

  // An attachment: by its id, or by its id with its file name as the address's last part (what the
  // screens link to, so that the browser names the tab and the saved file after it).
  const sendAttachment = async (req: FastifyRequest, reply: FastifyReply, id: number) => {
    const [file] = await app.db.select().from(transactionAttachments).where(eq(transactionAttachments.id, id)).limit(1);
    if (!file) {
      if (!isPaymentsStaff(req.user!)) throw accessDenied();
      throw notFound('payments.attachmentNotFound');
    }
    // The attachment's transaction names the account whose reader may open it.
    await requireReadableTransaction(app.db, req.user!, file.transactionId);
    const stream = await getFileStorage(app.config.dataDir).get(file.systemName);
    if (!stream) throw notFound('payments.attachmentNotFound');
    return sendStoredFile(reply, file, stream, 'private, max-age=3600');
  };

  /** An income's or an expense's forms: a blank one, one to edit, each saved (multipart: its fields and attachments). */
  type Routes = CallRoutes<typeof PAYMENT_API>;
  const forms = (type: TTransactionType) => {
    const formLimit = formBodyLimit(app.config.upload.requestMaxBytes);
    const blank: Routes['addIncome'] = { access: PAYMENTS_WRITE, bodyLimit: formLimit, handler: async (req) => blankForm(app, req.user!, type, req.query.accountId, tr(req), req.culture) };
    const edit: Routes['editIncome'] = { access: PAYMENTS_READ, handler: async (req) => transactionForm(app, app.db, req.user!, type, req.params.id, tr(req), req.culture) };
    const save = (mode: 'add' | 'edit'): Routes['createIncome'] => ({
      access: PAYMENTS_WRITE,
      bodyLimit: formLimit,
      consumes: ['multipart/form-data'],
      handler: async (req) => saveTransaction(app, req, caller(req), type, mode, tr(req)),
    });
    return { blank, edit, create: save('add'), update: save('edit') };
  };
  const income = forms('income');
  const expense = forms('expense');

  registerCalls(
    app,
    PAYMENT.calls,
    PAYMENT_API,
    {
      accounts: { access: PAYMENTS_READ, handler: async (req) => listPaymentAccounts(app, req.user!, req.query, req.culture) },
      statement: { access: PAYMENTS_READ, handler: async (req) => getStatement(app, req.user!, req.query.accountId, readStatementFilter(req.query), req.query, tr(req), req.culture) },
      download: {
        access: PAYMENTS_READ,
        config: { fileCookie: true },
        handler: async (req, reply) =>
          sendDownload(app, req, reply, { entity: 'Transaction', name: 'Transactions.xlsx', data: { accountId: req.params.accountId } }, () =>
            statementWorkbook(app, req.user!, req.params.accountId, readStatementFilter(req.query), tr(req), req.culture),
          ),
      },
      file: { access: PAYMENTS_READ, config: { fileCookie: true }, handler: async (req, reply) => sendAttachment(req, reply, req.params.id) },
      namedFile: { access: PAYMENTS_READ, config: { fileCookie: true }, handler: async (req, reply) => sendAttachment(req, reply, req.params.id) },
      addIncome: income.blank,
      editIncome: income.edit,
      createIncome: income.create,
      updateIncome: income.update,
      addExpense: expense.blank,
      editExpense: expense.edit,
      createExpense: expense.create,
      updateExpense: expense.update,
      remove: okRoute(PAYMENTS_WRITE, (req) => deleteTransaction(app, caller(req), req.params.id)),
    },
    { tags: ['payments'] },
  );
};
