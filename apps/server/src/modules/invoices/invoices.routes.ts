import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { INVOICE_API } from '@crm/contract';
import { INVOICE } from '@crm/contract/resources';
import { OFFICE_ADMIN, STAFF_NO_BRANCH } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { blankInvoice, creditInvoice, deleteInvoice, getInvoice, INVOICE_LOG_ENTITY, issueInvoice, listInvoices, MYDATA_SEND_JOB, saveInvoice, transmitInvoice } from './invoices.service.ts';
import { getInvoiceSettings, saveInvoiceSettings } from './invoice-settings.ts';
import { sendInvoiceToMydata } from './mydata-send.ts';
import { invoicePdf } from './invoice-pdf.ts';
import { logAction } from '../../lib/audit.ts';
import { sendDownload, sendPdf } from '../files/files.service.ts';
import { invoicesWorkbook } from './invoices.xlsx.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/**
 * Commission invoices, receipts and credit notes reported to myDATA (decision 085). The agency's
 * money, as its payments are: office staff (no branch); the tax data and credentials, office admins.
 */
export const invoicesRoutes = fp(
  async (app: FastifyInstance) => {
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
    app.jobs.register<{ invoiceId: number }>(MYDATA_SEND_JOB, async (p, ctx) => sendInvoiceToMydata(app, Number(p.invoiceId), ctx), {
      maxAttempts: 8,
      backoffSeconds: app.config.mydataRetrySeconds,
    });
    registerCalls(
      app,
      INVOICE.calls,
      INVOICE_API,
      {
        list: { access: STAFF_NO_BRANCH, handler: async (req) => listInvoices(app, req.query) },
        add: { access: STAFF_NO_BRANCH, handler: async (req) => blankInvoice(app, req.query.dealId, req.query.kind, tr(req)) },
        edit: { access: STAFF_NO_BRANCH, handler: async (req) => getInvoice(app, app.db, req.params.id) },
        update: { access: STAFF_NO_BRANCH, handler: async (req) => saveInvoice(app, caller(req), req.body) },
        remove: okRoute(STAFF_NO_BRANCH, (req) => deleteInvoice(app, caller(req), req.params.id, req.query.version)),
        issue: { access: STAFF_NO_BRANCH, handler: async (req) => issueInvoice(app, caller(req), req.params.id, req.body.version) },
        transmit: { access: STAFF_NO_BRANCH, handler: async (req) => transmitInvoice(app, caller(req), req.params.id, req.body.version) },
        credit: { access: STAFF_NO_BRANCH, handler: async (req) => creditInvoice(app, caller(req), req.params.id, req.body.version) },
        // Invoices.xlsx for the accountant: the documents the list's filter matches, with its sums.
        download: {
          access: STAFF_NO_BRANCH,
          config: { fileCookie: true },
          file: 'Invoices.xlsx: the documents the filter matches and their sums',
          handler: async (req, reply) => sendDownload(app, req, reply, { entity: INVOICE_LOG_ENTITY, name: 'Invoices.xlsx' }, () => invoicesWorkbook(app, req.query, tr(req))),
        },
        pdf: {
          access: STAFF_NO_BRANCH,
          config: { fileCookie: true },
          file: 'The issued document as a PDF (A4, fonts embedded, the myDATA QR code once accepted)',
          handler: async (req, reply) => {
            const { name, pdf, culture } = await invoicePdf(app, req.params.id, req.query.culture);
            // A customer's data leaving the system is on the record, as the documents' downloads are.
            await logAction(app.db, req.actor, { action: 'Download', entity: INVOICE_LOG_ENTITY, entityId: req.params.id, message: name, data: { culture, fileName: name } });
            return sendPdf(reply, pdf, name);
          },
        },
        settings: { access: OFFICE_ADMIN, handler: async () => getInvoiceSettings(app) },
        saveSettings: { access: OFFICE_ADMIN, handler: async (req) => saveInvoiceSettings(app, req.actor, req.body) },
      },
      { tags: ['invoices'] },
    );
  },
  { name: 'invoices', dependencies: ['deals'] },
);
