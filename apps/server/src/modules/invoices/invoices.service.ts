import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  canonicalSeries,
  DEAL_STAGE_CLOSED,
  DEFAULT_SERIES,
  INVOICE_KINDS,
  isRetail,
  mydataTypeOf,
  RETAIL_CREDIT_SERIES,
  RETAIL_CREDIT_TYPE,
  formatReferenceNumber,
  invoiceSums,
  isValidGreekVat,
  MYDATA_TYPE,
  VAT_CATEGORY_EXEMPT,
  withheldCents,
  type TInvoice,
  type TInvoiceCounterpart,
  type TInvoiceKind,
  type TInvoiceFilter,
  type TInvoiceListAnswer,
  type TInvoiceListSums,
  type TInvoiceRow,
  type ZInvoiceEdit,
  type ZInvoiceListQuery,
} from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { agencyToday, toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { loadInvoiceSettings } from './invoice-settings.ts';

/** The action log's entity of an invoice, receipt or credit note. */
export const INVOICE_LOG_ENTITY = 'Invoice';
/** The job that reports an issued document to myDATA (one per document: its singleton key). */
export const MYDATA_SEND_JOB = 'invoices.mydata';

export type InvoiceCaller = { user: SessionUser; actor: Actor };
type Body = z.output<typeof ZInvoiceEdit>;
type Row = Record<string, unknown>;
type Tr = (key: string, params?: Record<string, string | number>) => string;

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

function toInvoice(r: Row, timeZone: string): TInvoice {
  const kind = r.kind as TInvoiceKind;
  // Lines stored before withholdings existed have none.
  const lines = (r.lines as TInvoice['lines']).map((l) => ({ ...l, withheldCategory: l.withheldCategory ?? null, withheldCents: l.withheldCents ?? 0 }));
  return {
    id: Number(r.id),
    dealId: r.deal_id === null ? null : Number(r.deal_id),
    kind,
    mydataType: mydataTypeOf(kind, r.o_kind as TInvoiceKind | null),
    status: r.status as TInvoice['status'],
    series: String(r.series),
    number: r.number === null ? null : Number(r.number),
    issueDate: r.issue_date === null ? null : String(r.issue_date).slice(0, 10),
    counterpart: r.counterpart as TInvoiceCounterpart,
    lines,
    netCents: Number(r.net_cents),
    vatCents: Number(r.vat_cents),
    grossCents: Number(r.gross_cents),
    withheldCents: lines.reduce((sum, l) => sum + l.withheldCents, 0),
    paymentMethod: Number(r.payment_method),
    creditOf: r.credit_of === null ? null : { id: Number(r.credit_of), kind: r.o_kind as TInvoiceKind, series: String(r.o_series), number: r.o_number === null ? null : Number(r.o_number), mark: str(r.o_mark) },
    mark: str(r.mark_text),
    uid: str(r.uid),
    authenticationCode: str(r.authentication_code),
    qrUrl: str(r.qr_url),
    errors: (r.errors ?? []) as TInvoice['errors'],
    transmittedOn: r.transmitted_on ? toLocalDateTime(new Date(r.transmitted_on as string), timeZone) : null,
    createdOn: toLocalDateTime(new Date(r.created_on as string), timeZone),
    createdBy: str(r.created_by_name),
    version: Number(r.version),
  };
}

export async function getInvoice(app: FastifyInstance, db: Db | Tx, id: number): Promise<TInvoice> {
  const res = await db.execute(sql`
    select i.*, i.issue_date::text as issue_date, i.mark::text as mark_text, o.kind as o_kind, o.series as o_series, o.number as o_number, o.mark::text as o_mark,
      coalesce(ca.display_name, cu.username) as created_by_name
    from invoices i left join invoices o on o.id = i.credit_of
    left join users cu on cu.id = i.created_by left join accounts ca on ca.id = cu.account_id
    where i.id = ${id}`);
  const r = res.rows[0] as Row | undefined;
  if (!r) throw notFound('invoices.notFound');
  return toInvoice(r, app.config.timeZone);
}

/** A country as myDATA writes it (ISO 3166 alpha-2) from an account's free text; Greece when it says nothing else. */
export function countryCode(text: unknown): string {
  const v = String(text ?? '').trim();
  if (/^[A-Za-z]{2}$/.test(v)) return v.toUpperCase();
  if (v === '' || /^(greece|hellas|ελλάδα|ελλαδα|ελλάς|греция)$/i.test(v)) return 'GR';
  const known: Record<string, string> = { cyprus: 'CY', κύπρος: 'CY', кипр: 'CY', germany: 'DE', russia: 'RU', россия: 'RU', bulgaria: 'BG', italy: 'IT', france: 'FR' };
  return known[v.toLowerCase()] ?? 'GR';
}

/** The closed deal a document is issued from (404 unknown, 400 not closed). */
async function closedDeal(db: Db | Tx, dealId: number) {
  const res = await db.execute(sql`select d.id, d.deal_stage, d.commission::text as commission, o.reference_number from deals d left join objects o on o.id = d.object_id where d.id = ${dealId}`);
  const d = res.rows[0] as Row | undefined;
  if (!d) throw fieldError('dealId', 'invoices.noDeal');
  if (Number(d.deal_stage) !== DEAL_STAGE_CLOSED) throw fieldError('dealId', 'invoices.dealNotClosed');
  return d;
}

/**
 * GET /api/Invoice/add?dealId=&kind=: a draft for a closed deal: its client (the buyer, or tenant;
 * else the seller) as the counterpart, a company invoiced and a person given a receipt unless the
 * kind is asked, and the deal's commission as the one line at 24% VAT.
 */
export async function blankInvoice(app: FastifyInstance, dealId: number, asked: 'invoice' | 'receipt' | undefined, t: Tr): Promise<TInvoice> {
  const deal = await closedDeal(app.db, dealId);
  const party = (
    await app.db.execute(sql`select a.* from deal_parties p join accounts a on a.id = p.account_id
      where p.deal_id = ${dealId} and p.relation in (1, 2) and a.erased_on is null order by (p.relation = 2) desc, p.position, p.id limit 1`)
  ).rows[0] as Row | undefined;
  const company = party?.is_company === true;
  const kind = asked ?? (company ? 'invoice' : 'receipt');
  const name = company && str(party?.name)?.trim() ? String(party!.name) : String(party?.display_name ?? '');
  const commission = deal.commission === null ? 0 : Math.round(Number(deal.commission) * 100);
  const sums = invoiceSums([{ netCents: commission, vatCategory: 1 }]);
  const ref = deal.reference_number === null ? '' : formatReferenceNumber(Number(deal.reference_number));
  return {
    id: null,
    dealId,
    kind,
    mydataType: MYDATA_TYPE[kind],
    status: 'draft',
    series: DEFAULT_SERIES[kind],
    number: null,
    issueDate: null,
    counterpart: {
      vatNumber: str(party?.tax_number)?.trim() || null,
      name,
      street: str(party?.address)?.trim() || null,
      city: str(party?.city)?.trim() || null,
      postalCode: str(party?.postcode)?.trim() || null,
      country: countryCode(party?.country),
    },
    lines: [{ description: ref ? t('invoices.line.commissionOf', { ref }) : t('invoices.line.commission'), netCents: commission, vatCategory: 1, vatExemption: null, vatCents: sums.vatCents, grossCents: sums.grossCents, withheldCategory: null, withheldCents: 0 }],
    netCents: sums.netCents,
    vatCents: sums.vatCents,
    grossCents: sums.grossCents,
    withheldCents: 0,
    paymentMethod: 1,
    creditOf: null,
    mark: null,
    uid: null,
    authenticationCode: null,
    qrUrl: null,
    errors: [],
    transmittedOn: null,
    createdOn: null,
    createdBy: null,
    version: 0,
  };
}

/**
 * The counterpart a kind needs: an invoice or credit note a tax number (a Greek one with a right
 * check digit), a foreign one its city and postal code; a receipt's tax number, when given, checked too.
 */
export function checkCounterpart(kind: TInvoiceKind, c: TInvoiceCounterpart) {
  const vat = (c.vatNumber ?? '').replace(/\s+/g, '');
  if (!c.name.trim()) throw fieldError('counterpart.name', 'validation.required');
  if (kind !== 'receipt' && !vat) throw fieldError('counterpart.vatNumber', 'invoices.vatRequired');
  if (vat && c.country === 'GR' && !isValidGreekVat(vat)) throw fieldError('counterpart.vatNumber', 'invoices.vatInvalid');
  if (kind !== 'receipt' && c.country !== 'GR' && (!c.city?.trim() || !c.postalCode?.trim())) throw fieldError('counterpart.city', 'invoices.foreignAddress');
  return { ...c, vatNumber: vat || null, name: c.name.trim() };
}

/** The lines as stored: their VAT, and the tax withheld where chosen (an invoice's or credit note's only: a private person withholds nothing). */
function linesOf(body: Body, kind: TInvoiceKind) {
  const sums = invoiceSums(body.lines);
  const lines = body.lines.map((l, i) => {
    if (l.vatCategory === VAT_CATEGORY_EXEMPT && !l.vatExemption) throw fieldError(`lines.${i}.vatExemption`, 'invoices.exemptionRequired');
    if (l.withheldCategory && kind === 'receipt') throw fieldError(`lines.${i}.withheldCategory`, 'invoices.withheldOnInvoice');
    const withheldCategory = l.withheldCategory ?? null;
    return {
      description: l.description.trim(),
      vatCategory: l.vatCategory,
      vatExemption: l.vatCategory === VAT_CATEGORY_EXEMPT ? l.vatExemption! : null,
      ...sums.lines[i]!,
      withheldCategory,
      withheldCents: withheldCents(l.netCents, withheldCategory),
    };
  });
  return { lines, netCents: sums.netCents, vatCents: sums.vatCents, grossCents: sums.grossCents };
}

const immutable = () => new AppError(409, 'invoices.immutable');
const sameLines = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * POST /api/Invoice/update: a new draft from a closed deal, or a change of a draft (version guard).
 * An issued document is final (409); a rejected one's counterpart and payment method may be
 * corrected before it is sent again, its number, lines and sums not.
 */
export async function saveInvoice(app: FastifyInstance, caller: InvoiceCaller, body: Body): Promise<TInvoice> {
  return app.db.transaction(async (tx) => {
    let stored: Row | undefined;
    if (body.id) {
      stored = (await tx.execute(sql`select * from invoices where id = ${body.id} for update`)).rows[0] as Row | undefined;
      if (!stored) throw notFound('invoices.notFound');
      if (Number(stored.version) !== requireVersion(body.version)) throw conflict(await getInvoice(app, tx, body.id));
    }
    const kind: TInvoiceKind = stored ? (stored.kind === 'credit' ? 'credit' : body.kind === 'credit' ? (stored.kind as TInvoiceKind) : body.kind) : body.kind;
    if (!stored && kind === 'credit') throw fieldError('kind', 'invoices.creditFromOriginal');
    // A receipt's credit note (11.4) follows a receipt's rules: no ΑΦΜ required, nothing withheld.
    const creditOfKind = kind === 'credit' ? await originalKind(tx, stored!) : null;
    const rules = kind === 'credit' && creditOfKind === 'receipt' ? 'receipt' : kind;
    const counterpart = checkCounterpart(rules, body.counterpart);
    const sums = linesOf(body, rules);
    const series = await seriesIn(tx, body.series);
    if (stored && stored.status !== 'draft') {
      if (stored.status !== 'rejected') throw immutable();
      const before = stored.lines as { description: string; netCents: number; vatCategory: number; vatExemption: number | null; withheldCategory?: number | null }[];
      const now = sums.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption, withheld: l.withheldCategory }));
      const was = before.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption, withheld: l.withheldCategory ?? null }));
      if (kind !== stored.kind || series !== stored.series || !sameLines(now, was)) throw immutable();
      await tx.execute(sql`update invoices set counterpart = ${JSON.stringify(counterpart)}::jsonb, payment_method = ${body.paymentMethod},
        modified_on = now(), modified_by = ${caller.user.id}, version = version + 1 where id = ${body.id!}`);
      await logAction(tx, caller.actor, { action: 'Update', entity: INVOICE_LOG_ENTITY, entityId: body.id!, data: { counterpart: { from: stored.counterpart, to: counterpart }, paymentMethod: body.paymentMethod } });
      return getInvoice(app, tx, body.id!);
    }
    const dealId = stored ? (stored.deal_id === null ? null : Number(stored.deal_id)) : (body.dealId ?? null);
    if (!stored) {
      if (!dealId) throw fieldError('dealId', 'invoices.noDeal');
      await closedDeal(tx, dealId);
    }
    // Checked when the draft comes into its series (new, or its series or kind changed): a draft saved
    // before another type took the series keeps its counterpart and lines editable (its issue refuses it).
    if (!stored || series !== stored.series || kind !== stored.kind) {
      const clash = await seriesClash(tx, series, mydataTypeOf(kind, creditOfKind), stored ? Number(stored.id) : null, false);
      if (clash) throw fieldError('series', 'invoices.seriesOtherType', { series, type: clash });
    }
    const values = { kind, series, counterpart, lines: sums.lines, paymentMethod: body.paymentMethod, netCents: sums.netCents, vatCents: sums.vatCents, grossCents: sums.grossCents };
    let id: number;
    if (!stored) {
      const res = await tx.execute(sql`insert into invoices (deal_id, kind, series, counterpart, lines, net_cents, vat_cents, gross_cents, payment_method, created_by, modified_by)
        values (${dealId}, ${kind}, ${values.series}, ${JSON.stringify(counterpart)}::jsonb, ${JSON.stringify(sums.lines)}::jsonb, ${sums.netCents}, ${sums.vatCents}, ${sums.grossCents},
          ${body.paymentMethod}, ${caller.user.id}, ${caller.user.id}) returning id`);
      id = Number((res.rows[0] as Row).id);
    } else {
      id = body.id!;
      await tx.execute(sql`update invoices set kind = ${kind}, series = ${values.series}, counterpart = ${JSON.stringify(counterpart)}::jsonb, lines = ${JSON.stringify(sums.lines)}::jsonb,
        net_cents = ${sums.netCents}, vat_cents = ${sums.vatCents}, gross_cents = ${sums.grossCents}, payment_method = ${body.paymentMethod},
        modified_on = now(), modified_by = ${caller.user.id}, version = version + 1 where id = ${id}`);
    }
    await logAction(tx, caller.actor, { action: stored ? 'Update' : 'Create', entity: INVOICE_LOG_ENTITY, entityId: id, data: { dealId, ...values } });
    return getInvoice(app, tx, id);
  });
}

