import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { VIEWING_API, ZCalendarAnswer } from '@crm/contract';
import { VIEWING } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { createKeptAnswers, compactDataChanges, DATA_CHANGES_COMPACT_JOB } from '../../lib/kept-answers.ts';
import { badRequest } from '../../lib/errors.ts';
import { viewingSheet } from './viewing-sheet.ts';
import { CALENDAR_TABLES, blankViewing, calendar, deleteViewing, getViewing, leadViewings, moveViewing, saveViewing, searchViewings } from './viewings.service.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/** Viewings (spec: /api/Viewing/...) and the calendar of viewings and planned activities. */
export const viewingsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root;
    const tr = (req: FastifyRequest) => (key: string, params?: Record<string, string | number>) => app.translator.t(req.culture, key, params);
    const keptCalendars = createKeptAnswers(app.db);
    // The kept answers' change rows folded (lib/kept-answers.ts): every few minutes, across all instances.
    app.jobs.register(DATA_CHANGES_COMPACT_JOB, () => compactDataChanges(app.db), { everySeconds: 300, maxAttempts: 2 });

    registerCalls(
      app,
      VIEWING.calls,
      VIEWING_API,
      {
        search: { access: STAFF, handler: async (req) => searchViewings(app, req.body, tr(req)) },
        add: { access: STAFF, handler: async (req) => blankViewing(app, req.user!, req.query.demandId, tr(req), req.culture) },
        edit: { access: STAFF, handler: async (req) => getViewing(app, app.db, req.params.id, tr(req), req.culture) },
        sheet: { access: STAFF, handler: async (req, reply) => reply.header('Cache-Control', 'no-store').send(await viewingSheet(app, req.params.id, req.query.culture, req.culture)) },
        update: { access: STAFF, handler: async (req) => saveViewing(app, caller(req), req.body, tr(req), req.culture) },
        move: { access: STAFF, handler: async (req) => moveViewing(app, caller(req), req.body.id, req.body.version, req.body.dateOfViewing, tr(req), req.culture) },
        remove: okRoute(STAFF, (req) => deleteViewing(app, caller(req), req.params.id)),
        forLead: { access: STAFF, handler: async (req) => leadViewings(app, req.params.id, req.query, tr(req), req.culture) },
        calendar: {
          access: STAFF,
          handler: async (req, reply) => {
            const { from, till, assigned } = req.query;
            // Reservations are hidden from branch users (decision 017): so are their check-ins and check-outs.
            const stays = req.query.stays !== 'false' && req.user!.branchId === null;
            if (till < from) throw badRequest('viewings.calendarRange');
            // At most about three months at once (a month view with its edges is ~6 weeks).
            if ((Date.parse(till) - Date.parse(from)) / 86400000 > 100) throw badRequest('viewings.calendarRange');
            // Kept while nothing it shows has changed (decision 072): a week is the same for everyone who opens it.
            const body = await keptCalendars.get(JSON.stringify([from, till, assigned ?? null, stays, req.culture]), CALENDAR_TABLES, async () =>
              ZCalendarAnswer.parse(await calendar(app, from, till, assigned, stays, tr(req), req.culture)),
            );
            return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as never);
          },
        },
      },
      { tags: ['viewings'] },
    );
  },
  { name: 'viewings', dependencies: ['accounts'] },
);
