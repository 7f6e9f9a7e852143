import type { FastifyInstance } from 'fastify';
import { and, or, sql, type SQL } from 'drizzle-orm';
import { LEAD_CLOSED_STAGES, SEARCH_MAX_HITS, plainText, type TSearchHit } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import type { SearchProvider } from '../shell/shell.routes.ts';
import { collationOf, containsPattern, idSetFromLiteral, idSetOf, latinMatch, phoneDigits, startsPattern, wordStartsPattern, type IdSet } from './accounts.sql.ts';

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
/** How an account matches the typed text, and the rank that puts word starts first (0) before the rest (1). */
function matchParts(text: string): { match: SQL; rank: SQL } {
  const wordStart = (t: string) => sql`(${accounts.searchText} like ${startsPattern(t)} or ${accounts.searchText} like ${wordStartsPattern(t)})`;
  if (text.length < 3) return { match: wordStart(text), rank: sql`0::int` };
  const digits = phoneDigits(text);
  const match = or(
    sql`${accounts.searchText} like ${containsPattern(text)}`,
    digits && digits !== text ? sql`${accounts.searchText} like ${containsPattern(digits)}` : undefined,
    // Across scripts: the names' Latin skeleton is in the search text too.
    digits ? undefined : latinMatch(sql`${accounts.searchText}`, text),
  )!;
  return { match, rank: sql`case when ${wordStart(text)} then 0 else 1 end` };
}

export function accountMatchQuery(db: Db, text: string, limit: number, extra?: SQL, culture?: string) {
  const { match, rank } = matchParts(text);
  return db
    .select(hitColumns)
    .from(accounts)
    .where(and(match, extra))
    .orderBy(rank, sql`${accounts.displayName} collate ${collationOf(culture)}`, accounts.id)
    .limit(limit);
}

/** An account hit's columns (Found), for the statements written as SQL. */
const HIT_FIELDS = sql`${accounts.id} as id, ${accounts.displayName} as name, ${accounts.emails} as emails, ${accounts.phones} as phones,
  ${accounts.isOwner} as "isOwner", ${accounts.isClient} as "isClient", ${accounts.isProfessional} as "isProfessional",
  ${accounts.isSource} as "isSource", ${accounts.isEmploye} as "isEmploye"`;

/**
 * The accounts the global search found: the best shown as account hits, and (a first 5,000 of) all
 * of them, whose leads are lead hits; `openLeads`: the newest open leads of those accounts (found
 * with them, in the same statement), or undefined when the near spellings were searched instead.
 */
export type AccountMatches = { top: Found[]; ids: IdSet; openLeads?: number[] };
/** At most this many matching accounts are read for the global search (a hit list shows 20). */
const MATCHES_MAX = 5000;

/**
 * The global search's accounts in one statement: the accounts provider shows the best of them (word
 * starts first, then by name), the leads provider looks for their leads. Both read the same trigram
 * matches, so it is done once a search (SearchProvider's `shared`). One word: the 20 shown and the
 * newest open leads are read word by word, ranked ahead (wordMatches, decision 099). Text with a
 * space, more than 5,000 matches: the best of the first 5,000 found are shown, and typing on
 * narrows it.
 */
export async function searchAccountMatches(app: FastifyInstance, text: string, culture?: string): Promise<AccountMatches> {
  const found = (oneWord(text) ? await wordMatchesOrGrouped(app, text, true, culture) : (await app.db.execute<MatchesRow>(rowMatches(text, culture))).rows[0]) ?? {
    ids: '{}',
    n: 0,
    top: [],
    leads: [],
  };
  // No ids when the open leads fill the hits: the leads' search reads none then (findLeads), and
  // 3,000 of them («Παπαδ») were written out and read for nothing.
  const ids = found.ids === null ? { size: found.n, literal: '{}' } : idSetFromLiteral(found.ids);
  if (found.top.length || text.length < 4) return { top: found.top, ids, openLeads: found.leads };
  const near = oneWord(text) ? await findNearWord(app, text, SEARCH_MAX_HITS, culture) : await findNear(app, text, SEARCH_MAX_HITS, undefined, culture);
  return { top: near, ids: idSetOf(near.map((r) => r.id)) };
}

