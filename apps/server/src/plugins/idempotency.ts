import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { AppError } from '../lib/errors.ts';
import type { Db } from '../db/db-types.ts';

/**
 * A change sent again must not be carried out twice. When a save reaches the server but its answer
 * is lost (the phone's connection drops, a proxy times out), the browser says it could not reach
 * the server and the user presses Save again: without this, that made a second viewing, key or
 * payment. The web app sends each change with an `Idempotency-Key` that stays the same while it is
 * the same change (a form's Save pressed again); the server keeps the first answer for a day and
 * gives it back for the same key, with `Idempotent-Replayed: true`, instead of running it again.
 *
 * - Only signed-in calls that change something (POST, PUT, PATCH, DELETE under /api, and the GETs
 *   that make a record, marked `creates`) and carry the header are concerned; keys are per user.
 * - The same key with a different request (another address or body) is refused (422): a key is
 *   never reused for another change.
 * - While the first request is still running, the second waits for its answer (up to 15 s), then
 *   is told to try again (409).
 * - An answer that is an error (4xx, 5xx) is not kept: the change was not made, so sending it
 *   again runs it again. Answers over 1 MB are not kept either (none of the changes answers so much).
 * - Every transaction the change commits marks its key as made in that same commit (`made_at`). An
 *   instance killed between that commit and keeping the answer leaves the key made without an
 *   answer: the retry is told the change was saved and to reload (409), never runs it a second time.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY = /^[A-Za-z0-9_-]{8,100}$/;
const KEEP_HOURS = 24;
const MAX_BODY = 1024 * 1024;
const WAIT_MS = 15_000;
/**
 * The first attempt's claim on its key is a lease, renewed while it runs (every LEASE_MS / 3): an
 * attempt whose instance was killed (or lost its database) stops renewing, and a retry takes the key
 * over once the lease has run out — within WAIT_MS, so the retry a load balancer sends at once after
 * an instance died goes through instead of waiting for a day (decision 031).
 */
const LEASE_MS = 10_000;
/** Claims made by versions before the lease (no claimed_until): counted as leases of 10 minutes. */
const abandoned = sql`status is null and coalesce(claimed_until, created_on + interval '10 minutes') < now()`;

/** The Idempotency-Key the running request holds, for its transactions to mark as made. */
const current = new AsyncLocalStorage<{ claim: { userId: number; key: string } | null }>();
const WRAPPED = Symbol.for('crm.idempotencyMarks');

/**
 * Every transaction on `db` run for a request that holds a key marks that key as made before it
 * commits. Writes outside a transaction (none of them writes the action log) are not marked.
 */
function markChangesMade(db: Db) {
  const target = db as unknown as Record<symbol, boolean> & { transaction: Db['transaction'] };
  if (target[WRAPPED]) return;
  target[WRAPPED] = true;
  const run = db.transaction.bind(db);
  target.transaction = ((fn: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) =>
    run(async (tx) => {
      const result = await fn(tx);
      const claim = current.getStore()?.claim;
      if (claim) await tx.execute(sql`update idempotent_requests set made_at = now() where user_id = ${claim.userId} and key = ${claim.key} and status is null`);
      return result;
    }, config)) as Db['transaction'];
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { userId: number; key: string; renew?: NodeJS.Timeout } | null;
  }
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function requestHash(req: FastifyRequest): Buffer {
  const body = req.isMultipart?.() ? '' : JSON.stringify(req.body ?? null);
  return createHash('sha256').update(`${req.method} ${req.url}\n${body}`).digest();
}

type Kept = { status: number | null; content_type: string | null; body: string | null; request_hash: Buffer; made: boolean };

