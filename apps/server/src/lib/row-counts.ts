import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';

/** The counts kept by triggers in `row_counts` (migration 0027; viewings and keys 0119). */
export type KeptCount = 'leads' | 'objects' | 'alerts' | 'alerts.unread' | 'viewings' | 'object_keys';

/** An exact row count kept by the database (one row read instead of counting the table). */
export async function keptCount(db: Db | Tx, name: KeptCount): Promise<number> {
  const { rows } = await db.execute<{ n: string | number }>(sql`select n from row_counts where name = ${name}`);
  return Number(rows[0]?.n ?? 0);
}
