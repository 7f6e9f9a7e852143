import type { FastifyInstance } from 'fastify';
import { and, or, sql, type SQL } from 'drizzle-orm';
import { LEAD_CLOSED_STAGES, SEARCH_MAX_HITS, plainText, type TSearchHit } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import type { SearchProvider } from '../shell/shell.routes.ts';
import { collationOf, containsPattern, idSetFromLiteral, idSetOf, latinMatch, latinReadings, phoneDigits, startsPattern, wordStartsPattern, type IdSet } from './accounts.sql.ts';

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
    digits ? undefined : latinMatch(sql`${accounts.searchText}`, text, true),
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
export type AccountMatches = { top: Found[]; ids: IdSet; openLeads?: number[]; walked?: Walked };
/**
 * How one word was answered (decision 099), for the tests only (no provider passes it on): the
 * accounts shown and the open leads each walked in order, or looked up word by word.
 */
export type Walked = { accounts: boolean; leads: boolean; counted?: Counted; /** Walked without counting: its last search walked whole (decision 127). */ remembered?: boolean };
/**
 * What the count of a fragment's words chose (walkWords): `walk`; `words` (at most WALK_WORDS_MIN
 * words, or patterns with a space); `few accounts` (more words, but of fewer than 20 accounts).
 */
export type Counted = 'walk' | 'words' | 'few accounts';
/** At most this many matching accounts are read for the global search (a hit list shows 20). */
const MATCHES_MAX = 5000;

/**
 * The global search's accounts: the accounts provider shows the best of them (word starts first,
 * then by name), the leads provider looks for their leads. Both read the same matches, so it is done
 * once a search (SearchProvider's `shared`). One word: the 20 shown and the newest open leads are
 * read word by word, or walked in order when the fragment is in many words (wordMatches, decision
 * 099). Text with a
 * space, more than 5,000 matches: the best of the first 5,000 found are shown, and typing on
 * narrows it.
 */
export async function searchAccountMatches(app: FastifyInstance, text: string, culture?: string): Promise<AccountMatches> {
  const found = (oneWord(text) ? await oneWordMatches(app, text, true, culture) : (await app.db.execute<MatchesRow>(rowMatches(text, culture))).rows[0]) ?? {
    ids: '{}',
    n: 0,
    top: [],
    leads: [],
  };
  // No ids when the open leads fill the hits: the leads' search reads none then (findLeads), and
  // 3,000 of them («Παπαδ») were written out and read for nothing.
  const ids = found.ids === null ? { size: found.n, literal: '{}' } : idSetFromLiteral(found.ids);
  const walked = { accounts: found.accountsWalked === true, leads: found.leadsWalked === true, ...(found.counted ? { counted: found.counted } : {}), ...(found.remembered ? { remembered: true } : {}) };
  if (found.top.length || text.length < 4) return { top: found.top, ids, openLeads: found.leads, walked };
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
  return sql`select s.word, case when s.word like ${startsPattern(text)} then 0 else 1 end as rank from search_words s where ${wordMatch(text)}`;
}

/** A word `s.word` of search_words has the fragment (as typed, as its digits, as its Latin skeleton). */
function wordMatch(text: string): SQL {
  const digits = phoneDigits(text);
  const latin = digits ? undefined : latinMatch(sql`s.word`, text, true);
  return sql`(s.word like ${containsPattern(text)}
        ${digits && digits !== text ? sql`or s.word like ${containsPattern(digits)}` : sql``}
        ${latin ? sql`or ${latin}` : sql``})`;
}

/**
 * Above this many matched words a fragment is walked in the answer's order instead of word by word
 * (decision 099). Word by word costs about two index look-ups a matched word (its 20 accounts, its
 * 20 newest open leads): «6944» (983 words) 9 ms, «2310» (17,221) 130 ms, «mail» (56,485) 430 ms.
 * Walking the accounts in name order and the open leads newest first costs a row read a row walked,
 * and a fragment in many words is in many accounts: 20 of them come within the first few dozen
 * rows («mail»: 30). The line is drawn between «6944» and the fragments in ten thousand words and
 * more; where exactly both cost the same was not measured (decision 099).
 */
