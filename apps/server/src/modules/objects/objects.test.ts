import { describe, expect, it } from 'vitest';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, actionLog, activities, activityLinks, assignments, deals, files, locations, objectAccounts, objects, users, viewingObjects, viewings } from '../../db/schema/index.ts';
import { createTestApp, patchField, type CallOptions, type Client } from '../../../test/harness.ts';
import { pruneEmptyObjects } from './objects.service.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const emp = await t.user({ roles: ['employee'] });
const branchUser = await t.user({ roles: ['employee'], branchId: 1 });

const el = { lang: 'el' };

async function addObject(as: Client = admin) {
  const res = await as.get('/api/object/add');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function update(id: number, fields: Record<string, unknown>, as: Client = admin) {
  const current = (await admin.get(`/api/object/edit/${id}`)).json().object;
  return as.post('/api/object/update', { id, version: current.version, ...fields });
}
const lastLog = async (entity: string, entityId: number) =>
  (await t.db.select().from(actionLog).where(and(eq(actionLog.entity, entity), eq(actionLog.entityId, entityId))).orderBy(desc(actionLog.id)).limit(1))[0];

// An employee whose sign-in belongs to an employee account: objects they add are "created by" it.
const [empAccount] = await t.db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Nikolaou', isEmploye: true }).returning();
await t.db.update(users).set({ accountId: empAccount!.id }).where(eq(users.id, emp.id));

const [thess] = await t.db.insert(locations).values({ level: 1, nameEn: 'Thessaloniki', nameEl: 'Θεσσαλονίκη', nameRu: 'Салоники' }).returning();
const [kalamaria] = await t.db.insert(locations).values({ level: 2, parentId: thess!.id, nameEn: 'Kalamaria', nameEl: 'Καλαμαριά', nameRu: 'Каламария' }).returning();

describe('adding an object', () => {
  it('gives a blank object a new reference number from the sequence, created by the caller\'s account, and logs it', async () => {
    const a = await addObject(emp);
    const b = await addObject(emp);
    expect(a.referenceNumber).toMatch(/^\d{4}$/);
    expect(Number(b.referenceNumber)).toBe(Number(a.referenceNumber) + 1);
    expect(a).toMatchObject({ createdByAccountId: empAccount!.id, createdBy: 'Nikolaou Eleni', active: true, forSale: false, orientation: [], images: [], version: 1, type: '', location: '' });
    expect(await lastLog('Object', a.id)).toMatchObject({ action: 'Create', actionBy: emp.id, message: `#${a.referenceNumber}` });
  });

  it('never gives a deleted object\'s reference number again', async () => {
    const a = await addObject();
    expect((await admin.del(`/api/object/${a.id}`)).statusCode).toBe(200);
    const b = await addObject();
    expect(Number(b.referenceNumber)).toBeGreaterThan(Number(a.referenceNumber));
  });
});

describe('adding a property from an account\'s page', () => {
  it('makes the blank object with that account as its owner in one go, logged; sent twice with one key, one property', async () => {
    const [client] = await t.db.insert(accounts).values({ firstName: 'Giorgos', lastName: 'Vlachos', isClient: true }).returning();
    const K = { headers: { 'idempotency-key': 'add-property-vlachos-1' } };
    const res = await emp.get(`/api/object/add?ownerId=${client!.id}`, K);
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json();
    expect(o).toMatchObject({ createdByAccountId: empAccount!.id, version: 1, forSale: false });
    // The same request again (a double click, a retry after a lost answer): the same property.
    const again = await emp.get(`/api/object/add?ownerId=${client!.id}`, K);
    expect(again.json().id).toBe(o.id);
    const links = await t.db.select().from(objectAccounts).where(eq(objectAccounts.accountId, client!.id));
    expect(links).toEqual([expect.objectContaining({ objectId: o.id, relation: 1, startDate: null, endDate: null })]);
    const [row] = await t.db.select({ ownerId: objects.ownerId }).from(objects).where(eq(objects.id, o.id));
    expect(row!.ownerId).toBe(client!.id);
    const [acc] = await t.db.select({ isOwner: accounts.isOwner, isClient: accounts.isClient }).from(accounts).where(eq(accounts.id, client!.id));
    expect(acc).toEqual({ isOwner: true, isClient: true });
    // The property's page names its owner among its contacts.
    const view = (await admin.get(`/api/object/view/${o.id}`)).json();
    expect(view.accounts).toEqual([{ id: client!.id, descr: 'Vlachos Giorgos' }]);
    const log = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Object'), eq(actionLog.entityId, o.id))).orderBy(actionLog.id);
    expect(log.map((l) => l.action)).toEqual(['Create', 'AddContact']);
    expect(log[1]).toMatchObject({ actionBy: emp.id, message: `#${o.referenceNumber} Vlachos Giorgos`, data: expect.objectContaining({ accountId: client!.id, relation: 1 }) });
    expect(await lastLog('Account', client!.id)).toMatchObject({ action: 'Update', data: { isOwner: true } });
  });

  it('for an unknown account: a clear 404 and no property', async () => {
    const [{ count: before }] = (await t.db.execute(sql`select count(*)::int as count from objects`)).rows as [{ count: number }];
    const res = await emp.get('/api/object/add?ownerId=2147483000', el);
    expect(res.statusCode).toBe(404);
    expect(res.json().title).toMatch(/επαφή/i);
    const [{ count: after }] = (await t.db.execute(sql`select count(*)::int as count from objects`)).rows as [{ count: number }];
    expect(after).toBe(before);
    expect((await admin.get('/api/object/add?ownerId=abc')).statusCode).toBe(400);
  });

  it('left as it was made, it is discarded like any new property; once its owner link is given a date, it stays', async () => {
    const [owner] = await t.db.insert(accounts).values({ firstName: 'Anna', lastName: 'Karras', isOwner: true }).returning();
    const left = (await emp.get(`/api/object/add?ownerId=${owner!.id}`)).json();
    expect((await emp.post('/api/object/discard', { id: left.id })).json()).toEqual({ discarded: true });
    expect(await t.db.select().from(objectAccounts).where(eq(objectAccounts.objectId, left.id))).toEqual([]);
    const dated = (await emp.get(`/api/object/add?ownerId=${owner!.id}`)).json();
    expect((await emp.post('/api/objectAccount/update', { objectId: dated.id, accountId: owner!.id, relation: 1, startDate: '2024-05-01' })).statusCode).toBe(200);
    expect((await emp.post('/api/object/discard', { id: dated.id })).json()).toEqual({ discarded: false });
  });

  it('left as it was made, it takes back the owner mark it gave a client; an owner of other properties stays one', async () => {
    const flag = async (id: number) => (await t.db.select({ isOwner: accounts.isOwner, isOwnerDate: accounts.isOwnerDate }).from(accounts).where(eq(accounts.id, id)))[0];
    // A buyer's page, Add property, then Cancel: the buyer is not an owner.
    const [buyer] = await t.db.insert(accounts).values({ firstName: 'Petros', lastName: 'Alexiou', isClient: true }).returning();
    const left = (await emp.get(`/api/object/add?ownerId=${buyer!.id}`)).json();
    expect(await flag(buyer!.id)).toMatchObject({ isOwner: true });
    expect((await emp.post('/api/object/discard', { id: left.id })).json()).toEqual({ discarded: true });
    expect(await flag(buyer!.id)).toEqual({ isOwner: false, isOwnerDate: null });
    expect(await lastLog('Account', buyer!.id)).toMatchObject({ action: 'Update', actionBy: emp.id, data: { isOwner: false } });
    // Already an owner before: the mark is the office's, and stays.
    const [owner] = await t.db.insert(accounts).values({ firstName: 'Sofia', lastName: 'Dimou', isOwner: true, isOwnerDate: new Date('2020-01-01') }).returning();
    expect((await emp.post('/api/object/discard', { id: (await emp.get(`/api/object/add?ownerId=${owner!.id}`)).json().id })).json()).toEqual({ discarded: true });
    expect(await flag(owner!.id)).toEqual({ isOwner: true, isOwnerDate: new Date('2020-01-01') });
    // Made an owner by it, then given another property: still an owner when the blank one goes.
    const [seller] = await t.db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Galanis', isClient: true }).returning();
    const blank = (await emp.get(`/api/object/add?ownerId=${seller!.id}`)).json();
    const other = (await emp.get('/api/object/add')).json();
    expect((await emp.post('/api/objectAccount/add', { objectId: other.id, accountId: seller!.id, relation: 1 })).statusCode).toBe(200);
    expect((await emp.post('/api/object/discard', { id: blank.id })).json()).toEqual({ discarded: true });
    expect(await flag(seller!.id)).toMatchObject({ isOwner: true });
    // A closed tab: the periodic clean-up takes the mark back as the discard does.
    const [tenant] = await t.db.insert(accounts).values({ firstName: 'Maria', lastName: 'Kosta', isClient: true }).returning();
    const closed = (await emp.get(`/api/object/add?ownerId=${tenant!.id}`)).json();
    await t.db.execute(sql`update objects set created_on = created_on - interval '2 days' where id = ${closed.id}`);
    await t.db.execute(sql`update object_accounts set created_on = created_on - interval '2 days' where object_id = ${closed.id}`);
    await t.db.execute(sql`update accounts set is_owner_date = is_owner_date - interval '2 days' where id = ${tenant!.id}`);
    expect(await pruneEmptyObjects(app)).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(objects).where(eq(objects.id, closed.id))).toEqual([]);
    expect(await flag(tenant!.id)).toEqual({ isOwner: false, isOwnerDate: null });
    expect(await lastLog('Account', tenant!.id)).toMatchObject({ action: 'Update', actionBy: null, data: { isOwner: false } });
  });
});

