import fs from 'node:fs';

/**
 * Upload allow-list, decided by content (magic bytes and container structure), never by the
 * client's declared type or the file's extension. Anything not recognised here is refused.
 */
export type DetectedType = { mime: string; ext: string };

/** Types shown in the browser (inline); everything else is downloaded (attachment). */
export const INLINE_MIMES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
  'application/pdf',
]);

/** XML-family types are accepted but always served as a neutral download. */
export const ATTACHMENT_ONLY_MIMES = new Set(['application/xml', 'application/xhtml+xml']);

const HEAD_BYTES = 8192;

const ascii = (b: Buffer, start: number, end: number) => b.toString('latin1', start, Math.min(end, b.length));
const startsWith = (b: Buffer, bytes: number[], at = 0) => b.length >= at + bytes.length && bytes.every((v, i) => b[at + i] === v);

type Reader = { size: number; read: (position: number, length: number) => Promise<Buffer> };

async function openReader(filePath: string): Promise<{ reader: Reader; close: () => Promise<void> }> {
  const fh = await fs.promises.open(filePath, 'r');
  const { size } = await fh.stat();
  const reader: Reader = {
    size,
    read: async (position, length) => {
      const len = Math.max(0, Math.min(length, size - position));
      const buf = Buffer.alloc(len);
      if (len === 0) return buf;
      const { bytesRead } = await fh.read(buf, 0, len, position);
      return buf.subarray(0, bytesRead);
    },
  };
  return { reader, close: () => fh.close() };
}

/** The type of the file at `filePath`, or null when it is not on the allow-list. */
export async function detectFileType(filePath: string, userName: string): Promise<DetectedType | null> {
  const { reader, close } = await openReader(filePath);
  try {
    const head = await reader.read(0, HEAD_BYTES);
    const binary = await detectBinary(head, reader, userName);
    if (binary !== undefined) return binary;
    return await detectText(filePath, head, userName);
  } finally {
    await close();
  }
}

