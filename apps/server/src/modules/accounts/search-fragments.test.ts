// The global search's fragments ranked ahead (migrations 0103 and 0111, decision 099): the 20 accounts
// shown and the 20 newest open leads, each word giving its own first 20 from an index kept in that
// order, or (a fragment in many words) the accounts walked in name order and the open leads newest
// first, against the statement they replaced (every matched account grouped, sorted, and its leads looked
// up), on random data after random changes to the accounts and their leads; and the kept words of
// the open leads against the same words made from the rows. The seed is in every failure message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { createTestApp } from '../../../test/harness.ts';
import { heldUp } from '../../../test/locks.ts';
import { seededRandom } from '../../../test/seeded.ts';
import { WALK_WORDS_MIN, WORDS_MAX, forgetWalkedTexts, searchAccountMatches, searchAccounts } from './accounts.search.ts';
import { collationOf, containsPattern, latinMatch, phoneDigits, startsPattern } from './accounts.sql.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { db } = t;
const { SEED, pick, chance, between } = seededRandom('SEARCH_FRAGMENTS_SEED');

const STEMS = ['Παπαδ', 'Καραμ', 'Γεωργ', 'Ζαχαρ', 'Papad'];
const ENDS = ['όπουλος', 'οπούλου', 'άκης', 'ίου', 'ιάδης'];
const FIRST = ['Μαρία', 'Νίκος', 'Ελένη', 'Γιώργος', 'Anna', 'Άννα', 'Ólga'];
// "mail" and "@mail.gr" are in more words than the word-by-word path takes (WALK_WORDS_MIN; the
// mailing lists' e-mails): the accounts and leads are walked; "list" starts more than that many words
// (the word starts are walked too); "member" and "rs.example" are in more than that many words of one
// account (the walks find fewer than 20 and give way to the words); "gmail" is in 300 words (the
// clients'), ranked word by word.
// "mail" starts more than that many words (a list's `mail.N@…`) and "ail." fewer (the word starts
// walked, or looked up word by word inside the walk): both have word starts in accounts named late
// («Zzz») and the fragment inside a word in accounts named early («Aaa»), so a walk that lost the
// word starts, or sorted without them first, shows other accounts.
const FRAGMENTS = ['Παπαδ', 'καραμ', 'πουλ', 'ακης', 'papad', 'karam', 'Ζαχαρι', 'μαρι', 'anna', 'ιου', 'olga', 'xyzw', 'mail', 'ail.', 'gmail', '@mail.gr', 'list', 'member', 'rs.example'];
/** Walked (accounts, leads) in every round and reader's language; word by word in every one. */
const WALKED = ['mail', 'ail.', '@mail.gr', 'list'];
const WALKED_LEADS = ['mail', '@mail.gr'];
const BY_WORDS_FEW = ['Παπαδ', 'gmail'];
const BY_WORDS_ONE = ['member', 'rs.example'];
const lastName = () => pick(STEMS) + pick(ENDS);

const column = async (q: SQL) => (await db.execute<{ id: number }>(q)).rows.map((r) => Number(r.id));

/** The statement the global search ran before 0103: every matched account grouped, sorted, its open leads looked up. */
async function before(text: string, culture: string) {
  const collate = collationOf(culture);
  const digits = phoneDigits(text);
  const latin = digits ? undefined : latinMatch(sql`s.word`, text);
  const { rows } = await db.execute<{ ids: number[]; top: number[]; leads: number[] }>(sql`
    with w as (
      select s.word from search_words s
      where s.word like ${containsPattern(text)}
        ${digits && digits !== text ? sql`or s.word like ${containsPattern(digits)}` : sql``}
        ${latin ? sql`or ${latin}` : sql``}),
    m as materialized (
      select aw.account_id as id, min(aw.name) as name, min(case when aw.word like ${startsPattern(text)} then 0 else 1 end) as rank
      from account_words aw where aw.word in (select word from w)
      group by aw.account_id limit 5000)
    select coalesce((select array_agg(id order by id) from m), '{}') as ids,
      array(select id from m order by rank, name collate ${collate}, id limit 20) as top,
      array(select l.id from leads l where l.account_id = any(array(select id from m)) and coalesce(l.stage, 0) not in (6, 7)
        and l.id not in (select d.id from leads d where d.draft) order by l.created_on desc, l.id desc limit 20) as leads`);
  return rows[0]!;
}