describe('editing an object', () => {
  it('stores the whole object and answers it with type and place in the reader\'s language', async () => {
    const o = await addObject();
    const res = await update(o.id, {
      title: '  Sunny flat near the sea ',
      subTypeObjectTypeId: 1,
      objectSubTypeId: 3,
      forSale: true,
      salePrice: 185000,
      salePriceWithDiscount: 175000,
      dateOfSalePriceDiscount: '2026-03-01',
      area: 96.5,
      bedrooms: 3,
      locationId: kalamaria!.id,
      orientation: [5, 1, 5],
      energyClass: 4,
      elevator: true,
      garden: false,
      latitude: 40.58,
      longitude: 22.95,
      displayCoordinates: false,
      mapCircleLatitude: 40.581,
      mapCircleLongitude: 22.951,
      mapCircleRadius: 500,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Sunny flat near the sea', type: 'Maisonette', location: 'Kalamaria, Thessaloniki', orientation: [1, 5], version: 2, salePrice: 185000, area: 96.5, elevator: true, garden: false, parking: null });
    const v = (await admin.get(`/api/object/view/${o.id}`, el)).json();
    expect(v).toMatchObject({ type: 'Μεζονέτα', location: 'Καλαμαριά, Θεσσαλονίκη', leads: [], viewings: [], deals: [], reservations: [], contacts: [] });
    expect(v.objectSelectLists.energyClass.find((x: { value: number }) => x.value === 4).text).toBe('Β');
    const [row] = await t.db.select().from(objects).where(eq(objects.id, o.id));
    expect(row!.searchText).toContain('sunny flat');
    expect((await lastLog('Object', o.id))!.data).toMatchObject({ title: 'Sunny flat near the sea', orientation: [1, 5] });
  });

  it('opens an object by ref and its reference number', async () => {
    const o = await addObject();
    const res = await admin.get(`/api/object/view/ref${o.referenceNumber}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(o.id);
    expect((await admin.get(`/api/object/view/REF${o.referenceNumber}`)).json().id).toBe(o.id);
    expect((await admin.get('/api/object/view/ref9999999')).statusCode).toBe(404);
    const bad = await admin.get('/api/object/view/flat12', el);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().title).toContain('ref0042');
    expect((await admin.get('/api/object/view/99999999999')).statusCode).toBe(400);
    expect((await admin.get('/api/object/view/2147483647')).statusCode).toBe(404);
  });

  it('answers a stale update 409 with the current record and changes nothing', async () => {
    const o = await addObject();
    expect((await admin.post('/api/object/update', { id: o.id, version: 1, title: 'First' })).statusCode).toBe(200);
    const res = await admin.post('/api/object/update', { id: o.id, version: 1, title: 'Second' });
    expect(res.statusCode).toBe(409);
    expect(res.json().current).toMatchObject({ title: 'First', version: 2 });
    const [row] = await t.db.select().from(objects).where(eq(objects.id, o.id));
    expect((row as Record<string, unknown>).title).toBe('First');
  });

  it('writes no new version when nothing changed', async () => {
    const o = await addObject();
    const res = await admin.post('/api/object/update', { id: o.id, version: 1, title: null, forSale: false });
    expect(res.json().version).toBe(1);
  });

  it('refuses a subtype of another type, a wrong select value, a bad radius and a missing circle with translated field errors; nothing is stored', async () => {
    const o = await addObject();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ subTypeObjectTypeId: 3, objectSubTypeId: 1 }, 'objectSubTypeId', 'Αυτό το είδος ανήκει σε άλλη κατηγορία'],
      [{ energyClass: 12 }, 'energyClass', 'Επιλέξτε μία από τις διαθέσιμες τιμές'],
      [{ orientation: [1, 9] }, 'orientation', 'Επιλέξτε μία από τις διαθέσιμες τιμές'],
      [{ latitude: 40.6, longitude: 22.9, mapCircleLatitude: 40.6, mapCircleLongitude: 22.9, mapCircleRadius: 2505 }, 'mapCircleRadius', 'Πρέπει να είναι πολλαπλάσιο του 10'],
      [{ latitude: 40.6, longitude: 22.9 }, 'latitude', 'Όταν δεν εμφανίζεται η ακριβής θέση, σημειώστε στον χάρτη την κατά προσέγγιση περιοχή (κύκλο)'],
      [{ latitude: 40.6, longitude: 22.9, displayCoordinates: true, mapCircleLatitude: 40.6 }, 'mapCircleLongitude', 'Συμπληρώστε και γεωγραφικό πλάτος και γεωγραφικό μήκος'],
      [{ latitude: 40.6 }, 'longitude', 'Συμπληρώστε και γεωγραφικό πλάτος και γεωγραφικό μήκος'],
      [{ rentPrice: 600, rentPriceWithDiscount: 550 }, 'dateOfRentPriceDiscount', 'Συμπληρώστε την ημερομηνία της μείωσης τιμής'],
      [{ salePrice: 100000, salePriceWithDiscount: 120000, dateOfSalePriceDiscount: '2026-01-10' }, 'salePriceWithDiscount', 'Η μειωμένη τιμή πρέπει να είναι χαμηλότερη από την τιμή'],
      // Above the price and without its date: the price is what is wrong first.
      [{ salePrice: 215000, salePriceWithDiscount: 300000 }, 'salePriceWithDiscount', 'Η μειωμένη τιμή πρέπει να είναι χαμηλότερη από την τιμή'],
      [{ constructionYear: 1990, renovationYear: 1985 }, 'renovationYear', 'Το έτος ανακαίνισης δεν μπορεί να είναι πριν από το έτος κατασκευής'],
      [{ locationId: 2147483000 }, 'locationId', 'Επιλέξτε μία από τις διαθέσιμες τιμές'],
    ];
    for (const [fields, field, text] of cases) {
      const res = await admin.post('/api/object/update', { id: o.id, version: 1, ...fields }, el);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(fields)).toEqual([text]);
    }
    // Checked by the contract before any work: a radius out of range, an impossible date, an id past 2^31.
    for (const fields of [{ mapCircleRadius: 30 }, { mapCircleRadius: 10010 }, { dateAvailable: '2026-02-30' }, { locationId: 2 ** 31 }, { bedrooms: 1.5 }]) {
      const res = await admin.post('/api/object/update', { id: o.id, version: 1, ...fields }, el);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([Object.keys(fields)[0]]);
    }
    expect((await admin.post('/api/object/update', { id: 2 ** 31, version: 1 })).statusCode).toBe(400);
    expect((await admin.post('/api/object/update', { id: 2147483000, version: 1 })).statusCode).toBe(404);
    const [row] = await t.db.select().from(objects).where(eq(objects.id, o.id));
    expect(row!.version).toBe(1);
  });

  it('takes the type from a subtype chosen alone, and accepts the circle with an exact point displayed or not', async () => {
    const o = await addObject();
    const res = await update(o.id, { objectSubTypeId: 13, latitude: 40.2, longitude: 23.3, displayCoordinates: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ subTypeObjectTypeId: 3, type: 'Building plot', mapCircleRadius: null });
  });
});

describe('the single-field editor on objects', () => {
  it('patches a multi-select in list order, a flag and a select, and applies the rules across fields', async () => {
    const o = await addObject();
    const patch = (field: string, value: unknown, opts?: CallOptions) => patchField(admin, 'object', o.id, field, value, opts);
    let res = await patch('orientation', [7, 3]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().dto.orientation).toEqual([3, 7]);
    res = await patch('forRent', true);
    expect(res.json().dto.forRent).toBe(true);
    res = await patch('forRent', null);
    expect(res.statusCode).toBe(400);
    res = await patch('subTypeObjectTypeId', 2);
    expect(res.statusCode).toBe(200);
    res = await patch('objectSubTypeId', 1, el);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.objectSubTypeId).toEqual(['Αυτό το είδος ανήκει σε άλλη κατηγορία']);
    res = await patch('mapCircleRadius', 45, el);
    expect(res.json().errors.mapCircleRadius).toEqual(['Πρέπει να είναι πολλαπλάσιο του 10']);
    res = await patch('hasKey', true);
    expect(res.statusCode).toBe(400);
    const sel = await admin.get(`/api/object/editRequestSelectList?id=${o.id}&fieldName=orientation`, el);
    expect(sel.json()).toMatchObject({ valueArray: [3, 7], selectListText: 'Ανατολικός, Δυτικός' });
    res = await patch('title', 'Shop in Tsimiski street');
    const [row] = await t.db.select().from(objects).where(eq(objects.id, o.id));
    expect(row!.searchText).toContain('tsimiski');
  });
});

describe('the objects list', () => {
  it('pages and sorts in SQL by every column, with the count', async () => {
    const res = await admin.post('/api/object', { perPage: 2, currentPage: 1, sortBy: 'referenceNumber', sortDir: 'asc' });
    expect(res.statusCode, res.body).toBe(200);
    // The properties opened with Add and left blank are drafts, in no list (lib/drafts.ts).
    const total = (await t.db.select({ id: objects.id }).from(objects).where(eq(objects.draft, false))).length;
    expect(res.json().totalRows).toBe(total);
    expect(res.json().items).toHaveLength(2);
    const [a, b] = res.json().items;
    expect(Number(a.referenceNumber)).toBeLessThan(Number(b.referenceNumber));
    for (const sortBy of ['createdOn', 'createdBy', 'referenceNumber', 'type', 'location', 'owner', 'modifiedOn', 'modifiedBy']) {
      for (const sortDir of ['asc', 'desc']) {
        const r = await admin.post('/api/object', { perPage: 100, currentPage: 1, sortBy, sortDir }, el);
        expect(r.statusCode, `${sortBy} ${sortDir}`).toBe(200);
        expect(r.json().items).toHaveLength(Math.min(total, 100));
      }
    }
    const byType = (await admin.post('/api/object', { perPage: 100, currentPage: 1, sortBy: 'type', sortDir: 'asc' }, el)).json().items.map((i: { type: string }) => i.type);
    const typed = byType.filter(Boolean);
    expect(typed).toEqual([...typed].sort((x: string, y: string) => x.localeCompare(y, 'el')));
  });

  it('sorts by owner (owner-less last) and by place (unplaced first going up), page after page the same as in one page', async () => {
    const [zeta] = await t.db.insert(accounts).values({ firstName: 'Ζωή', lastName: 'Ζαχαρίου' }).returning();
    const [alfa] = await t.db.insert(accounts).values({ firstName: 'Άννα', lastName: 'Αλεξίου' }).returning();
    for (const [ownerId, locationId] of [
      [zeta!.id, kalamaria!.id],
      [alfa!.id, null],
      [null, thess!.id],
      [alfa!.id, thess!.id],
      [null, null],
    ] as const) {
      const o = await addObject();
      // Filled in (no longer a draft: lib/drafts.ts).
      await t.db.update(objects).set({ ownerId, locationId, draft: false } as never).where(eq(objects.id, o.id));
    }
    type Row = { id: number; owner: string | null; location: string };
    for (const sortBy of ['owner', 'location'] as const) {
      for (const sortDir of ['asc', 'desc'] as const) {
        const all: Row[] = (await admin.post('/api/object', { perPage: 100, currentPage: 1, sortBy, sortDir }, el)).json().items;
        const paged: Row[] = [];
        for (let page = 1; page <= Math.ceil(all.length / 5); page++) {
          paged.push(...(await admin.post('/api/object', { perPage: 5, currentPage: page, sortBy, sortDir }, el)).json().items);
        }
        expect(paged.map((r) => r.id), `${sortBy} ${sortDir}`).toEqual(all.map((r) => r.id));
        expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
        const keys = all.map((r) => (sortBy === 'owner' ? r.owner : r.location) || null);
        const present = keys.filter((k): k is string => k !== null);
        const sorted = [...present].sort((x, y) => x.localeCompare(y, 'el'));
        expect(present, `${sortBy} ${sortDir}`).toEqual(sortDir === 'asc' ? sorted : sorted.reverse());
        const firstMissing = keys.indexOf(null);
        // Owner-less objects come last either way; unplaced objects come first going up, last going down.
        if (sortBy === 'owner' || sortDir === 'desc') expect(keys.slice(firstMissing).every((k) => k === null)).toBe(true);
        else expect(keys.slice(0, keys.lastIndexOf(null) + 1).every((k) => k === null)).toBe(true);
      }
    }
  });

  it('is open to staff, branch staff included, and not to anonymous callers', async () => {
    expect((await branchUser.post('/api/object', {})).statusCode).toBe(200);
    expect((await t.client().post('/api/object', {})).statusCode).toBe(401);
  });
});

describe('deleting an object', () => {
  it('removes its contacts, keys, assignments, activity links (and activities linked to nothing else), detaches its files, and logs it', async () => {
    const o = await addObject();
    const [acc] = await t.db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Owner' }).returning();
    expect((await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: acc!.id, relation: 1 })).statusCode).toBe(200);
    expect((await admin.post('/api/ObjectKeys/edit', { objectId: o.id, accountId: acc!.id, received: '2026-01-02' })).statusCode).toBe(200);
    expect((await admin.post('/api/assignment/object/add', { objectId: o.id, assignedTo: empAccount!.id })).statusCode).toBe(200);
    const act = await admin.post('/api/activity/add', { entityType: LinkKind.Object, id: o.id });
    expect(act.statusCode, act.body).toBe(200);
    const [f] = await t.db.insert(files).values({ systemName: `p-${o.id}`, userName: 'p.jpg', mime: 'image/jpeg', size: 5, parentType: LinkKind.Object, parentId: o.id, type: 'image' }).returning();
    expect((await admin.get(`/api/object/view/${o.id}`)).json().images).toEqual([{ id: f!.id, name: f!.systemName, width: null, height: null, size: 5 }]);

    const res = await admin.del(`/api/object/${o.id}`);
    expect(res.statusCode).toBe(200);
    expect(await t.db.select().from(objects).where(eq(objects.id, o.id))).toEqual([]);
    expect(await t.db.select().from(objectAccounts).where(eq(objectAccounts.objectId, o.id))).toEqual([]);
    expect(await t.db.select().from(assignments).where(and(eq(assignments.parent, 0), eq(assignments.parentId, o.id)))).toEqual([]);
    expect(await t.db.select().from(activityLinks).where(and(eq(activityLinks.entity, LinkKind.Object), eq(activityLinks.entityId, o.id)))).toEqual([]);
    expect(await t.db.select().from(activities).where(eq(activities.id, act.json().id))).toEqual([]);
    const [file] = await t.db.select().from(files).where(eq(files.id, f!.id));
    expect(file).toMatchObject({ parentType: null, parentId: null });
    expect(await lastLog('Object', o.id)).toMatchObject({ action: 'Delete', message: `#${o.referenceNumber}` });
    expect((await admin.del(`/api/object/${o.id}`)).statusCode).toBe(404);
    expect((await admin.del(`/api/object/${2 ** 31}`)).statusCode).toBe(400);
  });
});

describe('a new property left empty', () => {
  const discard = (id: number, as: Client = emp) => as.post('/api/object/discard', { id });
  const exists = async (id: number) => (await t.db.select({ id: objects.id }).from(objects).where(eq(objects.id, id))).length === 1;

  it('opened with Add and left untouched is discarded, logged, and its reference number is not given again', async () => {
    const o = await addObject(emp);
    const res = await discard(o.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ discarded: true });
    expect(await exists(o.id)).toBe(false);
    expect(await lastLog('Object', o.id)).toMatchObject({ action: 'Delete', actionBy: emp.id, message: 'Left empty', data: { referenceNumber: o.referenceNumber } });
    // Gone already: nothing to do, no error.
    expect((await discard(o.id)).json()).toEqual({ discarded: false });
    const next = await addObject(emp);
    expect(Number(next.referenceNumber)).toBeGreaterThan(Number(o.referenceNumber));
    expect((await discard(next.id)).json()).toEqual({ discarded: true });
  });

  it('stays when anything was done with it, or when another user asks', async () => {
    const saved = await addObject(emp);
    expect((await update(saved.id, { area: 80 }, emp)).statusCode).toBe(200);
    const oneField = await addObject(emp);
    const patched = await patchField(emp, 'object', oneField.id, 'bedrooms', 2);
    expect(patched.statusCode, patched.body).toBe(200);
    const withPhoto = await addObject(emp);
    await t.db.insert(files).values({ systemName: `discard-${withPhoto.id}`, userName: 'p.jpg', mime: 'image/jpeg', size: 5, parentType: LinkKind.Object, parentId: withPhoto.id, type: 'image' });
    const [owner] = await t.db.insert(accounts).values({ firstName: 'Maria', lastName: 'Owner' }).returning();
    const withOwner = await addObject(emp);
    expect((await emp.post('/api/objectAccount/add', { objectId: withOwner.id, accountId: owner!.id, relation: 1 })).statusCode).toBe(200);
    const withKey = await addObject(emp);
    expect((await emp.post('/api/ObjectKeys/edit', { objectId: withKey.id, accountId: owner!.id, received: '2026-01-02' })).statusCode).toBe(200);
    const withActivity = await addObject(emp);
    expect((await emp.post('/api/activity/add', { entityType: LinkKind.Object, id: withActivity.id })).statusCode).toBe(200);
    const withAssignment = await addObject(emp);
    expect((await emp.post('/api/assignment/object/add', { objectId: withAssignment.id, assignedTo: empAccount!.id })).statusCode).toBe(200);
    const offered = await addObject(emp);
    const lead = (await emp.post('/api/lead/add', {})).json().id as number;
    expect((await emp.post('/api/lead/addObject', { leadId: lead, objectId: offered.id })).statusCode).toBe(200);
    const inDeal = await addObject(emp);
    await t.db.insert(deals).values({ objectId: inDeal.id, dealType: 2, dealStage: 5 } as never);
    const viewed = await addObject(emp);
    const [v] = await t.db.insert(viewings).values({}).returning({ id: viewings.id });
    await t.db.insert(viewingObjects).values({ viewingId: v!.id, objectId: viewed.id } as never);
    const kept = { saved, oneField, withPhoto, withOwner, withKey, withActivity, withAssignment, offered, inDeal, viewed };
    for (const [name, o] of Object.entries(kept)) {
      expect((await discard(o.id)).json(), name).toEqual({ discarded: false });
      expect(await exists(o.id), name).toBe(true);
    }

    // Another user's new property stays; its author may discard it.
    const someoneElses = await addObject(admin);
    expect((await discard(someoneElses.id)).json()).toEqual({ discarded: false });
    expect(await exists(someoneElses.id)).toBe(true);
    expect((await discard(someoneElses.id, admin)).json()).toEqual({ discarded: true });
    // Made more than a day ago: left to the clean-up, not discarded here.
    const old = await addObject(emp);
    await t.db.update(objects).set({ createdOn: new Date(Date.now() - 2 * 86400000) } as never).where(eq(objects.id, old.id));
    expect((await discard(old.id)).json()).toEqual({ discarded: false });
    expect((await discard(2 ** 30)).json()).toEqual({ discarded: false });
  });

  it('left untouched for over a day (a closed tab) is removed by the periodic clean-up; any other stays', async () => {
    const old = await addObject(emp);
    const oldSaved = await addObject(emp);
    expect((await update(oldSaved.id, { title: 'Flat by the park' })).statusCode).toBe(200);
    const oldWithPhoto = await addObject(emp);
    await t.db.insert(files).values({ systemName: `prune-${oldWithPhoto.id}`, userName: 'p.jpg', mime: 'image/jpeg', size: 5, parentType: LinkKind.Object, parentId: oldWithPhoto.id, type: 'image' });
    const fresh = await addObject(emp);
    // Imported or demo data (no author) is not a property someone opened and left.
    const [imported] = await t.db.insert(objects).values({ createdOn: new Date(Date.now() - 3 * 86400000) } as never).returning({ id: objects.id });
    const ids = [old.id, oldSaved.id, oldWithPhoto.id, fresh.id, imported!.id] as number[];
    await t.db.update(objects).set({ createdOn: new Date(Date.now() - 2 * 86400000) } as never).where(inArray(objects.id, [old.id, oldSaved.id, oldWithPhoto.id]));
    expect(await pruneEmptyObjects(app)).toBeGreaterThanOrEqual(1);
    const left = (await t.db.select({ id: objects.id }).from(objects).where(inArray(objects.id, ids))).map((r) => r.id).sort((a, b) => a - b);
    expect(left).toEqual([oldSaved.id, oldWithPhoto.id, fresh.id, imported!.id].sort((a, b) => a - b));
    expect(await lastLog('Object', old.id)).toMatchObject({ action: 'Delete', message: 'Left empty', actionBy: null, data: { referenceNumber: old.referenceNumber } });
    const next = await addObject(emp);
    expect(Number(next.referenceNumber)).toBeGreaterThan(Number(fresh.referenceNumber));
  });
});

describe('a property with a history', () => {
  it('is not deleted while deals or viewings name it (they would lose it); it says why, in the reader\'s language', async () => {
    const o = await addObject();
    const [deal] = await t.db.insert(deals).values({ objectId: o.id, dealType: 2, dealStage: 5 } as never).returning({ id: deals.id });
    const refused = await admin.del(`/api/object/${o.id}`, { lang: 'el' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().title).toBe('Το ακίνητο περιλαμβάνεται σε συμφωνίες (1), οι οποίες θα έμεναν χωρίς αυτό. Μπορεί να διαγραφεί αφού αλλάξει το ακίνητό τους ή διαγραφούν· για να αποσυρθεί από την αγορά, αποεπιλέξτε το «Ενεργό».');
    await t.db.delete(deals).where(eq(deals.id, deal!.id));
    const [v] = await t.db.insert(viewings).values({}).returning({ id: viewings.id });
    await t.db.insert(viewingObjects).values({ viewingId: v!.id, objectId: o.id } as never);
    const shown = await admin.del(`/api/object/${o.id}`);
    expect(shown.statusCode).toBe(409);
    expect(shown.json().title).toContain('This property was shown in viewings (1)');
    expect(await t.db.select({ id: objects.id }).from(objects).where(eq(objects.id, o.id))).toEqual([{ id: o.id }]);
    expect(await t.db.select().from(viewingObjects).where(eq(viewingObjects.viewingId, v!.id))).toHaveLength(1);
    // Nothing names it any more: it goes.
    await t.db.delete(viewings).where(eq(viewings.id, v!.id));
    expect((await admin.del(`/api/object/${o.id}`)).statusCode).toBe(200);
  });
});

describe('records that point at objects', () => {
  it('activity links and assignments refuse objects that do not exist', async () => {
    const act = await admin.post('/api/activity/add', { entityType: LinkKind.Object, id: 2147483000 }, el);
    expect(act.statusCode).toBe(400);
    const asg = await admin.post('/api/assignment/object/add', { objectId: 2147483000, assignedTo: empAccount!.id });
    expect(asg.statusCode).toBe(404);
    expect((await admin.get('/api/assignment/object/2147483000')).statusCode).toBe(404);
  });

  it('an activity linked to an object shows its reference number', async () => {
    const o = await addObject();
    const act = await admin.post('/api/activity/add', { entityType: LinkKind.Object, id: o.id });
    const one = (await admin.get(`/api/activity/${act.json().id}`)).json();
    expect(one.links).toEqual([{ entity: LinkKind.Object, id: o.id, description: `#${o.referenceNumber}` }]);
  });
});

describe('select list texts', () => {
  it('has a text for every value of every list and every relation, in the three languages', async () => {
    const { OBJECT_LISTS, OBJECT_SUBTYPES, OBJECT_RELATIONS } = await import('@crm/contract');
    const keys = [
      ...Object.entries(OBJECT_LISTS).flatMap(([list, values]) => values.map((v) => `objects.list.${list}.${v}`)),
      ...OBJECT_SUBTYPES.map((s) => `objects.list.objectSubTypes.${s.value}`),
      ...OBJECT_RELATIONS.map((r) => `objects.relation.${r}`),
    ];
    for (const culture of ['en', 'el', 'ru'] as const) {
      for (const key of keys) expect(app.translator.t(culture, key), `${culture} ${key}`).not.toBe(key);
    }
  });
});
