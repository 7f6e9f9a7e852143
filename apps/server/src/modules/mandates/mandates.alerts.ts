import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { formatReferenceNumber, MANDATE_ALERT_DAYS } from '@crm/contract';
import { createAlerts } from '../alerts/alerts.create.ts';
import { queueWebhookEvent } from '../integrations/webhook-queue.ts';
import { agencyToday, assignedStaff, mailPropertyAlert } from '../alerts/alerts.system.ts';
import { linkBase } from '../settings/site-settings.service.ts';
import { readAgencyIdentity } from '../../mail/mail-people.ts';

export const MANDATE_CHECK_JOB = 'alerts.mandates';

const dmy = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;

/** The alert due for a mandate ending in `daysLeft` days: the step reached (30 or 10), or null. */
export function dueMandateStep(daysLeft: number): 30 | 10 | null {
  if (daysLeft < 0 || daysLeft > MANDATE_ALERT_DAYS[0]) return null;
  return daysLeft <= MANDATE_ALERT_DAYS[1] ? 10 : 30;
}

type Due = { id: number; objectId: number; ref: number; ends: string; daysLeft: number; kind: string; a30: string | null; a10: string | null };

/**
 * The alerts to a property's agents before its mandate ends (decision 079): one at 30 days and one at
 * 10 (a step missed, e.g. a mandate saved 20 days before its end, is made late, saying the days
 * left; a mandate saved 5 days before its end gets only the 10-day one). Each is made once: the
 * mandate keeps the day it was made (a new end clears it), and the alert's unique key (mandate, end,
 * step) holds across instances. Mailed to the property's assigned agents in the same transaction.
 */
export async function checkMandateAlerts(app: FastifyInstance, o: { today?: string } = {}): Promise<number[]> {
  const today = o.today ?? agencyToday(app.config.timeZone);
  const made: number[] = [];
  await app.db.transaction(async (tx) => {
    const res = await tx.execute(sql`
      select m.id, m.object_id as "objectId", o.reference_number as ref, coalesce(m.extended_until, m.end_date)::text as ends, m.kind,
        (coalesce(m.extended_until, m.end_date) - ${today}::date) as "daysLeft", m.alert_30_on::text as a30, m.alert_10_on::text as a10
      from object_mandates m join objects o on o.id = m.object_id
      where m.start_date <= ${today}::date and coalesce(m.extended_until, m.end_date) between ${today}::date and ${today}::date + ${MANDATE_ALERT_DAYS[0]}::int
        and m.alert_10_on is null
      order by m.id
      for update of m skip locked`);
    const due = (res.rows as Due[])
      .map((m) => ({ m, step: dueMandateStep(Number(m.daysLeft)) }))
      .filter((x): x is { m: Due; step: 30 | 10 } => x.step !== null && !(x.step === 30 && x.m.a30 !== null));
    if (!due.length) return;
    const list = due.map(({ m, step }) => {
      const days = Number(m.daysLeft);
      const params = { ref: formatReferenceNumber(m.ref), date: dmy(m.ends), days, count: days, kind: m.kind };
      const key = m.kind === 'exclusive' ? 'alerts.msg.mandateEndsExclusive' : 'alerts.msg.mandateEnds';
      return { m, step, params, key };
    });
    const ids = await createAlerts(
      tx,
      list.map(({ m, step, params, key }) => ({
        source: 'Mandates',
        kind: 'mandate',
        messageKey: key,
        params,
        content: app.translator.t('en', key, params),
        entity: 'Object',
        entityId: m.objectId,
        dedupKey: `mandate:${m.id}:${m.ends}:${step}`,
      })),
    );
    for (const { m, step } of list) {
      await tx.execute(sql`update object_mandates set alert_30_on = coalesce(alert_30_on, ${today}::date)
        ${step === 10 ? sql`, alert_10_on = ${today}::date` : sql``} where id = ${m.id}`);
    }
    const news = list.map((x, i) => ({ ...x, id: ids[i] })).filter((x): x is typeof x & { id: number } => x.id !== null && x.id !== undefined);
    if (!news.length) return;
    const staff = await assignedStaff(tx, [...new Set(news.map((d) => d.m.objectId))]);
    const base = await linkBase(app);
    const agency = await readAgencyIdentity(app);
    for (const { m, params, key, id, step } of news) {
      made.push(id);
      // The webhooks' "a mandate ending" (decision 097): once a step, with the alert.
      await queueWebhookEvent(tx, {
        event: 'property.mandateEnding',
        action: 'MandateEnding',
        entity: 'Object',
        entityId: m.objectId,
        by: null,
        data: { mandateId: m.id, kind: m.kind, endsOn: m.ends, daysLeft: Number(m.daysLeft), step },
      });
      for (const s of staff.get(m.objectId) ?? []) {
        await mailPropertyAlert(app, tx, { agency, base }, { ...s, greet: false }, { id, objectId: m.objectId, subjectKey: 'alerts.mail.mandateSubject', key, params });
      }
    }
  });
  return made;
}