/**
 * A fragment of three characters or more without a space: whatever it matches in an account's
 * search text lies inside one of its words, so it is looked up among the words (0033): the distinct
 * words containing it (trigram index on search_words), then their accounts with their names
 * (account_words, from its index alone), and the accounts' other columns for the 20 shown only.
 * The same accounts, in the same order, as matching the whole search text (rowMatches), with no
 * cut at 5,000 matches for the 20 shown.
 */
const oneWord = (text: string) => text.length >= 3 && !/\s/.test(text);

/**
 * The newest open leads (not closed, not a draft) of the matched accounts `m`, newest first: the
 * global search's lead hits. Read here, from the open leads' index by account alone (0094), rather
 * than by a second statement given the ids: 3,000 ids for «Παπαδ» went to the app and back, and
 * PostgreSQL planned each as a constant. `any(array(…))` keeps the look-up per account (a join
 * hashed the whole leads table). The same leads as findLeads' first statement (its test compares).
 */
const newestOpenLeads = sql`array(
  select l.id from leads l
  where l.account_id = any(array(select id from m)) and coalesce(l.stage, 0) not in (${sql.join(
    LEAD_CLOSED_STAGES.map((s) => sql.raw(String(s))),
    sql`, `,
  )}) and l.id not in (select d.id from leads d where d.draft)
  order by l.created_on desc, l.id desc limit ${SEARCH_MAX_HITS})`;

/**
 * The columns ids (null when the open leads `lz.leads` fill the hits), n (how many ids; the number
 * of open leads when there are no ids, as the word path has it) and leads, of `m` and `lz` (`offset
 * 0` keeps lz a subquery of its own: pulled up, its leads were looked up twice).
 */
const IDS_AND_LEADS = sql`case when cardinality(lz.leads) < ${SEARCH_MAX_HITS} then coalesce((select array_agg(id) from m), '{}')::text end as ids,
  case when cardinality(lz.leads) < ${SEARCH_MAX_HITS} then (select count(*) from m)::int else cardinality(lz.leads) end as n, lz.leads`;

/**
 * The words a fragment of one word matches (trigram index on search_words), each with its rank: 0
 * when the word starts with the fragment, else 1.
 */
function matchedWords(text: string): SQL {
  const digits = phoneDigits(text);
  const latin = digits ? undefined : latinMatch(sql`s.word`, text);
  return sql`select s.word, case when s.word like ${startsPattern(text)} then 0 else 1 end as rank from search_words s
      where s.word like ${containsPattern(text)}
        ${digits && digits !== text ? sql`or s.word like ${containsPattern(digits)}` : sql``}
        ${latin ? sql`or ${latin}` : sql``}`;
}

/**
 * Above this many matched words the word-by-word path costs more than grouping the matched
 * accounts: it looks up each word twice (its 20 accounts, its 20 newest open leads) and merges what
 * every word gave. E-mail fragments match tens of thousands of words at full size ("mail" 56,485,
 * "com" 42,016, ".gr" 33,378): "mail" took 430–490 ms word by word against 175–185 ms grouped. Phone
 * and rarer e-mail fragments stay faster word by word ("2310", 17,221 words: 135–185 ms against
 * 420–475; "yahoo", 16,501: 120–135 against 420–430; "gmail", 25,437: 300–380 against 390–450;
 * "6944", 983: 13 against 15–16), so the line is drawn between them (decision 099).
 */
export const RANKED_WORDS_MAX = 30_000;

