import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { centsToDecimal, isRetail, mydataTypeOf, type TInvoice, type TInvoiceError } from '@crm/contract';

/**
 * myDATA's InvoicesDoc (AADE's published schema v1.0.12, kept in ./mydata-xsd with its source named
 * in its README; decision 085): one document as the XML AADE's SendInvoices takes, its validation
 * against the XSD (xmllint, a wasm build of libxml2), and AADE's ResponseDoc read back.
 */
export const MYDATA_SCHEMA_VERSION = '1.0.12';
const NS = 'http://www.aade.gr/myDATA/invoice/v1.0';
const ICLS = 'https://www.aade.gr/myDATA/incomeClassificaton/v1.0';
const XSD_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mydata-xsd');

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const el = (name: string, value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '' : `<${name}>${esc(String(value))}</${name}>`);

/** What the document needs besides the invoice: the issuer's ΑΦΜ and branch (εγκατάσταση). */
export type Issuer = { vatNumber: string; branch: number };

/**
 * The income classification of the agency's commission: revenue from services (category1_3), to a
 * business (E3_561_001, wholesale) on an invoice or credit note, to a private person (E3_561_003,
 * retail) on a receipt and a receipt's credit note (11.4).
 */
const retailOf = (inv: TInvoice) => isRetail(inv.kind, inv.creditOf?.kind);
const classificationOf = (retail: boolean) => ({ type: retail ? 'E3_561_003' : 'E3_561_001', category: 'category1_3' });
const classification = (retail: boolean, cents: number) => {
  const c = classificationOf(retail);
  return `<incomeClassification><icls:classificationType>${c.type}</icls:classificationType><icls:classificationCategory>${c.category}</icls:classificationCategory><icls:amount>${centsToDecimal(cents)}</icls:amount></incomeClassification>`;
};

/**
 * The counterpart as myDATA takes it: none on a retail receipt (11.x); a Greek one by ΑΦΜ, country
 * and branch only (AADE knows its name and address); a foreign one with its name and address.
 */
function counterpartXml(inv: TInvoice): string {
  if (retailOf(inv)) return '';
  const c = inv.counterpart;
  const foreign = c.country !== 'GR';
  const address = foreign ? `<address>${el('street', c.street)}${el('postalCode', c.postalCode ?? '')}${el('city', c.city ?? '')}</address>` : '';
  return `<counterpart>${el('vatNumber', c.vatNumber)}${el('country', c.country)}<branch>0</branch>${foreign ? el('name', c.name) : ''}${address}</counterpart>`;
}

/** A line's withholding: its amount and myDATA category (withheldAmount, withheldPercentCategory), when one was chosen. */
const withheld = (l: TInvoice['lines'][number]) =>
  l.withheldCategory ? `<withheldAmount>${centsToDecimal(l.withheldCents)}</withheldAmount><withheldPercentCategory>${l.withheldCategory}</withheldPercentCategory>` : '';

/**
 * The InvoicesDoc of one issued document (numbered, dated); with withholdings, totalWithheldAmount is their sum and
 * totalGrossValue (and the payment) the document's total less it, as AADE's summary adds up. A
 * credit note names its original's MARK.
 */