/**
 * Each series is one myDATA document type, numbered on its own (as the books keep them): the series
 * the CRM offers by default are their type's from the start (ΤΠΥ 2.1, ΑΠΥ 11.2, ΠΤ 5.1, ΠΣΛ 11.4),
 * another one the type of the documents already in it.
 */
const SERIES_TYPE: Readonly<Record<string, string>> = Object.fromEntries([
  ...INVOICE_KINDS.map((k) => [DEFAULT_SERIES[k], MYDATA_TYPE[k]]),
  [RETAIL_CREDIT_SERIES, RETAIL_CREDIT_TYPE],
]);

/**
 * The series a document is stored and numbered in: one already in the books (a counter row, or a
 * document) keeps its exact name, so a series numbered before series were stored in one form goes on
 * from its last number; a new one is stored in its canonical form (`canonicalSeries`, decision 085).
 */
async function seriesIn(tx: Tx, typed: string): Promise<string> {
  const exact = typed.trim();
  const known = await tx.execute(sql`select exists (select 1 from invoice_series where series = ${exact})
    or exists (select 1 from invoices where series = ${exact} and number is not null) as known`);
  return (known.rows[0] as { known: boolean }).known ? exact : canonicalSeries(exact);
}

/**
 * The other myDATA type a series is kept for, or null when a document of `type` may take it: on
 * save every other document of the series counts, on issue the numbered ones (drafts take no number).
 */
