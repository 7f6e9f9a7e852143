import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TCulture, TLanguage, TRole } from '@crm/contract';
import { cultureOf } from '@crm/contract';
import { sessions, users } from '../db/schema/index.ts';
import { sha256 } from '../lib/passwords.ts';
import { accessDenied, unauthorized } from '../lib/errors.ts';
import { cultureFromHeader } from '../lib/i18n.ts';
import type { Actor } from '../lib/audit.ts';

/**
 * Who may call a route. Every /api route declares one in `config.access`; a route without it
 * does not register. `public`: anyone. Otherwise the caller must be signed in with one of
 * `roles`; `branch: false` also turns away users tied to a branch (the spec hides those screens
 * from their menu, and hidden is not enough).
 */
export type Access = 'public' | { roles: readonly TRole[]; branch?: boolean };

export const STAFF: Access = { roles: ['admin', 'employee'] };
export const STAFF_NO_BRANCH: Access = { roles: ['admin', 'employee'], branch: false };
export const ADMIN: Access = { roles: ['admin'] };
/** Admins without a branch: roles, branches, sign-ins and passwords are theirs alone. */
export const OFFICE_ADMIN: Access = { roles: ['admin'], branch: false };
export const SIGNED_IN: Access = { roles: ['admin', 'employee', 'clientPayments'] };

export type SessionUser = {
  id: number;
  sessionId: number;
  email: string;
  username: string;
  roles: TRole[];
  branchId: number | null;
  language: TLanguage | null;
  accountId: number | null;
};

/** A registered /api route and who may call it (docs/access.md lists them all; a test compares). */
export type RouteAccess = { method: string; url: string; access: Access };

declare module 'fastify' {
  interface FastifyInstance {
    routeAccess: RouteAccess[];
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    /** The culture the caller reads (Accept-Language, else the user's saved language). */
    culture: TCulture;
    actor: Actor;
  }
}

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null);
  app.decorateRequest('culture', 'en');
  app.decorateRequest('actor', null as unknown as Actor);

  app.decorate('routeAccess', [] as RouteAccess[]);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.url.startsWith('/api/docs')) return;
    if (!route.config?.access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routeAccess.push({ method: String(method), url: route.url, access: route.config.access });
    }
  });

  // Runs on every call: built once, prepared on the server (no query building per request).
  const findSession = app.db
    .select({
      sessionId: sessions.id,
      lastSeenOn: sessions.lastSeenOn,
      id: users.id,
      email: users.email,
      username: users.username,
      roles: users.roles,
      branchId: users.branchId,
      language: users.language,
      accountId: users.accountId,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedOn),
        sql`${sessions.expiresOn} > now()`,
        eq(users.disabled, false),
      ),
    )
    .limit(1)
    .prepare('crm_find_session');

  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config?.access;
    const token = bearer(req);
    if (token) {
      const now = new Date();
      const [row] = await findSession.execute({ tokenHash: sha256(token) });
      if (row) {
        req.user = {
          id: row.id,
          sessionId: row.sessionId,
          email: row.email,
          username: row.username,
          roles: row.roles as TRole[],
          branchId: row.branchId,
          language: (row.language as TLanguage | null) ?? null,
          accountId: row.accountId,
        };
        // Record activity at most every five minutes: no write per request.
        if (now.getTime() - row.lastSeenOn.getTime() > 5 * 60 * 1000) {
          await app.db.update(sessions).set({ lastSeenOn: sql`now()` }).where(eq(sessions.id, row.sessionId));
        }
      }
    }
    req.culture = cultureFromHeader(req.headers['accept-language']) ?? cultureOf(req.user?.language);
    const u = req.user;
    req.actor = u ? { id: u.id, name: u.username } : { id: null, name: null };
    if (!access || access === 'public') return;
    if (!req.user) throw unauthorized();
    if (!req.user.roles.some((r) => access.roles.includes(r))) throw accessDenied();
    if (access.branch === false && req.user.branchId !== null) throw accessDenied();
  });
});
