import type { FastifyInstance } from 'fastify';
import { and, or, sql, type SQL } from 'drizzle-orm';
import { SEARCH_MAX_HITS, type TSearchHit } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import type { SearchProvider } from '../shell/shell.routes.ts';
import { containsPattern, latinMatch, phoneDigits, startsPattern, wordStartsPattern } from './accounts.sql.ts';

/** Which accounts the account picker offers: 0 all, 1 employees, 2 employees and specialists. */
const pickerFilter = (filter: number): SQL | undefined =>
  filter === 1
    ? sql`${accounts.isEmploye}`
    : filter === 2
      ? sql`(${accounts.isEmploye} or ${accounts.isProfessional})`
      : undefined;

const hitColumns = {
  id: accounts.id,
  name: accounts.displayName,
  emails: accounts.emails,
  phones: accounts.phones,
  isOwner: accounts.isOwner,
  isClient: accounts.isClient,
  isProfessional: accounts.isProfessional,
  isSource: accounts.isSource,
  isEmploye: accounts.isEmploye,
};

/**
 * Accounts whose search text (every name in both scripts, e-mails, phones also as bare digits,
 * tax and passport numbers, all in the search normal form, and the names' Latin skeleton) contains
 * the fragment, as typed or as its Latin skeleton (Greeklish, transliterated Russian); the GIN trigram
 * index on search_text serves the match. Accounts with a word starting with the fragment come
 * first, then the rest, each by name. One or two characters match word starts only (still through
 * the index, whose trigrams include word starts), in name order.
 */
export function accountMatchQuery(db: Db, text: string, limit: number, extra?: SQL) {
  const wordStart = (t: string) => sql`(${accounts.searchText} like ${startsPattern(t)} or ${accounts.searchText} like ${wordStartsPattern(t)})`;
  const digits = phoneDigits(text);
  const q = db.select(hitColumns).from(accounts);
  if (text.length < 3) {
    return q.where(and(wordStart(text), extra)).orderBy(accounts.displayName, accounts.id).limit(limit);
  }
  const match = or(
    sql`${accounts.searchText} like ${containsPattern(text)}`,
    digits && digits !== text ? sql`${accounts.searchText} like ${containsPattern(digits)}` : undefined,
    // Across scripts: the names' Latin skeleton is in the search text too.
    digits ? undefined : latinMatch(sql`${accounts.searchText}`, text),
  );
  return q
    .where(and(match, extra))
    .orderBy(sql`case when ${wordStart(text)} then 0 else 1 end`, accounts.displayName, accounts.id)
    .limit(limit);
}

async function findAccounts(app: FastifyInstance, text: string, limit: number, extra?: SQL) {
  const rows = await accountMatchQuery(app.db, text, limit, extra);
  if (rows.length || text.length < 4) return rows;
  // Nothing contains the text: try a near spelling ("Papadopulos"), by trigram word similarity.
  return app.db
    .select(hitColumns)
    .from(accounts)
    .where(and(sql`crm_search_norm(${text}) <% ${accounts.searchText}`, extra))
    .orderBy(sql`crm_search_norm(${text}) <<-> ${accounts.searchText}`, accounts.displayName, accounts.id)
    .limit(limit);
}

/** GET /api/account/search: the account picker's suggestions. */
export async function searchAccounts(app: FastifyInstance, searchStr: string, filter: number) {
  const text = searchStr.trim();
  if (!text) return { items: [] };
  const rows = await findAccounts(app, text, SEARCH_MAX_HITS, pickerFilter(filter));
  return { items: rows.map((r) => ({ id: r.id, description: r.name })) };
}

type Found = Awaited<ReturnType<typeof findAccounts>>[number];

const norm = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ς/g, 'σ');

/** The phone or e-mail that matched, else the first phone or e-mail: tells namesakes apart. */
function contactHint(r: Found, text: string, withEmails: boolean): string | undefined {
  const q = norm(text);
  const digits = phoneDigits(text);
  const emails = withEmails ? r.emails : [];
  return (
    (digits ? r.phones.find((p) => p.replace(/\D/g, '').includes(digits)) : undefined) ??
    emails.find((e) => norm(e).includes(q)) ??
    r.phones.find((p) => norm(p).includes(q)) ??
    r.phones[0] ??
    emails[0]
  );
}

const entityOf = (r: Found): TSearchHit['entity'] =>
  r.isOwner ? 'Owner' : r.isClient ? 'Client' : r.isProfessional ? 'Professional' : r.isSource ? 'Source' : r.isEmploye ? 'Employe' : 'Account';

/** The accounts' part of the global search box. */
export function makeAccountSearchProvider(app: FastifyInstance): SearchProvider {
  return async ({ text, limit, branchId }) => {
    const rows = await findAccounts(app, text, limit);
    return rows.map((r) => {
      // An employee's e-mail is its sign-in: a branch user is not shown it.
      const hint = contactHint(r, text, !(branchId !== null && r.isEmploye));
      return { id: r.id, description: hint ? `${r.name} (${hint})` : r.name, entity: entityOf(r) };
    });
  };
}