async function seriesClash(tx: Tx, series: string, type: string, id: number | null, numberedOnly: boolean): Promise<string | null> {
  const reserved = SERIES_TYPE[series];
  if (reserved) return reserved === type ? null : reserved;
  // The first document of another type, if any: on issue through invoices_series_number_idx (the
  // numbered ones of the series), its type as mydataTypeOf gives it.
  const docType = sql`case when i.kind = 'credit' and o.kind = 'receipt' then ${RETAIL_CREDIT_TYPE}::text
    when i.kind = 'invoice' then ${MYDATA_TYPE.invoice}::text when i.kind = 'receipt' then ${MYDATA_TYPE.receipt}::text else ${MYDATA_TYPE.credit}::text end`;
  const row = (
    await tx.execute(sql`select ${docType} as type from invoices i left join invoices o on o.id = i.credit_of
      where i.series = ${series} ${numberedOnly ? sql`and i.number is not null` : sql``} and i.id <> ${id ?? 0} and ${docType} <> ${type}::text limit 1`)
  ).rows[0] as Row | undefined;
  return row ? String(row.type) : null;
}

/** The kind of the document a credit note credits (an invoice's: 5.1; a receipt's: 11.4). */
async function originalKind(tx: Tx, credit: Row): Promise<TInvoiceKind | null> {
  if (credit.credit_of === null || credit.credit_of === undefined) return null;
  const r = (await tx.execute(sql`select kind from invoices where id = ${Number(credit.credit_of)}`)).rows[0] as Row | undefined;
  return r ? (r.kind as TInvoiceKind) : null;
}

