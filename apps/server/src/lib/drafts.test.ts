import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, files, leads, locations, objects, users } from '../db/schema/index.ts';
import { bearer, createTestApp } from '../../test/harness.ts';
import { getFileStorage } from '../storage/file-storage.ts';
import { applyMatchChanges } from '../modules/leads/matching.ts';
import { EMPTY_LEADS_JOB } from '../modules/leads/leads.service.ts';
import { EMPTY_OBJECTS_JOB } from '../modules/objects/objects.service.ts';
import { runPublish } from '../modules/publishing/publishing.service.ts';
import { agencyToday, nextDay } from './dates.ts';

/**
 * Drafts (decision 076): a property or a lead opened with Add is in no list, count, search, match,
 * report or feed until something is entered in it or attached to it; its author opens it at its
 * address; left as it was, it is removed once a day has passed on the app's clock.
 */
let clock: number | undefined;
const t = await createTestApp({}, undefined, { now: () => clock ?? Date.now() });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });
const admin = await t.user({ roles: ['admin'] });
// The agent's own account: the agents' results count the properties each one took on.
const [me] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Draftou', isEmploye: true }).returning({ id: accounts.id });
await db.update(users).set({ accountId: me!.id }).where(eq(users.id, agent.id));

const call = (method: 'GET' | 'POST', url: string, payload?: unknown, token = agent.token) =>
  app.inject({ method, url, payload: payload as object, headers: bearer(token) });
const ok = async (method: 'GET' | 'POST', url: string, payload?: unknown, token = agent.token) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
};
const place = async (key: string) => (await db.select({ id: locations.id }).from(locations).where(eq(locations.key, key)))[0]!.id;
const kalamaria = await place('thessaloniki.kalamaria');
const kalamariaArea = await place('thessaloniki.kalamaria.kalamaria');

// A family buying in Kalamaria (a lead with its client), and a flat already on the books there.
const [client] = await db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Agorastis', isClient: true }).returning({ id: accounts.id });
const buyer = (await ok('POST', '/api/lead/add', { accountId: client!.id })).id as number;
await ok('POST', '/api/lead/update', { id: buyer, version: 1, forPurchase: true, purchaseBudgetRangeMin: 150000, purchaseBudgetRangeMax: 200000, locationId: kalamaria });
const [listed] = await db
  .insert(objects)
  .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, active: true, forSale: true, salePrice: 180000, locationId: kalamariaArea, title: 'Flat on the books', latitude: 40.58, longitude: 22.95 } as never)
  .returning({ id: objects.id });

