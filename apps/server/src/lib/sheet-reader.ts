import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError } from './errors.ts';
import { WorkLimiter } from './work-limiter.ts';
import type { SheetLimits, SheetRow, SheetText } from './sheet-read.ts';

/**
 * Uploaded spreadsheets are read off the server's own thread (decision 056): in a worker thread with
 * a bound on its memory and its time, one file at a time, a few more waiting. Whatever the file
 * holds, the server goes on answering everybody else meanwhile.
 */
const MEMORY_MB = 384;
const TIME_LIMIT_MS = 60_000;
const reading = new WorkLimiter(1, 3);
const WORKER = path.join(import.meta.dirname, 'sheet-worker.mjs');

function readInWorker(file: string, limits: SheetLimits): Promise<SheetText | { rows: SheetRow[] }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: { file, limits },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: MEMORY_MB, maxYoungGenerationSizeMb: 48 },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(new AppError(413, 'imports.tooHeavy'))), TIME_LIMIT_MS);
    worker.on('message', (m: { sheet?: SheetText | { rows: SheetRow[] }; refused?: { status: number; code: string; params: Record<string, string | number> }; failed?: string }) => {
      if (m.sheet) settle(() => resolve(m.sheet!));
      else if (m.refused) settle(() => reject(new AppError(m.refused!.status, m.refused!.code, m.refused!.params)));
      else settle(() => reject(new Error(`reading a spreadsheet failed: ${m.failed}`)));
    });
    worker.on('error', (e: Error & { code?: string }) => {
      // Past its memory the worker is stopped by the engine: the file is too much to read.
      settle(() => reject(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new AppError(413, 'imports.tooHeavy') : e));
    });
    worker.on('exit', (code) => settle(() => reject(new Error(`the spreadsheet reader stopped (${code})`))));
  });
}

/** The table of an uploaded spreadsheet (its header row and the rows under it), read in a worker within `limits`. */
export async function readSheet(file: string, limits: SheetLimits & { shape?: 'table' }): Promise<SheetText>;
/** The non-blank rows of an uploaded spreadsheet, with their numbers in the sheet. */
export async function readSheet(file: string, limits: SheetLimits & { shape: 'rows' }): Promise<{ rows: SheetRow[] }>;
export async function readSheet(file: string, limits: SheetLimits): Promise<SheetText | { rows: SheetRow[] }> {
  const done = await reading.run(() => readInWorker(file, limits));
  if (!done) throw new AppError(429, 'imports.busy');
  return done.value;
}
