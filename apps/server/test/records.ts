import { accounts } from '../src/db/schema/index.ts';
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
