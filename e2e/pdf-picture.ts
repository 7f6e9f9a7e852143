import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * A PDF looked at as a picture (issue 47): a page rendered to PNG by poppler's `pdftoppm` and read
 * back by Tesseract OCR (Greek and English data), so a test can tell that the glyphs were really
 * drawn (not empty boxes or a wrong font's letters) where the text layer alone cannot. Debian:
 * `apt-get install poppler-utils tesseract-ocr tesseract-ocr-ell tesseract-ocr-rus` (.ci/run does).
 */
const run = promisify(execFile);
const HINT = 'install poppler-utils, tesseract-ocr and tesseract-ocr-ell (Debian; .ci/run installs them)';

async function tool(cmd: string, args: string[]): Promise<string> {
  try {
    // One thread: Tesseract's OpenMP threads spin against the suite's browsers on two cores (the
    // same page read in 16 s instead of 4.5 s, 7 s of CPU instead of 1.4 s; the same text).
    return (await run(cmd, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, OMP_THREAD_LIMIT: '1' } })).stdout;
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${HINT}): ${(e as Error).message}`);
  }
}

/** Renders one page of the PDF at `pdfPath` to `<stem>.png` at 100 dpi; returns the PNG's path. */
export async function renderPage(pdfPath: string, stem: string, page = 1): Promise<string> {
  await tool('pdftoppm', ['-png', '-r', '100', '-f', String(page), '-l', String(page), '-singlefile', pdfPath, stem]);
  return `${stem}.png`;
}

/** The text Tesseract reads in the picture (Greek and English by default). */
export function ocr(pngPath: string, langs = 'ell+eng'): Promise<string> {
  return tool('tesseract', [pngPath, '-', '-l', langs]);
}

// Capitals that look alike in Greek and Latin: OCR picks either script for them.
const LOOKALIKE: Record<string, string> = { Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X' };

/** Text as compared: no accents, capitals, Greek-Latin lookalikes as one letter, words of letters and digits. */
export function normalise(s: string): string {
  return s
    .normalize('NFKD') // also µ (micro sign, which OCR likes) to μ
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ]/g, (c) => LOOKALIKE[c]!)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The fewest edits (insert, delete, change a letter) that turn `a` into `b`. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Edits forgiven in a word: none in a number (a reference must be read exactly) or up to 3 letters, one up to 7, then two. */
const slack = (word: string) => (/\p{N}/u.test(word) || word.length <= 3 ? 0 : word.length <= 7 ? 1 : 2);

/** Whether one of the OCR's words (or two neighbours run together, as OCR splits a word) is the word, allowing OCR's slips. */
function holds(words: string[], word: string): boolean {
  const most = slack(word);
  return words.some((w, i) => distance(word, w) <= most || (i + 1 < words.length && distance(word, w + words[i + 1]) <= most));
}

/**
 * The expected texts the OCR text does not read back: a text counts as read when at least two
 * thirds of its words (rounded up) are found, each allowing OCR's usual slips. Empty when all are read.
 */
export function unread(ocrText: string, expected: string[]): string[] {
  const seen = normalise(ocrText).split(' ');
  return expected.filter((e) => {
    const words = normalise(e).split(' ').filter(Boolean);
    const found = words.filter((w) => holds(seen, w)).length;
    return words.length === 0 || found < Math.ceil((words.length * 2) / 3);
  });
}
