import fs from 'node:fs';
import { LOG_MESSAGE } from '@crm/contract';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { TFileItem, TFileSetParent, TFileUploaded } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { files, users } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { Download } from '../../lib/downloads.ts';
import { workbookStream } from '../../lib/excel.ts';
import { takeLease, takePlace, type LeaseOptions, type WorkLease } from '../../lib/work-leases.ts';
import { getIncomingDir } from '../../storage/file-storage.ts';
import { noteFilesToRemove, removeNotedFiles, writeStoredFiles } from '../../storage/pending-files.ts';
import { ATTACHMENT_ONLY_MIMES, INLINE_MIMES, detectFileType } from './file-types.ts';
import { getFileParent } from './file-parents.ts';
import { PICTURE_MIMES, makePictureCopies, type PictureCopies } from './pictures.ts';
import { dropScratch, readUploadForm, type ReceivedFile } from '../../lib/upload-form.ts';


/** One person's uploads are recorded one at a time (with the user's id as the second key). */
const PENDING_LOCK = 727301;

const newSystemName = (ext: string) => `${randomBytes(16).toString('hex')}.${ext}`;

/**
 * POST /api/files: streams every file part to a scratch file (stopping at the first limit crossed),
 * checks type, and only when every file passes stores them all (all or nothing).
 */
export async function uploadFiles(app: FastifyInstance, req: FastifyRequest): Promise<TFileUploaded[]> {
  const incoming = getIncomingDir(app.config.dataDir);
  const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
  const { requestMaxBytes, maxFiles, pendingMaxBytes } = app.config.upload;
  const { files: received } = await readUploadForm(app, req, { fileMax: app.config.uploadMaxBytes, requestMax: requestMaxBytes, maxFiles, keepField: () => false });
  const total = received.reduce((sum, r) => sum + r.size, 0);
  const copies: (PictureCopies | null)[] = [];

  try {
    if (!received.length) throw badRequest('files.noFiles');
    // Files waiting to be attached to a record are bounded per person (checked again, under a lock,
    // as they are recorded: uploads sent side by side each passed this first look).
    const withinPending = async (db: Db | Tx) => {
      if (req.actor.id === null) return;
      const [{ pending }] = (
        await db.execute(sql`select coalesce(sum(size), 0)::float8 as pending from files where parent_type is null and detached_on is null and created_by = ${req.actor.id}`)
      ).rows as { pending: number }[];
      if (pending + total > pendingMaxBytes) throw new AppError(413, 'files.pendingQuota', { max: mb(pendingMaxBytes) });
    };
    await withinPending(app.db);

    const typed: (ReceivedFile & { mime: string; ext: string })[] = [];
    for (const r of received) {
      const type = await detectFileType(r.tmp, r.userName);
      // One refused file refuses the upload (all or nothing): with others beside it, that is said too.
      if (!type) throw new AppError(415, received.length > 1 ? 'files.typeNotAllowedBatch' : 'files.typeNotAllowed', { name: r.userName, count: received.length });
      typed.push({ ...r, ...type });
    }

    // Each file named pending before it is written, claimed by the rows' commit (decisions 104, 109).
    return await writeStoredFiles(app, async (stored) => {
      // Pictures get their thumbnail and screen-size copy now, once: no list or carousel loads a camera original.
      for (const f of typed) copies.push(PICTURE_MIMES.has(f.mime) ? await makePictureCopies(f.tmp, incoming) : null);
      const named = typed.map((f, i) => {
        const systemName = newSystemName(f.ext);
        const stem = systemName.slice(0, systemName.indexOf('.'));
        const c = copies[i];
        return { ...f, systemName, copies: c, thumbName: c ? `${stem}-thumb.webp` : null, webName: c ? `${stem}-web.webp` : null };
      });
      await stored.note(named.flatMap((f) => [f.systemName, f.thumbName, f.webName].filter((n): n is string => n !== null)));
      for (const f of named) {
        await stored.put(f.systemName, { path: f.tmp });
        if (f.copies && f.thumbName && f.webName) {
          await stored.put(f.thumbName, { path: f.copies.thumbPath });
          await stored.put(f.webName, { path: f.copies.webPath });
        }
      }
      return await stored.transaction(async (tx) => {
        if (req.actor.id !== null) {
          await tx.execute(sql`select pg_advisory_xact_lock(${PENDING_LOCK}, ${req.actor.id})`);
          await withinPending(tx);
        }
        const rows = await tx
          .insert(files)
          .values(
            named.map((f) => ({
              systemName: f.systemName,
              userName: f.userName,
              mime: f.mime,
              size: f.size,
              createdBy: req.actor.id,
              width: f.copies?.width ?? null,
              height: f.copies?.height ?? null,
              thumbName: f.thumbName,
              webName: f.webName,
            })),
          )
          .returning({ id: files.id, systemName: files.systemName, userName: files.userName, mime: files.mime, size: files.size, width: files.width, height: files.height, thumbName: files.thumbName });
        await stored.claim(tx);
        for (const r of rows) {
          await logAction(tx, req.actor, { action: 'Create', entity: 'File', entityId: r.id, message: r.userName, data: { systemName: r.systemName, mime: r.mime, size: r.size } });
        }
        return rows.map(({ thumbName, ...r }) => ({ ...r, preview: thumbName !== null }));
      });
    });
  } finally {
    await dropScratch(received);
    for (const c of copies) {
      if (!c) continue;
      await fs.promises.rm(c.thumbPath, { force: true }).catch(() => {});
      await fs.promises.rm(c.webPath, { force: true }).catch(() => {});
    }
  }
}

