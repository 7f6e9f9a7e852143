import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Placeholder: the activities module's routes are registered here.
export const activitiesRoutes: FastifyPluginAsyncZod = async () => {};
