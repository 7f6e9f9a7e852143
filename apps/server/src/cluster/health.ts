import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZLiveness, ZReadiness } from '@crm/contract';
import { latestMigrationWhen } from '../db/migrate.ts';

/**
 * What a load balancer asks (decision 062). Liveness: the process answers. Readiness: send it
 * requests — the database answers and is migrated to what this version knows, and the instance is
 * not draining (after SIGTERM it answers 503 while it finishes what it has, so the balancer takes
 * it out before it stops listening).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const expected = latestMigrationWhen();
  app.get(
    '/api/health/live',
    { config: { access: 'public' }, schema: { tags: ['platform'], response: { 200: ZLiveness } } },
    async () => ({ status: 'live' as const, version: app.appVersion }),
  );
  app.get(
    '/api/health/ready',
    { config: { access: 'public' }, schema: { tags: ['platform'], response: { 200: ZReadiness, 503: ZReadiness } } },
    async (_req, reply) => {
      const base = { version: app.appVersion, instance: app.jobs.instanceId };
      const notReady = (reason: 'draining' | 'databaseUnreachable' | 'notMigrated' | 'starting') =>
        reply.code(503).header('Cache-Control', 'no-store').send({ status: 'notReady' as const, reason, ...base });
      if (app.lifecycle.draining) return notReady('draining');
      if (!app.lifecycle.ready) return notReady('starting');
      let applied: number;
      try {
        const r = await app.db.execute<{ last: string | null }>(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`);
        applied = Number(r.rows[0]?.last ?? 0);
      } catch {
        return notReady('databaseUnreachable');
      }
      if (applied < expected) return notReady('notMigrated');
      return reply.header('Cache-Control', 'no-store').send({ status: 'ready' as const, ...base });
    },
  );
};
