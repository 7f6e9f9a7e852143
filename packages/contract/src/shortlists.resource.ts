import { calls } from './call.ts';
import type { SHORTLIST_API } from './shortlists.ts';

/**
 * Shortlists (decision 049): a lead's properties sent to its client, sent again, withdrawn; the
 * client's page by its link's token (no sign-in), the client's answers and the photos (decision 057).
 */
export const SHORTLIST = {
  calls: calls<typeof SHORTLIST_API>({
    send: 'POST /api/lead/:id/shortlist',
    list: 'GET /api/lead/:id/shortlists',
    again: 'POST /api/lead/:id/shortlist/:shortlistId/again',
    withdraw: 'POST /api/lead/:id/shortlist/:shortlistId/withdraw',
    view: 'GET /api/shortlist/:token',
    answer: 'POST /api/shortlist/:token/answer',
    photo: 'GET /api/shortlist/:token/photo/:objectId',
  }),
  screens: {
    page: '/Shortlist/:token',
  },
} as const;