const itemColumns = {
  id: files.id,
  systemName: files.systemName,
  userName: files.userName,
  mime: files.mime,
  size: files.size,
  type: files.type,
  sortOrder: files.sortOrder,
  createdOn: files.createdOn,
  createdBy: users.username,
  width: files.width,
  height: files.height,
  thumbName: files.thumbName,
};

type ItemRow = { [K in keyof typeof itemColumns]: (typeof itemColumns)[K]['_']['data'] | null } & { id: number; createdOn: Date };

const toItem = (r: ItemRow, timeZone: string): TFileItem => ({
  id: r.id,
  systemName: r.systemName!,
  userName: r.userName!,
  mime: r.mime!,
  size: r.size!,
  type: r.type,
  sortOrder: r.sortOrder!,
  createdOn: toLocalDateTime(r.createdOn, timeZone)!,
  createdBy: r.createdBy,
  width: r.width,
  height: r.height,
  preview: r.thumbName !== null,
});

/** The files of one record, in their order. */
export async function listFiles(db: Db | Tx, parentType: number, parentId: number, timeZone: string): Promise<TFileItem[]> {
  const rows = await db
    .select(itemColumns)
    .from(files)
    .leftJoin(users, eq(users.id, files.createdBy))
    .where(and(eq(files.parentType, parentType), eq(files.parentId, parentId)))
    .orderBy(asc(files.sortOrder), asc(files.id));
  return rows.map((r) => toItem(r as ItemRow, timeZone));
}

/** A file by system name, or by numeric id (image links use ids). */
export async function findFile(db: Db | Tx, key: string) {
  const byId = /^\d{1,9}$/.test(key);
  const [row] = await db
    .select()
    .from(files)
    .where(byId ? eq(files.id, Number(key)) : eq(files.systemName, key))
    .limit(1);
  return row;
}

/** The `type` of files that are a record's photos (an object's pictures). */
export const PHOTO_TYPE = 'image';

/** The list form of `fileNames`: ids and system names (a comma-joined text is split). */
function parseFileNames(input: TFileSetParent['fileNames']): { ids: number[]; names: string[]; all: string[] } {
  const list = (typeof input === 'string' ? input.split(',') : input).map((v) => String(v).trim()).filter(Boolean);
  const ids: number[] = [];
  const names: string[] = [];
  for (const v of list) {
    if (/^\d{1,9}$/.test(v)) ids.push(Number(v));
    else names.push(v);
  }
  return { ids, names, all: [...new Set(list)] };
}

/**
 * Attaches uploaded files to a record: files not attached yet, or already on this record (those
 * keep their place). Any file that is unknown or belongs to another record refuses the whole call.
 * Usable inside another module's transaction (e.g. saving a record with `filesNew`).
 */