async function seed() {
  await db.execute(sql`insert into accounts (first_name, last_name, is_client, emails)
    select (${sql.param(FIRST)}::text[])[1 + (g % 7)], (${sql.param(STEMS)}::text[])[1 + (g * 7 % 5)] || (${sql.param(ENDS)}::text[])[1 + (g * 3 % 5)], true,
      array['client' || g || '@mail.gr', 'c' || g || '@gmail.com'] from generate_series(1, 300) g`);
  // Mailing lists (not clients: no leads), 25 of them, past WALK_WORDS_MIN words with "mail" in them, and starting with "list".
  const each = Math.ceil((WALK_WORDS_MIN + 100) / 25);
  await db.execute(sql`insert into accounts (first_name, last_name, emails)
    select 'Λίστα', 'Αλληλογραφίας ' || g, array(select 'list' || g || '.' || i || '@mail.gr' from generate_series(1, ${each}) i) from generate_series(1, 25) g`);
  // One list alone past WALK_WORDS_MIN words: a walk finds fewer than 20 accounts. Its search text is
  // too long for the index walked (0111), and its name first in Greek order: «mail» shows it from the
  // long accounts read apart.
  await db.execute(sql`insert into accounts (last_name, emails)
    select 'Ακαδημία Μελών', array(select 'member' || i || '@mail.members.example' from generate_series(1, ${WALK_WORDS_MIN + 100}) i)`);
  // Word starts named late, the same fragments inside a word named early (Latin: the same order in
  // every language). «ail.» starts the words of 10 of them: the walk adds the first by name after them.
  await db.execute(sql`insert into accounts (first_name, last_name, emails)
    select 'Zzz', 'Zzz ' || g, array['mailbox' || g || '@zzz.example'] || case when g <= 10 then array['ail.' || g || '@zzz.example'] else '{}' end
    from generate_series(1, 25) g`);
  await db.execute(sql`insert into accounts (first_name, last_name, emails)
    select 'Aaa', 'Aaa ' || g, array['xmailbox' || g || '@aaa.example', 'xail.' || g || '@aaa.example'] from generate_series(1, 25) g`);
  await db.execute(sql`insert into accounts (last_name, emails)
    select 'Zzz List', array(select 'mail.' || i || '@list.example' from generate_series(1, ${WALK_WORDS_MIN + 100}) i)`);
  const accounts = await column(sql`select id from accounts where is_client order by id`);
  for (let i = 0; i < 500; i++) {
    await db.execute(sql`insert into leads (account_id, stage, created_on, draft, for_purchase)
      values (${pick(accounts)}, ${pick([null, 1, 2, 3, 4, 5, 6, 7])}, now() - make_interval(days => ${between(0, 60)}), ${chance(0.03)}, true)`);
  }
}

async function change() {
  const accounts = await column(sql`select id from accounts where is_client order by id`);
  const leads = await column(sql`select id from leads order by id`);
  switch (between(0, 10)) {
    case 0:
      await db.execute(sql`update leads set stage = ${pick([null, 1, 3, 6, 7])} where id = ${pick(leads)}`);
      break;
    case 1:
      // Same days often: the leads' ties are broken by id.
      await db.execute(sql`update leads set created_on = date_trunc('day', now()) - make_interval(days => ${between(0, 5)}) where id = ${pick(leads)}`);
      break;
    case 2:
      await db.execute(sql`update leads set draft = not draft where id = ${pick(leads)}`);
      break;
    case 3:
      await db.execute(sql`update accounts set last_name = ${lastName()} where id = ${pick(accounts)}`);
      break;
    case 4:
      await db.execute(sql`update accounts set first_name = ${pick(FIRST)} where id = ${pick(accounts)}`);
      break;
    case 5:
      await db.execute(sql`update leads set account_id = ${chance(0.1) ? null : pick(accounts)} where id = ${pick(leads)}`);
      break;
    case 6:
      await db.execute(sql`insert into leads (account_id, stage, created_on, draft, for_purchase)
        values (${pick(accounts)}, ${pick([null, 1, 7])}, date_trunc('day', now()) - make_interval(days => ${between(0, 5)}), ${chance(0.2)}, true)`);
      break;
    case 7:
      await db.execute(sql`delete from leads where id = ${pick(leads)}`);
      break;
    case 8:
      // An account gone: its leads keep no client (on delete set null).
      if (chance(0.3)) await db.execute(sql`delete from accounts where id = ${pick(accounts)}`);
      break;
    case 9:
      await db.execute(sql`insert into accounts (first_name, last_name, is_client) values (${pick(FIRST)}, ${lastName()}, true)`);
      break;
    case 10:
      // A client's e-mails changed: in the walked fragments' words, or out of them.
      await db.execute(sql`update accounts set emails = ${sql.param(pick([[], ['x' + between(1, 999) + '@mail.gr'], ['list' + between(1, 99) + '@example.gr'], ['member@mail.gr', 'n@gmail.com']]))}::text[] where id = ${pick(accounts)}`);
      break;
  }
}

