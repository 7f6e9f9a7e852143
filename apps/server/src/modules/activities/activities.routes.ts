import type { FastifyInstance } from 'fastify';
import { ACTIVITY_API } from '@crm/contract';
import { ACTIVITY } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { addActivity, deleteActivity, getActivityFor, listActivities, searchActions, updateActivity } from './activities.service.ts';

export const activitiesRoutes = async (app: FastifyInstance) => {
  registerCalls(
    app,
    ACTIVITY.calls,
    ACTIVITY_API,
    {
      list: { access: STAFF, handler: async (req) => listActivities(app.db, req.user!, req.query, app.config.timeZone) },
      actions: { access: STAFF, handler: async (req) => searchActions(app, req.user!, req.culture, req.body) },
      add: { access: STAFF, handler: async (req) => addActivity(app, req.user!, req.actor, req.body) },
      update: { access: STAFF, handler: async (req) => updateActivity(app, req.user!, req.actor, req.body) },
      view: { access: STAFF, handler: async (req) => getActivityFor(app.db, req.user!, req.params.id, app.config.timeZone) },
      remove: okRoute(STAFF, (req) => deleteActivity(app, req.user!, req.actor, req.params.id)),
    },
    { tags: ['activities'] },
  );
};
