import { z } from 'zod';
import { byId, listAnswer, queryPaging, ZDate, ZDateTime, ZId, ZIdParam, ZIdString, ZOk, ZSaveKey, ZText, ZVersion, ZVersionBody, ZVersionQuery } from './common.ts';
import { CULTURES } from './constants.ts';
import { canonicalSeries, INVOICE_KINDS, INVOICE_MAX_CENTS, INVOICE_MAX_LINES, INVOICE_STATUSES, MYDATA_PAYMENT_METHODS, VAT_CATEGORIES, WITHHELD_CATEGORIES } from './invoice-fields.ts';
import type { CallSchemas } from './call.ts';

export * from './invoice-fields.ts';

/** Who the document is issued to: ΑΦΜ (checked for Greece), name, address and country (ISO 3166 alpha-2). */
export const ZInvoiceCounterpart = z.object({
  vatNumber: ZText(30).nullable(),
  name: ZText(200),
  street: ZText(200).nullable(),
  city: ZText(100).nullable(),
  postalCode: ZText(20).nullable(),
  country: z.string().regex(/^[A-Z]{2}$/),
});
export type TInvoiceCounterpart = z.infer<typeof ZInvoiceCounterpart>;

/** A line as written: what it is for, its net amount (cents), the VAT category (and the exemption reason of category 7). */
export const ZInvoiceLineEdit = z.object({
  description: ZText(300).refine((s) => s.trim() !== '', { message: 'validation.required' }),
  netCents: z.number().int().min(1).max(INVOICE_MAX_CENTS),
  vatCategory: z.union(VAT_CATEGORIES.map((c) => z.literal(c)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, ...z.ZodLiteral<number>[]]),
  vatExemption: z.number().int().min(1).max(31).nullable().optional(),
  /** A withholding (myDATA withheldPercentCategory) on an invoice's or credit note's line; none on a receipt. */
  withheldCategory: z.union(WITHHELD_CATEGORIES.map((c) => z.literal(c)) as [z.ZodLiteral<3>, z.ZodLiteral<7>]).nullable().optional(),
});
export type TInvoiceLineEdit = z.input<typeof ZInvoiceLineEdit>;
export const ZInvoiceLine = z.object({
  description: z.string(),
  netCents: z.number().int(),
  vatCategory: z.number().int(),
  vatExemption: z.number().int().nullable(),
  vatCents: z.number().int(),
  grossCents: z.number().int(),
  withheldCategory: z.number().int().nullable(),
  withheldCents: z.number().int(),
});
export type TInvoiceLine = z.infer<typeof ZInvoiceLine>;

/** An error myDATA answered (its code and message, as given), or ours before sending (code `xsd`, `network`, `http`). */
export const ZInvoiceError = z.object({ code: z.string(), message: z.string() });
export type TInvoiceError = z.infer<typeof ZInvoiceError>;

/** A commission invoice, receipt or credit note (decision 085). Amounts in cents. */
export const ZInvoice = z.object({
  id: z.number().int().nullable(),
  dealId: z.number().int().nullable(),
  kind: z.enum(INVOICE_KINDS),
  mydataType: z.string(),
  status: z.enum(INVOICE_STATUSES),
  series: z.string(),
  /** The number in its series, given when issued (none while a draft). */
  number: z.number().int().nullable(),
  issueDate: ZDate.nullable(),
  counterpart: ZInvoiceCounterpart,
  lines: z.array(ZInvoiceLine),
  netCents: z.number().int(),
  vatCents: z.number().int(),
  grossCents: z.number().int(),
  /** The tax withheld by the customer (the lines' sum): the document's total less it is what is paid. */
  withheldCents: z.number().int(),
  paymentMethod: z.number().int(),
  /** A credit note's original: its id, series, number and MARK. */
  creditOf: z.object({ id: z.number().int(), kind: z.enum(INVOICE_KINDS), series: z.string(), number: z.number().int().nullable(), mark: z.string().nullable() }).nullable(),
  mark: z.string().nullable(),
  uid: z.string().nullable(),
  authenticationCode: z.string().nullable(),
  qrUrl: z.string().nullable(),
  errors: z.array(ZInvoiceError),
  transmittedOn: ZDateTime.nullable(),
  createdOn: ZDateTime.nullable(),
  createdBy: z.string().nullable(),
  version: z.number().int(),
});
export type TInvoice = z.infer<typeof ZInvoice>;

/** GET /api/Invoice/add?dealId=&kind=: a draft for a closed deal, its client's details and commission filled in (posted back unchanged, it is saved). */
export const ZInvoiceAddQuery = z.object({ dealId: ZIdString, kind: z.enum(['invoice', 'receipt']).optional() });