export async function setFilesParent(tx: Tx, actor: Actor, body: TFileSetParent): Promise<number[]> {
  const parent = getFileParent(body.entityType);
  if (!parent) throw badRequest('files.unknownParent');
  if (!(await parent.exists(tx, body.id))) throw notFound();
  const { ids, names, all } = parseFileNames(body.fileNames);
  if (!all.length) return [];
  const rows = await tx
    .select()
    .from(files)
    .where(or(ids.length ? inArray(files.id, ids) : sql`false`, names.length ? inArray(files.systemName, names) : sql`false`))
    .for('update');
  for (const key of all) {
    const row = rows.find((r) => String(r.id) === key || r.systemName === key);
    // A file let go when its record was deleted is not anyone's to attach again.
    if (!row || row.detachedOn !== null) throw new AppError(400, 'files.unknownFile', { name: key });
    if (row.parentType !== null && (row.parentType !== body.entityType || row.parentId !== body.id)) {
      throw new AppError(400, 'files.attachedElsewhere', { name: row.userName });
    }
    // A photo must be a picture the CRM can show (it has its thumbnail): not a PDF, not a damaged or HEIC file.
    if (body.type?.toLowerCase() === PHOTO_TYPE && row.thumbName === null) throw new AppError(415, 'files.notAPhoto', { name: row.userName });
  }
  const [{ max } = { max: -1 }] = await tx
    .select({ max: sql<number>`coalesce(max(${files.sortOrder}), -1)::int` })
    .from(files)
    .where(and(eq(files.parentType, body.entityType), eq(files.parentId, body.id)));
  let order = max;
  const attached: number[] = [];
  // in the order given
  for (const key of all) {
    const row = rows.find((r) => String(r.id) === key || r.systemName === key)!;
    if (row.parentType !== null || attached.includes(row.id)) continue;
    order += 1;
    await tx
      .update(files)
      .set({ parentType: body.entityType, parentId: body.id, type: body.type ?? null, sortOrder: order })
      .where(and(eq(files.id, row.id), isNull(files.parentType)));
    await logAction(tx, actor, {
      action: 'Update',
      entity: 'File',
      entityId: row.id,
      message: row.userName,
      data: { parentType: body.entityType, parentEntity: parent.entity, parentId: body.id, type: body.type ?? null },
    });
    attached.push(row.id);
  }
  return attached;
}

/**
 * Told, inside the transaction and before the files change, that a record's files are about to
 * change (the objects module judges an object's publishing again when its photos change).
 */
export type FilesChanging = (tx: Tx, parent: { parentType: number; parentId: number; types: (string | null)[] }) => Promise<void>;

/** POST /api/files/reorder: the given files first, in that order, then the record's others. */
export async function reorderFiles(app: FastifyInstance, actor: Actor, ids: number[], changing?: FilesChanging): Promise<TFileItem[]> {
  const unique = [...new Set(ids)];
  return app.db.transaction(async (tx) => {
    if (changing) {
      const seen = await tx.select({ parentType: files.parentType, parentId: files.parentId, type: files.type }).from(files).where(inArray(files.id, unique));
      const p = seen[0];
      if (p?.parentType != null && p.parentId != null && seen.every((r) => r.parentType === p.parentType && r.parentId === p.parentId)) {
        await changing(tx, { parentType: p.parentType, parentId: p.parentId, types: seen.map((r) => r.type) });
      }
    }
    const rows = await tx.select().from(files).where(inArray(files.id, unique)).for('update');
    if (rows.length !== unique.length) throw notFound();
    const first = rows[0]!;
    if (first.parentType === null || rows.some((r) => r.parentType !== first.parentType || r.parentId !== first.parentId)) {
      throw badRequest('files.reorderMixed');
    }
    const current = await tx
      .select({ id: files.id, sortOrder: files.sortOrder })
      .from(files)
      .where(and(eq(files.parentType, first.parentType), eq(files.parentId, first.parentId!)))
      .orderBy(asc(files.sortOrder), asc(files.id));
    const order = [...unique, ...current.map((c) => c.id).filter((id) => !unique.includes(id))];
    await tx.execute(sql`
      update files set sort_order = v.ord - 1
      from unnest(${`{${order.join(',')}}`}::int[]) with ordinality as v(id, ord)
      where files.id = v.id and files.sort_order is distinct from (v.ord - 1)`);
    await logAction(tx, actor, { action: 'Update', entity: 'File', entityId: null, message: LOG_MESSAGE.filesReordered, data: { parentType: first.parentType, parentId: first.parentId, ids: order } });
    return listFiles(tx, first.parentType, first.parentId!, app.config.timeZone);
  });
}

