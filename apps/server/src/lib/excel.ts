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
