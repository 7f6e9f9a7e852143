// The keys register's page without a holder (decision 121): the page's ids, the keys' rows and the
// total in one statement. Compared with the statements it replaced (the page's ids by number, date
// and id with OFFSET; the rows of those ids; the total counted, or kept for all the keys), for
// random pages, page sizes, number prefixes and properties, on random keys after random changes.
// The seed is in every failure message.
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { seededRandom } from '../../../test/seeded.ts';
import { objectKeys, objects } from '../../db/schema/index.ts';
import { refPrefix } from './objects.lists.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const { SEED, pick, chance, between } = seededRandom('KEY_PAGES_SEED');

const column = async (q: ReturnType<typeof sql>) => (await db.execute<{ id: number }>(q)).rows.map((r) => Number(r.id));

/** The ids shown and the total, as the statements before decision 121 gave them. */
async function before(perPage: number, currentPage: number, prefix?: string, objectId?: number) {
  const where = objectId != null ? eq(objectKeys.objectId, objectId) : prefix ? refPrefix(prefix) : undefined;
  const ids = (
    await db
      .select({ id: objectKeys.id })
      .from(objectKeys)
      .innerJoin(objects, eq(objects.id, objectKeys.objectId))
      .where(where)
      .orderBy(objects.referenceNumber, sql`${objectKeys.received} desc nulls last`, objectKeys.id)
      .limit(perPage)
      .offset((currentPage - 1) * perPage)
  ).map((r) => r.id);
  const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(objectKeys).innerJoin(objects, eq(objects.id, objectKeys.objectId)).where(where)) as [{ n: number }];
  return { ids, totalRows: n };
}

const day = () => (chance(0.2) ? null : `2026-0${between(1, 3)}-${String(between(1, 3)).padStart(2, '0')}`);

async function change() {
  const props = await column(sql`select id from objects order by id`);
  const keys = await column(sql`select id from object_keys order by id`);
  switch (between(0, 3)) {
    case 0:
      await db.execute(sql`insert into object_keys (object_id, received) values (${pick(props)}, ${day()})`);
      break;
    case 1:
      if (keys.length) await db.execute(sql`delete from object_keys where id = ${pick(keys)}`);
      break;
    case 2:
      if (keys.length) await db.execute(sql`update object_keys set received = ${day()} where id = ${pick(keys)}`);
      break;
    case 3:
      await db.execute(sql`insert into objects (title) values ('Flat')`);
      break;
  }
}

describe(`the keys register's page (KEY_PAGES_SEED=${SEED})`, () => {
  it('lists the same keys, in the same order, with the same total, as the statements it replaced', async () => {
    const props = await column(sql`insert into objects (title) select 'Flat ' || g from generate_series(1, 30) g returning id`);
    for (let i = 0; i < 90; i++) await db.execute(sql`insert into object_keys (object_id, received) values (${pick(props)}, ${day()})`);
    for (let round = 0; round < 60; round++) {
      await change();
      const perPage = pick([5, 10, 20]);
      const currentPage = between(1, 12);
      const refs = (await db.execute<{ r: number }>(sql`select reference_number as r from objects order by random() limit 1`)).rows.map((r) => String(r.r));
      const kind = between(0, 2);
      const prefix = kind === 1 ? refs[0]!.slice(0, between(1, refs[0]!.length)) : undefined;
      const objectId = kind === 2 ? pick(await column(sql`select object_id as id from object_keys union select id from objects order by 1`)) : undefined;
      const query = `perPage=${perPage}&currentPage=${currentPage}${prefix ? `&referenceNumber=${prefix}` : ''}${objectId != null ? `&objectId=${objectId}` : ''}`;
      const res = await admin.get(`/api/ObjectKeys?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const now = res.json() as { items: { id: number }[]; totalRows: number };
      expect({ ids: now.items.map((k) => k.id), totalRows: now.totalRows }, `round ${round}, ${query} (seed ${SEED})`).toEqual(await before(perPage, currentPage, prefix, objectId));
    }
  });
});
