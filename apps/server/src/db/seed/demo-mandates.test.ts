import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { checkMandateAlerts } from '../../modules/mandates/mandates.alerts.ts';
import { seedDemo } from './demo.ts';

describe("the demo's mandates", () => {
  it('gives published demo properties their owner’s mandate, an exclusive one ending within 30 days among them, listed and alerted', async () => {
    const t = await createTestApp();
    await seedDemo(t.app);
    const rows = (await t.db.execute(sql`select m.kind, (m.end_date - crm_today())::int as left, m.end_date <= (m.start_date + interval '8 months')::date as lawful,
        (select count(*)::int from object_mandate_owners o where o.mandate_id = m.id) as owners, o.published
      from object_mandates m join objects o on o.id = m.object_id order by m.id`)).rows as { kind: string; left: number; lawful: boolean; owners: number; published: boolean }[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.owners === 1 && r.published && r.left > 0 && (r.kind === 'simple' || r.lawful))).toBe(true);
    expect(rows.filter((r) => r.kind === 'exclusive' && r.left <= 30)).toHaveLength(1);
    const admin = await t.user({ roles: ['admin'] });
    expect((await admin.get('/api/Mandate/endingSoon')).json().items).toHaveLength(1);
    expect(await checkMandateAlerts(t.app)).toHaveLength(1);
  });
});
