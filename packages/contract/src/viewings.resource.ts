import { calls, type ListDeclaration } from './call.ts';
import type { VIEWING_API } from './viewings.ts';

/**
 * Viewings (spec: /api/Viewing/...): the list, the record, its sheet, a move on the calendar, a
 * lead's viewings, and the calendar of viewings and planned activities (decision 057).
 */
export const VIEWING = {
  calls: calls<typeof VIEWING_API>({
    search: 'POST /api/Viewing/search',
    add: 'GET /api/Viewing/add',
    edit: 'GET /api/Viewing/edit/:id',
    sheet: 'GET /api/Viewing/:id/sheet',
    update: 'POST /api/Viewing/update',
    move: 'POST /api/Viewing/move',
    remove: 'DELETE /api/Viewing/:id',
    forLead: 'GET /api/lead/:id/viewings',
    calendar: 'GET /api/calendar',
  }),
  screens: {
    list: '/Viewing',
    add: '/Viewing/Add',
    edit: '/Viewing/Edit/:id',
    view: '/Viewing/:id',
    sheet: '/Viewing/:id/Sheet',
    calendar: '/Calendar',
  },
  list: {
    testId: 'viewings',
    title: 'title.viewings',
    empty: 'viewings.ui.empty',
    noMatch: 'viewings.ui.noMatch',
    add: { to: '/Viewing/Add', label: 'viewings.ui.add' },
  } satisfies ListDeclaration,
} as const;
