// Two answers found in one statement since decision 092, against the two statements they replaced,
// on random data after random changes: the global search's lead hits (the newest open leads of the
// accounts a fragment matches, read with the accounts) and the deals a party's last name finds (the
// parties read with the accounts); and the viewings' comment search, whose page and total come from
// one statement (decision 107), alone and with a date; and the leads list by a client's last name,
// the accounts looked up inside its page's statement (decision 113). The seed is in every failure message.
import { describe, expect, it } from 'vitest';
import { and, sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { seededRandom } from '../../../test/seeded.ts';
import { accountIdsMatching, searchAccountMatches } from '../accounts/accounts.search.ts';
import { accountIdsByLastName, idSetFromLiteral } from '../accounts/accounts.sql.ts';
import { filterConditions } from '../deals/deals.service.ts';
import { findLeads, searchLeads } from './leads.service.ts';
import { searchViewings } from './viewings.service.ts';
import { ZLeadSearch, ZViewingSearch } from '@crm/contract';

const t = await createTestApp({}, undefined, { jobs: false });
const { app, db } = t;
const { SEED, pick, chance, between } = seededRandom('SEARCH_PATHS_SEED');
const tr = (key: string, params?: Record<string, string | number>) => app.translator.t('en', key, params);

const STEMS = ['Παπαδ', 'Καραμ', 'Γεωργ', 'Ζαχαρ'];
const ENDS = ['όπουλος', 'οπούλου', 'άκης', 'ίου', 'ιάδης'];
const FIRST = ['Μαρία', 'Νίκος', 'Ελένη', 'Γιώργος', 'Anna'];
const FRAGMENTS = ['Παπαδ', 'καραμ', 'πουλ', 'ακης', 'papad', 'karam', 'Ζαχαρι'];
const SAID = ['σκοτεινό', 'υγρασία', 'θέα στη θάλασσα', 'Sea view', 'μηχανικός', 'ξαναδεί με τη γυναίκα'];
// Common words, a rare one (three viewings at most: fewer than a page) and one no comment holds.
const SAYINGS = ['σκοτεινο', 'υγρασια θεα', 'sea', 'ΜΗΧΑΝΙΚΟΣ', 'γυναίκα', 'τζάκι', 'κανένα'];
const lastName = () => pick(STEMS) + pick(ENDS);

const column = async (q: ReturnType<typeof sql>) => (await db.execute<{ id: number }>(q)).rows.map((r) => Number(r.id));

async function seed() {
  await db.execute(sql`insert into accounts (first_name, last_name, is_client)
    select (${sql.param(FIRST)}::text[])[1 + (g % 5)], (${sql.param(STEMS)}::text[])[1 + (g * 7 % 4)] || (${sql.param(ENDS)}::text[])[1 + (g * 3 % 5)], true from generate_series(1, 120) g`);
  const accounts = await column(sql`select id from accounts where is_client order by id`);
  for (let i = 0; i < 160; i++) {
    await db.execute(sql`insert into leads (account_id, stage, created_on, draft, for_purchase)
      values (${pick(accounts)}, ${pick([null, 1, 2, 3, 4, 5, 6, 7])}, now() - make_interval(days => ${between(0, 400)}), ${chance(0.03)}, true)`);
  }
  const objects = await column(sql`insert into objects (title) select 'Flat ' || g from generate_series(1, 6) g returning id`);
  for (let i = 0; i < 60; i++) {
    const [v] = await column(sql`insert into viewings (date_of_viewing) values (${chance(0.1) ? null : sql`now() - make_interval(days => ${between(0, 300)})`}) returning id`);
    for (const [k, o] of objects.entries()) {
      if (chance(0.4)) await db.execute(sql`insert into viewing_objects (viewing_id, object_id, position, comment) values (${v!}, ${o}, ${k}, ${chance(0.2) ? null : `${pick(SAID)}, ${pick(SAID)}`})`);
    }
  }
  // Three viewings whose comment only they hold (random changes may rewrite them).
  for (let i = 0; i < 3; i++) {
    const [v] = await column(sql`insert into viewings (date_of_viewing) values (now() - make_interval(days => ${between(0, 300)})) returning id`);
    await db.execute(sql`insert into viewing_objects (viewing_id, object_id, position, comment) values (${v!}, ${objects[0]!}, 0, 'Ρετιρέ με τζάκι')`);
  }
  for (let i = 0; i < 80; i++) {
    const [deal] = await column(sql`insert into deals (deal_type, deal_stage) values (${pick([1, 2])}, ${between(1, 6)}) returning id`);
    for (const relation of [1, 2, 6]) if (chance(0.8)) await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${deal!}, ${pick(accounts)}, ${relation}) on conflict do nothing`);
  }
}

async function change() {
  const accounts = await column(sql`select id from accounts where is_client order by id`);
  const leads = await column(sql`select id from leads order by id`);
  const deals = await column(sql`select id from deals order by id`);
  switch (between(0, 6)) {
    case 0:
      await db.execute(sql`update leads set stage = ${pick([null, 1, 3, 6, 7])} where id = ${pick(leads)}`);
      break;
    case 1:
      await db.execute(sql`update leads set created_on = now() - make_interval(days => ${between(0, 400)}) where id = ${pick(leads)}`);
      break;
    case 2:
      await db.execute(sql`update leads set draft = not draft where id = ${pick(leads)}`);
      break;
    case 3:
      await db.execute(sql`update accounts set last_name = ${lastName()} where id = ${pick(accounts)}`);
      break;
    case 4:
      await db.execute(sql`delete from deal_parties where id = (select min(id) from deal_parties where deal_id = ${pick(deals)})`);
      break;
    case 5:
      await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${pick(deals)}, ${pick(accounts)}, ${pick([1, 2, 3, 6])}) on conflict do nothing`);
      break;
    case 6:
      await db.execute(sql`update leads set account_id = ${pick(accounts)} where id = ${pick(leads)}`);
      break;
  }
  const said = await column(sql`select viewing_id as id from viewing_objects order by 1`);
  if (said.length) await db.execute(sql`update viewing_objects set comment = ${chance(0.2) ? null : pick(SAID)} where viewing_id = ${pick(said)}`);
}

