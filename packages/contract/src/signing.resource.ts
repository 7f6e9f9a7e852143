import { calls } from './call.ts';
import type { SIGN_API } from './signing.ts';

/**
 * Documents sent for signature by link (decision 086): staff send, list and revoke a record's
 * requests; the signer's page reads its request, its PDF and signs, by the link's token alone.
 */
export const SIGN_REQUEST = {
  calls: calls<typeof SIGN_API>({
    send: 'POST /api/SignRequest/send',
    list: 'GET /api/SignRequest',
    revoke: 'POST /api/SignRequest/revoke',
    view: 'GET /api/sign/:token',
    pdf: 'GET /api/sign/:token/pdf',
    sign: 'POST /api/sign/:token',
  }),
  screens: {
    page: '/Sign/:token',
  },
} as const;
