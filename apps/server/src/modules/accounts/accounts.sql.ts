import { eq, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgSelect } from 'drizzle-orm/pg-core';
import { accounts, users } from '../../db/schema/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import { refDigitsOfO } from '../../lib/reference-number.ts';

/**
 * SQL pieces shared by the account lists, the record and the search: who created / last changed a
 * record (the person's account name when the sign-in belongs to one, else the sign-in's user name),
 * dates in the agency's time zone, and search patterns in the search normal form.
 */
export const creator = alias(users, 'cu');
export const creatorAccount = alias(accounts, 'cua');
export const modifier = alias(users, 'mu');
export const modifierAccount = alias(accounts, 'mua');

/** The joins behind createdByName / modifiedByName, for statements written as SQL. */
const COLLATIONS: Record<string, string> = { en: 'en-x-icu', el: 'el-x-icu', ru: 'ru-x-icu' };
/** The ICU collation of a reader's language (an index per language serves the name order). */
export const collationOf = (culture: string | undefined) => sql.raw(`"${COLLATIONS[culture ?? 'en'] ?? 'en-x-icu'}"`);

export const stampJoins = sql`
  left join ${users} as ${sql.identifier('cu')} on ${creator.id} = ${accounts.createdBy}
  left join ${accounts} as ${sql.identifier('cua')} on ${creatorAccount.id} = ${creator.accountId}
  left join ${users} as ${sql.identifier('mu')} on ${modifier.id} = ${accounts.modifiedBy}
  left join ${accounts} as ${sql.identifier('mua')} on ${modifierAccount.id} = ${modifier.accountId}`;

export const createdByName = sql<string | null>`coalesce(${creatorAccount.displayName}, ${creator.username})`;
export const modifiedByName = sql<string | null>`coalesce(${modifierAccount.displayName}, ${modifier.username})`;

/**
 * The same joins on a record's select (made `$dynamic()`): who created and who last changed the
 * record, for `createdByName` / `modifiedByName` among its columns.
 */
export function joinStampNames<Q extends PgSelect>(query: Q, createdBy: AnyPgColumn, modifiedBy: AnyPgColumn) {
  return query
    .leftJoin(creator, eq(creator.id, createdBy))
    .leftJoin(creatorAccount, eq(creatorAccount.id, creator.accountId))
    .leftJoin(modifier, eq(modifier.id, modifiedBy))
    .leftJoin(modifierAccount, eq(modifierAccount.id, modifier.accountId));
}

/** The start of a local calendar day (YYYY-MM-DD) as a moment. */
export const localDayStart = (day: string, timeZone: string) => sql`(${day}::date::timestamp at time zone ${timeZone})`;
/** The start of the day after a local calendar day: `created_on < this` includes the whole day. */
export const localDayEnd = (day: string, timeZone: string) => sql`((${day}::date + 1)::timestamp at time zone ${timeZone})`;

/** Escapes LIKE wildcards of user input (backslash is PostgreSQL's default LIKE escape). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

/** `%fragment%` of user text in the search normal form (lower case, no accents, final sigma folded). */
export const containsPattern = (text: string) => sql`'%' || crm_search_norm(${escapeLike(text)}) || '%'`;
export const startsPattern = (text: string) => sql`crm_search_norm(${escapeLike(text)}) || '%'`;
/**
 * Matches a column by the Latin skeleton of user text (crm_latin_skeleton: Greek and Cyrillic in
 * Latin, one spelling for Greeklish variants): `papadopoulou` finds Παπαδοπούλου. Only when the
 * skeleton has three letters or more (a constant the planner folds), so the trigram index serves it.
 */
export const latinMatch = (column: SQL, text: string, besidesContains = false): SQL | undefined => {
  const readings = latinMatchReadings(text, besidesContains);
  if (!readings.length) return undefined;
  return sql.join(
    readings.map((v) => {
      const skel = sql`crm_latin_skeleton(${v})`;
      return sql`(length(${skel}) >= 3 and ${column} like '%' || ${skel} || '%')`;
    }),
    sql` or `,
  );
};

/** The readings latinMatch matches by their skeleton (none for Greek or Cyrillic text). */
export function latinMatchReadings(text: string, besidesContains = false): string[] {
  // Greek or Cyrillic typed text finds its own script through the normal form already: the
  // skeleton is for Latin letters (Greeklish, transliterated Russian, English), and costs a second
  // index scan, so it is only added for those.
  if (/[\u0370-\u03ff\u1f00-\u1fff\u0400-\u04ff]/.test(text)) return [];
  // ASCII without a letter (a reference number, digits): its skeleton is its normal form, so the
  // reading as typed repeats the caller's own `like` on the same column (`besidesContains`): a second
  // scan of the same trigrams, whose doubled estimate made PostgreSQL scan every property for «26291»
  // (decision 116).
  return latinReadings(text).filter((v) => !(besidesContains && v === text && /^[\x20-\x7e]*$/.test(v) && !/[a-z\\%_]/i.test(v)));
}

