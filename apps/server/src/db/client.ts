import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { autoPrepare } from './auto-prepare.ts';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbHandle = { db: Db; pool: pg.Pool; close: () => Promise<void> };

// numeric -> JS number (money is numeric(14,2); well within double precision)
pg.types.setTypeParser(1700, (v) => (v === null ? null : Number(v)));
// bigint counts -> number
pg.types.setTypeParser(20, (v) => (v === null ? null : Number(v)));

/** A time zone name as PostgreSQL and Intl know them (letters, digits, `_ + - /`). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/**
 * `timeZone`: the agency's (config TIME_ZONE), set on every connection as the setting
 * crm.time_zone, which the SQL function crm_today() reads (migration 0042): the agency's today in a
 * statement or a trigger, not the server's (UTC), which differs between midnight in Athens and
 * 02:00 or 03:00 UTC. The session's own zone stays UTC: with the agency's, moments before 1916 came
 * back with Athens' local mean time (+01:34:52), which no JavaScript date reads.
 */
export function connectDb(url: string, max = 20, opts: { timeZone?: string } = {}): DbHandle {
  if (opts.timeZone !== undefined && !ZONE_NAME.test(opts.timeZone)) throw new Error(`not a time zone name: ${opts.timeZone}`);
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30000 });
  // Set by a statement, not the startup's `options`: options in the URL or PGOPTIONS would replace
  // those (and the day would silently be UTC's again). A new connection runs it before anything
  // else it is given (a client runs its statements in order).
  const zone = opts.timeZone;
  if (zone) pool.on('connect', (client) => void client.query("select set_config('crm.time_zone', $1, false)", [zone]).catch(() => {}));
  // Statements a connection runs again are parsed (and, where it pays, planned) once (auto-prepare.ts);
  // CRM_AUTO_PREPARE=off turns that off (to compare).
  if (process.env.CRM_AUTO_PREPARE !== 'off') pool.on('connect', (client) => autoPrepare(client));
  pool.on('error', () => {
    /* a dropped idle connection; the pool replaces it */
  });
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
