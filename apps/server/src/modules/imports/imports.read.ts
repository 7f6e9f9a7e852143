import { IMPORT_COLUMNS_MAX, IMPORT_ROWS_MAX } from '@crm/contract';
import { AppError, badRequest } from '../../lib/errors.ts';
import { loadExcel, zipUnpackedSize } from '../../lib/excel.ts';

/** A spreadsheet as text: the first row's headers and the other rows' cells (blank rows left out). */
export type SheetText = { headers: string[]; cells: string[][] };

/** What an .xlsx may unpack to: 5,000 rows of 40 columns are some tens of megabytes of XML. */
const XLSX_UNPACKED_MAX = 200 * 1024 * 1024;

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
 * A CSV file's text: UTF-8 (with or without its byte order mark) when it is valid UTF-8, else
 * Windows-1253, which is what Greek Excel saves "CSV" as. A file with NUL bytes is no text.
 */
export function decodeCsv(buffer: Buffer): string {
  if (buffer.includes(0)) throw badRequest('imports.notASpreadsheet');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buffer);
  } catch {
    return new TextDecoder('windows-1253').decode(buffer);
  }
}

/** The separator of a CSV text: of ';', ',' and tab, the one the first line has most of outside quotes. */
export function csvSeparator(text: string): string {
  const counts: Record<string, number> = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch]!++;
  }
  const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > 0 ? best[0] : ',';
}

/** The rows of a CSV text (RFC 4180: quoted fields may hold separators, quotes doubled, line breaks). */
export function parseCsv(text: string, sep = csvSeparator(text)): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === sep) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The headers and rows of a table of texts: blank rows left out, columns up to the last header or value. */
function toSheet(rows: string[][]): SheetText {
  const clean = rows.map((r) => r.map((c) => c.replace(/\u00a0/g, ' ').trim()));
  const nonBlank = clean.filter((r) => r.some((c) => c !== ''));
  const [head, ...body] = nonBlank;
  if (!head) throw badRequest('imports.empty');
  const width = Math.max(...nonBlank.map((r) => r.length - [...r].reverse().findIndex((c) => c !== '')));
  if (width > IMPORT_COLUMNS_MAX) throw badRequest('imports.tooManyColumns', { max: IMPORT_COLUMNS_MAX });
  if (body.length > IMPORT_ROWS_MAX) throw badRequest('imports.tooManyRows', { max: IMPORT_ROWS_MAX });
  if (!body.length) throw badRequest('imports.noRows');
  const fit = (r: string[]) => Array.from({ length: width }, (_, i) => r[i] ?? '');
  return { headers: fit(head), cells: body.map(fit) };
}

/** An uploaded .xlsx or .csv as text, or a 400/413 the reader understands. */
export async function readSpreadsheet(buffer: Buffer): Promise<SheetText> {
  if (!buffer.length) throw badRequest('files.noFiles');
  if (buffer.subarray(0, 4).toString('latin1') === 'PK\x03\x04') {
    const unpacked = zipUnpackedSize(buffer, XLSX_UNPACKED_MAX);
    if (unpacked === undefined) throw badRequest('imports.notASpreadsheet');
    if (unpacked > XLSX_UNPACKED_MAX) throw new AppError(413, 'imports.unpackedTooLarge', { max: XLSX_UNPACKED_MAX / (1024 * 1024) });
    const wb = new (await loadExcel()).Workbook();
    try {
      await wb.xlsx.load(buffer as unknown as ArrayBuffer);
    } catch {
      throw badRequest('imports.notASpreadsheet');
    }
    const ws = wb.worksheets.find((w) => w.actualRowCount > 0) ?? wb.worksheets[0];
    if (!ws) throw badRequest('imports.empty');
    if (ws.rowCount > IMPORT_ROWS_MAX + 1) throw badRequest('imports.tooManyRows', { max: IMPORT_ROWS_MAX });
    const rows: string[][] = [];
    ws.eachRow({ includeEmpty: false }, (row) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        if (col <= IMPORT_COLUMNS_MAX + 1) cells[col - 1] = xlsxCellText(cell.value);
      });
      rows.push(Array.from(cells, (c) => c ?? ''));
    });
    return toSheet(rows);
  }
  // An old .xls (OLE2) or another binary file.
  if (buffer.subarray(0, 4).toString('hex') === 'd0cf11e0') throw badRequest('imports.oldExcel');
  return toSheet(parseCsv(decodeCsv(buffer)));
}
