import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../test/harness.ts';
import { objects } from '../db/schema/index.ts';
import { IDS_AS_PLACEHOLDERS, idAmong, inIdOrder } from './paging.ts';

const t = await createTestApp();

describe("a page's rows by their ids", () => {
  it('are read by one array parameter, so "Show all" past 65,535 ids (the protocol\'s limit of parameters) still answers, in the page\'s order', async () => {
    const made = (await t.db.execute(sql`insert into ${objects} (title) select 'Flat ' || i from generate_series(1, 3) i returning id`)).rows.map((r) => Number(r.id));
    // 70,000 ids, most of them of no row, the three made among them in another order.
    const ids = [...Array.from({ length: 69997 }, (_, i) => 2_000_000_000 - i), made[2]!, made[0]!, made[1]!];
    const rows = (await t.db.execute(sql`select id, title from ${objects} where ${idAmong(objects.id, ids)}`)).rows as { id: number; title: string }[];
    expect(inIdOrder(ids, rows, (r) => Number(r.id)).map((r) => r.title)).toEqual(['Flat 3', 'Flat 1', 'Flat 2']);
  });

  it('reads a page of up to IDS_AS_PLACEHOLDERS ids by one placeholder each (a statement prepared once a connection), and an empty page as none', async () => {
    const made = (await t.db.execute(sql`insert into ${objects} (title) select 'House ' || i from generate_series(1, 3) i returning id`)).rows.map((r) => Number(r.id));
    const ids = [made[1]!, made[2]!, made[0]!];
    const statement = t.db.select({ id: objects.id }).from(objects).where(idAmong(objects.id, ids)).toSQL();
    expect(statement.sql).not.toMatch(/\bany\b/i);
    expect(statement.params).toEqual(ids);
    const rows = await t.db.select({ id: objects.id }).from(objects).where(idAmong(objects.id, ids));
    expect(inIdOrder(ids, rows, (r) => r.id).map((r) => r.id)).toEqual([made[1], made[2], made[0]]);
    expect(await t.db.select({ id: objects.id }).from(objects).where(idAmong(objects.id, []))).toEqual([]);
    const long = t.db.select({ id: objects.id }).from(objects).where(idAmong(objects.id, Array.from({ length: IDS_AS_PLACEHOLDERS + 1 }, (_, i) => i + 1))).toSQL();
    expect(long.sql).toMatch(/= any\(\$1::int\[\]\)/);
  });
});
