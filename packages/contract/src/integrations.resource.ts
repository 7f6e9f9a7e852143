import { calls } from './call.ts';
import type { API_KEY_API, WEBHOOK_API } from './integrations.ts';

/** API keys (issue 48, decision 080): made, listed and revoked by office admins; the key is shown once. */
export const API_KEY = {
  calls: calls<typeof API_KEY_API>({
    list: 'GET /api/ApiKeys',
    create: 'POST /api/ApiKeys',
    revoke: 'POST /api/ApiKeys/:id/revoke',
  }),
  screens: {
    list: '/Settings/ApiKeys',
  },
} as const;

/** Webhooks (issue 48, decision 080): endpoints told of the records' changes, their deliveries, one sent again. */
export const WEBHOOK = {
  calls: calls<typeof WEBHOOK_API>({
    list: 'GET /api/Webhooks',
    create: 'POST /api/Webhooks',
    setEnabled: 'POST /api/Webhooks/:id/enabled',
    remove: 'DELETE /api/Webhooks/:id',
    deliveries: 'GET /api/Webhooks/:id/deliveries',
    resend: 'POST /api/Webhooks/deliveries/:id/resend',
  }),
  screens: {
    list: '/Settings/Webhooks',
  },
} as const;