export const WALK_WORDS_MIN = 1000;
/**
 * At most this many accounts, and open leads, are walked. The matched accounts may all sort late
 * (in Russian order the Russian clients, with no «gmail», come first: 15,031 of them before the 20th
 * «gmail»); the accounts are read from an index by name that carries their search text (0111), at
 * well under a microsecond each. The leads are read from their rows and their clients' (a few
 * microseconds each), and their order (by date) does not follow the names. A walk that found fewer
 * than 20 is given up and the fragment is looked up word by word after all.
 */
export const WALK_ACCOUNTS_MAX = 30_000;
/**
 * Above this many words (not walked: of fewer than 20 accounts, or the walk given up) the words'
 * accounts and open leads are grouped, all of them, instead of looked up word by word: «mail»
 * (56,485 words) took 430–490 ms word by word against 175–185 ms grouped before the walk (0103).
 */
export const WORDS_MAX = 30_000;
export const WALK_LEADS_MAX = 4000;
/** An account's name and search text longer than this are not in the index walked (a btree row holds 2,704 bytes; 0111). */
const WALK_ROW_BYTES = 2400;

/**
 * One word typed, ranked ahead (decision 099): the 20 accounts shown and the 20 newest open leads
 * are each the first 20 of an order that does not depend on the fragment (word starts first, then
 * name in the reader's language, then id; date, id). The matched words are counted first (at most
 * WALK_WORDS_MIN + 1 read, planned for that few: `walkWords`); then either
 * - **word by word** (few words, or text whose patterns hold a space): every matched word gives its
 *   own first 20 from an index kept in that order (account_words by word and name in each collation;
 *   lead_words by word and date), and the answer is the first 20 of those: a hit the word's own 20
 *   leave out has 20 of that word before it. «Παπαδ» reads 4 × 20 accounts and 4 × 20 leads;
 * - or **walked** (many words): the accounts whose word starts with the fragment (few words starting
 *   with it: word by word as above; many: walked), then, when they are fewer than 20, the accounts
 *   in name order from the collation's index that carries the search text (0111), each tested on
 *   it, stopping at 20; the open leads newest first from their date index, each tested on its
 *   client's search text. A fragment without a space lies inside one word, so the search text has
 *   it exactly when one of its words does. A walk that does not find its 20 within
 *   WALK_ACCOUNTS_MAX or WALK_LEADS_MAX rows leaves that part to the words.
 * Three statements, each planned for its own work only (decision 110): this count, then the words
 * (wordMatches) or the walk (walkMatches), and the words again after a walk only for what the walk
 * did not find. Planned together, every search paid for the parts it did not run: the words' plan
 * for a walked fragment, the words' fallback inside the walk's.
 * All the matched accounts are read (at most 5,000) only when the open leads are fewer than 20 and
 * the leads' search wants them to look among the closed ones too.
 */
