import { expect } from 'vitest';
import { eq, sql } from 'drizzle-orm';
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

/**
 * The staff the accounts' access tests act as: an office admin, an employee, a branch's employee
 * and a branch's admin; `addAccount` adds an account as the office admin does (numbered names,
 * `fields` on top) and answers its id, `stored` reads one as the database holds it.
 */
export async function accountStaff(t: TestApp) {
  const admin = await t.user({ roles: ['admin'] });
  const emp = await t.user({ roles: ['employee'] });
  const branchUser = await t.user({ roles: ['employee'], branchId: 1 });
  const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
  let n = 0;
  const addAccount = async (fields: Record<string, unknown> = {}): Promise<number> => {
    n++;
    const res = await admin.post('/api/account/add', { firstName: `First${n}`, lastName: `Last${n}`, ...fields });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as number;
  };
  const stored = async (id: number) => (await t.db.select().from(accounts).where(eq(accounts.id, id)))[0]!;
  return { admin, emp, branchUser, branchAdmin, addAccount, stored };
}
