// The agents' results from the kept cells (decision 071) against the same report worked out on the
// spot from the records, after random changes to properties, viewings, leads, deals, who is assigned
// and the agents themselves: for random periods (whole months, a year, ranges across months' edges)
// and readers (the office admin, one branch, a branch admin, an employee), the answers are equal.
// The answer kept as sent (decision 072) is equal to both, and follows a change to each table it is made from.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TResultsQuery } from '@crm/contract';
import { branches } from '../../db/schema/index.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { createTestApp } from '../../../test/harness.ts';
import { computeResults, keptResults, periodParts, results, RESULTS_TABLES } from './results.service.ts';
import { seededRandom } from '../../../test/seeded.ts';

const t = await createTestApp();
const { app, db } = t;
await db.insert(branches).values({ id: 2, nameKey: 'branch.1' }).onConflictDoNothing();

const { SEED, pick, chance, between } = seededRandom('REPORT_TEST_SEED');
const rows = async <T,>(q: ReturnType<typeof sql>) => (await db.execute(q)).rows as T[];

// A moment in the agency's zone, from 2025-11 to 2027-02, some of them near midnight (the day's edge).
const moment = () => {
  const day = new Date(Date.UTC(2025, 10, 1) + between(0, 480) * 86_400_000).toISOString().slice(0, 10);
  const time = pick(['00:10', '09:30', '12:00', '23:50']);
  return sql`${`${day}T${time}:00`}::timestamp at time zone ${app.config.timeZone}`;
};
const day = () => new Date(Date.UTC(2025, 10, 1) + between(0, 480) * 86_400_000).toISOString().slice(0, 10);

const agents: number[] = [];
for (let i = 0; i < 6; i++) {
  const [a] = await rows<{ id: number }>(sql`insert into accounts (first_name, last_name, is_employe, branch_id, end_date)
    values ('Agent', ${`Number${i}`}, true, ${i % 2 ? 2 : 1}, ${i === 5 ? '2026-06-30' : null}) returning id`);
  agents.push(a!.id);
}
const someAgents = () => [...new Set(Array.from({ length: pick([1, 1, 2, 3]) }, () => pick(agents)))];

async function addRecords() {
  // Now and then a draft (opened with Add, not filled in yet): not one taken on.
  await db.execute(sql`insert into objects (created_on, created_by_account_id, draft) values (${moment()}, ${chance(0.9) ? pick(agents) : null}, ${chance(0.2)})`);
  const [v] = await rows<{ id: number }>(sql`insert into viewings (date_of_viewing, result) values (${moment()}, ${pick([1, 2, 3, 4, 5, 6, 7, null])}) returning id`);
  for (const a of someAgents()) await db.execute(sql`insert into assignments (parent, parent_id, account_id) values (3, ${v!.id}, ${a}) on conflict do nothing`);
  const [l] = await rows<{ id: number }>(sql`insert into leads (created_on, start_date) values (${moment()}, ${chance(0.3) ? day() : null}) returning id`);
  for (const a of someAgents()) await db.execute(sql`insert into assignments (parent, parent_id, account_id) values (2, ${l!.id}, ${a}) on conflict do nothing`);
  const [d] = await rows<{ id: number }>(sql`insert into deals (deal_type, deal_stage, asking_price, price, commission, end_date)
    values (${pick([1, 2])}, ${pick([1, 3, 5, 5, 5, 6])}, ${between(300, 400000)}, ${chance(0.6) ? between(300, 400000) + 0.5 : null}, ${chance(0.8) ? between(100, 9000) + 0.25 : null}, ${chance(0.9) ? day() : null})
    returning id`);
  for (const a of someAgents()) await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${d!.id}, ${a}, 6) on conflict do nothing`);
  // Another party, not the employee in charge: counts for nobody.
  await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${d!.id}, ${pick(agents)}, 2) on conflict do nothing`);
}

const idsOf = async (table: string) => (await rows<{ id: number }>(sql`select id from ${sql.raw(table)} order by id`)).map((r) => r.id);

