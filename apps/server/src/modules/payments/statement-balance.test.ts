import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OWNER_RELATION, type TStatementFilter } from '@crm/contract';
import { accounts, objectAccounts, objects } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { filterSql, lockStatementOf, statementRows } from './payments.service.ts';

// Decision 112: each transaction keeps the account's balance after it (0114, brought up to date by
// triggers), and the statement reads a page with those kept balances. Here the kept figures and the
// pages are compared with the statement as it was computed before, on the spot (kept below as the
// oracle), on random accounts after random inserts, edits, moves and deletes.
const t = await createTestApp();
const { db, pool } = t;
const admin = await t.user({ roles: ['admin'] });
const tz = t.config.timeZone;

/** The statement's query before 0114: a window sum over all the account's rows, then the filter and the page. */
function oracleSql(accountId: number, f: TStatementFilter, limit: number | null, offset: number) {
  return sql`
    with ledger as (
      select t.id, t.account_id, t.type, t.transaction_date, t.amount, t.status, t.category_id, t.object_id, t.payment_method,
             sum(case when t.type = 'income' then t.amount when t.status = 1 or t.status is null then -t.amount else 0 end)
               over (order by t.transaction_date, t.id rows between unbounded preceding and current row) as balance
      from transactions t
      where t.account_id = ${accountId}
    ),
    f as (select t.* from ledger t where ${filterSql(accountId, f)})
    select f.id, to_char(f.transaction_date at time zone ${tz}, 'YYYY-MM-DD"T"HH24:MI:SS') as transaction_date,
           f.amount::text as amount, f.balance::numeric(16,2)::text as balance
    from f
    order by f.transaction_date desc, f.id desc
    ${limit === null ? sql`` : sql`limit ${limit} offset ${offset}`}`;
}

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function owner(i: number) {
  const [a] = await db.insert(accounts).values({ firstName: 'Ledger', lastName: `Owner${i}`, isOwner: true, hasTransactions: true }).returning({ id: accounts.id });
  const props: number[] = [];
  for (let k = 0; k < 2; k++) {
    const [o] = await db.insert(objects).values({ title: `Flat ${i}.${k}` } as never).returning({ id: objects.id });
    await db.insert(objectAccounts).values({ objectId: o!.id, accountId: a!.id, relation: OWNER_RELATION });
    props.push(o!.id);
  }
  return { id: a!.id, props };
}

