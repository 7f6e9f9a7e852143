import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// Placeholder: the assignments module's routes are registered here.
export const assignmentsRoutes: FastifyPluginAsyncZod = async () => {};