/**
 * The readings of a typed Latin text: as typed, and as Greeklish where that differs ("x" for χ, "8"
 * for θ, "3" for ξ: `vlaxos` is Βλάχος, `8ermi` Θέρμη). Each is matched by its Latin skeleton.
 */
export function latinReadings(text: string): string[] {
  const clean = text.replace(/[\\%_]/g, ' ');
  const greeklish = clean.replace(/x/gi, 'ch').replace(/8/g, 'th').replace(/3/g, 'ks');
  // γι before a vowel is written "y" or "yi" as often as "gi": Yannis, Yiorgos, Panayiotis, Ayios.
  // Only at a word's start or after a vowel, so the y of Kyriakos (υ) still reads as i.
  const gamma = greeklish.replace(/(^|[^a-z]|[aeiou])yi?(?=[aeiou])/gi, '$1gi');
  return [...new Set([clean, greeklish, gamma])];
}
/**
 * The ids of the accounts whose last name (in any of its scripts, Greeklish too) or company name
 * has the typed fragment: the leads' client and the deals' party "last name" filters. Read from
 * account_last_names (0031), a narrow table kept by a trigger, through its trigram indexes. Lists
 * filtered this way take these ids and use their own index on the account id: a name test inside
 * the list's query made PostgreSQL scan and hash every row (decision 023).
 */
export async function accountIdsByLastName(db: Db | Tx, name: string): Promise<IdSet> {
  const res = await db.execute<{ ids: string }>(sql`select coalesce(array_agg(n.account_id), '{}')::text as ids from (${lastNameMatches(name)}) n`);
  return idSetFromLiteral(res.rows[0]?.ids ?? '{}');
}

/** The statement of accountIdsByLastName (one column, account_id), for a statement that uses the ids itself: inside `any(array(…))`. */
export function lastNameMatches(name: string): SQL {
  const latin = latinMatch(sql`n.latin`, name);
  return sql`select n.account_id from account_last_names n where n.names like ${containsPattern(name)} ${latin ? sql`or ${latin}` : sql``}`;
}

/**
 * A set of account ids as PostgreSQL writes an int[] (`{3,17,42}`), with its size. A name fragment
 * matches thousands of accounts, whose ids go from one statement to the next through the app: kept
 * as the text PostgreSQL sent and bound back as one parameter (`${set.literal}::int[]`, which
 * PostgreSQL reads as a constant when planning), they are neither parsed into numbers nor written
 * out again element by element by the driver (1.2 ms of the app's 7 ms CPU in a global search).
 */
export type IdSet = { readonly size: number; readonly literal: string };
export const idSetOf = (ids: readonly number[]): IdSet => ({ size: ids.length, literal: `{${ids.join(',')}}` });
/** An int[] as PostgreSQL's text ('{}' or '{1,2,3}'). */
export const idSetFromLiteral = (literal: string): IdSet => ({ size: literal.length > 2 ? literal.split(',').length : 0, literal });

/** Any word of the normalised text starts with the fragment. */
export const wordStartsPattern = (text: string) => sql`'% ' || crm_search_norm(${escapeLike(text)}) || '%'`;

/** The digits of text that looks like a phone number ("+30 694-123 45 67"), else null. */
export function phoneDigits(text: string): string | null {
  if (!/^[\d\s+()./-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  return digits.length >= 3 ? digits : null;
}


export const epochMs = (col: SQL | typeof accounts.createdOn) => sql<number>`(extract(epoch from ${col}) * 1000)::float8`;

/**
 * Reference numbers ("0042 0107") of the objects an account is currently linked to with one of the
 * relations (a link without an end date, or one not yet past), in number order; not a draft
 * ("Add property" on the account's page left blank: lib/drafts.ts).
 */
export const objectRefsOf = (accountId: SQL | typeof accounts.id, relations: readonly number[]) => sql<string>`coalesce((
  select string_agg(${refDigitsOfO}, ' ' order by o.reference_number)
  from (select distinct l.object_id from object_accounts l
        where l.account_id = ${accountId} and l.relation in (${sql.join(relations.map((r) => sql`${r}`), sql`, `)})
          and (l.end_date is null or l.end_date >= crm_today())) x
  join objects o on o.id = x.object_id and not o.draft), '')`;
/** Owners and co-owners; tenants (long and short let). */
export const OWNED_RELATIONS = [1, 2] as const;
export const RENTED_RELATIONS = [4, 7] as const;
