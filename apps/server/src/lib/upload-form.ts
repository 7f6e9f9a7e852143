import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest } from './errors.ts';
import { getIncomingDir } from '../storage/file-storage.ts';

/** A file part of a form, as received: a scratch file the caller removes (dropScratch) once used. */
export type ReceivedFile = { field: string; userName: string; tmp: string; size: number };

export type UploadFormOptions = {
  /** One file's limit in bytes (the multipart plugin's `fileSize` must be the same). */
  fileMax: number;
  /** All files of the request together. */
  requestMax: number;
  /** The most file parts (the multipart plugin's `files` must be the same). */
  maxFiles: number;
  /** The text fields kept (others are read and left out); all when not given. */
  keepField?: (name: string) => boolean;
  /** The 413 for a file over its limit (default files.tooLarge, with its name and the limit in MB). */
  tooLarge?: (name: string) => AppError;
  /** The refusal of one file too many (default 413 files.tooMany). */
  tooMany?: () => AppError;
  /** The text of the 400 for a body that is no form (default files.notMultipart). */
  notMultipart?: string;
};

const mb = (bytes: number) => Math.max(1, Math.round(bytes / (1024 * 1024)));

/** The name the user gave the file, made safe to store and show: no path, no control characters. */
export function cleanUserName(raw: string | undefined): string {
  // Browsers send a name's double quote, CR and LF as %22, %0D and %0A in a form's file name (the
  // HTML standard's multipart encoding); the quote is the user's, the line breaks are dropped.
  let name = (raw ?? '').replace(/%22/g, '"').replace(/%0[ad]/gi, '').normalize('NFC');
  name = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (name.length > 200) {
    const ext = /\.[^.]{1,10}$/.exec(name)?.[0] ?? '';
    name = name.slice(0, 200 - ext.length) + ext;
  }
  return name || 'file';
}

/**
 * Reads a multipart/form-data body as it arrives: its text fields, and each file streamed to a
 * scratch file. It stops at the first limit crossed — a file over its size, the request's files over
 * theirs, one file too many — with an error, leaving the rest of the body unread: the answer then
 * closes the connection (plugins/body-limits.ts), so an oversized upload costs what was read up to
 * its limit and no more. An empty file input (no name, no bytes) is no file. On failure the scratch
 * files are removed.
 */
export async function readUploadForm(app: FastifyInstance, req: FastifyRequest, opts: UploadFormOptions): Promise<{ fields: Record<string, string>; files: ReceivedFile[] }> {
  if (!req.isMultipart()) throw badRequest(opts.notMultipart ?? 'files.notMultipart');
  const incoming = getIncomingDir(app.config.dataDir);
  await fs.promises.mkdir(incoming, { recursive: true });
  const tooLarge = opts.tooLarge ?? ((name: string) => new AppError(413, 'files.tooLarge', { name, max: mb(opts.fileMax) }));
  const tooMany = opts.tooMany ?? (() => new AppError(413, 'files.tooMany', { max: opts.maxFiles }));
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  let total = 0;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') {
        if (typeof part.value === 'string' && (!opts.keepField || opts.keepField(part.fieldname))) fields[part.fieldname] = part.value;
        continue;
      }
      const userName = cleanUserName(part.filename);
      const received: ReceivedFile = { field: part.fieldname, userName, tmp: path.join(incoming, randomBytes(16).toString('hex')), size: 0 };
      files.push(received);
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received.size += chunk.length;
          total += chunk.length;
          if (received.size > opts.fileMax) return done(tooLarge(userName));
          if (total > opts.requestMax) return done(new AppError(413, 'files.requestTooLarge', { max: mb(opts.requestMax) }));
          done(null, chunk);
        },
      });
      // The multipart parser cuts a file at its own count of the same limit: that is the end here too.
      part.file.once('limit', () => counter.destroy(tooLarge(userName)));
      await pipeline(part.file, counter, fs.createWriteStream(received.tmp, { flags: 'wx', mode: 0o600 }));
      if (part.file.truncated) throw tooLarge(userName);
      if (!part.filename && received.size === 0) {
        files.pop();
        await fs.promises.rm(received.tmp, { force: true });
      }
    }
  } catch (e) {
    await dropScratch(files);
    const code = (e as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw tooMany();
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(files.at(-1)?.userName ?? '');
    // The upload itself is broken (cut off, or a malformed part): the sender's fault, not ours. A
    // failing disk (an error with a syscall) stays a server error.
    const status = (e as { statusCode?: number }).statusCode;
    const ownStatus = typeof status === 'number' && status >= 400 && status < 500;
    if (!(e instanceof AppError) && !ownStatus && !(e as { syscall?: string }).syscall) throw badRequest('files.badUpload');
    throw e;
  }
  return { fields, files };
}

/** Removes a form's scratch files. */
export async function dropScratch(files: readonly { tmp: string }[]): Promise<void> {
  for (const f of files) await fs.promises.rm(f.tmp, { force: true }).catch(() => {});
}

/** What a route reading a form with these limits may receive in all: the files, and the form's own lines around them. */
export const formBodyLimit = (requestMax: number) => requestMax + 1024 * 1024;
