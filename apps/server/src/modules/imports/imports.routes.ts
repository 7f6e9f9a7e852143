import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { IMPORT_API } from '@crm/contract';
import { IMPORT } from '@crm/contract/resources';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { importTemplate, previewImport, runImport, uploadImport } from './imports.service.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';

/**
 * Bringing owners, properties, mandates and leads in from a spreadsheet (decisions 052, 094): upload, preview, import,
 * and the template. Office administrators only, as the other settings' imports.
 */
export const importsRoutes = async (app: FastifyInstance) => {
  // Registered here, so multipart bodies are parsed only by this module's routes; one file, as large as any upload.
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: app.config.uploadMaxBytes, files: 1, fields: 5, parts: 6 } });
  const caller = (req: { user?: unknown; actor: { id: number | null; name: string | null } }) => ({ user: req.user as never, actor: req.actor });

  registerCalls(
    app,
    IMPORT.calls,
    IMPORT_API,
    {
      upload: {
        access: OFFICE_ADMIN,
        bodyLimit: formBodyLimit(app.config.uploadMaxBytes),
        consumes: ['multipart/form-data'],
        handler: async (req) => uploadImport(app, req, caller(req), req.culture),
      },
      preview: { access: OFFICE_ADMIN, handler: async (req) => previewImport(app, req.body, caller(req), req.culture) },
      run: { access: OFFICE_ADMIN, handler: async (req) => runImport(app, req.body, caller(req), req.culture) },
      template: {
        access: OFFICE_ADMIN,
        handler: async (req, reply) => {
          const name = { owners: 'Owners-template.xlsx', objects: 'Properties-template.xlsx', mandates: 'Mandates-template.xlsx', leads: 'Leads-template.xlsx', deals: 'Deals-template.xlsx' }[req.query.kind];
          return reply
            .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
            .header('Content-Disposition', `attachment; filename="${name}"`)
            .header('Cache-Control', 'no-store')
            .send(await importTemplate(app, req.query.kind, req.culture));
        },
      },
    },
    { tags: ['import'] },
  );
};
