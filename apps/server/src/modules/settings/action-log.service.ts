import type { FastifyInstance } from 'fastify';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { ACTION_LOG_COUNT_CAP, ACTION_LOG_ENTITIES, formatReferenceNumber, type TActionLogAnswer, type TActionLogSearch } from '@crm/contract';
import { accounts, actionLog, objects } from '../../db/schema/index.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { containsPattern, localDayEnd, localDayStart } from '../accounts/accounts.sql.ts';

/**
 * POST /api/actionLog: newest first, filtered by who (an employee's sign-ins, or a name typed),
 * the kind of record and its id, and local days. Every filter is served by an index of
 * action_log; the total is counted up to ACTION_LOG_COUNT_CAP (a million rows are not counted to
 * show "more than 10 000").
 */
export async function searchActionLog(app: FastifyInstance, f: TActionLogSearch): Promise<TActionLogAnswer> {
  const tz = app.config.timeZone;
  const where: (SQL | undefined)[] = [];
  if (f.actionBy != null) {
    where.push(sql`${actionLog.actionBy} in (select u.id from users u where u.account_id = ${f.actionBy})`);
  } else if (f.actionByText?.trim()) {
    const text = f.actionByText.trim();
    where.push(sql`(${actionLog.actionBy} in (
      select u.id from users u left join accounts a on a.id = u.account_id
      where crm_search_norm(u.username || ' ' || u.email) like ${containsPattern(text)} or a.search_text like ${containsPattern(text)}
    ) or crm_search_norm(coalesce(${actionLog.actionByName}, '')) like ${containsPattern(text)})`);
  }
  const entity = ACTION_LOG_ENTITIES[f.entity];
  if (entity) where.push(eq(actionLog.entity, entity));
  if (f.entityId != null) where.push(eq(actionLog.entityId, f.entityId));
  if (f.startDate) where.push(sql`${actionLog.date} >= ${localDayStart(f.startDate, tz)}`);
  if (f.endDate) where.push(sql`${actionLog.date} < ${localDayEnd(f.endDate, tz)}`);
  const cond = and(...where);

  const counted = app.db.execute(
    sql`select count(*)::int as n from (select 1 from ${actionLog} ${cond ? sql`where ${cond}` : sql``} limit ${ACTION_LOG_COUNT_CAP + 1}) c`,
  );
  const page = app.db
    .select({
      id: actionLog.id,
      date: actionLog.date,
      actionBy: sql<string | null>`coalesce((select a.display_name from users u join accounts a on a.id = u.account_id where u.id = ${actionLog.actionBy}), ${actionLog.actionByName})`,
      action: actionLog.action,
      entity: actionLog.entity,
      entityId: actionLog.entityId,
      message: actionLog.message,
      data: actionLog.data,
      account: accounts.displayName,
      objectRef: objects.referenceNumber,
    })
    .from(actionLog)
    .leftJoin(accounts, and(eq(actionLog.entity, 'Account'), eq(accounts.id, actionLog.entityId)))
    .leftJoin(objects, and(eq(actionLog.entity, 'Object'), eq(objects.id, actionLog.entityId)))
    .where(cond)
    .orderBy(sql`${actionLog.date} desc`, sql`${actionLog.id} desc`)
    .limit(f.perPage)
    .offset((f.currentPage - 1) * f.perPage);
  const [countResult, rows] = await Promise.all([counted, page]);
  const n = (countResult.rows[0] as { n: number }).n;
  return {
    totalRows: Math.min(n, ACTION_LOG_COUNT_CAP),
    totalCapped: n > ACTION_LOG_COUNT_CAP,
    items: rows.map((r) => ({
      id: r.id,
      date: toLocalDateTime(r.date, tz)!,
      actionBy: r.actionBy,
      action: r.action,
      entity: r.entity,
      entityId: r.entityId,
      actionOver: r.account ?? (r.objectRef != null ? `#${formatReferenceNumber(r.objectRef)}` : r.entityId != null ? `#${r.entityId}` : null),
      message: r.message,
      data: r.data ?? null,
    })),
  };
}
