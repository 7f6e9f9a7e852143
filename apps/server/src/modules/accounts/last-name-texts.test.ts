import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { accounts } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { containsPattern, lastNameMatches, lastNameTexts, latinMatch } from './accounts.sql.ts';
import { pruneSearchWords } from './accounts.search.ts';

// Decision 124: the "last name" filters of the leads, the deals (account_last_names) and the Clients
// list (the clients' last_name_norm) match the fragment on the distinct texts (account_last_name_texts,
// kept by triggers, pruned daily) and take their accounts from an index by text. Compared here with
// the fragment matched on every account's own row (the statements before), on random accounts after
// random renames, clients made and unmade, deletions and prunes; and the kept texts with the texts of
// the accounts there.
const t = await createTestApp({}, undefined, { jobs: false });
const { db, pool, app } = t;

let seed = 124;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const LAST = ['Παπαδόπουλος', 'Παπαδάκη', 'Γεωργίου', 'Γεωργιάδης', 'Ιωάννου', 'Νικολάου', 'Καραγιάννη', 'Σαββίδης', 'Smith', 'Smithson', 'Papadopoulos', 'Иванов', 'Иванова', 'Nikolaidis', 'Vlachos', 'Müller', 'Βλάχος'];
const COMPANY = ['Κτηματική Γεωργίου Α.Ε.', 'Smith Estates', 'Vlachos & Co', null, null, null];
const FRAGMENTS = ['Παπαδ', 'παπαδοπ', 'γεωργ', 'Ιωάν', 'smith', 'papadop', 'Иван', 'ivanov', 'nikolaou', 'σαββ', 'vlaxos', 'ου', 'zzz', 'a', 'mull', 'α.ε', '100%', 'Co'];

const names = () => ({
  lastName: pick(LAST),
  lastNameEng: rnd() < 0.3 ? pick(LAST) : null,
  lastNameLocal: rnd() < 0.2 ? pick(LAST) : null,
  name: pick(COMPANY),
});

/** The accounts the filters take, through the distinct names (lastNameMatches), sorted. */
async function matched(fragment: string): Promise<number[]> {
  const r = await db.execute<{ id: number }>(sql`select m.account_id as id from (${lastNameMatches(fragment)}) m order by 1`);
  return r.rows.map((x) => Number(x.id));
}

/** The clients the Clients list takes, through the distinct texts, sorted. */
async function clientsMatched(fragment: string): Promise<number[]> {
  const r = await db.execute<{ id: number }>(sql`select id from accounts where is_client and last_name_norm = any(array(${lastNameTexts(fragment)})) order by 1`);
  return r.rows.map((x) => Number(x.id));
}

/** The same on every client's row (the Clients list's condition before). */
async function clientsOnTheSpot(fragment: string): Promise<number[]> {
  const latin = latinMatch(sql`last_name_latin`, fragment);
  const r = await db.execute<{ id: number }>(
    sql`select id from accounts where is_client and (last_name_norm like ${containsPattern(fragment)} ${latin ? sql`or ${latin}` : sql``}) order by 1`,
  );
  return r.rows.map((x) => Number(x.id));
}

/** The same, on every account's own row (the statement decision 124 replaced). */
async function onTheSpot(fragment: string): Promise<number[]> {
  const latin = latinMatch(sql`n.latin`, fragment);
  const r = await db.execute<{ id: number }>(
    sql`select n.account_id as id from account_last_names n where n.names like ${containsPattern(fragment)} ${latin ? sql`or ${latin}` : sql``} order by 1`,
  );
  return r.rows.map((x) => Number(x.id));
}

async function compareAll(round: number) {
  let found = 0;
  for (const fragment of FRAGMENTS) {
    const want = await onTheSpot(fragment);
    expect(await matched(fragment), `round ${round}, «${fragment}»`).toEqual(want);
    const clients = await clientsOnTheSpot(fragment);
    expect(await clientsMatched(fragment), `round ${round}, clients «${fragment}»`).toEqual(clients);
    if (want.length && clients.length) found++;
  }
  // Every account's names and every client's last name are among the kept texts, each with its Latin skeleton as the account has it.
  const missing = await pool.query(`select n.account_id from account_last_names n left join account_last_name_texts t on t.names = n.names
    where t.names is null or t.latin <> n.latin
    union all select a.id from accounts a left join account_last_name_texts t on t.names = a.last_name_norm
    where a.is_client and (t.names is null or t.latin <> a.last_name_latin)`);
  expect(missing.rows, `round ${round}`).toEqual([]);
  return found;
}