describe(`the global search's fragments ranked ahead (SEARCH_FRAGMENTS_SEED=${SEED})`, () => {
  it('shows the same accounts in the same order, and the same newest open leads, as grouping every matched account did', async () => {
    await seed();
    let full = 0;
    const how = new Map<string, Set<string>>();
    // Walked without the count (its last search walked whole, decision 127), after the changes since.
    const remembered = new Set<string>();
    for (let round = 0; round < 10; round++) {
      for (let k = 0; k < 12; k++) await change();
      for (const text of FRAGMENTS) {
        for (const culture of ['en', 'el', 'ru']) {
          const was = await before(text, culture);
          const now = await searchAccountMatches(t.app, text, culture);
          const where = `${text} (${culture}), round ${round}, seed ${SEED}`;
          if (!how.has(text)) how.set(text, new Set());
          how.get(text)!.add(`counted ${now.walked?.counted ?? 'near'}, accounts ${now.walked?.accounts ?? 'near'}, leads ${now.walked?.leads ?? 'near'}`);
          if (now.walked?.remembered) remembered.add(text);
          // Nothing contains it: the near spellings are looked for instead (findNearWord, unchanged).
          if (!was.top.length && text.length >= 4) {
            expect(now.openLeads, `no leads for ${where}`).toBeUndefined();
            continue;
          }
          expect(now.top.map((a) => a.id), `accounts for ${where}`).toEqual(was.top.map(Number));
          expect(now.openLeads, `leads for ${where}`).toEqual(was.leads.map(Number));
          // All the matched accounts, when the leads' search wants them (fewer than 20 open leads).
          const ids = now.ids.literal.slice(1, -1).split(',').filter(Boolean).map(Number);
          if (now.openLeads!.length < 20) expect(ids.sort((a, b) => a - b), `ids for ${where}`).toEqual(was.ids.map(Number));
          else full++;
          // How many accounts matched, or (no ids: the open leads fill the hits) how many open leads.
          expect(now.ids.size, `the ids' size for ${where}`).toBe(now.openLeads!.length < 20 ? was.ids.length : 20);
          // The account picker (no filter): the same 20.
          const picked = await searchAccounts(t.app, text, 0, culture);
          if (was.top.length) expect(picked.items.map((i) => i.id), `picker for ${where}`).toEqual(was.top.map(Number));
        }
      }
      // The kept words of the open leads are those made from the rows now.
      // Both sides ordered the same way (word in "C", the kept words' collation): `order by 1 collate "C"` would order by the constant 1.
      const kept = await db.execute(sql`select word, lead_id, created_on from lead_words order by word collate "C", lead_id`);
      const made = await db.execute(sql`select w as word, l.id as lead_id, l.created_on from leads l join accounts a on a.id = l.account_id,
        unnest(crm_search_text_words(a.search_text)) w where not l.draft and coalesce(l.stage, 0) not in (6, 7) order by w collate "C", l.id`);
      expect(kept.rows, `lead_words, round ${round}, seed ${SEED}`).toEqual(made.rows);
    }
    // The fragments that fill the 20 newest from the words' own 20 were compared often.
    expect(full).toBeGreaterThan(30);
    // Which were walked: asked of the search itself, not inferred from the words' count.
    for (const text of WALKED) expect([...how.get(text)!].every((h) => h.startsWith('counted walk, accounts true')), `${text}: ${[...how.get(text)!]}`).toBe(true);
    for (const text of WALKED_LEADS) expect([...how.get(text)!].some((h) => h.endsWith('leads true')), `${text}: ${[...how.get(text)!]}`).toBe(true);
    for (const text of WALKED_LEADS) expect(remembered.has(text), `${text} walked without the count`).toBe(true);
    for (const text of [...BY_WORDS_FEW, ...BY_WORDS_ONE]) expect(remembered.has(text), `${text} counted every time`).toBe(false);
    // Not walked, told apart from walked with both parts given back to the words: few words, or many of one account.
    for (const text of BY_WORDS_FEW) expect([...how.get(text)!], text).toEqual(['counted words, accounts false, leads false']);
    for (const text of BY_WORDS_ONE) expect([...how.get(text)!], text).toEqual(['counted few accounts, accounts false, leads false']);
    // "member" and "rs.example" are in more words than the walk's line, but of one account: word by word.
    const words = async (like: string) => (await column(sql`select count(*)::int as id from search_words where word like ${like}`))[0]!;
    for (const walked of ['%mail%', 'list%', 'mail%', '%ail.%', 'member%', '%rs.example%']) expect(await words(walked), walked).toBeGreaterThan(WALK_WORDS_MIN);
    expect(await words('ail.%')).toBeLessThanOrEqual(WALK_WORDS_MIN);
    expect(await words('%gmail%')).toBeLessThanOrEqual(WALK_WORDS_MIN);
    expect(await words('%gmail%')).toBeGreaterThan(200);
  }, 240_000);
});