function walkWords(text: string): SQL {
  const digits = phoneDigits(text);
  // Only patterns without a space can be tested on the whole search text instead of its words.
  const patterns = [containsPattern(text), ...(digits ? [] : latinReadings(text).map((v) => sql`crm_latin_skeleton(${v})`))];
  const walkable = sql.join(
    patterns.map((p) => sql`position(' ' in ${p}) = 0`),
    sql` and `,
  );
  // `limit (select …)`: a limit the planner cannot see, so it plans for many rows and reads the
  // trigram index (with `limit 1001` it chose a sequential scan of search_words). Many words of few
  // accounts (a mailing list's addresses) are not walked: the walk would not find its 20 and give way
  // to the words after all. Whether the first words read belong to 20 accounts is asked word by word
  // in their order (`r`), each word adding the accounts not seen yet, and stops at 20: a fragment
  // of many accounts reads a few dozen words, not all 1,001 (decision 110). The answer (`counted`):
  // walk, words (few words, or a space in the patterns), or few accounts (many words, fewer than 20 accounts);
  // and (`words`) the matched words themselves when they are all there (at most WALK_WORDS_MIN), which
  // the words' statement takes instead of reading the trigram index a second time (decision 126).
  return sql`with recursive c as materialized (select s.word from search_words s where ${wordMatch(text)} limit (select ${sql.raw(String(WALK_WORDS_MIN + 1))})),
    cw as materialized (select count(*)::int as n, array_agg(word) as words from c),
    r (i, ids) as (
      select 0, '{}'::int[]
      union all
      select r.i + 1, r.ids || array(select aw.account_id from account_words aw
        where aw.word = (select words from cw)[r.i + 1] and aw.account_id <> all(r.ids) limit ${SEARCH_MAX_HITS})
      from r where cardinality(r.ids) < ${SEARCH_MAX_HITS} and r.i < (select n from cw))
    select case when (select n from cw) > ${WALK_WORDS_MIN} and ${walkable}
      then case when (select max(cardinality(ids)) from r) >= ${SEARCH_MAX_HITS} then 'walk' else 'few accounts' end else 'words' end as counted,
      case when (select n from cw) <= ${WALK_WORDS_MIN} then coalesce((select words from cw), '{}') end as words`;
}

/**
 * Word by word (decision 099): the words' own first 20 accounts and 20 newest open leads; the matched
 * ids too when asked. `withTop` false (the accounts walked already): the ids and leads only, and
 * `best` (up to WORDS_MAX × 2 index look-ups, or every account of the words grouped) is not run.
 */
function wordMatches(text: string, withIds = true, culture?: string, withTop = true, words?: string[]): SQL {
  const collate = collationOf(culture);
  // Word by word up to WORDS_MAX words; past it (many words of few accounts, or a walk given up)
  // every account of the words grouped: the same first 20 (kw counts the words read already).
  const few = sql`(select few from kw)`;
  // The words the count read already (all of them, at most WALK_WORDS_MIN): not looked up again.
  const matched = words
    ? sql`select x.word, case when x.word like ${startsPattern(text)} then 0 else 1 end as rank from unnest(${sql.param(words)}::text[]) x(word)`
    : matchedWords(text);
  // Words given (at most WALK_WORDS_MIN, under WORDS_MAX): word by word for certain, the grouped parts
  // left out of the statement (not planned for nothing).
  const wordByWord = sql`(select x.account_id as id, min(w.rank) as rank, min(x.name) as name
      from w cross join lateral (
        select aw.account_id, aw.name from account_words aw where aw.word = w.word
        order by aw.name collate ${collate}, aw.account_id limit ${SEARCH_MAX_HITS}) x
      ${words ? sql`` : sql`where ${few}`} group by x.account_id order by min(w.rank), min(x.name) collate ${collate}, x.account_id limit ${SEARCH_MAX_HITS})`;
  const ctes = words
    ? sql`w as materialized (${matched}), best as ${wordByWord}`
    : sql`w as materialized (${matched}),
    kw as materialized (select count(*) <= ${WORDS_MAX} as few from (select 1 from w limit ${WORDS_MAX + 1}) c),
    best as (
      ${wordByWord}
      union all
      (select aw.account_id as id, min(w.rank) as rank, min(aw.name) as name
      from w join account_words aw on aw.word = w.word
      where not ${few} group by aw.account_id order by min(w.rank), min(aw.name) collate ${collate}, aw.account_id limit ${SEARCH_MAX_HITS}))`;
  const top = topOf(sql`best`, collate);
  if (!withIds) return sql`with ${ctes} select ${top}`;
  const leadsWordByWord = sql`array(
      select u.lead_id from (
        select distinct y.lead_id, y.created_on from w cross join lateral (
          select lw.lead_id, lw.created_on from lead_words lw where lw.word = w.word
          order by lw.created_on desc, lw.lead_id desc limit ${SEARCH_MAX_HITS}) y) u
      order by u.created_on desc, u.lead_id desc limit ${SEARCH_MAX_HITS})`;
  const byWords = words
    ? leadsWordByWord
    : sql`case when ${few} then ${leadsWordByWord} else array(
      select u.lead_id from (select distinct lw.lead_id, lw.created_on from w join lead_words lw on lw.word = w.word) u
      order by u.created_on desc, u.lead_id desc limit ${SEARCH_MAX_HITS}) end`;
  return sql`
    with ${ctes},
    lz as materialized (select ${byWords} as leads),
    m as materialized (
      select distinct aw.account_id as id from account_words aw where aw.word in (select word from w) limit ${MATCHES_MAX})
    select ${IDS_AND_LEADS}${withTop ? sql`, ${top}` : sql``} from lz`;
}

