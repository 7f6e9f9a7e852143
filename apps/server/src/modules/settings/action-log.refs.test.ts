// The records an action-log entry's data names, read in the app from the page's rows (refsInData)
// against the JSON paths that read them in SQL before: the same numbers for every kind of record,
// on the shapes of data the app writes and on random ones.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { REF_IDS_SQL, entryRefs } from './action-log.service.ts';
import { seededRandom } from '../../../test/seeded.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { db } = t;

const { SEED, rand, pick } = seededRandom('LOG_TEST_SEED');

const KEYS = ['accountId', 'keyAccountId', 'sourceId', 'objectId', 'objects', 'demandId', 'leadId', 'dealId', 'viewingId', 'userId', 'branchId', 'field', 'from', 'to', 'relation', 'accounts', 'results', 'other'];
const leaf = () => pick<unknown>([1, 7, 42, 2147483647, 2147483648, 0, -3, 2.5, '12', null, true, pick(KEYS)]);
function randomValue(depth: number): unknown {
  if (depth > 3 || rand() < 0.45) return leaf();
  if (rand() < 0.4) return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 4); i >= 0; i--) o[pick(KEYS)] = randomValue(depth + 1);
  return o;
}

/** What the app writes (decision 0xx's logs): a deal's parties, a viewing's results, the single-field editor, a lead's offered list, keys, bookings. */
const WRITTEN: [string, unknown][] = [
  ['Deal', { accounts: [{ accountId: 3, relation: 1 }, { accountId: 4, relation: 2 }], objectId: 5, demandId: 6 }],
  ['Viewing', { results: [{ objectId: 8, result: 2 }, { objectId: 9, result: 4 }], demandId: 10 }],
  ['Object', { field: 'ownerId', from: 11, to: 12 }],
  ['Account', { field: 'sourceId', from: 13, to: 14 }],
  ['Reservation', { sourceId: 3, objectId: 15 }],
  ['Client', { sourceId: 16 }],
  ['Lead', { objects: [17, 18, 19], accountId: 20 }],
  ['Object', { keyAccountId: { from: 21, to: 22 }, key: { accountId: 23 } }],
  ['User', { userId: 24, branchId: { from: 1, to: 2 } }],
  ['Deal', [{ field: 'dealId', from: 25 }]],
  ['Lead', { leadId: [26, 27], viewingId: 28, dealId: 29 }],
];

describe('the records an entry names', () => {
  it('are read from the rows as the JSON paths read them in SQL', async () => {
    const entries: [string, unknown][] = [...WRITTEN];
    for (let i = 0; i < 400; i++) entries.push([pick(['Deal', 'Account', 'Owner', 'Reservation', 'Object', 'Lead']), randomValue(0)]);
    const ids: number[] = [];
    for (const [entity, data] of entries) {
      const [r] = (await db.execute<{ id: number }>(sql`insert into action_log (action, entity, data) values ('Update', ${entity}, ${JSON.stringify(data)}::jsonb) returning id`)).rows;
      ids.push(r!.id);
    }
    const kinds = Object.keys(REF_IDS_SQL) as (keyof typeof REF_IDS_SQL)[];
    const res = await db.execute(sql`
      select p.id, p.entity, p.data, ${sql.join(kinds.map((k) => sql`array(select distinct x from (${REF_IDS_SQL[k]}) s(x) order by x) as ${sql.identifier(k)}`), sql`, `)}
      from action_log p where p.id = any(${sql.param(ids)}::int[]) order by p.id`);
    for (const row of res.rows as Record<string, unknown>[]) {
      const mine = entryRefs(row.entity as string, row.data);
      for (const k of kinds) {
        expect([...mine[k]].sort((a, b) => a - b), `${k} of ${row.entity} ${JSON.stringify(row.data)}, seed ${SEED}`).toEqual((row[k] as number[]).map(Number));
      }
    }
  });
});
