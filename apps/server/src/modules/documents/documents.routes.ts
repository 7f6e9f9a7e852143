import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { DOCUMENT_API } from '@crm/contract';
import { DOCUMENT } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { deleteDocument, listDocuments, requireDocument, saveDocument } from './documents.service.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';

const caller = (req: FastifyRequest) => ({ userId: req.user!.id, actor: req.actor });

/**
 * The document forms library (spec 001, 7 Documents): the list, one document, the update as a
 * multipart form (the document's fields and its new files together), and delete.
 */
export const documentsRoutes = async (app: FastifyInstance) => {
  // Registered here, so that only this module's routes parse multipart bodies (like the files module).
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: app.config.uploadMaxBytes, files: app.config.upload.maxFiles, fields: 20, parts: app.config.upload.maxFiles + 20, fieldSize: 10000 },
  });

  registerCalls(
    app,
    DOCUMENT.calls,
    DOCUMENT_API,
    {
      list: { access: STAFF, handler: async (req) => listDocuments(app, req.query) },
      edit: { access: STAFF, handler: async (req) => requireDocument(app, app.db, req.params.id) },
      update: {
        access: STAFF,
        bodyLimit: formBodyLimit(app.config.upload.requestMaxBytes),
        consumes: ['multipart/form-data'],
        handler: async (req) => saveDocument(app, req, caller(req)),
      },
      remove: okRoute(STAFF, (req) => deleteDocument(app, caller(req), req.params.id)),
    },
    { tags: ['documents'] },
  );
};
