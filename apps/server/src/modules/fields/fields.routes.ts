import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZEditRequestAnswer, ZEditRequestQuery, ZFieldPatch, ZFieldPatchAnswer, ZFieldPatchQuery, ZIdParam } from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { registerEntities } from './entities/index.ts';
import { listPatchableEntities } from './field-registry.ts';
import { getEditRequest, parseIfMatch, patchField } from './fields.service.ts';


/**
 * The single-field editor's calls: GET /api/{entity}/editRequestSelectList and
 * PATCH (or POST, for old clients) /api/{entity}/patch/{id} with a one-operation JSON Patch.
 */
export const fieldsRoutes: FastifyPluginAsyncZod = async (app) => {
  registerEntities();

  // JSON Patch documents arrive as application/json-patch+json.
  app.addContentTypeParser('application/json-patch+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  const selectListSchema = { tags: ['fields'], querystring: ZEditRequestQuery, response: { 200: ZEditRequestAnswer } };
  const patchSchema = { tags: ['fields'], params: ZIdParam, querystring: ZFieldPatchQuery, body: ZFieldPatch, response: { 200: ZFieldPatchAnswer } };

  const routes = (prefix: string, entityOf: (params: Record<string, unknown>) => string) => {
    app.get(
      `${prefix}/editRequestSelectList`,
      { config: { access: STAFF }, schema: { ...selectListSchema, params: z.object({ entity: z.string().max(50) }).partial() } },
      async (req) => getEditRequest(app, req, entityOf(req.params), req.query.id, req.query.fieldName),
    );
    for (const method of ['PATCH', 'POST'] as const) {
      app.route({
        method,
        url: `${prefix}/patch/:id`,
        config: { access: STAFF },
        schema: { ...patchSchema, params: ZIdParam.extend({ entity: z.string().max(50).optional() }) },
        handler: async (req) =>
          patchField(app, req, entityOf(req.params), req.params.id, req.body, req.query.version ?? parseIfMatch(req.headers['if-match'])),
      });
    }
  };

  // Static routes per entity win over other modules' /api/{entity}/{id} routes ...
  for (const entity of listPatchableEntities()) routes(`/api/${entity.name}`, () => entity.name);
  // ... and any other entity name is answered "unknown entity" (400).
  routes('/api/:entity', (p) => String(p.entity));
};
