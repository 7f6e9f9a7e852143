import zlib from 'node:zlib';
import { PassThrough, Transform, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';

/**
 * The spreadsheet library, loaded with the first workbook rather than with the app: it is the
 * heaviest module the server uses (about a second to import on a busy 2-core machine), and only the
 * statement download and the settings' workbooks need it.
 */
let loaded: Promise<typeof ExcelJS> | undefined;
export function loadExcel(): Promise<typeof ExcelJS> {
  return (loaded ??= import('exceljs').then((m) => m.default));
}

/**
 * A worksheet's name from a text the office may have written (the sheets' names are interface
 * texts): a spreadsheet program refuses a name with \ / ? * [ ] or :, one that starts or ends with
 * an apostrophe, "History", an empty one or one of more than 31 characters (Excel "repairs" such a
 * file, and the spreadsheet library refuses to write or read it). Slashes become hyphens, the other
 * characters spaces, and a long one is cut to 31 between letters as they show; `fallback` when
 * nothing is left.
 */
export function sheetName(text: string, fallback = 'Sheet1'): string {
  // eslint-disable-next-line no-control-regex
  const clean = (s: string) => s.replace(/[\\/]/g, '-').replace(/[\u0000-\u001f\u007f?*[\]:]/g, ' ').replace(/\s+/g, ' ').replace(/^[\s']+|[\s']+$/g, '');
  let name = clean(text);
  if (name.length > 31) {
    // Cut between the letters as they show (an emoji of several, a flag, a letter and its accent stay whole).
    let cut = '';
    for (const { segment } of new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(name)) {
      if (cut.length + segment.length > 31) break;
      cut += segment;
    }
    name = clean(cut);
  }
  return name && name.toLowerCase() !== 'history' ? name : fallback;
}

/**
 * What a zip file (an .xlsx is one) unpacks to, in bytes, counted by unpacking it, each entry with a
 * bound of what is left of `max`: more than `max` as soon as it is known (never unpacking more than
 * `max` + 1 bytes), undefined when it is no zip this can read. A workbook of a few hundred kilobytes
 * can unpack to gigabytes (a "zip bomb"), which the spreadsheet library would hold in memory: a
 * caller checks this first.
 *
 * What the archive says of itself is not believed: its entry count (the spreadsheet library reads
 * every entry its directory holds, whatever the count says) nor its sizes (it checks those only after
 * unpacking). The directory is walked entry by entry up to its end, and every entry is unpacked.
 */
export function zipUnpackedSize(zip: Buffer, max: number): number | undefined {
  const END = 0x06054b50;
  const ENTRY = 0x02014b50;
  const LOCAL = 0x04034b50;
  // The end record is in the last 22 bytes, or before a comment of up to 65,535 bytes.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  let at = zip.readUInt32LE(end + 16);
  let total = 0;
  let entries = 0;
  while (at + 46 <= zip.length && zip.readUInt32LE(at) === ENTRY) {
    if (++entries > 10_000) return Number.POSITIVE_INFINITY;
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const local = zip.readUInt32LE(at + 42);
    // ZIP64 sizes or offsets: 4 GB or more, no workbook of texts.
    if (packed === 0xffffffff || local === 0xffffffff || zip.readUInt32LE(at + 24) === 0xffffffff) return Number.POSITIVE_INFINITY;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL) return undefined;
    const from = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (from + packed > zip.length) return undefined;
    const data = zip.subarray(from, from + packed);
    if (method === 0) total += packed;
    else if (method === 8) {
      try {
        total += zlib.inflateRawSync(data, { maxOutputLength: max - total + 1 }).length;
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return max + 1;
        return undefined;
      }
    } else return undefined;
    if (total > max) return total;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  if (entries === 0) return undefined;
  return total;
}

/** Euro with two decimals; Excel shows the reader's own separators ("1.234,50 €" in Greek). */
export const EURO_FORMAT = '#,##0.00 "€";-#,##0.00 "€"';
export const DATE_TIME_FORMAT = 'dd/mm/yyyy hh:mm';
export const DATE_FORMAT = 'dd/mm/yyyy';

/**
 * Text that a spreadsheet could read as a formula (= + @, a minus sign against what follows, or a tab
 * or carriage return first) is stored with a leading apostrophe, so it shows as the text it is and
 * never runs. A dash and a space ("- broken air conditioner", how notes are written) is no formula
 * and is kept as typed: the apostrophe would show in the cell; so is a phone number with its "+".
 */
export function safeText(s: string | null | undefined): string {
  if (!s) return '';
  // A phone number as people write it ("+30 697 000 1122", "+30 (2310) 123-456") runs nothing: kept.
  if (/^\+[\d\s().\-/]+$/.test(s)) return s;
  return /^(?:[=+@\t\r]|-(?!\s))/.test(s) ? `'${s}` : s;
}

/** A text cell, or an empty cell (not an empty text, which a spreadsheet's filter counts as a value). */
export const textCell = (s: string | null | undefined) => (s ? safeText(s) : null);

/** A local "YYYY-MM-DD[THH:mm:ss]" as the Date a spreadsheet shows as that wall-clock time. */
export const cellDate = (s: string | null | undefined) => (s ? new Date(`${s.length === 10 ? `${s}T00:00:00` : s}Z`) : null);
/** An exact decimal text (or a number) as a number cell (two decimals always survive a double). */
export const cellMoney = (s: string | number | null | undefined) => (s === null || s === undefined ? null : Number(s));

/** Rows written between two turns of the server's other requests (about 10 ms of work). */
export const ROWS_PER_TURN = 500;

/** The style of a cell whose column has none: one object for all, so the writer looks it up once. */
const NO_STYLE: Partial<ExcelJS.Style> = Object.freeze({}) as Partial<ExcelJS.Style>;

/**
 * The table's rows, each written (committed) as it is added, ROWS_PER_TURN at a time: between two
 * slices the server answers its other requests. Written in one go, 100,000 deals held every other
 * request (and the health check) for about five seconds. `rows` is a list, or pages of one read as
 * they are written (only one page in memory). Each cell takes its column's style object itself
 * (the spreadsheet library otherwise gives every cell a copy of its own, which it then looks up
 * and writes out again: most of a large file's work and garbage). Answers the rows written; stops
 * at the next turn once `signal` is aborted.
 */
export async function addRows<R>(ws: ExcelJS.Worksheet, rows: readonly R[] | AsyncIterable<readonly R[]>, cells: (row: R) => ExcelJS.CellValue[], signal?: AbortSignal): Promise<number> {
  const styles: Partial<ExcelJS.Style>[] = [];
  const styleOf = (col: number) => {
    const own = ws.getColumn(col).style;
    return (styles[col] ??= own && Object.keys(own).length ? own : NO_STYLE);
  };
  let n = 0;
  const pages = Array.isArray(rows) ? [rows as readonly R[]] : (rows as AsyncIterable<readonly R[]>);
  for await (const page of pages) {
    for (const r of page) {
      const row = ws.addRow(cells(r));
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cell.style = styleOf(col);
      });
      row.commit();
      if (++n % ROWS_PER_TURN === 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
      }
    }
  }
  return n;
}

