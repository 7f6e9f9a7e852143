/**
 * Queries built once per database handle and then run with placeholders (drizzle's prepare): the
 * record views run the same few statements all day, and building a select of an entity's hundred
 * or more columns cost about 0.3 ms of the server's time per statement, per request, before a byte
 * went to PostgreSQL. A handle (the pool, or a transaction) keeps its own: a transaction builds
 * them once for its life, as it did before. The key names the statement on the server too, so it
 * must spell everything the statement depends on (its language, say), and nothing per request.
 */
import { outsideReadScope } from './read-routing.ts';

const built = new WeakMap<object, Map<string, unknown>>();

export function buildOnce<Q>(db: object, key: string, build: (name: string) => Q): Q {
  let byKey = built.get(db);
  if (!byKey) built.set(db, (byKey = new Map()));
  let query = byKey.get(key) as Q | undefined;
  // Built outside the request's read scope: a query kept for every later request is the primary's,
  // never the replica's that the first request happened to read from (db/read-routing.ts).
  if (query === undefined) byKey.set(key, (query = outsideReadScope(() => build(`crm_${key}`))));
  return query;
}
