import type { FastifyInstance } from 'fastify';
import { LOG_MESSAGE } from '@crm/contract';
import { sql } from 'drizzle-orm';
import type { TAlert, TAlertListAnswer, TAlertListBody, TAlertNotes, TAlertRow, TCulture } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { badRequest, conflict, notFound, requireVersion } from '../../lib/errors.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { keptCount } from '../../lib/row-counts.ts';

type Caller = { user: { id: number }; actor: Actor };
type Row = {
  id: number;
  date: Date;
  source: string;
  content: string;
  messageKey: string | null;
  params: Record<string, string | number> | null;
  readedOn: Date | null;
  readedBy: string | null;
  notes?: string | null;
  entity?: string | null;
  entityId?: number | null;
  version?: number;
};

/** The web page of the record an alert is about. */
const LINKS: Record<string, (id: number) => string> = {
  Object: (id) => `/Objects/View/${id}`,
  ObjectKey: (id) => `/ObjectKeys/${id}`,
  Account: (id) => `/Accounts/View/${id}`,
  Lead: (id) => `/Leads/View/${id}`,
};

/** A failed job is named as the Jobs page names it ("E-mail sending"), not by its code (mail.send). */
export function readableParams(messageKey: string, params: Record<string, string | number>, t: (key: string) => string): Record<string, string | number> {
  if ((messageKey !== 'alerts.msg.jobFailed' && messageKey !== 'alerts.msg.jobFailedExplained') || typeof params.name !== 'string') return params;
  const key = `jobs.name.${params.name}`;
  const name = t(key);
  return name === key ? params : { ...params, name };
}

function reader(app: FastifyInstance, culture: TCulture) {
  const t = (key: string, params?: Record<string, string | number>) => app.translator.t(culture, key, params);
  const source = (s: string) => {
    const key = `alerts.source.${s}`;
    const text = t(key);
    return text === key ? s : text;
  };
  // An alert made from a text key reads in the reader's language; one made with a plain text as it is.
  const content = (r: Row) => {
    if (!r.messageKey) return r.content;
    const text = t(r.messageKey, readableParams(r.messageKey, r.params ?? {}, t));
    return text === r.messageKey ? r.content : text;
  };
  return { source, content };
}

function toRow(app: FastifyInstance, rd: ReturnType<typeof reader>, r: Row): TAlertRow {
  return {
    id: r.id,
    date: toLocalDateTime(new Date(r.date), app.config.timeZone)!,
    source: rd.source(r.source),
    content: rd.content(r),
    readedOn: toLocalDateTime(r.readedOn ? new Date(r.readedOn) : null, app.config.timeZone),
    readedBy: r.readedBy,
  };
}

const columns = sql`a.id, a.date, a.source, a.content, a.message_key as "messageKey", a.params, a.readed_on as "readedOn",
  coalesce(ra.display_name, u.username) as "readedBy"`;
const readerJoin = sql`left join users u on u.id = a.readed_by left join accounts ra on ra.id = u.account_id`;

/** POST /api/alert/list: newest first; the count and the page come from the date index. */
export async function listAlerts(app: FastifyInstance, body: TAlertListBody, culture: TCulture): Promise<TAlertListAnswer> {
  const offset = (body.currentPage - 1) * body.perPage;
  // Side by side: the page's ids from the date index alone, then those alerts; the total and the
  // unread count as the database keeps them (row_counts).
  const [rows, total, unread] = await Promise.all([
    app.db.execute(sql`select ${columns} from (select id from alerts order by date desc, id desc limit ${body.perPage} offset ${offset}) p
      join alerts a on a.id = p.id ${readerJoin} order by a.date desc, a.id desc`),
    keptCount(app.db, 'alerts'),
    keptCount(app.db, 'alerts.unread'),
  ]);
  const rd = reader(app, culture);
  return { items: (rows.rows as Row[]).map((r) => toRow(app, rd, r)), totalRows: total, unreadCount: unread };
}

async function readAlert(app: FastifyInstance, db: Tx | Db, id: number, culture: TCulture): Promise<TAlert> {
  const res = await db.execute(sql`select ${columns}, a.notes, a.entity, a.entity_id as "entityId", a.version from alerts a ${readerJoin} where a.id = ${id}`);
  const r = res.rows[0] as Row | undefined;
  if (!r) throw notFound('alerts.notFound');
  const link = r.entity && r.entityId ? (LINKS[r.entity]?.(r.entityId) ?? null) : null;
  return { ...toRow(app, reader(app, culture), r), notes: r.notes ?? null, entity: r.entity ?? null, entityId: r.entityId ?? null, link, version: r.version! };
}

