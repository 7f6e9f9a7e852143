import { describe, expect, it } from 'vitest';
import { and, sql } from 'drizzle-orm';
import pg from 'pg';
import { DEAL_STAGE_CANCELLED, type TDealSearch } from '@crm/contract';
import { accounts, dealParties, deals } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { SORT_SQL, dealTotals, filterConditions, moveDealParties, partiesByLastName } from './deals.service.ts';

// Decision 103: the deals list's "last name" filter reads the parties' last names kept on each deal
// (migration 0110) and has its page and totals from one statement. Compared here with the statements
// it replaced (the accounts' names, then their parties, then the deals by id; the totals summed apart),
// on seeded random deals and parties, after random renames, party changes, merges and deletions.
const t = await createTestApp();
const { db, pool } = t;
const agent = await t.user({ roles: ['employee'] });

let seed = 103;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const LAST = ['Παπαδόπουλος', 'Παπαδάκη', 'Γεωργίου', 'Γεωργιάδης', 'Ιωάννου', 'Νικολάου', 'Καραγιάννη', 'Σαββίδης', 'Smith', 'Smithson', 'Papadopoulos', 'Иванов', 'Иванова', 'Nikolaidis', 'Vlachos'];
const COMPANY = ['Κτηματική Γεωργίου Α.Ε.', 'Smith Estates', null, null, null];
const FRAGMENTS = ['Παπαδ', 'παπαδοπ', 'γεωργ', 'Ιωάν', 'smith', 'papadop', 'Иван', 'ivanov', 'nikolaou', 'σαββ', 'vlaxos', 'ου', 'zzz', 'a'];

async function person(): Promise<number> {
  const values = {
    firstName: pick(['Maria', 'Γιώργος', 'Ольга']),
    lastName: pick(LAST),
    lastNameEng: rnd() < 0.3 ? pick(LAST) : null,
    lastNameLocal: rnd() < 0.2 ? pick(LAST) : null,
    name: pick(COMPANY),
  };
  return (await db.insert(accounts).values(values as never).returning({ id: accounts.id }))[0]!.id;
}

const people: number[] = [];
for (let i = 0; i < 50; i++) people.push(await person());
const dealIds: number[] = [];
for (let i = 0; i < 90; i++) {
  const dealType = rnd() < 0.5 ? 1 : 2;
  const asking = rnd() < 0.8 ? Math.round(rnd() * 300000) / 4 : null;
  const [d] = await db
    .insert(deals)
    .values({
      dealType,
      dealStage: 1 + Math.floor(rnd() * 6),
      askingPrice: asking,
      price: rnd() < 0.5 ? Math.round(rnd() * 300000) / 4 : null,
      commission: rnd() < 0.6 ? Math.round(rnd() * 4000) / 4 : null,
      createdOn: new Date(Date.UTC(2026, 0, 1 + Math.floor(rnd() * 20))),
    } as never)
    .returning({ id: deals.id });
  dealIds.push(d!.id);
  const n = Math.floor(rnd() * 4);
  const parties = new Map<string, { dealId: number; accountId: number; relation: number; position: number }>();
  for (let k = 0; k < n; k++) {
    const accountId = pick(people);
    const relation = 1 + Math.floor(rnd() * 6);
    parties.set(`${accountId}-${relation}`, { dealId: d!.id, accountId, relation, position: k });
  }
  if (parties.size) await db.insert(dealParties).values([...parties.values()]);
}

/** The list's answer by the statements decision 103 replaced: ids through the accounts, totals summed apart. */
async function before(f: TDealSearch) {
  const cond = and(...(await filterConditions(db, { ...f, lastName: undefined })), await partiesByLastName(db, f.lastName!.trim()));
  const dir = f.sortDir === 'asc' ? sql`asc` : sql`desc`;
  const ids = await db
    .select({ id: deals.id })
    .from(deals)
    .where(cond)
    .orderBy(...SORT_SQL[f.sortBy](dir))
    .limit(f.perPage)
    .offset((f.currentPage - 1) * f.perPage);
  const totals = await dealTotals(db, cond, f.stages.includes(DEAL_STAGE_CANCELLED));
  return { ids: ids.map((r) => r.id), totalRows: totals.n, sums: totals.sums };
}

