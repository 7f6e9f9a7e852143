import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RESERVATION_API } from '@crm/contract';
import { RESERVATION } from '@crm/contract/resources';
import { STAFF_NO_BRANCH } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { availability } from './availability.ts';
import { sendDownload } from '../files/files.service.ts';
import { reservationsWorkbook } from './reservations.xlsx.ts';
import { RESERVATION_TOTALS_FOLD_JOB, blankReservation, deleteReservation, foldReservationTotals, getReservation, moveReservations, saveReservation, searchReservations } from './reservations.service.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/**
 * Short-let reservations (spec: /api/Reservation/...). Hidden from branch users: the spec leaves
 * them out of the branch menu, and the server refuses them too.
 */
export const reservationsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
    app.accountMergeSteps.push(moveReservations);
    // The list's sums kept per month (decision 101): the deltas of the saves added in every minute.
    app.jobs.register(RESERVATION_TOTALS_FOLD_JOB, () => foldReservationTotals(app), { everySeconds: 60, maxAttempts: 2 });

    registerCalls(
      app,
      RESERVATION.calls,
      RESERVATION_API,
      {
        search: { access: STAFF_NO_BRANCH, handler: async (req) => searchReservations(app, req.body, tr(req), req.culture) },
        // Reservations.xlsx: every booking the list's filter matches, in the list's order.
        download: {
          access: STAFF_NO_BRANCH,
          handler: async (req, reply) =>
            sendDownload(app, req, reply, { entity: 'Reservation', name: 'Reservations.xlsx' }, () => reservationsWorkbook(app, req.body, tr(req), req.culture)),
        },
        availability: { access: STAFF_NO_BRANCH, handler: async (req) => availability(app, req.body, tr(req), req.culture) },
        add: { access: STAFF_NO_BRANCH, handler: async (req) => blankReservation(app, req.query, tr(req), req.culture) },
        edit: { access: STAFF_NO_BRANCH, handler: async (req) => getReservation(app, app.db, req.params.id, tr(req), req.culture) },
        update: { access: STAFF_NO_BRANCH, handler: async (req) => saveReservation(app, caller(req), req.body, req.culture, tr(req)) },
        remove: okRoute(STAFF_NO_BRANCH, (req) => deleteReservation(caller(req), app.db, req.params.id)),
      },
      { tags: ['reservations'] },
    );
  },
  { name: 'reservations', dependencies: ['accounts'] },
);
