import type { FastifyInstance } from 'fastify';
import { LOCATION_API, ZTopLocationsAnswer } from '@crm/contract';
import { LOCATION } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { createKeptAnswers } from '../../lib/kept-answers.ts';
import { searchLocations, topLocations } from './locations.service.ts';

/** The tables the places with the most objects are counted from: kept while neither changes (decision 118). */
export const TOP_LOCATIONS_TABLES = ['objects', 'locations'] as const;

/** Places: the location picker's suggestions and the places with the most objects. */
export const locationsRoutes = async (app: FastifyInstance) => {
  // The places with the most objects are the same for every reader of a language: counted over
  // every object (5-6 ms at 50,000), then kept until an object or a place changes (decision 072).
  const keptTop = createKeptAnswers(app.db);
  registerCalls(
    app,
    LOCATION.calls,
    LOCATION_API,
    {
      search: { access: STAFF, handler: async (req) => searchLocations(app.db, req.query.searchStr, req.culture) },
      top: {
        access: STAFF,
        handler: async (req, reply) => {
          const body = await keptTop.get(req.culture, TOP_LOCATIONS_TABLES, async () => ZTopLocationsAnswer.parse(await topLocations(app.db, req.culture)));
          return reply.type('application/json; charset=utf-8').serializer((s: unknown) => s as string).send(body as never);
        },
      },
    },
    { tags: ['locations'] },
  );
};
