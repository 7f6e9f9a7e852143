import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZAlert, ZAlertListAnswer, ZAlertListBody, ZAlertNotes, ZIdParam, ZJobsAnswer, ZJobsQuery, ZOk } from '@crm/contract';
import { OFFICE_ADMIN, STAFF_NO_BRANCH } from '../../plugins/auth.ts';
import { registerJobAlerts } from './alerts.jobs.ts';
import { registerSystemAlerts } from './alerts.system.ts';
import { deleteAlert, listAlerts, listJobs, markUnread, openAlert, retryJob, updateNotes } from './alerts.service.ts';

const caller = (req: FastifyRequest) => ({ user: req.user!, actor: req.actor });

/**
 * Alerts: the office's inbox of what needs doing (decision 020) — the list, the alert (opening
 * marks it read), mark as unread, notes, delete; and the checks that make them (rent reminders,
 * keys not returned, overdue to-dos, failed background jobs). The unread count is in the shell.
 */
export const alertsRoutes = fp(
  async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const tags = ['alerts'];
    registerJobAlerts(app);
    registerSystemAlerts(app);

    app.post(
      '/api/alert/list',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, body: ZAlertListBody, response: { 200: ZAlertListAnswer } } },
      async (req) => listAlerts(app, req.body, req.culture),
    );
    app.get(
      '/api/alert/:id',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, params: ZIdParam, response: { 200: ZAlert } } },
      async (req) => openAlert(app, caller(req), req.params.id, req.culture),
    );
    app.post(
      '/api/alert/mark-as-unread/:id',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, params: ZIdParam, response: { 200: ZAlert } } },
      async (req) => markUnread(app, caller(req), req.params.id, req.culture),
    );
    app.post(
      '/api/alert/update-notes/:id',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, params: ZIdParam, body: ZAlertNotes, response: { 200: ZAlert } } },
      async (req) => updateNotes(app, caller(req), req.params.id, req.body, req.culture),
    );
    app.delete(
      '/api/alert/:id',
      { config: { access: STAFF_NO_BRANCH }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await deleteAlert(app, caller(req), req.params.id);
        return { ok: true as const };
      },
    );
    // The runner's state for admins: how many jobs wait, run, are done or failed, and the latest of one state.
    app.get(
      '/api/jobs',
      { config: { access: OFFICE_ADMIN }, schema: { tags: ['jobs'], querystring: ZJobsQuery, response: { 200: ZJobsAnswer } } },
      async (req) => listJobs(app, req.query.state, req.query.limit),
    );
    app.post(
      '/api/jobs/:id/retry',
      { config: { access: OFFICE_ADMIN }, schema: { tags: ['jobs'], params: ZIdParam, response: { 200: ZOk } } },
      async (req) => {
        await retryJob(app, caller(req), req.params.id);
        return { ok: true as const };
      },
    );
  },
  { name: 'alerts' },
);