/** POST /api/Invoice/update: a new draft (no id) or a change of a draft (id and version); a rejected one's counterpart may be corrected. */
export const ZInvoiceEdit = z.object({
  ...ZSaveKey,
  dealId: ZId.nullable().optional(),
  kind: z.enum(INVOICE_KINDS),
  series: ZText(50).refine((s) => canonicalSeries(s) !== '', { message: 'validation.required' }),
  counterpart: ZInvoiceCounterpart,
  lines: z.array(ZInvoiceLineEdit).min(1).max(INVOICE_MAX_LINES),
  paymentMethod: z.union(MYDATA_PAYMENT_METHODS.map((c) => z.literal(c)) as [z.ZodLiteral<1>, z.ZodLiteral<3>, ...z.ZodLiteral<number>[]]),
});
export type TInvoiceEdit = z.input<typeof ZInvoiceEdit>;

/** The version a state change (issue, send, credit) was based on. */
export const ZInvoiceVersionBody = ZVersionBody;
export const ZInvoiceDeleteQuery = ZVersionQuery;

/** A row of the invoices list. */
export const ZInvoiceRow = ZInvoice.pick({ id: true, dealId: true, kind: true, mydataType: true, status: true, series: true, number: true, issueDate: true, netCents: true, vatCents: true, grossCents: true, mark: true }).extend({
  counterpartName: z.string(),
  counterpartVatNumber: z.string().nullable(),
});
export type TInvoiceRow = z.infer<typeof ZInvoiceRow>;
/**
 * The list's filter (kept in cookies by the web): status, kind, series (exact), customer (a part of
 * the name, or the ΑΦΜ), issue dates from and to (inclusive), and a deal.
 */
export const ZInvoiceFilter = z.object({
  status: z.enum(INVOICE_STATUSES).optional(),
  kind: z.enum(INVOICE_KINDS).optional(),
  series: ZText(50).optional(),
  customer: ZText(200).optional(),
  dateFrom: ZDate.optional(),
  dateTo: ZDate.optional(),
  dealId: ZIdString.optional(),
});
export type TInvoiceFilter = z.infer<typeof ZInvoiceFilter>;
export const ZInvoiceListQuery = ZInvoiceFilter.extend({
  ...queryPaging(1000),
});
/**
 * The sums of the documents the filter matches, counted in SQL: issued ones only (drafts have no
 * number), a credit note's amounts subtracted.
 */
export const ZInvoiceListSums = z.object({ count: z.number().int(), netCents: z.number().int(), vatCents: z.number().int(), grossCents: z.number().int() });
export type TInvoiceListSums = z.infer<typeof ZInvoiceListSums>;
export const ZInvoiceListAnswer = listAnswer(ZInvoiceRow).extend({ sums: ZInvoiceListSums });
export type TInvoiceListAnswer = z.infer<typeof ZInvoiceListAnswer>;
/** The most rows Invoices.xlsx holds (the sums above its table count every match). */
export const INVOICE_DOWNLOAD_MAX = 100_000;

/**
 * The agency's tax data for its documents and its myDATA credentials: the ΑΦΜ and branch (εγκατάσταση,
 * 0 the head office), the myDATA user id and subscription key. The key is stored sealed and never
 * answered (only whether one is set); the endpoint is the server's configuration (MYDATA_URL).
 */
export const ZInvoiceSettings = z.object({
  vatNumber: z.string().nullable(),
  branch: z.number().int(),
  userId: z.string().nullable(),
  keySet: z.boolean(),
  endpoint: z.string(),
  version: z.number().int(),
});
export type TInvoiceSettings = z.infer<typeof ZInvoiceSettings>;
/** A blank or absent key keeps the stored one; `clearKey` removes it. */
export const ZInvoiceSettingsEdit = z.object({
  version: ZVersion,
  vatNumber: ZText(9).nullable(),
  branch: z.number().int().min(0).max(999999).default(0),
  userId: ZText(100).nullable(),
  subscriptionKey: ZText(200).nullable().optional(),
  clearKey: z.boolean().optional(),
});
export type TInvoiceSettingsEdit = z.input<typeof ZInvoiceSettingsEdit>;

/** GET /api/Invoice/pdf/{id}?culture=: an issued document as a PDF, Greek always, and the language asked (else its client's) beside it. */
export const ZInvoicePdfQuery = z.object({ culture: z.enum(CULTURES).optional() });

/** The invoices' calls and their schemas (decision 057); their methods and paths: `invoices.resource.ts`. */
export const INVOICE_API = {
  list: { query: ZInvoiceListQuery, answer: ZInvoiceListAnswer },
  add: { query: ZInvoiceAddQuery, answer: ZInvoice },
  edit: byId(ZInvoice),
  update: { body: ZInvoiceEdit, answer: ZInvoice },
  remove: { params: ZIdParam, query: ZInvoiceDeleteQuery, answer: ZOk },
  issue: { params: ZIdParam, body: ZInvoiceVersionBody, answer: ZInvoice },
  transmit: { params: ZIdParam, body: ZInvoiceVersionBody, answer: ZInvoice },
  credit: { params: ZIdParam, body: ZInvoiceVersionBody, answer: ZInvoice },
  pdf: { params: ZIdParam, query: ZInvoicePdfQuery },
  download: { query: ZInvoiceFilter },
  settings: { answer: ZInvoiceSettings },
  saveSettings: { body: ZInvoiceSettingsEdit, answer: ZInvoiceSettings },
} satisfies Record<string, CallSchemas>;
