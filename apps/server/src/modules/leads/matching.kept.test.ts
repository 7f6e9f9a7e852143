// The kept matches (decision 070) against the matches worked out on the spot: after random changes
// to properties, leads, offers, marks and clients, before and after the job has applied them, the
// kept answer is the computed one for a random sample of leads and properties, at the screens'
// length, at the kept length and past it.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { applyMatchChanges, computeLeadsForObject, computeObjectsForLead, keptLeadsOfObject, keptObjectsOfLead, MATCH_LIST_SIZE } from './matching.ts';
import { seededRandom } from '../../../test/seeded.ts';

// The job is run here, at chosen moments (the app's own runner would run it whenever a change is written).
const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;

const { SEED, pick, chance, between } = seededRandom('MATCH_TEST_SEED');

const rows = async <T,>(q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];
// A municipality and a few places under it (the seat of the same name among them), and one elsewhere.
const places = (await rows<{ id: number }>(sql`select id from locations where key like 'thessaloniki.kalamaria%' or key like 'thessaloniki.pylaia%' order by id limit 8`)).map((r) => r.id);
const FEATURES = ['elevator', 'parking', 'garden', 'sea_view', 'storage_space'];
const LEAD_FEATURES = ['elevator', 'parking', 'garden', 'seaView', 'storageSpace'];

async function addObject(): Promise<number> {
  const sale = chance(0.7);
  const rent = !sale || chance(0.2);
  const sub = pick([1, 1, 1, 2, 3, 4]);
  const area = between(35, 160);
  const [o] = await rows<{ id: number }>(sql`
    insert into objects (active, sold, for_sale, sale_price, for_rent, rent_price, for_short_rent, short_rent_price, location_id,
      sub_type_object_type_id, object_sub_type_id, area, bedrooms, elevator, parking, garden, sea_view, storage_space, title, draft)
    values (${chance(0.92)}, ${chance(0.05)}, ${sale}, ${sale ? between(60, 400) * 1000 : null}, ${rent}, ${rent ? between(4, 20) * 50 : null},
      ${chance(0.1)}, ${chance(0.5) ? between(5, 15) * 10 : null}, ${chance(0.9) ? pick(places) : null}, 1, ${sub}, ${area}, ${sub <= 4 ? between(0, 4) : null},
      ${chance(0.5)}, ${chance(0.4)}, ${chance(0.2)}, ${chance(0.1)}, ${chance(0.3)}, 'kept-test', ${chance(0.1)})
    returning id`);
  return o!.id;
}

async function addLead(): Promise<number> {
  const [a] = await rows<{ id: number }>(sql`insert into accounts (first_name, last_name, is_client) values ('Test', ${`Client${between(1, 1e6)}`}, true) returning id`);
  const purchase = chance(0.7);
  const rent = !purchase || chance(0.2);
  const lo = chance(0.5) ? between(50, 250) * 1000 : null;
  const hi = chance(0.8) ? (lo ?? 100000) + between(0, 200) * 1000 : null;
  const [l] = await rows<{ id: number }>(sql`
    insert into leads (account_id, stage, for_purchase, purchase_budget_range_min, purchase_budget_range_max, for_rent, rent_budget_range_min, rent_budget_range_max,
      for_short_rent, location_id, object_sub_types, area_min, area_max, bedrooms_min, features, created_on, draft)
    values (${a!.id}, ${pick([1, 2, 3, 4, 5, 6, 7, 8])}, ${purchase}, ${purchase ? lo : null}, ${purchase ? hi : null}, ${rent}, ${rent && chance(0.5) ? between(4, 10) * 50 : null},
      ${rent && chance(0.8) ? between(10, 25) * 50 : null}, ${chance(0.05)}, ${chance(0.5) ? pick(places) : null},
      ${chance(0.6) ? sql`'{}'::smallint[]` : sql`${`{${[...new Set([pick([1, 2, 3, 4]), pick([1, 2, 3, 4])])].join(',')}}`}::smallint[]`},
      ${chance(0.4) ? between(30, 90) : null}, ${chance(0.3) ? between(80, 200) : null}, ${chance(0.4) ? between(1, 3) : null},
      ${`{${LEAD_FEATURES.filter(() => chance(0.25)).join(',')}}`}::text[], now() - make_interval(days => ${between(0, 30)}), ${chance(0.1)})
    returning id`);
  return l!.id;
}