/** The 20 accounts shown, with their columns (Found), from `from` (id, rank, name), in order. */
const topOf = (from: SQL, collate: SQL) => sql`coalesce((select json_agg(t) from (
        select ${HIT_FIELDS}
        from ${from} c join ${accounts} on ${accounts.id} = c.id
        order by c.rank, c.name collate ${collate}, c.id) t), '[]') as top`;

/**
 * Walked (decision 099): the accounts in name order and (`withLeads`) the open leads newest first,
 * each tested on the search text, stopping at 20. Only the walk: `accountsWalked` and `leadsWalked`
 * say whether each found its 20 (or all there are), else the words answer that part (oneWordMatches).
 */
function walkMatches(text: string, withLeads: boolean, culture?: string): SQL {
  const collate = collationOf(culture);
  const { match, rank } = matchParts(text);
  // Walked from the index by name that carries the search text (0111), which leaves out the few
  // accounts too long for a btree row: those are read apart (`long`), all of them.
  const short = sql`coalesce(octet_length(${accounts.displayName}), 0) + coalesce(octet_length(${accounts.searchText}), 0)`;
  const byName = sql`(select ${accounts.id}, ${accounts.displayName}, ${accounts.searchText} from ${accounts} where ${short} <= ${sql.raw(String(WALK_ROW_BYTES))}
      order by ${accounts.displayName} collate ${collate}, ${accounts.id} limit ${WALK_ACCOUNTS_MAX}) ${accounts}`;
  const long = sql`(select ${accounts.id}, ${accounts.displayName}, ${accounts.searchText} from ${accounts} where ${short} > ${sql.raw(String(WALK_ROW_BYTES))}) ${accounts}`;
  // Word starts (rank 0): their words from search_words' own order (a prefix of the key); few of
  // them are looked up word by word (r0w), many walked (r0s, and the long accounts r0l).
  const few0 = sql`(select words from k0) <= ${WALK_WORDS_MIN}`;
  const walked = sql`w0 as materialized (select s.word from search_words s where s.word like ${startsPattern(text)} limit ${WALK_WORDS_MIN + 1}),
    k0 as materialized (select count(*)::int as words from w0),
    r0w as materialized (
      select x.account_id as id, min(x.name) as name from w0 cross join lateral (
        select aw.account_id, aw.name from account_words aw where aw.word = w0.word
        order by aw.name collate ${collate}, aw.account_id limit ${SEARCH_MAX_HITS}) x
      where ${few0} group by x.account_id),
    r0s as materialized (select ${accounts.id} as id, ${accounts.displayName} as name from ${byName}
      where not ${few0} and ${rank} = 0 limit ${SEARCH_MAX_HITS}),
    r0l as materialized (select ${accounts.id} as id, ${accounts.displayName} as name from ${long} where not ${few0} and ${rank} = 0),
    done0 as materialized (select case when ${few0} then (select count(*) from r0w) else (select count(*) from r0s) end >= ${SEARCH_MAX_HITS} as done),
    a1s as materialized (select ${accounts.id} as id, ${accounts.displayName} as name, ${rank} as rank from ${byName}
      where not (select done from done0) and ${match} limit ${SEARCH_MAX_HITS}),
    a1l as materialized (select ${accounts.id} as id, ${accounts.displayName} as name, ${rank} as rank from ${long}
      where not (select done from done0) and ${match}),
    done as materialized (select (select done from done0) or (${few0} and (select count(*) from a1s) >= ${SEARCH_MAX_HITS}) as done),
    chosen as (
      select id, min(rank) as rank, min(name) as name from (
        select id, 0 as rank, name from r0w union all select id, 0, name from r0s union all select id, 0, name from r0l
        union all select id, rank, name from a1s union all select id, rank, name from a1l) b
      where (select done from done) group by id order by min(rank), min(name) collate ${collate}, id limit ${SEARCH_MAX_HITS})`;
  const answer = sql`(select done from done) as "accountsWalked", ${topOf(sql`chosen`, collate)}`;
  if (!withLeads) return sql`with ${walked} select ${answer}`;
  return sql`with ${walked},
    lwalk as materialized (select array(
      select l.id from (select l.id, l.account_id, l.created_on from leads l
        where not l.draft and coalesce(l.stage, 0) not in (${closedStages})
        order by l.created_on desc, l.id desc limit ${WALK_LEADS_MAX}) l
      join ${accounts} on ${accounts.id} = l.account_id
      where ${match}
      order by l.created_on desc, l.id desc limit ${SEARCH_MAX_HITS}) as leads)
    select ${answer}, (select leads from lwalk) as leads, cardinality((select leads from lwalk)) = ${SEARCH_MAX_HITS} as "leadsWalked"`;
}

