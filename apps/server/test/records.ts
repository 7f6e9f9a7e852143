import { sql } from 'drizzle-orm';
import { accounts, objects } from '../src/db/schema/index.ts';
import type { TestApp } from './harness.ts';

type AccountValues = Partial<typeof accounts.$inferInsert>;

/**
 * A test file's maker of accounts, numbered so each is another person (`Maria1 Papadopoulou1`,
 * `Maria2 Papadopoulou2`, …), with the file's own defaults; what a test passes overrides both.
 */
export function accountMaker(db: TestApp['db'], firstName: string, lastName: string, defaults: AccountValues = {}) {
  let n = 0;
  return async (values: AccountValues = {}) => {
    n++;
    const [a] = await db
      .insert(accounts)
      .values({ firstName: `${firstName}${n}`, lastName: `${lastName}${n}`, ...defaults, ...values })
      .returning({ id: accounts.id, displayName: accounts.displayName, version: accounts.version });
    return a!;
  };
}

/**
 * A property as a test needs it: its reference number from the sequence, of the first type (a flat),
 * with the file's values (title, prices, place, …) on top. Answers its id and reference number.
 */
export async function insertObject(db: TestApp['db'], values: Record<string, unknown>) {
  const [o] = await db
    .insert(objects)
    .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, subTypeObjectTypeId: 1, objectSubTypeId: 1, ...values } as never)
    .returning({ id: objects.id, ref: objects.referenceNumber });
  return o!;
}