async function lockedInvoice(app: FastifyInstance, tx: Tx, id: number, version: number | null | undefined) {
  const stored = (await tx.execute(sql`select * from invoices where id = ${id} for update`)).rows[0] as Row | undefined;
  if (!stored) throw notFound('invoices.notFound');
  if (Number(stored.version) !== requireVersion(version)) throw conflict(await getInvoice(app, tx, id));
  return stored;
}

/** Queues the document's transmission to myDATA in this transaction (at most one queued per document). */
async function queueTransmission(app: FastifyInstance, tx: Tx, id: number) {
  await app.jobs.enqueue(MYDATA_SEND_JOB, { invoiceId: id }, { tx, singletonKey: `invoice:${id}` });
}

/**
 * POST /api/Invoice/issue/{id}: a draft becomes final: the next number of its series (taken in this
 * transaction, so a failure gives it back and numbers have no gaps), today's date in the agency's
 * time zone, the agency's ΑΦΜ; and, with myDATA credentials set, its transmission is queued (sent).
 */
export async function issueInvoice(app: FastifyInstance, caller: InvoiceCaller, id: number, version: number | null | undefined): Promise<TInvoice> {
  return app.db.transaction(async (tx) => {
    const stored = await lockedInvoice(app, tx, id, version);
    if (stored.status !== 'draft') throw immutable();
    const settings = await loadInvoiceSettings(tx);
    if (!settings.vatNumber || !isValidGreekVat(settings.vatNumber)) throw new AppError(400, 'invoices.noAgencyVat');
    const creditOfKind = stored.kind === 'credit' ? await originalKind(tx, stored) : null;
    checkCounterpart(stored.kind === 'credit' && creditOfKind === 'receipt' ? 'receipt' : (stored.kind as TInvoiceKind), stored.counterpart as TInvoiceCounterpart);
    if (stored.kind === 'credit') {
      // The original locked: two credit notes of it issued at once cannot both pass the sum below.
      const original = (await tx.execute(sql`select mark, gross_cents from invoices where id = ${Number(stored.credit_of)} for update`)).rows[0] as Row | undefined;
      if (!original || original.mark === null) throw new AppError(400, 'invoices.originalNotAccepted');
      const other = (await tx.execute(sql`select coalesce(sum(gross_cents), 0)::bigint as credited from invoices
        where credit_of = ${Number(stored.credit_of)} and status <> 'draft' and id <> ${id}`)).rows[0] as { credited: string };
      const left = Number(original.gross_cents) - Number(other.credited);
      if (Number(stored.gross_cents) > left) throw new AppError(400, 'invoices.creditTooLarge', { left: (left / 100).toFixed(2) });
    }
    // A series already numbered keeps its exact name; a draft's new series is numbered in its canonical form (decision 085).
    const series = await seriesIn(tx, String(stored.series));
    const taken = await tx.execute(sql`insert into invoice_series (series, last_number) values (${series}, 1)
      on conflict (series) do update set last_number = invoice_series.last_number + 1 returning last_number`);
    const number = Number((taken.rows[0] as Row).last_number);
    // Checked with the series' counter locked (above): two documents of different types issued into a
    // new series at once are seen here one after the other, and a refusal gives the number back.
    const clash = await seriesClash(tx, series, mydataTypeOf(stored.kind as TInvoiceKind, creditOfKind), id, true);
    if (clash) throw new AppError(409, 'invoices.seriesOtherType', { series, type: clash });
    const issueDate = agencyToday(app.config.timeZone);
    const transmit = settings.canTransmit;
    await tx.execute(sql`update invoices set status = ${transmit ? 'sent' : 'issued'}, series = ${series}, number = ${number}, issue_date = ${issueDate},
      issuer_vat_number = ${settings.vatNumber}, issuer_branch = ${settings.branch}, errors = '[]'::jsonb,
      modified_on = now(), modified_by = ${caller.user.id}, version = version + 1 where id = ${id}`);
    if (transmit) await queueTransmission(app, tx, id);
    await logAction(tx, caller.actor, { action: 'Update', entity: INVOICE_LOG_ENTITY, entityId: id, data: { status: { from: 'draft', to: transmit ? 'sent' : 'issued' }, series, number, issueDate } });
    return getInvoice(app, tx, id);
  });
}

