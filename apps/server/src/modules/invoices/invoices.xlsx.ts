import type { FastifyInstance } from 'fastify';
import type ExcelJS from 'exceljs';
import { INVOICE_DOWNLOAD_MAX, kindLabel, type TCulture, type TInvoiceFilter, type TInvoiceRow } from '@crm/contract';
import { cellDate, DATE_FORMAT, EURO_FORMAT, safeText, textCell, addColumnsTable, addIssued, addTitle, exportSheet, type SheetColumn, addFigures } from '../../lib/excel.ts';
import { inEveryLanguage, type Download } from '../../lib/downloads.ts';
import { invoiceListSums, invoiceRows } from './invoices.service.ts';
import type { T } from '../../lib/i18n.ts';

type Column = SheetColumn<TInvoiceRow>;

const money = { numFmt: EURO_FORMAT };
/** A credit note's amounts as the books take them: subtracted. */
const signed = (r: TInvoiceRow, cents: number) => (r.kind === 'credit' ? -cents : cents) / 100;

function columnsOf(t: T): Column[] {
  return [
    { head: t('invoices.field.issueDate'), width: 13, style: { numFmt: DATE_FORMAT }, cell: (r) => cellDate(r.issueDate) },
    { head: t('invoices.field.kind'), width: 30, cell: (r) => t(`invoices.kind.${kindLabel(r)}`) },
    { head: t('invoices.field.series'), width: 9, cell: (r) => textCell(r.series) },
    { head: t('invoices.field.number'), width: 9, cell: (r) => r.number },
    { head: t('invoices.col.customer'), width: 30, cell: (r) => textCell(r.counterpartName) },
    { head: t('invoices.field.vatNumber'), width: 13, cell: (r) => textCell(r.counterpartVatNumber) },
    { head: t('invoices.col.status'), width: 24, cell: (r) => t(`invoices.status.${r.status}`) },
    { head: t('invoices.field.mark'), width: 18, cell: (r) => textCell(r.mark) },
    { head: t('invoices.field.net'), width: 14, style: money, cell: (r) => signed(r, r.netCents) },
    { head: t('invoices.field.vatAmount'), width: 12, style: money, cell: (r) => signed(r, r.vatCents) },
    { head: t('invoices.field.gross'), width: 14, style: money, cell: (r) => signed(r, r.grossCents) },
  ];
}

/** Row 2: what the filter picks, in words. */
function filterText(f: TInvoiceFilter, t: T): string {
  const d = (s: string | undefined) => (s ? `${s.slice(8, 10)}/${s.slice(5, 7)}/${s.slice(0, 4)}` : '…');
  const parts = [
    f.dateFrom || f.dateTo ? `${t('invoices.field.issueDate')}: ${d(f.dateFrom)} – ${d(f.dateTo)}` : null,
    f.status ? t(`invoices.status.${f.status}`) : null,
    f.kind ? t(`invoices.kind.${f.kind}`) : null,
    f.series?.trim() ? `${t('invoices.field.series')}: ${f.series.trim()}` : null,
    f.customer?.trim() ? `${t('invoices.col.customer')}: ${f.customer.trim()}` : null,
  ].filter(Boolean);
  return `${t('invoices.xlsx.filter')}: ${parts.length ? parts.join('; ') : t('invoices.filter.all')}`;
}

/**
 * GET /api/Invoice/download: Invoices.xlsx for the accountant: the documents the list's filter
 * matches (up to INVOICE_DOWNLOAD_MAX), newest first, with real date and amount cells (a credit
 * note's amounts negative), the filter's sums from SQL above the table, and no text a spreadsheet
 * could run as a formula.
 */
export async function invoicesWorkbook(app: FastifyInstance, f: TInvoiceFilter, t: T): Promise<Download> {
  const sums = await invoiceListSums(app, f);
  const { items, total } = await invoiceRows(app, f, INVOICE_DOWNLOAD_MAX, 0);
  const tz = app.config.timeZone;
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const columns = columnsOf(t);
    const ws = exportSheet(wb, t('invoices.xlsx.sheet'), columns, 6);
    addTitle(ws, t('invoices.xlsx.title'), { shown: items.length, matched: total ?? 0, t });
    ws.addRow([safeText(filterText(f, t))]).commit();
    // The sums under the last three columns (net, VAT, gross).
    addFigures(ws, [t('invoices.sums', { count: sums.count }), ...columns.slice(1, -3).map(() => null), ...[sums.netCents, sums.vatCents, sums.grossCents].map((cents) => cents / 100)]);
    addIssued(ws, t('invoices.xlsx.made'), tz);
    return addColumnsTable(ws, columns, items, signal);
  };
  return { write, filter: await inEveryLanguage(app, (tl: T, _c: TCulture) => filterText(f, tl)) };
}
