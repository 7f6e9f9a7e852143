import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { TInvoiceError } from '@crm/contract';
import { JobFailure, type JobContext } from '../../jobs/runner.ts';
import { logAction } from '../../lib/audit.ts';
import { buildInvoicesDoc, parseResponseDoc, validateAgainstXsd } from './mydata-xml.ts';
import { getInvoice, INVOICE_LOG_ENTITY } from './invoices.service.ts';
import { loadInvoiceSettings, mydataCredentials } from './invoice-settings.ts';

const MYDATA = { id: null, name: 'myDATA' };
const REQUEST_TIMEOUT_MS = 30_000;

/** A definitive outcome: accepted with its MARK, or rejected with its errors (only a document still `sent` is changed). */
async function settle(app: FastifyInstance, id: number, outcome: { accepted: true; mark: string; uid: string | null; authenticationCode: string | null; qrUrl: string | null } | { accepted: false; errors: TInvoiceError[]; status?: 'rejected' | 'issued' }) {
  await app.db.transaction(async (tx) => {
    if (outcome.accepted) {
      const res = await tx.execute(sql`update invoices set status = 'accepted', mark = ${outcome.mark}::bigint, uid = ${outcome.uid}, authentication_code = ${outcome.authenticationCode},
        qr_url = ${outcome.qrUrl}, errors = '[]'::jsonb, transmitted_on = now(), modified_on = now(), version = version + 1 where id = ${id} and status = 'sent' returning id`);
      if (res.rows.length) await logAction(tx, MYDATA, { action: 'Update', entity: INVOICE_LOG_ENTITY, entityId: id, data: { status: { from: 'sent', to: 'accepted' }, mark: outcome.mark, uid: outcome.uid } });
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
 * sent again by this job (it only acts on a document still `sent`).
 */
export async function sendInvoiceToMydata(app: FastifyInstance, invoiceId: number, ctx: Pick<JobContext, 'signal'>): Promise<void> {
  const inv = await getInvoice(app, app.db, invoiceId).catch(() => null);
  if (!inv || inv.status !== 'sent') return;
  const stored = (await app.db.execute(sql`select issuer_vat_number, issuer_branch from invoices where id = ${invoiceId}`)).rows[0] as { issuer_vat_number: string; issuer_branch: number };
  const creds = mydataCredentials(app, await loadInvoiceSettings(app.db));
  if (!creds) return settle(app, invoiceId, { accepted: false, status: 'issued', errors: [{ code: 'credentials', message: 'myDATA user id or subscription key not set' }] });
  const xml = buildInvoicesDoc(inv, { vatNumber: stored.issuer_vat_number, branch: Number(stored.issuer_branch ?? 0) });
  const check = await validateAgainstXsd(xml);
  if (!check.valid) return settle(app, invoiceId, { accepted: false, errors: check.errors.slice(0, 5).map((message) => ({ code: 'xsd', message })) });
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
