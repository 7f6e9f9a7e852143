import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ZHealth, ZHome, ZLocalizationList, ZSearchAnswer, ZSearchQuery, SEARCH_MAX_HITS, type TSearchHit } from '@crm/contract';
import { actionLog, alerts, localization } from '../../db/schema/index.ts';
import { SIGNED_IN, STAFF } from '../../plugins/auth.ts';
import { toLocalDateTime } from '../../lib/dates.ts';

/** A source of global-search hits; each entity module registers one. */
export type SearchProvider = (q: { text: string; limit: number; branchId: number | null }) => Promise<TSearchHit[]>;

export const shellRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { config: { access: 'public' }, schema: { tags: ['platform'], response: { 200: ZHealth } } },
    async () => {
      await app.db.execute(sql`select 1`);
      return { status: 'ok' as const, database: 'ok' as const, version: app.appVersion };
    },
  );

  app.get(
    '/api/Localization',
    { config: { access: 'public' }, schema: { tags: ['platform'], response: { 200: ZLocalizationList } } },
    async (_req, reply) => {
      const rows = await app.db
        .select({ key: localization.key, text: localization.text, culture: localization.culture })
        .from(localization)
        .orderBy(localization.key, localization.culture);
      reply.header('Cache-Control', 'no-cache');
      return rows as z.infer<typeof ZLocalizationList>;
    },
  );

  app.get(
    '/api/Alert/unreadCount',
    { config: { access: SIGNED_IN }, schema: { tags: ['alerts'], response: { 200: z.number().int() } } },
    async (req) => {
      // Branch users have no alerts screen; their badge stays empty.
      if (req.user!.branchId !== null || !req.user!.roles.some((r) => r === 'admin' || r === 'employee')) return 0;
      const [row] = await app.db.select({ n: sql<number>`count(*)::int` }).from(alerts).where(isNull(alerts.readedOn));
      return row?.n ?? 0;
    },
  );

  app.get(
    '/api/search',
    { config: { access: STAFF }, schema: { tags: ['search'], querystring: ZSearchQuery, response: { 200: ZSearchAnswer } } },
    async (req) => {
      const text = req.query.searchStr.trim();
      if (!text) return { items: [] };
      const found = await Promise.all(app.searchProviders.map((p) => p({ text, limit: SEARCH_MAX_HITS, branchId: req.user!.branchId })));
      return { items: found.flat().slice(0, SEARCH_MAX_HITS) };
    },
  );

  app.get(
    '/api/home',
    { config: { access: SIGNED_IN }, schema: { tags: ['platform'], response: { 200: ZHome } } },
    async (req) => {
      const u = req.user!;
      const recent = await app.db
        .select({
          id: actionLog.id,
          date: actionLog.date,
          action: actionLog.action,
          entity: actionLog.entity,
          entityId: actionLog.entityId,
          message: actionLog.message,
        })
        .from(actionLog)
        .where(and(eq(actionLog.actionBy, u.id)))
        .orderBy(desc(actionLog.date), desc(actionLog.id))
        .limit(10);
      const unread =
        u.branchId === null && u.roles.some((r) => r === 'admin' || r === 'employee')
          ? ((await app.db.select({ n: sql<number>`count(*)::int` }).from(alerts).where(isNull(alerts.readedOn)))[0]?.n ?? 0)
          : 0;
      return {
        username: u.username,
        unreadAlerts: unread,
        recent: recent.map((r) => ({ ...r, date: toLocalDateTime(r.date, app.config.timeZone)! })),
      };
    },
  );
};