/**
 * POST /api/Invoice/transmit/{id}: sends an issued document not yet transmitted, a rejected one
 * (after its counterpart or the settings were corrected), or one myDATA did not answer, again.
 * Never one myDATA accepted (409).
 */
export async function transmitInvoice(app: FastifyInstance, caller: InvoiceCaller, id: number, version: number | null | undefined): Promise<TInvoice> {
  return app.db.transaction(async (tx) => {
    const stored = await lockedInvoice(app, tx, id, version);
    const unanswered = stored.status === 'sent' && (stored.errors as unknown[]).length > 0;
    if (stored.status !== 'issued' && stored.status !== 'rejected' && !unanswered) throw new AppError(409, 'invoices.notToSend');
    const settings = await loadInvoiceSettings(tx);
    if (!settings.canTransmit) throw new AppError(400, 'invoices.noCredentials');
    await tx.execute(sql`update invoices set status = 'sent', modified_on = now(), modified_by = ${caller.user.id}, version = version + 1 where id = ${id}`);
    await queueTransmission(app, tx, id);
    await logAction(tx, caller.actor, { action: 'Update', entity: INVOICE_LOG_ENTITY, entityId: id, data: { status: { from: stored.status, to: 'sent' } } });
    return getInvoice(app, tx, id);
  });
}

