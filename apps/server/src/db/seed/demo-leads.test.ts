import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDemoApp } from '../../../test/demo-app.ts';
import { seedDemo } from './demo.ts';

describe('demo leads and viewings', async () => {
  const { t, user: agent, q } = await createDemoApp('employee');

  it('give the demo clients requests around real prices, with offered properties and viewings past and planned', async () => {
    const [c] = await q<Record<string, number>>(sql`select
      (select count(*)::int from leads) as leads,
      (select count(*)::int from leads where account_id is null) as orphans,
      (select count(*)::int from leads where coalesce(stage, 0) not in (6, 7)) as open,
      (select count(*)::int from lead_objects) as offered,
      (select count(*)::int from viewings where date_of_viewing < now()) as past,
      (select count(*)::int from viewings where date_of_viewing >= now()) as planned,
      (select count(*)::int from viewings v where not exists (select 1 from viewing_objects vo where vo.viewing_id = v.id)) as empty,
      (select count(*)::int from assignments where parent = 3) as assigned,
      (select count(*)::int from viewing_objects where comment is not null) as commented,
      (select count(*)::int from viewing_objects vo join viewings v on v.id = vo.viewing_id where vo.comment is not null and v.date_of_viewing >= now()) as commented_ahead`);
    expect(c!.leads).toBeGreaterThan(50);
    expect(c!.orphans).toBe(0);
    expect(c!.open).toBeGreaterThan(30);
    expect(c!.offered).toBeGreaterThan(30);
    expect(c!.past).toBeGreaterThan(5);
    expect(c!.planned).toBeGreaterThan(5);
    expect(c!.empty).toBe(0);
    expect(c!.assigned).toBe(c!.past + c!.planned);
    // What clients said of the properties they saw; nothing yet of those still to be seen.
    expect(c!.commented).toBeGreaterThan(5);
    expect(c!.commented_ahead).toBe(0);
  });

  it('leaves each open demo lead with properties that match it', async () => {
    const [lead] = await q<{ id: number }>(sql`select id from leads where coalesce(stage, 0) = 1 order by id limit 1`);
    const res = await agent.get(`/api/lead/${lead!.id}/matches`);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.length).toBeGreaterThan(0);
  });

  it('is loaded once', async () => {
    const before = await q<{ n: number }>(sql`select count(*)::int as n from leads`);
    await seedDemo(t.app);
    expect(await q<{ n: number }>(sql`select count(*)::int as n from leads`)).toEqual(before);
  });
});