const objectIds = async () => (await rows<{ id: number }>(sql`select id from objects where title = 'kept-test' order by id`)).map((r) => r.id);
const leadIds = async () => (await rows<{ id: number }>(sql`select id from leads order by id`)).map((r) => r.id);

const touched = { leads: new Set<number>(), objects: new Set<number>() };

/** One of the lead's best matches now (else `fallback`): an offer or a mark there changes what is shown. */
const oneOfBest = async (leadId: number, fallback: number) => {
  const best = await computeObjectsForLead(app, leadId, 20);
  const one = best.length ? pick(best).id : fallback;
  touched.objects.add(one);
  return one;
};

/** One random change of the kinds the office makes. */
async function change(): Promise<void> {
  const objs = await objectIds();
  const lds = await leadIds();
  const o = pick(objs);
  const l = pick(lds);
  // Those changed are looked at with the sample (a change far from every list sampled would prove nothing).
  touched.leads.add(l);
  touched.objects.add(o);
  switch (between(0, 15)) {
    case 0:
      await addObject();
      break;
    case 1:
      await db.execute(sql`delete from objects where id = ${o}`);
      break;
    case 2: // the price moves (and the property counts as changed, as the forms save it)
      await db.execute(sql`update objects set sale_price = case when for_sale then ${between(60, 400) * 1000}::numeric end, rent_price = case when for_rent then ${between(4, 20) * 50}::numeric end, modified_on = now() where id = ${o}`);
      break;
    case 3: // off or back on the market, or sold
      await db.execute(sql`update objects set active = ${chance(0.5)}, sold = ${chance(0.2)}, modified_on = now() where id = ${o}`);
      break;
    case 4: // the place, the kind, the size
      await db.execute(sql`update objects set location_id = ${pick(places)}, object_sub_type_id = ${between(1, 4)}, area = ${between(35, 160)}, bedrooms = ${between(0, 4)}, modified_on = now() where id = ${o}`);
      break;
    case 5: // a feature, changed by something that does not count it as the agent's change
      await db.execute(sql`update objects set ${sql.raw(pick(FEATURES))} = ${chance(0.5)} where id = ${o}`);
      break;
    case 6: // only looked at: saved without a change matching reads
      await db.execute(sql`update objects set description = ${`seen ${between(1, 1e6)}`} where id = ${o}`);
      break;
    case 7:
      await addLead();
      break;
    case 8:
      await db.execute(sql`delete from leads where id = ${l}`);
      break;
    case 9: // the budget, the place, the kinds, or the stage (closed and reopened)
      await db.execute(
        pick([
          sql`update leads set purchase_budget_range_max = ${between(80, 450) * 1000}, rent_budget_range_max = ${between(8, 25) * 50} where id = ${l}`,
          sql`update leads set location_id = ${chance(0.5) ? pick(places) : null} where id = ${l}`,
          sql`update leads set object_sub_types = ${`{${between(1, 4)}}`}::smallint[], area_min = ${chance(0.5) ? between(30, 90) : null}, bedrooms_min = ${chance(0.5) ? between(1, 3) : null} where id = ${l}`,
          sql`update leads set stage = ${pick([1, 3, 5, 6, 7, 8])} where id = ${l}`,
          sql`update leads set features = ${`{${pick(LEAD_FEATURES)}}`}::text[] where id = ${l}`,
        ]),
      );
      break;
    case 10: // offered to the lead (one of its best matches, where the change shows), or taken off
      if (chance(0.7)) await db.execute(sql`insert into lead_objects (lead_id, object_id) values (${l}, ${await oneOfBest(l, o)}) on conflict do nothing`);
      else await db.execute(sql`delete from lead_objects where lead_id = ${l} and object_id = (select object_id from lead_objects where lead_id = ${l} limit 1)`);
      break;
    case 11: // marked not suitable, or let back in
      if (chance(0.7)) await db.execute(sql`insert into lead_object_marks (lead_id, object_id) values (${l}, ${await oneOfBest(l, o)}) on conflict do nothing`);
      else await db.execute(sql`delete from lead_object_marks where lead_id = ${l} and object_id = (select object_id from lead_object_marks where lead_id = ${l} limit 1)`);
      break;
    case 12: { // the client's data erased: one of the property's best leads
      const best = await computeLeadsForObject(app, o, 20);
      const who = best.length ? pick(best).id : l;
      touched.leads.add(who);
      await db.execute(sql`update accounts set erased_on = now() where id = (select account_id from leads where id = ${who})`);
      break;
    }
    case 13: // several properties changed in one statement (an import, a price list)
      await db.execute(sql`update objects set sale_price = sale_price * 0.95, modified_on = now() where for_sale and id % ${between(5, 9)} = 0`);
      break;
    case 14: // a draft property (lib/drafts.ts: matched with nothing) saved: its version moves, it is a draft no more
      await db.execute(sql`update objects set version = version + 1 where id = ${o}`);
      break;
    case 15: // likewise a draft lead
      await db.execute(sql`update leads set version = version + 1 where id = ${l}`);
      break;
  }
}

