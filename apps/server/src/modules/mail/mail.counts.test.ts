// A record's mail counted ahead (migrations 0112 and 0127, decision 105): the total an account's, a
// property's, a lead's and a deal's timeline and mail list answer each reader, against the messages counted on the spot
// (linked, not marked deleted, of a mailbox the reader sees), on seeded random mail after random
// changes: messages stored with their links, links added and removed, messages marked deleted and
// shown again (one and several in one statement), moved, removed, a link moved to another record, an
// account's links moved to another (a merge), a lead removed, mailboxes made private or shared and removed, a deal's
// parties added, removed and given another role, its property changed, a deal removed and another made; folded now and
// then. A deal's thread is its sellers' and buyers' and its property's messages, each once. The seed is in every failure message.
import { describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { seededRandom } from '../../../test/seeded.ts';
import { keptCount } from './mail.service.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { WAITING_MESSAGES_LOOKED_UP } from './mail-counts.ts';

const t = await createTestApp({}, undefined, { jobs: false });
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const other = await t.user({ roles: ['employee'] });
const readers = [admin, agent, other];
const { SEED, pick, chance, between } = seededRandom('MAIL_COUNTS_SEED');

const ids = async (q: SQL) => (await db.execute<{ id: number }>(q)).rows.map((r) => Number(r.id));
const fold = () => db.execute(sql`select crm_mail_counts_fold()`);
const kinds = [
  { param: 'accountId', table: sql`mail_message_accounts`, column: sql`account_id` },
  { param: 'objectId', table: sql`mail_message_objects`, column: sql`object_id` },
  { param: 'leadId', table: sql`mail_message_leads`, column: sql`lead_id` },
] as const;
type Kind = (typeof kinds)[number];
/** A deal's thread: not a link table of its own. */
const dealKind = { param: 'dealId' } as const;
type Counted = Kind | typeof dealKind;

let accounts: number[] = [];
let objects: number[] = [];
let leads: number[] = [];
let deals: number[] = [];
let made = 0;

const recordsOf = (k: Counted) => (k.param === 'accountId' ? accounts : k.param === 'objectId' ? objects : k.param === 'leadId' ? leads : deals);
/** A deal of a property, with a seller, a buyer and now and then an agent or a lawyer (whose mail is not the deal's). */
async function deal(): Promise<number> {
  const [d] = await ids(sql`insert into deals (object_id, deal_type, deal_stage) values (${chance(0.9) ? pick(objects) : null}, ${pick([1, 2])}, 1) returning id`);
  await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${d}, ${pick(accounts)}, 1), (${d}, ${pick(accounts)}, 2) on conflict do nothing`);
  if (chance(0.5)) await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${d}, ${pick(accounts)}, ${pick([3, 6])}) on conflict do nothing`);
  return d!;
}

async function mailbox(): Promise<number> {
  const owner = pick([null, null, agent.id, other.id]);
  const [id] = await ids(sql`insert into mailboxes (name, address, owner_id, imap_host, imap_port, imap_tls, imap_user, imap_password)
    values (${`Box ${++made}`}, ${`box${made}@agency.test`}, ${owner}, 'imap.agency.test', 993, true, 'u', 'v1:x') returning id`);
  return id!;
}

/** Messages stored as a sync stores them: the message, then its links, a statement each. */
async function store(n: number) {
  const boxes = await ids(sql`select id from mailboxes order by id`);
  for (let i = 0; i < n; i++) {
    const [m] = await ids(sql`insert into mail_messages (mailbox_id, message_id, sent_on, deleted_on)
      values (${pick(boxes)}, ${`<m${++made}@example.gr>`}, now() - ${between(0, 900)} * interval '1 hour', ${chance(0.05) ? sql`now()` : null}) returning id`);
    for (const k of kinds) {
      const to = [...new Set(Array.from({ length: between(0, 2) }, () => pick(recordsOf(k))))];
      if (to.length) await db.execute(sql`insert into ${k.table} (message_id, ${k.column}, sent_on) select ${m}, unnest(${sql.param(to)}::int[]), now() on conflict do nothing`);
    }
  }
}

