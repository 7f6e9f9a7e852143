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
 * `timeZone`: the agency's (config TIME_ZONE). Every connection's session runs on it, so that
 * `current_date` in a statement or a trigger is the agency's today, not the server's (UTC): between
 * midnight in Athens and 02:00 or 03:00 UTC they differ. Statements that turn a moment into a
 * local day or time still say the zone themselves (`at time zone`); this only fixes what they
 * cannot say.
 */
export function connectDb(url: string, max = 20, opts: { timeZone?: string } = {}): DbHandle {
  if (opts.timeZone !== undefined && !ZONE_NAME.test(opts.timeZone)) throw new Error(`not a time zone name: ${opts.timeZone}`);
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30000, ...(opts.timeZone ? { options: `-c TimeZone=${opts.timeZone}` } : {}) });
  // Statements a connection runs again are parsed (and, where it pays, planned) once (auto-prepare.ts);
  // CRM_AUTO_PREPARE=off turns that off (to compare).
  if (process.env.CRM_AUTO_PREPARE !== 'off') pool.on('connect', (client) => autoPrepare(client));
  pool.on('error', () => {
    /* a dropped idle connection; the pool replaces it */
  });
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
