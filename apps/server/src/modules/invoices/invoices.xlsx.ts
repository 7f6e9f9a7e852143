import type { FastifyInstance } from 'fastify';
import type ExcelJS from 'exceljs';
import { INVOICE_DOWNLOAD_MAX, kindLabel, type TCulture, type TInvoiceFilter, type TInvoiceRow } from '@crm/contract';
import { addTable, cellDate, DATE_FORMAT, DATE_TIME_FORMAT, EURO_FORMAT, noteTruncated, safeText, sheetName, textCell } from '../../lib/excel.ts';
import { inEveryLanguage, type Download } from '../../lib/downloads.ts';
import { invoiceListSums, invoiceRows } from './invoices.service.ts';

type T = (key: string, params?: Record<string, string | number>) => string;
type Column = { head: string; width: number; style?: Partial<ExcelJS.Style>; cell: (r: TInvoiceRow) => ExcelJS.CellValue };

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
    const ws = wb.addWorksheet(sheetName(t('invoices.xlsx.sheet')), { views: [{ state: 'frozen', ySplit: 6 }] });
    const columns = columnsOf(t);
    ws.columns = columns.map((c, i) => ({ key: String(i), width: c.width, ...(c.style ? { style: c.style } : {}) }));
    const title = ws.addRow([t('invoices.xlsx.title')]);
    title.font = { bold: true, size: 14 };
    noteTruncated(title, items.length, total ?? 0, t);
    title.commit();
    ws.addRow([safeText(filterText(f, t))]).commit();
    const row = ws.addRow(columns.map(() => null));
    row.font = { bold: true };
    row.getCell(1).value = t('invoices.sums', { count: sums.count });
    row.getCell(1).numFmt = 'General';
    [sums.netCents, sums.vatCents, sums.grossCents].forEach((cents, i) => {
      row.getCell(columns.length - 2 + i).value = cents / 100;
      row.getCell(columns.length - 2 + i).numFmt = EURO_FORMAT;
    });
    row.commit();
    const made = ws.addRow([t('invoices.xlsx.made'), cellDate(new Date().toLocaleString('sv-SE', { timeZone: tz }).replace(' ', 'T'))]);
    made.getCell(1).numFmt = 'General';
    made.getCell(2).numFmt = DATE_TIME_FORMAT;
    made.commit();
    ws.addRow([]).commit();
    const rows = await addTable(
      ws,
      columns.map((c) => c.head),
      items,
      (r) => columns.map((c) => c.cell(r)),
      signal,
    );
    ws.commit();
    return rows;
  };
  return { write, filter: await inEveryLanguage(app, (tl: T, _c: TCulture) => filterText(f, tl)) };
}
