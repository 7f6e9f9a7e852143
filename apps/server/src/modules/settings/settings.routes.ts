import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { isLocalAddress, LOCALIZATION_IMPORT_MAX_BYTES, LOGO_MAX_BYTES, SETTINGS_API } from '@crm/contract';
import { SETTINGS } from '@crm/contract/resources';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { sendDownload } from '../files/files.service.ts';
import { searchActionLog } from './action-log.service.ts';
import { exportEmails, exportLocalization, importLocalization } from './settings.service.ts';
import { deleteSiteLogo, getSiteSettings, linkBaseOf, siteLogoStream, updateSiteSettings, uploadSiteLogo } from './site-settings.service.ts';
import { sourceOptions } from '../accounts/accounts.service.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';
import { previewMail } from '../../mail/preview.ts';

/**
 * Settings (spec 001, 2.12 and 7): the texts' export and import, the mailing-list exports, the
 * action log and the agency's details on its public site (decision 022). Office administrators only: the menu hides Settings from branch users, and the
 * server refuses everyone else.
 */
export const settingsRoutes = async (app: FastifyInstance) => {
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: LOCALIZATION_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  registerCalls(
    app,
    SETTINGS.calls,
    SETTINGS_API,
    {
      localizationExport: {
        access: OFFICE_ADMIN,
        handler: async (req, reply) => sendDownload(app, req, reply, { entity: 'Localization', name: 'Localization.xlsx' }, () => exportLocalization(app)),
      },
      localizationImport: {
        access: OFFICE_ADMIN,
        bodyLimit: formBodyLimit(LOCALIZATION_IMPORT_MAX_BYTES),
        consumes: ['multipart/form-data'],
        handler: async (req) => importLocalization(app, req, req.actor),
      },
      dataExport: {
        access: OFFICE_ADMIN,
        handler: async (req, reply) => {
          const russianOnly = req.query.except === 'false';
          const t = (key: string) => app.translator.t(req.culture, key);
          return sendDownload(app, req, reply, { entity: 'Account', name: russianOnly ? 'Emails-Russian.xlsx' : 'Emails-Other.xlsx' }, () => exportEmails(app, russianOnly, t));
        },
      },
      actionLog: { access: OFFICE_ADMIN, handler: async (req) => searchActionLog(app, req.body, req.culture) },
      siteSettings: {
        access: OFFICE_ADMIN,
        handler: async (_req, reply) => {
          const [settings, sourceList] = await Promise.all([getSiteSettings(app.db), sourceOptions(app.db)]);
          const linkBase = linkBaseOf(app, settings.publicUrl);
          return reply.header('Cache-Control', 'no-store').send({ ...settings, sourceList, linkBase, linksLocal: isLocalAddress(linkBase) });
        },
      },
      updateSiteSettings: {
        access: OFFICE_ADMIN,
        handler: async (req) => {
          const saved = await updateSiteSettings(app.db, req.body, { id: req.user!.id, actor: req.actor });
          // The public pages made lately in this process show the new details at once (another
          // instance's copy is at most 30 s old, decision 022).
          app.publicPages.clear();
          return saved;
        },
      },
      mailPreview: { access: OFFICE_ADMIN, handler: async (req, reply) => reply.header('Cache-Control', 'no-store').send(await previewMail(app, req.query.kind, req.query.language, req.user!.id)) },
      uploadSiteLogo: {
        access: OFFICE_ADMIN,
        bodyLimit: formBodyLimit(LOGO_MAX_BYTES),
        consumes: ['multipart/form-data'],
        handler: async (req) => {
          const saved = await uploadSiteLogo(app, req, { id: req.user!.id, actor: req.actor });
          app.publicPages.clear();
          return saved;
        },
      },
      deleteSiteLogo: {
        access: OFFICE_ADMIN,
        handler: async (req) => {
          const saved = await deleteSiteLogo(app, req.query.version, { id: req.user!.id, actor: req.actor });
          app.publicPages.clear();
          return saved;
        },
      },
      siteLogo: {
        access: 'public',
        handler: async (_req, reply) =>
          reply
            .header('Content-Type', 'image/png')
            .header('Content-Disposition', 'inline; filename="logo.png"')
            .header('X-Content-Type-Options', 'nosniff')
            .header('Cache-Control', 'public, max-age=300')
            .send(await siteLogoStream(app)),
      },
    },
    { tags: ['settings'] },
  );
};
