import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/harness.ts';

const t = await createTestApp();
const admin = await t.user({ roles: ['admin'] });

describe('the action log page in an agency of many clients', () => {
  it('names the records its entries hold by their primary keys, never reading a whole table for each entry', async () => {
    await t.pool.query(`insert into accounts (first_name, last_name) select 'Client ' || g, 'Family ' || g from generate_series(1, 10000) g`);
    await t.pool.query(`insert into action_log (action, entity, entity_id, data)
      select 'Update', 'Deal', g, jsonb_build_object('accounts', jsonb_build_array(jsonb_build_object('accountId', g, 'relation', 1)), 'objectId', g, 'dealId', g, 'leadId', g)
      from generate_series(1, 200) g`);
    await t.pool.query('analyze');

    const sent: { text: string; values: unknown[] }[] = [];
    const query = t.pool.query;
    t.pool.query = ((q: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
      const text = typeof q === 'string' ? q : q.text;
      if (text.includes("'account' as kind")) sent.push({ text, values: values ?? (typeof q === 'string' ? [] : (q.values ?? [])) });
      return (query as (...a: unknown[]) => unknown).call(t.pool, q, values);
    }) as typeof t.pool.query;
    let res;
    try {
      res = await admin.post('/api/actionLog', {});
    } finally {
      t.pool.query = query;
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items[0].accountNames).toEqual({ '200': 'Family 200 Client 200' });
    expect(sent).toHaveLength(1);
    const plan = (await t.pool.query(`explain (costs off) ${sent[0]!.text}`, sent[0]!.values)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
    expect(plan).not.toMatch(/Seq Scan on accounts/);
    expect(plan).toMatch(/Index Scan using accounts_pkey on accounts a\b/);
  });
});