/** GET /api/alert/{id}: opening an unread alert marks it read by the caller. */
export async function openAlert(app: FastifyInstance, caller: Caller, id: number, culture: TCulture): Promise<TAlert> {
  return app.db.transaction(async (tx) => {
    const marked = await tx.execute(sql`update alerts set readed_on = now(), readed_by = ${caller.user.id}, version = version + 1
      where id = ${id} and readed_on is null returning id`);
    if (marked.rows.length) await logAction(tx, caller.actor, { action: 'Read', entity: 'Alert', entityId: id });
    return readAlert(app, tx, id, culture);
  });
}

/** POST /api/alert/mark-as-unread/{id} */
export async function markUnread(app: FastifyInstance, caller: Caller, id: number, culture: TCulture): Promise<TAlert> {
  return app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`update alerts set readed_on = null, readed_by = null, version = version + 1 where id = ${id} returning id`);
    if (!res.rows.length) throw notFound('alerts.notFound');
    await logAction(tx, caller.actor, { action: 'MarkUnread', entity: 'Alert', entityId: id });
    return readAlert(app, tx, id, culture);
  });
}

/** POST /api/alert/update-notes/{id}: notes someone else changed since the caller read them (or, without `was`, any later change) are a 409 with the current alert. */
export async function updateNotes(app: FastifyInstance, caller: Caller, id: number, body: TAlertNotes, culture: TCulture): Promise<TAlert> {
  return app.db.transaction(async (tx) => {
    const cur = await tx.execute(sql`select version, notes from alerts where id = ${id} for update`);
    const row = cur.rows[0] as { version: number; notes: string | null } | undefined;
    if (!row) throw notFound('alerts.notFound');
    // Based on the notes as read (`was`), or else on the version: one of the two is needed.
    const stale = body.was !== undefined ? (body.was?.trim() ? body.was : null) !== row.notes : requireVersion(body.version) !== row.version;
    if (stale) throw conflict(await readAlert(app, tx, id, culture));
    const notes = body.notes?.trim() ? body.notes : null;
    if (notes !== row.notes) {
      await tx.execute(sql`update alerts set notes = ${notes}, version = version + 1 where id = ${id}`);
      await logAction(tx, caller.actor, { action: 'Update', entity: 'Alert', entityId: id, data: { notes: { from: row.notes, to: notes } } });
    }
    return readAlert(app, tx, id, culture);
  });
}

/** DELETE /api/alert/{id} */
export async function deleteAlert(app: FastifyInstance, caller: Caller, id: number) {
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`delete from alerts where id = ${id} returning source, content, message_key, params`);
    const r = res.rows[0] as { source: string; content: string; message_key: string | null; params: Record<string, string | number> | null } | undefined;
    if (!r) throw notFound('alerts.notFound');
    // The message is the English text; an alert the system made also leaves its text key and values,
    // so the log reads it in each reader's language.
    const text = r.message_key ? { messageKey: r.message_key, params: r.params ?? {} } : {};
    await logAction(tx, caller.actor, { action: 'Delete', entity: 'Alert', entityId: id, message: r.content.slice(0, 200), data: { source: r.source, ...text } });
  });
}

/** GET /api/jobs: counts per state, and the newest jobs of one state (failed first of all) with their errors. */
export async function listJobs(app: FastifyInstance, state: string, limit: number) {
  const [counts, rows] = await Promise.all([
    app.db.execute(sql`select state, count(*)::int as n from jobs group by state`),
    app.db.execute(sql`select id, name, state, attempts, max_attempts as "maxAttempts", run_at as "runAt", finished_on as "finishedOn", last_error as "lastError"
      from jobs where state = ${state} order by coalesce(finished_on, run_at) desc, id desc limit ${limit}`),
  ]);
  const tz = app.config.timeZone;
  return {
    counts: Object.fromEntries((counts.rows as { state: string; n: number }[]).map((r) => [r.state, r.n])),
    items: (rows.rows as { id: number | string; name: string; state: string; attempts: number; maxAttempts: number; runAt: Date; finishedOn: Date | null; lastError: string | null }[]).map((r) => ({
      id: Number(r.id),
      name: r.name,
      state: r.state,
      attempts: r.attempts,
      maxAttempts: r.maxAttempts,
      runAt: toLocalDateTime(new Date(r.runAt), tz)!,
      finishedOn: toLocalDateTime(r.finishedOn ? new Date(r.finishedOn) : null, tz),
      lastError: r.lastError,
    })),
  };
}

/** POST /api/jobs/{id}/retry: a failed job queued again (an admin fixed what made it fail: the mail server, a photo...). */
export async function retryJob(app: FastifyInstance, caller: Caller, id: number) {
  await app.db.transaction(async (tx) => {
    const outcome = await app.jobs.retry(id, tx);
    if (outcome === 'notFailed') throw notFound('jobs.notFailed');
    if (outcome === 'duplicate') throw badRequest('jobs.alreadyQueued');
    await logAction(tx, caller.actor, { action: 'Update', entity: 'Job', entityId: id, message: LOG_MESSAGE.retried });
  });
  // The retry was queued in the transaction: wake the runner now that it is committed.
  app.jobs.kick();
}