const closedStages = sql.join(
  LEAD_CLOSED_STAGES.map((s) => sql.raw(String(s))),
  sql`, `,
);

/** The row of the global search's statement (ids, n and leads only with the ids asked for). */
type MatchesRow = { ids: string | null; n: number; top: Found[]; leads: number[]; accountsWalked?: boolean; leadsWalked?: boolean; counted?: Counted; remembered?: boolean };

/**
 * One word typed: ranked ahead, word by word or walked (whichever the count of its words chose, a
 * statement of its own: planned with either, it cost every search the other's planning). A walk
 * that did not find its 20 accounts, or its 20 open leads, leaves that part to the words.
 */
async function oneWordMatches(app: FastifyInstance, text: string, withIds: boolean, culture?: string): Promise<MatchesRow | undefined> {
  const remembered = walkedLately(app.db, text);
  const count = remembered ? undefined : (await app.db.execute<{ counted: Counted; words: string[] | null }>(walkWords(text))).rows[0];
  const counted = remembered ? 'walk' : (count?.counted ?? 'words');
  if (counted !== 'walk') {
    const row = (await app.db.execute<MatchesRow>(wordMatches(text, withIds, culture, true, count?.words ?? undefined))).rows[0];
    return row && { ...row, counted };
  }
  const walked = (await app.db.execute<WalkRow>(walkMatches(text, withIds, culture))).rows[0]!;
  const leadsWalked = withIds ? walked.leadsWalked === true : undefined;
  // Walked whole: the next search of this text walks without counting first; a walk that gave way
  // (the fragment in fewer accounts now, or named late) is counted again next time.
  rememberWalk(app.db, text, walked.accountsWalked && leadsWalked !== false, !remembered);
  const seen = remembered ? { remembered } : {};
  if (walked.accountsWalked && leadsWalked !== false) return { ids: null, n: walked.leads?.length ?? 0, top: walked.top, leads: walked.leads ?? [], accountsWalked: true, leadsWalked, counted, ...seen };
  // The words for what the walk left: the accounts (then the leads too when those were not walked),
  // or, the accounts walked, only the open leads and (fewer than 20) the matched ids, without the
  // words' own 20 accounts (`withTop`).
  const words = (await app.db.execute<Omit<MatchesRow, 'top'> & { top?: Found[] }>(wordMatches(text, withIds && !leadsWalked, culture, !walked.accountsWalked))).rows[0]!;
  const top = walked.accountsWalked ? walked.top : words.top!;
  if (leadsWalked) return { ids: null, n: walked.leads!.length, top, leads: walked.leads!, accountsWalked: walked.accountsWalked, leadsWalked, counted, ...seen };
  return { ...words, top, accountsWalked: walked.accountsWalked, leadsWalked, counted, ...seen };
}

