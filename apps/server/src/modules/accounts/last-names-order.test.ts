import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { accounts } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { LAST_NAMES_OUT_OF_ORDER_MAX, lastNameMatches, latinMatchReadings, lastNamesOutOfOrder, reorderLastNames } from './accounts.sql.ts';

// Decision 128: account_last_names is kept in the order of its names, rewritten in it by the daily job
// once new and renamed accounts left it. The rewrite moves rows only: every fragment finds the same
// accounts as before it, and as the accounts' own names tested on the spot. Seeded random accounts,
// renamed at random.
const t = await createTestApp();
const { db } = t;

let seed = 128;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const LAST = ['Παπαδόπουλος', 'Παπαδάκη', 'Γεωργίου', 'Παπαγεωργίου', 'Ιωάννου', 'Νικολάου', 'Καραγιάννη', 'Σαββίδης', 'Smith', 'Smithson', 'Papadopoulos', 'Иванов', 'Иванова', 'Nikolaidis', 'Vlachos', 'Ζαχαρίου', 'Alexiou'];
const COMPANY = ['Κτηματική Γεωργίου Α.Ε.', 'Smith Estates', null, null, null, null];
const FRAGMENTS = ['Παπαδ', 'παπαδοπ', 'γεωργ', 'Ιωάν', 'smith', 'papadop', 'Иван', 'ivanov', 'nikolaou', 'σαββ', 'vlaxos', 'ου', 'zzz', 'a'];

const names = () => ({
  lastName: pick(LAST),
  lastNameEng: rnd() < 0.3 ? pick(LAST) : null,
  lastNameLocal: rnd() < 0.2 ? pick(LAST) : null,
  name: pick(COMPANY),
});

/** Each fragment's matched accounts, by the filters' own statement. */
async function matches(): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  for (const f of FRAGMENTS) {
    const r = await db.execute<{ id: number }>(sql`select m.account_id as id from (${lastNameMatches(f)}) m order by 1`);
    out[f] = r.rows.map((x) => Number(x.id));
  }
  return out;
}

/** The same, from the accounts' names tested one by one (what account_last_names keeps for them). */
async function onTheSpot(): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = {};
  const all = (
    await db.execute<{ id: number; names: string; latin: string }>(
      sql`select a.id, crm_search_norm(crm_account_last_names_text(a)) as names, crm_latin_skeleton(crm_account_last_names_text(a)) as latin from accounts a`,
    )
  ).rows;
  for (const f of FRAGMENTS) {
    const probe = (await db.execute<{ norm: string }>(sql`select crm_search_norm(${f}) as norm`)).rows[0]!.norm;
    const skeletons: string[] = [];
    for (const v of latinMatchReadings(f)) {
      const s = (await db.execute<{ s: string }>(sql`select crm_latin_skeleton(${v}) as s`)).rows[0]!.s;
      if (s.length >= 3) skeletons.push(s);
    }
    out[f] = all
      .filter((a) => a.names.includes(probe) || skeletons.some((s) => a.latin.includes(s)))
      .map((a) => Number(a.id))
      .sort((x, y) => x - y);
  }
  return out;
}

/** The table's rows in its own order: their names. */
const physicalNames = async () => (await db.execute<{ names: string }>(sql`select names from account_last_names order by ctid`)).rows.map((r) => r.names);

describe('the accounts’ last names kept in name order (decision 128)', () => {
  it('rewrites the table in name order once renamed and new accounts left it, and every fragment finds the same accounts', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 150; i++) ids.push((await db.insert(accounts).values({ firstName: 'Maria', ...names() } as never).returning({ id: accounts.id }))[0]!.id);
    // Renames (a name in another script added, a company renamed) and new accounts, at random.
    for (let i = 0; i < 80; i++) {
      if (rnd() < 0.6) await db.update(accounts).set(names() as never).where(eq(accounts.id, pick(ids)));
      else ids.push((await db.insert(accounts).values({ firstName: 'Γιώργος', ...names() } as never).returning({ id: accounts.id }))[0]!.id);
    }
    expect(await lastNamesOutOfOrder(db)).toBeGreaterThan(LAST_NAMES_OUT_OF_ORDER_MAX);
    const found = await matches();
    expect(found).toEqual(await onTheSpot());
    expect(found['Παπαδ']!.length).toBeGreaterThan(1);

    expect(await reorderLastNames(db)).toBe(true);
    const order = await physicalNames();
    expect(order).toEqual([...order].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : Buffer.from(a) > Buffer.from(b) ? 1 : 0)));
    expect(await lastNamesOutOfOrder(db)).toBe(0);
    expect(await matches()).toEqual(found);

    // A rename after the rewrite is found at once, in whatever place its row took.
    const renamed = ids[3]!;
    await db.update(accounts).set({ lastName: 'Χατζηδάκη', lastNameEng: 'Chatzidaki', lastNameLocal: null, name: null } as never).where(eq(accounts.id, renamed));
    const after = await matches();
    expect(after).toEqual(await onTheSpot());
    expect(after['a']).toContain(renamed);
    // One row out of order among 200 and more: left as it is.
    expect(await reorderLastNames(db)).toBe(false);
  });
});
