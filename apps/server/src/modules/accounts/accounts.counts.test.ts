import { describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { accountCounts, accounts } from '../../db/schema/index.ts';
import { createTestApp, type Reply } from '../../../test/harness.ts';

const t = await createTestApp();
const admin = await t.user({ roles: ['admin'] });

/** What the lists report as their totals, next to a real count over the table. */
async function totals() {
  const rows = async (list: Promise<Reply>) => (await list).json().totalRows as number;
  const reported = {
    all: await rows(admin.get('/api/account?perPage=5')),
    owner: await rows(admin.get('/api/owner?perPage=5')),
    client: await rows(admin.post('/api/clients/search', { perPage: 5 })),
    professional: await rows(admin.get('/api/professional?perPage=5')),
    partner: await rows(admin.post('/api/partners', { perPage: 5 })),
    source: await rows(admin.get('/api/source?perPage=5')),
    employe: await rows(admin.get('/api/employe?perPage=5')),
  };
  const [real] = (
    await t.db.execute<Record<string, number>>(sql`select count(*)::int as all, count(*) filter (where is_owner)::int as owner,
      count(*) filter (where is_client)::int as client, count(*) filter (where is_professional)::int as professional,
      count(*) filter (where is_partner_real_estate or is_partner_tourism)::int as partner, count(*) filter (where is_source)::int as source,
      count(*) filter (where is_employe)::int as employe from accounts`)
  ).rows;
  return { reported, real };
}

describe('list totals kept by the database', () => {
  it('stay exact through inserts, kind changes, merges and deletes', async () => {
    const start = await totals();
    expect(start.reported).toEqual(start.real);

    const made = await t.db
      .insert(accounts)
      .values([
        { firstName: 'A', lastName: 'Owner', isOwner: true },
        { firstName: 'B', lastName: 'Both', isOwner: true, isClient: true },
        { firstName: 'C', lastName: 'Partner', isPartnerRealEstate: true, isPartnerTourism: true },
        { firstName: 'D', lastName: 'Nobody' },
      ])
      .returning({ id: accounts.id });
    let now = await totals();
    expect(now.reported).toEqual(now.real);
    expect(now.real.owner).toBe(start.real.owner! + 2);
    expect(now.real.partner).toBe(start.real.partner! + 1);

    // kind flags changed through the API (auto-save) and directly
    const view = (await admin.get(`/api/account/view/${made[3]!.id}`)).json();
    const upd = await admin.post('/api/account/update', { id: view.id, version: view.version, isClient: true, isSource: true });
    expect(upd.statusCode, upd.body).toBe(200);
    await t.db.update(accounts).set({ isPartnerTourism: false }).where(eq(accounts.id, made[2]!.id));
    await t.db.update(accounts).set({ notes: 'no kind change' }).where(inArray(accounts.id, made.map((m) => m.id)));
    now = await totals();
    expect(now.reported).toEqual(now.real);

    // merge the owner into the owner-and-client, then delete one
    const kept = (await admin.get(`/api/account/view/${made[1]!.id}`)).json();
    const merge = await admin.post('/api/account/merge', { account: { id: kept.id, version: kept.version }, duplicateId: made[0]!.id });
    expect(merge.statusCode, merge.body).toBe(200);
    const del = await admin.del(`/api/account/${made[2]!.id}`);
    expect(del.statusCode, del.body).toBe(200);
    now = await totals();
    expect(now.reported).toEqual(now.real);
    expect(now.real.all).toBe(start.real.all! + 2);
  });

  it('a filtered list still counts what matches', async () => {
    await t.db.insert(accounts).values({ firstName: 'Zeta', lastName: 'Ζαφειρίου', isClient: true });
    const res = await admin.post('/api/clients/search', { lastName: 'ζαφειρ' });
    expect(res.json().totalRows).toBe(1);
    const [kept] = await t.db.select().from(accountCounts).where(eq(accountCounts.kind, 'client'));
    expect(kept!.n).toBeGreaterThan(1);
  });
});

describe('recounting', () => {
  it('puts the totals right after a bulk load that skipped the counting triggers', async () => {
    const client = await t.pool.connect();
    try {
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      await client.query(`insert into accounts (first_name, last_name, is_owner, is_client) select 'Bulk', 'Owner ' || g, true, g % 2 = 0 from generate_series(1, 25) g`);
      await client.query('commit');
    } finally {
      client.release();
    }
    const before = await totals();
    expect(before.reported.owner).not.toBe(before.real.owner);
    await t.db.execute(sql`select crm_account_counts_recount()`);
    const after = await totals();
    expect(after.reported).toEqual(after.real);
  });
});
