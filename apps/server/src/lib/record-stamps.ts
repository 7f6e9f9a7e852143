import { sql, type SQL } from 'drizzle-orm';
import { toLocalDateTime } from './dates.ts';

/** The name a sign-in goes by (its account's, else its user name), as a scalar subquery on the user id in `col`. */
export const nameOfUser = (col: SQL) => sql<string | null>`(select coalesce(a.display_name, u.username) from users u left join accounts a on a.id = u.account_id where u.id = ${col})`;

/** A stored record's stamps as its record screen shows them: when it was made and last changed (agency time), by whom, and its version. */
export function recordStamps(r: { createdOn: Date; modifiedOn: Date; version: number }, names: { createdBy: string | null; modifiedBy: string | null }, timeZone: string) {
  return {
    createdOn: toLocalDateTime(r.createdOn, timeZone)!,
    createdBy: names.createdBy,
    modifiedOn: toLocalDateTime(r.modifiedOn, timeZone)!,
    modifiedBy: names.modifiedBy,
    version: r.version,
  };
}
