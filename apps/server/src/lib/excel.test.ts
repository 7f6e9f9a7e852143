import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { sheetName } from './excel.ts';

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
