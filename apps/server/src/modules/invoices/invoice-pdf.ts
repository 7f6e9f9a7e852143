import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { sql } from 'drizzle-orm';
import { centsToDecimal, RETAIL_CREDIT_TYPE, VAT_RATES, type TCulture, type TInvoice } from '@crm/contract';
import { AppError } from '../../lib/errors.ts';
import { startPdf } from '../../lib/pdf.ts';
import { agencyIdentity } from '../settings/site-settings.service.ts';
import { getInvoice } from './invoices.service.ts';

const MARGIN = 48;
const GRAY = '#555555';

/** Cents as a Greek document writes euros: space thousands, comma decimals, the symbol after ("3 844,31 €"). */
export function euros(cents: number): string {
  const [whole, dec] = centsToDecimal(cents).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')},${dec} €`;
}
const dateOf = (iso: string | null) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '');

/**
 * What the QR code says: the address myDATA gave (ResponseDoc's qrUrl, or RequestTransmittedDocs'
 * qrCodeUrl for a document found there); else (an answer without one) the
 * document's registration as text: MARK, UID, authentication code, issuer ΑΦΜ, date, series/number, total.
 */
export function qrContent(inv: TInvoice, issuerVat: string): string | null {
  if (!inv.mark) return null;
  if (inv.qrUrl) return inv.qrUrl;
  return [`MARK:${inv.mark}`, `UID:${inv.uid ?? ''}`, `AUTH:${inv.authenticationCode ?? ''}`, `AFM:${issuerVat}`, `DATE:${inv.issueDate ?? ''}`, `DOC:${inv.series}/${inv.number ?? ''}`, `TOTAL:${centsToDecimal(inv.grossCents)}`].join(';');
}

/** The language a document is printed in when none is asked: its client's (the deal's buyer or tenant, else seller), else Greek. */
async function clientCulture(app: FastifyInstance, dealId: number | null): Promise<TCulture> {
  if (dealId === null) return 'el';
  const r = (
    await app.db.execute(sql`select lower(btrim(a.language)) as language from deal_parties p join accounts a on a.id = p.account_id
      where p.deal_id = ${dealId} and p.relation in (1, 2) and a.erased_on is null order by (p.relation = 2) desc, p.position, p.id limit 1`)
  ).rows[0] as { language: string | null } | undefined;
  const lang = r?.language ?? '';
  return lang.startsWith('ru') ? 'ru' : lang.startsWith('en') ? 'en' : 'el';
}

/**
 * GET /api/Invoice/pdf/{id}?culture=: an issued document as an A4 PDF, every label in Greek and,
 * for another language, followed by it ("Σύνολο / Total"): the agency (issuer) with its ΑΦΜ and ΔΟΥ,
 * the customer, the lines with their VAT, the totals, the payment method; once myDATA accepted it,
 * its MARK, UID, authentication code and the QR code. Fonts embedded.
 */
