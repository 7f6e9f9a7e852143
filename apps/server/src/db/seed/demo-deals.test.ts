import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDemoApp } from '../../../test/demo-app.ts';

describe('demo deals', async () => {
  const { user: agent, q } = await createDemoApp('employee');

  it('fill every stage of the board with sales and lets that have their parties, and closing shows on the property and the buyer', async () => {
    const [c] = await q<Record<string, number>>(sql`select
      (select count(*)::int from deals) as deals,
      (select count(distinct deal_stage)::int from deals) as stages,
      (select count(*)::int from deals d where not exists (select 1 from deal_parties p where p.deal_id = d.id and p.relation = 2)) as no_buyer,
      (select count(*)::int from deals d where d.deal_type = 2 and d.deal_stage = 5 and not exists (select 1 from objects o where o.id = d.object_id and o.sold)) as unsold`);
    expect(c!.deals).toBeGreaterThan(10);
    expect(c!.stages).toBe(6);
    expect(c!.no_buyer).toBe(0);
    expect(c!.unsold).toBe(0);
    const [buyer] = await q<{ id: number }>(sql`select p.account_id as id from deals d join deal_parties p on p.deal_id = d.id and p.relation = 2 where d.deal_type = 2 and d.deal_stage = 5 limit 1`);
    const view = await agent.get(`/api/account/view/${buyer!.id}`);
    expect(view.json().boughtObjectsReferenceNumbers).not.toBe('');
    const board = await agent.post('/api/Deal/board', {});
    expect(board.json().columns.every((col: { count: number }) => col.count > 0)).toBe(true);
  });
});