/**
 * POST /api/Invoice/credit/{id}: a draft credit note of a document myDATA accepted, its lines and
 * counterpart copied (a full cancellation unless changed): 5.1 of an invoice, 11.4 (Πιστωτικό
 * Στοιχείο Λιανικής, its own series) of a receipt.
 */
export async function creditInvoice(app: FastifyInstance, caller: InvoiceCaller, id: number, version: number | null | undefined): Promise<TInvoice> {
  return app.db.transaction(async (tx) => {
    const o = await lockedInvoice(app, tx, id, version);
    if (o.kind === 'credit') throw new AppError(400, 'invoices.creditOnlyInvoice');
    if (o.mark === null) throw new AppError(400, 'invoices.originalNotAccepted');
    // One credit note in the making at a time, and none once the invoice is credited in full; the
    // original's version moves on, so a second click with the same version is a 409.
    const credits = (await tx.execute(sql`select count(*) filter (where status = 'draft')::int as drafts,
        coalesce(sum(gross_cents) filter (where status <> 'draft'), 0)::bigint as credited
      from invoices where credit_of = ${id}`)).rows[0] as { drafts: number; credited: string };
    if (credits.drafts > 0) throw new AppError(409, 'invoices.creditDraftExists');
    if (Number(credits.credited) >= Number(o.gross_cents)) throw new AppError(409, 'invoices.creditedInFull');
    await tx.execute(sql`update invoices set version = version + 1 where id = ${id}`);
    const res = await tx.execute(sql`insert into invoices (deal_id, kind, series, counterpart, lines, net_cents, vat_cents, gross_cents, payment_method, credit_of, created_by, modified_by)
      values (${o.deal_id === null ? null : Number(o.deal_id)}, 'credit', ${isRetail(o.kind as TInvoiceKind, null) ? RETAIL_CREDIT_SERIES : DEFAULT_SERIES.credit}, ${JSON.stringify(o.counterpart)}::jsonb, ${JSON.stringify(o.lines)}::jsonb,
        ${Number(o.net_cents)}, ${Number(o.vat_cents)}, ${Number(o.gross_cents)}, ${Number(o.payment_method)}, ${id}, ${caller.user.id}, ${caller.user.id}) returning id`);
    const creditId = Number((res.rows[0] as Row).id);
    await logAction(tx, caller.actor, { action: 'Create', entity: INVOICE_LOG_ENTITY, entityId: creditId, data: { kind: 'credit', creditOf: id } });
    return getInvoice(app, tx, creditId);
  });
}

