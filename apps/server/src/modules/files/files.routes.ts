import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Placeholder: the files module's routes are registered here.
export const filesRoutes: FastifyPluginAsyncZod = async () => {};
