import fs from 'node:fs';
import { AppError, badRequest } from './errors.ts';
import { zipUnpackedSize } from './excel.ts';

/**
 * Reading a spreadsheet a person uploaded (an .xlsx or a CSV file), as it streams, within limits:
 * the reading stops at the first limit crossed (rows, columns, cells, a cell's length, what the
 * workbook unpacks to). This runs in a worker thread (sheet-reader.ts), never on the server's own.
 */

/** A spreadsheet as text: the first row's headers and the other rows' cells (blank rows left out). */
export type SheetText = { headers: string[]; cells: string[][] };

/** A row of the sheet as read: its number in the sheet (1 = the first) and its cells as text. */
export type SheetRow = { n: number; cells: string[] };

export type SheetLimits = {
  /** Rows under the header row (non-blank ones). */
  rowsMax: number;
  columnsMax: number;
  /** Non-empty cells of the whole sheet. */
  cellsMax: number;
  /** What an .xlsx may unpack to, in bytes. */
  unpackedMax: number;
  /** The longest text of one cell (Excel's own limit is 32,767 characters). */
  cellLengthMax: number;
  /** The 400 for a file that is no spreadsheet, for its reader's own message. */
  notASpreadsheet: string;
  /** Keeps the sheet's rows as they are (`rows`), or as headers and cells (`table`, the default). */
  shape?: 'table' | 'rows';
  /** How an .xlsx cell's value is read as text, or refused (an error's text key). */
  cellText?: 'value' | 'typed';
  /** The reader's own texts for a limit crossed, where it has them. */
  keys?: { tooManyRows?: string; unpackedTooLarge?: string; oldExcel?: string };
};

/** Excel's own limit of one cell's text. */
export const CELL_LENGTH_MAX = 32767;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** One cell of a workbook as the text a person would read in it (a date as YYYY-MM-DD, a number as written by JS). */
export function xlsxCellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value instanceof Date) {
    // The spreadsheet library gives a date cell as that day's midnight UTC.
    return Number.isNaN(value.getTime()) ? '' : `${value.getUTCFullYear()}-${pad2(value.getUTCMonth() + 1)}-${pad2(value.getUTCDate())}`;
  }
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text: string }[]).map((p) => p.text).join('');
    if ('result' in v) return xlsxCellText(v.result);
    if (typeof v.text === 'string') return v.text;
    if (v.text && typeof v.text === 'object') return xlsxCellText(v.text);
  }
  return '';
}

/**
 * A cell of a texts workbook: only what was typed is a text; a formula, an error, a date or a picture
 * is refused (its text key), since a text is typed, not computed.
 */
export function typedCellText(value: unknown): string | { error: string } {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return { error: 'settings.import.cellDate' };
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('formula' in v || 'sharedFormula' in v) return { error: 'settings.import.cellFormula' };
    if ('error' in v) return { error: 'settings.import.cellError' };
    if (Array.isArray(v.richText)) return (v.richText as { text: string }[]).map((p) => p.text).join('');
    if (typeof v.text === 'string') return v.text;
  }
  return { error: 'settings.import.cellUnknown' };
}

/** A cell refused as a typed text travels as text: the marker, then its text key. */
export const REFUSED_CELL = '\u0000refused:';

/**
 * Reads the rows of a CSV text as it comes, chunk by chunk (RFC 4180: quoted fields may hold
 * separators, doubled quotes, line breaks). The separator is the first line's most frequent of
 * ';', ',' and tab outside quotes (',' when it has none).
 */
export class CsvReader {
  private sep: string | undefined;
  private head = '';
  private row: string[] = [];
  private field = '';
  private quoted = false;
  private quoteSeen = false;
  private afterCR = false;

  constructor(
    private readonly onRow: (cells: string[]) => void,
    private readonly fieldMax = Number.POSITIVE_INFINITY,
    private readonly onLongField: () => never = () => {
      throw new Error('field too long');
    },
  ) {}

  push(text: string) {
    if (this.sep === undefined) {
      // Until the first line is whole, it is kept: its separators choose the separator.
      this.head += text;
      const sep = firstLineSeparator(this.head, false);
      if (sep === undefined) {
        if (this.head.length > this.fieldMax) this.onLongField();
        return;
      }
      this.sep = sep;
      text = this.head;
      this.head = '';
    }
    this.read(text);
  }

