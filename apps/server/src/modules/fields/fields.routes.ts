import type { FastifyInstance } from 'fastify';
import { FIELD_API, type Calls } from '@crm/contract';
import { FIELD } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls, type CallRoutes } from '../../lib/calls.ts';
import { registerEntities } from './entities/index.ts';
import { listPatchableEntities } from './field-registry.ts';
import { getEditRequest, parseIfMatch, patchField } from './fields.service.ts';


/**
 * The single-field editor's calls: GET /api/{entity}/editRequestSelectList and
 * PATCH (or POST, for old clients) /api/{entity}/patch/{id} with a one-operation JSON Patch.
 */
export const fieldsRoutes = async (app: FastifyInstance) => {
  registerEntities();

  // JSON Patch documents arrive as application/json-patch+json.
  app.addContentTypeParser('application/json-patch+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  const routes = (entityOf: (params: { entity?: string | undefined }) => string): CallRoutes<typeof FIELD_API> => {
    const patch: CallRoutes<typeof FIELD_API>['patch'] = {
      access: STAFF,
      handler: async (req) => patchField(app, req, entityOf(req.params), req.params.id, req.body, req.query.version ?? parseIfMatch(req.headers['if-match'])),
    };
    return {
      selectList: { access: STAFF, handler: async (req) => getEditRequest(app, req, entityOf(req.params), req.query.id, req.query.fieldName) },
      patch,
      patchByPost: patch,
    };
  };

  // Static routes per entity win over other modules' /api/{entity}/{id} routes ...
  for (const entity of listPatchableEntities()) {
    const table: Calls<typeof FIELD_API> | undefined = (FIELD.of as Record<string, Calls<typeof FIELD_API>>)[entity.name];
    if (!table) throw new Error(`The field editor of ${entity.name} is not declared in the contract (FIELD.of)`);
    registerCalls(app, table, FIELD_API, routes(() => entity.name), { tags: ['fields'] });
  }
  // ... and any other entity name is answered "unknown entity" (400).
  registerCalls(app, FIELD.calls, FIELD_API, routes((p) => String(p.entity)), { tags: ['fields'] });
};