/**
 * One word typed, ranked ahead (migration 0103, decision 099): the 20 accounts shown and the 20
 * newest open leads are each the first 20 of an order that does not depend on the fragment (rank,
 * name in the reader's language, id; date, id), so every matched word gives its own first 20 from
 * an index kept in that order (account_words by word and name in each collation; lead_words by word
 * and date), and the answer is the first 20 of those: a hit the word's own 20 leave out has 20 of
 * that word before it. «Παπαδ» reads 4 × 20 accounts and 4 × 20 leads, not its 2,939 accounts and
 * their leads. All the matched accounts are read (at most 5,000) only when the open leads are fewer
 * than 20 and the leads' search wants them to look among the closed ones too.
 *
 * The matched words are counted first (at most RANKED_WORDS_MAX + 1 read); above RANKED_WORDS_MAX
 * nothing else is read (each answer column is behind a `case` on the count, so its subquery is not
 * run) and the grouped statement answers instead (wordMatchesOrGrouped).
 */
function wordMatches(text: string, withIds = true, culture?: string): SQL {
  const collate = collationOf(culture);
  const few = sql`k.words <= ${RANKED_WORDS_MAX}`;
  const best = sql`best as (
      select x.account_id as id, min(w.rank) as rank, min(x.name) as name
      from w cross join lateral (
        select aw.account_id, aw.name from account_words aw where aw.word = w.word
        order by aw.name collate ${collate}, aw.account_id limit ${SEARCH_MAX_HITS}) x
      group by x.account_id order by min(w.rank), min(x.name) collate ${collate}, x.account_id limit ${SEARCH_MAX_HITS})`;
  const top = sql`case when ${few} then coalesce((select json_agg(t) from (
        select ${HIT_FIELDS}
        from best join ${accounts} on ${accounts.id} = best.id
        order by best.rank, best.name collate ${collate}, best.id) t), '[]') end as top`;
  const words = sql`w as materialized (${matchedWords(text)}),
    k as materialized (select count(*)::int as words from (select 1 from w limit ${RANKED_WORDS_MAX + 1}) c)`;
  if (!withIds) return sql`with ${words}, ${best} select k.words, ${top} from k`;
  const leads = sql`(select leads from lz)`;
  return sql`
    with ${words},
    ${best},
    lz as materialized (select array(
      select u.lead_id from (
        select distinct y.lead_id, y.created_on from w cross join lateral (
          select lw.lead_id, lw.created_on from lead_words lw where lw.word = w.word
          order by lw.created_on desc, lw.lead_id desc limit ${SEARCH_MAX_HITS}) y) u
      order by u.created_on desc, u.lead_id desc limit ${SEARCH_MAX_HITS}) as leads),
    m as materialized (
      select distinct aw.account_id as id from account_words aw where aw.word in (select word from w) limit ${MATCHES_MAX})
    select k.words,
      case when ${few} and cardinality(${leads}) < ${SEARCH_MAX_HITS} then coalesce((select array_agg(id) from m), '{}')::text end as ids,
      case when ${few} then (case when cardinality(${leads}) < ${SEARCH_MAX_HITS} then (select count(*) from m)::int else cardinality(${leads}) end) end as n,
      case when ${few} then ${leads} end as leads, ${top}
    from k`;
}

/**
 * One word typed that matches more than RANKED_WORDS_MAX words (an e-mail or phone fragment): every
 * matched account grouped (at most 5,000, as before 0103), the 20 shown sorted from them, and their
 * newest open leads looked up by account. The same answers as wordMatches while there are fewer
 * than 5,000 matches (search-fragments.test compares both with the same statement).
 */
function groupedWordMatches(text: string, withIds = true, culture?: string): SQL {
  const collate = collationOf(culture);
  return sql`
    with w as (${matchedWords(text)}),
    m as materialized (
      select aw.account_id as id, min(aw.name) as name, min(case when aw.word like ${startsPattern(text)} then 0 else 1 end) as rank
      from account_words aw where aw.word in (select word from w)
      group by aw.account_id limit ${MATCHES_MAX})
    select ${withIds ? IDS_AND_LEADS : sql`'{}'::text as ids, 0 as n, '{}'::int[] as leads`},
      coalesce((select json_agg(t) from (
        select ${HIT_FIELDS}
        from (select id, name, rank from m order by rank, name collate ${collate}, id limit ${SEARCH_MAX_HITS}) best
          join ${accounts} on ${accounts.id} = best.id
        order by best.rank, best.name collate ${collate}, best.id) t), '[]') as top
    ${withIds ? sql`from (select ${newestOpenLeads} as leads offset 0) lz` : sql``}`;
}

