import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { inArray } from 'drizzle-orm';
import { files } from '../../db/schema/index.ts';
import { LinkKind, ZFileGetQuery, ZFileListAnswer, ZFileListQuery, ZFileNameParam, ZFileNamedParam, ZFileReorder, ZFileSetParent, ZFileUploadAnswer, ZOk, type TFileGetQuery } from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import {
  cleanIncoming,
  contentDisposition,
  deleteFile,
  findFile,
  listFiles,
  purgeOrphanFiles,
  reorderFiles,
  sendStoredFile,
  setFilesParent,
  uploadFiles,
  PHOTO_TYPE,
  type FilesChanging,
} from './files.service.ts';
import type { Actor } from '../../lib/audit.ts';
import { objectPhotosChanged } from '../objects/objects.service.ts';
import { checkFileParentVisible } from './file-parents.ts';
import { filePageOnError } from './file-page.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';

/**
 * Files: upload (POST /api/files, multipart field `files`), open (GET /api/files/{systemName or id}),
 * remove, attach to a record (setParent), a record's list, and reordering.
 */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  /** An object's photos changing is a change of the object: publishing judges it again (decision 029). */
  const objectPhotos =
    (actor: Actor, what: 'imagesAttached' | 'imagesRemoved' | 'imagesOrder'): FilesChanging =>
    async (tx, parent) => {
      if (parent.parentType === LinkKind.Object && parent.types.some((t) => t?.toLowerCase() === PHOTO_TYPE)) {
        await objectPhotosChanged(app, tx, parent.parentId, actor, what);
      }
    };
  // Registered here, so multipart bodies are parsed only by this module's routes.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: app.config.uploadMaxBytes, files: app.config.upload.maxFiles, fields: 20, parts: app.config.upload.maxFiles + 20, fieldSize: 10000 },
  });

  void cleanIncoming(app.config.dataDir).catch(() => {});
  // Uploads left unattached while the CRM was stopped go at start, not a day later.
  app.addHook('onReady', () => {
    void (async () => {
      while ((await purgeOrphanFiles(app)) > 0);
    })().catch((err: unknown) => app.log.warn({ err }, 'purging unattached uploads failed'));
  });

  app.post(
    '/api/files',
    {
      config: { access: STAFF },
      bodyLimit: formBodyLimit(app.config.upload.requestMaxBytes),
      schema: { tags: ['files'], consumes: ['multipart/form-data'], response: { 200: ZFileUploadAnswer } },
    },
    async (req) => {
      const stored = await uploadFiles(app, req);
      void purgeOrphanFiles(app).catch((err: unknown) => req.log.warn({ err }, 'purging unattached uploads failed'));
      return stored;
    },
  );

  app.get(
    '/api/files',
    { config: { access: STAFF }, schema: { tags: ['files'], querystring: ZFileListQuery, response: { 200: ZFileListAnswer } } },
    async (req) => {
      await checkFileParentVisible(app.db, req.user!, req.query.parentType, req.query.parentId);
      return { items: await listFiles(app.db, req.query.parentType, req.query.parentId, app.config.timeZone) };
    },
  );

  /** A stored file, or a picture's copy, as itself. */
  const sendFile = async (req: FastifyRequest<{ Params: { systemName: string }; Querystring: TFileGetQuery }>, reply: FastifyReply) => {
    // Gone since the link was shown: a tab opened on it gets a page that says so (filePageOnError), the API its answer.
    const gone = () => notFound('files.notFound');
    const row = await findFile(app.db, req.params.systemName);
    if (!row) throw gone();
    await checkFileParentVisible(app.db, req.user!, row.parentType, row.parentId);
    const copy = req.query.size === 'thumb' ? row.thumbName : req.query.size === 'web' ? row.webName : null;
    const stream = await getFileStorage(app.config.dataDir).get(copy ?? row.systemName);
    if (!stream) throw gone();
    if (copy) {
      // A picture's copy: WebP, shown inline under the picture's own name.
      return reply
        .header('Content-Type', 'image/webp')
        .header('Content-Disposition', contentDisposition('inline', row.userName.replace(/\.[^.]{1,10}$/, '') + '.webp'))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, max-age=86400')
        .send(stream);
    }
    return sendStoredFile(reply, row, stream, 'private, max-age=3600');
  };
  // Also opened by <img> and links, which send no bearer token: the session's HttpOnly file cookie
  // (set by the sign-in, ended with the session) is accepted here and nowhere else (decision 012).
  // A link opened in a tab that cannot show the file (gone, signed out, not allowed) gets a page saying why.
  app.get(
    '/api/files/:systemName',
    { config: { access: STAFF, fileCookie: true }, errorHandler: filePageOnError(app), schema: { tags: ['files'], params: ZFileNameParam, querystring: ZFileGetQuery } },
    sendFile,
  );
  // The same file with its own name as the address's last part (the links the screens give): a tab
  // opened on a PDF or a picture is titled by it, and "Save as" offers it, not the random stored name.
  app.get(
    '/api/files/:systemName/:name',
    { config: { access: STAFF, fileCookie: true }, errorHandler: filePageOnError(app), schema: { tags: ['files'], params: ZFileNamedParam, querystring: ZFileGetQuery } },
    sendFile,
  );

  app.delete(
    '/api/files/:systemName',
    { config: { access: STAFF }, schema: { tags: ['files'], params: ZFileNameParam, response: { 200: ZOk } } },
    async (req) => {
      const row = await findFile(app.db, req.params.systemName);
      if (row) await checkFileParentVisible(app.db, req.user!, row.parentType, row.parentId);
      await deleteFile(app, req.actor, req.params.systemName, objectPhotos(req.actor, 'imagesRemoved'));
      return { ok: true as const };
    },
  );

  app.post(
    '/api/files/setParent',
    { config: { access: STAFF }, schema: { tags: ['files'], body: ZFileSetParent, response: { 200: ZFileListAnswer.extend({ attached: z.array(z.number().int()) }) } } },
    async (req) => {
      await checkFileParentVisible(app.db, req.user!, req.body.entityType, req.body.id);
      const attached = await app.db.transaction(async (tx) => {
        // The object's row is locked before its files, as an object's update does.
        const photos = objectPhotos(req.actor, 'imagesAttached');
        if (req.body.type) await photos(tx, { parentType: req.body.entityType, parentId: req.body.id, types: [req.body.type] });
        return setFilesParent(tx, req.actor, req.body);
      });
      return { attached, items: await listFiles(app.db, req.body.entityType, req.body.id, app.config.timeZone) };
    },
  );

  app.post(
    '/api/files/reorder',
    { config: { access: STAFF }, schema: { tags: ['files'], body: ZFileReorder, response: { 200: ZFileListAnswer } } },
    async (req) => {
      const parents = await app.db.selectDistinct({ parentType: files.parentType, parentId: files.parentId }).from(files).where(inArray(files.id, req.body.ids));
      for (const p of parents) await checkFileParentVisible(app.db, req.user!, p.parentType, p.parentId);
      return { items: await reorderFiles(app, req.actor, req.body.ids, objectPhotos(req.actor, 'imagesOrder')) };
    },
  );
};