describe('the last-name filters matched on the distinct names (decision 124)', () => {
  it('find the same accounts as on every account’s row, after random renames, deletions and prunes', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push((await db.insert(accounts).values({ firstName: 'Maria', isClient: rnd() < 0.6, ...names() } as never).returning({ id: accounts.id }))[0]!.id);
    let found = 0;
    for (let round = 0; round < 6; round++) {
      for (let k = 0; k < 15; k++) {
        const action = rnd();
        if (action < 0.15) {
          // A client made or unmade.
          await pool.query(`update accounts set is_client = not is_client where id = $1`, [pick(ids)]);
        } else if (action < 0.55) {
          // A rename: any of the four names, to a listed one or one of its own.
          const id = pick(ids);
          const col = pick(['last_name', 'last_name_eng', 'last_name_local', 'name']);
          await pool.query(`update accounts set ${col} = $2 where id = $1`, [id, rnd() < 0.3 ? `Νέο${Math.floor(rnd() * 1000)}` : pick([...LAST, null])]);
        } else if (action < 0.7 && ids.length > 20) {
          const id = ids.splice(Math.floor(rnd() * ids.length), 1)[0]!;
          await pool.query(`delete from accounts where id = $1`, [id]);
        } else {
          ids.push((await db.insert(accounts).values({ firstName: 'Γιώργος', isClient: rnd() < 0.6, ...names() } as never).returning({ id: accounts.id }))[0]!.id);
        }
      }
      // Every other round the texts no account has any more go (the daily clean-up).
      if (round % 2) await pruneSearchWords(app);
      found += await compareAll(round);
    }
    // Most fragments find accounts: the comparison is not of empty lists.
    expect(found).toBeGreaterThan(FRAGMENTS.length * 3);
  }, 60_000);

  it('gives the Clients list the clients found on the spot, in every order (the page and count from the index, or joined for a sort by who)', async () => {
    const agent = await t.user({ roles: ['employee'] });
    let compared = 0;
    for (const lastName of FRAGMENTS) {
      const want = await clientsOnTheSpot(lastName);
      for (const sortBy of ['createdOn', 'createdBy', 'name'] as const) {
        const res = await agent.post('/api/clients/search', { serviceFilter: 0, sources: [], lastName, perPage: 500, currentPage: 1, sortBy, sortDir: 'desc' });
        expect(res.statusCode, res.body).toBe(200);
        const a = res.json() as { items: { id: number }[]; totalRows: number };
        expect({ ids: a.items.map((x) => x.id).sort((x, y) => x - y), totalRows: a.totalRows }, `«${lastName}» by ${sortBy}`).toEqual({ ids: want, totalRows: want.length });
        if (want.length) compared++;
      }
    }
    expect(compared).toBeGreaterThan(FRAGMENTS.length);
  });

  it('keeps no text after its last account, once pruned; a text pruned comes back with a new account', async () => {
    const [a] = await db.insert(accounts).values({ firstName: 'A', lastName: 'Ζαχαρόπουλος' } as never).returning({ id: accounts.id });
    const texts = async () => (await pool.query(`select names, latin = crm_latin_skeleton('Ζαχαρόπουλος') as latin from account_last_name_texts where names like '%ζαχαροπουλ%' order by 1`)).rows;
    expect(await texts()).toEqual([{ names: 'ζαχαροπουλοσ', latin: true }]);
    await pool.query(`update accounts set last_name = 'Ζαχαρίου' where id = $1`, [a!.id]);
    // The old text stays until the clean-up, and finds nothing.
    expect((await texts()).length).toBe(1);
    expect(await matched('ζαχαροπ')).toEqual([]);
    await pruneSearchWords(app);
    expect(await texts()).toEqual([]);
    const [b] = await db.insert(accounts).values({ firstName: 'B', lastName: 'Ζαχαρόπουλος' } as never).returning({ id: accounts.id });
    expect(await matched('zaharop')).toEqual([b!.id]);
    expect(await matched('ζαχαρ')).toEqual([a!.id, b!.id].sort((x, y) => x - y));
  });
});