/** The row of the global search's statements (ids, n and leads only with the ids asked for). */
type MatchesRow = { ids: string | null; n: number; top: Found[]; leads: number[] };

/** One word typed: ranked ahead word by word, or grouped when it matches too many words. */
async function wordMatchesOrGrouped(app: FastifyInstance, text: string, withIds: boolean, culture?: string): Promise<MatchesRow | undefined> {
  const ranked = (await app.db.execute<MatchesRow & { words: number }>(wordMatches(text, withIds, culture))).rows[0];
  if (!ranked || ranked.words <= RANKED_WORDS_MAX) return ranked;
  return (await app.db.execute<MatchesRow>(groupedWordMatches(text, withIds, culture))).rows[0];
}

/**
 * The ids of the accounts whose search text has the typed text (as typed, or as its Latin skeleton:
 * `papadopoulou` finds Παπαδοπούλου), as a subquery of one column, for lists filtered by a person
 * (the keys list by anyone who held a key). One word is looked up among the words (search_words,
 * then account_words from its index alone), as the global search does: matched on the accounts'
 * rows instead, every candidate was rechecked on the wide row (2,500 table pages for "Παπαδ" at
 * 100,000 accounts). An id may come more than once (several of its words match).
 */
export function accountIdsMatching(text: string): SQL {
  if (!oneWord(text)) return sql`select ${accounts.id} from ${accounts} where ${matchParts(text).match}`;
  const digits = phoneDigits(text);
  const latin = digits ? undefined : latinMatch(sql`s.word`, text);
  return sql`select aw.account_id from account_words aw where aw.word in (
    select s.word from search_words s where s.word like ${containsPattern(text)}
      ${digits && digits !== text ? sql`or s.word like ${containsPattern(digits)}` : sql``}
      ${latin ? sql`or ${latin}` : sql``})`;
}

/** Any other text: matched on the accounts' whole search text (trigram index on accounts). */
function rowMatches(text: string, culture?: string): SQL {
  const { match, rank } = matchParts(text);
  return sql`
    with m as materialized (
      select ${HIT_FIELDS}, ${rank} as rank
      from ${accounts} where ${match} limit ${MATCHES_MAX})
    select ${IDS_AND_LEADS},
      coalesce((select json_agg(t) from (select id, name, emails, phones, "isOwner", "isClient", "isProfessional", "isSource", "isEmploye"
        from m order by rank, name collate ${collationOf(culture)}, id limit ${SEARCH_MAX_HITS}) t), '[]') as top
    from (select ${newestOpenLeads} as leads offset 0) lz`;
}

/** The daily clean-up of search_words (0033): a word no account has any more finds nothing, and goes. */
export const SEARCH_WORDS_PRUNE_JOB = 'accounts.searchWordsPrune';
export async function pruneSearchWords(app: FastifyInstance): Promise<void> {
  await app.db.execute(sql`select crm_search_words_prune()`);
}

async function findAccounts(app: FastifyInstance, text: string, limit: number, extra?: SQL, culture?: string) {
  // Every account (no filter), one word: from the word table, as the global search.
  const rows =
    !extra && limit === SEARCH_MAX_HITS && oneWord(text)
      ? ((await wordMatchesOrGrouped(app, text, false, culture))?.top ?? [])
      : await accountMatchQuery(app.db, text, limit, extra, culture);
  if (rows.length || text.length < 4) return rows;
  return !extra && limit === SEARCH_MAX_HITS && oneWord(text) ? findNearWord(app, text, limit, culture) : findNear(app, text, limit, extra, culture);
}

