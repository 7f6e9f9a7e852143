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
export function connectDb(url: string, max = 20, opts: { timeZone?: string } = {}): DbHandle {
  if (opts.timeZone !== undefined && !ZONE_NAME.test(opts.timeZone)) throw new Error(`not a time zone name: ${opts.timeZone}`);
  // Named, so that a restore refusing to run beside the CRM can say what is connected (a URL's own
  // application_name wins over this one).
  const pool = new pg.Pool({ application_name: 'agency-crm', ...withZone(url, opts.timeZone), max, idleTimeoutMillis: 30000 });
  // Statements a connection runs again are parsed (and, where it pays, planned) once (auto-prepare.ts);
  // CRM_AUTO_PREPARE=off turns that off (to compare).
  if (process.env.CRM_AUTO_PREPARE !== 'off') pool.on('connect', (client) => autoPrepare(client));
  pool.on('error', () => {
    /* a dropped idle connection; the pool replaces it */
  });
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
