import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './db-types.ts';

/**
 * Reads from a streaming replica (DATABASE_READ_URL, decision 061). The app keeps one `app.db`; with
 * a replica it is this router: a request the read-routing plugin lets read from the replica (a list,
 * a search, a report, an export, by a user whose last write the replica has replayed) runs its
 * selects there, everything else on the primary. Writes always go to the primary, and once a
 * request has written, the rest of it reads from the primary too (it sees its own write).
 */
export type ReadScope = {
  /** Selects of this request go to the replica. */
  replica: boolean;
  /** Something went to the primary that may have written (insert, update, delete, raw SQL, a transaction). */
  wrote: boolean;
};

const scope = new AsyncLocalStorage<ReadScope>();

/** Runs `fn` (the rest of a request) in a scope of its own, reading from the primary until told otherwise. */
export function runInReadScope(fn: () => void): void {
  scope.run({ replica: false, wrote: false }, fn);
}

/** Runs `fn` as if outside any request: what it builds on `app.db` is built on the primary. */
export function outsideReadScope<T>(fn: () => T): T {
  return scope.exit(fn);
}

export function currentReadScope(): ReadScope | undefined {
  return scope.getStore();
}

/** The primary behind a router (for what must be read there: locks, the session's own rows). */
export const PRIMARY = Symbol.for('crm.primaryDb');
export function primaryOf(db: Db): Db {
  return ((db as unknown as Record<symbol, Db | undefined>)[PRIMARY] ?? db) as Db;
}

/** Builders that only read: run on the replica when the request may. */
const READS = new Set<PropertyKey>(['select', 'selectDistinct', 'selectDistinctOn', '$count', 'query']);
/** Calls that may write: the primary, and the request reads from the primary afterwards (a read route's raw SQL and transactions try the replica first, above). */
const WRITES = new Set<PropertyKey>(['insert', 'update', 'delete', 'execute', 'transaction', 'with', 'refreshMaterializedView']);

/** A replica refuses a write with 25006 (read_only_sql_transaction). */
const isReadOnlyRefusal = (e: unknown) => (e as { code?: string } | undefined)?.code === '25006' || (e as { cause?: { code?: string } } | undefined)?.cause?.code === '25006';

export function routedDb(primary: Db, replica: Db): Db {
  return new Proxy(primary, {
    get(target, prop) {
      if (prop === PRIMARY) return primary;
      const s = scope.getStore();
      if (s?.replica && READS.has(prop)) {
        const v = Reflect.get(replica, prop, replica) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(replica) : v;
      }
      if (s?.replica && prop === 'execute') {
        // Raw SQL of a read route (most lists are written so): on the replica; a statement that
        // writes is refused there (25006, nothing done) and runs on the primary instead.
        return async (...args: unknown[]) => {
          try {
            return await (replica.execute as (...a: unknown[]) => Promise<unknown>)(...args);
          } catch (e) {
            if (!isReadOnlyRefusal(e)) throw e;
            s.replica = false;
            s.wrote = true;
            return (primary.execute as (...a: unknown[]) => Promise<unknown>)(...args);
          }
        };
      }
      if (s?.replica && prop === 'transaction') {
        // A read-only route's transaction: on the replica; one that turns out to write is run again,
        // whole, on the primary (the replica's attempt changed nothing).
        return async (fn: (tx: unknown) => Promise<unknown>, config?: unknown) => {
          try {
            return await (replica.transaction as (f: typeof fn, c?: unknown) => Promise<unknown>)(fn, config);
          } catch (e) {
            if (!isReadOnlyRefusal(e)) throw e;
            s.replica = false;
            s.wrote = true;
            return (primary.transaction as (f: typeof fn, c?: unknown) => Promise<unknown>)(fn, config);
          }
        };
      }
      if (s && WRITES.has(prop)) {
        s.replica = false;
        s.wrote = true;
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** "16/B374D848" as a number that orders as PostgreSQL orders LSNs. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi || '0'}`) << 32n) + BigInt(`0x${lo || '0'}`);
}