  end() {
    if (this.sep === undefined) {
      this.sep = firstLineSeparator(this.head, true)!;
      this.read(this.head);
      this.head = '';
    }
    if (this.quoteSeen) {
      this.quoteSeen = false;
      this.quoted = false;
    }
    if (this.field !== '' || this.row.length) {
      this.row.push(this.field);
      this.onRow(this.row);
    }
    this.row = [];
    this.field = '';
  }

  private read(text: string) {
    const sep = this.sep!;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (this.afterCR) {
        this.afterCR = false;
        if (ch === '\n') continue;
      }
      if (this.quoteSeen) {
        // A quote inside quotes: doubled, it is a quote of the text; otherwise the quotes end.
        this.quoteSeen = false;
        if (ch === '"') {
          this.add('"');
          continue;
        }
        this.quoted = false;
      }
      if (this.quoted) {
        if (ch === '"') this.quoteSeen = true;
        else this.add(ch);
      } else if (ch === '"' && this.field === '') this.quoted = true;
      else if (ch === sep) {
        this.row.push(this.field);
        this.field = '';
      } else if (ch === '\n' || ch === '\r') {
        this.row.push(this.field);
        this.onRow(this.row);
        this.row = [];
        this.field = '';
        if (ch === '\r') this.afterCR = true;
      } else this.add(ch);
    }
  }

  private add(ch: string) {
    this.field += ch;
    if (this.field.length > this.fieldMax) this.onLongField();
  }
}

/** The separator the first line of `text` has most of outside quotes; undefined while the line is not whole (unless `whole`). */
function firstLineSeparator(text: string, whole: boolean): string | undefined {
  const counts: Record<string, number> = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  let complete = whole;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      complete = true;
      break;
    } else if (!quoted && ch in counts) counts[ch]!++;
  }
  if (!complete) return undefined;
  const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > 0 ? best[0] : ',';
}

/** The rows of a whole CSV text. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  const reader = new CsvReader((r) => rows.push(r));
  reader.push(text);
  reader.end();
  return rows;
}

/**
 * Collects a sheet's rows as they are read, and stops the reading (throws) at the first limit
 * crossed: rows past `rowsMax` under the header (so at most rowsMax + 2 non-blank rows are ever
 * read), columns past `columnsMax`, non-empty cells past `cellsMax`.
 */
class RowCollector {
  readonly rows: SheetRow[] = [];
  width = 0;
  private cells = 0;

  constructor(private readonly limits: SheetLimits) {}

  add(n: number, raw: readonly (string | undefined)[]) {
    const trimmed = Array.from(raw, (c) => (c ?? '').replace(/\u00a0/g, ' ').trim());
    let last = trimmed.length - 1;
    while (last >= 0 && trimmed[last] === '') last--;
    if (last < 0) return;
    for (let i = 0; i <= last; i++) if (trimmed[i] !== '') this.cells++;
    // A table's cells are read as trimmed texts; a sheet's rows keep them as typed (a text's own spaces).
    const cells = this.limits.shape === 'rows' ? Array.from(raw, (c) => c ?? '') : trimmed;
    if (last + 1 > this.limits.columnsMax) throw badRequest('imports.tooManyColumns', { max: this.limits.columnsMax });
    if (this.rows.length > this.limits.rowsMax) throw badRequest(this.limits.keys?.tooManyRows ?? 'imports.tooManyRows', { max: this.limits.rowsMax });
    if (this.cells > this.limits.cellsMax) throw badRequest('imports.tooManyCells', { max: this.limits.cellsMax });
    this.width = Math.max(this.width, last + 1);
    cells.length = last + 1;
    this.rows.push({ n, cells });
  }

  /** The header and the rows under it, every row as wide as the widest. */
  table(): SheetText {
    const [head, ...body] = this.rows;
    if (!head) throw badRequest('imports.empty');
    if (!body.length) throw badRequest('imports.noRows');
    const fit = (r: string[]) => Array.from({ length: this.width }, (_, i) => r[i] ?? '');
    return { headers: fit(head.cells), cells: body.map((r) => fit(r.cells)) };
  }
}