export async function invoicePdf(app: FastifyInstance, id: number, asked: TCulture | undefined): Promise<{ name: string; pdf: Buffer; culture: TCulture }> {
  const inv = await getInvoice(app, app.db, id);
  if (inv.number === null) throw new AppError(400, 'invoices.pdfNotIssued');
  const culture = asked ?? (await clientCulture(app, inv.dealId));
  const stored = (await app.db.execute(sql`select issuer_vat_number from invoices where id = ${id}`)).rows[0] as { issuer_vat_number: string | null };
  const issuerVat = stored.issuer_vat_number ?? '';
  const site = await agencyIdentity(app);
  const tr = (c: TCulture, key: string, params?: Record<string, string | number>) => app.translator.t(c, key, params);
  /** The Greek label, and the customer's after it when it is another language. */
  const bi = (key: string, params?: Record<string, string | number>) => (culture === 'el' ? tr('el', key, params) : `${tr('el', key, params)} / ${tr(culture, key, params)}`);
  const titleKey = `invoices.pdf.title.${inv.mydataType === RETAIL_CREDIT_TYPE ? 'retailCredit' : inv.kind}`;
  const title = `${bi(titleKey)} ${inv.series} ${inv.number}`;
  const qr = qrContent(inv, issuerVat);
  const qrPng = qr ? await QRCode.toBuffer(qr, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 240 }) : null;

  const { doc, done } = startPdf({ size: 'A4', margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN }, lang: culture, info: { Title: title, Author: site.nameIn('el', '') } });
  const width = doc.page.width - 2 * MARGIN;
  const half = width / 2 - 10;

  // Issuer and customer side by side.
  const top = doc.y;
  const party = (x: number, heading: string, name: string, lines: (string | null)[]) => {
    doc.font('regular').fontSize(8).fillColor(GRAY).text(heading, x, top, { width: half });
    doc.font('bold').fontSize(11).fillColor('black').text(name, x, doc.y + 2, { width: half });
    doc.font('regular').fontSize(9);
    for (const l of lines) if (l) doc.text(l, x, doc.y + 1, { width: half });
    return doc.y;
  };
  const c = inv.counterpart;
  const leftBottom = party(MARGIN, bi('invoices.pdf.issuer'), site.nameIn(culture === 'el' ? 'el' : 'en', ''), [
    `${bi('invoices.field.vatNumber')}: ${issuerVat}${site.taxOffice ? ` · ${bi('invoices.pdf.taxOffice')}: ${site.taxOffice}` : ''}`,
    site.address,
    [site.phone, site.email].filter(Boolean).join(' · ') || null,
  ]);
  const rightBottom = party(MARGIN + width / 2 + 10, bi('invoices.pdf.customer'), c.name, [
    c.vatNumber ? `${bi('invoices.field.vatNumber')}: ${c.vatNumber}` : null,
    [c.street, [c.postalCode, c.city].filter(Boolean).join(' ')].filter(Boolean).join(', ') || null,
    c.country !== 'GR' ? c.country : null,
  ]);
  doc.y = Math.max(leftBottom, rightBottom) + 14;
  doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).lineWidth(0.7).strokeColor('#999999').stroke();
  doc.moveDown(0.8);
  doc.font('bold').fontSize(13).fillColor('black').text(title, MARGIN, doc.y, { width, align: 'center' });
  doc.font('regular').fontSize(9).text(`${bi('invoices.field.issueDate')}: ${dateOf(inv.issueDate)}`, MARGIN, doc.y + 4, { width, align: 'center' });
  if (inv.creditOf) doc.text(`${bi('invoices.field.creditOf')}: ${inv.creditOf.series} ${inv.creditOf.number ?? ''}${inv.creditOf.mark ? ` (MARK ${inv.creditOf.mark})` : ''}`, MARGIN, doc.y + 2, { width, align: 'center' });
  doc.moveDown(1);

  // The lines: description, net, VAT rate, VAT, total.
  const cols = [
    { key: 'invoices.field.description', w: width * 0.4, align: 'left' as const },
    { key: 'invoices.field.net', w: width * 0.16, align: 'right' as const },
    { key: 'invoices.field.vatCategory', w: width * 0.12, align: 'right' as const },
    { key: 'invoices.field.vatAmount', w: width * 0.14, align: 'right' as const },
    { key: 'invoices.field.gross', w: width * 0.18, align: 'right' as const },
  ];
  const row = (cells: string[], font: 'regular' | 'bold') => {
    const y = doc.y;
    let x = MARGIN;
    let bottom = y;
    cells.forEach((text, i) => {
      doc.font(font).fontSize(8.5).text(text, x + 2, y, { width: cols[i]!.w - 4, align: cols[i]!.align });
      bottom = Math.max(bottom, doc.y);
      x += cols[i]!.w;
    });
    doc.y = bottom + 4;
    doc.moveTo(MARGIN, doc.y - 2).lineTo(MARGIN + width, doc.y - 2).lineWidth(0.3).strokeColor('#bbbbbb').stroke();
  };
  row(cols.map((col) => bi(col.key)), 'bold');
  for (const l of inv.lines) row([l.description, euros(l.netCents), `${VAT_RATES[l.vatCategory] ?? 0}%`, euros(l.vatCents), euros(l.grossCents)], 'regular');
  doc.moveDown(0.6);
  const total = (key: string, cents: number, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'bold' : 'regular').fontSize(bold ? 10.5 : 9.5).text(bi(key), MARGIN + width * 0.35, y, { width: width * 0.45, align: 'right' });
    doc.text(euros(cents), MARGIN + width * 0.8, y, { width: width * 0.2, align: 'right' });
    doc.y = Math.max(doc.y, y + 12) + 2;
  };
  total('invoices.field.net', inv.netCents);
  total('invoices.field.vatAmount', inv.vatCents);
  total('invoices.field.gross', inv.grossCents, true);
  if (inv.withheldCents > 0) {
    total('invoices.field.withheld', inv.withheldCents);
    total('invoices.pdf.payable', inv.grossCents - inv.withheldCents, true);
  }
  doc.moveDown(0.6);
  doc.font('regular').fontSize(9).text(`${bi('invoices.field.paymentMethod')}: ${bi(`invoices.payment.${inv.paymentMethod}`)}`, MARGIN, doc.y, { width });
  doc.moveDown(1.2);

  // myDATA: the QR code, the MARK, UID and authentication code; or that it is not transmitted.
  const boxTop = doc.y;
  if (qrPng && inv.mark) {
    doc.image(qrPng, MARGIN, boxTop, { width: 96, height: 96 });
    const x = MARGIN + 110;
    doc.font('bold').fontSize(9.5).text(`${bi('invoices.field.mark')}: ${inv.mark}`, x, boxTop + 6, { width: width - 110 });
    doc.font('regular').fontSize(8.5);
    if (inv.uid) doc.text(`${bi('invoices.field.uid')}: ${inv.uid}`, x, doc.y + 3, { width: width - 110 });
    if (inv.authenticationCode) doc.text(`${bi('invoices.pdf.authCode')}: ${inv.authenticationCode}`, x, doc.y + 3, { width: width - 110 });
    doc.fillColor(GRAY).text(bi('invoices.pdf.qrNote'), x, doc.y + 3, { width: width - 110 });
  } else {
    doc.font('regular').fontSize(9).fillColor(GRAY).text(bi('invoices.pdf.notTransmitted'), MARGIN, boxTop, { width });
  }
  doc.end();
  const pdf = await done;
  const name = `${tr(culture, titleKey)} ${inv.series} ${inv.number} (${culture}).pdf`.replace(/[\\/:*?"<>|]+/g, ' ');
  return { name, pdf, culture };
}