export function buildInvoicesDoc(inv: TInvoice, issuer: Issuer): string {
  if (inv.number === null || inv.issueDate === null) throw new Error('only an issued document is reported');
  const header = [
    el('series', inv.series),
    el('aa', inv.number),
    el('issueDate', inv.issueDate),
    el('invoiceType', mydataTypeOf(inv.kind, inv.creditOf?.kind)),
    el('currency', 'EUR'),
    inv.kind === 'credit' ? el('correlatedInvoices', inv.creditOf?.mark ?? null) : '',
  ].join('');
  const lines = inv.lines
    .map(
      (l, i) =>
        `<invoiceDetails><lineNumber>${i + 1}</lineNumber><netValue>${centsToDecimal(l.netCents)}</netValue><vatCategory>${l.vatCategory}</vatCategory><vatAmount>${centsToDecimal(l.vatCents)}</vatAmount>${el('vatExemptionCategory', l.vatExemption)}${withheld(l)}${classification(retailOf(inv), l.netCents)}</invoiceDetails>`,
    )
    .join('');
  const zero = centsToDecimal(0);
  const summary =
    `<invoiceSummary><totalNetValue>${centsToDecimal(inv.netCents)}</totalNetValue><totalVatAmount>${centsToDecimal(inv.vatCents)}</totalVatAmount>` +
    `<totalWithheldAmount>${centsToDecimal(inv.withheldCents)}</totalWithheldAmount><totalFeesAmount>${zero}</totalFeesAmount><totalStampDutyAmount>${zero}</totalStampDutyAmount>` +
    `<totalOtherTaxesAmount>${zero}</totalOtherTaxesAmount><totalDeductionsAmount>${zero}</totalDeductionsAmount><totalGrossValue>${centsToDecimal(inv.grossCents - inv.withheldCents)}</totalGrossValue>` +
    `${classification(retailOf(inv), inv.netCents)}</invoiceSummary>`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<InvoicesDoc xmlns="${NS}" xmlns:icls="${ICLS}"><invoice>` +
    `<issuer>${el('vatNumber', issuer.vatNumber)}<country>GR</country><branch>${issuer.branch}</branch></issuer>${counterpartXml(inv)}` +
    `<invoiceHeader>${header}</invoiceHeader>` +
    `<paymentMethods><paymentMethodDetails><type>${inv.paymentMethod}</type><amount>${centsToDecimal(inv.grossCents - inv.withheldCents)}</amount></paymentMethodDetails></paymentMethods>` +
    `${lines}${summary}</invoice></InvoicesDoc>\n`
  );
}

let schemaFiles: { fileName: string; contents: string }[] | null = null;
const schemas = () =>
  (schemaFiles ??= fs
    .readdirSync(XSD_DIR)
    .filter((f) => f.endsWith('.xsd'))
    .map((fileName) => ({ fileName, contents: fs.readFileSync(path.join(XSD_DIR, fileName), 'utf8') })));

/** Validates an XML text against one of the kept XSDs (InvoicesDoc or response), its includes and imports preloaded. */
export async function validateAgainstXsd(xml: string, root: 'InvoicesDoc' | 'response' = 'InvoicesDoc'): Promise<{ valid: boolean; errors: string[] }> {
  const all = schemas();
  const main = all.find((s) => s.fileName === `${root}-v${MYDATA_SCHEMA_VERSION}.xsd`)!;
  const res = await validateXML({ xml: { fileName: 'document.xml', contents: xml }, schema: main, preload: all.filter((s) => s !== main) });
  return { valid: res.valid, errors: res.errors.map((e) => e.message) };
}

/** One answer of a ResponseDoc: success (MARK, UID, authentication code, QR address) or its errors. */
export type MydataAnswer = {
  statusCode: string;
  ok: boolean;
  mark: string | null;
  uid: string | null;
  authenticationCode: string | null;
  qrUrl: string | null;
  errors: TInvoiceError[];
};

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
const inner = (xml: string, name: string): string | null => {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>`).exec(xml);
  return m ? unescape(m[1]!.trim()) : null;
};
const all = (xml: string, name: string): string[] => [...xml.matchAll(new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>`, 'g'))].map((m) => m[1]!);

/**
 * AADE's ResponseDoc (response-v1.0.12.xsd): a `response` per document sent, with `statusCode`
 * (Success, ValidationError, TechnicalError, XMLSyntaxError) and either the MARK and UID or a list
 * of errors (message, code). Null when the text is no ResponseDoc.
 */
export function parseResponseDoc(xml: string): MydataAnswer[] | null {
  if (!/<(?:[\w.-]+:)?ResponseDoc[\s>]/.test(xml)) return null;
  const answers = all(xml, 'response').map((r) => {
    const statusCode = inner(r, 'statusCode') ?? '';
    return {
      statusCode,
      ok: statusCode === 'Success',
      mark: inner(r, 'invoiceMark'),
      uid: inner(r, 'invoiceUid'),
      authenticationCode: inner(r, 'authenticationCode'),
      qrUrl: inner(r, 'qrUrl'),
      errors: all(r, 'error').map((e) => ({ code: inner(e, 'code') ?? statusCode, message: inner(e, 'message') ?? '' })),
    };
  });
  return answers.length ? answers : null;
}

/** What a transmitted document is recognised by: the fields its UID is made of (issuer ΑΦΜ, issue date, branch, type, series, number). */
export type TransmittedQuery = { vatNumber: string; branch: number; issueDate: string; invoiceType: string; series: string; number: number };
/** A document myDATA holds, as RequestTransmittedDocs lists it. */
export type TransmittedDoc = { mark: string; uid: string | null; authenticationCode: string | null; qrUrl: string | null; vatNumber: string | null; branch: number; issueDate: string | null; invoiceType: string | null; series: string | null; number: string | null };

/**
 * AADE's RequestedDoc (requestedInvoicesDoc-v1.0.12.xsd), the answer of RequestTransmittedDocs: the
 * documents (`invoicesDoc/invoice`, each with its uid, mark and authenticationCode beside what was
 * sent) and, when there are more, a `continuationToken`. Null when the text is no RequestedDoc.
 */
export function parseRequestedDoc(xml: string): { invoices: TransmittedDoc[]; continuation: { nextPartitionKey: string; nextRowKey: string } | null } | null {
  if (!/<(?:[\w.-]+:)?RequestedDoc[\s>/]/.test(xml)) return null;
  const invoicesDoc = inner(xml, 'invoicesDoc') === null ? '' : all(xml, 'invoicesDoc')[0]!;
  const invoices = all(invoicesDoc, 'invoice')
    .map((v) => {
      const issuer = all(v, 'issuer')[0] ?? '';
      const header = all(v, 'invoiceHeader')[0] ?? '';
      return {
        mark: inner(v, 'mark') ?? '',
        uid: inner(v, 'uid'),
        authenticationCode: inner(v, 'authenticationCode'),
        // AadeBookInvoiceType's qrCodeUrl (after invoiceSummary): the address the printed QR code must carry.
        qrUrl: inner(v, 'qrCodeUrl'),
        vatNumber: inner(issuer, 'vatNumber'),
        branch: Number(inner(issuer, 'branch') ?? 0),
        issueDate: inner(header, 'issueDate'),
        invoiceType: inner(header, 'invoiceType'),
        series: inner(header, 'series'),
        number: inner(header, 'aa'),
      };
    })
    .filter((d) => /^\d+$/.test(d.mark));
  const token = all(xml, 'continuationToken')[0];
  const continuation = token && inner(token, 'nextPartitionKey') ? { nextPartitionKey: inner(token, 'nextPartitionKey')!, nextRowKey: inner(token, 'nextRowKey') ?? '' } : null;
  return { invoices, continuation };
}

/** The listed document that is this one (same issuer, date, branch, type, series and number), if any. */
export function findTransmitted(docs: TransmittedDoc[], q: TransmittedQuery): TransmittedDoc | null {
  return (
    docs.find(
      (d) => d.vatNumber === q.vatNumber && d.branch === q.branch && d.issueDate === q.issueDate && d.invoiceType === q.invoiceType && d.series === q.series && d.number === String(q.number),
    ) ?? null
  );
}
