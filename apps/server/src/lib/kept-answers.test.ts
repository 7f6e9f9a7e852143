// Kept answers (decision 072) against the same answers made on the spot: the calendar's weeks after
// random changes to every table it reads, a change still uncommitted while an answer is made, and
// two app instances on one database.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ZCalendarAnswer } from '@crm/contract';
import { createTestApp, json } from '../../test/harness.ts';
import { connectDb } from '../db/client.ts';
import { calendar } from '../modules/leads/viewings.service.ts';
import { searchObjects } from '../modules/objects/objects.lists.ts';
import { ZObjectSearchAnswer } from '@crm/contract';
import { compactDataChanges, createKeptAnswers } from './kept-answers.ts';
import { seededRandom } from '../../test/seeded.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });

const { SEED, rand, pick, between } = seededRandom('KEPT_TEST_SEED');
const rows = async <T,>(q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];
const ids = async (table: string) => (await rows<{ id: number }>(sql`select id from ${sql.raw(table)} order by id`)).map((r) => r.id);
/** One of the table's rows, or 0 (none: the change then touches nothing). */
const someId = async (table: string) => {
  const all = await ids(table);
  return all.length ? pick(all) : 0;
};

// Two weeks of June 2030.
const moment = () => sql`${`2030-06-${String(between(1, 14)).padStart(2, '0')}T${String(between(7, 20)).padStart(2, '0')}:00:00`}::timestamp at time zone ${app.config.timeZone}`;
const day = () => `2030-06-${String(between(1, 14)).padStart(2, '0')}`;

const [agent] = await rows<{ id: number }>(sql`insert into accounts (first_name, last_name, is_employe) values ('Eleni', 'Agent', true) returning id`);
const [agent2] = await rows<{ id: number }>(sql`insert into accounts (first_name, last_name, is_employe) values ('Maria', 'Second', true) returning id`);
const [client] = await rows<{ id: number }>(sql`insert into accounts (first_name, last_name, is_client) values ('Nikos', 'Client', true) returning id`);
const [lead] = await rows<{ id: number }>(sql`insert into leads (account_id) values (${client!.id}) returning id`);
const [obj] = await rows<{ id: number }>(sql`insert into objects (reference_number, for_short_rent, website_code) values (7001, true, 'TH-7001') returning id`);

async function change() {
  switch (between(0, 10)) {
    case 0: {
      const [v] = await rows<{ id: number }>(sql`insert into viewings (date_of_viewing, demand_id) values (${moment()}, ${lead!.id}) returning id`);
      await db.execute(sql`insert into viewing_objects (viewing_id, object_id) values (${v!.id}, ${obj!.id})`);
      await db.execute(sql`insert into assignments (parent, parent_id, account_id) values (3, ${v!.id}, ${agent!.id})`);
      break;
    }
    case 1:
      await db.execute(sql`update viewings set date_of_viewing = ${moment()}, version = version + 1 where id = ${await someId('viewings')}`);
      break;
    case 2:
      // The last viewing is kept, so that every round has one to show (a seed that removed it early
      // and made none had no viewing to compare).
      await db.execute(sql`delete from viewings where id = ${await someId('viewings')} and (select count(*) from viewings) > 1`);
      break;
    case 3:
      await db.execute(sql`update accounts set last_name = ${`Renamed${between(1, 1000)}`} where id = ${pick([agent!.id, client!.id])}`);
      break;
    case 4: {
      const [a] = await rows<{ id: number }>(sql`insert into activities (description, done, date, assigned_to) values (${`Call ${between(1, 99)}`}, false, ${moment()}, ${agent!.id}) returning id`);
      await db.execute(sql`insert into activity_links (activity_id, entity, entity_id, position) values (${a!.id}, 2, ${client!.id}, 0)`);
      break;
    }
    case 5:
      await db.execute(sql`update activities set done = not done where id = ${await someId('activities')}`);
      break;
    case 6:
      // A night already booked is refused (the stays' exclusion constraint): then nothing changes.
      await db.transaction(async (tx) => {
        await tx.execute(sql`savepoint stay`);
        await tx
          .execute(sql`insert into reservations (object_id, check_in, duration, reservation_stage, client_last_name) values (${obj!.id}, ${day()}, ${between(1, 3)}, ${pick([1, 2, 7])}, 'Guest')`)
          .catch(async (e: { cause?: { code?: string } }) => {
            if (e.cause?.code !== '23P01') throw e;
            await tx.execute(sql`rollback to savepoint stay`);
          });
      });
      break;
    case 7:
      await db.execute(sql`update reservations set client_last_name = ${`Guest${between(1, 99)}`} where id = ${await someId('reservations')}`);
      break;
    case 8:
      await db.execute(sql`update objects set website_code = ${`TH-${between(1, 9999)}`} where id = ${obj!.id}`);
      break;
    case 9:
      await compactDataChanges(db);
      break;
    case 10: // the other agent shows a viewing
      await db.execute(sql`update assignments set account_id = case account_id when ${agent!.id}::int then ${agent2!.id}::int else ${agent!.id}::int end
        where id = (select id from assignments where parent = 3 order by id limit 1)`);
      break;
  }
}