/** Kept against computed for a sample of leads and properties, at several lengths. */
async function compareSample(round: number) {
  const lds = await leadIds();
  const objs = await objectIds();
  const sampleLeads = [...touched.leads, ...Array.from({ length: 8 }, () => pick(lds))];
  const sampleObjects = [...touched.objects, ...Array.from({ length: 8 }, () => pick(objs))];
  touched.leads.clear();
  touched.objects.clear();
  for (const l of sampleLeads) {
    for (const limit of [20, MATCH_LIST_SIZE, MATCH_LIST_SIZE + 5]) {
      expect(await keptObjectsOfLead(app, l, limit), `round ${round}, lead ${l}, limit ${limit}, seed ${SEED}`).toEqual(await computeObjectsForLead(app, l, limit));
    }
  }
  for (const o of sampleObjects) {
    for (const limit of [20, MATCH_LIST_SIZE]) {
      expect(await keptLeadsOfObject(app, o, limit), `round ${round}, object ${o}, limit ${limit}, seed ${SEED}`).toEqual(await computeLeadsForObject(app, o, limit));
    }
  }
}

describe('kept matches', () => {
  it('answer as the matches worked out on the spot, after random changes, before and after the job has applied them', async () => {
    // Enough properties and leads that most lists are longer than what is kept (not complete).
    for (let i = 0; i < 180; i++) await addObject();
    for (let i = 0; i < 80; i++) await addLead();
    await applyMatchChanges(app, { wait: true });
    // A client who would buy anything: every property for sale fits, more than are kept.
    const [broad] = await rows<{ id: number }>(sql`insert into leads (stage, for_purchase) values (1, true) returning id`);
    await applyMatchChanges(app, { wait: true });
    await keptObjectsOfLead(app, broad!.id, 20);
    await compareSample(0);
    const kept = await rows<{ n: number; incomplete: number }>(sql`select count(*)::int as n, count(*) filter (where not complete)::int as incomplete from lead_match_lists`);
    expect(kept[0]!.n).toBeGreaterThan(0);
    expect(kept[0]!.incomplete, 'some kept lists are cut at their length').toBeGreaterThan(0);
    for (let round = 1; round <= 10; round++) {
      for (let k = between(3, 12); k > 0; k--) await change();
      // Every other round with the changes still waiting (read around them), the rest after the job.
      if (round % 2 === 0) await applyMatchChanges(app, { wait: true });
      await compareSample(round);
    }
    await applyMatchChanges(app, { wait: true });
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from match_changes`))[0]!.n).toBe(0);
    await compareSample(99);
  }, 180_000);

  it('writes a change only when something matching reads has changed', async () => {
    await applyMatchChanges(app, { wait: true });
    const [o] = await objectIds();
    // In one transaction, so that the job (run by the app as soon as a change is written) cannot take it first.
    await db.transaction(async (tx) => {
      await tx.execute(sql`update objects set description = 'another text' where id = ${o}`);
      expect((await tx.execute(sql`select count(*)::int as n from match_changes`)).rows).toEqual([{ n: 0 }]);
      await tx.execute(sql`update objects set area = area + 1 where id = ${o}`);
      expect((await tx.execute(sql`select kind, id from match_changes`)).rows).toEqual([{ kind: 1, id: o }]);
    });
    await applyMatchChanges(app, { wait: true });
  });
});
