import { calls } from './call.ts';
import type { SHELL_API } from './shell.ts';

/**
 * The application's shell: health, the texts (`/api/Localization`), the web's settings, the navbar's
 * unread alerts, global search, the home page (decision 057).
 */
export const SHELL = {
  calls: calls<typeof SHELL_API>({
    health: ['GET', '/api/health'],
    localization: ['GET', '/api/Localization'],
    config: ['GET', '/api/config'],
    unreadCount: ['GET', '/api/Alert/unreadCount'],
    search: ['GET', '/api/search'],
    home: ['GET', '/api/home'],
  }),
  screens: {
    home: '/CRM',
  },
} as const;
