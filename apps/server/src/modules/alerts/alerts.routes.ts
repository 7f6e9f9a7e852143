import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ALERT_API, JOB_API } from '@crm/contract';
import { ALERT, JOB } from '@crm/contract/resources';
import { OFFICE_ADMIN, STAFF_NO_BRANCH } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
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
    const app = root;
    const tags = ['alerts'];
    registerJobAlerts(app);
    registerSystemAlerts(app);

    registerCalls(
      app,
      ALERT.calls,
      ALERT_API,
      {
        list: { access: STAFF_NO_BRANCH, handler: async (req) => listAlerts(app, req.body, req.culture) },
        view: { access: STAFF_NO_BRANCH, handler: async (req) => openAlert(app, caller(req), req.params.id, req.culture) },
        markUnread: { access: STAFF_NO_BRANCH, handler: async (req) => markUnread(app, caller(req), req.params.id, req.culture) },
        updateNotes: { access: STAFF_NO_BRANCH, handler: async (req) => updateNotes(app, caller(req), req.params.id, req.body, req.culture) },
        remove: okRoute(STAFF_NO_BRANCH, (req) => deleteAlert(app, caller(req), req.params.id)),
      },
      { tags },
    );
    // The runner's state for admins: how many jobs wait, run, are done or failed, and the latest of one state.
    registerCalls(
      app,
      JOB.calls,
      JOB_API,
      {
        list: { access: OFFICE_ADMIN, handler: async (req) => listJobs(app, req.query.state, req.query.limit) },
        retry: okRoute(OFFICE_ADMIN, (req) => retryJob(app, caller(req), req.params.id)),
      },
      { tags: ['jobs'] },
    );
  },
  { name: 'alerts' },
);