const yesterday = new Date(Date.parse(`${agencyToday(app.config.timeZone)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const period = { period: 'range', from: yesterday, till: nextDay(nextDay(yesterday)) };

describe('a property opened with Add and not filled in', () => {
  it('is in no list, count, search, match, report or feed; saved with something in it, it is in all of them', async () => {
    const draft = (await ok('GET', '/api/object/add')) as { id: number; referenceNumber: string; version: number };
    // What it would show, written as no save writes it (nobody filled it in): the draft stays out for being a draft.
    await db
      .update(objects)
      .set({ forSale: true, salePrice: 175000, locationId: kalamariaArea, title: 'Draftwood flat', description: 'Two bedrooms.', subTypeObjectTypeId: 1, objectSubTypeId: 1, area: 80, bedrooms: 2, latitude: 40.581, longitude: 22.951, displayCoordinates: true } as never)
      .where(eq(objects.id, draft.id));
    // Its author opens it at its address.
    expect((await call('GET', `/api/object/edit/${draft.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/object/view/${draft.id}`)).statusCode).toBe(200);

    const has = (items: { id?: number; objectId?: number }[]) => items.some((i) => (i.id ?? i.objectId) === draft.id);
    const seen = async () => {
      const list = await ok('POST', '/api/object', { perPage: 100, currentPage: 1, sortBy: 'createdOn', sortDir: 'desc' });
      const search = await ok('POST', '/api/object/search', { forSale: true, locationId: kalamaria, perPage: 100, currentPage: 1 });
      const map = await ok('POST', '/api/object/search', { forSale: true, locationId: kalamaria, showOnMap: true });
      const found = await ok('GET', '/api/search?searchStr=Draftwood');
      const picker = await ok('GET', `/api/object/searchByRefNumOrTitle?searchStr=${draft.referenceNumber}&options=no`);
      // The kept matches brought up to date, as the job does after a change.
      await applyMatchChanges(app, { wait: true });
      const matches = await ok('GET', `/api/lead/${buyer}/matches`);
      const kept = (await db.execute(sql`select 1 from lead_matches where lead_id = ${buyer} and object_id = ${draft.id}`)).rows.length > 0;
      const report = await ok('POST', '/api/report/results', period, admin.token);
      const feed = (await app.inject({ url: '/feed/listings.xml' })).body;
      const publicPage = (await app.inject({ url: `/api/public/listings/${draft.referenceNumber}` })).statusCode;
      return {
        counts: { list: list.totalRows as number, search: search.totalRows as number, map: map.totalRows as number },
        shown: {
          list: has(list.items),
          search: has(search.items),
          map: has(map.items),
          found: found.items.some((h: { entity: string; id: number }) => h.entity === 'Object' && h.id === draft.id),
          picker: has(picker.items),
          matches: has(matches.items),
          kept,
          feed: feed.includes(`<listing ref="${draft.referenceNumber}"`),
          publicPage: publicPage === 200,
        },
        takenOn: report.rows.find((r: { accountId: number }) => r.accountId === me!.id).properties as number,
      };
    };
    const before = await seen();
    expect(before.shown).toEqual({ list: false, search: false, map: false, found: false, picker: false, matches: false, kept: false, feed: false, publicPage: false });
    // The flat on the books is found meanwhile (the lists work; only the draft is left out).
    expect(before.counts.search).toBeGreaterThanOrEqual(1);
    expect((await ok('GET', `/api/lead/${buyer}/matches`)).items.map((i: { objectId: number }) => i.objectId)).toContain(listed!.id);
    expect(before.takenOn).toBe(0);

    // Saved with something in it (and asked to be published, with a photo): a property like any other.
    const saved = await ok('POST', '/api/object/update', { id: draft.id, version: draft.version, title: 'Draftwood flat, sea view', publishRequested: true });
    expect(saved.version).toBe(draft.version + 1);
    const storage = getFileStorage(t.dataDir);
    await storage.put('draftwood-web.webp', Readable.from(Buffer.from('web copy')));
    await storage.put('draftwood.jpg', Readable.from(Buffer.from('camera original')));
    await db.insert(files).values({ systemName: 'draftwood.jpg', userName: 'IMG_0001.jpg', mime: 'image/jpeg', size: 100, parentType: LinkKind.Object, parentId: draft.id, type: 'image', webName: 'draftwood-web.webp', thumbName: 'draftwood-web.webp' });
    // Published now, or a moment ago by the app's own publishing job (the save asked for it): either
    // way it is on the site below.
    expect(['published', 'unchanged']).toContain((await runPublish(db, { objectId: draft.id, actor: { id: null, name: 'test' } })).state);

    const after = await seen();
    expect(after.shown).toEqual({ list: true, search: true, map: true, found: true, picker: true, matches: true, kept: true, feed: true, publicPage: true });
    expect(after.counts).toEqual({ list: before.counts.list + 1, search: before.counts.search + 1, map: before.counts.map + 1 });
    expect(after.takenOn).toBe(1);
  });

  it("added from an owner's page, is not among the owner's properties until it is filled in", async () => {
    const [owner] = await db.insert(accounts).values({ firstName: 'Sofia', lastName: 'Idioktiti', isClient: true }).returning({ id: accounts.id });
    const draft = await ok('GET', `/api/object/add?ownerId=${owner!.id}`);
    const owned = async () => (await ok('GET', `/api/account/view/${owner!.id}`)).ownedObjectsReferenceNumbers as string;
    expect(await owned()).toBe('');
    await ok('POST', '/api/object/update', { id: draft.id, version: draft.version, area: 64 });
    expect(await owned()).toBe(draft.referenceNumber);
  });

  it('becomes a property like any other when something is attached to it, saved or not', async () => {
    const draft = await ok('GET', '/api/object/add');
    const inList = async () => (await ok('POST', '/api/object', { perPage: 100, currentPage: 1, sortBy: 'createdOn', sortDir: 'desc' })).items.some((i: { id: number }) => i.id === draft.id);
    expect(await inList()).toBe(false);
    // A note written on it (its version stays 1).
    await ok('POST', '/api/activity/add', { entityType: LinkKind.Object, id: draft.id, description: 'The owner calls back on Monday.' });
    expect(await inList()).toBe(true);
    expect((await db.select({ version: objects.version }).from(objects).where(eq(objects.id, draft.id)))[0]!.version).toBe(1);
  });
});

describe('a lead opened with Add and not filled in', () => {
  it('is in no list, count, search or match; saved with something in it, it is in all of them', async () => {
    const draft = (await ok('POST', '/api/lead/add', {})).id as number;
    // Its author opens it at its address.
    expect((await call('GET', `/api/lead/get/${draft}`)).statusCode).toBe(200);

    const seen = async () => {
      const all = await ok('POST', '/api/lead/search', { perPage: 100, currentPage: 1 });
      // A new lead is at stage "New": the stage filter's count is read from its own index.
      const fresh = await ok('POST', '/api/lead/search', { stages: [1], perPage: 100, currentPage: 1 });
      const found = await ok('GET', `/api/search?searchStr=%23${draft}`);
      const picker = await ok('GET', `/api/lead/searchQuick?searchStr=${draft}`);
      await applyMatchChanges(app, { wait: true });
      const matching = await ok('GET', `/api/object/${listed!.id}/matchingLeads`);
      const kept = (await db.execute(sql`select 1 from object_matches where object_id = ${listed!.id} and lead_id = ${draft}`)).rows.length > 0;
      const clientPage = await ok('GET', `/api/account/view/${client!.id}`);
      const has = (items: { id?: number; leadId?: number }[]) => items.some((i) => (i.id ?? i.leadId) === draft);
      return {
        counts: { all: all.totalRows as number, fresh: fresh.totalRows as number },
        shown: {
          all: has(all.items),
          fresh: has(fresh.items),
          found: found.items.some((h: { entity: string; id: number }) => h.entity === 'Lead' && h.id === draft),
          picker: has(picker.items),
          matching: has(matching.items),
          kept,
          client: has(clientPage.leads),
        },
      };
    };
    const before = await seen();
    expect(before.shown).toEqual({ all: false, found: false, fresh: false, picker: false, matching: false, kept: false, client: false });
    // The buyer's lead is there meanwhile.
    expect((await ok('GET', `/api/object/${listed!.id}/matchingLeads`)).items.map((i: { leadId: number }) => i.leadId)).toContain(buyer);

    await ok('POST', '/api/lead/update', { id: draft, version: 1, accountId: client!.id, forPurchase: true, purchaseBudgetRangeMax: 190000 });
    const after = await seen();
    expect(after.shown).toEqual({ all: true, found: true, fresh: true, picker: true, matching: true, kept: true, client: true });
    expect(after.counts).toEqual({ all: before.counts.all + 1, fresh: before.counts.fresh + 1 });
  });
});

describe('the clean-up of drafts', () => {
  it("removes a property and a lead left as Add made them once a day has passed on the app's clock; filled ones stay", async () => {
    const exists = async (table: typeof objects | typeof leads, id: number) => (await db.select({ id: table.id }).from(table).where(eq(table.id, id))).length === 1;
    const prune = async () => {
      // The jobs as the app runs them (every six hours).
      await app.jobs.enqueue(EMPTY_OBJECTS_JOB);
      await app.jobs.enqueue(EMPTY_LEADS_JOB);
      await app.jobs.drain();
    };
    const leftObject = (await ok('GET', '/api/object/add')).id as number;
    const leftLead = (await ok('POST', '/api/lead/add', {})).id as number;
    const filledObject = await ok('GET', '/api/object/add');
    await ok('POST', '/api/object/update', { id: filledObject.id, version: filledObject.version, title: 'Studio near the port' });
    const filledLead = (await ok('POST', '/api/lead/add', {})).id as number;
    await ok('POST', '/api/lead/update', { id: filledLead, version: 1, description: 'Calls after six' });

    // Later the same day: the author may still come back to them.
    clock = Date.now() + 23 * 3600_000;
    await prune();
    expect([await exists(objects, leftObject), await exists(leads, leftLead)]).toEqual([true, true]);

    // A day and more later: the ones left as they were are gone, the filled ones stay.
    clock = Date.now() + 25 * 3600_000;
    await prune();
    expect([await exists(objects, leftObject), await exists(leads, leftLead)]).toEqual([false, false]);
    expect([await exists(objects, filledObject.id), await exists(leads, filledLead)]).toEqual([true, true]);
    clock = undefined;
  });
});