describe(`a fragment in more than WORDS_MAX words of fewer than 20 accounts (SEARCH_FRAGMENTS_SEED=${SEED})`, () => {
  it('groups them all, with the same answers', async () => {
    // Apart from the rounds above: there these accounts' search texts made every round slow.
    const per = Math.ceil((WORDS_MAX + 100) / 10);
    await db.execute(sql`insert into accounts (first_name, last_name, emails)
      select 'Big', case when g <= 5 then 'Zzz ' else 'Aaa ' end || g,
        array(select case when g <= 5 then '' else 'x' end || 'bigl' || g || '.' || i || '@b.gr' from generate_series(1, ${per}) i) from generate_series(1, 10) g`);
    const big = await column(sql`select id from accounts where first_name = 'Big' order by id`);
    for (let i = 0; i < 30; i++) {
      await db.execute(sql`insert into leads (account_id, stage, created_on, draft, for_purchase)
        values (${pick(big)}, ${pick([null, 1, 7])}, date_trunc('day', now()) - make_interval(days => ${between(0, 5)}), ${chance(0.1)}, true)`);
    }
    const words = (await column(sql`select count(*)::int as id from search_words where word like '%bigl%'`))[0]!;
    expect(words).toBeGreaterThan(WORDS_MAX);
    for (const text of ['bigl', 'igl']) {
      for (const culture of ['en', 'el', 'ru']) {
        const was = await before(text, culture);
        const now = await searchAccountMatches(t.app, text, culture);
        const where = `${text} (${culture}), seed ${SEED}`;
        expect(now.walked, where).toEqual({ counted: 'few accounts', accounts: false, leads: false });
        expect(now.top.map((a) => a.id), `accounts for ${where}`).toEqual(was.top.map(Number));
        expect(now.openLeads, `leads for ${where}`).toEqual(was.leads.map(Number));
        if (now.openLeads!.length < 20) expect(now.ids.literal.slice(1, -1).split(',').filter(Boolean).map(Number).sort((a, b) => a - b), `ids for ${where}`).toEqual(was.ids.map(Number));
        expect((await searchAccounts(t.app, text, 0, culture)).items.map((i) => i.id), `picker for ${where}`).toEqual(was.top.map(Number));
      }
    }
  }, 60_000);
});