async function compareAll() {
  let compared = 0;
  let found = 0;
  for (const lastName of FRAGMENTS) {
    for (const sortBy of ['createdOn', 'price', 'stage', 'dateOfDeposit'] as const) {
      for (const extra of [{}, { stages: [1, 2, 6] }, { dealType: 2 }]) {
        for (const currentPage of [1, 2, 5]) {
          const body = { lastName, sortBy, sortDir: rnd() < 0.5 ? 'asc' : 'desc', perPage: 7, currentPage, stages: [], ...extra };
          const res = await agent.post('/api/Deal/search', body);
          expect(res.statusCode, res.body).toBe(200);
          const a = res.json() as { items: { id: number }[]; totalRows: number; sums: unknown };
          const full = { more: [], ...body } as unknown as TDealSearch;
          expect({ ids: a.items.map((x) => x.id), totalRows: a.totalRows, sums: a.sums }, JSON.stringify(body)).toEqual(await before(full));
          compared++;
          if (a.items.length) found++;
        }
      }
    }
  }
  return { compared, found };
}

/** Deals whose kept names differ from their parties' names now. */
const stale = async () =>
  (
    await pool.query(`select d.id from deals d left join lateral (
      select coalesce(string_agg(n.names, E'\\n' order by p.account_id), '') as names, coalesce(string_agg(n.latin, E'\\n' order by p.account_id), '') as latin
      from (select distinct q.account_id from deal_parties q where q.deal_id = d.id) p join account_last_names n on n.account_id = p.account_id) x on true
      where (d.party_names, d.party_latin) is distinct from (x.names, x.latin)`)
  ).rows;

