import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { API_KEY_PREFIX, type TApiKeyScopes, type TRole } from '@crm/contract';
import { sha256 } from '../../lib/passwords.ts';
import { AppError } from '../../lib/errors.ts';
import { rateLimit } from '../../lib/throttle.ts';
import { appVariant, mayUsePaymentsApp } from '../../lib/variant.ts';
import { entityArea, keyAreaOf, scopeAllows } from './key-areas.ts';

/** A key: the prefix and 64 hex digits (256 random bits). A session's token (43 base64url characters) never looks so. */
const KEY_SHAPE = /^crm_[0-9a-f]{64}$/;
export const isApiKeyToken = (token: string) => KEY_SHAPE.test(token);

/** A new key: the secret (shown once), its hint (its first characters) and the hash that is stored. */
export function newApiKey() {
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('hex')}`;
  return { secret, hint: `${secret.slice(0, 10)}…`, hash: sha256(secret) };
}

/** How the action log names a key's changes (the log's screen says it in the reader's language: "API key «name»"). */
export const KEY_ACTOR_PREFIX = 'apikey:';

type KeyRow = { id: number; name: string; scopes: TApiKeyScopes; created_by: number; email: string; username: string; last_used_on: string | null };

/**
 * The caller of a call made with an API key (decision 080). A key unknown, expired or revoked, or
 * whose maker's sign-in is gone, switched off or no longer an office admin (keys are an office
 * admin's to make, and act with no more than that), is a 401; a call outside its scopes a 403. The key
 * acts in the area's terms: as an employee without a branch, and for the payments area (whose
 * changes the access table gives office admins) as an office admin; never over people's roles,
 * branches and sign-ins, which no area includes. Every call is counted against the key's limit a
 * minute (one statement on the shared counters: the same across instances).
 */
/** Refused keys an address may send a minute before it is told to wait. */
const REFUSED_KEYS_PER_MINUTE = 30;

export async function authenticateApiKey(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, token: string): Promise<void> {
  const res = await app.db.execute(sql`
    select k.id, k.name, k.scopes, k.created_by, u.email, u.username, k.last_used_on
    from api_keys k join users u on u.id = k.created_by and not u.disabled and 'admin' = any(u.roles) and u.branch_id is null
    where k.key_hash = ${sha256(token)} and k.revoked_on is null and k.expires_on > now()`);
  const key = res.rows[0] as KeyRow | undefined;
  if (!key) {
    // Refused keys are counted per address: a stream of made-up keys gets a 429, not a lookup each.
    const wait = await rateLimit(app.db, `apikey-refused:${req.ip}`, REFUSED_KEYS_PER_MINUTE, 60);
    if (wait !== null) {
      reply.header('Retry-After', String(wait));
      throw new AppError(429, 'apiKeys.errors.tooMany', { seconds: wait });
    }
    throw new AppError(401, 'apiKeys.errors.refused');
  }
  // Where the payments-only app is served a key counts as an administrator's sign-in does there.
  if (appVariant(app.config, req) === 'payments' && !mayUsePaymentsApp(app.config, ['admin'])) throw new AppError(401, 'apiKeys.errors.refused');
  const wait = await rateLimit(app.db, `apikey:${key.id}`, app.config.integrations.keyCallsPerMinute, 60);
  if (wait !== null) {
    reply.header('Retry-After', String(wait));
    throw new AppError(429, 'apiKeys.errors.tooMany', { seconds: wait });
  }
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const found = keyAreaOf(method, req.routeOptions.url ?? '');
  const area = found?.area === 'entity' ? entityArea((req.params as { entity?: string }).entity) : (found?.area ?? null);
  if (!found || !area || !scopeAllows(key.scopes, area, found.write)) {
    const t = (k: string) => app.translator.t(req.culture, k);
    throw new AppError(403, area ? `apiKeys.errors.outsideScope.${found!.write ? 'write' : 'read'}` : 'apiKeys.errors.noArea', area ? { area: t(`apiKeys.area.${area}`) } : {});
  }
  const roles: TRole[] = area === 'payments' ? ['admin'] : ['employee'];
  req.user = { id: key.created_by, sessionId: 0, email: key.email, username: key.username, roles, branchId: null, language: null, accountId: null };
  req.actor = { id: null, name: `${KEY_ACTOR_PREFIX}${key.name}` };
  req.apiKeyId = key.id;
  req.apiKeyScopes = key.scopes;
  // Its last use, at most once a minute (no write per call).
  if (!key.last_used_on || Date.now() - new Date(key.last_used_on).getTime() > 60_000) {
    await app.db.execute(sql`update api_keys set last_used_on = now() where id = ${key.id}`);
  }
}