/** Nothing contains the text: a near spelling ("Papadopulos"), by trigram word similarity. */
function findNear(app: FastifyInstance, text: string, limit: number, extra?: SQL, culture?: string) {
  return app.db
    .select(hitColumns)
    .from(accounts)
    .where(and(sql`crm_search_norm(${text}) <% ${accounts.searchText}`, extra))
    .orderBy(sql`crm_search_norm(${text}) <<-> ${accounts.searchText}`, sql`${accounts.displayName} collate ${collationOf(culture)}`, accounts.id)
    .limit(limit);
}

/**
 * Nothing contains one typed word: the accounts with a word spelled near it ("papadopulos"), nearest
 * first, then by name. The near words come from the word table (0033) by trigram word similarity,
 * and twenty accounts of each from its index. Matched against whole search texts instead, every
 * candidate account was rechecked (12 ms to find nothing for a place's name, 250 ms for a common
 * name's misspelling at 100,000 accounts), and a near match could span two words ("Καλαμαριά" found
 * "Καλογεράκη Μαρία").
 */
async function findNearWord(app: FastifyInstance, text: string, limit: number, culture?: string): Promise<Found[]> {
  const collate = collationOf(culture);
  const { rows } = await app.db.execute<Found>(sql`
    with near as (
      select s.word, crm_search_norm(${text}) <<-> s.word as distance
      from search_words s where crm_search_norm(${text}) <% s.word),
    candidates as (
      select near.distance, a.name, a.account_id from near
      cross join lateral (select aw.name, aw.account_id from account_words aw where aw.word = near.word order by aw.name, aw.account_id limit ${limit}) a),
    best as (
      select account_id as id, min(distance) as distance, min(name) as name from candidates
      group by account_id order by min(distance), min(name) collate ${collate}, account_id limit ${limit})
    select ${HIT_FIELDS} from best join ${accounts} on ${accounts.id} = best.id
    order by best.distance, best.name collate ${collate}, best.id`);
  return rows;
}

/** GET /api/account/search: the account picker's suggestions. */
export async function searchAccounts(app: FastifyInstance, searchStr: string, filter: number, culture?: string) {
  const text = searchStr.trim();
  if (!text) return { items: [] };
  const rows = await findAccounts(app, text, SEARCH_MAX_HITS, pickerFilter(filter), culture);
  return { items: rows.map((r) => ({ id: r.id, description: r.name })) };
}

type Found = { id: number; name: string; emails: string[]; phones: string[]; isOwner: boolean; isClient: boolean; isProfessional: boolean; isSource: boolean; isEmploye: boolean };

/** The phone or e-mail that matched, else the first phone or e-mail: tells namesakes apart. */
function contactHint(r: Found, text: string, withEmails: boolean): string | undefined {
  const q = plainText(text);
  const digits = phoneDigits(text);
  const emails = withEmails ? r.emails : [];
  return (
    (digits ? r.phones.find((p) => p.replace(/\D/g, '').includes(digits)) : undefined) ??
    emails.find((e) => plainText(e).includes(q)) ??
    r.phones.find((p) => plainText(p).includes(q)) ??
    r.phones[0] ??
    emails[0]
  );
}

const entityOf = (r: Found): TSearchHit['entity'] =>
  r.isOwner ? 'Owner' : r.isClient ? 'Client' : r.isProfessional ? 'Professional' : r.isSource ? 'Source' : r.isEmploye ? 'Employe' : 'Account';

/** The accounts' part of the global search box. */
export function makeAccountSearchProvider(app: FastifyInstance): SearchProvider {
  return async ({ text, limit, branchId, culture, shared }) => {
    const { top } = await shared('accounts', () => searchAccountMatches(app, text, culture));
    return top.slice(0, limit).map((r) => {
      // An employee's e-mail is its sign-in: a branch user is not shown it.
      const hint = contactHint(r, text, !(branchId !== null && r.isEmploye));
      return { id: r.id, description: hint ? `${r.name} (${hint})` : r.name, entity: entityOf(r) };
    });
  };
}
