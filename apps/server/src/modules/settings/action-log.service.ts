import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ACTION_LOG_COUNT_CAP, ACTION_LOG_ENTITIES, formatReferenceNumber, type TActionLogAnswer, type TActionLogSearch } from '@crm/contract';
import { actionLog } from '../../db/schema/index.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { containsPattern, localDayEnd, localDayStart } from '../accounts/accounts.sql.ts';

type PageRow = {
  id: number;
  date: Date;
  action_by_display: string | null;
  action: string;
  entity: string;
  entity_id: number | null;
  message: string | null;
  data: unknown;
  account: string | null;
  object_ref: number | null;
  account_names: Record<string, string> | null;
};

/**
 * The accounts a page row's data names by number: a deal's parties (`accounts: [{ accountId,
 * relation }]`, as a deal's creation and changes log them), by id, with their names now. Read with
 * the page's rows in one statement (a lateral join on the 20 rows), never a query per row.
 */
const DATA_ACCOUNT_NAMES = sql`(
  select jsonb_object_agg(a.id::text, a.display_name)
  from accounts a
  where p.entity = 'Deal' and a.id in (
    select (e->>'accountId')::int
    from jsonb_array_elements(case when jsonb_typeof(p.data->'accounts') = 'array' then p.data->'accounts' else '[]'::jsonb end) e
    where e->>'accountId' ~ '^[0-9]{1,9}$'))`;

/**
 * The sign-ins "by whom" means: those of a picked employee account, or those whose name, e-mail
 * or account name holds the typed text. Read first from the small users table, so that the log
 * itself is filtered by `action_by = any(...)` on its index, never by text row by row.
 */
async function whoseSignIns(app: FastifyInstance, f: TActionLogSearch): Promise<number[] | null> {
  if (f.actionBy != null) {
    const r = await app.db.execute(sql`select id from users where account_id = ${f.actionBy}`);
    return (r.rows as { id: number }[]).map((u) => u.id);
  }
  const text = f.actionByText?.trim();
  if (!text) return null;
  const r = await app.db.execute(sql`
    select u.id from users u left join accounts a on a.id = u.account_id
    where crm_search_norm(u.username || ' ' || u.email) like ${containsPattern(text)} or a.search_text like ${containsPattern(text)}`);
  return (r.rows as { id: number }[]).map((u) => u.id);
}

/**
 * POST /api/actionLog: newest first, filtered by who (an employee's sign-ins, or a name typed),
 * the kind of record and its id, and local days. Every filter is served by an index of action_log
 * in date order; the page's 20 rows are found first and only they are joined to the names of who
 * and what (a deep page never joins the rows it skips). The total is counted up to
 * ACTION_LOG_COUNT_CAP: past that the answer says "more than".
 */
export async function searchActionLog(app: FastifyInstance, f: TActionLogSearch): Promise<TActionLogAnswer> {
  const tz = app.config.timeZone;
  const who = await whoseSignIns(app, f);
  if (who && who.length === 0) return { items: [], totalRows: 0, totalCapped: false };
  const where: (SQL | undefined)[] = [];
  if (who) where.push(who.length === 1 ? eq(actionLog.actionBy, who[0]!) : inArray(actionLog.actionBy, who));
  const entity = ACTION_LOG_ENTITIES[f.entity];
  if (entity) where.push(eq(actionLog.entity, entity));
  if (f.entityId != null) where.push(eq(actionLog.entityId, f.entityId));
  if (f.startDate) where.push(sql`${actionLog.date} >= ${localDayStart(f.startDate, tz)}`);
  if (f.endDate) where.push(sql`${actionLog.date} < ${localDayEnd(f.endDate, tz)}`);
  const cond = and(...where);
  const filter = cond ? sql`where ${cond}` : sql``;

  const counted = app.db.execute(sql`select count(*)::int as n from (select 1 from ${actionLog} ${filter} limit ${ACTION_LOG_COUNT_CAP + 1}) c`);
  const page = app.db.execute(sql`
    with page as (
      select * from ${actionLog} ${filter}
      order by ${actionLog.date} desc, ${actionLog.id} desc
      limit ${f.perPage} offset ${(f.currentPage - 1) * f.perPage}
    )
    select p.id, p.date, p.action, p.entity, p.entity_id, p.message, p.data,
      coalesce(who.display_name, p.action_by_name) as action_by_display,
      acc.display_name as account, obj.reference_number as object_ref, ${DATA_ACCOUNT_NAMES} as account_names
    from page p
    left join lateral (select a.display_name from users u join accounts a on a.id = u.account_id where u.id = p.action_by) who on true
    left join accounts acc on p.entity = 'Account' and acc.id = p.entity_id
    left join objects obj on p.entity = 'Object' and obj.id = p.entity_id
    order by p.date desc, p.id desc`);
  const [countResult, rows] = await Promise.all([counted, page]);
  const n = (countResult.rows[0] as { n: number }).n;
  return {
    totalRows: Math.min(n, ACTION_LOG_COUNT_CAP),
    totalCapped: n > ACTION_LOG_COUNT_CAP,
    items: (rows.rows as PageRow[]).map((r) => ({
      id: Number(r.id),
      date: toLocalDateTime(new Date(r.date), tz)!,
      actionBy: r.action_by_display,
      action: r.action,
      entity: r.entity,
      entityId: r.entity_id,
      actionOver: r.account ?? (r.object_ref != null ? `#${formatReferenceNumber(r.object_ref)}` : r.entity_id != null ? `#${r.entity_id}` : null),
      message: r.message,
      data: r.data ?? null,
      ...(r.account_names ? { accountNames: r.account_names } : {}),
    })),
  };
}
