import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { accounts, objectAccounts, objects } from './schema/index.ts';
import { createTestApp } from '../../test/harness.ts';
import { agencyToday } from '../lib/dates.ts';
import { connectDb } from './client.ts';
import { getPublic } from '../modules/publishing/public.service.ts';

/**
 * The database's "today" is the agency's. A zone is picked whose date differs from UTC's at the
 * moment the test runs (Kiritimati is 14 hours ahead, Pago Pago 11 behind: at any hour one of them
 * is on another day than UTC), so a statement that still read the server's UTC day fails here.
 */
// Both are on another day than UTC between 10:00 and 11:00 UTC: the switch at 10:30 leaves half an
// hour either side (Pago Pago until 11:00, Kiritimati from 10:00 to midnight UTC).
const now = new Date();
const zone = now.getUTCHours() * 60 + now.getUTCMinutes() >= 10 * 60 + 30 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
const t = await createTestApp({ TIME_ZONE: zone });
const { db } = t;
const agent = await t.user({ roles: ['employee'] });
const today = agencyToday(zone);
const dayBefore = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const yesterday = dayBefore(today);

const view = async (id: number) => (await agent.get(`/api/account/view/${id}`)).json();
async function flat(title: string) {
  const [o] = await db.insert(objects).values({ title, forRent: true, rentPrice: 500 } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  return { id: o!.id, refText: String(o!.ref).padStart(4, '0') };
}
async function person(lastName: string) {
  const [a] = await db.insert(accounts).values({ firstName: 'Test', lastName, isClient: true, isOwner: true }).returning({ id: accounts.id });
  return a!.id;
}

describe("the agency's day in the database", () => {
  it('is what crm_today() says on every connection of the app, and moments of any year read back', async () => {
    expect(today).not.toBe(new Date().toISOString().slice(0, 10));
    const r = await db.execute<{ d: string }>(sql`select crm_today()::text as d`);
    expect(r.rows[0]!.d).toBe(today);
    // The session stays on UTC: a viewing in 1916 (Athens was on local mean time, +01:34:52) is stored and read.
    const o = (await agent.get('/api/object/add')).json();
    const saved = await agent.post('/api/Viewing/update', { dateOfViewing: '1916-07-28T10:00:00', results: [{ objectId: o.id, result: 1 }] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().dateOfViewing).toBe('1916-07-28T10:00:00');
  });

  it('ends a tenancy and an ownership after their last day in the agency, not in UTC', async () => {
    const tenant = await person('Lastday');
    const endsToday = await flat('Lease ending today');
    const endedYesterday = await flat('Lease ended yesterday');
    // A closed rental each (deal stage 5, the tenant as buyer/tenant), expiring today and yesterday.
    for (const [o, expires] of [
      [endsToday, today],
      [endedYesterday, yesterday],
    ] as const) {
      const res = await agent.post('/api/Deal/update', { dealType: 1, dealStage: 5, objectId: o.id, rentStart: '2020-01-01', rentExpiration: expires, accounts: [{ accountId: tenant, relation: 2 }] });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await view(tenant)).rentedObjectsReferenceNumbers).toBe(endsToday.refText);

    // Object links (owner) ending today and yesterday: the one that ended yesterday is no longer theirs.
    const owner = await person('Formerowner');
    await db.insert(objectAccounts).values([
      { objectId: endsToday.id, accountId: owner, relation: 1, endDate: today },
      { objectId: endedYesterday.id, accountId: owner, relation: 1, endDate: yesterday },
    ] as never);
    expect((await view(owner)).ownedObjectsReferenceNumbers).toBe(endsToday.refText);
  });

  it('says on the public page that a flat is free from a day only when that day is after the agency’s today; its update time is ISO 8601 in UTC', async () => {
    const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const at = new Date('2026-03-15T08:00:00.123Z');
    const publicFlat = async (dateAvailable: string) => {
      const [o] = await db
        .insert(objects)
        .values({ title: 'Flat', forRent: true, rentPrice: 500, published: true, publishRequested: true, active: true, dateAvailable, lastUpdate: at } as never)
        .returning({ ref: objects.referenceNumber });
      return (await getPublic(db, o!.ref, 'en', (k) => k))!;
    };
    expect((await publicFlat(today)).availableFrom).toBeNull();
    expect((await publicFlat(dayAfter(today))).availableFrom).toBe(dayAfter(today));
    expect((await publicFlat(yesterday)).updated).toBe('2026-03-15T08:00:00.123Z');
  });

  it('keeps the agency’s day on a connection whose address carries options of its own', async () => {
    const url = new URL(t.dbUrl);
    url.searchParams.set('options', '-c statement_timeout=5000');
    const other = connectDb(url.toString(), 1, { timeZone: zone });
    try {
      const r = await other.db.execute<{ d: string; timeout: string }>(sql`select crm_today()::text as d, current_setting('statement_timeout') as timeout`);
      expect(r.rows[0]).toEqual({ d: agencyToday(zone), timeout: '5s' });
    } finally {
      await other.close();
    }
  });

  it('refuses a time zone name that is not one', () => {
    expect(() => connectDb('postgres://localhost/x', 1, { timeZone: "UTC' -c x=1" })).toThrow(/not a time zone name/);
  });
});
