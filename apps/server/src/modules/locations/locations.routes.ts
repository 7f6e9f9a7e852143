import type { FastifyInstance } from 'fastify';
import { LOCATION_API } from '@crm/contract';
import { LOCATION } from '@crm/contract/resources';
import { STAFF } from '../../plugins/auth.ts';
import { registerCalls } from '../../lib/calls.ts';
import { searchLocations, topLocations } from './locations.service.ts';

/** Places: the location picker's suggestions and the places with the most objects. */
export const locationsRoutes = async (app: FastifyInstance) => {
  registerCalls(
    app,
    LOCATION.calls,
    LOCATION_API,
    {
      search: { access: STAFF, handler: async (req) => searchLocations(app.db, req.query.searchStr, req.culture) },
      top: { access: STAFF, handler: async (req) => topLocations(app.db, req.culture) },
    },
    { tags: ['locations'] },
  );
};
