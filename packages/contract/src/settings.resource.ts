import { calls, type ListDeclaration } from './call.ts';
import type { SETTINGS_API } from './settings.ts';

/**
 * Settings (spec: /api/LocalizationExport, /api/DataExport, /api/actionLog, and /api/SiteSettings,
 * decision 022): the texts' export and import, the mailing lists, the action log (who changed
 * what), the agency's details on its site (decision 057).
 */
export const SETTINGS = {
  calls: calls<typeof SETTINGS_API>({
    localizationExport: 'GET /api/LocalizationExport',
    localizationImport: 'POST /api/LocalizationExport',
    dataExport: 'GET /api/DataExport',
    actionLog: 'POST /api/actionLog',
    siteSettings: 'GET /api/SiteSettings',
    updateSiteSettings: 'POST /api/SiteSettings',
    mailPreview: 'GET /api/SiteSettings/mailPreview',
    uploadSiteLogo: 'POST /api/SiteSettings/logo',
    deleteSiteLogo: 'DELETE /api/SiteSettings/logo',
    siteLogo: 'GET /api/public/logo',
  }),
  screens: {
    settings: '/Settings',
    actionLog: '/ActionLog',
    /** The first administrator's set-up of the agency's details (issue 45). */
    setup: '/Settings/Setup',
  },
  lists: {
    actionLog: { testId: 'action-log', title: 'title.actionLog', empty: 'actionLog.ui.empty', noMatch: 'actionLog.ui.noMatch' },
  } satisfies Record<string, ListDeclaration>,
} as const;
