import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { TInvoiceError } from '@crm/contract';
import { JobFailure, type JobContext } from '../../jobs/runner.ts';
import { logAction } from '../../lib/audit.ts';
import { buildInvoicesDoc, findTransmitted, parseRequestedDoc, parseResponseDoc, validateAgainstXsd, type TransmittedQuery } from './mydata-xml.ts';
import { getInvoice, INVOICE_LOG_ENTITY } from './invoices.service.ts';
import { loadInvoiceSettings, mydataCredentials } from './invoice-settings.ts';

const MYDATA = { id: null, name: 'myDATA' };
const REQUEST_TIMEOUT_MS = 30_000;

/** A definitive outcome: accepted with its MARK, or rejected with its errors (only a document still `sent` is changed). */
async function settle(
  app: FastifyInstance,
  id: number,
  outcome: { accepted: true; mark: string; uid: string | null; authenticationCode: string | null; qrUrl: string | null; found?: boolean } | { accepted: false; errors: TInvoiceError[]; status?: 'rejected' | 'issued' },
) {
  await app.db.transaction(async (tx) => {
    if (outcome.accepted) {
      const res = await tx.execute(sql`update invoices set status = 'accepted', mark = ${outcome.mark}::bigint, uid = ${outcome.uid}, authentication_code = ${outcome.authenticationCode},
        qr_url = ${outcome.qrUrl}, errors = '[]'::jsonb, transmitted_on = now(), modified_on = now(), version = version + 1 where id = ${id} and status = 'sent' returning id`);
      if (res.rows.length) await logAction(tx, MYDATA, { action: 'Update', entity: INVOICE_LOG_ENTITY, entityId: id, data: { status: { from: 'sent', to: 'accepted' }, mark: outcome.mark, uid: outcome.uid, ...(outcome.found ? { foundInMyData: true } : {}) } });
    } else {
      const status = outcome.status ?? 'rejected';
      const res = await tx.execute(sql`update invoices set status = ${status}, errors = ${JSON.stringify(outcome.errors)}::jsonb, transmitted_on = now(), modified_on = now(), version = version + 1
        where id = ${id} and status = 'sent' returning id`);
      if (res.rows.length) await logAction(tx, MYDATA, { action: 'Update', entity: INVOICE_LOG_ENTITY, entityId: id, data: { status: { from: 'sent', to: status }, errors: outcome.errors } });
    }
  });
}

/** A failure worth trying again (myDATA unreachable, 5xx, 429): noted on the document (still `sent`), and the job retried. */
async function unanswered(app: FastifyInstance, id: number, error: TInvoiceError, cause?: unknown): Promise<never> {
  await app.db.execute(sql`update invoices set errors = ${JSON.stringify([error])}::jsonb, modified_on = now(), version = version + 1 where id = ${id} and status = 'sent'`);
  throw new JobFailure(`myDATA did not answer: ${error.code} ${error.message}`, 'mydata.unanswered', { cause });
}

/**
 * The job that reports one document to myDATA (decision 085): its InvoicesDoc built and validated
 * against AADE's XSD (an invalid one is rejected here, never sent), posted to MYDATA_URL/SendInvoices
 * with the aade-user-id and ocp-apim-subscription-key headers. No answer (network, 5xx, 429): retried
 * with back-off. An answer (a ResponseDoc, or a 4xx) is definitive: stored, and the document is not
 * sent again by this job (it only acts on a document still `sent`). A retry, or a document whose
 * answer was lost, first asks RequestTransmittedDocs whether myDATA holds it already (then its MARK
 * is kept from there, and it is not sent again).
 */
/** dd/MM/yyyy, as RequestTransmittedDocs takes its dateFrom and dateTo. */
const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const MAX_PAGES = 50;

/**
 * Asks myDATA whether it already holds this document (RequestTransmittedDocs: the documents this
 * user transmitted, from MARK 0, on its issue date and of its type, page after page by the
 * continuation token), matched by what its UID is made of: issuer ΑΦΜ, issue date, branch, type,
 * series and number. Unanswered (network, 5xx, no RequestedDoc): the job is retried, nothing sent.
 */
