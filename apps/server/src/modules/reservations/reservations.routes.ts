import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAvailabilityAnswer, ZAvailabilityQuery, ZIdParam, ZOk, ZReservationAddQuery, ZReservationAnswer, ZReservationDownload, ZReservationSearch, ZReservationSearchAnswer, ZReservationUpdate } from '@crm/contract';
import { STAFF_NO_BRANCH } from '../../plugins/auth.ts';
import { availability } from './availability.ts';
import { sendDownload } from '../files/files.service.ts';
import { reservationsWorkbook } from './reservations.xlsx.ts';
import { blankReservation, deleteReservation, getReservation, moveReservations, saveReservation, searchReservations } from './reservations.service.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/**
 * Short-let reservations (spec: /api/Reservation/...). Hidden from branch users: the spec leaves
 * them out of the branch menu, and the server refuses them too.
 */
export const reservationsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const tags = ['reservations'];
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
    app.accountMergeSteps.push(moveReservations);

    app.post(
      '/api/Reservation/search',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, body: ZReservationSearch, response: { 200: ZReservationSearchAnswer } } },
      async (req) => searchReservations(app, req.body, tr(req), req.culture),
    );
    // Reservations.xlsx: every booking the list's filter matches, in the list's order.
    app.post(
      '/api/Reservation/download',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, body: ZReservationDownload } },
      async (req, reply) => {
        return sendDownload(app, req, reply, { entity: 'Reservation', name: 'Reservations.xlsx' }, () => reservationsWorkbook(app, req.body, tr(req), req.culture));
      },
    );
    app.post(
      '/api/Reservation/availability',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, body: ZAvailabilityQuery, response: { 200: ZAvailabilityAnswer } } },
      async (req) => availability(app, req.body, tr(req), req.culture),
    );
    app.get(
      '/api/Reservation/add',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, querystring: ZReservationAddQuery, response: { 200: ZReservationAnswer } } },
      async (req) => blankReservation(app, req.query, tr(req), req.culture),
    );
    app.get(
      '/api/Reservation/edit/:id',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, params: ZIdParam, response: { 200: ZReservationAnswer } } },
      async (req) => getReservation(app, app.db, req.params.id, tr(req), req.culture),
    );
    app.post(
      '/api/Reservation/update',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, body: ZReservationUpdate, response: { 200: ZReservationAnswer } } },
      async (req) => saveReservation(app, caller(req), req.body, req.culture, tr(req)),
    );
    app.delete(
      '/api/Reservation/:id',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await deleteReservation(caller(req), app.db, req.params.id);
        return { ok: true as const };
      },
    );
  },
  { name: 'reservations', dependencies: ['accounts'] },
);
