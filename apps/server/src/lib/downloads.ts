import type { FastifyInstance } from 'fastify';
import type ExcelJS from 'exceljs';
import { CULTURES, type TCulture } from '@crm/contract';
import type { T } from './i18n.ts';


/** A text in each of the interface's languages: what the log shows in the reader's own. */
export type Texts = Record<TCulture, string>;

/**
 * A list's file written as it is sent: `write` adds the sheet to the workbook, reading its rows a
 * page at a time (never the whole list at once), and answers how many rows it wrote. `signal` is
 * aborted when the reader has gone: the writing stops at the next page.
 */
export type StreamedDownload = { write: (wb: ExcelJS.stream.xlsx.WorkbookWriter, signal: AbortSignal) => Promise<number>; filter?: Texts };

/** A list's file as made: the file, how many rows it holds, and its filter as its row 2 says it, in every language; or one written as it is sent. */
export type Download = { file: Buffer; rows: number; filter?: Texts } | StreamedDownload;

/**
 * A text written in each language by the same words the file uses (its filter line): the log keeps
 * all three, so whoever reads the log reads it in their own language, not in the downloader's.
 */
export async function inEveryLanguage(app: FastifyInstance, text: (t: T, culture: TCulture) => string | Promise<string>): Promise<Texts> {
  const out = {} as Texts;
  for (const culture of CULTURES) out[culture] = await text((key, params) => app.translator.t(culture, key, params), culture);
  return out;
}

/** Rows a large list's file reads at a time. */
export const PAGE_ROWS = 2000;

/**
 * A list's rows in the order of `ids` (read first, in the list's order: a number each), PAGE_ROWS at
 * a time: `read` reads the rows of one page of ids (in any order). Only one page of rows is held in
 * memory at once, whatever the list's sort; a row gone since its id was read is left out.
 */
export async function* inPages<R>(ids: readonly number[], read: (page: number[]) => Promise<R[]>, idOf: (r: R) => number): AsyncGenerator<R[]> {
  for (let i = 0; i < ids.length; i += PAGE_ROWS) {
    const page = ids.slice(i, i + PAGE_ROWS);
    const byId = new Map((await read(page)).map((r) => [idOf(r), r]));
    yield page.flatMap((id) => {
      const r = byId.get(id);
      return r === undefined ? [] : [r];
    });
  }
}