/**
 * A workbook written by the streaming writer (rows are written as they are added, with the column
 * styles shared: a 2,000-row statement is written in about half the time of the in-memory
 * workbook), and the file it made.
 */
export async function streamedWorkbook(write: (wb: ExcelJS.stream.xlsx.WorkbookWriter) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  // The writer's commit resolves when the zip is written to `out`, not when `out` has handed over
  // its last chunk: the file is whole only once `out` ends.
  const ended = new Promise<void>((resolve, reject) => {
    out.once('end', resolve);
    out.once('error', reject);
  });
  const wb = new (await loadExcel()).stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  wb.creator = 'Agency CRM';
  wb.created = new Date();
  await write(wb);
  await wb.commit();
  await ended;
  return Buffer.concat(chunks);
}

/**
 * A workbook written by the streaming writer straight into the stream answered, to be sent as it is
 * written (a large list's file is never held whole in memory). `finished` runs once the whole file
 * is written and before the stream ends (the action log's row: a reader who has the whole file is on
 * the record); when writing fails, or the reader goes, the stream is destroyed and `finished` never
 * runs. `write` gets a signal aborted when the stream is gone before its end.
 */
export function workbookStream(write: (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => Promise<void>, finished: () => Promise<void>): Readable {
  const gone = new AbortController();
  const out = new Transform({
    transform: (chunk, _encoding, done) => done(null, chunk),
    flush: (done) => void finished().then(() => done(), done),
  });
  out.once('close', () => gone.abort());
  void (async () => {
    const wb = new (await loadExcel()).stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    wb.creator = 'Agency CRM';
    wb.created = new Date();
    await write(wb, gone.signal);
    await wb.commit();
  })().catch((e: unknown) => {
    if (!out.destroyed) out.destroy(e instanceof Error ? e : new Error(String(e)));
  });
  return out;
}

/**
 * When an export holds fewer rows than matched (its limit), says so beside its title (row 1, column D):
 * the totals above the table count every match, the rows below do not.
 */
export function noteTruncated(title: ExcelJS.Row, shown: number, matched: number, t: (key: string, params?: Record<string, string | number>) => string) {
  if (matched <= shown) return;
  const group = (n: number) => n.toLocaleString('en-US').replace(/,/g, '\u00a0');
  const cell = title.getCell(4);
  cell.value = t('common.xlsx.truncated', { shown: group(shown), count: group(matched) });
  cell.font = { bold: true, color: { argb: 'FFC92A2A' } };
}

/**
 * The table under an export's head lines: the column heads (bold, underlined, texts whatever their
 * column's format) with the spreadsheet's filter on them, then the rows, written in slices (a list,
 * or pages read as they are written). Answers the rows written.
 */
export async function addTable<R>(ws: ExcelJS.Worksheet, heads: string[], rows: readonly R[] | AsyncIterable<readonly R[]>, cells: (row: R) => ExcelJS.CellValue[], signal?: AbortSignal): Promise<number> {
  const header = ws.addRow(heads);
  header.font = { bold: true };
  header.eachCell((c) => {
    c.border = { bottom: { style: 'thin' } };
    c.numFmt = 'General';
  });
  header.commit();
  ws.autoFilter = { from: { row: header.number, column: 1 }, to: { row: header.number, column: heads.length } };
  return addRows(ws, rows, cells, signal);
}

/** A column of an export: its head, width and style, and what each row's cell holds. */
export type SheetColumn<R> = { head: string; width: number; style?: Partial<ExcelJS.Style>; cell: (row: R) => ExcelJS.CellValue };

/**
 * An export's worksheet: named from an interface text, its head lines (the first `frozen` rows)
 * frozen above the table, each column as wide as said and styled as its cells are (money, dates).
 */
export function exportSheet(wb: ExcelJS.stream.xlsx.WorkbookWriter, name: string, columns: readonly { width: number; style?: Partial<ExcelJS.Style> }[], frozen: number): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(sheetName(name), { views: [{ state: 'frozen', ySplit: frozen }] });
  ws.columns = columns.map((c, i) => ({ key: String(i), width: c.width, ...(c.style ? { style: c.style } : {}) }));
  return ws;
}

