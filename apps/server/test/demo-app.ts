import type { sql } from 'drizzle-orm';
import type { TRole } from '@crm/contract';
import { seedDemo } from '../src/db/seed/demo.ts';
import { createTestApp } from './harness.ts';

/**
 * A fresh database holding the demo agency, a user of `role` (made before the demo, as a first
 * administrator would be), and `q`, which answers a query's rows.
 */
export async function createDemoApp(role: TRole) {
  const t = await createTestApp();
  const user = await t.user({ roles: [role] });
  await seedDemo(t.app);
  const q = async <T>(query: ReturnType<typeof sql>) => (await t.db.execute(query)).rows as T[];
  return { t, user, q };
}