/** One random change of the kinds the office makes. */
async function change() {
  const obj = pick(await idsOf('objects'));
  const vw = pick(await idsOf('viewings'));
  const ld = pick(await idsOf('leads'));
  const dl = pick(await idsOf('deals'));
  switch (between(0, 17)) {
    case 0:
      await addRecords();
      break;
    case 1:
      await db.execute(sql`update objects set created_on = ${moment()} where id = ${obj}`);
      break;
    case 2:
      await db.execute(sql`update objects set created_by_account_id = ${chance(0.8) ? pick(agents) : null} where id = ${obj}`);
      break;
    case 3:
      await db.execute(sql`delete from objects where id = ${obj}`);
      break;
    case 4:
      await db.execute(sql`update viewings set result = ${pick([1, 2, 3, 4, 5, 6, 7])}, date_of_viewing = ${chance(0.5) ? moment() : sql`date_of_viewing`} where id = ${vw}`);
      break;
    case 5: // someone else shows it, or one more agent
      if (chance(0.5)) await db.execute(sql`delete from assignments where parent = 3 and parent_id = ${vw} and account_id = (select account_id from assignments where parent = 3 and parent_id = ${vw} limit 1)`);
      else await db.execute(sql`insert into assignments (parent, parent_id, account_id) values (3, ${vw}, ${pick(agents)}) on conflict do nothing`);
      break;
    case 6:
      await db.execute(sql`delete from viewings where id = ${vw}`);
      await db.execute(sql`delete from assignments where parent = 3 and parent_id = ${vw}`);
      break;
    case 7:
      await db.execute(sql`update leads set start_date = ${chance(0.5) ? day() : null}, created_on = ${chance(0.5) ? moment() : sql`created_on`} where id = ${ld}`);
      break;
    case 8: { // one of a lead's agents moved to another (as a merge of accounts would)
      const to = pick(agents);
      await db.execute(sql`update assignments set account_id = ${to} where id = (select id from assignments where parent = 2 and parent_id = ${ld} limit 1)
        and not exists (select 1 from assignments b where b.parent = 2 and b.parent_id = ${ld} and b.account_id = ${to})`);
      break;
    }
    case 9: // closed, reopened, moved in time, repriced
      await db.execute(
        pick([
          sql`update deals set deal_stage = ${pick([1, 4, 5, 6])} where id = ${dl}`,
          sql`update deals set end_date = ${day()} where id = ${dl}`,
          sql`update deals set price = ${between(300, 400000)}, commission = ${between(100, 9000)} where id = ${dl}`,
          sql`update deals set deal_type = 3 - deal_type where id = ${dl}`,
        ]),
      );
      break;
    case 10: // the employee in charge changes
      if (chance(0.5)) await db.execute(sql`delete from deal_parties where deal_id = ${dl} and relation = 6 and account_id = (select account_id from deal_parties where deal_id = ${dl} and relation = 6 limit 1)`);
      else await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${dl}, ${pick(agents)}, 6) on conflict do nothing`);
      break;
    case 11: // a party's relation changed to and from the employee in charge
      await db.execute(sql`update deal_parties set relation = case relation when 6 then 7 when 7 then 6 else relation end where deal_id = ${dl}`);
      break;
    case 12:
      await db.execute(sql`delete from deals where id = ${dl}`);
      break;
    case 13: // an agent leaves, comes back, changes branch (who is shown, not what is kept)
      await db.execute(sql`update accounts set end_date = ${chance(0.5) ? day() : null}, branch_id = ${pick([1, 2])} where id = ${pick(agents)}`);
      break;
    case 14: // several properties in one statement
      await db.execute(sql`update objects set created_on = created_on + interval '20 days' where id % ${between(3, 7)} = 0`);
      break;
    case 15: // a draft filled in (saved: its version moves)
      await db.execute(sql`update objects set version = version + 1 where id = ${obj}`);
      break;
    case 16: // an agent renamed (the rows' names and order)
      await db.execute(sql`update accounts set last_name = ${pick(['Alpha', 'Omega', 'Mid'])} || id where id = ${pick(agents)}`);
      break;
    case 17: // a branch renamed (the branches offered to the office admin)
      await db.execute(sql`update branches set name_key = ${pick(['branch.1', 'branch.north', 'branch.south'])} where id = 2`);
      break;
  }
}

const officeAdmin: SessionUser = { id: 1, roles: ['admin'], branchId: null, accountId: null } as unknown as SessionUser;
const readers = (): SessionUser[] => [
  officeAdmin,
  { ...officeAdmin, branchId: 2 } as SessionUser,
  { ...officeAdmin, roles: ['employee'], branchId: null, accountId: pick(agents) } as unknown as SessionUser,
];
const periods = (): TResultsQuery[] => {
  const from = day();
  const till = new Date(Date.parse(`${from}T00:00:00Z`) + between(0, 200) * 86_400_000).toISOString().slice(0, 10);
  const first = `${from.slice(0, 7)}-01`;
  return [
    { period: 'month' },
    { period: 'year' },
    { period: 'quarter' },
    { period: 'range', from, till: till > '2027-02-28' ? '2027-02-28' : till },
    { period: 'range', from: first, till: `${first.slice(0, 4)}-12-31` },
  ] as TResultsQuery[];
};
const tr = (key: string) => key;
// The answers as the route keeps them, across every round (most are made again after a change, the rest read back).
const kept = keptResults(app);

async function compare(round: number) {
  for (const user of readers()) {
    for (const q of periods()) {
      for (const branchId of user.branchId === null && user.roles.includes('admin') ? [undefined, 1] : [undefined]) {
        const query = { ...q, ...(branchId ? { branchId } : {}) } as TResultsQuery;
        const said = `round ${round}, ${JSON.stringify(query)}, reader ${JSON.stringify(user)}, seed ${SEED}`;
        const spot = await computeResults(app, user, query, tr);
        expect(await results(app, user, query, tr), said).toEqual(spot);
        expect(JSON.parse(await kept.get(user, query, tr, 'en')), `kept: ${said}`).toEqual(spot);
      }
    }
  }
}

describe('kept results', () => {
  it('cut a period into whole years, months and tenths of a month, and the days at its edges', () => {
    expect(periodParts('2026-03-01', '2026-03-31')).toEqual({ years: [], months: ['2026-03-01'], tenths: [], days: [] });
    expect(periodParts('2026-03-05', '2026-03-20')).toEqual({ years: [], months: [], tenths: ['2026-03-11'], days: [['2026-03-05', '2026-03-10']] });
    expect(periodParts('2026-02-15', '2026-05-10')).toEqual({ years: [], months: ['2026-03-01', '2026-04-01'], tenths: ['2026-02-21', '2026-05-01'], days: [['2026-02-15', '2026-02-20']] });
    expect(periodParts('2025-12-31', '2026-01-01')).toEqual({ years: [], months: [], tenths: [], days: [['2025-12-31', '2026-01-01']] });
    expect(periodParts('2026-01-01', '2026-12-31')).toEqual({ years: ['2026-01-01'], months: [], tenths: [], days: [] });
    expect(periodParts('2025-11-15', '2027-01-14')).toEqual({
      years: ['2026-01-01'],
      months: ['2025-12-01'],
      tenths: ['2025-11-21', '2027-01-01'],
      days: [['2025-11-15', '2025-11-20'], ['2027-01-11', '2027-01-14']],
    });
  });

  it('answer as the results worked out on the spot, after random changes', async () => {
    for (let i = 0; i < 40; i++) await addRecords();
    await compare(0);
    for (let round = 1; round <= 8; round++) {
      for (let k = between(4, 12); k > 0; k--) await change();
      // The deltas added into the cells now and then (the job every minute): the same answers either way.
      if (round % 3 === 0) await db.execute(sql`select crm_report_fold()`);
      await compare(round);
      // Nothing changed since: the kept answers are read back, and still right.
      if (round % 2 === 0) await compare(round);
    }
    expect(kept.size().entries).toBeGreaterThan(0);
    // And made again from scratch (a bulk load, a new time zone), the same.
    await db.execute(sql`select crm_report_fold()`);
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from report_cell_deltas`))[0]!.n).toBe(0);
    const before = await rows(sql`select * from report_cells order by grain, start, kind, agents`);
    await db.execute(sql`select crm_report_rebuild()`);
    expect(await rows(sql`select * from report_cells order by grain, start, kind, agents`)).toEqual(before);
  }, 180_000);

  it('makes the days again when the time zone changes', async () => {
    // One property entered at 23:30 in Athens on the last day of a month: 22:30 or 21:30 in London, the same day; in Tokyo the next.
    await db.execute(sql`insert into objects (created_on, created_by_account_id) values (${'2026-06-30T23:30:00'}::timestamp at time zone 'Europe/Athens', ${agents[0]!})`);
    expect((await rows(sql`select crm_report_zone('Asia/Tokyo') as changed`))[0]).toEqual({ changed: true });
    expect((await rows(sql`select crm_report_zone('Asia/Tokyo') as changed`))[0]).toEqual({ changed: false });
    await db.execute(sql`select crm_report_fold()`);
    const july = await rows<{ n: number }>(sql`select coalesce(sum(n), 0)::int as n from report_cells where grain = 1 and start = '2026-07-01' and kind = 1 and agents = array[${agents[0]!}::int]`);
    expect(july[0]!.n).toBeGreaterThan(0);
    await db.execute(sql`select crm_report_zone(${app.config.timeZone})`);
  });

  it('keeps an answer until one of the tables it is made from changes, each of them', async () => {
    // An agent of its own, shown over the whole range, and one record of each kind dated in it.
    const [a] = await rows<{ id: number }>(sql`insert into accounts (first_name, last_name, is_employe, branch_id) values ('Kept', 'Agent', true, 1) returning id`);
    const agent = a!.id;
    const inRange = sql`${'2026-03-10T12:00:00'}::timestamp at time zone ${app.config.timeZone}`;
    const one = async (q: ReturnType<typeof sql>) => (await rows<{ id: number }>(q))[0]!.id;
    const viewing = await one(sql`insert into viewings (date_of_viewing, result) values (${inRange}, 1) returning id`);
    await db.execute(sql`insert into assignments (parent, parent_id, account_id) values (3, ${viewing}, ${agent})`);
    const leads = [await one(sql`insert into leads (created_on) values (${inRange}) returning id`), await one(sql`insert into leads (created_on) values (${inRange}) returning id`)];
    for (const l of leads) await db.execute(sql`insert into assignments (parent, parent_id, account_id) values (2, ${l}, ${agent})`);
    const deals: number[] = [];
    for (let i = 0; i < 2; i++) {
      deals.push(await one(sql`insert into deals (deal_type, deal_stage, asking_price, price, commission, end_date) values (1, 5, 1000, 900, 90, '2026-03-10') returning id`));
      await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${deals[i]!}, ${agent}, 6)`);
    }
    const changes: Record<string, ReturnType<typeof sql>[]> = {
      objects: [sql`insert into objects (created_on, created_by_account_id) values (${inRange}, ${agent})`],
      viewings: [sql`update viewings set result = 6 where id = ${viewing}`],
      assignments: [sql`delete from assignments where parent = 2 and parent_id = ${leads[0]!}`],
      leads: [sql`update leads set start_date = '2024-01-15' where id = ${leads[1]!}`],
      deals: [sql`update deals set commission = commission + 1 where id = ${deals[0]!}`],
      deal_parties: [sql`delete from deal_parties where deal_id = ${deals[1]!}`],
      accounts: [sql`update accounts set last_name = 'Renamed' where id = ${agent}`],
      branches: [sql`insert into branches (id, name_key) values (9, 'branch.kept') on conflict (id) do update set name_key = 'branch.kept2'`],
      localization: [sql`update localization set text = text || ' *' where key = 'reports.results.total'`],
    };
    expect(Object.keys(changes).sort()).toEqual([...RESULTS_TABLES].sort());
    // Each counted: a change to it moves the sum the kept answers are checked against (migration 0063).
    const counted = await rows<{ name: string }>(sql`select distinct c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_proc f on f.oid = t.tgfoid where f.proname = 'crm_data_changed' and c.relname = any(${sql.param([...RESULTS_TABLES])}::text[]) order by 1`);
    expect(counted.map((r) => r.name)).toEqual([...RESULTS_TABLES].sort());
    const t = (key: string) => app.translator.t('en', key);
    const query = { period: 'range', from: '2025-11-01', till: '2027-02-28' } as TResultsQuery;
    const mine = keptResults(app);
    try {
      for (const [table, [change]] of Object.entries(changes)) {
        const before = await computeResults(app, officeAdmin, query, t);
        expect(JSON.parse(await mine.get(officeAdmin, query, t, 'en'))).toEqual(before);
        await db.execute(change!);
        if (table === 'localization') await app.translator.load(db);
        const after = await computeResults(app, officeAdmin, query, t);
        expect(after, `a change to ${table} changes the report`).not.toEqual(before);
        expect(JSON.parse(await mine.get(officeAdmin, query, t, 'en')), `kept after a change to ${table}`).toEqual(after);
      }
      // The texts changed and committed, asked again before this instance read them again (another
      // instance's change reaches it by a notice): the answer made then, with the old texts, is not
      // served once they are read.
      await db.execute(sql`update localization set text = text || ' *' where key = 'reports.results.total'`);
      await mine.get(officeAdmin, query, t, 'en');
      await app.translator.load(db);
      const reloaded = await computeResults(app, officeAdmin, query, t);
      expect(JSON.parse(await mine.get(officeAdmin, query, t, 'en')), 'kept after the texts were read again').toEqual(reloaded);
    } finally {
      await db.execute(sql`update localization set text = regexp_replace(text, '( \*)+$', '') where key = 'reports.results.total'`);
      await app.translator.load(db);
    }
  });
});
