import type { FastifyInstance } from 'fastify';
import { DEMO_SEED_DDL } from './demo-table.ts';
import { sql, type SQL } from 'drizzle-orm';
import { formatReferenceNumber } from '@crm/contract';
import type { Tx } from '../client.ts';
import { alerts } from '../schema/index.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { seedDemoLogo } from './demo-logo.ts';
import { createClock } from './demo-time.ts';
import { seedDemoObjects } from './demo-objects.ts';
import { seedDemoLeads } from './demo-leads.ts';
import { seedDemoPayments } from './demo-payments.ts';
import { seedDemoDeals } from './demo-deals.ts';
import { seedDemoReservations } from './demo-reservations.ts';
import { seedDemoPublishing, seedDemoPublishingHistory } from '../../modules/publishing/publishing.service.ts';
import { seedDemoMandates } from './demo-mandates.ts';
import { settleDemoAlerts } from './demo-week.ts';

/** The demo's people are there (its first agent is). */
const DEMO_PEOPLE = sql`exists (select 1 from accounts where is_employe and 'g.papadopoulos@thermaikos-homes.gr' = any(emails))`;

/**
 * The demo agency, loaded once into an empty database (DEMO_DATA=true). Each area adds its
 * records here; a marker row keeps a restart from loading it twice.
 */
export async function seedDemo(app: FastifyInstance) {
  const week = await app.db.transaction(async (tx) => {
    await tx.execute(sql.raw(DEMO_SEED_DDL));
    const done = new Set(((await tx.execute(sql`select area from demo_seed`)).rows as { area: string }[]).map((r) => r.area));
    /**
     * Loads one area once: when the agency has no records of that kind of its own (`has`) and what
     * the area builds on is there (`ready`); either way the area is marked as done.
     */
    const area = async (name: string, has: SQL, ready: SQL, load: () => Promise<object>, loaded: string) => {
      if (done.has(name)) return;
      const [row] = (await tx.execute(sql`select ${has} as has, ${ready} as ready`)).rows as { has: boolean; ready: boolean }[];
      if (!row?.has && row?.ready) app.log.info(await load(), loaded);
      await tx.execute(sql`insert into demo_seed (area) values (${name})`);
    };
    const tz = { timeZone: app.config.timeZone };
    // Only into an agency without accounts of its own (a sign-in's own account aside): the demo never
    // mixes with real records.
    const accountsOfItsOwn = sql`exists (select 1 from accounts a where not exists (select 1 from users u where u.account_id = a.id))`;
    await area('accounts', accountsOfItsOwn, sql`true`, async () => {
      const counts = await seedDemoAccounts(tx, tz);
      await seedDemoLogo(tx, app.config.dataDir);
      return counts;
    }, 'demo accounts loaded');
    // Each further area only into an agency without such records of its own, once those it builds on are there.
    await area('objects', sql`exists (select 1 from objects)`, DEMO_PEOPLE, () => seedDemoObjects(tx, { ...tz, dataDir: app.config.dataDir }), 'demo objects loaded');
    await area('leads', sql`exists (select 1 from leads)`, sql`exists (select 1 from objects)`, () => seedDemoLeads(tx, tz), 'demo leads and viewings loaded');
    await area('payments', sql`exists (select 1 from transactions)`, sql`exists (select 1 from accounts where is_owner)`, () => seedDemoPayments(tx, tz), 'demo payments loaded');
    await area('deals', sql`exists (select 1 from deals)`, sql`exists (select 1 from leads)`, () => seedDemoDeals(tx), 'demo deals loaded');
    await area('reservations', sql`exists (select 1 from reservations)`, sql`exists (select 1 from objects where for_short_rent)`, () => seedDemoReservations(tx, tz), 'demo reservations loaded');
    // The demo properties shown as published are asked to be, and judged as the publishing does.
    await area('publishing', sql`false`, sql`true`, () => seedDemoPublishing(tx), 'demo publishing judged');
    // The demo's properties shown on the site have been on it (a demo loaded before has its history written now).
    await area('publishing-history', sql`false`, DEMO_PEOPLE, () => seedDemoPublishingHistory(tx), 'demo publishing history written');
    // The demo's published properties hold their owners' mandates (decision 079), once the publishing was judged.
    await area('mandates', sql`exists (select 1 from object_mandates)`, DEMO_PEOPLE, () => seedDemoMandates(tx), 'demo mandates loaded');
    if (!done.has('alerts')) {
      // After the properties, so the alerts are about real ones (a published flat, a current
      // tenant, a property the website refused).
      const list = await demoAlerts(app, tx, new Date());
      if (list.length) await tx.insert(alerts).values(list);
      await tx.execute(sql`insert into demo_seed (area) values ('alerts')`);
    }
    if (!done.has('alerts-texts')) {
      // A demo loaded before its alerts had text keys: they read in English in every language until
      // they get the same keys and sources as the ones loaded now.
      for (const a of await demoAlerts(app, tx, new Date(), { legacy: true })) {
        const old = OLD_DEMO_ALERTS[a.messageKey];
        await tx.execute(sql`update alerts set source = ${a.source}, message_key = ${a.messageKey}, params = ${JSON.stringify(a.params)}::jsonb, content = ${a.content}
          where message_key is null and content = ${old}`);
      }
      await tx.execute(sql`insert into demo_seed (area) values ('alerts-texts')`);
    }
    // A demo loaded now has its alerts settled as a week leaves them (below, once its records are
    // committed: the system's checks read them in transactions of their own).
    if (done.has('alerts-week')) return false;
    const [demo] = (await tx.execute(sql`select ${DEMO_PEOPLE} as demo`)).rows as { demo: boolean }[];
    if (!demo?.demo || done.has('alerts')) {
      await tx.execute(sql`insert into demo_seed (area) values ('alerts-week')`);
      return false;
    }
    return true;
  });
  if (week) {
    await settleDemoAlerts(app);
    await app.db.execute(sql`insert into demo_seed (area) values ('alerts-week') on conflict do nothing`);
  }
}

