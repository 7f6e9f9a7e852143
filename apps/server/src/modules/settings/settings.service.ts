import type { FastifyInstance, FastifyRequest } from 'fastify';
import type ExcelJS from 'exceljs';
import { addRows, sheetName } from '../../lib/excel.ts';
import { cursorPages } from '../../lib/cursor.ts';
import { dropScratch, readUploadForm } from '../../lib/upload-form.ts';
import { CELL_LENGTH_MAX, REFUSED_CELL, type SheetRow } from '../../lib/sheet-read.ts';
import { readSheet } from '../../lib/sheet-reader.ts';
import { sql } from 'drizzle-orm';
import { CULTURES, LOCALIZATION_COLUMNS, LOCALIZATION_IMPORT_MAX_BYTES, LOCALIZATION_IMPORT_MAX_ERRORS, isStorableText, type TCulture, type TLocalizationImportAnswer } from '@crm/contract';
import { localization } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { inEveryLanguage, type Download } from '../../lib/downloads.ts';

/**
 * What a texts workbook may unpack to: the shipped texts unpack to less than 1 MB. The spreadsheet
 * library holds some 15 times what it unpacks (a 5 MB file of 50 MB of cells took a gigabyte).
 */
const LOCALIZATION_UNPACKED_MAX = 10 * 1024 * 1024;

/** The longest interface text an import may bring. */
export const LOCALIZATION_TEXT_MAX = 4000;
/** Rows of a localization workbook at most. */
export const LOCALIZATION_ROWS_MAX = 50000;

/**
 * A cell that a spreadsheet program would run as a formula (= + - @, a tab or a carriage return
 * first) is written with a leading apostrophe, the usual neutral prefix; the import takes it off again.
 */
export function neutralizeCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
const unneutralize = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

/**
 * GET /api/LocalizationExport: every text key with its English, Greek and Russian text, written as
 * it is sent, the keys read a page at a time.
 */
export async function exportLocalization(app: FastifyInstance): Promise<Download> {
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const ws = wb.addWorksheet('Localization', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = LOCALIZATION_COLUMNS.map((c) => ({ key: c, width: c === 'key' ? 40 : 60 }));
    const head = ws.addRow([...LOCALIZATION_COLUMNS]);
    head.font = { bold: true };
    head.commit();
    const rows = cursorPages<{ key: string; en: string | null; el: string | null; ru: string | null }>(
      app.db,
      sql`select key, max(text) filter (where culture = 'en') as en, max(text) filter (where culture = 'el') as el, max(text) filter (where culture = 'ru') as ru
          from localization group by key order by key`,
    );
    const n = await addRows(ws, rows, (r) => [r.key, neutralizeCell(r.en ?? ''), neutralizeCell(r.el ?? ''), neutralizeCell(r.ru ?? '')], signal);
    ws.commit();
    return n;
  };
  return { write };
}

/** The {{placeholders}} of a text, sorted: a translation must keep them all. */
export const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort().join(',');

type CellRead = { text: string } | { error: string };
type RowError = { row: number; code: string; params?: Record<string, string | number> };

/**
 * POST /api/LocalizationExport: reads the workbook; when every row is right, replaces the texts
 * that differ (marked custom, so seeding leaves them alone) in one transaction, and the server's
 * and browsers' copies are renewed at once. Otherwise nothing changes and the answer lists the
 * wrong rows (at most LOCALIZATION_IMPORT_MAX_ERRORS) in the reader's language.
 */
