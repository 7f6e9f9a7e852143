import { calls } from './call.ts';
import type { OWNER_REPORT_API } from './owner-reports.ts';

/**
 * The owner's report (issue 47, decision 087): a property's set-up, its links made, mailed and
 * revoked by staff, the monthly mail's switch, the viewing comments shared; the owner's page by its token.
 */
export const OWNER_REPORT = {
  calls: calls<typeof OWNER_REPORT_API>({
    state: 'GET /api/ownerReport/:id',
    createLink: 'POST /api/ownerReport/:id/link',
    send: 'POST /api/ownerReport/:id/send',
    revoke: 'POST /api/ownerReport/:id/revoke',
    monthly: 'POST /api/ownerReport/:id/monthly',
    share: 'POST /api/ownerReport/:id/share',
    view: 'GET /api/ownerReport/public/:token',
  }),
  screens: {
    page: '/OwnerReport/:token',
  },
} as const;