describe("the statement's kept running balance", () => {
  it('is the running sum of every row before it after random inserts, edits, moves and deletes, and every page and filter shows what the on-the-spot statement showed', async () => {
    const rnd = random(112);
    const pick = <X,>(xs: readonly X[]) => xs[Math.floor(rnd() * xs.length)]!;
    const owners = await Promise.all([1, 2, 3].map(owner));
    // Few distinct days and minutes, so rows share a date and the id decides their order.
    const day = () => `2026-0${1 + Math.floor(rnd() * 3)}-1${Math.floor(rnd() * 3)} 1${Math.floor(rnd() * 2)}:00+02`;
    const row = () => {
      const o = pick(owners);
      const income = rnd() < 0.35;
      return sql`(${o.id}, ${income ? 'income' : 'expense'}, ${(1 + Math.floor(rnd() * 99999) / 100).toFixed(2)}, ${day()}::timestamptz, ${1 + Math.floor(rnd() * 2)},
        ${income ? pick([1, 2]) : pick([21, 22])}, ${income ? null : pick([0, 1, 2])}, ${rnd() < 0.6 ? pick(o.props) : null})`;
    };
    const insert = (n: number) =>
      db.execute(sql`insert into transactions (account_id, type, amount, transaction_date, payment_method, category_id, status, object_id) values ${sql.join(
        Array.from({ length: n }, row),
        sql`, `,
      )}`);
    // Picked by the seeded generator, so a failure replays from its seed.
    const someIds = async (n: number) => {
      const all = (await db.execute(sql`select id from transactions order by id`)).rows.map((r) => Number(r.id));
      return Array.from({ length: Math.min(n, all.length) }, () => pick(all));
    };

    await insert(120);
    for (let round = 0; round < 12; round++) {
      const op = round % 6;
      if (op === 0) await insert(1 + Math.floor(rnd() * 15));
      if (op === 1) await db.execute(sql`update transactions set amount = amount + 1.37 where id = any(${sql.param(await someIds(5))}::int[])`);
      if (op === 2) await db.execute(sql`update transactions set status = case when status = 0 then 1 else 0 end where type = 'expense' and id = any(${sql.param(await someIds(8))}::int[])`);
      if (op === 3) await db.execute(sql`update transactions set transaction_date = transaction_date - interval '40 days' where id = any(${sql.param(await someIds(4))}::int[])`);
      if (op === 4) await db.execute(sql`update transactions set account_id = ${pick(owners).id}, object_id = null where id = any(${sql.param(await someIds(3))}::int[])`);
      if (op === 5) await db.execute(sql`delete from transactions where id = any(${sql.param(await someIds(6))}::int[])`);
      // Edits of what no balance is made of change no kept balance.
      await db.execute(sql`update transactions set internal_notes = 'seen' where id = any(${sql.param(await someIds(3))}::int[])`);

      // The kept balance of every row against the on-the-spot running sum.
      const wrong = await db.execute(sql`
        select t.id from transactions t join (
          select id, sum(case when type = 'income' then amount when status = 1 or status is null then -amount else 0 end)
                   over (partition by account_id order by transaction_date, id) as b
          from transactions) s on s.id = t.id
        where t.balance is distinct from s.b`);
      expect(wrong.rows).toEqual([]);

      // Random filters and pages (and the whole statement, as the download reads it) against the oracle.
      for (let k = 0; k < 12; k++) {
        const o = pick(owners);
        const f: TStatementFilter = {
          type: rnd() < 0.3 ? pick(['income', 'expense'] as const) : undefined,
          paymentMethod: rnd() < 0.3 ? pick([1, 2]) : undefined,
          categoryId: rnd() < 0.2 ? pick([1, 2, 21, 22]) : undefined,
          unpaidOnly: rnd() < 0.2,
          objectId: rnd() < 0.3 ? pick(o.props) : undefined,
        };
        const [limit, offset] = rnd() < 0.2 ? [null, 0] : [pick([5, 10, 25]), Math.floor(rnd() * 4) * 5];
        const expected = (await db.execute(oracleSql(o.id, f, limit, offset))).rows;
        const got = (await statementRows(db, o.id, f, tz, limit, offset)).map((r) => ({ id: r.id, transaction_date: r.transaction_date, amount: r.amount, balance: r.balance }));
        expect(got).toEqual(expected);
      }
    }
    // What the statement's page shows through the API is the oracle's page too.
    const o = owners[0]!;
    const page = await admin.get(`/api/transactions?accountId=${o.id}&type=expense&perPage=10&currentPage=2`);
    expect(page.statusCode).toBe(200);
    const items = (page.json() as { items: { id: number; balance: string }[] }).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((i) => ({ id: i.id, balance: i.balance }))).toEqual(
      (await db.execute(oracleSql(o.id, { type: 'expense', unpaidOnly: false }, 10, 10))).rows.map((r) => ({ id: r.id, balance: r.balance })),
    );
  });

  it('is right after one transaction that adds, moves and deletes rows of several accounts, and after a balance write that failed under a savepoint', async () => {
    const [a, b] = await Promise.all([owner(20), owner(21)]);
    const wrongRows = async () =>
      (
        await db.execute(sql`
          select t.id from transactions t join (
            select id, sum(case when type = 'income' then amount when status = 1 or status is null then -amount else 0 end)
                     over (partition by account_id order by transaction_date, id) as b
            from transactions) s on s.id = t.id
          where t.balance is distinct from s.b`)
      ).rows;
    // A balance write that fails when asked to (a stand-in for a deadlock or a timeout inside the triggers' own update).
    await pool.query(`create function test_fail_balance() returns trigger language plpgsql as $$
      begin
        if current_setting('test.fail_balance', true) = 'on' and new.balance is distinct from old.balance then raise exception 'balance write failed'; end if;
        return new;
      end $$`);
    await pool.query(`create trigger test_fail_balance before update on transactions for each row execute function test_fail_balance()`);
    const c = await pool.connect();
    try {
      await c.query('begin');
      const ids = (
        await c.query<{ id: number }>(
          `insert into transactions (account_id, type, amount, transaction_date, status) values
             ($1, 'income', 100, '2026-03-01 10:00+02', null), ($1, 'expense', 30, '2026-03-02 10:00+02', 1), ($1, 'income', 7, '2026-03-03 10:00+02', null),
             ($2, 'income', 50, '2026-03-01 11:00+02', null), ($2, 'expense', 20, '2026-03-04 11:00+02', 1) returning id`,
          [a.id, b.id],
        )
      ).rows.map((r) => Number(r.id));
      // Moved to the other account, back-dated, then one deleted: all in the same transaction.
      await c.query(`update transactions set account_id = $1, transaction_date = '2026-02-01 09:00+02' where id = $2`, [b.id, ids[1]]);
      await c.query(`delete from transactions where id = $1`, [ids[2]]);
      // A back-dated edit whose balance write fails: rolled back to the savepoint, nothing of it kept.
      await c.query(`savepoint s`);
      await c.query(`set local test.fail_balance = 'on'`);
      await expect(c.query(`update transactions set amount = 90 where id = $1`, [ids[0]])).rejects.toThrow(/balance write failed/);
      await c.query(`rollback to savepoint s`);
      // The triggers' own-write mark went with it: the next edit is summed again.
      await c.query(`update transactions set transaction_date = '2026-01-15 09:00+02' where id = $1`, [ids[4]]);
      await c.query('commit');
    } finally {
      await c.query('rollback').catch(() => {});
      c.release();
      await pool.query(`drop trigger test_fail_balance on transactions; drop function test_fail_balance()`);
    }
    expect(await wrongRows()).toEqual([]);
    const balances = (await db.execute(sql`select account_id, amount::text, balance::text from transactions where account_id in (${a.id}, ${b.id}) order by account_id = ${a.id} desc, transaction_date, id`)).rows;
    // The first account's rows first, whichever was made first.
    expect(balances).toEqual([
      { account_id: a.id, amount: '100.00', balance: '100.00' },
      { account_id: b.id, amount: '20.00', balance: '-20.00' },
      { account_id: b.id, amount: '30.00', balance: '-50.00' },
      { account_id: b.id, amount: '50.00', balance: '0.00' },
    ]);
  });

  it('two people editing two rows of one statement at once: the second waits for the first, neither fails', async () => {
    const o = await owner(10);
    const [older, newer] = (
      await db.execute(sql`insert into transactions (account_id, type, amount, transaction_date) values (${o.id}, 'income', 10, '2026-01-01 10:00+02'), (${o.id}, 'income', 20, '2026-02-01 10:00+02') returning id`)
    ).rows.map((r) => Number(r.id));
    const signal = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };
    const aLocked = signal();
    const goA = signal();
    const goB = signal();
    let aPid = 0;
    let bPid = 0;
    let bLocked = false;
    let aDone = false;
    // Each as the payments' edit does: the statement locked first, then its row, then the change.
    const editA = db.transaction(async (tx) => {
      aPid = Number((await tx.execute(sql`select pg_backend_pid() as p`)).rows[0]!.p);
      await lockStatementOf(tx, older!);
      await tx.execute(sql`select id from transactions where id = ${older!} for update`);
      aLocked.resolve();
      await goA.promise;
      // The older row's change rewrites the newer row's balance.
      await tx.execute(sql`update transactions set amount = amount + 1 where id = ${older!}`);
    }).finally(() => (aDone = true));
    await aLocked.promise;
    const editB = db.transaction(async (tx) => {
      bPid = Number((await tx.execute(sql`select pg_backend_pid() as p`)).rows[0]!.p);
      await lockStatementOf(tx, newer!);
      await tx.execute(sql`select id from transactions where id = ${newer!} for update`);
      bLocked = true;
      await goB.promise;
      await tx.execute(sql`update transactions set amount = amount + 2 where id = ${newer!}`);
    });
    const waitingOnALock = async (pid: number) => pid > 0 && (await pool.query(`select wait_event_type from pg_stat_activity where pid = $1`, [pid])).rows[0]?.wait_event_type === 'Lock';
    // B holds its row, or waits for the statement's lock A holds.
    await expect.poll(async () => bLocked || (await waitingOnALock(bPid)), { timeout: 10_000 }).toBe(true);
    goA.resolve();
    // A is done, or waits for B's row.
    await expect.poll(async () => aDone || (await waitingOnALock(aPid)), { timeout: 10_000 }).toBe(true);
    goB.resolve();
    const outcome = await Promise.allSettled([editA, editB]);
    expect(outcome.map((x) => (x.status === 'rejected' ? String(x.reason) : 'stored'))).toEqual(['stored', 'stored']);
    expect((await db.execute(sql`select amount::text, balance::text from transactions where account_id = ${o.id} order by transaction_date, id`)).rows).toEqual([
      { amount: '11.00', balance: '11.00' },
      { amount: '22.00', balance: '33.00' },
    ]);
  });

  it('is right when two people add to the same statement at once: the second waits for the first', async () => {
    const o = await owner(9);
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('begin');
      await second.query('begin');
      await first.query(`insert into transactions (account_id, type, amount, transaction_date) values ($1, 'income', 100, '2026-02-01 10:00+02')`, [o.id]);
      // The second's trigger waits for the first's lock on the account, then sums with the first's row in.
      const waiting = second.query(`insert into transactions (account_id, type, amount, transaction_date) values ($1, 'income', 50, '2026-01-01 10:00+02')`, [o.id]);
      await first.query('commit');
      await waiting;
      await second.query('commit');
    } finally {
      first.release();
      second.release();
    }
    const rows = (await db.execute(sql`select amount::text, balance::text from transactions where account_id = ${o.id} order by transaction_date, id`)).rows;
    expect(rows).toEqual([
      { amount: '50.00', balance: '50.00' },
      { amount: '100.00', balance: '150.00' },
    ]);
  });
});
