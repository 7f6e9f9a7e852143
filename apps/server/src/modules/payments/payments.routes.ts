import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import {
  ZExpenseForm,
  ZIncomeForm,
  ZOk,
  ZPaymentAccountsAnswer,
  ZPaymentAccountsQuery,
  ZStatementAnswer,
  ZStatementDownloadParams,
  ZStatementFilter,
  ZStatementQuery,
  ZTransactionFileParams,
  ZTransactionFormQuery,
  ZTransactionIdParam,
  ZTransactionSaved,
  readStatementFilter,
  type TTransactionType,
} from '@crm/contract';
import { transactionAttachments } from '../../db/schema/index.ts';
import { accessDenied, notFound } from '../../lib/errors.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { sendDownload, sendStoredFile } from '../files/files.service.ts';
import { PAYMENTS_READ, PAYMENTS_WRITE, isPaymentsStaff } from './payments.access.ts';
import { blankForm, deleteAccountTransactions, deleteTransaction, getStatement, listPaymentAccounts, moveTransactions, requireReadableTransaction, transactionForm } from './payments.service.ts';
import { saveTransaction } from './payments.save.ts';
import { statementWorkbook } from './payments.xlsx.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';

/**
 * Payments (document 001, 2.11 and 7): the accounts that keep payments, an account's statement and
 * its Transactions.xlsx, income and expense forms (form-data with attachments), delete, and the
 * attachments. Every call that names an account, a transaction or an attachment checks that a
 * clientPayments caller reads only its own account (payments.access.ts).
 */
export const paymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, so multipart bodies are parsed only by this module's routes (and files').
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: app.config.uploadMaxBytes, files: app.config.upload.maxFiles, fields: 30, parts: app.config.upload.maxFiles + 30, fieldSize: 30000 },
  });
  app.accountMergeSteps.push(moveTransactions);
  app.accountDeleteSteps.push(deleteAccountTransactions(app));

  const tags = ['payments'];
  const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
  const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

  app.get(
    '/api/transactions/accounts',
    { config: { access: PAYMENTS_READ }, schema: { tags, querystring: ZPaymentAccountsQuery, response: { 200: ZPaymentAccountsAnswer } } },
    async (req) => listPaymentAccounts(app, req.user!, req.query, req.culture),
  );

  app.get(
    '/api/transactions',
    { config: { access: PAYMENTS_READ }, schema: { tags, querystring: ZStatementQuery, response: { 200: ZStatementAnswer } } },
    async (req) => getStatement(app, req.user!, req.query.accountId, readStatementFilter(req.query), req.query, tr(req)),
  );

  app.get(
    '/api/transactions/download/:accountId',
    { config: { access: PAYMENTS_READ, fileCookie: true }, schema: { tags, params: ZStatementDownloadParams, querystring: ZStatementFilter } },
    async (req, reply) => {
      return sendDownload(app, req, reply, { entity: 'Transaction', name: 'Transactions.xlsx', data: { accountId: req.params.accountId } }, () =>
        statementWorkbook(app, req.user!, req.params.accountId, readStatementFilter(req.query), tr(req)),
      );
    },
  );

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
  app.get(
    '/api/transactions/files/:id',
    { config: { access: PAYMENTS_READ, fileCookie: true }, schema: { tags, params: ZTransactionIdParam } },
    async (req, reply) => sendAttachment(req, reply, req.params.id),
  );
  app.get(
    '/api/transactions/files/:id/:name',
    { config: { access: PAYMENTS_READ, fileCookie: true }, schema: { tags, params: ZTransactionFileParams } },
    async (req, reply) => sendAttachment(req, reply, req.params.id),
  );

  for (const [name, type] of [
    ['Income', 'income'],
    ['Expense', 'expense'],
  ] as [string, TTransactionType][]) {
    const answer = type === 'income' ? ZIncomeForm : ZExpenseForm;
    app.get(
      `/api/transactions/add${name}`,
      { config: { access: PAYMENTS_WRITE }, bodyLimit: formBodyLimit(app.config.upload.requestMaxBytes), schema: { tags, querystring: ZTransactionFormQuery, response: { 200: answer } } },
      async (req) => blankForm(app, req.user!, type, req.query.accountId, tr(req)),
    );
    app.get(
      `/api/transactions/edit${name}/:id`,
      { config: { access: PAYMENTS_READ }, schema: { tags, params: ZTransactionIdParam, response: { 200: answer } } },
      async (req) => transactionForm(app, app.db, req.user!, type, req.params.id, tr(req)),
    );
    app.post(
      `/api/transactions/add${name}`,
      { config: { access: PAYMENTS_WRITE }, bodyLimit: formBodyLimit(app.config.upload.requestMaxBytes), schema: { tags, consumes: ['multipart/form-data'], response: { 200: ZTransactionSaved } } },
      async (req) => saveTransaction(app, req, caller(req), type, 'add', tr(req)),
    );
    app.post(
      `/api/transactions/edit${name}`,
      { config: { access: PAYMENTS_WRITE }, bodyLimit: formBodyLimit(app.config.upload.requestMaxBytes), schema: { tags, consumes: ['multipart/form-data'], response: { 200: ZTransactionSaved } } },
      async (req) => saveTransaction(app, req, caller(req), type, 'edit', tr(req)),
    );
  }

  app.delete(
    '/api/transactions/:id',
    { config: { access: PAYMENTS_WRITE }, schema: { tags, params: ZTransactionIdParam, response: { 200: ZOk } } },
    async (req) => {
      await deleteTransaction(app, caller(req), req.params.id);
      return { ok: true as const };
    },
  );
};