/** The leads' hits as two statements found them: the open ones newest first, then the closed ones to fill the 20 (drafts never). */
async function openThenClosed(ids: string, byId?: number) {
  const whose = sql`(${byId !== undefined ? sql`l.id = ${byId} or ` : sql``}l.account_id = any(${ids}::int[])) and not l.draft`;
  const open = await column(sql`select l.id from leads l where ${whose} and coalesce(l.stage, 0) not in (6, 7) order by l.created_on desc, l.id desc limit 20`);
  const closed = await column(sql`select l.id from leads l where ${whose} and coalesce(l.stage, 0) in (6, 7) order by l.created_on desc, l.id desc limit ${20 - open.length}`);
  return [...open, ...closed];
}

describe(`a search's accounts read in the statement that uses them (SEARCH_PATHS_SEED=${SEED})`, () => {
  it('the global search finds the same leads, and a last name the same deals, as the two statements did', async () => {
    await seed();
    let compared = 0;
    let leadPages = 0;
    let closedFilled = 0;
    for (let round = 0; round < 12; round++) {
      for (let k = 0; k < 6; k++) await change();
      for (const text of FRAGMENTS) {
        const matches = await searchAccountMatches(app, text, 'en');
        // Every account the fragment matches, as the global search passed them on before (its ids are left out now when the open leads fill the hits).
        const all = await db.execute<{ ids: string }>(sql`select coalesce(array_agg(distinct x.account_id), '{}')::text as ids from (${accountIdsMatching(text)}) x`);
        const before = await findLeads(app, text, 20, tr, async () => idSetFromLiteral(all.rows[0]!.ids));
        const now = await findLeads(app, text, 20, tr, async () => matches.ids, async () => matches.openLeads);
        expect(now, `leads for ${text}, round ${round}, seed ${SEED}`).toEqual(before);
        if (matches.openLeads?.length) compared++;
        // Without the open leads found with the accounts: the open and the closed ones in one statement, as two did.
        expect(before.map((h) => h.id), `open, then closed leads for ${text}, round ${round}, seed ${SEED}`).toEqual(await openThenClosed(all.rows[0]!.ids));
        // A whole last name (a few clients, fewer than 20 open leads: the closed ones fill the hits).
        const name = lastName();
        const named = await db.execute<{ ids: string }>(sql`select coalesce(array_agg(distinct x.a), '{}')::text as ids from (${accountIdsMatching(name)}) x(a)`);
        const filled = (await findLeads(app, name, 20, tr)).map((h) => h.id);
        expect(filled, `leads for ${name}, round ${round}, seed ${SEED}`).toEqual(await openThenClosed(named.rows[0]!.ids));
        // A number typed: the lead with that number, and the leads of the clients whose phone is that
        // number (a few: the open ones, then the closed ones), in one statement (the lead picker, the global search).
        const number = String(pick(await column(sql`select id from leads order by id`)));
        const clients = await column(sql`select id from accounts where is_client order by random() limit 6`);
        await db.execute(sql`update accounts set phones = case when id = any(${sql.param(clients)}::int[]) then array[${number}] else '{}' end where phones <> '{}' or id = any(${sql.param(clients)}::int[])`);
        const byNumber = await db.execute<{ ids: string }>(sql`select coalesce(array_agg(distinct x.a), '{}')::text as ids from (${accountIdsMatching(number)}) x(a)`);
        const byNumberHits = (await findLeads(app, number, 20, tr)).map((h) => h.id);
        expect(byNumberHits, `leads for ${number}, round ${round}, seed ${SEED}`).toEqual(await openThenClosed(byNumber.rows[0]!.ids, Number(number)));
        if ((await column(sql`select id from leads where id = any(${sql.param(byNumberHits)}::int[]) and coalesce(stage, 0) in (6, 7)`)).length) closedFilled++;

        const parties = await accountIdsByLastName(db, text);
        const was = await column(sql`select distinct deal_id as id from deal_parties where account_id = any(${parties.literal}::int[]) order by 1`);
        const is = await column(sql`select id from deals where ${and(...(await filterConditions(db, { lastName: text })))} order by id`);
        expect(is, `deals for ${text}, round ${round}, seed ${SEED}`).toEqual(was);

        // The leads list by a client's last name (decision 113: the accounts looked up inside the page's
        // statement), against the two statements it replaced: the accounts' ids, then the leads of those ids.
        const sorts = [
          { sortBy: 'createdOn', sortDir: 'desc', order: sql`l.created_on desc, l.id desc` },
          { sortBy: 'createdOn', sortDir: 'asc', order: sql`l.created_on asc, l.id asc` },
          { sortBy: 'stage', sortDir: 'asc', order: sql`l.stage asc nulls last, l.id desc` },
        ] as const;
        const { sortBy, sortDir, order } = sorts[round % sorts.length]!;
        const listed = await column(sql`select l.id from leads l where l.account_id = any(${parties.literal}::int[]) and not l.draft order by ${order}`);
        for (const currentPage of [1, 2, Math.ceil(listed.length / 4) + 1]) {
          const answer = await searchLeads(app, ZLeadSearch.parse({ lastName: text, sortBy, sortDir, perPage: 4, currentPage }), tr, 'en');
          expect({ total: answer.totalRows, ids: answer.items.map((i) => i.id) }, `leads of ${text} by ${sortBy} ${sortDir}, page ${currentPage}, round ${round}, seed ${SEED}`).toEqual({
            total: listed.length,
            ids: listed.slice((currentPage - 1) * 4, currentPage * 4),
          });
          if (answer.items.length) leadPages++;
        }
      }
    }
    // Most last names find leads: the comparison is not of empty pages.
    expect(leadPages).toBeGreaterThan(FRAGMENTS.length * 12);
    // The closed leads filled the hits after the open ones often.
    expect(closedFilled).toBeGreaterThan(20);
    // The viewings counted, so that the comment's page is read both ways (decision 107): early pages of
    // common words walk the list's index, the rare word's page is read by key, a page past the end reads none.
    await db.execute(sql`analyze viewings`);
    let saidFound = 0;
    for (const comment of SAYINGS) {
      // The viewings' comment search alone: its page and total from one statement (decision 107), against the plain statement.
      const words = comment.split(/\s+/);
      const ids = await column(sql`select v.id from viewings v where exists (select 1 from viewing_objects vo where vo.viewing_id = v.id and ${sql.join(
        words.map((w) => sql`vo.comment_norm like '%' || crm_search_norm(${w}) || '%'`),
        sql` and `,
      )}) order by v.date_of_viewing desc nulls first, v.id desc`);
      for (const currentPage of [1, 2, 4, Math.ceil(ids.length / 7), Math.ceil(ids.length / 7) + 1, 40]) {
        if (currentPage < 1) continue;
        const answer = await searchViewings(app, ZViewingSearch.parse({ comment, perPage: 7, currentPage }), tr);
        expect({ total: answer.totalRows, ids: answer.items.map((i) => i.id) }, `viewings saying ${comment}, page ${currentPage}, seed ${SEED}`).toEqual({
          total: ids.length,
          ids: ids.slice((currentPage - 1) * 7, currentPage * 7),
        });
        if (answer.items.length) saidFound++;
      }
      // With another filter (the viewing's date) the matched ids are looked up first, then paged with the date's condition.
      const from = (await db.execute<{ d: string }>(sql`select (now() at time zone ${app.config.timeZone} - interval '150 days')::date::text as d`)).rows[0]!.d;
      const recent = await column(sql`select v.id from viewings v where v.date_of_viewing >= (${from}::date::timestamp at time zone ${app.config.timeZone})
        and v.id in (select vo.viewing_id from viewing_objects vo where ${sql.join(
          words.map((w) => sql`vo.comment_norm like '%' || crm_search_norm(${w}) || '%'`),
          sql` and `,
        )}) order by v.date_of_viewing desc nulls first, v.id desc`);
      for (const currentPage of [1, 3]) {
        const answer = await searchViewings(app, ZViewingSearch.parse({ comment, dateOfViewingFrom: from, perPage: 5, currentPage }), tr);
        expect({ total: answer.totalRows, ids: answer.items.map((i) => i.id) }, `viewings saying ${comment} since ${from}, page ${currentPage}, seed ${SEED}`).toEqual({
          total: recent.length,
          ids: recent.slice((currentPage - 1) * 5, currentPage * 5),
        });
      }
    }
    // Most sayings find viewings: the comparison is not of empty pages.
    expect(saidFound).toBeGreaterThan(SAYINGS.length);
    // The new path was taken, and found something, most of the time.
    expect(compared).toBeGreaterThan(FRAGMENTS.length * 6);
    // Twelve rounds of changes and comparisons: more than the default 30 s on a busy machine.
  }, 120_000);
});

