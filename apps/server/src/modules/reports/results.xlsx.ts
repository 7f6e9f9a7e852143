import type { FastifyInstance } from 'fastify';
import type ExcelJS from 'exceljs';
import type { TCulture, TResultsQuery, TResultsRow } from '@crm/contract';
import type { SessionUser } from '../../plugins/auth.ts';
import { addTable, cellMoney, EURO_FORMAT, safeText, sheetName } from '../../lib/excel.ts';
import { inEveryLanguage, type Download } from '../../lib/downloads.ts';
import { results } from './results.service.ts';
import type { T } from '../../lib/i18n.ts';

type Column = { head: string; width: number; money?: boolean; cell: (r: TResultsRow) => ExcelJS.CellValue };

/** The report's columns, as the screen shows them; money as number cells in euro. */
export function resultColumns(t: T): Column[] {
  const count = (key: keyof TResultsRow, head: string): Column => ({ head: t(head), width: 12, cell: (r) => r[key] as number });
  const amount = (key: keyof TResultsRow, head: string): Column => ({ head: t(head), width: 16, money: true, cell: (r) => cellMoney(r[key] as string) });
  return [
    { head: t('reports.results.col.agent'), width: 28, cell: (r) => safeText(r.name) },
    count('properties', 'reports.results.col.properties'),
    count('viewings', 'reports.results.col.viewings'),
    count('offers', 'reports.results.col.offers'),
    count('leads', 'reports.results.col.leads'),
    count('sales', 'reports.results.col.sales'),
    amount('salesValue', 'reports.results.col.salesValue'),
    amount('salesCommission', 'reports.results.col.salesCommission'),
    count('rentals', 'reports.results.col.rentals'),
    amount('rentalsValue', 'reports.results.col.rentalsValue'),
    amount('rentalsCommission', 'reports.results.col.rentalsCommission'),
    amount('commission', 'reports.results.col.commission'),
  ];
}

/** A day as the reader writes it: 01/03/2026, in Russian 01.03.2026. */
export const dayText = (d: string, culture: TCulture) => [d.slice(8, 10), d.slice(5, 7), d.slice(0, 4)].join(culture === 'ru' ? '.' : '/');

/** POST /api/report/results/download: Results.xlsx, the report as the screen shows it, the period in the title row. */
export async function resultsWorkbook(app: FastifyInstance, user: SessionUser, q: TResultsQuery, t: T, culture: TCulture): Promise<Download> {
  const a = await results(app, user, q, t);
  const branch = q.branchId ? a.branches.find((b) => b.value === q.branchId)?.text : undefined;
  const period = (tl: T, c: TCulture) => `${tl('reports.results.title')}: ${dayText(a.from, c)} – ${dayText(a.till, c)}${branch ? ` (${branch})` : ''}`;
  // Written as it is sent (the report's rows are one per agent, read together with their totals).
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const ws = wb.addWorksheet(sheetName(t('reports.results.sheet')), { views: [{ state: 'frozen', ySplit: 3, xSplit: 1 }] });
    const columns = resultColumns(t);
    ws.columns = columns.map((c, i) => ({ key: String(i), width: c.width, ...(c.money ? { style: { numFmt: EURO_FORMAT } } : {}) }));
    const title = ws.addRow([safeText(period(t, culture))]);
    title.font = { bold: true, size: 14 };
    title.commit();
    ws.addRow([]).commit();
    const n = await addTable(ws, columns.map((c) => c.head), a.rows, (r) => columns.map((c) => c.cell(r)), signal);
    const totals = ws.addRow(columns.map((c) => c.cell(a.totals)));
    totals.font = { bold: true };
    totals.eachCell((c) => (c.border = { top: { style: 'thin' } }));
    totals.commit();
    ws.commit();
    return n;
  };
  return { write, filter: await inEveryLanguage(app, period) };
}
