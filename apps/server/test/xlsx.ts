import ExcelJS from 'exceljs';

/** A downloaded workbook (its bytes, or a reply whose body they are) as ExcelJS reads it. */
export async function workbookOf(file: Buffer | { rawPayload: Buffer }): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((Buffer.isBuffer(file) ? file : file.rawPayload) as never);
  return wb;
}