describe(`a walk that finds its accounts or its leads only (SEARCH_FRAGMENTS_SEED=${SEED})`, () => {
  it('gives the other part to the words, with the same answers', async () => {
    // 30 clients with the fragment inside a word, added before the list so that their words are among
    // the first WALK_WORDS_MIN + 1 read (the count says walk); then a list whose WALK_WORDS_MIN + 100
    // words start with it, too long for the index walked: no short account starts with the fragment,
    // and the walk of the accounts gives up (the words answer). «qzk»'s clients have 25 open leads
    // (walked), «qzj»'s 5 (the walk gives up: the words answer both parts). «qzm» starts a word of
    // 25 short accounts without leads: the accounts walked, the leads from the words.
    for (const [frag, leads] of [['qzk', 25], ['qzj', 5]] as const) {
      await db.execute(sql`insert into accounts (first_name, last_name, is_client, emails)
        select 'Πελάτης', 'Client ' || g, true, array['x' || ${frag} || g || '@c.example'] from generate_series(1, 30) g`);
      await db.execute(sql`insert into accounts (last_name, emails)
        select 'Zzz Qlist ' || ${frag}, array(select ${frag} || '.' || i || '@list.example' from generate_series(1, ${WALK_WORDS_MIN + 100}) i)`);
      const clients = await column(sql`select id from accounts where emails[1] like ${'x' + frag + '%@c.example'} order by id`);
      for (let i = 0; i < leads; i++) {
        await db.execute(sql`insert into leads (account_id, created_on, draft, for_purchase)
          values (${clients[i % clients.length]}, now() - make_interval(hours => ${i}), false, true)`);
      }
    }
    await db.execute(sql`insert into accounts (first_name, last_name, emails)
      select 'Μ', 'Mlist ' || g, array(select 'qzm' || g || '.' || i || '@m.example' from generate_series(1, 44) i) from generate_series(1, 25) g`);
    const expected = {
      qzk: { counted: 'walk', accounts: false, leads: true },
      qzj: { counted: 'walk', accounts: false, leads: false },
      qzm: { counted: 'walk', accounts: true, leads: false },
    };
    for (const [text, walked] of Object.entries(expected)) {
      for (const culture of ['en', 'el', 'ru']) {
        const was = await before(text, culture);
        const now = await searchAccountMatches(t.app, text, culture);
        const where = `${text} (${culture}), seed ${SEED}`;
        // Walked without the count or not (the picker walked its accounts whole before): the same parts walked.
        expect({ ...now.walked, remembered: undefined }, where).toEqual(walked);
        expect(now.top.map((a) => a.id), `accounts for ${where}`).toEqual(was.top.map(Number));
        expect(now.openLeads, `leads for ${where}`).toEqual(was.leads.map(Number));
        const ids = now.ids.literal.slice(1, -1).split(',').filter(Boolean).map(Number);
        if (now.openLeads!.length < 20) expect(ids.sort((a, b) => a - b), `ids for ${where}`).toEqual(was.ids.map(Number));
        expect(now.ids.size, `the ids' size for ${where}`).toBe(now.openLeads!.length < 20 ? was.ids.length : 20);
        expect((await searchAccounts(t.app, text, 0, culture)).items.map((i) => i.id), `picker for ${where}`).toEqual(was.top.map(Number));
      }
    }
  }, 60_000);
});

describe(`a fragment walked whole, then in few accounts (SEARCH_FRAGMENTS_SEED=${SEED})`, () => {
  it('is walked without the count while it walks whole, and counted again once a walk gives way', async () => {
    // «qzw» in WALK_WORDS_MIN + 100 words of 25 clients with open leads: walked whole, then remembered.
    await db.execute(sql`insert into accounts (first_name, last_name, is_client, emails)
      select 'Πελάτης', 'Wclient ' || g, true, array(select 'x' || i || 'qzw' || g || '@w.example' from generate_series(1, ${Math.ceil((WALK_WORDS_MIN + 100) / 25)}) i)
      from generate_series(1, 25) g`);
    const clients = await column(sql`select id from accounts where last_name like 'Wclient %' order by id`);
    for (let i = 0; i < 25; i++) {
      await db.execute(sql`insert into leads (account_id, created_on, draft, for_purchase) values (${clients[i]}, now() - make_interval(hours => ${i}), false, true)`);
    }
    const compare = async (step: string, walked: object) => {
      for (const [i, culture] of ['en', 'el', 'ru'].entries()) {
        const was = await before('qzw', culture);
        const now = await searchAccountMatches(t.app, 'qzw', culture);
        const where = `${step} (${culture}), seed ${SEED}`;
        // Only the first search of the three languages counted.
        expect(now.walked, where).toEqual(i === 0 ? walked : { ...walked, remembered: true });
        expect(now.top.map((a) => a.id), `accounts, ${where}`).toEqual(was.top.map(Number));
        expect(now.openLeads, `leads, ${where}`).toEqual(was.leads.map(Number));
        const ids = now.ids.literal.slice(1, -1).split(',').filter(Boolean).map(Number);
        if (now.openLeads!.length < 20) expect(ids.sort((a, b) => a - b), `ids, ${where}`).toEqual(was.ids.map(Number));
      }
    };
    // Remembered from an earlier search: forgotten, the next one counts.
    await searchAccountMatches(t.app, 'qzw', 'en');
    expect((await searchAccountMatches(t.app, 'qzw', 'en')).walked?.remembered).toBe(true);
    forgetWalkedTexts(db);
    await compare('walked whole', { counted: 'walk', accounts: true, leads: true });
    // 20 of the 25 clients lose the fragment: the remembered walk finds 5 and gives way to the words (which answer), and is forgotten.
    await db.execute(sql`update accounts set emails = '{}' where id = any(${sql.param(clients.slice(0, 20))}::int[])`);
    const was = await before('qzw', 'el');
    const now = await searchAccountMatches(t.app, 'qzw', 'el');
    expect(now.walked, `the remembered walk gave way, seed ${SEED}`).toEqual({ counted: 'walk', accounts: false, leads: false, remembered: true });
    expect(now.top.map((a) => a.id)).toEqual(was.top.map(Number));
    expect(now.openLeads).toEqual(was.leads.map(Number));
    expect(now.top).toHaveLength(5);
    // Counted again: its words (the cleared ones stay in the word list until the daily prune) are of fewer than 20 accounts now.
    const again = await searchAccountMatches(t.app, 'qzw', 'el');
    expect(again.walked).toEqual({ counted: 'few accounts', accounts: false, leads: false });
    expect(again.top.map((a) => a.id)).toEqual(was.top.map(Number));
  }, 60_000);
});

