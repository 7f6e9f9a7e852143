import { calls } from './call.ts';
import type { PORTAL_API } from './portals.ts';

/**
 * The property portals (issue 48, decision 083): channels set up by office admins, each property's
 * standing in each, and each channel's feed and report address (no sign-in, under its secret).
 */
export const PORTAL = {
  calls: calls<typeof PORTAL_API>({
    list: 'GET /api/PortalChannels',
    create: 'POST /api/PortalChannels',
    update: 'POST /api/PortalChannels/:id',
    remove: 'DELETE /api/PortalChannels/:id',
    objectStatus: 'GET /api/object/portals/:id',
    include: 'POST /api/object/portals/:id',
    feed: 'GET /feed/:secret/:file',
    report: 'POST /feed/:secret/report',
  }),
  screens: {},
} as const;
