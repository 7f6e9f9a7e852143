import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, json } from '../../test/harness.ts';
import { seededRandom } from '../../test/seeded.ts';

const t = await createTestApp();
const admin = await t.user({ roles: ['admin'] });

/** What the lists and the badge report, next to real counts over the tables (drafts are in no list: lib/drafts.ts). */
async function totals() {
  const alertList = await json(admin.post('/api/alert/list', { perPage: 5, currentPage: 1 }));
  const reported = {
    leads: (await json(admin.post('/api/lead/search', { perPage: 5, currentPage: 1 }))).totalRows as number,
    objects: (await json(admin.post('/api/object', { perPage: 5, currentPage: 1 }))).totalRows as number,
    alerts: alertList.totalRows as number,
    unread: alertList.unreadCount as number,
    badge: (await json(admin.get('/api/Alert/unreadCount'))) as number,
    viewings: (await json(admin.post('/api/Viewing/search', { perPage: 5, currentPage: 1 }))).totalRows as number,
    keys: (await json(admin.get('/api/ObjectKeys?perPage=5&currentPage=1'))).totalRows as number,
  };
  const [real] = (
    await t.db.execute<{ leads: number; objects: number; alerts: number; unread: number; viewings: number; keys: number }>(sql`select (select count(*)::int from leads where not draft) as leads,
      (select count(*)::int from objects where not draft) as objects, (select count(*)::int from alerts) as alerts,
      (select count(*)::int from alerts where readed_on is null) as unread,
      (select count(*)::int from viewings) as viewings, (select count(*)::int from object_keys) as keys`)
  ).rows;
  return { reported, real: { ...real!, badge: real!.unread } };
}

const addAlerts = async (n: number) =>
  (await t.db.execute<{ id: number }>(sql`insert into alerts (date, source, content) select now(), 'Test', 'Alert ' || g from generate_series(1, ${n}) g returning id`)).rows.map((r) => Number(r.id));

describe('list totals kept by the database (leads, objects, alerts, viewings, keys)', () => {
  it('stay exact through adds, bulk inserts, reads, unreads and deletes', async () => {
    let now = await totals();
    expect(now.reported).toEqual(now.real);

    // Through the API and in bulk.
    const lead = (await json(admin.post('/api/lead/add', {}))).id as number;
    const object = (await json(admin.get('/api/object/add'))).id as number;
    await t.db.execute(sql`insert into leads (start_date) select current_date from generate_series(1, 3)`);
    const alerts = await addAlerts(4);
    now = await totals();
    expect(now.reported).toEqual(now.real);
    // The lead and the property opened with Add count once something is entered in them.
    const before = now.reported;
    await json(admin.post('/api/lead/update', { id: lead, version: 1, description: 'Calls after six' }));
    await json(admin.post('/api/object/update', { id: object, version: 1, title: 'Flat by the park' }));
    now = await totals();
    expect(now.reported).toEqual(now.real);
    expect(now.reported).toMatchObject({ leads: before.leads + 1, objects: before.objects + 1 });

    // Opening an alert reads it; Mark as unread brings it back; the badge follows.
    await json(admin.get(`/api/alert/${alerts[0]}`));
    await json(admin.get(`/api/alert/${alerts[1]}`));
    now = await totals();
    expect(now.reported).toEqual(now.real);
    await json(admin.post(`/api/alert/mark-as-unread/${alerts[1]}`));
    now = await totals();
    expect(now.reported).toEqual(now.real);

    // Deletes, one by the API and many at once.
    await json(admin.del(`/api/lead/${lead}`));
    await json(admin.del(`/api/object/${object}`));
    await json(admin.del(`/api/alert/${alerts[2]}`));
    await t.db.execute(sql`delete from alerts where id = any(${sql.param(alerts)}::int[])`);
    now = await totals();
    expect(now.reported).toEqual(now.real);
  });

  it('keep the viewings and the keys exact after random changes, through the API and in bulk (decision 121)', async () => {
    const { SEED, pick, between } = seededRandom('ROW_COUNTS_TEST_SEED');
    const all = async (table: string) => (await t.db.execute<{ id: number }>(sql`select id from ${sql.identifier(table)} order by id`)).rows.map((r) => Number(r.id));
    /** A property of its own, with something entered (not a draft). */
    const property = async () => {
      const id = (await json(admin.get('/api/object/add'))).id as number;
      await t.db.execute(sql`update objects set draft = false, title = ${`Flat ${id}`} where id = ${id}`);
      return id;
    };
    const properties = [await property(), await property()];
    for (let step = 0; step < 40; step++) {
      const op = between(0, 8);
      if (op === 0) {
        const res = await admin.post('/api/Viewing/update', { dateOfViewing: `2030-06-${String(between(1, 28)).padStart(2, '0')}T11:00:00`, results: [{ objectId: pick(properties), result: null }] });
        expect(res.statusCode, `${res.body} (seed ${SEED})`).toBe(200);
      } else if (op === 1) {
        await t.db.execute(sql`insert into viewings (date_of_viewing) select now() + g * interval '1 day' from generate_series(1, ${between(1, 5)}) g`);
      } else if (op === 2) {
        const ids = await all('viewings');
        if (ids.length) expect((await admin.del(`/api/Viewing/${pick(ids)}`)).statusCode, `seed ${SEED}`).toBe(200);
      } else if (op === 3) {
        const ids = await all('viewings');
        await t.db.execute(sql`delete from viewings where id = any(${sql.param(ids.filter(() => between(0, 2) === 0))}::int[])`);
      } else if (op === 4) {
        const res = await admin.post('/api/ObjectKeys/edit', { objectId: pick(properties), received: '2026-03-01' });
        expect(res.statusCode, `${res.body} (seed ${SEED})`).toBe(200);
      } else if (op === 5) {
        await t.db.execute(sql`insert into object_keys (object_id, description) select ${pick(properties)}, 'Key ' || g from generate_series(1, ${between(1, 4)}) g`);
      } else if (op === 6) {
        const ids = await all('object_keys');
        if (ids.length) expect((await admin.del(`/api/ObjectKeys/${pick(ids)}`)).statusCode, `seed ${SEED}`).toBe(200);
      } else if (op === 7) {
        // A property deleted with its keys (the keys go by the foreign key's cascade).
        const gone = properties.splice(between(0, properties.length - 1), 1)[0]!;
        await t.db.execute(sql`delete from viewing_objects where object_id = ${gone}`);
        await t.db.execute(sql`delete from objects where id = ${gone}`);
        properties.push(await property());
      } else {
        // Changes that do not add or remove a row count nothing.
        await t.db.execute(sql`update viewings set result = 1 where id = (select max(id) from viewings)`);
        await t.db.execute(sql`update object_keys set description = 'moved' where id = (select min(id) from object_keys)`);
      }
      const now = await totals();
      expect(now.reported, `step ${step}, change ${op} (seed ${SEED})`).toEqual(now.real);
    }
  });

  it('are counted again from the rows after a load that skipped the triggers', async () => {
    await t.db.execute(sql`update row_counts set n = n + 1000`);
    expect((await totals()).reported.leads).not.toBe((await totals()).real.leads);
    expect((await totals()).reported.viewings).not.toBe((await totals()).real.viewings);
    expect((await totals()).reported.keys).not.toBe((await totals()).real.keys);
    await t.db.execute(sql`select crm_row_counts_recount()`);
    const now = await totals();
    expect(now.reported).toEqual(now.real);
  });
});
