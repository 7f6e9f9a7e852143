import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ZodError } from 'zod';
import { DOCUMENT_FILES_MAX, LinkKind, ZDocumentUpdateFields, type TDocument, type TDocumentListQuery, type TDocumentRow } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { buildOnce } from '../../db/prepared.ts';
import { documents, files } from '../../db/schema/index.ts';
import { AppError, conflict, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { issueMessage, type Issue } from '../../plugins/errors.ts';
import { noteFilesToRemove, removeNotedFiles, writeStoredFiles } from '../../storage/pending-files.ts';
import { storedNames } from '../files/files.service.ts';
import { dropScratch, readUploadForm, type ReceivedFile } from '../../lib/upload-form.ts';
import { detectFileType } from '../files/file-types.ts';
import { containsPattern, createdByName, joinStampNames, modifiedByName } from '../accounts/accounts.sql.ts';

const ENTITY = 'Document';
const KIND = LinkKind.Document;
type Caller = { userId: number; actor: Actor };

/** The address a document's file is opened at, its own name the last part (the session's file cookie lets a new tab open it). */
export const fileLink = (systemName: string, userName: string) => `/api/files/${encodeURIComponent(systemName)}/${encodeURIComponent(userName)}`;

async function filesOf(db: Db | Tx, ids: number[]) {
  if (!ids.length) return new Map<number, TDocument['files']>();
  const rows = await db
    .select({ parentId: files.parentId, id: files.id, systemName: files.systemName, userName: files.userName, mime: files.mime, size: files.size })
    .from(files)
    .where(and(eq(files.parentType, KIND), inArray(files.parentId, ids)))
    .orderBy(asc(files.parentId), asc(files.sortOrder), asc(files.id));
  const by = new Map<number, TDocument['files']>();
  for (const { parentId, ...f } of rows) {
    const list = by.get(parentId!) ?? [];
    list.push(f);
    by.set(parentId!, list);
  }
  return by;
}

const firstFile = (list: TDocument['files']) => ({ link: list[0] ? fileLink(list[0].systemName, list[0].userName) : null, file: list[0]?.userName ?? null });

/** GET /api/Documents: the library by name in alphabetical order (accents and case set aside: documents_name_idx), paged in SQL. */
export async function listDocuments(app: FastifyInstance, q: TDocumentListQuery): Promise<{ items: TDocumentRow[]; totalRows: number }> {
  const text = q.searchStr?.trim();
  const where = text ? sql`crm_search_norm(${documents.name} || ' ' || coalesce(${documents.description}, '')) like ${containsPattern(text)}` : undefined;
  const offset = (q.currentPage - 1) * q.perPage;
  // The whole library (how the screen opens) by two statements built once and prepared (db/prepared.ts);
  // a search's pattern is planned each time.
  const [counted, rows] = where
    ? await Promise.all([
        app.db.select({ n: sql<number>`count(*)::int` }).from(documents).where(where).then((r) => r),
        app.db.select().from(documents).where(where).orderBy(sql`public.crm_search_norm(${documents.name})`, documents.id).limit(q.perPage).offset(offset),
      ])
    : await Promise.all([
        buildOnce(app.db, 'documents_count', (name) => app.db.select({ n: sql<number>`count(*)::int` }).from(documents).prepare(name)).execute(),
        buildOnce(app.db, 'documents_page', (name) =>
          app.db
            .select()
            .from(documents)
            .orderBy(sql`public.crm_search_norm(${documents.name})`, documents.id)
            .limit(sql.placeholder('limit'))
            .offset(sql.placeholder('offset'))
            .prepare(name),
        ).execute({ limit: q.perPage, offset }),
      ]);
  const n = counted[0]?.n ?? 0;
  const byDoc = await filesOf(app.db, rows.map((r) => r.id));
  const tz = app.config.timeZone;
  return {
    totalRows: n,
    items: rows.map((r) => {
      const list = byDoc.get(r.id) ?? [];
      return { id: r.id, name: r.name, description: r.description, ...firstFile(list), files: list, modifiedOn: toLocalDateTime(r.modifiedOn, tz)!, version: r.version };
    }),
  };
}

/** One document as the form shows it. */
export async function getDocument(app: FastifyInstance, db: Db | Tx, id: number): Promise<TDocument | undefined> {
  const [row] = await joinStampNames(db.select({ d: documents, createdBy: createdByName, modifiedBy: modifiedByName }).from(documents).$dynamic(), documents.createdBy, documents.modifiedBy)
    .where(eq(documents.id, id))
    .limit(1);
  if (!row) return undefined;
  const list = (await filesOf(db, [id])).get(id) ?? [];
  const tz = app.config.timeZone;
  return {
    id,
    name: row.d.name,
    description: row.d.description,
    ...firstFile(list),
    files: list,
    createdOn: toLocalDateTime(row.d.createdOn, tz)!,
    createdBy: row.createdBy,
    modifiedOn: toLocalDateTime(row.d.modifiedOn, tz)!,
    modifiedBy: row.modifiedBy,
    version: row.d.version,
  };
}

export async function requireDocument(app: FastifyInstance, db: Db | Tx, id: number): Promise<TDocument> {
  const d = await getDocument(app, db, id);
  if (!d) throw notFound('documents.notFound');
  return d;
}

/** A zod failure of fields read by hand (a multipart form) as the same translated 400 as a schema's. */
export function fieldErrorsOf(error: ZodError): AppError {
  const out: Record<string, { code: string; params?: Record<string, string | number> }[]> = {};
  for (const i of error.issues) {
    const field = i.path.join('.') || 'request';
    const issue: Issue = { keyword: i.code, instancePath: `/${i.path.join('/')}`, message: i.message, params: i as unknown as Record<string, unknown> };
    (out[field] ??= []).push(issueMessage(issue));
  }
  return new AppError(400, 'errors.validation', {}, out);
}

const newSystemName = (ext: string) => `${randomBytes(16).toString('hex')}.${ext}`;

/**
 * POST /api/Documents/update (multipart): creates (no id) or updates a document with its new files
 * and the files taken off, all in one transaction with its action-log row. Bad input, a stale
 * version or a refused file change nothing.
 */
export async function saveDocument(app: FastifyInstance, req: FastifyRequest, caller: Caller): Promise<TDocument> {
  const { requestMaxBytes, maxFiles } = app.config.upload;
  const { fields, files: received } = await readUploadForm(app, req, { fileMax: app.config.uploadMaxBytes, requestMax: requestMaxBytes, maxFiles });
  let removedNames: string[] = [];
  try {
    const parsed = ZDocumentUpdateFields.safeParse(fields);
    if (!parsed.success) throw fieldErrorsOf(parsed.error);
    const body = parsed.data;
    if (body.id != null) requireVersion(body.version);
    const removeIds = [...new Set(body.filesRemoved.split(',').map((s) => s.trim()).filter(Boolean).map(Number))];
    const typed: (ReceivedFile & { mime: string; ext: string; systemName: string })[] = [];
    for (const r of received) {
      const type = await detectFileType(r.tmp, r.userName);
      if (!type) throw new AppError(415, 'files.typeNotAllowed', { name: r.userName });
      typed.push({ ...r, ...type, systemName: newSystemName(type.ext) });
    }
    // The new files written first, each named pending, claimed by the document's commit (decisions 104, 109).
    const result = await writeStoredFiles(app, async (stored) => {
      await stored.note(typed.map((f) => f.systemName));
      for (const f of typed) await stored.put(f.systemName, { path: f.tmp });
      return stored.transaction(async (tx) => {
        let id = body.id ?? null;
        let version = 1;
        const changes: Record<string, unknown> = {};
        const description = body.description.replace(/\r\n/g, '\n').trim() || null;
        if (id == null) {
          const [row] = await tx
            .insert(documents)
            .values({ name: body.name, description, createdBy: caller.userId, modifiedBy: caller.userId })
            .returning({ id: documents.id });
          id = row!.id;
          changes.name = body.name;
          changes.description = description;
        } else {
          const [current] = await tx.select().from(documents).where(eq(documents.id, id)).for('update');
          if (!current) throw notFound('documents.notFound');
          if (current.version !== body.version) throw conflict(await requireDocument(app, tx, id));
          version = current.version;
          if (current.name !== body.name) changes.name = body.name;
          if ((current.description ?? null) !== description) changes.description = description;
        }
        const docId = id;
        if (removeIds.length) {
          const gone = await tx
            .delete(files)
            .where(and(eq(files.parentType, KIND), eq(files.parentId, docId), inArray(files.id, removeIds)))
            .returning({ id: files.id, systemName: files.systemName, userName: files.userName, thumbName: files.thumbName, webName: files.webName });
          if (gone.length !== removeIds.length) throw new AppError(400, 'errors.validation', {}, { filesRemoved: [{ code: 'documents.fileNotFound' }] });
          removedNames = gone.flatMap(storedNames);
          await noteFilesToRemove(tx, removedNames);
          changes.filesRemoved = gone.map((g) => g.userName);
        }
        const [{ count, max }] = (await tx
          .select({ count: sql<number>`count(*)::int`, max: sql<number>`coalesce(max(${files.sortOrder}), -1)::int` })
          .from(files)
          .where(and(eq(files.parentType, KIND), eq(files.parentId, docId)))) as [{ count: number; max: number }];
        if (count + typed.length > DOCUMENT_FILES_MAX) throw new AppError(400, 'errors.validation', {}, { files: [{ code: 'documents.tooManyFiles', params: { max: DOCUMENT_FILES_MAX } }] });
        if (typed.length) {
          await tx.insert(files).values(
            typed.map((f, i) => ({
              systemName: f.systemName,
              userName: f.userName,
              mime: f.mime,
              size: f.size,
              parentType: KIND,
              parentId: docId,
              type: 'document',
              sortOrder: max + 1 + i,
              createdBy: caller.userId,
            })),
          );
          await stored.claim(tx);
          changes.filesAdded = typed.map((f) => f.userName);
        }
        if (body.id == null || Object.keys(changes).length) {
          if (body.id != null) {
            await tx
              .update(documents)
              .set({ name: body.name, description, version: version + 1, modifiedOn: new Date(), modifiedBy: caller.userId })
              .where(eq(documents.id, docId));
          }
          await logAction(tx, caller.actor, { action: body.id == null ? 'Create' : 'Update', entity: ENTITY, entityId: docId, message: body.name, data: changes });
        }
        return requireDocument(app, tx, docId);
      });
    });
    await removeNotedFiles(app, removedNames);
    return result;
  } finally {
    await dropScratch(received);
  }
}

/** DELETE /api/Documents/{id}: the document, its files' rows, then their stored content. */
export async function deleteDocument(app: FastifyInstance, caller: Caller, id: number): Promise<void> {
  const names = await app.db.transaction(async (tx) => {
    const [current] = await tx.select().from(documents).where(eq(documents.id, id)).for('update');
    if (!current) throw notFound('documents.notFound');
    const gone = await tx
      .delete(files)
      .where(and(eq(files.parentType, KIND), eq(files.parentId, id)))
      .returning({ systemName: files.systemName, userName: files.userName, thumbName: files.thumbName, webName: files.webName });
    await tx.delete(documents).where(eq(documents.id, id));
    await noteFilesToRemove(tx, gone.flatMap(storedNames));
    await logAction(tx, caller.actor, { action: 'Delete', entity: ENTITY, entityId: id, message: current.name, data: { files: gone.map((g) => g.userName) } });
    return gone.flatMap(storedNames);
  });
  await removeNotedFiles(app, names);
}
