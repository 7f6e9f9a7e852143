import type { TUploadLimits } from '@crm/contract';

/**
 * The check every file chooser and drop area runs before it sends anything: the server's own
 * limits (GET /api/config `upload`), so a 30 MB photo over a phone connection is refused at once
 * instead of after it was sent. The server checks again; this only spares the wait.
 */

/** What the check reads of a file (a browser File, or a test's stand-in). */
export type TPickedFile = { name: string; size: number; type: string };

/** Why a file is left out: past the size of one file, not a photo the server can show, past the number of files, past the request's total. */
export type TLeftOutReason = 'tooLarge' | 'notAPhoto' | 'tooMany' | 'requestTooLarge';

export type TUploadCheck<F extends TPickedFile> = {
  /** The files that fit, in the order picked. */
  accepted: F[];
  /** The files left out, in the order picked, each with its reason. */
  leftOut: { file: F; reason: TLeftOutReason }[];
};

/** Megabytes as the server's messages say them. */
export const toMb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** Picture kinds the browser may name by extension only (an empty `type`), and those it names but the server cannot show. */
const PHOTO_EXTENSIONS: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** The file's type as far as the browser can tell (its `type`, else by its extension); '' when unknown. */
function typeOf(f: TPickedFile): string {
  if (f.type) return f.type.toLowerCase();
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(f.name)?.[1]?.toLowerCase() ?? '';
  return PHOTO_EXTENSIONS[ext] ?? '';
}

/**
 * Which of `files` may go in one request. `already`: files the same request carries anyway (those a
 * form collected before, sent with it on save). `photos`: the files become an object's photos, so
 * a kind the server cannot show (a PDF, an iPhone HEIC) is left out; a file whose type the browser
 * cannot tell is left to the server. Without `limits` (not known yet) every file is accepted.
 *
 * In the order picked: a file past the size of one file is left out; then a file past the number
 * of files; then a file that would take the request past its total (a smaller one after it may
 * still fit).
 */
export function checkUploads<F extends TPickedFile>(
  files: readonly F[],
  limits: TUploadLimits | null | undefined,
  opts: { already?: readonly TPickedFile[]; photos?: boolean } = {},
): TUploadCheck<F> {
  if (!limits) return { accepted: [...files], leftOut: [] };
  const already = opts.already ?? [];
  let count = already.length;
  let total = already.reduce((n, f) => n + f.size, 0);
  const photoTypes = new Set(limits.photoTypes.map((t) => t.toLowerCase()));
  const accepted: F[] = [];
  const leftOut: TUploadCheck<F>['leftOut'] = [];
  for (const f of files) {
    const type = opts.photos ? typeOf(f) : '';
    if (f.size > limits.fileMaxBytes) leftOut.push({ file: f, reason: 'tooLarge' });
    else if (opts.photos && type && !photoTypes.has(type)) leftOut.push({ file: f, reason: 'notAPhoto' });
    else if (count + 1 > limits.maxFiles) leftOut.push({ file: f, reason: 'tooMany' });
    else if (total + f.size > limits.requestMaxBytes) leftOut.push({ file: f, reason: 'requestTooLarge' });
    else {
      accepted.push(f);
      count += 1;
      total += f.size;
    }
  }
  return { accepted, leftOut };
}

/** i18next's t, as far as these texts need it. */
type Translate = (key: string, params?: Record<string, unknown>) => string;

/**
 * What the user reads about the files left out, one line per reason, each naming the files and the
 * limit (the server's own texts where they fit), then how many of the others went on: `uploaded`
 * (a drop area that sends at once) or `added` (a form that sends them on save). Null when none was
 * left out.
 */
export function describeLeftOut(
  t: Translate,
  check: TUploadCheck<TPickedFile>,
  limits: TUploadLimits | null | undefined,
  then: 'uploaded' | 'added' | null,
): string | null {
  if (!check.leftOut.length || !limits) return null;
  const named = (reason: TLeftOutReason) =>
    check.leftOut
      .filter((l) => l.reason === reason)
      .map((l) => t('files.check.name', { name: l.file.name }))
      .join(', ');
  const lines: string[] = [];
  for (const l of check.leftOut) {
    if (l.reason === 'tooLarge') lines.push(t('files.tooLarge', { name: l.file.name, max: toMb(limits.fileMaxBytes) }));
    if (l.reason === 'notAPhoto') lines.push(t('files.notAPhoto', { name: l.file.name }));
  }
  const tooMany = named('tooMany');
  if (tooMany) lines.push(t('files.check.tooMany', { count: limits.maxFiles, names: tooMany }));
  const tooBig = named('requestTooLarge');
  if (tooBig) lines.push(t('files.check.requestTooLarge', { max: toMb(limits.requestMaxBytes), names: tooBig }));
  if (then && check.accepted.length) lines.push(t(`files.check.${then}`, { count: check.accepted.length }));
  return lines.join('\n');
}
