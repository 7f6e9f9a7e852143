import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Placeholder: the fields module's routes are registered here.
export const fieldsRoutes: FastifyPluginAsyncZod = async () => {};
