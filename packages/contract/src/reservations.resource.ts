import { calls, type ListDeclaration } from './call.ts';
import type { RESERVATION_API } from './reservations.ts';

/** Short-let reservations (spec: /api/Reservation/...): the list and its download, availability, the record (decision 057). */
export const RESERVATION = {
  calls: calls<typeof RESERVATION_API>({
    search: 'POST /api/Reservation/search',
    download: 'POST /api/Reservation/download',
    availability: 'POST /api/Reservation/availability',
    add: 'GET /api/Reservation/add',
    edit: 'GET /api/Reservation/edit/:id',
    update: 'POST /api/Reservation/update',
    remove: 'DELETE /api/Reservation/:id',
  }),
  screens: {
    list: '/Reservations',
    add: '/Reservations/Add',
    availability: '/Reservations/Availability',
    edit: '/Reservations/Edit/:id',
    view: '/Reservations/:id',
  },
  list: {
    testId: 'reservations',
    title: 'title.reservations',
    empty: 'reservations.ui.empty',
    noMatch: 'reservations.ui.noMatch',
    add: { to: '/Reservations/Add', label: 'reservations.ui.add' },
  } satisfies ListDeclaration,
} as const;
