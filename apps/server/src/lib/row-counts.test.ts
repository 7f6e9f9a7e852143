import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, json } from '../../test/harness.ts';

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
  };
  const [real] = (
    await t.db.execute<{ leads: number; objects: number; alerts: number; unread: number }>(sql`select (select count(*)::int from leads where not draft) as leads,
      (select count(*)::int from objects where not draft) as objects, (select count(*)::int from alerts) as alerts,
      (select count(*)::int from alerts where readed_on is null) as unread`)
  ).rows;
  return { reported, real: { ...real!, badge: real!.unread } };
}

const addAlerts = async (n: number) =>
  (await t.db.execute<{ id: number }>(sql`insert into alerts (date, source, content) select now(), 'Test', 'Alert ' || g from generate_series(1, ${n}) g returning id`)).rows.map((r) => Number(r.id));

describe('list totals kept by the database (leads, objects, alerts)', () => {
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

  it('are counted again from the rows after a load that skipped the triggers', async () => {
    await t.db.execute(sql`update row_counts set n = n + 1000`);
    expect((await totals()).reported.leads).not.toBe((await totals()).real.leads);
    await t.db.execute(sql`select crm_row_counts_recount()`);
    const now = await totals();
    expect(now.reported).toEqual(now.real);
  });
});
