import { describe, expect, it } from 'vitest';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { accounts, actionLog, leadObjects, leads, objects } from '../../db/schema/index.ts';
import { accountMaker } from '../../../test/records.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';
import { LEAD_FIELDS, LEAD_MORE_COLUMNS, LEAD_ROW_FIELDS } from '@crm/contract';
import { pruneEmptyLeads } from './leads.service.ts';

const t = await createTestApp();
const { app, db } = t;

const agent = await t.user({ roles: ['employee'] });
const payer = await t.user({ roles: ['clientPayments'] });

const newAccount = accountMaker(db, 'Maria', 'Papadopoulou');
async function newObject(title: string) {
  const [o] = await db.insert(objects).values({ title } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  return o!;
}
async function addLead(accountId?: number) {
  const res = await agent.post('/api/lead/add', accountId ? { accountId } : {});
  expect(res.statusCode).toBe(200);
  return res.json().id as number;
}
const read = async (id: number, lang = 'en') => (await agent.get(`/api/lead/get/${id}`, { lang })).json();

describe('a lead', () => {
  it('starts at once for a client: stage new, priority normal, from today; the client is marked as a client', async () => {
    const client = await newAccount();
    const id = await addLead(client.id);
    const lead = await read(id);
    expect(lead).toMatchObject({ id, accountId: client.id, account: client.displayName, stage: 1, priority: 2, objects: [], version: 1 });
    expect(lead).toMatchObject({ createdBy: agent.email, modifiedBy: agent.email });
    expect(lead.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(lead.stageList.map((o: { text: string }) => o.text)).toContain('Negotiating');
    const [acc] = await db.select({ isClient: accounts.isClient, isClientDate: accounts.isClientDate, version: accounts.version }).from(accounts).where(eq(accounts.id, client.id));
    expect(acc!.isClient).toBe(true);
    expect(acc!.isClientDate).toBeInstanceOf(Date);
    expect(acc!.version).toBe(client.version + 1);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.entityId, id)));
    expect(log).toMatchObject({ action: 'Create', actionBy: agent.id });
    const accountLog = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Account'), eq(actionLog.entityId, client.id)));
    expect(accountLog.map((l) => [l.action, l.data])).toEqual([['Update', { isClient: true }]]);
  });

  it("made for one of the staff is kept (an employee may buy a flat), and its answer says the client is an employee", async () => {
    const employee = await newAccount({ lastName: 'Staff', isEmploye: true });
    const id = await addLead(employee.id);
    expect(await read(id)).toMatchObject({ accountId: employee.id, account: employee.displayName, accountIsEmploye: true });
    const [acc] = await db.select({ isClient: accounts.isClient, isEmploye: accounts.isEmploye }).from(accounts).where(eq(accounts.id, employee.id));
    expect(acc).toEqual({ isClient: true, isEmploye: true });
    expect((await read(await addLead((await newAccount()).id))).accountIsEmploye).toBe(false);
    expect((await read(await addLead())).accountIsEmploye).toBe(false);
  });

  it('added from the Leads list without a client gets one later, who becomes a client then', async () => {
    const id = await addLead();
    expect(await read(id)).toMatchObject({ accountId: null, account: null });
    const owner = await newAccount({ lastName: 'Later', isOwner: true });
    const saved = await agent.post('/api/lead/update', { id, version: 1, accountId: owner.id });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ accountId: owner.id, account: owner.displayName, version: 2 });
    const [acc] = await db.select({ isClient: accounts.isClient, isOwner: accounts.isOwner, version: accounts.version }).from(accounts).where(eq(accounts.id, owner.id));
    expect(acc).toEqual({ isClient: true, isOwner: true, version: owner.version + 1 });
    // An unknown account is a field error, and changes nothing.
    const unknown = await agent.post('/api/lead/update', { id, version: 2, accountId: 2147483000 });
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json().errors)).toEqual(['accountId']);
    expect((await read(id)).accountId).toBe(owner.id);
  });

  it('saves its fields, answers them translated, and refuses a stale version (409) without writing', async () => {
    const id = await addLead((await newAccount()).id);
    const saved = await agent.post('/api/lead/update', {
      id,
      version: 1,
      forPurchase: true,
      purchaseBudgetRangeMin: 100000,
      purchaseBudgetRangeMax: 150000,
      stage: 3,
      objectSubTypes: [3, 1],
      bedroomsMin: 2,
      description: '  Near a school  ',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ version: 2, forPurchase: true, purchaseBudgetRangeMax: 150000, stage: 3, objectSubTypes: [1, 3], description: 'Near a school' });
    expect(saved.json().descr).toContain('Purchase, 100\u00a0000\u00a0€ – 150\u00a0000\u00a0€');
    const el = await read(id, 'el');
    expect(el.descr).toContain('Αγορά');

    const stale = await agent.post('/api/lead/update', { id, version: 1, stage: 7 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ version: 2, stage: 3 });
    const [row] = await db.select().from(leads).where(eq(leads.id, id));
    expect((row as Record<string, unknown>).stage).toBe(3);
  });

  it('names its place as the places list does: an area named like its municipality is not said twice', async () => {
    const placeId = async (key: string) => ((await db.execute(sql`select id from locations where key = ${key}`)).rows[0] as { id: number }).id;
    const id = await addLead((await newAccount()).id);
    let version = 1;
    for (const [key, el, en] of [
      ['thessaloniki.kalamaria.kalamaria', 'Καλαμαριά, Θεσσαλονίκη', 'Kalamaria, Thessaloniki'],
      ['thessaloniki.kalamaria', 'Καλαμαριά (δήμος), Θεσσαλονίκη', 'Kalamaria (municipality), Thessaloniki'],
      ['thessaloniki.kalamaria.karabournaki', 'Καραμπουρνάκι, Καλαμαριά, Θεσσαλονίκη', 'Karabournaki, Kalamaria, Thessaloniki'],
    ] as const) {
      const saved = await agent.post('/api/lead/update', { id, version, locationId: await placeId(key) });
      expect(saved.statusCode).toBe(200);
      version = saved.json().version;
      expect((await read(id, 'el')).location).toBe(el);
      expect((await read(id, 'en')).location).toBe(en);
    }
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const id = await addLead();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ purchaseBudgetRangeMin: 200000, purchaseBudgetRangeMax: 100000 }, 'purchaseBudgetRangeMax', 'The budget “up to” cannot be lower than “from”'],
      [{ startDate: '2026-05-01', endDate: '2026-04-01' }, 'endDate', 'The end date cannot be before the start date'],
      [{ areaMin: 120, areaMax: 80 }, 'areaMax', 'The area “up to” cannot be smaller than “from”'],
      [{ stage: 99 }, 'stage', ''],
      [{ objectSubTypes: [1, 999] }, 'objectSubTypes', ''],
      [{ source: (await newAccount()).id }, 'source', ''],
      [{ locationId: 2000000000 }, 'locationId', ''],
    ];
    for (const [body, field, message] of cases) {
      const res = await agent.post('/api/lead/update', { id, version: 1, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().errors ?? {}), JSON.stringify(body)).toContain(field);
      if (message) expect(res.json().errors[field][0]).toBe(message);
    }
    for (const body of [{ startDate: '2026-02-30' }, { stage: 'won' }, { id: 2 ** 31, version: 1 }, { purchaseBudgetRangeMin: -1 }]) {
      const res = await agent.post('/api/lead/update', { id, version: 1, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await agent.get('/api/lead/get/2147483648')).statusCode).toBe(400);
    expect((await agent.get('/api/lead/get/2147483647')).statusCode).toBe(404);
    expect((await agent.post('/api/lead/add', { accountId: 2147483647 })).statusCode).toBe(400);
    expect((await read(id)).version).toBe(1);
  });

  it('offers objects once each: the duplicate is refused with “Object already in the list!”', async () => {
    const id = await addLead();
    const a = await newObject('Flat in Kalamaria');
    const b = await newObject('Maisonette in Panorama');
    expect((await agent.post('/api/lead/addObject', { leadId: id, objectId: a.id })).statusCode).toBe(200);
    const second = await agent.post('/api/lead/addObject', { leadId: id, objectId: b.id });
    expect(second.json().objects.map((o: { objectId: number }) => o.objectId)).toEqual([a.id, b.id]);
    expect(second.json().objects[0].objectReferenceNumber).toBe(String(a.ref).padStart(4, '0'));
    const dup = await agent.post('/api/lead/addObject', { leadId: id, objectId: a.id });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().title).toBe('Object already in the list!');
    const dupInUpdate = await agent.post('/api/lead/update', { id, version: 3, objects: [{ objectId: b.id }, { objectId: b.id }] });
    expect(dupInUpdate.statusCode).toBe(400);
    expect((await agent.post('/api/lead/addObject', { leadId: id, objectId: 2147483647 })).statusCode).toBe(404);
    const removed = await agent.post('/api/lead/removeObject', { leadId: id, objectId: a.id });
    expect(removed.json().objects.map((o: { objectId: number }) => o.objectId)).toEqual([b.id]);
    // Deleting the object takes it off the lead, never leaving a dangling link.
    await db.delete(objects).where(eq(objects.id, b.id));
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, id))).toEqual([]);
  });

  it('is deleted with its offered objects, and logged', async () => {
    const id = await addLead();
    const o = await newObject('Shop in the centre');
    await agent.post('/api/lead/addObject', { leadId: id, objectId: o.id });
    expect((await agent.del(`/api/lead/${id}`)).statusCode).toBe(200);
    expect((await agent.get(`/api/lead/get/${id}`)).statusCode).toBe(404);
    expect(await db.select().from(leadObjects).where(eq(leadObjects.leadId, id))).toEqual([]);
    const [log] = await db.select().from(actionLog).where(eq(actionLog.entity, 'Lead')).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Delete', entityId: id });
    expect((await agent.del(`/api/lead/${id}`)).statusCode).toBe(404);
  });

  it('opened with Add and left untouched is discarded; one with anything in it stays', async () => {
    const discard = (id: number, as: Client = agent) => as.post('/api/lead/discard', { id });
    const exists = async (id: number) => (await db.select({ id: leads.id }).from(leads).where(eq(leads.id, id))).length === 1;
    const empty = await addLead();
    expect((await discard(empty)).json()).toEqual({ discarded: true });
    expect(await exists(empty)).toBe(false);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.entityId, empty))).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Delete', message: 'Left empty' });
    // Gone already: nothing to do, no error.
    expect((await discard(empty)).json()).toEqual({ discarded: false });

    const forClient = await addLead((await newAccount()).id);
    const saved = await addLead();
    expect((await agent.post('/api/lead/update', { id: saved, version: 1, description: 'Calls after six' })).statusCode).toBe(200);
    const offered = await addLead();
    await agent.post('/api/lead/addObject', { leadId: offered, objectId: (await newObject('Flat for a discard test')).id });
    const withActivity = await addLead();
    expect((await agent.post('/api/activity/add', { entityType: 4, id: withActivity })).statusCode).toBe(200);
    const someoneElses = await addLead();
    const other = await t.user({ roles: ['employee'] });
    expect((await discard(someoneElses, other)).json()).toEqual({ discarded: false });
    for (const [name, id] of Object.entries({ forClient, saved, offered, withActivity })) {
      expect((await discard(id)).json(), name).toEqual({ discarded: false });
      expect(await exists(id), name).toBe(true);
    }
    // Its author may.
    expect((await discard(someoneElses)).json()).toEqual({ discarded: true });
  });

  it('left untouched for over a day (a closed tab), is removed by the periodic clean-up; any other stays', async () => {
    const old = await addLead();
    const oldWithClient = await addLead((await newAccount()).id);
    const fresh = await addLead();
    // A lead whose client was deleted keeps its wishes: not untouched.
    const orphan = await addLead((await newAccount()).id);
    await db.update(leads).set({ accountId: null, forRent: true } as never).where(eq(leads.id, orphan));
    await db.update(leads).set({ createdOn: new Date(Date.now() - 2 * 86400000) } as never).where(inArray(leads.id, [old, oldWithClient, orphan]));
    expect(await pruneEmptyLeads(app)).toBeGreaterThanOrEqual(1);
    const left = (await db.select({ id: leads.id }).from(leads).where(inArray(leads.id, [old, oldWithClient, fresh, orphan]))).map((r) => r.id).sort((a, b) => a - b);
    expect(left).toEqual([oldWithClient, fresh, orphan].sort((a, b) => a - b));
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.entityId, old), eq(actionLog.action, 'Delete')));
    expect(log).toMatchObject({ action: 'Delete', message: 'Left empty', actionBy: null });
  });

  it('is not for a payments client', async () => {
    expect((await payer.post('/api/lead/search', {})).statusCode).toBe(403);
    expect((await payer.post('/api/lead/add', {})).statusCode).toBe(403);
  });
});

