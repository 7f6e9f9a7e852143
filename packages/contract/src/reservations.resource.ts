import { calls, recordCalls, type ListDeclaration } from './call.ts';
import type { RESERVATION_API } from './reservations.ts';

/** Short-let reservations (spec: /api/Reservation/...): the list and its download, availability, the record (decision 057). */
export const RESERVATION = {
  calls: calls<typeof RESERVATION_API>({
    ...recordCalls('/api/Reservation', ['search', 'download']),
    availability: ['POST', '/api/Reservation/availability'],
    ...recordCalls('/api/Reservation', ['add', 'edit', 'update', 'remove']),
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
