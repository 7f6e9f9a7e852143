import { Readable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, files, locations, objectAccounts } from '../../db/schema/index.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { createTestApp } from '../../../test/harness.ts';
import { insertObject } from '../../../test/records.ts';
import { fromLocalDateTime, nextDay } from '../../lib/dates.ts';
import { runPublish } from './publishing.service.ts';
import { PublicPageCache } from './public.cache.ts';

/**
 * The public pages kept in memory and the agency's date: a tenancy's first or last day, or an
 * "available from" date, changes what a page says at the agency's midnight, with no row changed
 * (so no database notice). The app's clock is moved; the database's date cannot be, so the rows
 * are put as they read after midnight without telling anyone (no trigger runs), as the date's
 * turning leaves them to the pages.
 */
const ZONE = 'Europe/Athens';
/** The app's clock, when a test sets it. */
let clock: number | undefined;
const t = await createTestApp({ TIME_ZONE: ZONE }, undefined, { now: () => clock ?? Date.now() });
const { app, db } = t;

const [region] = await db.insert(locations).values({ level: 1, nameEn: 'Thessaloniki', nameEl: 'Θεσσαλονίκη', nameRu: 'Салоники', path: [] }).returning();
await db.execute(sql`update locations set path = array[id] where id = ${region!.id}`);
const storage = getFileStorage(t.dataDir);
const [tenant] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Tenant', isClient: true }).returning({ id: accounts.id });

let n = 0;
async function flatToLet(title: string, values: Record<string, unknown> = {}) {
  const o = await insertObject(db, { title, description: 'Two bedrooms, near the sea.', forRent: true, rentPrice: 700, area: 70, locationId: region!.id, active: true, publishRequested: true, ...values });
  const k = ++n;
  await storage.put(`m${k}-web.webp`, Readable.from(Buffer.from(`web copy ${k}`)));
  await db.insert(files).values({ systemName: `m${k}.jpg`, userName: 'IMG.jpg', mime: 'image/jpeg', size: 10, parentType: LinkKind.Object, parentId: o.id, type: 'image', webName: `m${k}-web.webp` });
  expect((await runPublish(db, { objectId: o.id, actor: { id: null, name: 'test' } })).state).toBe('published');
  return { id: o.id, ref: String(o.ref).padStart(4, '0') };
}
const page = async (ref: string) => (await app.inject({ url: `/listings/${ref}?lang=en` })).body;
const letNow = (body: string) => body.includes('data-testid="available-from">Currently let<');
/** As the rows read once the date has turned, written with no trigger run (no notice to the pages). */
const quietly = (statement: ReturnType<typeof sql>) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });

