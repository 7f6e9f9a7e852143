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
 * How a lease is kept: for how long each renewal holds (`seconds`), and when renewing stops even
 * though the lease was not given back: once `live` answers false (the answer the work was for is
 * closed or destroyed) or `maxHoldSeconds` after it was taken. Then it lapses `seconds` later, so a
 * release that never comes (a stream nobody closes) cannot hold it for good.
 */
export type LeaseOptions = { seconds?: number; live?: () => boolean; maxHoldSeconds?: number };

/** A lease just taken: renewed in the background as `opts` says; `release` gives it back (at most once). */
function held(db: Db, k: string, holder: string, opts: LeaseOptions): WorkLease {
  const seconds = opts.seconds ?? LEASE_SECONDS;
  const since = Date.now();
  const renew = setInterval(() => {
    if ((opts.live && !opts.live()) || (opts.maxHoldSeconds !== undefined && Date.now() - since >= opts.maxHoldSeconds * 1000)) {
      clearInterval(renew);
      return;
    }
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
 * Takes the lease of `key` for `holder` (the instance), or answers undefined when another holds it.
 * While held it is renewed in the background; `release` gives it back (at most once).
 */
export async function takeLease(routed: Db, key: string, holder: string, opts: LeaseOptions = {}): Promise<WorkLease | undefined> {
  // On the primary, without making the request's reads leave a replica (a lease is no save of the user's).
  const db = primaryOf(routed);
  const k = keyOf(key);
  const seconds = opts.seconds ?? LEASE_SECONDS;
  // A lease its instance left behind (it died) is taken over by the next who asks for its key; one
  // of a key nobody asks for again goes a day later.
  if (Math.random() < 0.02) await db.execute(sql`delete from work_leases where until < now() - interval '1 day'`);
  const taken = await db.execute(sql`
    insert into work_leases (key, holder, until) values (${k}, ${holder}, now() + make_interval(secs => ${seconds}))
    on conflict (key) do update set holder = excluded.holder, until = excluded.until where work_leases.until < now()
    returning key`);
  if (!taken.rows.length) return undefined;
  return held(db, k, holder, opts);
}

/** Times a place is looked for again when another took the free one it chose in the same instant. */
const PLACE_TRIES = 3;

/**
 * One of `places` places for a kind of work across all instances (the keys `kind:0` … `kind:N-1`):
 * the lease of a free (or lapsed) one chosen at random, or undefined when every place is held. One
 * statement looks for a free place and takes it, so a refusal costs one round trip whatever N is;
 * it is tried again (at most PLACE_TRIES times) only when another taking won the chosen place in the
 * same instant. Each taking has its own holder (the instance and a random tag), so one instance's
 * several works of the kind never give back each other's place.
 */
export async function takePlace(routed: Db, kind: string, places: number, instance: string, opts: LeaseOptions = {}): Promise<WorkLease | undefined> {
  const db = primaryOf(routed);
  const holder = `${instance}#${randomBytes(4).toString('hex')}`;
  const seconds = opts.seconds ?? LEASE_SECONDS;
  for (let i = 0; i < PLACE_TRIES; i++) {
    const r = await db.execute(sql`
      with free as (
        select ${kind}::text || ':' || n::text as key
        from generate_series(0, ${places - 1}::int) n
        left join work_leases w on w.key = ${kind}::text || ':' || n::text
        where w.key is null or w.until < now()
        order by random() limit 1
      ), taken as (
        insert into work_leases (key, holder, until)
        select key, ${holder}, now() + make_interval(secs => ${seconds}) from free
        on conflict (key) do update set holder = excluded.holder, until = excluded.until where work_leases.until < now()
        returning key
      )
      select (select key from free) as free, (select key from taken) as taken`);
    const row = r.rows[0] as { free: string | null; taken: string | null } | undefined;
    if (row?.taken) return held(db, row.taken, holder, opts);
    // Every place held: refused at once; a free one chosen but taken by another meanwhile: look again.
    if (!row?.free) return undefined;
  }
  return undefined;
}
