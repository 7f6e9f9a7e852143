import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { ZImportPreviewAnswer, ZImportRequest, ZImportRunAnswer, ZImportRunRequest, ZImportTemplateQuery, ZImportUploadAnswer } from '@crm/contract';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { importTemplate, previewImport, runImport, uploadImport } from './imports.service.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';

/**
 * Bringing owners and properties in from a spreadsheet (decision 052): upload, preview, import,
 * and the template. Office administrators only, as the other settings' imports.
 */
export const importsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered here, so multipart bodies are parsed only by this module's routes; one file, as large as any upload.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: app.config.uploadMaxBytes, files: 1, fields: 5, parts: 6 } });
  const tags = ['import'];
  const caller = (req: { user?: unknown; actor: { id: number | null; name: string | null } }) => ({ user: req.user as never, actor: req.actor });

  app.post(
    '/api/import/upload',
    { config: { access: OFFICE_ADMIN }, bodyLimit: formBodyLimit(app.config.uploadMaxBytes), schema: { tags, consumes: ['multipart/form-data'], response: { 200: ZImportUploadAnswer } } },
    async (req) => uploadImport(app, req, caller(req), req.culture),
  );
  app.post(
    '/api/import/preview',
    { config: { access: OFFICE_ADMIN }, schema: { tags, body: ZImportRequest, response: { 200: ZImportPreviewAnswer } } },
    async (req) => previewImport(app, req.body, caller(req), req.culture),
  );
  app.post(
    '/api/import/run',
    { config: { access: OFFICE_ADMIN }, schema: { tags, body: ZImportRunRequest, response: { 200: ZImportRunAnswer } } },
    async (req) => runImport(app, req.body, caller(req), req.culture),
  );
  app.get(
    '/api/import/template',
    { config: { access: OFFICE_ADMIN }, schema: { tags, querystring: ZImportTemplateQuery, response: { 200: z.any().describe('xlsx workbook') } } },
    async (req, reply) => {
      const name = req.query.kind === 'owners' ? 'Owners-template.xlsx' : 'Properties-template.xlsx';
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store')
        .send(await importTemplate(app, req.query.kind, req.culture));
    },
  );
};