async function change() {
  const messages = await ids(sql`select id from mail_messages order by id`);
  const boxes = await ids(sql`select id from mailboxes order by id`);
  if (messages.length < 10) return store(between(5, 10));
  const one = pick(messages);
  const k = pick(kinds);
  switch (between(0, 17)) {
    case 0:
      await store(between(1, 4));
      break;
    case 1: // linked later (an address or a reference gained)
      await db.execute(sql`insert into ${k.table} (message_id, ${k.column}, sent_on) values (${one}, ${pick(recordsOf(k))}, now()) on conflict do nothing`);
      break;
    case 2: // unlinked
      await db.execute(sql`delete from ${k.table} where message_id = ${one}`);
      break;
    case 3: // deleted on the server
      await db.execute(sql`update mail_messages set deleted_on = now() where id = ${one} and deleted_on is null`);
      break;
    case 4: // seen again under a new UID
      await db.execute(sql`update mail_messages set deleted_on = null, uid = ${between(1, 9999)} where id = ${one}`);
      break;
    case 5: // several deleted in one statement (an expunge)
      await db.execute(sql`update mail_messages set deleted_on = now() where mailbox_id = ${pick(boxes)} and id % ${between(3, 6)} = 0 and deleted_on is null`);
      break;
    case 6: // a mailbox made an agent's own, or shared
      await db.execute(sql`update mailboxes set owner_id = ${pick([null, agent.id, other.id])} where id = ${pick(boxes)}`);
      break;
    case 7: // a mailbox removed (its messages and their links with it), another connected
      if (boxes.length > 1) await db.execute(sql`delete from mailboxes where id = ${pick(boxes)}`);
      await mailbox();
      break;
    case 8: // a message removed (a person's data erased)
      await db.execute(sql`delete from mail_messages where id = ${one}`);
      break;
    case 9: {
      // accounts merged: the duplicate's links moved to the account kept
      const [kept, dup] = [pick(accounts), pick(accounts)];
      if (kept === dup) break;
      await db.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) select message_id, ${kept}, sent_on from mail_message_accounts where account_id = ${dup} on conflict do nothing`);
      await db.execute(sql`delete from mail_message_accounts where account_id = ${dup}`);
      break;
    }
    case 10: // a message moved to another mailbox
      await db.execute(sql`update mail_messages set mailbox_id = ${pick(boxes)} where id = ${one}`);
      break;
    case 11: {
      // a lead removed (its links with it), another made
      const gone = pick(leads);
      await db.execute(sql`delete from leads where id = ${gone}`);
      leads = [...leads.filter((l) => l !== gone), ...(await ids(sql`insert into leads (account_id, for_purchase) values (${pick(accounts)}, true) returning id`))];
      break;
    }
    case 12: // a link's date changed, nothing counted
      await db.execute(sql`update ${k.table} set sent_on = sent_on - interval '1 day' where message_id = ${one}`);
      break;
    case 13: {
      // a link moved to another record (both records' counts change)
      const to = pick(recordsOf(k));
      await db.execute(sql`update ${k.table} l set ${k.column} = ${to} where l.message_id = ${one}
        and l.${k.column} = (select min(${k.column}) from ${k.table} where message_id = ${one})
        and not exists (select 1 from ${k.table} x where x.message_id = ${one} and x.${k.column} = ${to})`);
      break;
    }
    case 14: // a deal's party added (a co-owner, a second buyer) or removed
      if (chance(0.5)) await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${pick(deals)}, ${pick(accounts)}, ${pick([1, 2, 6])}) on conflict do nothing`);
      else await db.execute(sql`delete from deal_parties where ctid = (select ctid from deal_parties where deal_id = ${pick(deals)} order by account_id limit 1)`);
      break;
    case 15: // a party given another role (a buyer named the agent, or the other way), or another account (a merge)
      if (chance(0.5)) await db.execute(sql`update deal_parties p set relation = ${pick([1, 2, 6])} where p.deal_id = ${pick(deals)} and not exists (select 1 from deal_parties x where x.deal_id = p.deal_id and x.account_id = p.account_id and x.relation <> p.relation)`);
      else {
        const [kept, dup] = [pick(accounts), pick(accounts)];
        if (kept !== dup) await db.execute(sql`update deal_parties p set account_id = ${kept} where p.account_id = ${dup} and not exists (select 1 from deal_parties x where x.deal_id = p.deal_id and x.relation = p.relation and x.account_id = ${kept})`);
      }
      break;
    case 16: // a deal's property changed or cleared; another deal saved with nothing changed to its thread
      await db.execute(sql`update deals set object_id = ${chance(0.8) ? pick(objects) : null} where id = ${pick(deals)}`);
      await db.execute(sql`update deals set price = coalesce(price, 0) + 1 where id = ${pick(deals)}`);
      break;
    case 17: {
      // a deal removed (its parties with it), another made
      const gone = pick(deals);
      await db.execute(sql`delete from deals where id = ${gone}`);
      deals = [...deals.filter((d) => d !== gone), await deal()];
      break;
    }
  }
}

