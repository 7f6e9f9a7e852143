import { calls } from './call.ts';
import type { ACTIVITY_API, ASSIGNMENT_API } from './activities.ts';

/** Activities (spec: /api/activity/...): a record's activities, the actions list, one activity (decision 057). Shown inside records: no screen of their own. */
export const ACTIVITY = {
  calls: calls<typeof ACTIVITY_API>({
    list: 'GET /api/activity',
    actions: 'POST /api/activity/actions',
    add: 'POST /api/activity/add',
    update: 'POST /api/activity/update',
    view: 'GET /api/activity/:id',
    remove: 'DELETE /api/activity/:id',
  }),
  screens: {},
} as const;

/** Assignments (spec: /api/assignment/...): the staff assigned to a record (decision 057). Shown inside records. */
export const ASSIGNMENT = {
  calls: calls<typeof ASSIGNMENT_API>({
    list: 'GET /api/assignment/:parent/:parentId',
    add: 'POST /api/assignment/:parent/add',
    remove: 'DELETE /api/assignment/:parent/:parentId/:accountId',
  }),
  screens: {},
} as const;
