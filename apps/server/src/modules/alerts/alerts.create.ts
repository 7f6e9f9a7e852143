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

/** Rows per insert statement when alerts are made in bulk. */
const BATCH = 500;

/**
 * Makes many alerts in the caller's transaction with a few statements, not one per alert: the
 * hourly checks look at thousands of tenant links, keys and to-dos, and almost all of them were
 * told about already. Answers, in the order given, each alert's new id, or null when an alert with
 * its dedupKey existed (or came twice in the list).
 */
export async function createAlerts(tx: Tx | Db, list: NewAlert[]): Promise<(number | null)[]> {
  const keys = [...new Set(list.map((a) => a.dedupKey).filter((k): k is string => !!k))];
  const existing = new Set<string>();
  for (let i = 0; i < keys.length; i += 5000) {
    const res = await tx.execute(sql`select dedup_key from alerts where dedup_key = any(${sql.param(keys.slice(i, i + 5000))}::text[])`);
    for (const r of res.rows as { dedup_key: string }[]) existing.add(r.dedup_key);
  }
  const seen = new Set<string>();
  const fresh: { a: NewAlert; i: number }[] = [];
  list.forEach((a, i) => {
    if (!a.content && !a.messageKey) throw new Error('createAlert: content or messageKey is required');
    if (a.dedupKey) {
      if (existing.has(a.dedupKey) || seen.has(a.dedupKey)) return;
      seen.add(a.dedupKey);
    }
    fresh.push({ a, i });
  });
  const ids: (number | null)[] = list.map(() => null);
  for (let s = 0; s < fresh.length; s += BATCH) {
    const chunk = fresh.slice(s, s + BATCH);
    const rows = chunk.map(({ a }, n) => ({
      n,
      date: a.date?.toISOString() ?? null,
      source: a.source,
      content: a.content ?? a.messageKey,
      kind: a.kind ?? null,
      message_key: a.messageKey ?? null,
      params: a.params ?? null,
      entity: a.entity ?? null,
      entity_id: a.entityId ?? null,
      dedup_key: a.dedupKey ?? null,
    }));
    // A concurrent check may have made one of them meanwhile: that row is skipped (and answered null).
    const res = await tx.execute(sql`
      insert into alerts (date, source, content, kind, message_key, params, entity, entity_id, dedup_key)
      select coalesce(r.date, now()), r.source, r.content, r.kind, r.message_key, r.params, r.entity, r.entity_id, r.dedup_key
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(n int, date timestamptz, source text, content text, kind text, message_key text,
        params jsonb, entity text, entity_id int, dedup_key text)
      order by r.n
      on conflict (dedup_key) do nothing
      returning id, dedup_key`);
    const byKey = new Map<string, number>();
    const plain: number[] = [];
    for (const r of res.rows as { id: number; dedup_key: string | null }[]) {
      if (r.dedup_key) byKey.set(r.dedup_key, Number(r.id));
      else plain.push(Number(r.id));
    }
    // Alerts without a dedup key are all inserted, and their ids come back in insert order.
    plain.sort((x, y) => x - y);
    let p = 0;
    for (const { a, i } of chunk) ids[i] = a.dedupKey ? (byKey.get(a.dedupKey) ?? null) : (plain[p++] ?? null);
  }
  return ids;
}