/** DELETE /api/files/{systemName}: the row, then the stored content. */
export async function deleteFile(app: FastifyInstance, actor: Actor, key: string, changing?: FilesChanging): Promise<void> {
  const removed = await app.db.transaction(async (tx) => {
    const row = await findFile(tx, key);
    if (!row) throw notFound('files.notFound');
    if (changing && row.parentType !== null && row.parentId !== null) await changing(tx, { parentType: row.parentType, parentId: row.parentId, types: [row.type] });
    await tx.delete(files).where(eq(files.id, row.id));
    await noteFilesToRemove(tx, storedNames(row));
    await logAction(tx, actor, {
      action: 'Delete',
      entity: 'File',
      entityId: row.id,
      message: row.userName,
      data: { systemName: row.systemName, parentType: row.parentType, parentId: row.parentId },
    });
    return row;
  });
  // The row is gone (the file with it, for everyone): a stored copy that cannot be removed now is
  // logged and left to the housekeeping, not answered as a failure of what did happen.
  await removeNotedFiles(app, storedNames(removed));
}

/** A file's stored content: the original and, for a picture, its copies. */
export const storedNames = (r: { systemName: string; thumbName?: string | null; webName?: string | null }) =>
  [r.systemName, r.thumbName, r.webName].filter((n): n is string => !!n);

/**
 * Uploads never attached to a record (the form was abandoned) are removed after UPLOAD_UNATTACHED_HOURS,
 * and the files of deleted records at the next run (they count against no one's limit meanwhile). Runs
 * at start and after an upload, a few at a time, so no job is needed.
 */
export async function purgeOrphanFiles(app: FastifyInstance): Promise<number> {
  const removed = await app.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: files.id, systemName: files.systemName, userName: files.userName, thumbName: files.thumbName, webName: files.webName, detachedOn: files.detachedOn })
      .from(files)
      // Never attached and older than the hours allowed, or let go by a deleted record (at once).
      .where(and(isNull(files.parentType), or(isNotNull(files.detachedOn), lt(files.createdOn, sql`now() - make_interval(hours => ${app.config.upload.unattachedHours})`))))
      .limit(20)
      .for('update', { skipLocked: true });
    if (!rows.length) return rows;
    await tx.delete(files).where(inArray(files.id, rows.map((r) => r.id)));
    await noteFilesToRemove(tx, rows.flatMap(storedNames));
    for (const r of rows) {
      await logAction(tx, { id: null, name: null }, { action: 'Delete', entity: 'File', entityId: r.id, message: r.userName, data: { systemName: r.systemName, reason: r.detachedOn ? 'record deleted' : 'never attached' } });
    }
    return rows;
  });
  await removeNotedFiles(app, removed.flatMap(storedNames));
  return removed.length;
}

