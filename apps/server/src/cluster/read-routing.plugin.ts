import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import { currentReadScope, lsnValue, primaryOf, runInReadScope } from '../db/read-routing.ts';

/**
 * The calls that read a lot and write (almost) nothing: lists, searches, exports and reports. With a
 * replica (DATABASE_READ_URL) they read from it, unless the caller's own last write is not there yet.
 */
const READ_ROUTES: RegExp[] = [
  /^\/api\/[^/]+\/search$/i,
  /^\/api\/search$/i,
  /^\/api\/lead\/searchQuick$/i,
  /^\/api\/object\/searchByRefNumOrTitle$/i,
  /^\/api\/alert\/list$/i,
  /^\/api\/report\/results(\/download)?$/i,
  /^\/api\/(object|deal|reservation|lead)\/download$/i,
  /^\/api\/transactions\/download\/:accountId$/i,
  /^\/api\/invoice\/download$/i,
  /^\/api\/account\/personal-data\/:id$/i,
  /^\/api\/(account|owner|professional|employe|transactions|calendar|dataexport)$/i,
];

export function isReadRoute(method: string, url: string): boolean {
  return (method === 'GET' || method === 'POST') && READ_ROUTES.some((r) => r.test(url));
}

/** How far the replica has replayed the primary's WAL, asked at most every `maxAgeMs` (one question at a time). */
export class ReplicaPosition {
  private at: { lsn: string | null; when: number } = { lsn: null, when: 0 };
  private asking: Promise<string | null> | undefined;
  constructor(
    private readonly pool: pg.Pool,
    private readonly maxAgeMs = 100,
  ) {}

  /** The replayed LSN, or null when the replica does not answer (reads go to the primary meanwhile). */
  get(): Promise<string | null> {
    if (Date.now() - this.at.when < this.maxAgeMs) return Promise.resolve(this.at.lsn);
    this.asking ??= this.pool
      .query<{ lsn: string | null }>({ text: 'select pg_last_wal_replay_lsn()::text as lsn', query_timeout: 2000 } as pg.QueryConfig)
      .then(
        (r) => r.rows[0]?.lsn ?? null,
        () => null,
      )
      .then((lsn) => {
        this.at = { lsn, when: Date.now() };
        this.asking = undefined;
        return lsn;
      });
    return this.asking;
  }
}

/**
 * Every request runs in a read scope (db/read-routing.ts). With a replica: a list, search, export or
 * report by a signed-in user reads from the replica when it has replayed that user's last write
 * (kept on the session as the primary's WAL position after it, sessions.written_lsn); a request that
 * wrote records that position before its answer goes, so the user's next read — on any instance —
 * sees the write.
 */
export const readRoutingPlugin = fp(async (app: FastifyInstance, opts: { readPool?: pg.Pool }) => {
  const readPool = opts.readPool;
  if (!readPool) return;
  const position = new ReplicaPosition(readPool);
  const primary = primaryOf(app.db);

  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (isReadRoute(String(method), route.url)) route.config = { ...(route.config ?? {}), readsFromReplica: true } as typeof route.config;
    }
  });

  app.addHook('onRequest', (_req, _reply, done) => runInReadScope(done));

  app.addHook('preHandler', async (req: FastifyRequest) => {
    const s = currentReadScope();
    const sessionId = req.user?.sessionId;
    if (!s || !sessionId || !(req.routeOptions.config as { readsFromReplica?: boolean } | undefined)?.readsFromReplica) return;
    const [row] = (await primary.execute<{ lsn: string | null }>(sql`select written_lsn::text as lsn from sessions where id = ${sessionId}`)).rows;
    const replayed = await position.get();
    if (replayed === null) return;
    if (row?.lsn && lsnValue(replayed) < lsnValue(row.lsn)) return;
    s.replica = true;
  });

  app.addHook('onSend', async (req, _reply, payload) => {
    const s = currentReadScope();
    const sessionId = req.user?.sessionId;
    if (s?.wrote && sessionId && req.method !== 'GET' && req.method !== 'HEAD') {
      await primary.execute(sql`update sessions set written_lsn = pg_current_wal_lsn() where id = ${sessionId}`);
    }
    return payload;
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by the read-routing plugin: this route may read from the replica. */
    readsFromReplica?: boolean;
  }
}
