import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { cultureOf, formatReferenceNumber } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { createAlerts, type NewAlert } from './alerts.create.ts';
import { linkBase } from '../settings/site-settings.service.ts';

/** Tenant relations of an object–account link (spec: relation values 4 and 7). */
export const TENANT_RELATIONS = [4, 7] as const;
/** Rent reminders go this many days before the payment day, and on it. */
export const RENT_REMINDER_DAYS = [7, 4, 2, 0] as const;
/** A key given away and not received back for this many days is an alert. */
export const KEY_OUT_DAYS = 7;
/** Overdue to-dos and keys are looked for this far back (older ones were told about, or are history). */
const LOOK_BACK_DAYS = 30;

export const RENT_CHECK_JOB = 'alerts.rent';
export const OFFICE_CHECK_JOB = 'alerts.office';

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const ymd = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86400000;

/**
 * The payment date in a month (m 1-based) for a rentPaymentDay: 0 the last day of the month, -n n
 * days before the last day (never before the 1st), a positive n that day (the last day when the
 * month is shorter).
 */
export function rentPaymentDate(y: number, m: number, rentPaymentDay: number): string {
  const last = daysIn(y, m);
  const day = rentPaymentDay > 0 ? Math.min(rentPaymentDay, last) : Math.max(1, last + rentPaymentDay);
  return ymd(y, m, day);
}

/**
 * The reminder due on `today` (YYYY-MM-DD) for a payment day, or null: the next payment date (this
 * month's, or next month's once this one has passed) when it is at most 7 days away, and the step
 * reached — 7, 4, 2 or 0 days before. A step is never skipped by a day the app did not run: on the
 * 5th day before, the 7-day reminder is still made (saying 5 days).
 */
export function dueRentReminder(today: string, rentPaymentDay: number): { paymentDate: string; step: number; daysLeft: number } | null {
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  for (const [yy, mm] of [
    [y, m],
    m === 12 ? [y + 1, 1] : [y, m + 1],
  ] as const) {
    const paymentDate = rentPaymentDate(yy, mm, rentPaymentDay);
    const daysLeft = dayNumber(paymentDate) - dayNumber(today);
    if (daysLeft < 0) continue;
    if (daysLeft > RENT_REMINDER_DAYS[0]) return null;
    const step = Math.min(...RENT_REMINDER_DAYS.filter((s) => s >= daysLeft));
    return { paymentDate, step, daysLeft };
  }
  return null;
}

import { agencyToday, toLocalDateTime } from '../../lib/dates.ts';
import { MAIL_LETTERS, buildMail, readAgencyIdentity } from '../../mail/mail-people.ts';
export { agencyToday };

/**
 * How an alert keeps a day (dd/mm/yyyy) and a day and time ("dd/mm/yyyy, HH:MM", the agency's
 * clock) in its values: the translator writes them as each reader does when the alert is read
 * (lib/i18n.ts: 26.11.2026 in Russian), the web's action log likewise (log-texts.ts).
 */
const dmy = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
const dmyTime = (at: Date, timeZone: string) => {
  const local = toLocalDateTime(at, timeZone)!;
  return `${dmy(local)}, ${local.slice(11, 16)}`;
};

type TenantLink = { objectId: number; accountId: number; relation: number; rentPaymentDay: number; ref: number; tenant: string; price: string | null };

/**
 * Makes the rent reminders due today for every current tenant link (or those of one object): an
 * alert each, once per tenant, payment date and step (the unique dedup key holds across
 * instances and restarts), mailed to the employees assigned to the object in the same
 * transaction. Answers the ids of the alerts made.
 */