/** Scratch files left by an upload that never finished (the process stopped) are removed at start. */
export async function cleanIncoming(dataDir: string, olderThanMs = 6 * 60 * 60 * 1000): Promise<void> {
  const dir = getIncomingDir(dataDir);
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return;
  }
  const before = Date.now() - olderThanMs;
  for (const n of names) {
    const p = path.join(dir, n);
    const st = await fs.promises.stat(p).catch(() => undefined);
    if (st && st.mtimeMs < before) await fs.promises.rm(p, { force: true }).catch(() => {});
  }
}

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name (Greek and Cyrillic names survive). */
export function contentDisposition(kind: 'inline' | 'attachment', userName: string): string {
  const fallback = userName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(userName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends a PDF the server made as `name`: to save (attachment) or to read in the browser (inline);
 * never cached, as it holds what the reader may see now, never sniffed.
 */
export function sendPdf(reply: FastifyReply, pdf: Buffer | Uint8Array, name: string, kind: 'inline' | 'attachment' = 'attachment') {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Length', String(pdf.length))
    .header('Content-Disposition', contentDisposition(kind, name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .send(pdf);
}

/** The wait a refused export is told (Retry-After): most files are made within a few seconds. */
export const EXPORT_RETRY_SECONDS = 10;

/**
 * Exports one user may have being made at once across all instances (their own places, the keys
 * `export-user:<id>:0` … `:1`), so that one person (or one script with their key) cannot take every
 * place of EXPORTS_AT_ONCE from everyone else.
 */
export const EXPORTS_PER_USER = 2;

/**
 * The longest a list's export's leases are renewed (30 minutes): its file is made in seconds, so
 * past it the answer is taken for stuck, and its leases lapse LEASE_SECONDS later even if nothing
 * ever gives them back.
 */
export const DOWNLOAD_HOLD_SECONDS = 30 * 60;
/**
 * The longest a backup's download lease is renewed (12 hours): a backup of several GB over a slow
 * line may take hours, and its lease must hold as long as its answer is open (else the same sign-in
 * could start the same backup again). An answer closed gives it back at once whatever this is.
 */
export const BACKUP_DOWNLOAD_HOLD_SECONDS = 12 * 60 * 60;

/**
 * How a lease taken for one answer (a download's) is kept: renewed only while that answer is still
 * open and at most DOWNLOAD_HOLD_SECONDS, and given back once it closes, whatever became of its
 * body (sent, cut short by the reader, or dropped unclosed by an onSend hook that failed).
 */
export function answerLease(reply: FastifyReply, maxHoldSeconds = DOWNLOAD_HOLD_SECONDS): LeaseOptions {
  return { live: () => !reply.raw.destroyed && !reply.raw.writableFinished, maxHoldSeconds };
}
export function releaseWithAnswer(reply: FastifyReply, lease: WorkLease) {
  const give = () => void lease.release().catch(() => {});
  if (reply.raw.destroyed || reply.raw.writableFinished) give();
  else reply.raw.once('close', give);
}

/**
 * A place among the EXPORTS_AT_ONCE exports made at once across all instances (decision 098), and
 * one of its user's EXPORTS_PER_USER: each file streams rows from the database and builds a
 * spreadsheet or an archive, so a crowd of different ones (many people, many filters) would take
 * every instance's processor and the database's connections from everyone else. Past either limit
 * the export is refused at once with a 429, Retry-After and "busy, try again shortly" in the
 * reader's language, not queued. Both are given back by `release` or once the answer closes.
 */
/**
 * Whose EXPORTS_PER_USER places an export takes: a call made with an API key, its key's
 * (`export-key:<id>`), so an integration never fills its maker's own; else its user's (`export-user:<id>`).
 */
export function exportPlaceKind(req: Pick<FastifyRequest, 'user' | 'apiKeyId'>): string {
  if (req.apiKeyId != null) return `export-key:${req.apiKeyId}`;
  if (req.user?.id != null) return `export-user:${req.user.id}`;
  // Exports are all behind a sign-in or a key; a caller with neither has no place of its own.
  return 'export-nobody';
}

export async function takeExportPlace(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply): Promise<WorkLease> {
  const opts = answerLease(reply);
  const mine = await takePlace(app.db, exportPlaceKind(req), EXPORTS_PER_USER, app.jobs.instanceId, opts);
  let place: WorkLease | undefined;
  try {
    place = mine && (await takePlace(app.db, 'export', app.config.exportsAtOnce, app.jobs.instanceId, opts));
  } finally {
    if (mine && !place) await mine.release().catch(() => {});
  }
  if (!mine || !place) {
    reply.header('Retry-After', String(EXPORT_RETRY_SECONDS));
    // Refused by their own limit, the caller is told it is theirs to wait for, not everyone's.
    throw mine ? new AppError(429, 'errors.exportsBusy') : new AppError(429, 'errors.exportsBusyYours', { count: EXPORTS_PER_USER });
  }
  let released: Promise<void> | undefined;
  const both: WorkLease = { key: place.key, release: () => (released ??= Promise.all([mine.release(), place.release()]).then(() => undefined)) };
  releaseWithAnswer(reply, both);
  return both;
}

/**
 * Makes a list's file (Deals.xlsx, a statement…), sends it and records it in the action log: who
 * took which list (the entity and the file's name), how many rows and with which filter. Personal
 * data leaving the system is on the record (GDPR); a download that fails while it is made (a bad
 * filter, a record not readable) is not. `data` adds what names the list's owner (a statement's
 * account). The same file (same list, language and filter) asked for again by the same sign-in while
 * it is being made (a second tab) is refused with a 409 rather than made twice, whichever instance
 * either request reached: the file being made is a lease in the database (lib/work-leases.ts), not
 * an instance's memory. Another filter is another file, made beside it, as long as fewer than
 * EXPORTS_AT_ONCE exports are being made across all instances (else a 429, `takeExportPlace`).
 *
 * A large list's file (a `write`) is sent as it is written, its rows read a page at a time: what is
 * checked first (the filter, the reader's rights) still answers its error before anything is sent.
 * Its log row is written once the whole file is written, before the answer ends; a file that fails
 * midway (the answer is then cut off) or whose reader goes before its end is not recorded.
 */
export async function sendDownload(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  list: { entity: string; name: string; data?: Record<string, unknown> },
  make: () => Promise<Download>,
) {
  const key = `download:${JSON.stringify([req.user?.id ?? 0, list.name, req.culture, req.params ?? null, req.query ?? null, req.body ?? null])}`;
  const lease = await takeLease(app.db, key, app.jobs.instanceId, answerLease(reply));
  if (!lease) throw new AppError(409, 'errors.downloadBusy');
  releaseWithAnswer(reply, lease);
  let place: WorkLease;
  try {
    place = await takeExportPlace(app, req, reply);
  } catch (e) {
    await lease.release().catch(() => {});
    throw e;
  }
  // Given back before the answer's last byte (so the same file asked for right after it is made), or
  // once a file that failed or whose reader went is closed; a release that fails lets the lease lapse.
  const done = () =>
    Promise.all([lease.release(), place.release()]).then(
      () => undefined,
      (e: unknown) => app.log.warn({ err: e }, 'a download lease could not be given back: it lapses'),
    );
  const record = (rows: number, filter: Download['filter']) =>
    logAction(app.db, req.actor, { action: 'Download', entity: list.entity, message: list.name, data: { ...list.data, rows, ...(filter ? { filter } : {}) } });
  let d: Download;
  try {
    d = await make();
  } catch (e) {
    await done();
    throw e;
  }
  let body: Buffer | Readable;
  if ('write' in d) {
    const { write, filter } = d;
    let rows = 0;
    body = workbookStream(
      async (wb, signal) => {
        rows = await write(wb, signal);
      },
      async () => {
        try {
          await record(rows, filter);
        } finally {
          await done();
        }
      },
    );
    // Being made until the file is written (or has failed, or its reader has gone).
    body.once('close', () => void done());
  } else {
    await done();
    await record(d.rows, d.filter);
    body = d.file;
  }
  return reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', contentDisposition('attachment', list.name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .send(body);
}

/**
 * Sends a stored file as itself: its type as `servedAs` says, its size, its own name (Content-
 * Disposition), no sniffing, and the caller's caching (and any further headers).
 */
export function sendStoredFile(reply: FastifyReply, file: { mime: string; size: number; userName: string }, stream: NodeJS.ReadableStream, cacheControl: string, extra: Record<string, string> = {}) {
  const { contentType, disposition } = servedAs(file.mime);
  reply
    .header('Content-Type', contentType)
    .header('Content-Length', String(file.size))
    .header('Content-Disposition', contentDisposition(disposition, file.userName))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', cacheControl);
  for (const [k, v] of Object.entries(extra)) reply.header(k, v);
  return reply.send(stream);
}

/** How a stored type is served: images and PDF in the browser; XML family as a neutral download. */
export function servedAs(mime: string): { contentType: string; disposition: 'inline' | 'attachment' } {
  if (INLINE_MIMES.has(mime)) return { contentType: mime, disposition: 'inline' };
  if (ATTACHMENT_ONLY_MIMES.has(mime)) return { contentType: 'application/octet-stream', disposition: 'attachment' };
  if (mime.startsWith('text/')) return { contentType: `${mime}; charset=utf-8`, disposition: 'attachment' };
  return { contentType: mime, disposition: 'attachment' };
}
