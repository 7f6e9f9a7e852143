// The Latin readings of typed text (latinMatch) beside a `like` of the same text on the same column:
// a reference number, a phone's digits or any ASCII text without a letter leaves out its reading as
// typed (decision 116), which is the same pattern again. Compared with every reading kept, on random
// texts of digits, punctuation, Latin, Greek and signs that read as letters («©» is «(c)»), for random
// fragments. The seed is in every failure message.
import { describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTestApp } from '../../../test/harness.ts';
import { seededRandom } from '../../../test/seeded.ts';
import { containsPattern, latinMatch } from './accounts.sql.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { db } = t;
const { SEED, pick, between } = seededRandom('LATIN_READINGS_SEED');

// Digits, the Greeklish digits (3 is ξ, 8 is θ), ASCII signs, Latin and Greek letters, and signs
// whose normal form has letters.
const PIECES = ['0', '1', '2', '3', '8', '9', '33', '38', '-', '.', '/', '#', '+', ' ', 'ks', 'th', 'x', 'ch', 'ref', 'θ', 'ξ', 'Θέρμη', '©', '½', 'c', '(k)', '(c)'];
const FRAGMENT_PIECES = ['0', '1', '2', '3', '8', '9', '33', '-', '.', '/', '#', '+', 'ks', 'x', 'th', '©', 'c', '(k)'];
const text = (pieces: string[], n: number) => Array.from({ length: n }, () => pick(pieces)).join('');

const matched = async (where: SQL) => (await db.execute<{ id: number }>(sql`select id from latin_readings_texts where ${where} order by id`)).rows.map((r) => Number(r.id));
const both = (fragment: string, besidesContains: boolean) => {
  const latin = latinMatch(sql`body`, fragment, besidesContains);
  return sql`(body like ${containsPattern(fragment)} ${latin ? sql`or ${latin}` : sql``})`;
};

describe('the Latin readings beside the text as typed', () => {
  it('find the same rows with the reading as typed left out for ASCII text without a letter', async () => {
    await db.execute(sql`create table latin_readings_texts (id int primary key, body text not null)`);
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: i + 1, body: text(PIECES, between(3, 14)) }));
    // Half in the normal form alone, half with the Latin skeleton beside it (as the search texts keep names).
    await db.execute(sql`insert into latin_readings_texts select r.id, crm_search_norm(r.body) || case when r.id % 2 = 0 then ' ' || crm_latin_skeleton(r.body) else '' end
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(id int, body text)`);
    let fewer = 0;
    for (let i = 0; i < 150; i++) {
      const fragment = i % 3 === 0 ? rows[between(0, rows.length - 1)]!.body.slice(0, between(3, 6)) : text(FRAGMENT_PIECES, between(2, 5));
      if (fragment.trim().length < 3) continue;
      const all = await matched(both(fragment, false));
      expect(await matched(both(fragment, true)), `seed ${SEED}, fragment «${fragment}»`).toEqual(all);
      if (latinMatch(sql`body`, fragment, true) === undefined && latinMatch(sql`body`, fragment) !== undefined) fewer++;
    }
    // Some fragments had their only reading left out (the same pattern as typed): the comparison covered them.
    expect(fewer, `seed ${SEED}`).toBeGreaterThan(0);
  });

  it('keeps the Greeklish reading of the digits 3 and 8, and every reading of text with a letter', () => {
    const readings = (fragment: string, besides: boolean) => [...new Set((new PgDialect().sqlToQuery(latinMatch(sql`body`, fragment, besides) ?? sql``).params as unknown[]).filter((p) => typeof p === 'string'))];
    expect(readings('26291', true)).toEqual([]);
    expect(readings('26291', false)).toEqual(['26291']);
    expect(readings('2310', true)).toEqual(['2ks10']);
    expect(readings('x796', true)).toEqual(readings('x796', false));
    expect(readings('©12', true)).toEqual(readings('©12', false));
  });
});
