import { calls } from './call.ts';
import type { HEALTH_API, SHELL_API } from './shell.ts';

/**
 * The application's shell: health, the texts (`/api/Localization`), the web's settings, the navbar's
 * unread alerts, global search, the home page (decision 057).
 */
export const SHELL = {
  calls: calls<typeof SHELL_API>({
    health: 'GET /api/health',
    localization: 'GET /api/Localization',
    config: 'GET /api/config',
    unreadCount: 'GET /api/Alert/unreadCount',
    search: 'GET /api/search',
    home: 'GET /api/home',
  }),
  screens: {
    home: '/CRM',
  },
} as const;

/** What a load balancer asks (decision 062): the process answers; the instance takes requests. */
export const HEALTH = {
  calls: calls<typeof HEALTH_API>({
    live: 'GET /api/health/live',
    ready: 'GET /api/health/ready',
  }),
} as const;