/** Row 1: the export's title (bold, large); with `cut`, the note that the file holds fewer rows than matched. */
export function addTitle(ws: ExcelJS.Worksheet, text: string, cut?: { shown: number; matched: number; t: (key: string, params?: Record<string, string | number>) => string }): void {
  const title = ws.addRow([text]);
  title.font = { bold: true, size: 14 };
  if (cut) noteTruncated(title, cut.shown, cut.matched, cut.t);
  title.commit();
}

/**
 * The head line that says when the file was made: the label, the agency's date and time, then
 * `more` from column 3 on (a text in the General format, an amount in euro). An empty row follows.
 */
export function addIssued(ws: ExcelJS.Worksheet, label: string, timeZone: string, more: (string | number | null)[] = []): void {
  const row = ws.addRow([label, cellDate(new Date().toLocaleString('sv-SE', { timeZone }).replace(' ', 'T')), ...more]);
  row.getCell(1).numFmt = 'General';
  row.getCell(2).numFmt = DATE_TIME_FORMAT;
  more.forEach((v, i) => {
    if (typeof v === 'string') row.getCell(3 + i).numFmt = 'General';
    else if (typeof v === 'number') row.getCell(3 + i).numFmt = EURO_FORMAT;
  });
  row.commit();
  ws.addRow([]).commit();
}

/** The export's table (addTable) with the columns' heads and cells, then the sheet closed; answers the rows written. */
export async function addColumnsTable<R>(ws: ExcelJS.Worksheet, columns: readonly SheetColumn<R>[], rows: readonly R[] | AsyncIterable<readonly R[]>, signal?: AbortSignal): Promise<number> {
  const n = await addTable(
    ws,
    columns.map((c) => c.head),
    rows,
    (r) => columns.map((c) => c.cell(r)),
    signal,
  );
  ws.commit();
  return n;
}

/** A head line of figures (bold): a text in the General format, an amount in euro, whatever the column's format. */
export function addFigures(ws: ExcelJS.Worksheet, cells: (string | number | null)[]): void {
  const row = ws.addRow(cells);
  row.font = { bold: true };
  cells.forEach((v, i) => {
    if (typeof v === 'string') row.getCell(1 + i).numFmt = 'General';
    else if (typeof v === 'number') row.getCell(1 + i).numFmt = EURO_FORMAT;
  });
  row.commit();
}