describe(`a fragment walked whole, searched again and again (SEARCH_FRAGMENTS_SEED=${SEED})`, () => {
  afterEach(() => vi.useRealTimers());
  it('is counted again ten minutes after its words were last counted, however often it is walked meanwhile', async () => {
    await db.execute(sql`insert into accounts (first_name, last_name, is_client, emails)
      select 'Πελάτης', 'Kclient ' || g, true, array(select 'x' || i || 'qkv' || g || '@k.example' from generate_series(1, ${Math.ceil((WALK_WORDS_MIN + 100) / 25)}) i)
      from generate_series(1, 25) g`);
    await db.execute(sql`insert into leads (account_id, created_on, draft, for_purchase) select id, now(), false, true from accounts where last_name like 'Kclient %'`);
    forgetWalkedTexts(db);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const search = async (minutes: number) => {
      vi.setSystemTime(start + minutes * 60_000);
      return (await searchAccountMatches(t.app, 'qkv', 'el')).walked;
    };
    expect(await search(0)).toEqual({ counted: 'walk', accounts: true, leads: true });
    // Walked without the count every few minutes: still from the count at 0.
    expect((await search(4))?.remembered).toBe(true);
    expect((await search(8))?.remembered).toBe(true);
    // Ten minutes after that count (not after the last walk): counted again.
    expect(await search(11)).toEqual({ counted: 'walk', accounts: true, leads: true });
    expect((await search(15))?.remembered).toBe(true);
  }, 60_000);
});

describe('the words of a lead added while its client is renamed', () => {
  /**
   * A renames the client and holds its transaction; B adds a lead for that client and commits; A
   * commits. B's lead must end with the new name's words, whichever of the two wrote last.
   */
  it("are the new name's words, the lead's transaction waiting for the rename's", async () => {
    const [client] = await column(sql`insert into accounts (first_name, last_name, is_client) values ('Ρένα', 'Παλαιολόγου', true) returning id`);
    const a = new pg.Client({ connectionString: t.dbUrl });
    const b = new pg.Client({ connectionString: t.dbUrl });
    await a.connect();
    await b.connect();
    try {
      await a.query('begin');
      await a.query(`update accounts set last_name = 'Νεοκλέους' where id = $1`, [client]);
      await b.query('begin');
      // B's insert either waits for A's lock on the client, or is done.
      const adding = await heldUp<{ id: number }>(t.pool, b, `insert into leads (account_id, created_on, draft, for_purchase) values ($1, now(), false, true) returning id`, [client]);
      await a.query('commit');
      const lead = Number((await adding.answer).rows[0]!.id);
      await b.query('commit');
      const words = (await db.execute<{ word: string }>(sql`select word from lead_words where lead_id = ${lead} order by word collate "C"`)).rows.map((r) => r.word);
      const made = (await db.execute<{ word: string }>(sql`select w as word from accounts, unnest(crm_search_text_words(search_text)) w where id = ${client} order by w collate "C"`)).rows.map((r) => r.word);
      expect(made.some((w) => w.startsWith('νεοκλε'))).toBe(true);
      expect(words).toEqual(made);
    } finally {
      await a.end();
      await b.end();
    }
  });
});
