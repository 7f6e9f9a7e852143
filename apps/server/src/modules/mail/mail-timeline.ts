import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { LinkKind, type TTimelineAnswer, type TTimelineItem, type ZTimelineQuery } from '@crm/contract';
import type { SessionUser } from '../../plugins/auth.ts';
import { activitiesByIds, activityConditions, countActivities, likeText, newestActivities } from '../activities/activities.service.ts';
import { checkDeal, countThread, mailRowsByIds, threadOf, type TThreadOf } from './mail.service.ts';

type Query = z.output<typeof ZTimelineQuery>;

/** The record a timeline is of: the kind its activities are linked by, and its thread. */
function recordOf(q: Query): { parent: number; parentId: number; thread: TThreadOf } {
  if (q.accountId != null) return { parent: LinkKind.Account, parentId: q.accountId, thread: { accountId: q.accountId } };
  if (q.objectId != null) return { parent: LinkKind.Object, parentId: q.objectId, thread: { objectId: q.objectId } };
  if (q.leadId != null) return { parent: LinkKind.Demand, parentId: q.leadId, thread: { leadId: q.leadId } };
  return { parent: LinkKind.Deal, parentId: q.dealId!, thread: { dealId: q.dealId! } };
}

/**
 * GET /api/mail/timeline: a record's activities and its mail together, newest first (an activity by
 * when it was made, a message by its date, the undated last), paged in SQL: one statement takes the
 * newest `offset + perPage` of each (the activities as the record's list reads them, the mail as its
 * thread does: only the reader's mailboxes, none marked deleted), puts them together (UNION ALL) and
 * cuts the page; the page's activities and messages are then read once each by id (two statements,
 * and the activities' links and files two more, whatever the page's size).
 */
export async function recordTimeline(app: FastifyInstance, user: SessionUser, q: Query): Promise<TTimelineAnswer> {
  const { parent, parentId, thread } = recordOf(q);
  if (q.dealId != null) await checkDeal(app, q.dealId);
  const offset = (q.currentPage - 1) * q.perPage;
  const reach = offset + q.perPage;
  const text = q.text.trim();
  const withActivities = q.kind !== 'mail';
  // A state asked for is an activity's: mail has none.
  const withMail = q.kind !== 'activities' && q.done === 'all';
  const where = activityConditions(user, { parent, parentId, done: q.done, text });
  const match: SQL = text
    ? sql`crm_search_norm(concat_ws(' ', m.subject, m."from"->>'name', m."from"->>'address')) like '%' || crm_search_norm(${likeText(text)}) || '%'`
    : sql`true`;
  const parts: SQL[] = [];
  if (withActivities) parts.push(sql`select 'activity' as kind, a.id, a.at from (${newestActivities(app.db, where, reach)}) a`);
  if (withMail) parts.push(sql`select 'mail' as kind, t.message_id as id, t.sent_on as at from (${threadOf(user, thread, sql`limit ${reach}`, match)}) t`);
  if (!parts.length) return { items: [], totalRows: 0 };
  const [page, activityCount, mailCount] = await Promise.all([
    app.db.execute(sql`select u.kind, u.id from (${sql.join(parts, sql` union all `)}) u order by u.at desc nulls last, u.kind, u.id desc limit ${q.perPage} offset ${offset}`),
    withActivities ? countActivities(app.db, where) : 0,
    // Unfiltered, the thread's total is the one kept ahead (decision 105).
    withMail ? countThread(app, user, thread, text ? match : undefined) : 0,
  ]);
  const rows = page.rows as { kind: 'activity' | 'mail'; id: number }[];
  const [acts, mail] = await Promise.all([
    activitiesByIds(app.db, rows.filter((r) => r.kind === 'activity').map((r) => r.id), app.config.timeZone),
    mailRowsByIds(app, rows.filter((r) => r.kind === 'mail').map((r) => r.id)),
  ]);
  const activityById = new Map(acts.map((a) => [a.id, a]));
  const mailById = new Map(mail.map((m) => [m.id, m]));
  const items: TTimelineItem[] = [];
  for (const r of rows) {
    if (r.kind === 'activity') {
      const activity = activityById.get(r.id);
      if (activity) items.push({ kind: 'activity', activity });
    } else {
      const m = mailById.get(r.id);
      if (m) items.push({ kind: 'mail', mail: m });
    }
  }
  return { items, totalRows: activityCount + mailCount };
}