export async function checkRentReminders(app: FastifyInstance, o: { today?: string; objectId?: number } = {}): Promise<number[]> {
  const today = o.today ?? agencyToday(app.config.timeZone);
  const res = await app.db.execute(sql`
    select l.object_id as "objectId", l.account_id as "accountId", l.relation, l.rent_payment_day as "rentPaymentDay",
      o.reference_number as ref, a.display_name as tenant, l.price::text as price
    from object_accounts l
    join objects o on o.id = l.object_id
    join accounts a on a.id = l.account_id
    where l.relation in (${sql.join(TENANT_RELATIONS.map((r) => sql`${r}`), sql`, `)}) and l.rent_payment_day is not null
      and (l.start_date is null or l.start_date <= ${today}::date + 7)
      and (l.end_date is null or l.end_date >= ${today}::date)
      ${o.objectId ? sql`and l.object_id = ${o.objectId}` : sql``}
    order by l.object_id, l.account_id, l.relation`);
  const due = (res.rows as TenantLink[])
    .map((l) => ({ l, r: dueRentReminder(today, Number(l.rentPaymentDay)) }))
    .filter((x): x is { l: TenantLink; r: NonNullable<typeof x.r> } => x.r !== null);
  if (!due.length) return [];
  const made: number[] = [];
  await app.db.transaction(async (tx) => {
    const list = due.map(({ l, r }) => {
      // count picks the plural form of "in {{days}} days" (rentDueIn_one, _few, _many, _other).
      const params = { ref: formatReferenceNumber(l.ref), tenant: l.tenant, date: dmy(r.paymentDate), days: r.daysLeft, count: r.daysLeft, amount: l.price ?? '' };
      const key = r.daysLeft === 0 ? 'alerts.msg.rentDueToday' : 'alerts.msg.rentDueIn';
      return { l, params, key };
    });
    // One look-up and a few inserts for all of them: the same reminders are checked every hour.
    const ids = await createAlerts(
      tx,
      list.map(({ l, params, key }, i) => ({
        source: 'Rent',
        kind: 'rent',
        messageKey: key,
        params,
        content: app.translator.t('en', key, params),
        entity: 'Object',
        entityId: l.objectId,
        dedupKey: `rent:${l.objectId}:${l.accountId}:${l.relation}:${due[i]!.r.paymentDate}:${due[i]!.r.step}`,
      })),
    );
    const news = list.map((x, i) => ({ ...x, id: ids[i] })).filter((x): x is typeof x & { id: number } => x.id !== null);
    if (!news.length) return;
    const staff = await assignedStaff(tx, [...new Set(news.map((d) => d.l.objectId))]);
    const base = await linkBase(app);
    // The agency's details (and its logo) read once for every mail of the run.
    const agency = await readAgencyIdentity(app);
    for (const { l, params, key, id } of news) {
      made.push(id);
      for (const s of staff.get(l.objectId) ?? []) {
        // Greeted by name (in Greek the vocative) when the staff member's account has one.
        await mailPropertyAlert(app, tx, { agency, base }, { ...s, greet: true }, { id, objectId: l.objectId, subjectKey: 'alerts.mail.rentSubject', key, params });
      }
    }
  });
  return made;
}

/** A staff member an alert is mailed to: the address, the language, the account (null: a sign-in without one). */
export type StaffToMail = { email: string; language: string | null; accountId: number | null };

/**
 * Mails one staff member a new alert about a property, in their language, with links to the
 * property and to the alert; `greet`: by the name of their account.
 */
export async function mailPropertyAlert(
  app: FastifyInstance,
  tx: Tx,
  run: { agency: Awaited<ReturnType<typeof readAgencyIdentity>>; base: string },
  to: StaffToMail & { greet: boolean },
  alert: { id: number; objectId: number; subjectKey: string; key: string; params: Record<string, string | number> },
) {
  const { mail } = await buildMail(app, {
    db: tx,
    agency: run.agency,
    to: to.email,
    ...(to.greet ? { accountId: to.accountId } : {}),
    culture: cultureOf(to.language),
    fallback: 'en',
    letter: MAIL_LETTERS.alert({
      subjectKey: alert.subjectKey,
      messageKey: alert.key,
      params: alert.params,
      links: [
        { url: `${run.base}/Objects/View/${alert.objectId}`, labelKey: 'mail.alert.openProperty' },
        { url: `${run.base}/Alerts/${alert.id}`, labelKey: 'mail.alert.openAlert' },
      ],
    }),
  });
  await app.mailer.send(mail, { tx });
}

/**
 * The employees assigned to each object (or, with `parent` 2, each lead), with an address to mail
 * (their sign-in's, else the account's first), their language and their account (its name greets them).
 */
export async function assignedStaff(tx: Tx | Db, objectIds: number[], parent = 0) {
  const res = await tx.execute(sql`
    select s.parent_id as "objectId", a.id as "accountId", coalesce(u.email, a.emails[1]) as email, coalesce(u.language, a.language) as language
    from assignments s
    join accounts a on a.id = s.account_id and a.is_employe
    left join lateral (select email, language from users where account_id = a.id and not disabled order by id limit 1) u on true
    where s.parent = ${parent} and s.parent_id = any(${sql.param(objectIds)}::int[])`);
  const by = new Map<number, StaffToMail[]>();
  for (const r of res.rows as { objectId: number; accountId: number; email: string | null; language: string | null }[]) {
    if (!r.email) continue;
    const list = by.get(r.objectId) ?? [];
    if (!list.some((x) => x.email.toLowerCase() === r.email!.toLowerCase())) list.push({ email: r.email, language: r.language, accountId: r.accountId });
    by.set(r.objectId, list);
  }
  return by;
}