describe('the deals list by a party’s last name (decision 103)', () => {
  it('answers the same page, count and totals as the statements it replaced, on random deals', async () => {
    expect(await stale()).toEqual([]);
    const { compared, found } = await compareAll();
    expect(compared).toBeGreaterThan(400);
    // Most fragments find deals: the comparison is not of empty pages.
    expect(found).toBeGreaterThan(compared / 3);
  });

  it('still answers the same after renames, party changes, a merge and deletions', async () => {
    for (let i = 0; i < 15; i++) {
      // Renamed in each column the filter reads, and a company name given or taken.
      const id = pick(people);
      const column = pick(['last_name', 'last_name_eng', 'last_name_local', 'name']);
      await pool.query(`update accounts set ${column} = $1 where id = $2`, [rnd() < 0.2 ? null : pick(LAST), id]);
    }
    for (let i = 0; i < 15; i++) {
      const d = pick(dealIds);
      const r = rnd();
      if (r < 0.35) await pool.query(`insert into deal_parties (deal_id, account_id, relation) values ($1, $2, $3) on conflict do nothing`, [d, pick(people), 1 + Math.floor(rnd() * 6)]);
      else if (r < 0.6) await pool.query(`delete from deal_parties where id = (select id from deal_parties where deal_id = $1 order by id limit 1)`, [d]);
      else if (r < 0.8) await pool.query(`update deal_parties set account_id = $2 where id = (select id from deal_parties where deal_id = $1 order by id limit 1) and not exists (select 1 from deal_parties x where x.deal_id = $1 and x.account_id = $2)`, [d, pick(people)]);
      else {
        // Saved through the API, its parties sent anew (deleted and inserted again).
        const got = (await agent.get(`/api/Deal/edit/${d}`)).json() as { version: number };
        const res = await agent.post('/api/Deal/update', { id: d, version: got.version, accounts: [{ accountId: pick(people), relation: 2 }, { accountId: pick(people), relation: 4 }] });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    // Two people merged (the duplicate's parties become the kept one's), one deleted, one deal deleted.
    const [kept, duplicate, gone] = [people[0]!, people[1]!, people[2]!];
    await db.transaction((tx) => moveDealParties(tx, kept, duplicate));
    await pool.query(`delete from accounts where id = $1`, [gone]);
    await pool.query(`delete from deals where id = $1`, [dealIds[3]]);
    expect(await stale()).toEqual([]);
    await compareAll();
  });

  it('finds a fragment typed with a line break through the accounts, never across two people', async () => {
    const a = await person();
    const b = await person();
    await pool.query(`update accounts set last_name = 'Zorbaslast', last_name_eng = null, last_name_local = null, name = null where id = $1`, [a]);
    await pool.query(`update accounts set last_name = 'Firstzorbas', last_name_eng = null, last_name_local = null, name = null where id = $1`, [b]);
    const [d] = await db.insert(deals).values({ dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
    await db.insert(dealParties).values([
      { dealId: d!.id, accountId: a, relation: 1 },
      { dealId: d!.id, accountId: b, relation: 2 },
    ]);
    // "zorbaslast" then "firstzorbas" on the next line: no single person's name holds both.
    for (const lastName of ['slast\nfirst', 'zorbaslast']) {
      const body = { lastName, perPage: 20, currentPage: 1 };
      const res = (await agent.post('/api/Deal/search', body)).json() as { items: { id: number }[]; totalRows: number };
      expect(res.items.map((x) => x.id)).toEqual(lastName === 'zorbaslast' ? [d!.id] : []);
    }
  });

  /**
   * A rename and a save of a deal that names the renamed account, on two connections, each order:
   * whichever commits first, the deal ends with the new name (the later one waits for the earlier,
   * asked of PostgreSQL, not timed), and neither waits for the other in a circle.
   */
  for (const first of ['rename', 'party'] as const) {
    it(`keeps the new name when ${first === 'rename' ? 'a rename is under way as a party is added' : 'a party is being added as the account is renamed'}`, async () => {
      const x = await person();
      const other = await person();
      const [d] = await db.insert(deals).values({ dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
      // The account is already a party (the save sends its parties anew), and is added again in another role.
      await db.insert(dealParties).values({ dealId: d!.id, accountId: x, relation: 1 });
      const a = new pg.Client({ connectionString: t.dbUrl });
      const b = new pg.Client({ connectionString: t.dbUrl });
      await a.connect();
      await b.connect();
      try {
        const pidOf = async (c: pg.Client) => Number((await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
        const [aPid, bPid] = [await pidOf(a), await pidOf(b)];
        const rename = (c: pg.Client) => c.query(`update accounts set last_name = 'Neoklejous' where id = $1`, [x]);
        const save = async (c: pg.Client) => {
          // As saveDeal does: the deal locked, its parties deleted and inserted again.
          await c.query('select id from deals where id = $1 for update', [d!.id]);
          await c.query('delete from deal_parties where deal_id = $1', [d!.id]);
          await c.query('insert into deal_parties (deal_id, account_id, relation, position) values ($1, $2, 1, 0), ($1, $2, 4, 1), ($1, $3, 2, 2)', [d!.id, x, other]);
        };
        const [early, late, latePid] = first === 'rename' ? [a, b, bPid] : [b, a, aPid];
        await early.query('begin');
        await (first === 'rename' ? rename(early) : save(early));
        await late.query('begin');
        let done = false;
        const later = (first === 'rename' ? save(late) : rename(late)).then(() => {
          done = true;
        });
        for (;;) {
          const waiting = await pool.query(`select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [latePid]);
          if (waiting.rowCount || done) break;
        }
        await early.query('commit');
        await later;
        await late.query('commit');
        const kept = (await pool.query<{ names: string }>('select party_names as names from deals where id = $1', [d!.id])).rows[0]!.names;
        expect(kept.split('\n').some((n) => n.includes('neoklejous'))).toBe(true);
        expect(await stale()).toEqual([]);
        const found = (await agent.post('/api/Deal/search', { lastName: 'Neoklej', perPage: 20, currentPage: 1 })).json() as { items: { id: number }[] };
        expect(found.items.map((i) => i.id)).toContain(d!.id);
      } finally {
        await a.end();
        await b.end();
      }
    });
  }
});
