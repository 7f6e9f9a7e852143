import type { FastifyInstance } from 'fastify';
import { ASSIGNMENT_API } from '@crm/contract';
import { ASSIGNMENT } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { addAssignment, deleteAssignment, getAssignments } from './assignments.service.ts';

export const assignmentsRoutes = async (app: FastifyInstance) => {
  registerCalls(
    app,
    ASSIGNMENT.calls,
    ASSIGNMENT_API,
    {
      list: { access: STAFF, handler: async (req) => getAssignments(app, req.user!, req.params.parent, req.params.parentId) },
      add: { access: STAFF, handler: async (req) => addAssignment(app, req.user!, req.actor, req.params.parent, req.body) },
      remove: okRoute(STAFF, (req) => deleteAssignment(app, req.user!, req.actor, req.params.parent, req.params.parentId, req.params.accountId)),
    },
    { tags: ['assignments'] },
  );
};