/**
 * Keys given away and not back after KEY_OUT_DAYS, and to-dos past their date: an alert each, once
 * per key and hand-over, once per to-do and date.
 */
export async function checkOfficeAlerts(app: FastifyInstance, o: { today?: string } = {}): Promise<number[]> {
  const today = o.today ?? agencyToday(app.config.timeZone);
  const made: number[] = [];
  await app.db.transaction(async (tx) => {
    const keys = await tx.execute(sql`
      select k.id, k.object_id as "objectId", k.given_away::text as "givenAway", o.reference_number as ref, a.display_name as holder
      from object_keys k
      join objects o on o.id = k.object_id
      left join accounts a on a.id = k.account_id
      where k.given_away is not null and (k.received is null or k.received < k.given_away)
        and k.given_away <= ${today}::date - ${KEY_OUT_DAYS}::int and k.given_away > ${today}::date - ${LOOK_BACK_DAYS + KEY_OUT_DAYS}::int
      order by k.id`);
    const keyAlerts: NewAlert[] = (keys.rows as { id: number; objectId: number; givenAway: string; ref: number; holder: string | null }[]).map((k) => {
      const params = { ref: formatReferenceNumber(k.ref), holder: k.holder ?? '—', date: dmy(k.givenAway), days: dayNumber(today) - dayNumber(k.givenAway) };
      return {
        source: 'Keys',
        kind: 'key',
        messageKey: 'alerts.msg.keyNotReturned',
        params,
        content: app.translator.t('en', 'alerts.msg.keyNotReturned', params),
        entity: 'ObjectKey',
        entityId: k.id,
        dedupKey: `key:${k.id}:${k.givenAway}`,
      };
    });
    const todos = await tx.execute(sql`
      select t.id, t.description, t.date, a.display_name as "assignedTo"
      from activities t
      left join accounts a on a.id = t.assigned_to
      where t.done = false and t.date < now() and t.date > now() - make_interval(days => ${LOOK_BACK_DAYS})
      order by t.id`);
    const todoAlerts: NewAlert[] = (todos.rows as { id: number; description: string | null; date: Date | string; assignedTo: string | null }[]).map((t) => {
      const at = new Date(t.date);
      const what = (t.description ?? '').replace(/\s+/g, ' ').trim();
      const params = { what: what.length > 120 ? `${what.slice(0, 120)}…` : what, date: dmyTime(at, app.config.timeZone), who: t.assignedTo ?? '—' };
      return {
        source: 'Tasks',
        kind: 'todo',
        messageKey: 'alerts.msg.todoOverdue',
        params,
        content: app.translator.t('en', 'alerts.msg.todoOverdue', params),
        entity: 'Activity',
        entityId: t.id,
        dedupKey: `todo:${t.id}:${at.toISOString()}`,
      };
    });
    // Both lists are checked every hour and were almost all told about: a few statements, not one per row.
    for (const id of await createAlerts(tx, [...keyAlerts, ...todoAlerts])) if (id !== null) made.push(id);
  });
  return made;
}

/** The checks run at start-up, every hour, and (rent) when a tenant link is saved. */
export function registerSystemAlerts(app: FastifyInstance) {
  app.jobs.register<{ objectId?: number }>(RENT_CHECK_JOB, async (p) => {
    await checkRentReminders(app, { objectId: p.objectId });
  }, { everySeconds: 3600, maxAttempts: 3, backoffSeconds: 60 });
  app.jobs.register(OFFICE_CHECK_JOB, async () => {
    await checkOfficeAlerts(app);
  }, { everySeconds: 3600, maxAttempts: 3, backoffSeconds: 60 });
}

/** Called in the transaction that saves a tenant link: its reminder due today appears at once. */
export async function queueRentCheck(app: FastifyInstance, tx: Tx, objectId: number) {
  await app.jobs.enqueue(RENT_CHECK_JOB, { objectId }, { tx, singletonKey: `object:${objectId}` });
}
