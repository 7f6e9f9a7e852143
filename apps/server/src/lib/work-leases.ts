import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { primaryOf } from '../db/read-routing.ts';

/** How long a lease lasts unless renewed; renewed every third of it while the work goes on. */
export const LEASE_SECONDS = 90;

/**
 * Work that one instance at a time may do across all instances on the database (decision 093): a
 * row in work_leases (the key, the instance holding it, until when). Taken only when nobody holds
 * it or its lease has lapsed (its instance died, or lost its database); renewed while the work goes
 * on; given back at its end. No connection is held meanwhile, so it works through a pooler in
 * transaction mode, where a session's advisory lock would not.
 */
export type WorkLease = { readonly key: string; release: () => Promise<void> };

/** A long key (a filter's JSON) as a short one: its SHA-256. */
const keyOf = (key: string) => (key.length > 120 ? `sha256:${createHash('sha256').update(key).digest('hex')}` : key);

/**
 * Takes the lease of `key` for `holder` (the instance), or answers undefined when another holds it.
 * While held it is renewed in the background; `release` gives it back (at most once).
 */
export async function takeLease(routed: Db, key: string, holder: string, seconds = LEASE_SECONDS): Promise<WorkLease | undefined> {
  // On the primary, without making the request's reads leave a replica (a lease is no save of the user's).
  const db = primaryOf(routed);
  const k = keyOf(key);
  // A lease its instance left behind (it died) is taken over by the next who asks for its key; one
  // of a key nobody asks for again goes a day later.
  if (Math.random() < 0.02) await db.execute(sql`delete from work_leases where until < now() - interval '1 day'`);
  const taken = await db.execute(sql`
    insert into work_leases (key, holder, until) values (${k}, ${holder}, now() + make_interval(secs => ${seconds}))
    on conflict (key) do update set holder = excluded.holder, until = excluded.until where work_leases.until < now()
    returning key`);
  if (!taken.rows.length) return undefined;
  const renew = setInterval(() => {
    db.execute(sql`update work_leases set until = now() + make_interval(secs => ${seconds}) where key = ${k} and holder = ${holder}`).catch(() => {
      /* the database is away: the lease lapses, and the work it guards may then be done twice */
    });
  }, (seconds * 1000) / 3);
  renew.unref();
  let released: Promise<void> | undefined;
  return {
    key: k,
    release: () =>
      (released ??= (async () => {
        clearInterval(renew);
        await db.execute(sql`delete from work_leases where key = ${k} and holder = ${holder}`);
      })()),
  };
}


/**
 * One of `places` places for a kind of work across all instances (the keys `kind:0` … `kind:N-1`):
 * the lease of a free one, tried from a random one on, or undefined when every place is held. Each
 * taking has its own holder (the instance and a random tag), so one instance's several works of the
 * kind never give back each other's place.
 */
export async function takePlace(routed: Db, kind: string, places: number, instance: string, seconds = LEASE_SECONDS): Promise<WorkLease | undefined> {
  const holder = `${instance}#${randomBytes(4).toString('hex')}`;
  const first = Math.floor(Math.random() * places);
  for (let i = 0; i < places; i++) {
    const lease = await takeLease(routed, `${kind}:${(first + i) % places}`, holder, seconds);
    if (lease) return lease;
  }
  return undefined;
}