const weeks = [
  ['2030-06-01', '2030-06-07'],
  ['2030-06-08', '2030-06-14'],
  ['2030-06-01', '2030-06-14'],
] as const;
const served = (from: string, till: string) => json(admin.get(`/api/calendar?from=${from}&till=${till}`, { lang: 'el' }));
const computed = async (from: string, till: string) =>
  JSON.parse(JSON.stringify(ZCalendarAnswer.parse(await calendar(app, from, till, undefined, true, (k, p) => app.translator.t('el', k, p), 'el'))));

describe('kept answers', () => {
  it('answer the calendar as it is made on the spot, after random changes to what it reads', async () => {
    // One of each kind to begin with, then random changes.
    await db.execute(sql`insert into viewings (date_of_viewing, demand_id) values (${'2030-06-04T10:00:00'}::timestamp at time zone ${app.config.timeZone}, ${lead!.id})`);
    await db.execute(sql`insert into assignments (parent, parent_id, account_id) select 3, max(id), ${agent!.id} from viewings`);
    await db.execute(sql`insert into activities (description, done, date, assigned_to) values ('Call the owner', false, ${'2030-06-05T09:00:00'}::timestamp at time zone ${app.config.timeZone}, ${agent!.id})`);
    await db.execute(sql`insert into reservations (object_id, check_in, duration, reservation_stage, client_last_name) values (${obj!.id}, '2030-06-02', 2, 2, 'Guest')`);
    for (let i = 0; i < 6; i++) await change();
    const kinds = new Set<string>();
    for (const i of (await computed('2030-06-01', '2030-06-14')).items as { kind: string }[]) kinds.add(i.kind);
    for (let round = 0; round < 30; round++) {
      for (let k = between(0, 3); k > 0; k--) await change();
      for (const [from, till] of [pick(weeks), pick(weeks)]) {
        const expected = await computed(from, till);
        for (const i of expected.items as { kind: string }[]) kinds.add(i.kind);
        expect(await served(from, till), `round ${round}, ${from}..${till}, seed ${SEED}`).toEqual(expected);
        // Asked again at once: kept, and the same.
        expect(await served(from, till), `round ${round} again, seed ${SEED}`).toEqual(expected);
      }
    }
    // Every kind the calendar shows was there to be changed.
    expect([...kinds].sort()).toEqual(['activity', 'checkIn', 'checkOut', 'viewing']);
  }, 120_000);

  it('do not keep an answer made while a change was being committed, nor serve it after', async () => {
    const kept = createKeptAnswers(db);
    const [from, till] = weeks[0];
    let n = 0;
    const make = async () => ({ n: ++n, week: await computed(from, till) });
    expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(1);
    expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(1);
    await db.execute(sql`update viewings set version = version + 1 where id in (select id from viewings limit 1)`);
    // A change committed while the answer is being made: that answer is sent, but not kept.
    const body = await kept.get('week', ['viewings'], async () => {
      const a = await make();
      await db.execute(sql`update viewings set version = version + 1 where id in (select id from viewings limit 1)`);
      return a;
    });
    expect(JSON.parse(body).n).toBe(2);
    expect(kept.size().entries, 'an answer made across a commit is not kept').toBe(0);
    expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(3);
    expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(3);
    // A change not yet committed while the answer is made: kept (it is the answer until the commit), then made again.
    const other = await t.pool.connect();
    try {
      await other.query('begin');
      await other.query('update viewings set version = version + 1 where id in (select id from viewings limit 1)');
      expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(3);
      await other.query('commit');
    } finally {
      other.release();
    }
    expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(4);
    // A table it was not made from changes: still kept.
    await db.execute(sql`update accounts set last_name = last_name where id = ${agent!.id}`);
    expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(4);
    // Folding the change rows keeps the sums: still kept.
    await compactDataChanges(db);
    expect(JSON.parse(await kept.get('week', ['viewings'], make)).n).toBe(4);
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from data_changes where domain = 'viewings'`))[0]!.n).toBe(1);
  });

  it('answer a week again once a name it shows has changed', async () => {
    const [from, till] = weeks[2];
    await db.execute(sql`insert into viewings (date_of_viewing, demand_id) values (${'2030-06-03T10:00:00'}::timestamp at time zone ${app.config.timeZone}, ${lead!.id})`);
    await served(from, till);
    await db.execute(sql`update accounts set last_name = 'Papadopoulos' where id = ${client!.id}`);
    const after = await served(from, till);
    expect(JSON.stringify(after)).toContain('Papadopoulos');
    expect(after).toEqual(await computed(from, till));
  });

  it('never serve one instance a week another instance changed', async () => {
    // Another connection to the same database, as another app instance behind a load balancer.
    const handle = connectDb(t.dbUrl, 2, { timeZone: app.config.timeZone });
    try {
      const [from, till] = weeks[1];
      const before = await served(from, till);
      // Changed through another connection, as another instance would.
      const [v] = (await handle.db.execute<{ id: number }>(sql`insert into viewings (date_of_viewing, demand_id) values (${'2030-06-09T10:00:00'}::timestamp at time zone ${app.config.timeZone}, ${lead!.id}) returning id`)).rows;
      const after = await served(from, till);
      expect(after).not.toEqual(before);
      expect(after.items.some((i: { id: number; kind: string }) => i.kind === 'viewing' && i.id === v!.id)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  it('answer the map as it is made on the spot, after random changes to the properties and their places', async () => {
    const places = (await rows<{ id: number }>(sql`select id from locations where level >= 2 order by id limit 6`)).map((r) => r.id);
    for (let i = 0; i < 30; i++) {
      await db.execute(sql`insert into objects (for_sale, sale_price, location_id, latitude, longitude, area, object_sub_type_id, sub_type_object_type_id, title)
        values (true, ${between(50, 400) * 1000}, ${pick(places)}, ${40.5 + rand() * 0.3}, ${22.8 + rand() * 0.3}, ${between(30, 150)}, 1, 1, ${`Map ${i}`})`);
    }
    const searches = [
      { forSale: true, forRent: false, forShortRent: false, locationId: null, priceMin: 80000, priceMax: 300000, areaMin: null, areaMax: null, showOnMap: true, perPage: 20, currentPage: 1 },
      { forSale: true, forRent: false, forShortRent: false, locationId: places[0]!, priceMin: null, priceMax: null, areaMin: 50, areaMax: null, showOnMap: true, perPage: 20, currentPage: 1 },
    ];
    const t = (k: string, p?: Record<string, string | number>) => app.translator.t('el', k, p);
    for (let round = 0; round < 20; round++) {
      const ids = (await rows<{ id: number }>(sql`select id from objects where title like 'Map %' order by id`)).map((r) => r.id);
      const one = pick(ids);
      await db.execute(
        pick([
          sql`update objects set sale_price = ${between(50, 400) * 1000} where id = ${one}`,
          sql`update objects set location_id = ${pick(places)} where id = ${one}`,
          sql`update objects set latitude = null, longitude = null where id = ${one}`,
          sql`update objects set for_sale = not for_sale where id = ${one}`,
          sql`update locations set name_el = name_el where id = ${pick(places)}`,
          sql`select 1`,
        ]),
      );
      for (const body of searches) {
        const res = await admin.post('/api/object/search', body, { lang: 'el' });
        expect(res.statusCode, res.body).toBe(200);
        const made = JSON.parse(JSON.stringify(ZObjectSearchAnswer.parse(await searchObjects(app, body as never, { culture: 'el', t, timeZone: app.config.timeZone }))));
        expect(res.json(), `round ${round}, seed ${SEED}`).toEqual(made);
      }
    }
  });

  it('count a change to every table a screen can show; the others are made from those, or shown nowhere', async () => {
    // Made from counted tables (a change to them is counted there), or no screen shows them.
    const NOT_COUNTED = [
      // made from accounts
      'account_counts', 'account_last_names', 'account_words', 'search_words',
      // made from leads and accounts (the global search's newest open leads, 0103)
      'lead_words',
      // made from objects (the global search's properties by their words, 0124)
      'object_words', 'object_search_words',
      // made from leads, objects, alerts
      'row_counts',
      // kept matches and their changes (decision 070), kept figures (071, 072), the changes themselves
      'lead_matches', 'lead_match_lists', 'object_matches', 'object_match_lists', 'match_changes',
      'report_lines', 'report_cells', 'report_cell_deltas', 'report_zone', 'deal_totals', 'deal_total_deltas', 'reservation_totals', 'reservation_total_deltas', 'data_changes',
      // a record's mail counted ahead (decision 105): made from the mail's links and messages
      'mail_counts', 'mail_count_changes',
      // sign-ins' sessions (touched on every request), throttles, reset links, repeated requests, the job queue
      'sessions', 'login_failures', 'password_resets', 'idempotent_requests', 'jobs',
      // work one instance holds at a time (a sign-in's file being made): shown nowhere
      'work_leases',
      // stored files written before the row naming them commits (0109): shown nowhere
      'stored_files_pending',
      // API keys (last use written on every call), webhooks and their deliveries (one with every change):
      // read afresh on their settings screens, which nothing keeps; counting them would make every
      // change and every key's call wait on one counter
      'api_keys', 'webhook_endpoints', 'webhook_deliveries',
      // portal channels (their last fetch written on every fetch of a feed) and their chosen properties:
      // read afresh on the settings and the property's publishing card, which nothing keeps; the
      // errors the portals report on them, read on the same screens
      'portal_channels', 'portal_channel_objects', 'portal_reports',
      // calendar addresses (last fetch written on every fetch): read afresh on their own screen
      'calendar_feeds',
      // the owner's report (decision 087): its links (opened_on written when the owner opens one), the
      // monthly switch and mailings, the shared comments, and the site's views per property (one more
      // on every public page view): read afresh on the property's card and the owner's page only
      'owner_report_links', 'owner_report_settings', 'owner_report_mailings', 'owner_report_shares', 'object_site_views',
    ];
    const tables = (await rows<{ name: string; counted: boolean }>(sql`
      select c.relname as name, exists (select 1 from pg_trigger t join pg_proc f on f.oid = t.tgfoid where t.tgrelid = c.oid and f.proname = 'crm_data_changed') as counted
      from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' order by 1`));
    const wrong = tables.filter((t) => t.counted === NOT_COUNTED.includes(t.name)).map((t) => `${t.name} (${t.counted ? 'counted, but listed as not' : 'neither counted nor listed'})`);
    expect(wrong).toEqual([]);
  });
});
