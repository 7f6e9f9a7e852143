import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { ZDocument, ZDocumentListAnswer, ZDocumentListQuery, ZIdParam, ZOk } from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { deleteDocument, listDocuments, requireDocument, saveDocument } from './documents.service.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';

const caller = (req: FastifyRequest) => ({ userId: req.user!.id, actor: req.actor });

/**
 * The document forms library (spec 001, 7 Documents): the list, one document, the update as a
 * multipart form (the document's fields and its new files together), and delete.
 */
export const documentsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, so that only this module's routes parse multipart bodies (like the files module).
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: app.config.uploadMaxBytes, files: app.config.upload.maxFiles, fields: 20, parts: app.config.upload.maxFiles + 20, fieldSize: 10000 },
  });
  const tags = ['documents'];

  app.get(
    '/api/Documents',
    { config: { access: STAFF }, schema: { tags, querystring: ZDocumentListQuery, response: { 200: ZDocumentListAnswer } } },
    async (req) => listDocuments(app, req.query),
  );
  app.get(
    '/api/Documents/edit/:id',
    { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZDocument } } },
    async (req) => requireDocument(app, app.db, req.params.id),
  );
  app.post(
    '/api/Documents/update',
    { config: { access: STAFF }, bodyLimit: formBodyLimit(app.config.upload.requestMaxBytes), schema: { tags, consumes: ['multipart/form-data'], response: { 200: ZDocument } } },
    async (req) => saveDocument(app, req, caller(req)),
  );
  app.delete(
    '/api/Documents/:id',
    { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
    async (req) => {
      await deleteDocument(app, caller(req), req.params.id);
      return { ok: true as const };
    },
  );
};
