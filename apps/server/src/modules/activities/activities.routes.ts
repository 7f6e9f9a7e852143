import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZActionSearch,
  ZActionSearchAnswer,
  ZActivity,
  ZActivityAdd,
  ZActivityListAnswer,
  ZActivityListQuery,
  ZActivityUpdate,
  ZIdParam,
  ZOk,
} from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { addActivity, deleteActivity, getActivityFor, listActivities, searchActions, updateActivity } from './activities.service.ts';

const tags = ['activities'];

export const activitiesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/activity',
    { config: { access: STAFF }, schema: { tags, querystring: ZActivityListQuery, response: { 200: ZActivityListAnswer } } },
    async (req) => listActivities(app.db, req.user!, req.query, app.config.timeZone),
  );

  app.post(
    '/api/activity/actions',
    { config: { access: STAFF }, schema: { tags, body: ZActionSearch, response: { 200: ZActionSearchAnswer } } },
    async (req) => searchActions(app, req.user!, req.culture, req.body),
  );

  app.post(
    '/api/activity/add',
    { config: { access: STAFF }, schema: { tags, body: ZActivityAdd, response: { 200: ZActivity } } },
    async (req) => addActivity(app, req.user!, req.actor, req.body),
  );

  app.post(
    '/api/activity/update',
    { config: { access: STAFF }, schema: { tags, body: ZActivityUpdate, response: { 200: ZActivity } } },
    async (req) => updateActivity(app, req.user!, req.actor, req.body),
  );

  app.get(
    '/api/activity/:id',
    { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZActivity } } },
    async (req) => getActivityFor(app.db, req.user!, req.params.id, app.config.timeZone),
  );

  app.delete(
    '/api/activity/:id',
    { config: { access: STAFF }, schema: { tags, params: ZIdParam, response: { 200: ZOk } } },
    async (req) => {
      await deleteActivity(app, req.user!, req.actor, req.params.id);
      return { ok: true as const };
    },
  );
};
