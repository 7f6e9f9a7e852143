import { calls } from './call.ts';
import type { INVOICE_API } from './invoices.ts';

/**
 * Commission invoices, receipts and credit notes, reported to myDATA (decision 085): the list, a
 * draft from a closed deal, its save, issue (numbered, final), transmission, credit note, and the
 * agency's tax data and myDATA credentials.
 */
export const INVOICE = {
  calls: calls<typeof INVOICE_API>({
    list: 'GET /api/Invoice',
    add: 'GET /api/Invoice/add',
    edit: 'GET /api/Invoice/edit/:id',
    update: 'POST /api/Invoice/update',
    remove: 'DELETE /api/Invoice/:id',
    issue: 'POST /api/Invoice/issue/:id',
    transmit: 'POST /api/Invoice/transmit/:id',
    credit: 'POST /api/Invoice/credit/:id',
    pdf: 'GET /api/Invoice/pdf/:id',
    download: 'GET /api/Invoice/download',
    settings: 'GET /api/Invoice/settings',
    saveSettings: 'POST /api/Invoice/settings',
  }),
  screens: {
    list: '/Invoices',
    view: '/Invoices/:id',
  },
} as const;
