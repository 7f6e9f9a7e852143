import type pg from 'pg';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { PAGE_ROWS } from './downloads.ts';

const dialect = new PgDialect();

/**
 * The rows of a query, `size` at a time, read through a cursor on the database server (in a
 * read-only transaction of its own, one consistent moment): however long the list, one page is in
 * memory at once. The transaction ends when the last page is read, when the reader stops early (a
 * `for await` left, an abort), or on an error; the connection goes back to the pool then.
 */
export async function* cursorPages<R>(db: Db, query: SQL, size = PAGE_ROWS): AsyncGenerator<R[]> {
  const pool = (db as unknown as { $client: pg.Pool }).$client;
  const { sql: text, params } = dialect.sqlToQuery(query);
  const client = await pool.connect();
  let open = false;
  try {
    await client.query('begin isolation level repeatable read read only');
    open = true;
    await client.query(`declare crm_pages no scroll cursor for ${text}`, params);
    for (;;) {
      const { rows } = await client.query(`fetch forward ${size} from crm_pages`);
      if (rows.length) yield rows as R[];
      if (rows.length < size) break;
    }
  } finally {
    if (open) await client.query('rollback').catch(() => undefined);
    client.release();
  }
}