describe("the public pages when the agency's date turns", () => {
  it('show a tenancy that ends or starts today, and a date the flat is free from, at once after midnight', async () => {
    const today = ((await db.execute<{ d: string }>(sql`select crm_today()::text as d`)).rows[0]!).d;
    const tomorrow = nextDay(today);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const ending = await flatToLet('Lease ends today');
    const starting = await flatToLet('Lease starts tomorrow');
    const freeLater = await flatToLet('Free from tomorrow', { dateAvailable: tomorrow });
    // The links' notices (migration 0053) come after the commit, and all of them are heard before
    // the pages are read: one heard later would empty the pages read below. A connection of our own
    // hears the same notices, in commit order, up to a mark sent after them; the app empties its
    // pages once for each.
    const listener = new pg.Client({ connectionString: t.dbUrl });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (m) => heard.push(m.payload ?? ''));
    await listener.query('listen crm_public_site');
    const cleared = app.publicPages.mark().generation;
    await db.insert(objectAccounts).values([
      { objectId: ending.id, accountId: tenant!.id, relation: 4, startDate: '2023-01-01', endDate: today },
      { objectId: starting.id, accountId: tenant!.id, relation: 4, startDate: tomorrow, endDate: '2029-12-31' },
    ] as never);
    const mark = `mark ${Math.random()}`;
    await t.pool.query('select pg_notify($1, $2)', ['crm_public_site', mark]);
    await vi.waitFor(() => expect(heard).toContain(mark), { timeout: 5000, interval: 10 });
    await listener.end();
    expect(heard.length, 'the links were told').toBeGreaterThan(1);
    await vi.waitFor(() => expect(app.publicPages.mark().generation).toBeGreaterThanOrEqual(cleared + heard.length), { timeout: 5000, interval: 10 });
    // Ten seconds to midnight in Athens (well within the 30 s a page is kept).
    const midnight = fromLocalDateTime(tomorrow, ZONE, 'date').getTime();
    clock = midnight - 10_000;
    app.publicPages.clear();

    expect(letNow(await page(ending.ref))).toBe(true);
    expect(letNow(await page(starting.ref))).toBe(false);
    const cardsOf = async () => {
      const body = (await app.inject({ url: '/listings?lang=en' })).body;
      return (title: string) => [...body.matchAll(/<article class="card"(?:(?!<\/article>).)*<\/article>/gs)].map((m) => m[0]).find((c) => c.includes(title))!;
    };
    const badge = (card: string) => /data-testid="available-from">([^<]*)</.exec(card)?.[1];
    let card = await cardsOf();
    expect(badge(card('Lease ends today'))).toBe('Currently let');
    expect(badge(card('Lease starts tomorrow'))).toBeUndefined();
    expect(badge(card('Free from tomorrow'))).toMatch(/^Available from \d+ \w+ \d{4}$/);

    // The rows as they read after midnight: each date one day nearer (the database's own date cannot move).
    await quietly(sql`update object_accounts set end_date = ${yesterday} where object_id = ${ending.id}`);
    await quietly(sql`update object_accounts set start_date = ${today} where object_id = ${starting.id}`);
    await quietly(sql`update objects set date_available = ${today} where id = ${freeLater.id}`);
    // Nothing told the pages: a second before midnight they are still the ones kept.
    clock = midnight - 1_000;
    expect(letNow(await page(ending.ref))).toBe(true);
    card = await cardsOf();
    expect(badge(card('Free from tomorrow'))).toMatch(/^Available from /);

    // Midnight in Athens: the next visitor reads the new day's pages, not the ones kept.
    clock = midnight;
    expect(letNow(await page(ending.ref))).toBe(false);
    expect(letNow(await page(starting.ref))).toBe(true);
    card = await cardsOf();
    expect(badge(card('Lease ends today'))).toBeUndefined();
    expect(badge(card('Lease starts tomorrow'))).toBe('Currently let');
    expect(badge(card('Free from tomorrow'))).toBeUndefined();
  });
});

describe('the page cache and the date', () => {
  // 21:00 UTC is midnight in Athens in summer (UTC+3), 22:00 in winter (UTC+2).
  const at = (iso: string) => Date.parse(iso);

  it("empties itself at the zone's midnight, not UTC's, summer and winter", () => {
    for (const [before, after, utcMidnight] of [
      ['2026-07-01T20:59:59.999Z', '2026-07-01T21:00:00.000Z', '2026-07-02T00:00:00.000Z'],
      ['2026-12-01T21:59:59.999Z', '2026-12-01T22:00:00.000Z', '2026-12-02T00:00:00.000Z'],
    ] as const) {
      let now = at(before) - 10_000;
      const cache = new PublicPageCache<string>({ timeZone: ZONE, now: () => now });
      cache.set('el /listings', 'yesterday', cache.mark());
      now = at(before);
      expect(cache.get('el /listings'), before).toBe('yesterday');
      now = at(after);
      expect(cache.get('el /listings'), after).toBeUndefined();
      // The new day's page is kept once the date has settled; UTC's midnight, 2 or 3 hours later, is nothing.
      now = at(after) + 6_000;
      cache.set('el /listings', 'today', cache.mark());
      now = at(utcMidnight) - 1;
      cache.set('el /listings', 'today', cache.mark());
      now = at(utcMidnight);
      expect(cache.get('el /listings'), utcMidnight).toBe('today');
    }
  });

  it('does not keep a page read before midnight and finished after it, nor one made in the first seconds of the day', () => {
    let now = at('2026-03-10T21:59:59.900Z');
    const cache = new PublicPageCache<string>({ timeZone: ZONE, now: () => now });
    const since = cache.mark();
    now = at('2026-03-10T22:00:00.100Z');
    cache.set('en /listings/0001', 'read yesterday', since);
    expect(cache.get('en /listings/0001')).toBeUndefined();
    // A database clock a little behind ours may still read yesterday's date: nothing kept for a few seconds.
    cache.set('en /listings/0001', 'maybe yesterday', cache.mark());
    expect(cache.get('en /listings/0001')).toBeUndefined();
    now += 5_000;
    cache.set('en /listings/0001', 'today', cache.mark());
    expect(cache.get('en /listings/0001')).toBe('today');
  });
});
