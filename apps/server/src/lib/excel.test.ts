import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ROWS_PER_TURN, addRows, sheetName, streamedWorkbook, noteTruncated, safeText, textCell } from './excel.ts';

describe('a worksheet name from a text', () => {
  it('cut to 31 characters between letters as the reader sees them: never half an emoji, a flag or an accent', () => {
    expect(sheetName('Συναλλαγές πελάτη για το έτος 2026')).toBe('Συναλλαγές πελάτη για το έτος 2');
    expect(sheetName(`${'a'.repeat(30)}😀 list`)).toBe('a'.repeat(30));
    expect(sheetName(`${'a'.repeat(29)}👨‍👩‍👧 list`)).toBe('a'.repeat(29));
    expect(sheetName(`Πελάτες ${'🇬🇷'.repeat(20)}`)).toBe(`Πελάτες ${'🇬🇷'.repeat(5)}`);
    // Greek written with combining accents: the accent stays with its letter.
    const decomposed = 'Ε'.repeat(30) + 'α\u0301' + ' πελάτες';
    expect(sheetName(decomposed)).toBe('Ε'.repeat(30));
    for (const text of ['Συναλλαγές πελάτη για το έτος 2026', `${'a'.repeat(29)}👨‍👩‍👧 list`, `Πελάτες ${'🇬🇷'.repeat(20)}`]) {
      const name = sheetName(text);
      expect(name.length, text).toBeLessThanOrEqual(31);
      expect(name.normalize('NFC'), text).toBe(name);
      expect(new ExcelJS.Workbook().addWorksheet(name).name).toBe(name);
    }
  });
});

describe('a long export', () => {
  it('writes its rows a slice at a time, the server answering other requests between slices, and loses none', async () => {
    const rows = Array.from({ length: 4 * ROWS_PER_TURN + 7 }, (_, i) => i + 1);
    let written = 0;
    const seen: number[] = [];
    const file = await streamedWorkbook(async (wb) => {
      const ws = wb.addWorksheet('Rows');
      // Another request's turn, asked for before the rows are written: it comes after the first slice, not after them all.
      const other = new Promise<void>((resolve) => setImmediate(() => (seen.push(written), resolve())));
      await addRows(ws, rows, (n) => {
        written++;
        return [n, `row ${n}`];
      });
      await other;
      ws.commit();
    });
    expect(seen).toEqual([ROWS_PER_TURN]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as never);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(rows.length);
    expect([ws.getRow(1).getCell(2).value, ws.getRow(rows.length).getCell(1).value]).toEqual(['row 1', rows.length]);
  });
});

describe('an export cut at its limit', () => {
  it('says beside its title how many of how many it holds, and nothing when it holds them all', () => {
    const ws = new ExcelJS.Workbook().addWorksheet('x');
    const t = (key: string, p?: Record<string, string | number>) => `${key}:${p?.shown}/${p?.count}`;
    const cut = ws.addRow(['Deals']);
    noteTruncated(cut, 100_000, 123_456, t);
    expect(cut.getCell(4).value).toBe('common.xlsx.truncated:100\u00a0000/123\u00a0456');
    const whole = ws.addRow(['Deals']);
    noteTruncated(whole, 12, 12, t);
    expect(whole.getCell(4).value ?? null).toBeNull();
  });
});

describe('text written to a spreadsheet cell', () => {
  it('cannot run as a formula', () => {
    for (const s of ['=HYPERLINK("http://evil")', '+1+cmd', '@SUM(A1)', '-2+3+cmd|\' /C calc\'!A0', '-1', '\t=1', '\r=1']) expect(safeText(s)).toBe(`'${s}`);
  });
  it('keeps what people write as they wrote it', () => {
    for (const s of ['- Χαλασμένο κλιματιστικό', '-\tσημείωση', 'Παπαδόπουλος', 'a=b', '2+2', '  =1', '+30 697 000 1122', '+30 (2310) 123-456']) expect(safeText(s)).toBe(s);
    for (const s of ['+1+2', '+30 697 cmd']) expect(safeText(s)).toBe(`'${s}`);
    expect(textCell('')).toBeNull();
    expect(textCell(null)).toBeNull();
  });
});
