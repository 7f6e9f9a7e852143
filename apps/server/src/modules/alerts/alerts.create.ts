import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** Where an alert comes from; shown translated (texts `alerts.source.<code>`), any other text as it is. */
export type AlertSource = 'Rent' | 'Keys' | 'Tasks' | 'Jobs' | 'Publishing' | 'Website' | (string & {});

export type NewAlert = {
  source: AlertSource;
  /** What made it (rent, key, todo, job, publish...): for filters and tests. */
  kind?: string;
  /** A text key: the alert reads in each reader's language, filled with `params`. */
  messageKey?: string;
  params?: Record<string, string | number>;
  /** Plain text, shown when there is no messageKey (and kept as the English fallback). */
  content?: string;
  /** The record it is about: Object, Account, Activity, Job... (the alert page links to it). */
  entity?: string;
  entityId?: number;
  /** An alert with this key is made once, ever (concurrent callers included): the second call answers null. */
  dedupKey?: string;
  date?: Date;
};

/**
 * Makes an alert inside the caller's transaction (it exists only if that commits). Answers its id,
 * or null when an alert with the same dedupKey exists already.
 */
export async function createAlert(tx: Tx | Db, a: NewAlert): Promise<number | null> {
  const content = a.content ?? a.messageKey;
  if (!content) throw new Error('createAlert: content or messageKey is required');
  const res = await tx.execute(sql`
    insert into alerts (date, source, content, kind, message_key, params, entity, entity_id, dedup_key)
    values (coalesce(${a.date?.toISOString() ?? null}::timestamptz, now()), ${a.source}, ${content}, ${a.kind ?? null}, ${a.messageKey ?? null},
      ${a.params ? JSON.stringify(a.params) : null}::jsonb, ${a.entity ?? null}, ${a.entityId ?? null}, ${a.dedupKey ?? null})
    on conflict (dedup_key) do nothing
    returning id`);
  const row = res.rows[0] as { id: number } | undefined;
  return row ? Number(row.id) : null;
}
