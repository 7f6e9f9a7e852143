import type { FastifyInstance } from 'fastify';
import { sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { LinkKind, type TTimelineAnswer, type TTimelineItem, type ZTimelineQuery } from '@crm/contract';
import type { SessionUser } from '../../plugins/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { activitiesByIds, activityConditions, countActivitiesQuery, likeText, newestActivities } from '../activities/activities.service.ts';
import { checkDeal, countOnTheSpot, keptCountOf, mailColumns, onTheSpotCountOf, rowOf, threadOf, type TMailRaw, type TThreadOf } from './mail.service.ts';

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
 * when it was made, a message by its date, the undated last), paged in SQL. One statement takes the
 * newest `offset + perPage` of each (the activities as the record's list reads them, the mail as its
 * thread does: only the reader's mailboxes, none marked deleted), puts them together (UNION ALL), cuts
 * the page and reads the page's messages with it, beside the two counts (the activities', and the
 * mail's kept ahead, decision 105, or counted on the spot when filtered) and, for a deal,
 * whether it is there; then the page's activities with their links and files (one statement). The mail is counted again on the spot only while a change to
 * the record's kept count waits to be folded.
 */
export async function recordTimeline(app: FastifyInstance, user: SessionUser, q: Query): Promise<TTimelineAnswer> {
  const { parent, parentId, thread } = recordOf(q);
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
  if (!parts.length) {
    if (q.dealId != null) await checkDeal(app, q.dealId);
    return { items: [], totalRows: 0 };
  }
  // Unfiltered, a record's thread total is the one kept ahead (decision 105).
  const kept = withMail && !text ? keptCountOf(user, thread) : null;
  const mailCount = !withMail ? sql`0` : kept ? sql`(select k.n from (${kept}) k)` : sql`(select c.n from (${onTheSpotCountOf(user, thread, match)}) c)`;
  const activityCount = withActivities ? sql`(${countActivitiesQuery(app.db, where)})` : sql`0`;
  const found = q.dealId != null ? sql`exists (select 1 from deals where id = ${q.dealId})` : sql`true`;
  const res = await app.db.execute(sql`with p as (select u.kind, u.id, u.at from (${sql.join(parts, sql` union all `)}) u order by u.at desc nulls last, u.kind, u.id desc limit ${q.perPage} offset ${offset}),
      c as (select ${activityCount} as activities, ${mailCount} as mail, ${found} as found)
    select c.activities, c.mail, c.found, p.kind as item_kind, p.id as item_id, ${mailColumns}
    from c left join (p left join mail_messages m on p.kind = 'mail' and m.id = p.id left join mailboxes mb on mb.id = m.mailbox_id) on true
    order by p.at desc nulls last, p.kind, p.id desc`);
  const rows = res.rows as (TMailRaw & { activities: number; mail: number | null; found: boolean; item_kind: 'activity' | 'mail' | null; item_id: number | null })[];
  const head = rows[0]!;
  if (!head.found) throw notFound();
  const [acts, mailCounted] = await Promise.all([
    activitiesByIds(app.db, rows.filter((r) => r.item_kind === 'activity').map((r) => r.item_id!), app.config.timeZone),
    head.mail ?? countOnTheSpot(app, user, thread),
  ]);
  const activityById = new Map(acts.map((a) => [a.id, a]));
  const items: TTimelineItem[] = [];
  for (const r of rows) {
    if (r.item_kind === 'activity') {
      const activity = activityById.get(r.item_id!);
      if (activity) items.push({ kind: 'activity', activity });
    } else if (r.item_kind === 'mail' && r.id != null) items.push({ kind: 'mail', mail: rowOf(app, r) });
  }
  return { items, totalRows: head.activities + mailCounted };
}
