// The Viewings list without a comment (decision 121): the page's ids, the viewings' rows and the
// total in one statement. Compared with the statements it replaced (the page's ids by date and id
// with OFFSET, the rows of those ids, the total counted apart), for random pages, page sizes and
// filters (results, dates, a lead, a property, an agent, none), on random viewings after random
// changes. The seed is in every failure message.
import { describe, expect, it } from 'vitest';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { seededRandom } from '../../../test/seeded.ts';
import { viewings } from '../../db/schema/index.ts';
import { ASSIGNMENT_PARENT_VIEWING } from './viewings.service.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { db, app } = t;
const admin = await t.user({ roles: ['admin'] });
const { SEED, pick, chance, between } = seededRandom('VIEWING_PAGES_SEED');

const column = async (q: ReturnType<typeof sql>) => (await db.execute<{ id: number }>(q)).rows.map((r) => Number(r.id));
const day = (d: number) => `2030-06-${String(d).padStart(2, '0')}`;
const moment = () => (chance(0.15) ? null : `${day(between(1, 6))}T${String(between(8, 10)).padStart(2, '0')}:00:00`);

type Filter = { results?: number[]; dateOfViewingFrom?: string; dateOfViewingTill?: string; demandId?: number; objectId?: number; assigned?: number };

/** The ids shown and the total, as the statements before decision 121 gave them. */
async function before(f: Filter, perPage: number, currentPage: number) {
  const tz = app.config.timeZone;
  const at = (d: string) => sql`(${d}::date::timestamp at time zone ${tz})`;
  const next = (d: string) => sql`((${d}::date + 1)::timestamp at time zone ${tz})`;
  const where: SQL[] = [];
  if (f.results?.length) where.push(inArray(viewings.result, f.results));
  if (f.dateOfViewingFrom) where.push(sql`${viewings.dateOfViewing} >= ${at(f.dateOfViewingFrom)}`);
  if (f.dateOfViewingTill) where.push(sql`${viewings.dateOfViewing} < ${next(f.dateOfViewingTill)}`);
  if (f.demandId) where.push(eq(viewings.demandId, f.demandId));
  if (f.objectId) where.push(sql`exists (select 1 from viewing_objects vo where vo.viewing_id = ${viewings.id} and vo.object_id = ${f.objectId})`);
  if (f.assigned) where.push(sql`exists (select 1 from assignments s where s.parent = ${ASSIGNMENT_PARENT_VIEWING} and s.parent_id = ${viewings.id} and s.account_id = ${f.assigned})`);
  const cond = and(...where);
  const ids = (
    await db
      .select({ id: viewings.id })
      .from(viewings)
      .where(cond)
      .orderBy(sql`${viewings.dateOfViewing} desc nulls first`, sql`${viewings.id} desc`)
      .limit(perPage)
      .offset((currentPage - 1) * perPage)
  ).map((r) => r.id);
  const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(viewings).where(cond)) as [{ n: number }];
  return { ids, totalRows: n };
}

const [agent] = await column(sql`insert into accounts (first_name, last_name, is_employe) values ('Eleni', 'Agent', true) returning id`);
const [client] = await column(sql`insert into accounts (first_name, last_name, is_client) values ('Nikos', 'Client', true) returning id`);
const leadIds = await column(sql`insert into leads (account_id) select ${client} from generate_series(1, 3) returning id`);
const props = await column(sql`insert into objects (title) select 'Flat ' || g from generate_series(1, 4) g returning id`);

async function add() {
  const [v] = await column(sql`insert into viewings (date_of_viewing, demand_id, result) values (${moment()}::timestamp at time zone ${app.config.timeZone},
    ${chance(0.3) ? null : pick(leadIds)}, ${chance(0.3) ? null : between(1, 7)}) returning id`);
  await db.execute(sql`insert into viewing_objects (viewing_id, object_id, position) values (${v}, ${pick(props)}, 0)`);
  if (chance(0.5)) await db.execute(sql`insert into assignments (parent, parent_id, account_id) values (${ASSIGNMENT_PARENT_VIEWING}, ${v}, ${agent})`);
}

async function change() {
  const ids = await column(sql`select id from viewings order by id`);
  switch (between(0, 2)) {
    case 0:
      await add();
      break;
    case 1:
      if (ids.length) await db.execute(sql`delete from viewings where id = ${pick(ids)}`);
      break;
    case 2:
      if (ids.length) await db.execute(sql`update viewings set date_of_viewing = ${moment()}::timestamp at time zone ${app.config.timeZone} where id = ${pick(ids)}`);
      break;
  }
}

describe(`the Viewings list's page (VIEWING_PAGES_SEED=${SEED})`, () => {
  it('lists the same viewings, in the same order, with the same total, as the statements it replaced', async () => {
    for (let i = 0; i < 60; i++) await add();
    for (let round = 0; round < 60; round++) {
      await change();
      const f: Filter = {};
      if (chance(0.2)) f.results = [between(1, 7), between(1, 7)];
      if (chance(0.2)) f.dateOfViewingFrom = day(between(1, 4));
      if (chance(0.2)) f.dateOfViewingTill = day(between(2, 6));
      if (chance(0.15)) f.demandId = pick(leadIds);
      if (chance(0.15)) f.objectId = pick(props);
      if (chance(0.15)) f.assigned = agent;
      const perPage = pick([5, 10, 20]);
      const currentPage = between(1, 8);
      const res = await admin.post('/api/Viewing/search', { ...f, perPage, currentPage });
      expect(res.statusCode, res.body).toBe(200);
      const now = res.json() as { items: { id: number }[]; totalRows: number };
      expect({ ids: now.items.map((v) => v.id), totalRows: now.totalRows }, `round ${round}, ${JSON.stringify({ ...f, perPage, currentPage })} (seed ${SEED})`).toEqual(
        await before(f, perPage, currentPage),
      );
    }
  });
});