const extOf = (name: string) => /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** undefined: not a known binary signature (may still be text); null: known but refused. */
async function detectBinary(h: Buffer, reader: Reader, userName: string): Promise<DetectedType | null | undefined> {
  // images
  if (startsWith(h, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png' };
  if (ascii(h, 0, 6) === 'GIF87a' || ascii(h, 0, 6) === 'GIF89a') return { mime: 'image/gif', ext: 'gif' };
  if (ascii(h, 0, 2) === 'BM' && h.length >= 18 && [12, 40, 52, 56, 64, 108, 124].includes(h.readUInt32LE(14))) {
    return { mime: 'image/bmp', ext: 'bmp' };
  }
  if (startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a])) return { mime: 'image/tiff', ext: 'tif' };

  // RIFF containers: WebP, WAV, AVI
  if (ascii(h, 0, 4) === 'RIFF' && h.length >= 12) {
    const form = ascii(h, 8, 12);
    if (form === 'WEBP') return { mime: 'image/webp', ext: 'webp' };
    if (form === 'WAVE') return { mime: 'audio/wav', ext: 'wav' };
    if (form === 'AVI ') return { mime: 'video/x-msvideo', ext: 'avi' };
    return null;
  }
  // ISO base media (MP4, MOV, M4A, HEIC/HEIF, AVIF, 3GP)
  if (h.length >= 12 && ascii(h, 4, 8) === 'ftyp') return detectFtyp(h);
  if (h.length >= 8 && ['moov', 'mdat', 'wide', 'pnot'].includes(ascii(h, 4, 8))) return { mime: 'video/quicktime', ext: 'mov' };
  // Matroska / WebM
  if (startsWith(h, [0x1a, 0x45, 0xdf, 0xa3])) {
    const s = ascii(h, 0, 4096);
    if (s.includes('webm')) return { mime: 'video/webm', ext: 'webm' };
    if (s.includes('matroska')) return { mime: 'video/x-matroska', ext: 'mkv' };
    return null;
  }
  // audio
  if (ascii(h, 0, 3) === 'ID3') return { mime: 'audio/mpeg', ext: 'mp3' };
  if (ascii(h, 0, 4) === 'OggS') return ascii(h, 0, 512).includes('theora') ? { mime: 'video/ogg', ext: 'ogv' } : { mime: 'audio/ogg', ext: 'ogg' };
  if (ascii(h, 0, 4) === 'fLaC') return { mime: 'audio/flac', ext: 'flac' };
  if (ascii(h, 0, 4) === 'FORM' && ['AIFF', 'AIFC'].includes(ascii(h, 8, 12))) return { mime: 'audio/aiff', ext: 'aiff' };
  if (h.length >= 4 && h[0] === 0xff && (h[1]! & 0xe0) === 0xe0) {
    const version = (h[1]! >> 3) & 3;
    const layer = (h[1]! >> 1) & 3;
    const bitrate = h[2]! >> 4;
    const rate = (h[2]! >> 2) & 3;
    if (layer === 0 && (h[1]! & 0xf6) === 0xf0) return { mime: 'audio/aac', ext: 'aac' };
    if (version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3) return { mime: 'audio/mpeg', ext: 'mp3' };
  }

  // documents
  if (ascii(h, 0, 5) === '%PDF-') return { mime: 'application/pdf', ext: 'pdf' };
  if (ascii(h, 0, 5) === '{\\rtf') return { mime: 'application/rtf', ext: 'rtf' };
  if (startsWith(h, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return detectCompoundFile(reader, userName);

  // archives (and the zip-based office formats)
  if (ascii(h, 0, 4) === 'PK\x03\x04' || ascii(h, 0, 4) === 'PK\x05\x06') return detectZip(reader);
  if (ascii(h, 0, 6) === 'Rar!\x1a\x07') return { mime: 'application/vnd.rar', ext: 'rar' };
  if (startsWith(h, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return { mime: 'application/x-7z-compressed', ext: '7z' };

  return undefined;
}

function detectFtyp(h: Buffer): DetectedType | null {
  const boxSize = h.readUInt32BE(0);
  const major = ascii(h, 8, 12);
  const brands = [major];
  for (let i = 16; i + 4 <= Math.min(boxSize, h.length, 256); i += 4) brands.push(ascii(h, i, i + 4));
  const has = (...b: string[]) => brands.some((x) => b.includes(x));
  if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'].includes(major)) return { mime: 'image/heic', ext: 'heic' };
  if (['avif', 'avis'].includes(major)) return { mime: 'image/avif', ext: 'avif' };
  if (['mif1', 'msf1'].includes(major)) {
    if (has('avif')) return { mime: 'image/avif', ext: 'avif' };
    return has('heic', 'heix', 'hevc', 'hevx') ? { mime: 'image/heic', ext: 'heic' } : { mime: 'image/heif', ext: 'heif' };
  }
  if (major === 'qt  ') return { mime: 'video/quicktime', ext: 'mov' };
  if (['M4A ', 'M4B ', 'M4P '].includes(major)) return { mime: 'audio/mp4', ext: 'm4a' };
  if (major.startsWith('3g')) return { mime: 'video/3gpp', ext: '3gp' };
  if (has('isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'dash', 'mmp4', 'M4V ', 'M4VH', 'M4VP', 'MSNV', 'NDAS', 'F4V ', 'XAVC')) {
    return { mime: 'video/mp4', ext: 'mp4' };
  }
  return null;
}

/** OLE2 compound files: Word 97 .doc, Excel .xls, PowerPoint .ppt, Visio .vsd (not .msi, .msg ...). */
async function detectCompoundFile(reader: Reader, userName: string): Promise<DetectedType | null> {
  const names = await readCompoundNames(reader);
  if (!names) return null;
  if (names.has('WordDocument')) return { mime: 'application/msword', ext: 'doc' };
  if (names.has('Workbook') || names.has('Book')) return { mime: 'application/vnd.ms-excel', ext: 'xls' };
  if (names.has('PowerPoint Document')) return { mime: 'application/vnd.ms-powerpoint', ext: 'ppt' };
  if (names.has('VisioDocument')) return { mime: 'application/vnd.visio', ext: 'vsd' };
  // A password-protected OOXML document is a compound file wrapping the encrypted package.
  if (names.has('EncryptedPackage') && names.has('EncryptionInfo')) {
    const ext = extOf(userName);
    const ooxml: Record<string, string> = {
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    };
    if (ooxml[ext]) return { mime: ooxml[ext], ext };
  }
  return null;
}

const FREE = 0xfffffffa;

async function readCompoundNames(reader: Reader): Promise<Set<string> | null> {
  const header = await reader.read(0, 512);
  if (header.length < 512) return null;
  const shift = header.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return null;
  const sectorSize = 1 << shift;
  const perSector = sectorSize / 4;
  const offsetOf = (sector: number) => (sector + 1) * sectorSize;

  // The FAT's sectors: 109 listed in the header, the rest in the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) {
    const s = header.readUInt32LE(0x4c + i * 4);
    if (s < FREE) fatSectors.push(s);
  }
  let difat = header.readUInt32LE(0x44);
  for (let guard = 0; difat < FREE && guard < 10000; guard++) {
    const buf = await reader.read(offsetOf(difat), sectorSize);
    if (buf.length < sectorSize) break;
    for (let i = 0; i < perSector - 1; i++) {
      const s = buf.readUInt32LE(i * 4);
      if (s < FREE) fatSectors.push(s);
    }
    difat = buf.readUInt32LE((perSector - 1) * 4);
  }
  const fatCache = new Map<number, Buffer>();
  const next = async (sector: number): Promise<number> => {
    const idx = Math.floor(sector / perSector);
    const fatSector = fatSectors[idx];
    if (fatSector === undefined) return 0xfffffffe;
    let buf = fatCache.get(idx);
    if (!buf) {
      buf = await reader.read(offsetOf(fatSector), sectorSize);
      fatCache.set(idx, buf);
    }
    if (buf.length < sectorSize) return 0xfffffffe;
    return buf.readUInt32LE((sector % perSector) * 4);
  };

  const names = new Set<string>();
  let dir = header.readUInt32LE(0x30);
  const seen = new Set<number>();
  for (let guard = 0; dir < FREE && guard < 4096 && !seen.has(dir); guard++) {
    seen.add(dir);
    const buf = await reader.read(offsetOf(dir), sectorSize);
    if (buf.length < sectorSize) break;
    for (let e = 0; e < sectorSize / 128; e++) {
      const entry = buf.subarray(e * 128, e * 128 + 128);
      const len = entry.readUInt16LE(0x40);
      const kind = entry[0x42];
      if (len < 2 || len > 64 || !kind) continue;
      names.add(entry.toString('utf16le', 0, len - 2));
    }
    dir = await next(dir);
  }
  return names.size ? names : null;
}

const OOXML: [string, DetectedType][] = [
  ['word/document.xml', { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' }],
  ['xl/workbook.xml', { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx' }],
  ['xl/workbook.bin', { mime: 'application/vnd.ms-excel.sheet.binary.macroenabled.12', ext: 'xlsb' }],
  ['ppt/presentation.xml', { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: 'pptx' }],
  ['visio/document.xml', { mime: 'application/vnd.ms-visio.drawing', ext: 'vsdx' }],
];

const OPEN_DOCUMENT: Record<string, string> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'ott',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.spreadsheet-template': 'ots',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.presentation-template': 'otp',
};

type ZipEntry = { name: string; method: number; localOffset: number; compressedSize: number };

/** Zip archives, and the formats built on zip: OOXML (docx, xlsx, pptx, vsdx) and OpenDocument. */
async function detectZip(reader: Reader): Promise<DetectedType | null> {
  const entries = await readZipDirectory(reader);
  if (!entries) return null;
  const byName = new Map(entries.map((e) => [e.name, e]));
  const mimetype = byName.get('mimetype');
  if (mimetype && mimetype.method === 0 && mimetype.compressedSize < 200) {
    const local = await reader.read(mimetype.localOffset, 30);
    if (local.length === 30 && local.readUInt32LE(0) === 0x04034b50) {
      const dataAt = mimetype.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      const value = (await reader.read(dataAt, mimetype.compressedSize)).toString('latin1').trim();
      const ext = OPEN_DOCUMENT[value];
      if (ext) return { mime: value, ext };
    }
  }
  if (byName.has('[Content_Types].xml')) {
    for (const [part, type] of OOXML) if (byName.has(part)) return type;
  }
  return { mime: 'application/zip', ext: 'zip' };
}

async function readZipDirectory(reader: Reader): Promise<ZipEntry[] | null> {
  const tailLen = Math.min(reader.size, 65535 + 22);
  const tailStart = reader.size - tailLen;
  const tail = await reader.read(tailStart, tailLen);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || cdSize === 0xffffffff || count === 0xffff) {
    // ZIP64: the locator sits just before the end record.
    const loc = eocd - 20;
    if (loc < 0 || tail.readUInt32LE(loc) !== 0x07064b50) return null;
    const z64At = Number(tail.readBigUInt64LE(loc + 8));
    const z64 = await reader.read(z64At, 56);
    if (z64.length < 56 || z64.readUInt32LE(0) !== 0x06064b50) return null;
    count = Number(z64.readBigUInt64LE(32));
    cdSize = Number(z64.readBigUInt64LE(40));
    cdOffset = Number(z64.readBigUInt64LE(48));
  }
  if (count === 0) return [];
  if (cdOffset + cdSize > reader.size) return null;
  const cd = await reader.read(cdOffset, Math.min(cdSize, 8 * 1024 * 1024));
  const entries: ZipEntry[] = [];
  let p = 0;
  while (p + 46 <= cd.length && cd.readUInt32LE(p) === 0x02014b50 && entries.length < 20000) {
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    entries.push({
      name: cd.toString('utf8', p + 46, p + 46 + nameLen),
      method: cd.readUInt16LE(p + 10),
      compressedSize: cd.readUInt32LE(p + 20),
      localOffset: cd.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries.length ? entries : null;
}

// ---------------------------------------------------------------------------------------------
// Text: valid UTF-8 without NUL. XML and XHTML are accepted (served as downloads); HTML and SVG,
// which a browser would run, are refused.

const HTML_START = /^<(!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--|svg|object|embed|meta|link|form|img|frameset|frame)(\s|>|\/)/i;

async function detectText(filePath: string, head: Buffer, userName: string): Promise<DetectedType | null> {
  if (!(await isUtf8WithoutNul(filePath))) return null;
  let start = head.toString('utf8', 0, Math.min(head.length, 65536));
  if (start.charCodeAt(0) === 0xfeff) start = start.slice(1);
  const s = start.trimStart();
  const lower = s.slice(0, 8192).toLowerCase();
  const looksMarkup = s.startsWith('<');
  if (looksMarkup && (/<svg[\s>/]/.test(lower) || lower.includes('<!doctype svg') || lower.includes('http://www.w3.org/2000/svg'))) return null;
  if (looksMarkup && lower.includes('http://www.w3.org/1999/xhtml')) return { mime: 'application/xhtml+xml', ext: 'xhtml' };
  if (lower.startsWith('<?xml')) {
    if (/<(html|script)[\s>]/.test(lower)) return null;
    return { mime: 'application/xml', ext: 'xml' };
  }
  if (HTML_START.test(s)) return null;
  if (extOf(userName) === 'csv') return { mime: 'text/csv', ext: 'csv' };
  return { mime: 'text/plain', ext: 'txt' };
}

async function isUtf8WithoutNul(filePath: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of fs.createReadStream(filePath, { highWaterMark: 256 * 1024 })) {
      const buf = chunk as Buffer;
      if (buf.includes(0)) return false;
      decoder.decode(buf, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}