/** DELETE /api/Invoice/{id}?version=: a draft only (an issued document is never deleted: a credit note cancels it). */
export async function deleteInvoice(app: FastifyInstance, caller: InvoiceCaller, id: number, version: number | undefined) {
  await app.db.transaction(async (tx) => {
    const stored = await lockedInvoice(app, tx, id, version);
    if (stored.status !== 'draft') throw immutable();
    await tx.execute(sql`delete from invoices where id = ${id}`);
    await logAction(tx, caller.actor, { action: 'Delete', entity: INVOICE_LOG_ENTITY, entityId: id, data: { kind: stored.kind, dealId: stored.deal_id } });
  });
}

/** The filter's SQL (every value a parameter): status, kind, series, customer's name or ΑΦΜ, issue dates, deal. */
export function invoiceWhere(q: TInvoiceFilter) {
  const customer = q.customer?.trim();
  const like = customer ? `%${customer.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return sql`where true
    ${q.status ? sql`and i.status = ${q.status}` : sql``}
    ${q.kind ? sql`and i.kind = ${q.kind}` : sql``}
    ${q.series && canonicalSeries(q.series) ? sql`and i.series in (${q.series.trim()}, ${canonicalSeries(q.series)})` : sql``}
    ${like ? sql`and (i.counterpart->>'name' ilike ${like} or i.counterpart->>'vatNumber' = ${customer!.replace(/\s+/g, '')})` : sql``}
    ${q.dateFrom ? sql`and i.issue_date >= ${q.dateFrom}::date` : sql``}
    ${q.dateTo ? sql`and i.issue_date <= ${q.dateTo}::date` : sql``}
    ${q.dealId ? sql`and i.deal_id = ${q.dealId}` : sql``}`;
}

/** The sums of the documents a filter matches, in SQL: issued ones only, a credit note's subtracted. */
export async function invoiceListSums(app: FastifyInstance, q: TInvoiceFilter): Promise<TInvoiceListSums> {
  const r = (
    await app.db.execute(sql`select count(*) filter (where i.status <> 'draft')::int as count,
        coalesce(sum(case when i.kind = 'credit' then -i.net_cents else i.net_cents end) filter (where i.status <> 'draft'), 0)::bigint as net,
        coalesce(sum(case when i.kind = 'credit' then -i.vat_cents else i.vat_cents end) filter (where i.status <> 'draft'), 0)::bigint as vat,
        coalesce(sum(case when i.kind = 'credit' then -i.gross_cents else i.gross_cents end) filter (where i.status <> 'draft'), 0)::bigint as gross
      from invoices i ${invoiceWhere(q)}`)
  ).rows[0] as Row;
  return { count: Number(r.count), netCents: Number(r.net), vatCents: Number(r.vat), grossCents: Number(r.gross) };
}

/** The rows of the list, newest first (a page, or up to `limit` for the download). */
export async function invoiceRows(app: FastifyInstance, q: TInvoiceFilter, limit: number, offset: number) {
  const res = await app.db.execute(sql`select i.id, i.deal_id, i.kind, i.status, i.series, i.number, i.issue_date::text as issue_date, i.net_cents, i.vat_cents, i.gross_cents,
      i.mark::text as mark, i.counterpart->>'name' as counterpart_name, i.counterpart->>'vatNumber' as counterpart_vat, o.kind as o_kind, count(*) over () as total
    from invoices i left join invoices o on o.id = i.credit_of ${invoiceWhere(q)} order by i.id desc limit ${limit} offset ${offset}`);
  const rows = res.rows as Row[];
  return {
    total: rows.length ? Number(rows[0]!.total) : null,
    items: rows.map(
      (r): TInvoiceRow => ({
        id: Number(r.id),
        dealId: r.deal_id === null ? null : Number(r.deal_id),
        kind: r.kind as TInvoiceKind,
        mydataType: mydataTypeOf(r.kind as TInvoiceKind, r.o_kind as TInvoiceKind | null),
        status: r.status as TInvoice['status'],
        series: String(r.series),
        number: r.number === null ? null : Number(r.number),
        issueDate: str(r.issue_date),
        netCents: Number(r.net_cents),
        vatCents: Number(r.vat_cents),
        grossCents: Number(r.gross_cents),
        mark: str(r.mark),
        counterpartName: String(r.counterpart_name ?? ''),
        counterpartVatNumber: str(r.counterpart_vat),
      }),
    ),
  };
}

/** GET /api/Invoice: newest first, filtered, paged in SQL, with the sums of every document the filter matches. */
export async function listInvoices(app: FastifyInstance, q: z.output<typeof ZInvoiceListQuery>): Promise<TInvoiceListAnswer> {
  const page = await invoiceRows(app, q, q.perPage, (q.currentPage - 1) * q.perPage);
  const totalRows = page.total ?? Number(((await app.db.execute(sql`select count(*)::int as n from invoices i ${invoiceWhere(q)}`)).rows[0] as Row).n);
  return { items: page.items, totalRows, sums: await invoiceListSums(app, q) };
}
