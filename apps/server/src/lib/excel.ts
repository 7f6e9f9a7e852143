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
 * What a zip file (an .xlsx is one) says its entries unpack to, in bytes, read from its central
 * directory without unpacking anything; undefined when it has no readable directory. A workbook of
 * a few hundred kilobytes can unpack to gigabytes (a "zip bomb"), which the spreadsheet library
 * would hold in memory: a caller checks this first.
 */
export function zipUnpackedSize(zip: Buffer): number | undefined {
  const END = 0x06054b50;
  const ENTRY = 0x02014b50;
  // The end record is in the last 22 bytes, or before a comment of up to 65,535 bytes.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  const entries = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== ENTRY) return undefined;
    const unpacked = zip.readUInt32LE(at + 24);
    // 0xFFFFFFFF: the size is in a ZIP64 field, 4 GB or more.
    if (unpacked === 0xffffffff) return Number.POSITIVE_INFINITY;
    total += unpacked;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return total;
}
