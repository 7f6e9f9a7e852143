import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLocationSearchAnswer, ZLocationSearchQuery, ZTopLocationsAnswer } from '@crm/contract';
import { STAFF } from '../../plugins/auth.ts';
import { searchLocations, topLocations } from './locations.service.ts';

/** Places: the location picker's suggestions and the places with the most objects. */
export const locationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['locations'];
  app.get(
    '/api/location/search',
    { config: { access: STAFF }, schema: { tags, querystring: ZLocationSearchQuery, response: { 200: ZLocationSearchAnswer } } },
    async (req) => searchLocations(app.db, req.query.searchStr, req.culture),
  );
  app.get(
    '/api/object/getTopLocations',
    { config: { access: STAFF }, schema: { tags, response: { 200: ZTopLocationsAnswer } } },
    async (req) => topLocations(app.db, req.culture),
  );
};