async function askTransmitted(app: FastifyInstance, invoiceId: number, creds: { userId: string; key: string }, q: TransmittedQuery, signal: AbortSignal) {
  let token: { nextPartitionKey: string; nextRowKey: string } | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = new URLSearchParams({ mark: '0', dateFrom: ddmmyyyy(q.issueDate), dateTo: ddmmyyyy(q.issueDate), invType: q.invoiceType });
    if (token) {
      params.set('nextPartitionKey', token.nextPartitionKey);
      params.set('nextRowKey', token.nextRowKey);
    }
    let text: string;
    let status: number;
    try {
      const res = await fetch(`${app.config.mydataUrl}/RequestTransmittedDocs?${params.toString()}`, {
        headers: { 'aade-user-id': creds.userId, 'ocp-apim-subscription-key': creds.key },
        signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
      status = res.status;
      text = await res.text();
    } catch (e) {
      return unanswered(app, invoiceId, { code: 'network', message: `RequestTransmittedDocs: ${(e as Error).message}` }, e);
    }
    if (status !== 200) return unanswered(app, invoiceId, { code: `HTTP ${status}`, message: `RequestTransmittedDocs: ${text.slice(0, 500)}` });
    const doc = parseRequestedDoc(text);
    if (!doc) return unanswered(app, invoiceId, { code: 'response', message: `RequestTransmittedDocs: ${text.slice(0, 500)}` });
    const found = findTransmitted(doc.invoices, q);
    if (found) return found;
    if (!doc.continuation) return null;
    // A token that does not move on, or more pages than any day's documents fill: not a "no", so
    // nothing is sent (a send after an unfinished search could register the document twice).
    if (token && doc.continuation.nextPartitionKey === token.nextPartitionKey && doc.continuation.nextRowKey === token.nextRowKey) break;
    token = doc.continuation;
  }
  return unanswered(app, invoiceId, { code: 'response', message: `RequestTransmittedDocs: the list did not end (a continuation token repeated, or over ${MAX_PAGES} pages)` });
}

export async function sendInvoiceToMydata(app: FastifyInstance, invoiceId: number, ctx: Pick<JobContext, 'signal' | 'attempt'>): Promise<void> {
  const inv = await getInvoice(app, app.db, invoiceId).catch(() => null);
  if (!inv || inv.status !== 'sent') return;
  const stored = (await app.db.execute(sql`select issuer_vat_number, issuer_branch from invoices where id = ${invoiceId}`)).rows[0] as { issuer_vat_number: string; issuer_branch: number };
  const creds = mydataCredentials(app, await loadInvoiceSettings(app.db));
  if (!creds) return settle(app, invoiceId, { accepted: false, status: 'issued', errors: [{ code: 'credentials', message: 'myDATA user id or subscription key not set' }] });
  const xml = buildInvoicesDoc(inv, { vatNumber: stored.issuer_vat_number, branch: Number(stored.issuer_branch ?? 0) });
  const check = await validateAgainstXsd(xml);
  if (!check.valid) return settle(app, invoiceId, { accepted: false, errors: check.errors.slice(0, 5).map((message) => ({ code: 'xsd', message })) });
  // Sent before (a retry, or an answer noted as missing): myDATA may hold it already; if so, its
  // MARK is taken from there and nothing is sent twice.
  if (ctx.attempt > 1 || inv.errors.length > 0) {
    const q = { vatNumber: stored.issuer_vat_number, branch: Number(stored.issuer_branch ?? 0), issueDate: inv.issueDate!, invoiceType: inv.mydataType, series: inv.series, number: inv.number! };
    const found = await askTransmitted(app, invoiceId, creds, q, ctx.signal);
    if (found) return settle(app, invoiceId, { accepted: true, mark: found.mark, uid: found.uid, authenticationCode: found.authenticationCode, qrUrl: found.qrUrl, found: true });
  }
  let res: Response;
  try {
    res = await fetch(`${app.config.mydataUrl}/SendInvoices`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml; charset=utf-8', 'aade-user-id': creds.userId, 'ocp-apim-subscription-key': creds.key },
      body: xml,
      signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
    });
  } catch (e) {
    return unanswered(app, invoiceId, { code: 'network', message: (e as Error).message }, e);
  }
  const text = await res.text().catch(() => '');
  if (res.status >= 500 || res.status === 429) return unanswered(app, invoiceId, { code: `HTTP ${res.status}`, message: text.slice(0, 500) });
  if (res.status !== 200) return settle(app, invoiceId, { accepted: false, errors: [{ code: `HTTP ${res.status}`, message: text.slice(0, 500) }] });
  const answers = parseResponseDoc(text);
  if (!answers) return unanswered(app, invoiceId, { code: 'response', message: text.slice(0, 500) });
  const a = answers[0]!;
  if (a.ok && a.mark) return settle(app, invoiceId, { accepted: true, mark: a.mark, uid: a.uid, authenticationCode: a.authenticationCode, qrUrl: a.qrUrl });
  return settle(app, invoiceId, { accepted: false, errors: a.errors.length ? a.errors : [{ code: a.statusCode || 'response', message: text.slice(0, 500) }] });
}
