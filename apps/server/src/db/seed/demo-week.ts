import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { checkOfficeAlerts, checkRentReminders, KEY_OUT_DAYS } from '../../modules/alerts/alerts.system.ts';

/** How many of the demo's alerts are new on the first morning: a real office's few, not dozens. */
export const DEMO_UNREAD_ALERTS = 3;

/**
 * The demo's alerts as a week of work leaves them. The system's own checks (rent due, keys not
 * back, to-dos past their date) run once now, so the start-up run finds them made; each alert is
 * dated when it arose (a to-do when it fell due, a key a week after it went out), and all but the
 * newest few of the last day were read by the office on the day they came, as staff read their alerts. The first
 * sign-in then sees a handful of new ones, not one per overdue demo to-do.
 */
export async function settleDemoAlerts(app: FastifyInstance) {
  await checkRentReminders(app);
  await checkOfficeAlerts(app);
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`update alerts a set date = least(t.date, now()) from activities t
      where a.kind = 'todo' and a.entity = 'Activity' and a.entity_id = t.id and a.readed_on is null`);
    await tx.execute(sql`update alerts a
      set date = least((((k.given_away + ${KEY_OUT_DAYS}::int)::timestamp + time '09:00') at time zone ${app.config.timeZone}), now())
      from object_keys k where a.kind = 'key' and a.entity = 'ObjectKey' and a.entity_id = k.id and k.given_away is not null and a.readed_on is null`);
    // Read by the first administrator (the office), an hour or a few after each arose, never later than now.
    await tx.execute(sql`update alerts a
      set readed_on = least(a.date + make_interval(mins => 20 + (a.id * 37) % 300), now()),
        readed_by = (select u.id from users u where 'admin' = any(u.roles) order by u.id limit 1)
      where a.readed_on is null and a.id not in (select id from alerts where readed_on is null and date > now() - interval '1 day' order by date desc, id desc limit ${DEMO_UNREAD_ALERTS})`);
  });
}
