import type { FastifyInstance } from 'fastify';
import type ExcelJS from 'exceljs';
import { RESERVATION_DOWNLOAD_MAX, type TReservationSum, type TCulture, type TReservationDownload, type TReservationRow } from '@crm/contract';
import { DATE_FORMAT, EURO_FORMAT, cellDate, cellMoney, safeText, textCell, addColumnsTable, addIssued, addTitle, exportSheet, type SheetColumn, addFigures } from '../../lib/excel.ts';
import { inEveryLanguage, inPages, type Download } from '../../lib/downloads.ts';
import { findReservations, reservationRows } from './reservations.service.ts';
import type { T } from '../../lib/i18n.ts';

type Column = SheetColumn<TReservationRow> & { sum?: TReservationSum };

const money = { numFmt: EURO_FORMAT };
const date = { numFmt: DATE_FORMAT };

/** The file's columns: the list's, with each amount in a column of its own. */
function columnsOf(t: T): Column[] {
  const f = (name: string) => t(`fields.reservation.${name}`);
  const amount = (name: TReservationSum): Column => ({ head: f(name), width: 14, style: money, cell: (r) => cellMoney(r[name]), sum: name });
  return [
    { head: t('reservations.ui.filter.number'), width: 10, cell: (r) => r.id },
    { head: f('reservationNumberExternal'), width: 18, cell: (r) => textCell(r.reservationNumberExternal) },
    { head: f('reservationStage'), width: 14, cell: (r) => r.stage },
    { head: f('bookingDate'), width: 13, style: date, cell: (r) => cellDate(r.bookingDate) },
    { head: f('checkIn'), width: 13, style: date, cell: (r) => cellDate(r.checkIn) },
    { head: f('duration'), width: 8, cell: (r) => r.duration },
    { head: f('checkOut'), width: 13, style: date, cell: (r) => cellDate(r.checkOut) },
    { head: f('adults'), width: 8, cell: (r) => r.adults },
    { head: f('children'), width: 8, cell: (r) => r.children },
    { head: f('objectId'), width: 10, cell: (r) => `#${r.objectReferenceNumber}` },
    { head: t('deals.xlsx.objectTitle'), width: 28, cell: (r) => textCell(r.objectTitle) },
    { head: t('fields.object.websiteCode'), width: 12, cell: (r) => textCell(r.objectWebsiteCode) },
    { head: t('reservations.ui.col.client'), width: 24, cell: (r) => textCell(r.clientDisplayName) },
    { head: f('sourceId'), width: 18, cell: (r) => textCell(r.sourceDisplayName) },
    amount('total'),
    { head: f('totalDone'), width: 10, cell: (r) => t(r.totalDone ? 'reservations.xlsx.yes' : 'reservations.xlsx.no') },
    amount('paymentToOwner'),
    amount('comission'),
    amount('comission3rdParty'),
    amount('finalComission'),
    { head: f('problem'), width: 28, cell: (r) => textCell(r.problem) },
    { head: f('awaiting'), width: 28, cell: (r) => textCell(r.awaiting) },
  ];
}

/** Row 2: what the filter picks, as the list's filter card says it (the dates applied, the current year when none were given). */
function filterText(f: TReservationDownload, from: string | null, till: string | null, t: T, culture: TCulture): string {
  const d = (s: string | null | undefined) => (s ? [s.slice(8, 10), s.slice(5, 7), s.slice(0, 4)].join(culture === 'ru' ? '.' : '/') : '…');
  const text = (label: string, v: string | null | undefined) => (v?.trim() ? `${label}: ${v.trim()}` : null);
  const parts = [
    from || till ? `${t(`reservations.dateFilter.${f.dateFilterType}`)}: ${d(from)} – ${d(till)}` : null,
    f.stages.length ? f.stages.map((s) => t(`reservations.stage.${s}`)).join(', ') : null,
    f.sources.length ? f.sources.map((s) => t(`reservations.source.${s}`)).join(', ') : null,
    text(t('fields.object.websiteCode'), f.objectWebsiteCode),
    text(t('reservations.ui.filter.number'), f.reservationNumber),
    text(t('fields.reservation.reservationNumberExternal'), f.reservationNumberExternal),
    text(t('reservations.ui.filter.clientName'), f.clientName),
  ].filter(Boolean);
  return `${t('reservations.xlsx.filter')}: ${parts.join('; ')}`;
}

/**
 * POST /api/Reservation/download: Reservations.xlsx, every booking the list's filter matches (up to
 * RESERVATION_DOWNLOAD_MAX) in the list's order, in the reader's language, with real number and
 * date cells, the footer's sums above the table, and no text a spreadsheet could run as a formula.
 */
export async function reservationsWorkbook(app: FastifyInstance, f: TReservationDownload, t: T, culture: TCulture): Promise<Download> {
  // The count, the sums and the bookings' numbers in the list's order first; the rows a page at a time as the file is written.
  const found = await findReservations(app, { ...f, perPage: RESERVATION_DOWNLOAD_MAX, currentPage: 1 }, culture, 'ids');
  const ids = found.rows.map((r) => r.id as number);
  const tz = app.config.timeZone;
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const columns = columnsOf(t);
    const ws = exportSheet(wb, t('reservations.xlsx.sheet'), columns, 6);
    addTitle(ws, t('reservations.xlsx.title'), { shown: ids.length, matched: found.totalRows, t });
    ws.addRow([safeText(filterText(f, found.startDate, found.endDate, t, culture))]).commit();
    // Row 3: the footer's sums, each amount in its own column; row 4: when, and whether cancelled bookings count.
    const sums: (string | number | null)[] = columns.map((c) => (c.sum ? Number(found.sums[c.sum]) : null));
    sums[0] = t('reservations.ui.sums', { count: found.totalRows });
    addFigures(ws, sums);
    addIssued(ws, t('reservations.xlsx.issued'), tz, [null, found.sumsWithCancelled ? null : t('reservations.ui.sumsNoCancelled')]);
    return addColumnsTable(ws, columns, inPages(ids, (of) => reservationRows(app, of, t, culture) as Promise<TReservationRow[]>, (r) => r.id), signal);
  };
  return { write, filter: await inEveryLanguage(app, (tl, c) => filterText(f, found.startDate, found.endDate, tl, c)) };
}