/**
 * The texts whose last search walked whole (decision 127), per database handle: the count (walkWords)
 * is the largest statement of a fragment in tens of thousands of words («gmail», «.gr»: its trigram
 * index reads every one of them to find 1,001), and what it decides changes nothing in the answer,
 * only the way to it: the walk tests each account's and lead's search text itself, and gives way to
 * the words when it does not find its 20. Such fragments are few (they are in thousands of
 * accounts) and typed again and again, so they are walked straight away for WALKED_FOR ms after a
 * walk that found everything; a walk that gave way forgets its text. At most WALKED_MAX texts.
 */
const WALKED_FOR = 10 * 60_000;
const WALKED_MAX = 1000;
const walkedTexts = new WeakMap<Db, Map<string, number>>();
function walkedLately(db: Db, text: string): boolean {
  const at = walkedTexts.get(db)?.get(text);
  return at !== undefined && Date.now() - at < WALKED_FOR;
}
/**
 * After a walk: a text walked whole is kept from the time its words were last counted (a remembered
 * walk keeps that time, so every text is counted again at least once each WALKED_FOR: one that has
 * become rare meanwhile goes back to its words); a walk that gave way forgets it.
 */
function rememberWalk(db: Db, text: string, whole: boolean, counted: boolean): void {
  let texts = walkedTexts.get(db);
  if (!texts) walkedTexts.set(db, (texts = new Map()));
  const since = texts.get(text);
  texts.delete(text);
  if (!whole || (!counted && since === undefined)) return;
  if (texts.size >= WALKED_MAX) texts.delete(texts.keys().next().value as string);
  texts.set(text, counted ? Date.now() : since!);
}
/** Forgets every text walked (the tests: the count asked again). */
export function forgetWalkedTexts(db: Db): void {
  walkedTexts.delete(db);
}

/** The walk's row (walkMatches): leads only when asked for. */
type WalkRow = { accountsWalked: boolean; top: Found[]; leads?: number[]; leadsWalked?: boolean };

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
  const latin = digits ? undefined : latinMatch(sql`s.word`, text, true);
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
  const n = Number((await app.db.execute<{ n: number }>(sql`select crm_search_words_prune() as n`)).rows[0]?.n);
  // -1: saves kept writing words for its ten seconds of asking (an import): failed, tried again later.
  if (n < 0) throw new Error('The search words were not pruned: a save writing words held the table for the whole time the prune asked for it');
  // The properties' words (0124) in the same way.
  const o = Number((await app.db.execute<{ n: number }>(sql`select crm_object_search_words_prune() as n`)).rows[0]?.n);
  if (o < 0) throw new Error("The properties' search words were not pruned: a save writing words held the table for the whole time the prune asked for it");
}

async function findAccounts(app: FastifyInstance, text: string, limit: number, extra?: SQL, culture?: string) {
  // Every account (no filter), one word: from the word table, as the global search.
  const rows =
    !extra && limit === SEARCH_MAX_HITS && oneWord(text)
      ? ((await oneWordMatches(app, text, false, culture))?.top ?? [])
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