/** What a reader sees of a record's mail, counted on the spot: linked, not marked deleted, of a mailbox they see. */
async function onTheSpot(k: Counted, id: number, reader: (typeof readers)[number]): Promise<number> {
  const sees = reader === admin ? sql`true` : sql`(mb.owner_id is null or mb.owner_id = ${reader.id})`;
  const links =
    k.param === 'dealId'
      ? sql`(select l.message_id from deal_parties p join mail_message_accounts l on l.account_id = p.account_id where p.deal_id = ${id} and p.relation in (1, 2)
          union select l.message_id from deals d join mail_message_objects l on l.object_id = d.object_id where d.id = ${id})`
      : sql`(select l.message_id from ${k.table} l where l.${k.column} = ${id})`;
  const r = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${links} l join mail_messages m on m.id = l.message_id and m.deleted_on is null
    join mailboxes mb on mb.id = m.mailbox_id and ${sees}`);
  return r.rows[0]!.n;
}

async function totals(k: Counted, id: number, reader: (typeof readers)[number]) {
  const timeline = await reader.get(`/api/mail/timeline?${k.param}=${id}&kind=mail&perPage=1`);
  const list = await reader.get(`/api/mail?${k.param}=${id}&perPage=1`);
  expect(timeline.statusCode, timeline.body).toBe(200);
  expect(list.statusCode, list.body).toBe(200);
  return { timeline: (timeline.json() as { totalRows: number }).totalRows, list: (list.json() as { totalRows: number }).totalRows };
}

/** Counted, how many answers were read from the kept counts (no change waiting) and how many not. */
const paths = { kept: 0, waiting: 0 };
let seen = 0;

async function compare(round: number) {
  for (let i = 0; i < 5; i++) {
    const k = i === 4 ? dealKind : pick(kinds);
    const id = pick(recordsOf(k));
    const waiting = (await db.execute<{ n: number }>(sql`select count(*)::int as n from mail_count_changes`)).rows[0]!.n > 0;
    for (const reader of readers) {
      const want = await onTheSpot(k, id, reader);
      expect(await totals(k, id, reader), `round ${round}, ${k.param} ${id}, reader ${readers.indexOf(reader)}, seed ${SEED}`).toEqual({ timeline: want, list: want });
      seen += want;
    }
    paths[waiting ? 'waiting' : 'kept']++;
  }
}

describe("a record's mail counted ahead", () => {
  it('answers every reader the count made on the spot, after random changes', async () => {
    accounts = await ids(sql`insert into accounts (first_name, last_name, is_client) select 'F' || g, 'Client' || g, true from generate_series(1, 12) g returning id`);
    objects = await ids(sql`insert into objects (title) select 'Flat ' || g from generate_series(1, 8) g returning id`);
    leads = await ids(sql`insert into leads (account_id, for_purchase) select unnest(${sql.param(accounts.slice(0, 6))}::int[]), true returning id`);
    for (let i = 0; i < 6; i++) deals.push(await deal());
    for (let i = 0; i < 3; i++) await mailbox();
    await store(60);
    for (let round = 0; round < 30; round++) {
      for (let n = between(1, 4); n > 0; n--) await change();
      if (round % 3 === 0) {
        await fold();
        expect((await db.execute(sql`select count(*)::int as n from mail_count_changes`)).rows[0]).toEqual({ n: 0 });
      }
      await compare(round);
    }
    // Folded, the kept counts are the ones counted whole again from the links.
    await fold();
    const kept = (await db.execute(sql`select * from mail_counts where n <> 0 order by 1, 2, 3`)).rows;
    await db.execute(sql`select crm_mail_counts_rebuild()`);
    expect((await db.execute(sql`select * from mail_counts order by 1, 2, 3`)).rows, `seed ${SEED}`).toEqual(kept);
    // Both ways were compared, and something was counted.
    expect(paths.kept, `seed ${SEED}`).toBeGreaterThan(0);
    expect(paths.waiting, `seed ${SEED}`).toBeGreaterThan(0);
    expect(seen).toBeGreaterThan(0);
  }, 180_000);

  it('reads the kept count when nothing waits, and counts on the spot while a change waits', async () => {
    await fold();
    const account = pick(accounts);
    const was = await totals(kinds[0], account, admin);
    // A line in the kept counts no change explains shows in the answer: it is the one read.
    const [box] = await ids(sql`select id from mailboxes where owner_id is null order by id limit 1`);
    const shared = box ?? (await ids(sql`insert into mailboxes (name, address, imap_host, imap_port, imap_tls, imap_user, imap_password) values ('Shared', 'info@agency.test', 'h', 993, true, 'u', 'v1:x') returning id`))[0]!;
    await db.execute(sql`insert into mail_counts (kind, record_id, mailbox_id, n) values (0, ${account}, ${shared}, 1000)
      on conflict (kind, record_id, mailbox_id) do update set n = mail_counts.n + 1000`);
    expect(await totals(kinds[0], account, admin)).toEqual({ timeline: was.timeline + 1000, list: was.list + 1000 });
    // A message of the account marked deleted and not yet folded: counted on the spot, the line ignored.
    const [m] = await ids(sql`insert into mail_messages (mailbox_id, message_id, sent_on) values (${shared}, ${`<late${++made}@example.gr>`}, now()) returning id`);
    await db.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) values (${m}, ${account}, now())`);
    expect(await totals(kinds[0], account, admin)).toEqual({ timeline: was.timeline + 1, list: was.list + 1 });
    await fold();
    expect(await totals(kinds[0], account, admin)).toEqual({ timeline: was.timeline + 1, list: was.list + 1 });
    await db.execute(sql`update mail_messages set deleted_on = now() where id = ${m}`);
    expect(await totals(kinds[0], account, admin)).toEqual(was);
    await fold();
    expect(await totals(kinds[0], account, admin)).toEqual(was);
  });
  it('counts every record on the spot while more messages wait than are looked up one by one, rightly', async () => {
    const asAdmin: SessionUser = { id: admin.id, sessionId: 0, email: admin.email, username: 'admin', roles: ['admin'], branchId: null, language: null, accountId: null };
    const kept = (accountId: number) => keptCount(t.app, asAdmin, { accountId });
    await fold();
    const [box] = await ids(sql`select id from mailboxes where owner_id is null order by id limit 1`);
    const shared = box ?? (await mailbox());
    const account = pick(accounts);
    // The account's own message, and unrelated ones: one expunge marks them all deleted.
    const [mine] = await ids(sql`insert into mail_messages (mailbox_id, message_id, sent_on) values (${shared}, ${`<own${++made}@example.gr>`}, now()) returning id`);
    await db.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) values (${mine}, ${account}, now())`);
    const many = await ids(sql`insert into mail_messages (mailbox_id, message_id, sent_on)
      select ${shared}, '<bulk' || g || '.' || ${++made} || '@example.gr>', now() from generate_series(1, ${WAITING_MESSAGES_LOOKED_UP + 6}) g returning id`);
    await fold();
    const was = await onTheSpot(kinds[0], account, admin);
    expect(await kept(account)).toEqual({ n: was, waits: null });
    await db.execute(sql`update mail_messages set deleted_on = now() where id = any(${sql.param([mine!, ...many])}::int[])`);
    // Not looked up message by message: counted on the spot, and right.
    expect(await kept(account)).toEqual({ n: null, waits: 'backlog' });
    for (const reader of readers) {
      const want = await onTheSpot(kinds[0], account, reader);
      expect(await totals(kinds[0], account, reader)).toEqual({ timeline: want, list: want });
    }
    expect(await onTheSpot(kinds[0], account, admin)).toBe(was - 1);
    await fold();
    expect(await kept(account)).toEqual({ n: was - 1, waits: null });
    // A few waiting: each looked up among the record's links.
    await db.execute(sql`update mail_messages set deleted_on = null where id = ${mine}`);
    expect(await kept(account)).toEqual({ n: null, waits: 'message' });
    expect(await totals(kinds[0], account, admin)).toEqual({ timeline: was, list: was });
    await fold();
  });

  it("reads a deal's kept count, and counts it on the spot while a change to it, its parties' or its property's mail waits", async () => {
    const asAdmin: SessionUser = { id: admin.id, sessionId: 0, email: admin.email, username: 'admin', roles: ['admin'], branchId: null, language: null, accountId: null };
    const kept = (dealId: number) => keptCount(t.app, asAdmin, { dealId });
    const shared = (await ids(sql`select id from mailboxes where owner_id is null order by id limit 1`))[0] ?? (await mailbox());
    const [object] = await ids(sql`insert into objects (title) values ('Deal flat') returning id`);
    const [seller, buyer, agentAccount] = await ids(sql`insert into accounts (first_name, last_name, is_client) select 'D' || g, 'Party' || g, true from generate_series(1, 3) g returning id`);
    const store1 = async (table: SQL, column: SQL, id: number) => {
      const [m] = await ids(sql`insert into mail_messages (mailbox_id, message_id, sent_on) values (${shared}, ${`<deal${++made}@example.gr>`}, now()) returning id`);
      await db.execute(sql`insert into ${table} (message_id, ${column}, sent_on) values (${m}, ${id}, now())`);
      return m!;
    };
    // The seller's two messages, the buyer's one (also the seller's: counted once), the property's one, the agent's one (not the deal's).
    await store1(sql`mail_message_accounts`, sql`account_id`, seller!);
    const both = await store1(sql`mail_message_accounts`, sql`account_id`, seller!);
    await db.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) values (${both}, ${buyer}, now())`);
    const ofObject = await store1(sql`mail_message_objects`, sql`object_id`, object!);
    await store1(sql`mail_message_accounts`, sql`account_id`, agentAccount!);
    const [d] = await ids(sql`insert into deals (object_id, deal_type, deal_stage) values (${object}, 1, 1) returning id`);
    await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) values (${d}, ${seller}, 1), (${d}, ${buyer}, 2), (${d}, ${agentAccount}, 6)`);
    // Made, the deal waits for the fold and is counted on the spot meanwhile.
    expect(await kept(d!)).toEqual({ n: null, waits: 'record' });
    expect(await totals(dealKind, d!, admin)).toEqual({ timeline: 3, list: 3 });
    await fold();
    expect(await kept(d!)).toEqual({ n: 3, waits: null });
    // A save that changes neither its parties nor its property queues nothing: the form's save, which
    // sends the parties back as they were, and a change of another column.
    const form = (await admin.get(`/api/Deal/edit/${d}`)).json() as Record<string, unknown>;
    const saved = await admin.post('/api/Deal/update', { ...form, price: 1000 });
    expect(saved.statusCode, saved.body).toBe(200);
    await db.execute(sql`update deals set commission = 100 where id = ${d}`);
    expect(await kept(d!)).toEqual({ n: 3, waits: null });
    // The kept line is the one read: one no change explains shows in the answer.
    await db.execute(sql`update mail_counts set n = n + 1000 where kind = 4 and record_id = ${d} and mailbox_id = ${shared}`);
    expect(await totals(dealKind, d!, admin)).toEqual({ timeline: 1003, list: 1003 });
    // The agent made a buyer: a change to the deal's parties waits, counted on the spot (4), then folded.
    await db.execute(sql`update deal_parties set relation = 2 where deal_id = ${d} and account_id = ${agentAccount}`);
    expect(await kept(d!)).toEqual({ n: null, waits: 'record' });
    expect(await totals(dealKind, d!, admin)).toEqual({ timeline: 4, list: 4 });
    await fold();
    expect(await kept(d!)).toEqual({ n: 4, waits: null });
    // A new message of the seller's: the account's change waits (the deal's count with it).
    await store1(sql`mail_message_accounts`, sql`account_id`, seller!);
    expect(await kept(d!)).toEqual({ n: null, waits: 'record' });
    expect(await totals(dealKind, d!, admin)).toEqual({ timeline: 5, list: 5 });
    await fold();
    expect(await kept(d!)).toEqual({ n: 5, waits: null });
    // The property's message deleted on the server: the message waits, looked up among the deal's links.
    await db.execute(sql`update mail_messages set deleted_on = now() where id = ${ofObject}`);
    expect(await kept(d!)).toEqual({ n: null, waits: 'message' });
    expect(await totals(dealKind, d!, admin)).toEqual({ timeline: 4, list: 4 });
    await fold();
    expect(await kept(d!)).toEqual({ n: 4, waits: null });
    // Its property cleared: the property's mail leaves the deal's thread.
    await db.execute(sql`update mail_messages set deleted_on = null where id = ${ofObject}`);
    await fold();
    expect(await kept(d!)).toEqual({ n: 5, waits: null });
    await db.execute(sql`update deals set object_id = null where id = ${d}`);
    expect(await kept(d!)).toEqual({ n: null, waits: 'record' });
    await fold();
    expect(await kept(d!)).toEqual({ n: 4, waits: null });
    expect(await totals(dealKind, d!, admin)).toEqual({ timeline: 4, list: 4 });
    // Removed: its counts go with the next fold.
    await db.execute(sql`delete from deals where id = ${d}`);
    await fold();
    expect((await db.execute(sql`select count(*)::int as n from mail_counts where kind = 4 and record_id = ${d}`)).rows[0]).toEqual({ n: 0 });
  });

  it("folds at most 25 deals at a time, the rest counted on the spot until a later fold", async () => {
    await fold();
    const shared = (await ids(sql`select id from mailboxes where owner_id is null order by id limit 1`))[0] ?? (await mailbox());
    const [developer] = await ids(sql`insert into accounts (first_name, last_name, is_client, is_owner) values ('Ανάπτυξη', 'Κατασκευαστική', false, true) returning id`);
    const many = await ids(sql`insert into deals (deal_type, deal_stage) select 1, 1 from generate_series(1, 30) returning id`);
    await db.execute(sql`insert into deal_parties (deal_id, account_id, relation) select unnest(${sql.param(many)}::int[]), ${developer}, 1`);
    await fold();
    const [m] = await ids(sql`insert into mail_messages (mailbox_id, message_id, sent_on) values (${shared}, ${`<dev${++made}@example.gr>`}, now()) returning id`);
    await db.execute(sql`insert into mail_message_accounts (message_id, account_id, sent_on) values (${m}, ${developer}, now())`);
    await fold();
    const waiting = await ids(sql`select id from mail_count_changes where kind = 4 order by id`);
    expect(waiting.length).toBe(5);
    for (const d of [...waiting.slice(0, 2), ...many.filter((x) => !waiting.includes(x)).slice(0, 2)]) expect(await totals(dealKind, d, admin)).toEqual({ timeline: 1, list: 1 });
    await fold();
    expect((await db.execute(sql`select count(*)::int as n from mail_count_changes`)).rows[0]).toEqual({ n: 0 });
    expect((await db.execute(sql`select count(*)::int as n, sum(n)::int as total from mail_counts where kind = 4 and record_id = any(${sql.param(many)}::int[])`)).rows[0]).toEqual({ n: 30, total: 30 });
  });

  it("queues every deal again when a table its thread draws on is truncated, not the deals", async () => {
    await fold();
    const c = await t.pool.connect();
    try {
      await c.query('begin');
      await c.query('truncate mail_message_accounts');
      const queued = await c.query<{ n: number; deals: number }>(`select (select count(*)::int from mail_count_changes where kind = 4) as n, (select count(*)::int from deals) as deals`);
      expect(queued.rows[0]!.n).toBe(queued.rows[0]!.deals);
      expect(queued.rows[0]!.n).toBeGreaterThan(0);
      await c.query('rollback');
    } finally {
      c.release();
    }
  });

  it('truncates a link table while a fold holds its lock, and empties that kind\'s counts', async () => {
    const folding = await t.pool.connect();
    const truncating = await t.pool.connect();
    try {
      await folding.query('begin');
      await folding.query('select pg_advisory_xact_lock(7275112)');
      // The truncate does not wait for the fold's lock (the fold, reading the links, would wait for it: a deadlock).
      await truncating.query('begin');
      await truncating.query(`set local lock_timeout = '10s'`);
      await truncating.query('truncate mail_message_leads');
      const left = await truncating.query<{ kind: number }>('select distinct kind from mail_counts where n > 0 order by 1');
      await truncating.query('rollback');
      await folding.query('rollback');
      expect(left.rows.map((r) => r.kind)).not.toContain(2);
    } finally {
      folding.release();
      truncating.release();
    }
  });
});
