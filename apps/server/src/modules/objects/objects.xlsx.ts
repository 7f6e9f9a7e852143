import type { FastifyInstance } from 'fastify';
import { and, inArray, sql } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { OBJECT_DOWNLOAD_MAX, type TCulture, type TObjectDownload } from '@crm/contract';
import { objects } from '../../db/schema/index.ts';
import { DATE_TIME_FORMAT, EURO_FORMAT, cellDate, cellMoney, safeText, textCell, addColumnsTable, addIssued, addTitle, exportSheet, type SheetColumn } from '../../lib/excel.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { inEveryLanguage, inPages, type Download } from '../../lib/downloads.ts';
import { countListed, notDraft } from '../../lib/drafts.ts';
import { fromObjects, placeText } from './objects.sql.ts';
import { OBJECT_COLUMNS, readColumns, type ColumnKind, type ReadRow } from './objects.columns.ts';
import { searchWhere } from './objects.lists.ts';
import type { Reader } from './objects.service.ts';

type Column = SheetColumn<ReadRow>;

/** The file's columns: every column of the property list (objects.columns.ts), each written as its kind says. */
function columnsOf(t: Reader['t'], timeZone: string): Column[] {
  return OBJECT_COLUMNS.map((c) => {
    const value = (r: ReadRow) => c.value(r, t);
    const cell: Record<ColumnKind, (r: ReadRow) => ExcelJS.CellValue> = {
      reference: (r) => `#${value(r) as string}`,
      text: (r) => textCell(value(r) as string | null),
      number: (r) => value(r) as number | null,
      money: (r) => cellMoney(value(r) as number | null),
      flag: (r) => (value(r) ? t('objects.xlsx.yes') : null),
      dateTime: (r) => cellDate(toLocalDateTime(value(r) as Date, timeZone)),
    };
    const style = c.kind === 'money' ? { numFmt: EURO_FORMAT } : c.kind === 'dateTime' ? { numFmt: DATE_TIME_FORMAT } : undefined;
    return { head: t(c.head), width: c.width, ...(style ? { style } : {}), cell: cell[c.kind] };
  });
}

/** Row 2: what the search's filters pick. */
function filterText(q: TObjectDownload, place: string | null, t: Reader['t']): string {
  const euro = (n: number) => `${Math.round(n).toLocaleString('en-US').replace(/,/g, '\u00a0')}\u00a0€`;
  const range = (label: string, min: number | null | undefined, max: number | null | undefined, unit: (n: number) => string) =>
    min != null || max != null ? `${label}: ${min != null ? unit(min) : '…'} – ${max != null ? unit(max) : '…'}` : null;
  const parts = [
    (['forSale', 'forRent', 'forShortRent'] as const).filter((k) => q[k]).map((k) => t(`fields.object.${k}`)).join(', ') || null,
    place ? `${t('objects.col.location')}: ${place}` : null,
    range(t('objects.xlsx.price'), q.priceMin, q.priceMax, euro),
    range(t('fields.object.area'), q.areaMin, q.areaMax, (n) => `${n} m²`),
    q.createdByText?.trim() ? `${t('objects.col.createdBy')}: ${q.createdByText.trim()}` : null,
  ].filter(Boolean);
  return `${t('objects.xlsx.filter')}: ${parts.length ? parts.join('; ') : t('objects.xlsx.all')}`;
}

/**
 * POST /api/object/download: Properties.xlsx, every property the search's filters match (up to
 * OBJECT_DOWNLOAD_MAX), newest first as the search lists them, in the reader's language, with real
 * number and date cells and no text a spreadsheet could run as a formula. Owners are named; their
 * phones and e-mails stay in the CRM (a list of properties is often passed on).
 */
export async function objectsWorkbook(app: FastifyInstance, q: TObjectDownload, reader: Reader): Promise<Download> {
  const where = await searchWhere(app.db, q);
  // The ids first, newest first (a number each), then the rows a page at a time as the file is written.
  const ids = (
    await fromObjects(app.db, { id: objects.id })
      .where(and(where, notDraft('objects', objects.id)))
      .orderBy(sql`${objects.createdOn} desc`, sql`${objects.id} desc`)
      .limit(OBJECT_DOWNLOAD_MAX)
  ).map((r) => (r as { id: number }).id);
  const page = (of: number[]) => fromObjects(app.db, { ...readColumns(OBJECT_COLUMNS, reader.culture), rowId: objects.id }).where(inArray(objects.id, of)) as unknown as Promise<ReadRow[]>;
  // At the limit, how many matched (said beside the title): counted only then.
  const matched = ids.length < OBJECT_DOWNLOAD_MAX ? ids.length : await countListed(app.db, 'objects', where);
  // The place picked, as each language names it (the file says it in the reader's, the log keeps all).
  const placeIn = async (culture: TCulture) =>
    q.locationId
      ? ((await app.db.execute<{ text: string }>(sql`select ${placeText(culture)} as text from locations opl left join locations oplp on oplp.id = opl.parent_id where opl.id = ${q.locationId}`)).rows[0]?.text ?? null)
      : null;
  const place = await placeIn(reader.culture);
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const cols = columnsOf(reader.t, reader.timeZone);
    const ws = exportSheet(wb, reader.t('objects.xlsx.sheet'), cols, 5);
    addTitle(ws, reader.t('objects.xlsx.title', { count: matched }), { shown: ids.length, matched, t: reader.t });
    ws.addRow([safeText(filterText(q, place, reader.t))]).commit();
    addIssued(ws, reader.t('objects.xlsx.issued'), reader.timeZone);
    return addColumnsTable(ws, cols, inPages(ids, page, (r) => r.rowId as number), signal);
  };
  return { write, filter: await inEveryLanguage(app, async (tl, c) => filterText(q, c === reader.culture ? place : await placeIn(c), tl)) };
}
