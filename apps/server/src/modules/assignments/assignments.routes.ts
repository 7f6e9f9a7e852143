import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZAssignmentAdd, ZAssignmentItem, ZAssignmentList, ZAssignmentParentParams, ZIdString, ZOk } from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { addAssignment, deleteAssignment, getAssignments } from './assignments.service.ts';

const tags = ['assignments'];

export const assignmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/assignment/:parent/:parentId',
    { config: { access: STAFF }, schema: { tags, params: ZAssignmentParentParams, response: { 200: ZAssignmentList } } },
    async (req) => getAssignments(app, req.user!, req.params.parent, req.params.parentId),
  );

  app.post(
    '/api/assignment/:parent/add',
    { config: { access: STAFF }, schema: { tags, params: z.object({ parent: z.string().max(20) }), body: ZAssignmentAdd, response: { 200: ZAssignmentItem } } },
    async (req) => addAssignment(app, req.user!, req.actor, req.params.parent, req.body),
  );

  app.delete(
    '/api/assignment/:parent/:parentId/:accountId',
    {
      config: { access: STAFF },
      schema: { tags, params: ZAssignmentParentParams.extend({ accountId: ZIdString }), response: { 200: ZOk } },
    },
    async (req) => {
      await deleteAssignment(app, req.user!, req.actor, req.params.parent, req.params.parentId, req.params.accountId);
      return { ok: true as const };
    },
  );
};