describe('the lead picker', () => {
  it("finds a busy client's newest open leads (20 of 25), as the global search does", async () => {
    const [client] = await column(sql`insert into accounts (first_name, last_name, is_client) values ('Στέλιος', 'Πολυζωγόπουλος', true) returning id`);
    const made = await column(sql`insert into leads (account_id, stage, created_on, for_purchase)
      select ${client!}, 1, now() - make_interval(mins => g), true from generate_series(1, 25) g returning id`);
    const newest = [...made].sort((a, b) => a - b).slice(0, 20);
    const picked = await findLeads(app, 'Πολυζωγόπουλ', 20, tr);
    expect(picked.map((l) => l.id)).toEqual(newest);
    const global = await findLeads(app, 'Πολυζωγόπουλ', 20, tr, async () => (await searchAccountMatches(app, 'Πολυζωγόπουλ')).ids, async () => (await searchAccountMatches(app, 'Πολυζωγόπουλ')).openLeads);
    expect(global.map((l) => l.id)).toEqual(newest);
  });

  it('finds, for a number typed, the lead with that number among the newest open leads of the clients whose phone has it, when those fill the hits', async () => {
    // 30 clients with the number in their phone, an open lead each (an hour apart): their open leads fill
    // the hits, so the accounts' statement gives them without the clients' ids (decision 129).
    const number = 8765432;
    const clients = await column(sql`insert into accounts (first_name, last_name, is_client, phones)
      select 'Πελάτης', 'Τηλεφωνικός' || g, true, array['+30 69' || ${String(number)}] from generate_series(1, 30) g returning id`);
    await db.execute(sql`insert into leads (account_id, stage, created_on, for_purchase)
      select c, 1, now() - make_interval(hours => k::int), true from unnest(${sql.param(clients)}::int[]) with ordinality x(c, k)`);
    const all = `{${clients.join(',')}}`;
    const global = async () => {
      const matches = await searchAccountMatches(app, String(number), 'en');
      return (await findLeads(app, String(number), 20, tr, async () => matches.ids, async () => matches.openLeads)).map((l) => l.id);
    };
    const picker = async () => (await findLeads(app, String(number), 20, tr)).map((l) => l.id);
    // No lead has the number yet: the clients' 20 newest.
    const clientsOnly = await openThenClosed(all);
    expect(clientsOnly).toHaveLength(20);
    expect(await global()).toEqual(clientsOnly);
    expect(await picker()).toEqual(clientsOnly);
    // The lead with that number: open, newer than the 5th client's lead, it comes in 5th; closed, or a draft, or older than the 20th, it is not shown.
    await db.execute(sql`insert into leads (id, account_id, stage, created_on, for_purchase) values (${number}, null, 1, now() - interval '4 hours 30 minutes', true)`);
    for (const [what, change] of [
      ['open, 5th', sql`select 1`],
      ['closed', sql`update leads set stage = 6 where id = ${number}`],
      ['a draft', sql`update leads set stage = 1, draft = true where id = ${number}`],
      ['open, older than the 20th', sql`update leads set draft = false, created_on = now() - interval '2 days' where id = ${number}`],
      ['open, the newest', sql`update leads set created_on = now() where id = ${number}`],
    ] as const) {
      await db.execute(change);
      const expected = await openThenClosed(all, number);
      expect(expected.includes(number), what).toBe(what.startsWith('open,') && !what.includes('older'));
      expect(await global(), what).toEqual(expected);
      expect(await picker(), what).toEqual(expected);
    }
  });
});
