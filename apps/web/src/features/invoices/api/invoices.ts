import { queryOptions } from '@tanstack/react-query';
import type { TInvoice, TInvoiceEdit, TInvoiceFilter } from '@crm/contract';
import { INVOICE } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

export const invoiceKeys = {
  all: ['invoices'] as const,
  list: (filter: TInvoiceFilter, page: number) => ['invoices', 'list', filter, page] as const,
  one: (id: number) => ['invoices', 'one', id] as const,
};

/** The invoices list, newest first, filtered, with the sums of the matches (GET /api/Invoice). */
export const invoicesQuery = (filter: TInvoiceFilter, page: number, perPage = 20) =>
  queryOptions({
    queryKey: invoiceKeys.list(filter, page),
    queryFn: ({ signal }) => call(INVOICE.calls.list, { query: { ...filter, currentPage: page, perPage } }, { signal }),
    placeholderData: (previous) => previous,
  });

/** One document (GET /api/Invoice/edit/:id); while myDATA has not answered, asked again every few seconds. */
export const invoiceQuery = (id: number) =>
  queryOptions({
    queryKey: invoiceKeys.one(id),
    queryFn: ({ signal }) => call(INVOICE.calls.edit, { params: { id } }, { signal }),
    enabled: id > 0,
    refetchInterval: (q) => (q.state.data?.status === 'sent' && q.state.data.errors.length === 0 ? 3000 : false),
  });

/** The form's values posted back as a change of the draft (or of a rejected document's counterpart). */
export const toEdit = (i: TInvoice): TInvoiceEdit => ({
  id: i.id,
  version: i.version,
  dealId: i.dealId,
  kind: i.kind,
  series: i.series,
  counterpart: i.counterpart,
  paymentMethod: i.paymentMethod as TInvoiceEdit['paymentMethod'],
  lines: i.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory as TInvoiceEdit['lines'][number]['vatCategory'], vatExemption: l.vatExemption, withheldCategory: l.withheldCategory as TInvoiceEdit['lines'][number]['withheldCategory'] })),
});

export const saveInvoice = (body: TInvoiceEdit) => call(INVOICE.calls.update, { body });
export const issueInvoice = (i: Pick<TInvoice, 'id' | 'version'>) => call(INVOICE.calls.issue, { params: { id: i.id! }, body: { version: i.version } });
export const transmitInvoice = (i: Pick<TInvoice, 'id' | 'version'>) => call(INVOICE.calls.transmit, { params: { id: i.id! }, body: { version: i.version } });
export const creditInvoice = (i: Pick<TInvoice, 'id' | 'version'>) => call(INVOICE.calls.credit, { params: { id: i.id! }, body: { version: i.version } });
export const deleteInvoice = (i: Pick<TInvoice, 'id' | 'version'>) => call(INVOICE.calls.remove, { params: { id: i.id! }, query: { version: i.version } });
