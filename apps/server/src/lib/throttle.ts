import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { AppError } from './errors.ts';

/** A text[] literal of bound values (a bare JS array would become a row). */
const textArray = (values: string[]) => sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]`;

/** Times in epoch milliseconds, read off the database's clock. */
type Row = { key: string; failures: number; first: number; locked: number | null; now: number };

export type AttemptKey = { key: string; /** tries allowed before each further one waits */ free: number };

/**
 * Counts one sign-in try against every key *before* the password is checked, in one transaction
 * with the keys' rows locked: parallel tries are counted one after the other, so no burst gets
 * past the limit. Once a key has used its free tries, each further try first waits 1 s, 2 s,
 * 4 s ... up to `maxDelaySeconds`: an attacker is slowed to a handful of guesses an hour, while
 * nobody is locked out for longer than that. A key left alone for `resetAfterSeconds` starts over.
 *
 * Answers null when the try may go ahead (it is counted as a failure until `clearAttempts`), or
 * the seconds to wait (then nothing was counted).
 */
export async function reserveAttempt(
  db: Db,
  keys: AttemptKey[],
  opts: { maxDelaySeconds: number; resetAfterSeconds: number },
): Promise<number | null> {
  const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
  const names = sorted.map((k) => k.key);
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into login_failures (key, failures, first_failure_on)
      select k, 0, now() from unnest(${textArray(names)}) as k
      on conflict (key) do nothing`);
    const rows = (
      await tx.execute(sql`
        select key, failures, extract(epoch from first_failure_on)::float8 * 1000 as first,
          extract(epoch from locked_until)::float8 * 1000 as locked, extract(epoch from now())::float8 * 1000 as now
        from login_failures where key = any(${textArray(names)}) order by key for update`)
    ).rows as Row[];
    let wait = 0;
    for (const r of rows) {
      if (r.locked !== null && r.locked > r.now) wait = Math.max(wait, Math.ceil((r.locked - r.now) / 1000));
    }
    if (wait > 0) return wait;
    for (const r of rows) {
      const free = sorted.find((k) => k.key === r.key)!.free;
      const stale = r.now - (r.locked ?? r.first) > opts.resetAfterSeconds * 1000;
      const failures = (stale ? 0 : r.failures) + 1;
      const delay = failures >= free ? Math.min(2 ** (failures - free), opts.maxDelaySeconds) : 0;
      await tx.execute(sql`
        update login_failures set
          failures = ${failures},
          first_failure_on = ${stale || failures === 1 ? sql`now()` : sql`first_failure_on`},
          locked_until = ${delay > 0 ? sql`now() + make_interval(secs => ${delay})` : null}
        where key = ${r.key}`);
    }
    return null;
  });
}

/** A right password: the key's count starts over. */
export async function clearAttempts(db: Db, keys: string[]) {
  if (keys.length) await db.execute(sql`delete from login_failures where key = any(${textArray(keys)})`);
}

/** A right password takes back the try counted against a shared key (the client's address). */
export async function refundAttempt(db: Db, key: string) {
  await db.execute(sql`update login_failures set failures = greatest(failures - 1, 0) where key = ${key}`);
}

/**
 * A plain rate limit, checked and counted in one statement: at most `limit` calls per
 * `windowSeconds` for a key. Answers null when allowed, else the seconds until the window ends.
 */
export async function rateLimit(db: Db, key: string, limit: number, windowSeconds: number): Promise<number | null> {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const [row] = (
    await db.execute(sql`
      insert into login_failures (key, failures, first_failure_on) values (${key}, 1, now())
      on conflict (key) do update set
        failures = case when login_failures.first_failure_on < now() - ${window} then 1 else login_failures.failures + 1 end,
        first_failure_on = case when login_failures.first_failure_on < now() - ${window} then now() else login_failures.first_failure_on end
      returning failures, extract(epoch from (first_failure_on + ${window} - now()))::float8 as left_seconds`)
  ).rows as { failures: number; left_seconds: number }[];
  if (row!.failures <= limit) return null;
  return Math.max(1, Math.ceil(row!.left_seconds));
}

/** Old counters go away (called now and then, not on every request). */
export async function pruneAttempts(db: Db) {
  await db.execute(sql`delete from login_failures where coalesce(locked_until, first_failure_on) < now() - interval '1 day'`);
}

/**
 * A public page opened by a secret link (the signer's, the owner's report): made-up links are counted
 * per client address, and an address past `limit` refused links a minute gets a 429 before any lookup,
 * so a stream of guesses learns nothing; a right link costs one read, never a write.
 */
export async function guardSecretLink<T>(db: Db, scope: string, ip: string, run: () => Promise<T>, limit = 20): Promise<T> {
  const key = `${scope}-refused:${ip}`;
  const [row] = (
    await db.execute(sql`select ceil(extract(epoch from (first_failure_on + interval '60 seconds' - now())))::int as left_seconds
      from login_failures where key = ${key} and failures >= ${limit} and first_failure_on > now() - interval '60 seconds'`)
  ).rows as { left_seconds: number }[];
  if (row) throw new AppError(429, 'errors.tooManyRequestsWait', { minutes: Math.max(1, Math.ceil(Number(row.left_seconds) / 60)) });
  try {
    return await run();
  } catch (e) {
    if (e instanceof AppError && e.status === 404) await rateLimit(db, key, limit, 60);
    throw e;
  }
}
