import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TApiKeyScopes, TCulture, TLanguage, TRole } from '@crm/contract';
import { cultureOf } from '@crm/contract';
import { sessions, users } from '../db/schema/index.ts';
import { sha256 } from '../lib/passwords.ts';
import { accessDenied, unauthorized } from '../lib/errors.ts';
import { cultureFromHeader } from '../lib/i18n.ts';
import type { Actor } from '../lib/audit.ts';
import { appVariant, mayUsePaymentsApp } from '../lib/variant.ts';
import { authenticateApiKey, isApiKeyToken } from '../modules/integrations/api-key-auth.ts';

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

/** Who asks for a change: the signed-in user, and the actor its action log rows name. */
export type Caller = { user: SessionUser; actor: Actor };

/** A registered /api route and who may call it (docs/access.md lists them all; a test compares). */
export type RouteAccess = { method: string; url: string; access: Access };

declare module 'fastify' {
  interface FastifyInstance {
    routeAccess: RouteAccess[];
  }
  interface FastifyContextConfig {
    access?: Access;
    /** The route also accepts the session's file cookie (GET of a file, opened by <img> and links). */
    fileCookie?: boolean;
    /** The web app's screens: the session's page cookie names the reader, so that a screen is drawn only for a live staff session (decision 054). */
    pageCookie?: boolean;
    /** A GET that makes a record (the spec's `GET /api/object/add`): an Idempotency-Key counts for it as for a POST. */
    creates?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    /** The culture the caller reads (Accept-Language, else the user's saved language). */
    culture: TCulture;
    actor: Actor;
    /** The API key the call was made with (decision 080), null for a sign-in's call. */
    apiKeyId: number | null;
    /** That key's areas (decision 080): what else the call may read beyond its own area. */
    apiKeyScopes: TApiKeyScopes | null;
  }
}

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

/**
 * The session's file cookie: the session token in an HttpOnly, SameSite=Strict cookie, so <img>
 * and links can open the CRM's files without a token in their address. It is accepted only by the
 * routes marked `fileCookie` (reading a file), so it can never act on anything; it is worth nothing
 * once the session ends (sign-out, expiry, password change), and sign-out removes it.
 */
export const FILE_COOKIE = 'crm_files';

const FILE_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${FILE_COOKIE}=([^;\\s]{20,200})`);
export function fileCookieToken(req: FastifyRequest): string | undefined {
  const m = FILE_COOKIE_VALUE.exec(req.headers.cookie ?? '');
  return m?.[1];
}

/**
 * "; Secure" for a cookie the browser must send over https only: whenever the CRM's address
 * (PUBLIC_URL) is https, whatever a proxy in front says of the request, and on any https request.
 */
export function secureFlag(req: FastifyRequest): string {
  return req.server.config.publicUrl.startsWith('https:') || req.protocol === 'https' ? '; Secure' : '';
}

/** Set-Cookie for the file cookie of a session token (null: remove it). */
export function fileCookieHeader(req: FastifyRequest, token: string | null): string {
  const secure = secureFlag(req);
  return token === null
    ? `${FILE_COOKIE}=; Path=/api; Max-Age=0; HttpOnly; SameSite=Strict${secure}`
    : `${FILE_COOKIE}=${token}; Path=/api; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * The session's page cookie: the session token in an HttpOnly, SameSite=Strict cookie for the app's
 * own addresses, so that a screen opened by its address can be drawn on the server with the
 * reader's data (ssr/first-paint.ts, decision 054). No API route accepts it: it only lets the
 * server draw, for the same browser, a screen the reader may read anyway, and a page drawn with it
 * is never stored by any cache. It is worth nothing once the session ends, and sign-out removes it.
 */
export const PAGE_COOKIE = 'crm_page';

const PAGE_COOKIE_VALUE = new RegExp(`(?:^|;\\s*)${PAGE_COOKIE}=([^;\\s]{20,200})`);
export function pageCookieToken(req: FastifyRequest): string | undefined {
  const m = PAGE_COOKIE_VALUE.exec(req.headers.cookie ?? '');
  return m?.[1];
}

/** Set-Cookie for the page cookie of a session token (null: remove it). */
export function pageCookieHeader(req: FastifyRequest, token: string | null): string {
  const secure = secureFlag(req);
  return token === null
    ? `${PAGE_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure}`
    : `${PAGE_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict${secure}`;
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('user', null);
  app.decorateRequest('culture', 'en');
  app.decorateRequest('actor', null as unknown as Actor);
  app.decorateRequest('apiKeyId', null);
  app.decorateRequest('apiKeyScopes', null);

  app.decorate('routeAccess', [] as RouteAccess[]);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) return;
    if (!route.url.startsWith('/api')) {
      // Pages outside the API that declare a rule (the public listings and feed) are listed too; the web app's catch-all is not.
      if (route.config?.access && route.url !== '/*') {
        for (const method of [route.method].flat()) if (method !== 'HEAD') app.routeAccess.push({ method: String(method), url: route.url, access: route.config.access });
      }
      return;
    }
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

  app.addHook('onRequest', async (req, reply) => {
    const access = req.routeOptions.config?.access;
    const fromHeader = bearer(req);
    const cookie = fileCookieToken(req);
    // The page cookie: only for a screen asked for as a page (not the files the page then loads).
    const page = req.routeOptions.config?.pageCookie && /text\/html/.test(req.headers.accept ?? '') ? pageCookieToken(req) : undefined;
    // An API key (decision 080): never a session's token; on a public call it is not looked at.
    if (fromHeader && isApiKeyToken(fromHeader)) {
      req.culture = cultureFromHeader(req.headers['accept-language']) ?? cultureOf(null);
      req.actor = { id: null, name: null };
      if (!access || access === 'public') return;
      await authenticateApiKey(app, req, reply, fromHeader);
      if (!req.user!.roles.some((r) => access.roles.includes(r))) throw accessDenied();
      return;
    }
    const token = fromHeader ?? (req.routeOptions.config?.fileCookie ? cookie : page);
    if (token) {
      const now = new Date();
      const [row] = await findSession.execute({ tokenHash: sha256(token) });
      // Where the payments-only app is served, a staff member's session counts for nothing (decision 019).
      if (row && (appVariant(app.config, req) !== 'payments' || mayUsePaymentsApp(app.config, row.roles as string[]))) {
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
        // The browser's file cookie follows the session it works with (a session restored from
        // storage, another user signing in on the same browser).
        if (fromHeader && cookie !== fromHeader) reply.header('set-cookie', fileCookieHeader(req, fromHeader));
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