export const idempotencyPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('idempotency', null);
  markChangesMade(app.db);
  // Each request in a scope of its own, which its claim is put in (the transactions read it).
  app.addHook('onRequest', (_req, _reply, done) => current.run({ claim: null }, done));

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    const header = req.headers[IDEMPOTENCY_HEADER];
    const changes = CHANGES.has(req.method) || req.routeOptions.config?.creates === true;
    if (header === undefined || !changes || !req.url.startsWith('/api/') || !req.user) return;
    const key = Array.isArray(header) ? header[0]! : header;
    if (!KEY.test(key)) throw new AppError(400, 'errors.idempotencyKey');
    const userId = req.user.id;
    const hash = requestHash(req);
    const claimed = () => {
      // Renewed while this attempt runs; stopped when its answer is kept or it ends (onSend, onResponse).
      const renew = setInterval(() => {
        void app.db
          .execute(sql`update idempotent_requests set claimed_until = now() + make_interval(secs => ${LEASE_MS / 1000}) where user_id = ${userId} and key = ${key} and status is null`)
          .catch(() => {});
      }, LEASE_MS / 3);
      renew.unref();
      req.idempotency = { userId, key, renew };
      const scope = current.getStore();
      if (scope) scope.claim = { userId, key };
    };
    const inserted = await app.db.execute(sql`
      insert into idempotent_requests (user_id, key, request_hash, claimed_until) values (${userId}, ${key}, ${hash}, now() + make_interval(secs => ${LEASE_MS / 1000}))
      on conflict (user_id, key) do nothing returning 1 as fresh`);
    if (inserted.rows.length) return claimed();
    const started = Date.now();
    for (;;) {
      const found = await app.db.execute(sql`
        select status, content_type, body, request_hash, made_at is not null as made from idempotent_requests
        where user_id = ${userId} and key = ${key} and created_on > now() - make_interval(hours => ${KEEP_HOURS})`);
      const kept = found.rows[0] as Kept | undefined;
      if (!kept) {
        // Expired (or its first attempt failed and was forgotten meanwhile): this one is the first now.
        await app.db.execute(sql`
          insert into idempotent_requests (user_id, key, request_hash, claimed_until) values (${userId}, ${key}, ${hash}, now() + make_interval(secs => ${LEASE_MS / 1000}))
          on conflict (user_id, key) do update set request_hash = excluded.request_hash, status = null, content_type = null, body = null, made_at = null, created_on = now(), claimed_until = excluded.claimed_until`);
        return claimed();
      }
      if (!Buffer.from(kept.request_hash).equals(hash)) throw new AppError(422, 'errors.idempotencyReused');
      if (kept.status === null && kept.made) {
        // Made, and its first attempt is gone before keeping the answer: saved, not to be run again.
        const gone = await app.db.execute(sql`select 1 from idempotent_requests where user_id = ${userId} and key = ${key} and ${abandoned}`);
        if (gone.rows.length) throw new AppError(409, 'errors.idempotencyAnswerLost');
      } else if (kept.status === null) {
        // Its first attempt stopped renewing its claim (its instance is gone): this one runs it.
        const taken = await app.db.execute(sql`
          update idempotent_requests set claimed_until = now() + make_interval(secs => ${LEASE_MS / 1000}), created_on = now()
          where user_id = ${userId} and key = ${key} and ${abandoned} and made_at is null returning 1 as taken`);
        if (taken.rows.length) return claimed();
      }
      if (kept.status !== null) {
        reply.code(kept.status).header('idempotent-replayed', 'true');
        if (kept.content_type) reply.header('content-type', kept.content_type);
        return reply.send(kept.body ?? undefined);
      }
      if (Date.now() - started > WAIT_MS) throw new AppError(409, 'errors.idempotencyInProgress');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const idem = req.idempotency;
    if (!idem) return payload;
    req.idempotency = null;
    clearInterval(idem.renew);
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
    if (reply.statusCode < 400 && text !== null && text.length <= MAX_BODY) {
      const type = reply.getHeader('content-type');
      await app.db.execute(sql`
        update idempotent_requests set status = ${reply.statusCode}, content_type = ${typeof type === 'string' ? type : null}, body = ${text}
        where user_id = ${idem.userId} and key = ${idem.key}`);
    } else {
      // A refusal after nothing was made is forgotten (sent again, it runs again). One after a
      // transaction was made: a 4xx is kept like any answer, so a retry does not make that part
      // twice; after a 5xx (or an answer too large to keep) the key stays made without an answer,
      // its lease ended, so a retry is told the change was saved (and to reload) at once.
      const type = reply.getHeader('content-type');
      if (reply.statusCode >= 400 && reply.statusCode < 500 && text !== null && text.length <= MAX_BODY) {
        await app.db.execute(sql`
          update idempotent_requests set status = ${reply.statusCode}, content_type = ${typeof type === 'string' ? type : null}, body = ${text}
          where user_id = ${idem.userId} and key = ${idem.key} and made_at is not null`);
      } else {
        await app.db.execute(sql`update idempotent_requests set claimed_until = now() where user_id = ${idem.userId} and key = ${idem.key} and made_at is not null`);
      }
      await app.db.execute(sql`delete from idempotent_requests where user_id = ${idem.userId} and key = ${idem.key} and made_at is null`);
    }
    return payload;
  });

  // A request that never got to send (the client went away mid-way) forgets its key, so a retry runs.
  app.addHook('onResponse', async (req) => {
    const idem = req.idempotency;
    if (!idem) return;
    req.idempotency = null;
    clearInterval(idem.renew);
    await app.db.execute(sql`delete from idempotent_requests where user_id = ${idem.userId} and key = ${idem.key} and status is null and made_at is null`);
  });
});

/** Answers older than a day are forgotten (run by the daily purge job). */
export async function purgeIdempotentRequests(db: FastifyInstance['db']) {
  await db.execute(sql`delete from idempotent_requests where created_on < now() - make_interval(hours => ${KEEP_HOURS})`);
}
