import { calls, type ListDeclaration } from './call.ts';
import type { DEAL_API } from './deals.ts';

/** Deals (spec: /api/Deal/...): the list, the record, the board of deals by stage (decision 057). */
export const DEAL = {
  calls: calls<typeof DEAL_API>({
    search: 'POST /api/Deal/search',
    download: 'POST /api/Deal/download',
    add: 'GET /api/Deal/add',
    edit: 'GET /api/Deal/edit/:id',
    update: 'POST /api/Deal/update',
    move: 'POST /api/Deal/move',
    board: 'POST /api/Deal/board',
    remove: 'DELETE /api/Deal/:id',
  }),
  screens: {
    list: '/Deals',
    board: '/Deals/Board',
    add: '/Deals/Add',
    edit: '/Deals/Edit/:id',
    view: '/Deals/:id',
  },
  list: {
    testId: 'deals',
    title: 'title.deals',
    empty: 'deals.ui.empty',
    noMatch: 'deals.ui.noMatch',
    add: { to: '/Deals/Add', label: 'deals.ui.add' },
  } satisfies ListDeclaration,
} as const;
