import { calls, type ListDeclaration } from './call.ts';
import type { ALERT_API, BACKUP_API, JOB_API } from './alerts.ts';

/**
 * Alerts (spec: /api/alert/...): the office's inbox, one alert, unread again, notes, delete
 * (decision 057). The unread count of the navbar's badge is the shell's (`SHELL.calls.unreadCount`).
 */
export const ALERT = {
  calls: calls<typeof ALERT_API>({
    list: 'POST /api/alert/list',
    view: 'GET /api/alert/:id',
    markUnread: 'POST /api/alert/mark-as-unread/:id',
    updateNotes: 'POST /api/alert/update-notes/:id',
    remove: 'DELETE /api/alert/:id',
  }),
  screens: {
    list: '/Alerts',
    view: '/Alerts/:id',
  },
  list: {
    testId: 'alerts',
    title: 'title.alerts',
    empty: 'alerts.empty',
  } satisfies ListDeclaration,
} as const;

/** Background jobs: their state and errors, a failed one retried (decision 057). */
export const JOB = {
  calls: calls<typeof JOB_API>({
    list: 'GET /api/jobs',
    retry: 'POST /api/jobs/:id/retry',
  }),
  screens: {
    list: '/Jobs',
  },
} as const;

/** Backups (decisions 043, 062): the backups kept, one now, one downloaded; shown on the jobs' screen (decision 057). */
export const BACKUP = {
  calls: calls<typeof BACKUP_API>({
    list: 'GET /api/backups',
    start: 'POST /api/backups',
    download: 'GET /api/backups/:name',
  }),
  screens: {},
} as const;
