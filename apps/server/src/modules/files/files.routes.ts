import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { inArray } from 'drizzle-orm';
import { files } from '../../db/schema/index.ts';
import { FILE_API, LinkKind, type TFileGetQuery } from '@crm/contract';
import { FILE } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
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
export const filesRoutes = async (app: FastifyInstance) => {
  /** An object's photos changing is a change of the object: publishing judges it again (decision 022). */
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

  /** A stored file, or a picture's copy, as itself. */
  const sendFile = async (req: FastifyRequest<{ Params: { systemName: string }; Querystring: TFileGetQuery }>, reply: FastifyReply) => {
    // Gone since the link was shown: a tab opened on it gets a page that says so (filePageOnError), the API its answer.
    const gone = () => notFound('files.notFound');
    const row = await findFile(app.db, req.params.systemName);
    if (!row) throw gone();
    await checkFileParentVisible(app.db, req.user!, row.parentType, row.parentId);
    const copy = req.query.size === 'thumb' ? row.thumbName : req.query.size === 'web' ? row.webName : null;
    const storage = getFileStorage(app.config.dataDir);
    // A picture's copy from an S3 store with presigned addresses on (S3_PRESIGN_SECONDS): the browser
    // reads it from the store directly, for a short while, once this check let it.
    const presigned = copy && storage.presign
      ? await storage.presign(copy, { contentType: 'image/webp', contentDisposition: contentDisposition('inline', row.userName.replace(/\.[^.]{1,10}$/, '') + '.webp'), cacheControl: 'private, max-age=86400' })
      : undefined;
    if (presigned) return reply.header('Cache-Control', 'private, no-store').redirect(presigned, 302);
    const stream = await storage.get(copy ?? row.systemName);
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

  registerCalls(
    app,
    FILE.calls,
    FILE_API,
    {
      upload: {
        access: STAFF,
        bodyLimit: formBodyLimit(app.config.upload.requestMaxBytes),
        consumes: ['multipart/form-data'],
        handler: async (req) => {
          const stored = await uploadFiles(app, req);
          void purgeOrphanFiles(app).catch((err: unknown) => req.log.warn({ err }, 'purging unattached uploads failed'));
          return stored;
        },
      },
      list: {
        access: STAFF,
        handler: async (req) => {
          await checkFileParentVisible(app.db, req.user!, req.query.parentType, req.query.parentId);
          return { items: await listFiles(app.db, req.query.parentType, req.query.parentId, app.config.timeZone) };
        },
      },
      // Also opened by <img> and links, which send no bearer token: the session's HttpOnly file cookie
      // (set by the sign-in, ended with the session) is accepted here and nowhere else (decision 012).
      // A link opened in a tab that cannot show the file (gone, signed out, not allowed) gets a page saying why.
      get: { access: STAFF, config: { fileCookie: true }, errorHandler: filePageOnError(app), handler: sendFile },
      // The same file with its own name as the address's last part (the links the screens give): a tab
      // opened on a PDF or a picture is titled by it, and "Save as" offers it, not the random stored name.
      getNamed: { access: STAFF, config: { fileCookie: true }, errorHandler: filePageOnError(app), handler: sendFile },
      remove: {
        access: STAFF,
        handler: async (req) => {
          const row = await findFile(app.db, req.params.systemName);
          if (row) await checkFileParentVisible(app.db, req.user!, row.parentType, row.parentId);
          await deleteFile(app, req.actor, req.params.systemName, objectPhotos(req.actor, 'imagesRemoved'));
          return { ok: true as const };
        },
      },
      setParent: {
        access: STAFF,
        handler: async (req) => {
          await checkFileParentVisible(app.db, req.user!, req.body.entityType, req.body.id);
          const attached = await app.db.transaction(async (tx) => {
            // The object's row is locked before its files, as an object's update does.
            const photos = objectPhotos(req.actor, 'imagesAttached');
            if (req.body.type) await photos(tx, { parentType: req.body.entityType, parentId: req.body.id, types: [req.body.type] });
            return setFilesParent(tx, req.actor, req.body);
          });
          return { attached, items: await listFiles(app.db, req.body.entityType, req.body.id, app.config.timeZone) };
        },
      },
      reorder: {
        access: STAFF,
        handler: async (req) => {
          const parents = await app.db.selectDistinct({ parentType: files.parentType, parentId: files.parentId }).from(files).where(inArray(files.id, req.body.ids));
          for (const p of parents) await checkFileParentVisible(app.db, req.user!, p.parentType, p.parentId);
          return { items: await reorderFiles(app, req.actor, req.body.ids, objectPhotos(req.actor, 'imagesOrder')) };
        },
      },
    },
    { tags: ['files'] },
  );
};