export async function importLocalization(app: FastifyInstance, req: FastifyRequest, actor: Actor): Promise<TLocalizationImportAnswer> {
  const { files } = await readUploadForm(app, req, {
    fileMax: LOCALIZATION_IMPORT_MAX_BYTES,
    requestMax: LOCALIZATION_IMPORT_MAX_BYTES,
    maxFiles: 1,
    keepField: () => false,
    tooLarge: () => new AppError(413, 'settings.import.tooLarge'),
    tooMany: () => badRequest('settings.import.oneFile'),
  });
  const file = files[0];
  if (!file?.size) {
    await dropScratch(files);
    throw badRequest('files.noFiles');
  }
  let sheet: { rows: SheetRow[] };
  try {
    // Read off the server's thread, within bounds (lib/sheet-reader.ts): a texts workbook is a megabyte or so.
    sheet = await readSheet(file.tmp, {
      shape: 'rows',
      cellText: 'typed',
      rowsMax: LOCALIZATION_ROWS_MAX,
      columnsMax: 50,
      cellsMax: LOCALIZATION_ROWS_MAX * 50,
      unpackedMax: LOCALIZATION_UNPACKED_MAX,
      cellLengthMax: CELL_LENGTH_MAX,
      notASpreadsheet: 'settings.import.notXlsx',
      keys: { tooManyRows: 'settings.import.tooManyRows', unpackedTooLarge: 'settings.import.unpackedTooLarge' },
    });
  } finally {
    await dropScratch(files);
  }
  const cellOf = (cells: string[], i: number): CellRead => {
    const c = cells[i] ?? '';
    return c.startsWith(REFUSED_CELL) ? { error: c.slice(REFUSED_CELL.length) } : { text: c };
  };
  const [first, ...rest] = sheet.rows;
  const header = LOCALIZATION_COLUMNS.map((_, i) => (first?.n === 1 ? first.cells[i] ?? '' : '').toLowerCase());
  if (header.join() !== LOCALIZATION_COLUMNS.join()) throw badRequest('settings.import.header', { columns: LOCALIZATION_COLUMNS.join(', ') });

  const current = await app.db.select({ key: localization.key, culture: localization.culture, text: localization.text }).from(localization);
  const stored = new Map<string, string>();
  for (const r of current) stored.set(`${r.culture}\u0000${r.key}`, r.text);
  const knownKeys = new Set(current.map((r) => r.key));

  const errors: RowError[] = [];
  const seen = new Map<string, number>();
  const updates: { key: string; culture: TCulture; text: string }[] = [];
  let rows = 0;
  for (const { n, cells: row } of rest) {
    const cells = LOCALIZATION_COLUMNS.map((_, i) => cellOf(row, i));
    if (cells.every((c) => 'text' in c && c.text.trim() === '')) continue;
    rows++;
    const bad = cells.findIndex((c) => 'error' in c);
    if (bad >= 0) {
      errors.push({ row: n, code: (cells[bad] as { error: string }).error, params: { column: LOCALIZATION_COLUMNS[bad]! } });
      continue;
    }
    const [key, ...texts] = cells.map((c) => (c as { text: string }).text);
    const k = key!.trim();
    if (!k) {
      errors.push({ row: n, code: 'settings.import.noKey' });
      continue;
    }
    if (!knownKeys.has(k)) {
      errors.push({ row: n, code: 'settings.import.unknownKey', params: { key: k } });
      continue;
    }
    const first = seen.get(k);
    if (first !== undefined) {
      errors.push({ row: n, code: 'settings.import.duplicateKey', params: { key: k, first } });
      continue;
    }
    seen.set(k, n);
    const english = stored.get(`en\u0000${k}`) ?? '';
    CULTURES.forEach((culture, i) => {
      const raw = texts[i]!;
      // An empty cell leaves the text as it is: a workbook never blanks a text by accident.
      if (raw.trim() === '') return;
      const text = unneutralize(raw);
      if (!isStorableText(text)) return void errors.push({ row: n, code: 'settings.import.badCharacters', params: { column: culture } });
      if (text.length > LOCALIZATION_TEXT_MAX) return void errors.push({ row: n, code: 'settings.import.tooLong', params: { column: culture, max: LOCALIZATION_TEXT_MAX } });
      if (placeholders(text) !== placeholders(english)) {
        return void errors.push({ row: n, code: 'settings.import.placeholders', params: { column: culture, placeholders: placeholders(english).split(',').filter(Boolean).map((p) => `{{${p}}}`).join(' ') || '—' } });
      }
      if (stored.get(`${culture}\u0000${k}`) !== text) updates.push({ key: k, culture, text });
    });
  }
  if (errors.length) {
    const shown = errors.slice(0, LOCALIZATION_IMPORT_MAX_ERRORS);
    const fieldErrors: Record<string, { code: string; params?: Record<string, string | number> }[]> = {};
    for (const e of shown) (fieldErrors[`row ${e.row}`] ??= []).push({ code: e.code, params: e.params });
    if (errors.length > shown.length) fieldErrors.more = [{ code: 'settings.import.moreErrors', params: { n: errors.length - shown.length } }];
    throw new AppError(400, 'settings.import.refused', { count: errors.length }, fieldErrors);
  }
  if (updates.length) {
    await app.db.transaction(async (tx) => {
      for (const u of updates) {
        await tx
          .insert(localization)
          .values({ key: u.key, culture: u.culture, text: u.text, custom: true })
          .onConflictDoUpdate({ target: [localization.key, localization.culture], set: { text: u.text, custom: true, modifiedOn: sql`now()` } });
      }
      await logAction(tx, actor, {
        action: 'Import',
        entity: 'Localization',
        message: String(updates.length),
        data: { changed: updates.slice(0, 200).map((u) => ({ key: u.key, culture: u.culture, text: u.text })) },
      });
    });
    // The server's own texts (mails, error answers) at once; browsers see the new ETag of /api/Localization.
    await app.translator.load(app.db);
  }
  return { changed: updates.length, rows };
}

/** Russian in the account's language field, however it was typed. */
const RUSSIAN = sql`lower(coalesce(language, '')) ~ '^(ru|rus|russian|русский|ρωσικ)'`;

/**
 * GET /api/DataExport: the agency's mailing list, one address a row (an account with several
 * e-mails gives several rows), employees left out. `except=false`: accounts whose language is
 * Russian; `except=true`: every other account.
 */
export async function exportEmails(app: FastifyInstance, russianOnly: boolean, t: (key: string) => string): Promise<Download> {
  // Written as it is sent, the addresses read a page at a time (a large agency's list is some
  // hundred thousand rows).
  const write = async (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => {
    const ws = wb.addWorksheet(sheetName(t(russianOnly ? 'settings.export.sheetRussian' : 'settings.export.sheetOthers')));
    ws.columns = [
      { key: 'email', width: 40 },
      { key: 'name', width: 40 },
      { key: 'language', width: 16 },
    ];
    const head = ws.addRow([t('settings.export.email'), t('settings.export.name'), t('settings.export.language')]);
    head.font = { bold: true };
    head.commit();
    const rows = cursorPages<{ email: string; name: string | null; language: string | null }>(
      app.db,
      sql`select distinct on (lower(e.email)) e.email, a.display_name as name, a.language
          from accounts a cross join lateral unnest(a.emails) as e(email)
          where not a.is_employe and a.erased_on is null and e.email <> '' and ${russianOnly ? RUSSIAN : sql`not ${RUSSIAN}`}
          order by lower(e.email), a.id`,
    );
    const n = await addRows(ws, rows, (r) => [neutralizeCell(r.email.trim()), neutralizeCell(r.name ?? ''), neutralizeCell(r.language ?? '')], signal);
    ws.commit();
    return n;
  };
  // Its filter: which accounts, as the sheet is named.
  const which = russianOnly ? 'settings.export.sheetRussian' : 'settings.export.sheetOthers';
  return { write, filter: await inEveryLanguage(app, (tl) => tl(which)) };
}