/** The bytes of a file, as it streams, `size` at a time. */
async function* chunksOf(file: string): AsyncGenerator<Buffer> {
  const stream = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } finally {
    stream.destroy();
  }
}

/**
 * A CSV file's rows, decoded as UTF-8 (with or without its byte order mark) when it is valid UTF-8,
 * else as Windows-1253, which is what Greek Excel saves "CSV" as (then read a second time). A file
 * with NUL bytes is no text.
 */
async function readCsv(file: string, limits: SheetLimits): Promise<RowCollector> {
  const longCell = (): never => {
    throw badRequest('imports.cellTooLong', { max: limits.cellLengthMax });
  };
  const attempt = async (encoding: 'utf-8' | 'windows-1253') => {
    const collector = new RowCollector(limits);
    let n = 0;
    const reader = new CsvReader((cells) => collector.add(++n, cells), limits.cellLengthMax, longCell);
    const decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8', ignoreBOM: false });
    for await (const chunk of chunksOf(file)) {
      if (chunk.includes(0)) throw badRequest(limits.notASpreadsheet);
      reader.push(decoder.decode(chunk, { stream: true }));
    }
    reader.push(decoder.decode());
    reader.end();
    return collector;
  };
  try {
    return await attempt('utf-8');
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (e instanceof TypeError) return attempt('windows-1253');
    throw e;
  }
}

/**
 * An .xlsx file's first sheet that has anything in it, read as it streams. What the workbook unpacks
 * to is counted first (unpacking it with a bound, whatever its directory says): a workbook of a few
 * hundred kilobytes can unpack to gigabytes.
 */
async function readXlsx(file: string, limits: SheetLimits): Promise<RowCollector> {
  const unpacked = zipUnpackedSize(await fs.promises.readFile(file), limits.unpackedMax);
  if (unpacked === undefined) throw badRequest(limits.notASpreadsheet);
  if (unpacked > limits.unpackedMax) throw new AppError(413, limits.keys?.unpackedTooLarge ?? 'imports.unpackedTooLarge', { max: Math.round(limits.unpackedMax / (1024 * 1024)) });
  const ExcelJS = (await import('exceljs')).default;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  const text = limits.cellText === 'typed' ? (v: unknown) => {
    const t = typedCellText(v);
    return typeof t === 'string' ? t : `${REFUSED_CELL}${t.error}`;
  } : xlsxCellText;
  try {
    for await (const sheet of reader) {
      const collector = new RowCollector(limits);
      for await (const row of sheet) {
        const cells: string[] = [];
        row.eachCell({ includeEmpty: false }, (cell, col) => {
          if (col > limits.columnsMax + 1) throw badRequest('imports.tooManyColumns', { max: limits.columnsMax });
          cells[col - 1] = text(cell.value);
          if (cells[col - 1]!.length > limits.cellLengthMax) throw badRequest('imports.cellTooLong', { max: limits.cellLengthMax });
        });
        collector.add(row.number, cells);
      }
      if (collector.rows.length) return collector;
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw badRequest(limits.notASpreadsheet);
  }
  return new RowCollector(limits);
}

/** An uploaded .xlsx or .csv file, as the rows of its sheet, or a 400/413 its reader understands. */
export async function readSheetFile(file: string, limits: SheetLimits): Promise<SheetText | { rows: SheetRow[] }> {
  const fd = await fs.promises.open(file, 'r');
  const magic = Buffer.alloc(4);
  let size: number;
  try {
    size = (await fd.stat()).size;
    await fd.read(magic, 0, 4, 0);
  } finally {
    await fd.close();
  }
  if (!size) throw badRequest('files.noFiles');
  let collector: RowCollector;
  if (magic.toString('latin1') === 'PK\x03\x04') collector = await readXlsx(file, limits);
  // An old .xls (OLE2) or another binary file.
  else if (magic.toString('hex') === 'd0cf11e0') throw badRequest(limits.keys?.oldExcel ?? (limits.shape === 'rows' ? limits.notASpreadsheet : 'imports.oldExcel'));
  else if (limits.cellText === 'typed') throw badRequest(limits.notASpreadsheet);
  else collector = await readCsv(file, limits);
  return limits.shape === 'rows' ? { rows: collector.rows } : collector.table();
}
