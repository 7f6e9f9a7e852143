import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { autoPrepare } from './auto-prepare.ts';
import { routedDb } from './read-routing.ts';

export type { Db, Tx } from './db-types.ts';
import type { Db } from './db-types.ts';
export type DbHandle = {
  /** The primary; with a replica, a router that reads from it where the request allows (db/read-routing.ts). */
  db: Db;
  pool: pg.Pool;
  /** The replica's pool (DATABASE_READ_URL), when there is one. */
  readPool?: pg.Pool;
  close: () => Promise<void>;
};

export type ConnectOptions = {
  timeZone?: string;
  /** false behind a pooler in transaction mode: no statement is kept prepared by name (DATABASE_PREPARED_STATEMENTS). */
  preparedStatements?: boolean;
  /** A streaming replica of the same database (DATABASE_READ_URL). */
  readUrl?: string;
  /** A direct address of the primary for LISTEN (DATABASE_DIRECT_URL); default `url`. */
  directUrl?: string;
};

/** The connection settings the LISTENing connection of a handle uses (a direct one, never through a pooler). */
const LISTEN_CONFIG = Symbol.for('crm.listenConfig');
export function listenConfigOf(db: Db): pg.ClientConfig {
  const own = (db as unknown as Record<symbol, pg.ClientConfig | undefined>)[LISTEN_CONFIG];
  return own ?? (db as unknown as { $client: pg.Pool }).$client.options;
}

/**
 * Sends every statement unnamed: a pooler in transaction mode (PgBouncer before 1.21, or with
 * max_prepared_statements = 0) gives each transaction whichever server connection is free, where
 * a statement prepared by name on another one does not exist. Drizzle's prepare(name) and
 * auto-prepare.ts both name statements; here the name is taken off before the driver sees it.
 */
function withoutNamedStatements(client: pg.PoolClient): void {
  const base = client.query;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: unknown, ...args: unknown[]) {
    const [config] = args;
    if (config !== null && typeof config === 'object' && typeof (config as { name?: unknown }).name === 'string' && typeof (config as { submit?: unknown }).submit !== 'function') {
      const { name: _name, ...rest } = config as Record<string, unknown>;
      return (base as (...a: unknown[]) => unknown).call(client, rest, ...args.slice(1));
    }
    return (base as (...a: unknown[]) => unknown).apply(client, args);
  };
}

// numeric -> JS number (money is numeric(14,2); well within double precision)
pg.types.setTypeParser(1700, (v) => (v === null ? null : Number(v)));
// bigint counts -> number
pg.types.setTypeParser(20, (v) => (v === null ? null : Number(v)));

/** A time zone name as PostgreSQL and Intl know them (letters, digits, `_ + - /`). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/**
 * The connection's startup options with the agency's zone added: pg takes options from the URL
 * over those given in code, and either over PGOPTIONS, so all three are joined here (the URL's
 * taken out of it) and none is lost; a zone given only in code would have been dropped by a URL
 * with options of its own, and the day would silently have been UTC's again.
 */
function withZone(url: string, zone: string | undefined): { connectionString: string; options?: string } {
  if (!zone) return { connectionString: url };
  let connectionString = url;
  let fromUrl = '';
  try {
    const u = new URL(url);
    fromUrl = u.searchParams.get('options') ?? '';
    if (fromUrl) {
      u.searchParams.delete('options');
      connectionString = u.toString();
    }
  } catch {
    // Not a URL (a "key=value" string): used as it is.
  }
  return { connectionString, options: [process.env.PGOPTIONS ?? '', fromUrl, `-c crm.time_zone=${zone}`].filter(Boolean).join(' ') };
}

/**
 * `timeZone`: the agency's (config TIME_ZONE), set on every connection as the setting
 * crm.time_zone, which the SQL function crm_today() reads (migration 0042): the agency's today in a
 * statement or a trigger, not the server's (UTC), which differs between midnight in Athens and
 * 02:00 or 03:00 UTC. The session's own zone stays UTC: with the agency's, moments before 1916 came
 * back with Athens' local mean time (+01:34:52), which no JavaScript date reads.
 */
export function connectDb(url: string, max = 20, opts: ConnectOptions = {}): DbHandle {
  if (opts.timeZone !== undefined && !ZONE_NAME.test(opts.timeZone)) throw new Error(`not a time zone name: ${opts.timeZone}`);
  const prepared = opts.preparedStatements !== false;
  const poolOf = (address: string, name: string) => {
    // Named, so that a restore refusing to run beside the CRM can say what is connected (a URL's own
    // application_name wins over this one).
    const pool = new pg.Pool({ application_name: name, ...withZone(address, opts.timeZone), max, idleTimeoutMillis: 30000 });
    // Statements a connection runs again are parsed (and, where it pays, planned) once (auto-prepare.ts);
    // CRM_AUTO_PREPARE=off turns that off (to compare), and so does a pooler in transaction mode.
    if (!prepared) pool.on('connect', (client) => withoutNamedStatements(client));
    else if (process.env.CRM_AUTO_PREPARE !== 'off') pool.on('connect', (client) => autoPrepare(client));
    pool.on('error', () => {
      /* a dropped idle connection; the pool replaces it */
    });
    // A connection lost while checked out (in a query or a transaction: PostgreSQL restarted, the
    // network cut) fails what runs on it, and the pool drops it when it is given back. The client
    // also emits the loss as an event: unheard, it would end the whole process.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    return pool;
  };
  const pool = poolOf(url, 'agency-crm');
  const primary = drizzle(pool, { schema });
  const listen: pg.ClientConfig = opts.directUrl ? { application_name: 'agency-crm', ...withZone(opts.directUrl, opts.timeZone) } : pool.options;
  Object.defineProperty(primary, LISTEN_CONFIG, { value: listen });
  if (!opts.readUrl) return { db: primary, pool, close: () => pool.end() };
  const readPool = poolOf(opts.readUrl, 'agency-crm reads');
  const replica = drizzle(readPool, { schema });
  return { db: routedDb(primary, replica), pool, readPool, close: async () => void (await Promise.all([pool.end(), readPool.end()])) };
}
