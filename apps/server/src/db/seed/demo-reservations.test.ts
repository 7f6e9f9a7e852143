import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDemoApp } from '../../../test/demo-app.ts';

describe('demo reservations', async () => {
  const { user: agent, q } = await createDemoApp('employee');

  it('give the short-let properties a season of stays, past, present and ahead, none sharing a night', async () => {
    const [c] = await q<Record<string, number>>(sql`select
      (select count(*)::int from reservations) as n,
      (select count(*)::int from reservations where check_out <= current_date) as past,
      (select count(*)::int from reservations where check_in > current_date) as ahead,
      (select count(distinct reservation_stage)::int from reservations) as stages,
      (select count(*)::int from objects where for_short_rent and website_code is null) as uncoded`);
    expect(c!.n).toBeGreaterThan(20);
    expect(c!.past).toBeGreaterThan(5);
    expect(c!.ahead).toBeGreaterThan(5);
    expect(c!.stages).toBeGreaterThan(4);
    expect(c!.uncoded).toBe(0);
    const res = await agent.post('/api/Reservation/search', { dateFilterType: 3, startDate: null, endDate: null, perPage: 5 });
    expect(res.statusCode).toBe(200);
    expect(res.json().totalRows).toBe(c!.n);
    expect(Number(res.json().sums.total)).toBeGreaterThan(0);
  });
});
