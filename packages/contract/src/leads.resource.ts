import { calls, type ListDeclaration } from './call.ts';
import type { LEAD_API } from './leads.ts';

/**
 * Leads, the clients' demands (spec: /api/lead/...): the list and its download (Leads.xlsx), the record (add, get, view, update,
 * delete), its offered objects, the matching objects and the matching leads of an object, the lead
 * picker (decision 057). A lead's shortlists and viewings are theirs (`SHORTLIST`, `VIEWING`).
 */
export const LEAD = {
  calls: calls<typeof LEAD_API>({
    search: 'POST /api/lead/search',
    download: 'POST /api/lead/download',
    add: 'POST /api/lead/add',
    discard: 'POST /api/lead/discard',
    get: 'GET /api/lead/get/:id',
    view: 'GET /api/lead/view/:id',
    update: 'POST /api/lead/update',
    remove: 'DELETE /api/lead/:id',
    addObject: 'POST /api/lead/addObject',
    removeObject: 'POST /api/lead/removeObject',
    matches: 'GET /api/lead/:id/matches',
    matchesSeen: 'POST /api/lead/:id/matches/seen',
    notSuitable: 'POST /api/lead/:id/notSuitable',
    forObject: 'GET /api/object/:id/matchingLeads',
    searchQuick: 'GET /api/lead/searchQuick',
  }),
  screens: {
    list: '/Leads',
    add: '/Leads/Add/:id?',
    view: '/Leads/View/:id/:viewMode?',
  },
  list: {
    testId: 'leads',
    title: 'title.leads',
    empty: 'leads.ui.empty',
    noMatch: 'leads.ui.noMatch',
    add: { to: '/Leads/Add/:id?', label: 'leads.ui.add' },
  } satisfies ListDeclaration,
} as const;
