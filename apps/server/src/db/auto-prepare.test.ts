import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { autoPrepare, isPlanStable } from './auto-prepare.ts';

/** One connection, as the app's pools use them, with room for two prepared statements. */
const pool = new pg.Pool({ connectionString: inject('serverUrl'), max: 1 });
pool.on('connect', (client) => autoPrepare(client, { maxPrepared: 2 }));
afterAll(() => pool.end());

const prepared = async () =>
  (await pool.query<{ statement: string }>('select statement from pg_prepared_statements order by prepare_time')).rows.map((r) => r.statement);

describe('auto-prepared statements', () => {
  it('runs a statement as a prepared one from its second use on, with the right answers each time', async () => {
    const text = 'select $1::int + 1 as n';
    const answers = [];
    for (const v of [1, 2, 3]) answers.push((await pool.query({ text, values: [v] })).rows[0].n);
    expect(answers).toEqual([2, 3, 4]);
    expect(await prepared()).toEqual([text]);
  });

  it('keeps at most the set number, letting the least recently used go, and prepares it again when it comes back', async () => {
    const a = 'select $1::text as a';
    const b = 'select $1::text as b';
    for (const text of [a, a, b, b]) await pool.query({ text, values: ['x'] });
    // Three were used twice (the one above, a, b): the oldest went, the server holds two.
    expect(await prepared()).toEqual([a, b]);
    expect((await pool.query({ text: 'select $1::int + 1 as n', values: [41] })).rows[0].n).toBe(42);
    expect((await pool.query({ text: 'select $1::int + 1 as n', values: [9] })).rows[0].n).toBe(10);
    expect(await prepared()).toEqual([b, 'select $1::int + 1 as n']);
  });

  it('a statement that fails keeps failing with its own error and leaves the connection working', async () => {
    const text = 'select 1 / $1::int as q';
    for (let i = 0; i < 3; i++) await expect(pool.query({ text, values: [0] })).rejects.toThrow(/division by zero/);
    expect((await pool.query({ text, values: [1] })).rows[0].q).toBe(1);
    expect((await pool.query({ text: 'select $1::text as a', values: ['still here'] })).rows[0].a).toBe('still here');
  });

  it('leaves a statement whose plan depends on its values unprepared', async () => {
    const text = 'select n from generate_series(1, 100) n where n > $1 order by n limit $2';
    for (const v of [1, 50, 98]) await pool.query({ text, values: [v, 2] });
    expect(await prepared()).not.toContain(text);
    // A record by id, with its parts in subqueries (ordered inside), is prepared.
    expect(isPlanStable('select a.*, (select string_agg(r, \' \' order by r) from refs where owner = a.id and d >= current_date) from accounts a where a.id = $1 limit $2')).toBe(true);
    expect(isPlanStable('select id, name from files where parent_id = $1 order by position')).toBe(true);
    expect(isPlanStable('select id from deals d where d.object_id = $1 order by d.created_on desc limit 100')).toBe(true);
    for (const list of [
      'select id from t where k = $1 order by id limit $2',
      'select id from t order by id limit 20 offset $1',
      'select id from t where id = any($1)',
      "select id from t where (name like $1 || '%')",
      'select count(*)::int from t where (k = $1)',
    ])
      expect(isPlanStable(list), list).toBe(false);
  });

  it('works inside a transaction, and a rollback keeps the statements', async () => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('create temporary table t_auto (n int) on commit drop');
      for (const n of [1, 2, 3]) await client.query({ text: 'insert into t_auto values ($1)', values: [n] });
      expect((await client.query({ text: 'select sum(n)::int as s from t_auto', values: [] })).rows[0].s).toBe(6);
      await client.query('rollback');
      expect((await client.query({ text: 'select $1::text as b', values: ['after'] })).rows[0].b).toBe('after');
    } finally {
      client.release();
    }
  });
});
