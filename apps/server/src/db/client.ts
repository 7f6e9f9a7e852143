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

export function connectDb(url: string, max = 20): DbHandle {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30000 });
  // Statements a connection runs again are parsed (and, where it pays, planned) once (auto-prepare.ts);
  // CRM_AUTO_PREPARE=off turns that off (to compare).
  if (process.env.CRM_AUTO_PREPARE !== 'off') pool.on('connect', (client) => autoPrepare(client));
  pool.on('error', () => {
    /* a dropped idle connection; the pool replaces it */
  });
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}
