import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Placeholder: the accounts module's routes are registered here.
export const accountsRoutes: FastifyPluginAsyncZod = async () => {};