/** The texts the demo's alerts had before they were made from text keys (for the update above). */
const OLD_DEMO_ALERTS: Record<string, string> = {
  'alerts.msg.websiteEnquiry': 'New enquiry from the website about the flat in Kalamaria (ref 1042): "Is it still available for viewing this weekend?"',
  'alerts.msg.rentDueIn': 'Rent for the apartment in Neapoli is due in 2 days (payment day: last day of the month).',
  'publishing.alert.refused': 'Publishing of property 1187 to the website failed: the main photo is missing.',
};

/**
 * The demo's alerts, made as the system makes them: a source code and a text key with its values,
 * so each reads in the reader's language (`content` is the English text, as for any alert). Each is
 * about a real demo property and links to it; one whose property the agency does not have (the demo
 * loaded into an agency with properties of its own) is left out.
 */
async function demoAlerts(app: FastifyInstance, tx: Tx, now: Date, o: { legacy?: boolean } = {}) {
  const clock = createClock(now, app.config.timeZone);
  const due = clock.dateOnly(clock.at(2, 12, 0));
  // The alerts of a demo loaded before they were about real properties: their texts named these.
  const LEGACY = { published: { id: 0, ref: 1042 }, rented: { id: 0, ref: 877, tenant: 'Αθανασίου Πέτρος' }, refused: { id: 0, ref: 1187 } };
  type Demo = { id: number; ref: number };
  type Picked = { published: Demo | null; rented: (Demo & { tenant: string }) | null; refused: Demo | null };
  const [pick] = o.legacy
    ? [LEGACY as Picked]
    : ((
        await tx.execute(sql`select
          (select json_build_object('id', o.id, 'ref', o.reference_number) from objects o where o.published order by o.id limit 1) as published,
          (select json_build_object('id', o.id, 'ref', o.reference_number, 'tenant', a.display_name)
             from object_accounts l join objects o on o.id = l.object_id join accounts a on a.id = l.account_id
             where l.relation in (4, 7) and (l.end_date is null or l.end_date >= crm_today()) order by o.id limit 1) as rented,
          (select json_build_object('id', o.id, 'ref', o.reference_number) from objects o where o.publish_error is not null order by o.id limit 1) as refused`)
      ).rows as Picked[]);
  const list: { hours: number; source: string; messageKey: string; params: Record<string, string | number>; about: Demo | null }[] = [
    {
      hours: 1,
      source: 'Website',
      messageKey: 'alerts.msg.websiteEnquiry',
      params: { ref: formatReferenceNumber(pick?.published?.ref ?? 0), name: 'Anna Schmidt', email: 'anna.schmidt@example.de' },
      about: pick?.published ?? null,
    },
    {
      hours: 5,
      source: 'Rent',
      messageKey: 'alerts.msg.rentDueIn',
      params: {
        ref: formatReferenceNumber(pick?.rented?.ref ?? 0),
        tenant: pick?.rented?.tenant ?? '',
        date: `${due.slice(8, 10)}/${due.slice(5, 7)}/${due.slice(0, 4)}`,
        days: 2,
        count: 2,
      },
      about: pick?.rented ?? null,
    },
    { hours: 26, source: 'Publishing', messageKey: 'publishing.alert.refused', params: { ref: formatReferenceNumber(pick?.refused?.ref ?? 0) }, about: pick?.refused ?? null },
  ];
  return list
    .filter((a) => a.about !== null)
    .map(({ hours, about, ...a }) => ({
      ...a,
      date: new Date(now.getTime() - hours * 3600e3),
      kind: a.source === 'Rent' ? 'rent' : a.source === 'Publishing' ? 'publish' : 'enquiry',
      content: app.translator.t('en', a.messageKey, a.params),
      ...(about!.id ? { entity: 'Object', entityId: about!.id } : {}),
    }));
}