describe('the leads list', () => {
  const mark = `Zafeiriou${Date.now() % 100000}`;
  let ids: number[] = [];
  it('filters by service, stage, budget overlap and the client’s last name in any script, counting in SQL', async () => {
    const source = await newAccount({ isSource: true, isCompany: true, name: 'Spitogatos' });
    const c1 = await newAccount({ lastName: mark, firstName: 'Eleni' });
    const c2 = await newAccount({ lastName: 'Иванова', firstName: 'Ольга' });
    const l1 = await addLead(c1.id);
    const l2 = await addLead(c2.id);
    const l3 = await addLead(c1.id);
    ids = [l1, l2, l3];
    await agent.post('/api/lead/update', { id: l1, version: 1, forPurchase: true, purchaseBudgetRangeMin: 100000, purchaseBudgetRangeMax: 150000, source: source.id });
    await agent.post('/api/lead/update', { id: l2, version: 1, forRent: true, rentBudgetRangeMin: 500, rentBudgetRangeMax: 700, stage: 4 });
    await agent.post('/api/lead/update', { id: l3, version: 1, forPurchase: true, purchaseBudgetRangeMin: 300000, stage: 7 });

    const search = async (body: Record<string, unknown>) => {
      const res = await agent.post('/api/lead/search', { perPage: 100, ...body });
      expect(res.statusCode).toBe(200);
      return res.json() as { items: { id: number; type: string; budgetRange: string; name: string }[]; totalRows: number; options: Record<string, unknown[]> };
    };
    const mine = (r: { items: { id: number }[] }) => r.items.map((i) => i.id).filter((id) => ids.includes(id)).sort((a, b) => a - b);

    expect(mine(await search({ lastName: mark }))).toEqual([l1, l3]);
    expect(mine(await search({ lastName: 'ivanova' }))).toEqual([l2]);
    expect(mine(await search({ service: 1, budgetRangeMin: 120000, budgetRangeMax: 200000 }))).toEqual([l1]);
    expect(mine(await search({ service: 2 }))).toEqual([l2]);
    expect(mine(await search({ stages: [4, 7] }))).toEqual([l2, l3]);
    expect(mine(await search({ sources: [source.id] }))).toEqual([l1]);
    const one = await search({ lastName: mark, perPage: 1 });
    expect(one.totalRows).toBe(2);
    expect(one.items).toHaveLength(1);
    // Counted in the same pass as the page: a later page and one past the end keep the total.
    const second = await search({ lastName: mark, perPage: 1, currentPage: 2 });
    expect(second.totalRows).toBe(2);
    expect([...one.items, ...second.items].map((i) => i.id).sort((a, b) => a - b)).toEqual([l1, l3]);
    expect(await search({ lastName: mark, perPage: 1, currentPage: 3 })).toMatchObject({ items: [], totalRows: 2 });
    const row = (await search({ lastName: mark })).items.find((i) => i.id === l1)!;
    expect(row).toMatchObject({ type: 'purchase', budgetRange: '100\u00a0000\u00a0€ – 150\u00a0000\u00a0€', name: `${mark} Eleni` });
    expect(Object.keys(one.options).sort()).toEqual(['priorityList', 'serviceList', 'sourceList', 'stageList']);
    // Its sources in alphabetical order, accents and capitals set aside (not by code points).
    for (const name of ['Όλγα Ακίνητα', 'Αλέξης Ακίνητα', 'agency24']) await newAccount({ isSource: true, isCompany: true, name });
    const options = (await search({ lastName: mark })).options as unknown as { sourceList: { text: string }[] };
    const sourceNames = options.sourceList.map((o) => o.text).filter((n) => ['Όλγα Ακίνητα', 'Αλέξης Ακίνητα', 'agency24', 'Spitogatos'].includes(n));
    expect(sourceNames).toEqual(['agency24', 'Spitogatos', 'Αλέξης Ακίνητα', 'Όλγα Ακίνητα']);
  });

  it('finds the client by a last name only (any script, Greeklish, a company name), kept up to date when the name changes', async () => {
    const tag = `Q${Date.now() % 100000}`;
    // The fragment is in one client's first name, e-mail and phone-like fields: not a last name.
    const firstOnly = await newAccount({ firstName: `Theo${tag}`, lastName: 'Alexiou', emails: [`theo${tag.toLowerCase()}@example.com`] });
    const inGreek = await newAccount({ firstName: 'Nikos', lastName: 'Θεοδωρίδης' });
    const inEnglish = await newAccount({ firstName: 'Anna', lastName: 'Παππά', lastNameEng: `Pappa${tag}` });
    const company = await newAccount({ isCompany: true, name: `Theo${tag} Estates` });
    const [lFirst, lGreek, lEnglish, lCompany] = [await addLead(firstOnly.id), await addLead(inGreek.id), await addLead(inEnglish.id), await addLead(company.id)];
    const found = async (lastName: string) =>
      ((await agent.post('/api/lead/search', { perPage: 100, lastName })).json() as { items: { id: number }[] }).items
        .map((i) => i.id)
        .filter((id) => [lFirst, lGreek, lEnglish, lCompany].includes(id))
        .sort((a, b) => a - b);
    expect(await found(`theo${tag}`)).toEqual([lCompany]);
    expect(await found('Θεοδωρ')).toEqual([lGreek]);
    expect(await found('theodorid')).toEqual([lGreek]);
    expect(await found(`pappa${tag}`)).toEqual([lEnglish]);
    // A renamed client is found by the new name at once, and no longer by the old one.
    await db.update(accounts).set({ lastName: `Renamed${tag}` }).where(eq(accounts.id, inGreek.id));
    expect(await found(`renamed${tag}`)).toEqual([lGreek]);
    expect(await found('Θεοδωρίδ')).toEqual([]);
    // A deleted account takes its name with it.
    const [{ n }] = (await db.execute(sql`select count(*)::int as n from account_last_names where account_id = ${firstOnly.id}`)).rows as [{ n: number }];
    expect(n).toBe(1);
    await db.delete(leads).where(eq(leads.id, lFirst));
    await db.delete(accounts).where(eq(accounts.id, firstOnly.id));
    const [{ m }] = (await db.execute(sql`select count(*)::int as m from account_last_names where account_id = ${firstOnly.id}`)).rows as [{ m: number }];
    expect(m).toBe(0);
  });

  it('sorts by the client’s name in the reader’s alphabet (Ώ with Ω, after Β), both ways', async () => {
    const source = await newAccount({ isSource: true, isCompany: true, name: `Source ${mark}` });
    const mine: number[] = [];
    for (const lastName of ['Ώριμος', 'Αλεξίου', 'Βλάχος']) {
      const id = await addLead((await newAccount({ lastName, firstName: 'Νίκος' })).id);
      await agent.post('/api/lead/update', { id, version: 1, source: source.id });
      mine.push(id);
    }
    const names = async (sortDir: string) =>
      ((await agent.post('/api/lead/search', { sources: [source.id], sortBy: 'name', sortDir }, { lang: 'el' })).json().items as { name: string }[]).map((i) => i.name);
    expect(await names('asc')).toEqual(['Αλεξίου Νίκος', 'Βλάχος Νίκος', 'Ώριμος Νίκος']);
    expect(await names('desc')).toEqual(['Ώριμος Νίκος', 'Βλάχος Νίκος', 'Αλεξίου Νίκος']);
  });

  it('answers the further columns asked for: values as they are, the source, the place, the property types and the features by name in the reader’s language; an unknown column is a 400', async () => {
    const source = await newAccount({ isSource: true, isCompany: true, name: `Portal ${mark}` });
    const [place] = (await db.execute(sql`select id from locations where key = 'thessaloniki.kalamaria.karabournaki'`)).rows as [{ id: number }];
    const id = await addLead((await newAccount()).id);
    const saved = await agent.post('/api/lead/update', { id, version: 1, source: source.id, locationId: place.id, areaMin: 80, bedroomsMin: 2, endDate: '2027-03-31', description: 'Near the sea', objectSubTypes: [1, 3], features: ['elevator', 'parking'] });
    expect(saved.statusCode).toBe(200);
    const row = async (lang: string, more: string[]) =>
      ((await agent.post('/api/lead/search', { sources: [source.id], more }, { lang })).json().items as { id: number; more?: Record<string, unknown> }[]).find((i) => i.id === id)!;
    const more = ['source', 'locationId', 'areaMin', 'bedroomsMin', 'endDate', 'description', 'areaMax'];
    expect((await row('en', more)).more).toEqual({ source: `Portal ${mark}`, locationId: 'Karabournaki', areaMin: 80, bedroomsMin: 2, endDate: '2027-03-31', description: 'Near the sea', areaMax: null });
    expect((await row('el', ['locationId', 'source', 'objectSubTypes', 'features'])).more).toEqual({
      locationId: 'Καραμπουρνάκι',
      source: `Portal ${mark}`,
      objectSubTypes: 'Διαμέρισμα, Μεζονέτα',
      features: 'Ανελκυστήρας, Πάρκινγκ',
    });
    expect((await row('en', ['objectSubTypes', 'features'])).more).toEqual({ objectSubTypes: 'Apartment, Maisonette', features: 'Lift, Parking' });
    // Every described field is either in the row already or offered as a further column.
    expect(LEAD_FIELDS.filter((d) => !LEAD_ROW_FIELDS.has(d.name) && !LEAD_MORE_COLUMNS.includes(d.name))).toEqual([]);
    // Without `more` the row carries none; a field the row holds already, or no field at all, is refused in the reader's language.
    expect((await row('en', [])).more).toBeUndefined();
    for (const bad of ['stage', 'forRent', 'nonsense']) expect((await agent.post('/api/lead/search', { more: [bad] })).statusCode, bad).toBe(400);
    const refused = await agent.post('/api/lead/search', { more: ['nonsense'] }, { lang: 'el' });
    expect(JSON.stringify(refused.json())).toContain('Άγνωστο πεδίο');
    expect(JSON.stringify((await agent.post('/api/lead/search', { more: ['nonsense'] }, { lang: 'en' })).json())).toContain('Unknown field');
  });

  it('finds leads for the lead picker and the global search (Lead hits), open leads first', async () => {
    const quick = await agent.get(`/api/lead/searchQuick?searchStr=${encodeURIComponent(mark)}`);
    expect(quick.json().items.map((i: { id: number }) => i.id)).toEqual([ids[0], ids[2]]);
    const global = await agent.get(`/api/search?searchStr=${encodeURIComponent(mark)}`);
    const hits = global.json().items.filter((h: { entity: string }) => h.entity === 'Lead');
    expect(hits.map((h: { id: number }) => h.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect(hits[0].description).toContain(mark);
  });

  it('tells two leads of one client apart in the lead picker: each starts with its number and ends with its stage; a picked lead reads the same on a viewing, a deal and a booking', async () => {
    const client = await newAccount({ lastName: `Twinlead${mark}`, firstName: 'Despoina' });
    const older = await addLead(client.id);
    const newer = await addLead(client.id);
    await agent.post('/api/lead/update', { id: older, version: 1, forPurchase: true, purchaseBudgetRangeMax: 250000, stage: 4 });
    await agent.post('/api/lead/update', { id: newer, version: 1, forPurchase: true, purchaseBudgetRangeMax: 250000 });
    const quick = async (lang: string) =>
      (await agent.get(`/api/lead/searchQuick?searchStr=${encodeURIComponent(`Twinlead${mark}`)}`, { lang })).json().items as { id: number; description: string }[];
    const name = client.displayName;
    const budget = '≤ 250\u00a0000\u00a0€'; // money as the agency writes it, with no-break spaces
    expect(await quick('en')).toEqual([
      { id: newer, description: `#${newer} · ${name} — Purchase, ${budget} · New` },
      { id: older, description: `#${older} · ${name} — Purchase, ${budget} · Viewings` },
    ]);
    expect((await quick('el')).map((i) => i.description)).toEqual([`#${newer} · ${name} — Αγορά, ${budget} · Νέο`, `#${older} · ${name} — Αγορά, ${budget} · Υποδείξεις`]);
    // Once picked, the viewing's, the deal's and the booking's lead read as the option did.
    const option = `#${older} · ${name} — Purchase, ${budget} · Viewings`;
    const en = { 'accept-language': 'en' };
    expect((await agent.get(`/api/Viewing/add?demandId=${older}`, { headers: en })).json().demand).toBe(option);
    expect((await agent.get(`/api/Deal/add?demandId=${older}`, { headers: en })).json().demand).toBe(option);
    expect((await agent.get(`/api/Reservation/add?demandId=${older}`, { headers: en })).json().demand).toBe(option);
  });

  it('finds the leads of a near spelling when no client’s name contains the text', async () => {
    const id = await addLead((await newAccount({ lastName: 'Xylouridaki', firstName: 'Μαρία' })).id);
    const hits = (await agent.get(`/api/search?searchStr=${encodeURIComponent('Xyloyridaki')}`)).json().items as { id: number; entity: string }[];
    expect(hits.filter((h) => h.entity === 'Lead').map((h) => h.id)).toContain(id);
    const quick = await agent.get(`/api/lead/searchQuick?searchStr=${encodeURIComponent('Xyloyridaki')}`);
    expect(quick.json().items.map((i: { id: number }) => i.id)).toContain(id);
  });

  it('global search shares its twenty places: many clients of one name still leave room for their leads and a property', async () => {
    const name = `Zorbakis${Date.now() % 100000}`;
    const leadIds: number[] = [];
    for (let i = 0; i < 24; i++) leadIds.push(await addLead((await newAccount({ lastName: name, firstName: `N${i}` })).id));
    const property = await newObject(`Villa ${name}`);
    const hits = (await agent.get(`/api/search?searchStr=${encodeURIComponent(name)}`)).json().items as { id: number; entity: string }[];
    expect(hits).toHaveLength(20);
    const kinds = hits.map((h) => h.entity);
    // Each kind together, in the providers' order: accounts (Client), the property, then leads.
    expect(kinds).toEqual([...Array(10).fill('Client'), 'Object', ...Array(9).fill('Lead')]);
    expect(hits[10]!.id).toBe(property.id);
    // The newest leads first.
    expect(hits.slice(11).map((h) => h.id)).toEqual([...leadIds].reverse().slice(0, 9));
  });

  it('follows a merge: the duplicate’s leads become the kept account’s', async () => {
    const kept = await newAccount();
    const dup = await newAccount();
    const id = await addLead(dup.id);
    const [k] = await db.select({ version: accounts.version }).from(accounts).where(eq(accounts.id, kept.id));
    const merged = await agent.post('/api/account/merge', { account: { id: kept.id, version: k!.version }, duplicateId: dup.id });
    expect(merged.statusCode).toBe(200);
    expect((await read(id)).accountId).toBe(kept.id);
    expect(await db.select({ n: sql<number>`count(*)::int` }).from(accounts).where(eq(accounts.id, dup.id))).toEqual([{ n: 0 }]);
  });
});

describe('leads on the other screens', () => {
  it('mark the client on the Clients list while a lead is open, with its budget as the request, and filter by the lead’s service and source', async () => {
    const mark = `Stavrou${Date.now() % 100000}`;
    const source = await newAccount({ isSource: true, isCompany: true, name: `Xrysi Eykairia ${mark}` });
    const client = await newAccount({ lastName: mark, firstName: 'Anna', isClient: true });
    const id = await addLead(client.id);
    await agent.post('/api/lead/update', { id, version: 1, forRent: true, rentBudgetRangeMax: 700, forPurchase: true, purchaseBudgetRangeMin: 90000, purchaseBudgetRangeMax: 120000, source: source.id });
    const clients = async (body: Record<string, unknown> = {}) =>
      (await agent.post('/api/clients/search', { lastName: mark, ...body })).json().items as { id: number; hasNotClosedLead: boolean; purchaseBudgetRangeMin: number | null; purchaseBudgetRangeMax: number | null }[];
    expect((await clients())[0]).toMatchObject({ id: client.id, hasNotClosedLead: true, purchaseBudgetRangeMin: 90000, purchaseBudgetRangeMax: 120000 });
    expect((await clients({ serviceFilter: 2 })).map((c) => c.id)).toEqual([client.id]);
    expect((await clients({ serviceFilter: 3 })).map((c) => c.id)).toEqual([]);
    expect((await clients({ sources: [source.id] })).map((c) => c.id)).toEqual([client.id]);
    await agent.post('/api/lead/update', { id, version: 2, stage: 7 });
    expect((await clients())[0]!.hasNotClosedLead).toBe(false);
  });

  it('give a client without a budget of their own the budget of their newest open lead, on the account page', async () => {
    const client = await newAccount({ lastName: 'Karanika', firstName: 'Eleni', isClient: true });
    const view = async () => (await agent.get(`/api/account/view/${client.id}`)).json() as { leadBudget: unknown };
    expect((await view()).leadBudget).toBeNull();
    const id = await addLead(client.id);
    await agent.post('/api/lead/update', { id, version: 1, forPurchase: true, purchaseBudgetRangeMax: 250000 });
    expect((await view()).leadBudget).toEqual({ leadId: id, min: null, max: 250000 });
    // Closed (lost), the lead's budget is no longer the client's.
    await agent.post('/api/lead/update', { id, version: 2, stage: 7 });
    expect((await view()).leadBudget).toBeNull();
    // The account's own budget comes first.
    const open = await addLead(client.id);
    await agent.post('/api/lead/update', { id: open, version: 1, forPurchase: true, purchaseBudgetRangeMin: 100000 });
    expect((await view()).leadBudget).toEqual({ leadId: open, min: 100000, max: null });
    await db.update(accounts).set({ purchaseBudgetRangeMax: '200000' } as never).where(eq(accounts.id, client.id));
    expect((await view()).leadBudget).toBeNull();
  });

  it('list on the client’s account page, and on the page of an object offered to them or shown at a viewing', async () => {
    const client = await newAccount({ lastName: 'Petridou', firstName: 'Sofia' });
    const id = await addLead(client.id);
    await agent.post('/api/lead/update', { id, version: 1, forPurchase: true, purchaseBudgetRangeMax: 250000 });
    const account = (await agent.get(`/api/account/view/${client.id}`, { lang: 'el' })).json();
    expect(account.leads).toEqual([{ id, descr: expect.stringContaining('Αγορά') }]);
    const o = await newObject('Villa in Sithonia');
    await agent.post('/api/lead/addObject', { leadId: id, objectId: o.id });
    const v = await agent.post('/api/Viewing/update', { demandId: id, dateOfViewing: '2026-12-10T12:00:00', results: [{ objectId: o.id, result: 1 }] });
    const view = (await agent.get(`/api/object/view/${o.id}`)).json();
    expect(view.leads).toEqual([{ id, descr: `#${id} · Petridou Sofia` }]);
    expect(view.viewings).toEqual([
      { id: v.json().id, descr: `#${v.json().id} · Petridou Sofia · Planned`, dateOfViewing: '2026-12-10T12:00:00', client: 'Petridou Sofia', result: 'Planned', comment: null },
    ]);
  });

  it('show an object’s viewings with their number, the day and time as a date, and what the client made of this object there, in the reader’s language', async () => {
    const client = await newAccount({ lastName: 'Alexiou', firstName: 'Anna' });
    const id = await addLead(client.id);
    const o = await newObject('Flat in Toumba');
    const other = await newObject('Flat in Pylaia');
    // The client liked this one and made an offer on the other: the object's page shows "liked", not the viewing's "offer".
    // Two on the same day and hour differ by their number, the later one first.
    const first = (await agent.post('/api/Viewing/update', { demandId: id, dateOfViewing: '2026-11-26T18:30:00', results: [{ objectId: o.id, result: 2 }, { objectId: other.id, result: 4 }] })).json();
    const second = (await agent.post('/api/Viewing/update', { demandId: id, dateOfViewing: '2026-11-26T18:30:00', results: [{ objectId: o.id, result: 1, comment: 'Wants to come back with his wife' }] })).json();
    expect(first.result).toBe(4);
    const view = (await agent.get(`/api/object/view/${o.id}`, { lang: 'el' })).json();
    expect(view.viewings).toEqual([
      { id: second.id, descr: `#${second.id} · Alexiou Anna · Προγραμματισμένη`, dateOfViewing: '2026-11-26T18:30:00', client: 'Alexiou Anna', result: 'Προγραμματισμένη', comment: 'Wants to come back with his wife' },
      { id: first.id, descr: `#${first.id} · Alexiou Anna · Του άρεσε`, dateOfViewing: '2026-11-26T18:30:00', client: 'Alexiou Anna', result: 'Του άρεσε', comment: null },
    ]);
  });
});
