import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { z } from 'zod';
import { LOCALIZATION_IMPORT_MAX_BYTES, ZActionLogAnswer, ZActionLogSearch, ZDataExportQuery, ZLocalizationImportAnswer, ZSiteSettings, ZSiteSettingsAnswer, ZSiteSettingsUpdate } from '@crm/contract';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { sendDownload } from '../files/files.service.ts';
import { searchActionLog } from './action-log.service.ts';
import { exportEmails, exportLocalization, importLocalization } from './settings.service.ts';
import { getSiteSettings, updateSiteSettings } from './site-settings.service.ts';
import { sourceOptions } from '../accounts/accounts.service.ts';
import { formBodyLimit } from '../../lib/upload-form.ts';

/**
 * Settings (spec 001, 2.12 and 7): the texts' export and import, the mailing-list exports, the
 * action log and the agency's details on its public site (decision 029). Office administrators only: the menu hides Settings from branch users, and the
 * server refuses everyone else.
 */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: LOCALIZATION_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const tags = ['settings'];
  const binary = z.any().describe('xlsx workbook');

  app.get(
    '/api/LocalizationExport',
    { config: { access: OFFICE_ADMIN }, schema: { tags, response: { 200: binary } } },
    async (req, reply) => sendDownload(app, req, reply, { entity: 'Localization', name: 'Localization.xlsx' }, () => exportLocalization(app)),
  );
  app.post(
    '/api/LocalizationExport',
    { config: { access: OFFICE_ADMIN }, bodyLimit: formBodyLimit(LOCALIZATION_IMPORT_MAX_BYTES), schema: { tags, consumes: ['multipart/form-data'], response: { 200: ZLocalizationImportAnswer } } },
    async (req) => importLocalization(app, req, req.actor),
  );
  app.get(
    '/api/DataExport',
    { config: { access: OFFICE_ADMIN }, schema: { tags, querystring: ZDataExportQuery, response: { 200: binary } } },
    async (req, reply) => {
      const russianOnly = req.query.except === 'false';
      const t = (key: string) => app.translator.t(req.culture, key);
      return sendDownload(app, req, reply, { entity: 'Account', name: russianOnly ? 'Emails-Russian.xlsx' : 'Emails-Other.xlsx' }, () => exportEmails(app, russianOnly, t));
    },
  );
  app.post(
    '/api/actionLog',
    { config: { access: OFFICE_ADMIN }, schema: { tags, body: ZActionLogSearch, response: { 200: ZActionLogAnswer } } },
    async (req) => searchActionLog(app, req.body, req.culture),
  );
  app.get(
    '/api/SiteSettings',
    { config: { access: OFFICE_ADMIN }, schema: { tags, response: { 200: ZSiteSettingsAnswer } } },
    async (_req, reply) => {
      const [settings, sourceList] = await Promise.all([getSiteSettings(app.db), sourceOptions(app.db)]);
      return reply.header('Cache-Control', 'no-store').send({ ...settings, sourceList });
    },
  );
  app.post(
    '/api/SiteSettings',
    { config: { access: OFFICE_ADMIN }, schema: { tags, body: ZSiteSettingsUpdate, response: { 200: ZSiteSettings } } },
    async (req) => {
      const saved = await updateSiteSettings(app.db, req.body, { id: req.user!.id, actor: req.actor });
      // The public pages made lately in this process show the new details at once (another
      // instance's copy is at most 30 s old, decision 022).
      app.publicPages.clear();
      return saved;
    },
  );
};
