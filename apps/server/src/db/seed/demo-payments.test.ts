import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDemoApp } from '../../../test/demo-app.ts';
import { seedDemo } from './demo.ts';

describe('demo payments', async () => {
  const { t, user: admin, q } = await createDemoApp('admin');

  it('give demo owners statements with rent in, bills out and this month’s bills unpaid', async () => {
    const [c] = await q<{ accounts: number; n: number; unpaid: number; incomes: number }>(sql`select count(distinct account_id)::int as accounts, count(*)::int as n,
      count(*) filter (where type = 'expense' and status = 0)::int as unpaid, count(*) filter (where type = 'income')::int as incomes from transactions`);
    expect(c!.accounts).toBeGreaterThan(5);
    expect(c!.n).toBeGreaterThan(100);
    expect(c!.incomes).toBeGreaterThan(30);
    expect(c!.unpaid).toBeGreaterThan(0);
    // Nothing was paid on a day still to come.
    const [later] = await q<{ n: number }>(sql`select count(*)::int as n from transactions where payment_date > (now() at time zone 'Europe/Athens')::date`);
    expect(later!.n).toBe(0);
    const list = (await admin.get('/api/transactions/accounts')).json();
    expect(list.totalRows).toBe(c!.accounts);
    const st = (await admin.get(`/api/transactions?accountId=${list.items[0].id}`)).json();
    expect(st.items.length).toBeGreaterThan(0);
    expect(st.items[0].balance).toBe(st.balance);
  });

  it('is loaded once', async () => {
    const before = await q<{ n: number }>(sql`select count(*)::int as n from transactions`);
    await seedDemo(t.app);
    expect(await q<{ n: number }>(sql`select count(*)::int as n from transactions`)).toEqual(before);
  });
});
