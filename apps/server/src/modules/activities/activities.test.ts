import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { actionLog, activities, activityLinks, deals, files, users } from '../../db/schema/index.ts';
import { accountMaker } from '../../../test/records.ts';
import { createTestApp, type CallOptions, type Client } from '../../../test/harness.ts';

const t = await createTestApp();
const { app, db } = t;

const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const payer = await t.user({ roles: ['clientPayments'] });

type Json = Record<string, unknown>;
const newAccount = accountMaker(db, 'Eleni', 'Papadaki');

async function addActivity(accountId: number, as: Client = admin, entityType = 2) {
  const res = await as.post('/api/activity/add', { entityType, id: accountId });
  expect(res.statusCode).toBe(200);
  return res.json() as Json & { id: number; version: number; links: Json[] };
}

async function update(body: Json, as: Client = admin, opts?: CallOptions) {
  return as.post('/api/activity/update', body, opts);
}

async function lastLog(entityId: number) {
  const [row] = await db
    .select()
    .from(actionLog)
    .where(and(eq(actionLog.entity, 'Activity'), eq(actionLog.entityId, entityId)))
    .orderBy(desc(actionLog.id))
    .limit(1);
  return row;
}

describe('adding an activity', () => {
  it('answers a blank activity stored in the database and linked to the record', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    expect(a).toMatchObject({
      description: null,
      done: null,
      category: 0,
      date: null,
      doneDate: null,
      assignedTo: null,
      createdBy: admin.email,
      createdById: admin.id,
      files: [],
      version: 1,
      links: [{ entity: 2, id: acc.id, description: acc.displayName }],
    });
    expect(a.createdOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const [row] = await db.select().from(activities).where(eq(activities.id, a.id));
    expect(row).toMatchObject({ done: null, createdBy: admin.id });
    const links = await db.select().from(activityLinks).where(eq(activityLinks.activityId, a.id));
    expect(links).toEqual([{ activityId: a.id, entity: 2, entityId: acc.id, position: 0 }]);
    expect(await lastLog(a.id)).toMatchObject({ action: 'Create', actionBy: admin.id });
  });

  it('stores what was typed in it with the add (its first save on the screens): one version, one activity even when the add is sent again', async () => {
    const writer = await t.user({ roles: ['employee'] });
    const acc = await newAccount();
    const other = await newAccount();
    const body = { entityType: 2, id: acc.id, description: 'Called: wants a viewing on Saturday', done: false, category: 1, date: '2030-12-04T15:15:00', links: [{ entity: 2, id: acc.id }, { entity: 2, id: other.id }] };
    const key = { 'idempotency-key': 'new-activity-0001' };
    const first = await writer.post('/api/activity/add', body, { headers: key });
    expect(first.statusCode, first.body).toBe(200);
    const a = first.json();
    expect(a).toMatchObject({
      description: 'Called: wants a viewing on Saturday',
      done: false,
      category: 1,
      date: '2030-12-04T15:15:00',
      version: 1,
      links: [{ entity: 2, id: acc.id, description: acc.displayName }, { entity: 2, id: other.id, description: other.displayName }],
    });
    // The answer lost and the add sent again (a double click, a dropped connection): the same activity.
    const again = await writer.post('/api/activity/add', body, { headers: key });
    expect(again.json().id).toBe(a.id);
    const stored = (await writer.get(`/api/activity?parent=2&parentId=${acc.id}`)).json();
    expect(stored.items.map((i: Json) => i.id)).toEqual([a.id]);
    expect(await lastLog(a.id)).toMatchObject({ action: 'Create', actionBy: writer.id, data: { entityType: 2, id: acc.id, description: 'Called: wants a viewing on Saturday', done: false, category: 1 } });
    // Its own record stays its first link.
    expect((await writer.post('/api/activity/add', { entityType: 2, id: acc.id, description: 'x', links: [{ entity: 2, id: other.id }] })).json()).toMatchObject({ code: 'activities.onlyLink' });
  });

  it('links to a deal, shown as #id', async () => {
    const [deal] = await db.insert(deals).values({ dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
    const a = await addActivity(deal!.id, agent, 5);
    expect(a.links).toEqual([{ entity: 5, id: deal!.id, description: `#${deal!.id}` }]);
    expect(a.createdBy).toBe(agent.email);
  });

  it('refuses a link to a lead, deal, reservation or viewing that does not exist', async () => {
    for (const entityType of [4, 5, 6, 7]) {
      const res = await agent.post('/api/activity/add', { entityType, id: 2147483000 });
      expect(res.statusCode, String(entityType)).toBe(400);
      expect(res.json().errors.id).toBeDefined();
    }
  });

  it('shows the name of the account a sign-in belongs to as the creator', async () => {
    const person = await newAccount({ firstName: 'Nikos', lastName: 'Georgiou', isEmploye: true });
    const u = await t.user({ roles: ['employee'] });
    await db.update(users).set({ accountId: person.id }).where(eq(users.id, u.id));
    const acc = await newAccount();
    const a = await addActivity(acc.id, u);
    expect(a.createdBy).toBe('Georgiou Nikos');
  });

  it('refuses an unknown account, a bad kind, callers who are not staff and anonymous callers', async () => {
    const missing = await admin.post('/api/activity/add', { entityType: 2, id: 99999999 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.id).toEqual(['The record to link was not found. It may have been deleted.']);
    expect((await admin.post('/api/activity/add', { entityType: 0, id: 1 })).statusCode).toBe(400);
    expect((await admin.post('/api/activity/add', { entityType: 8, id: 1 })).statusCode).toBe(400);
    expect((await admin.post('/api/activity/add', { entityType: 2 })).statusCode).toBe(400);
    const acc = await newAccount();
    expect((await payer.post('/api/activity/add', { entityType: 2, id: acc.id })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/api/activity/add', payload: { entityType: 2, id: acc.id } })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/activity?parent=2&parentId=${acc.id}` })).statusCode).toBe(401);
    expect((await payer.get(`/api/activity?parent=2&parentId=${acc.id}`)).statusCode).toBe(403);
  });
});

describe("a record's activity list", () => {
  it('lists the activities of that record only, newest first, with links and files', async () => {
    const acc = await newAccount();
    const other = await newAccount();
    const a1 = await addActivity(acc.id);
    const a2 = await addActivity(acc.id);
    const foreign = await addActivity(other.id);
    await db.insert(files).values({ systemName: `sys-${a1.id}`, userName: 'contract.pdf', mime: 'application/pdf', size: 10, parentType: 3, parentId: a1.id });
    const res = await agent.get(`/api/activity?parent=2&parentId=${acc.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((i: Json) => i.id)).toEqual([a2.id, a1.id]);
    expect(body.totalRows).toBe(2);
    expect(body.items[1].files).toEqual([{ systemName: `sys-${a1.id}`, userName: 'contract.pdf' }]);
    expect(body.items.some((i: Json) => i.id === foreign.id)).toBe(false);
    // The same number under another kind is another record.
    const lead = await agent.get(`/api/activity?parent=4&parentId=${acc.id}`);
    expect(lead.json()).toEqual({ items: [], totalRows: 0 });
  });

  it('pages in SQL and filters by state and text', async () => {
    const acc = await newAccount();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await addActivity(acc.id)).id);
    const [n0, n1, n2] = ids;
    await update({ id: n0, version: 1, description: 'Κλήση στον ιδιοκτήτη για τα κλειδιά', done: false });
    await update({ id: n1, version: 1, description: 'Sent the offer', done: true });
    await update({ id: n2, version: 1, description: 'Note: 50% discount_asked' });
    const page = await admin.get(`/api/activity?parent=2&parentId=${acc.id}&perPage=2&currentPage=2`);
    expect(page.json().items.map((i: Json) => i.id)).toEqual([ids[2], ids[1]]);
    expect(page.json().totalRows).toBe(5);
    const list = async (q: string) => (await admin.get(`/api/activity?parent=2&parentId=${acc.id}&${q}`)).json();
    expect((await list('done=todo')).items.map((i: Json) => i.id)).toEqual([n0]);
    expect((await list('done=completed')).items.map((i: Json) => i.id)).toEqual([n1]);
    expect((await list('done=none')).totalRows).toBe(3);
    // accent- and case-free, and LIKE wildcards are plain characters
    expect((await list(`text=${encodeURIComponent('κληση')}`)).items.map((i: Json) => i.id)).toEqual([n0]);
    expect((await list(`text=${encodeURIComponent('50%')}`)).items.map((i: Json) => i.id)).toEqual([n2]);
    expect((await list(`text=${encodeURIComponent('%')}`)).items.map((i: Json) => i.id)).toEqual([n2]);
    expect((await admin.get(`/api/activity?parent=2&parentId=${acc.id}&done=maybe`)).statusCode).toBe(400);
    expect((await admin.get(`/api/activity?parent=2`)).statusCode).toBe(400);
  });

  it('answers one activity by id, and 404 for an unknown one', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    const res = await agent.get(`/api/activity/${a.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: a.id, links: [{ entity: 2, id: acc.id }] });
    expect((await agent.get('/api/activity/99999999')).statusCode).toBe(404);
    expect((await agent.get('/api/activity/abc')).statusCode).toBe(400);
  });
});

describe('updating an activity', () => {
  it('saves description, type, state and dates in local time, and counts the version up', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    const res = await update({ id: a.id, version: 1, description: 'Call about the viewing', category: 1, done: false, date: '2024-07-01T10:30:00' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ description: 'Call about the viewing', category: 1, done: false, date: '2024-07-01T10:30:00', doneDate: null, version: 2 });
    const [row] = await db.select().from(activities).where(eq(activities.id, a.id));
    // Athens is UTC+3 in summer
    expect(row!.date!.toISOString()).toBe('2024-07-01T07:30:00.000Z');
    expect(row!.modifiedBy).toBe(admin.id);
    expect(await lastLog(a.id)).toMatchObject({ action: 'Update', data: expect.objectContaining({ description: 'Call about the viewing', category: 1 }) });
  });

  it('stamps the completion date when marked complete, and clears it when the mark is taken off', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    const before = Date.now();
    const done = (await update({ id: a.id, version: 1, done: true })).json();
    expect(done.done).toBe(true);
    expect(done.doneDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const [row] = await db.select().from(activities).where(eq(activities.id, a.id));
    expect(row!.doneDate!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // Sending the whole activity back unchanged keeps the date
    const same = (await update({ ...done, description: 'Done: signed' })).json();
    expect(same.doneDate).toBe(done.doneDate);
    const reopened = (await update({ id: a.id, version: same.version, done: false, doneDate: same.doneDate })).json();
    expect(reopened).toMatchObject({ done: false, doneDate: null });
    // A completion date given with the mark is kept
    const given = (await update({ id: a.id, version: reopened.version, done: true, doneDate: '2024-01-15T09:00:00' })).json();
    expect(given.doneDate).toBe('2024-01-15T09:00:00');
  });

  it('answers 409 with the current activity for a stale version, and changes nothing', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    await update({ id: a.id, version: 1, description: 'First' }, agent);
    const stale = await update({ id: a.id, version: 1, description: 'Second' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'errors.conflict', current: { id: a.id, description: 'First', version: 2 } });
    const [row] = await db.select().from(activities).where(eq(activities.id, a.id));
    expect(row).toMatchObject({ description: 'First', version: 2 });
  });

  it('assigns employees and specialists only', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    const emp = await newAccount({ firstName: 'Maria', lastName: 'Ioannou', isEmploye: true });
    const spec = await newAccount({ firstName: 'Kostas', lastName: 'Notaras', isProfessional: true, isNotary: true });
    const client = await newAccount({ isClient: true });
    const r1 = (await update({ id: a.id, version: 1, assignedTo: emp.id })).json();
    expect(r1.assignedTo).toEqual({ id: emp.id, description: 'Ioannou Maria' });
    // the { id, description } the answer carries is accepted back
    const r2 = (await update({ id: a.id, version: r1.version, assignedTo: { id: spec.id, description: 'x' } })).json();
    expect(r2.assignedTo).toEqual({ id: spec.id, description: 'Notaras Kostas' });
    const bad = await update({ id: a.id, version: r2.version, assignedTo: client.id }, admin, { lang: 'el' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.assignedTo).toEqual(['Υπεύθυνος μπορεί να οριστεί μόνο υπάλληλος ή ειδικός.']);
    const missing = await update({ id: a.id, version: r2.version, assignedTo: 99999999 });
    expect(missing.statusCode).toBe(400);
    const cleared = (await update({ id: a.id, version: r2.version, assignedTo: null })).json();
    expect(cleared.assignedTo).toBeNull();
  });

  it('adds and removes links, but never the first one', async () => {
    const acc = await newAccount();
    const other = await newAccount();
    const a = await addActivity(acc.id);
    const [deal] = await db.insert(deals).values({ dealType: 2, dealStage: 1 } as never).returning({ id: deals.id });
    const dealId = deal!.id;
    const linked = (await update({ id: a.id, version: 1, links: [...a.links, { entity: 2, id: other.id }, { entity: 5, id: dealId }] })).json();
    expect(linked.links).toEqual([
      { entity: 2, id: acc.id, description: acc.displayName },
      { entity: 2, id: other.id, description: other.displayName },
      { entity: 5, id: dealId, description: `#${dealId}` },
    ]);
    // Now on the other account's list too
    const otherList = (await admin.get(`/api/activity?parent=2&parentId=${other.id}`)).json();
    expect(otherList.items.map((i: Json) => i.id)).toEqual([a.id]);

    const onlyLink = await update({ id: a.id, version: linked.version, links: linked.links.slice(1) });
    expect(onlyLink.statusCode).toBe(400);
    expect(onlyLink.json().title).toBe('Cannot delete the only link.');
    const none = await update({ id: a.id, version: linked.version, links: [] }, admin, { lang: 'ru' });
    expect(none.statusCode).toBe(400);
    expect(none.json().title).toBe('Нельзя удалить единственную связь.');

    const removed = (await update({ id: a.id, version: linked.version, links: [linked.links[0], linked.links[2]] })).json();
    expect(removed.links.map((l: Json) => l.id)).toEqual([acc.id, dealId]);
    const bad = await update({ id: a.id, version: removed.version, links: [...removed.links, { entity: 2, id: 99999999 }] });
    expect(bad.statusCode).toBe(400);
    const self = await update({ id: a.id, version: removed.version, links: [...removed.links, { entity: 3, id: a.id }] });
    expect(self.statusCode).toBe(400);
    const links = await db.select().from(activityLinks).where(eq(activityLinks.activityId, a.id));
    expect(links).toHaveLength(2);
  });

  it('attaches newly uploaded files, not files of other records', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    const [f1, f2, taken] = await db
      .insert(files)
      .values([
        { systemName: `n1-${a.id}`, userName: 'plan.pdf', mime: 'application/pdf', size: 1 },
        { systemName: `n2-${a.id}`, userName: 'photo.jpg', mime: 'image/jpeg', size: 1 },
        { systemName: `t-${a.id}`, userName: 'other.pdf', mime: 'application/pdf', size: 1, parentType: 2, parentId: acc.id },
      ])
      .returning({ id: files.id });
    const bad = await update({ id: a.id, version: 1, addedFiles: `${f1!.id},${taken!.id}` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.addedFiles).toBeDefined();
    const [still] = await db.select().from(files).where(eq(files.id, f1!.id));
    expect(still!.parentId).toBeNull();
    const res = (await update({ id: a.id, version: 1, addedFiles: `${f1!.id}, ${f2!.id}` })).json();
    expect(res.files).toEqual([
      { systemName: `n1-${a.id}`, userName: 'plan.pdf' },
      { systemName: `n2-${a.id}`, userName: 'photo.jpg' },
    ]);
    expect((await update({ id: a.id, version: res.version, addedFiles: 'abc' })).statusCode).toBe(400);
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    const badDate = await update({ id: a.id, version: 1, date: '2024-02-30T10:00:00' });
    expect(badDate.statusCode).toBe(400);
    expect(Object.keys(badDate.json().errors)).toEqual(['date']);
    expect((await update({ id: a.id, version: 1, date: '2024-02-10 10:00' })).statusCode).toBe(400);
    expect((await update({ id: a.id, version: 1, category: 4 })).statusCode).toBe(400);
    expect((await update({ id: a.id, version: 1, done: 'yes' })).statusCode).toBe(400);
    expect((await update({ id: a.id, description: 'no version' })).statusCode).toBe(428);
    expect((await update({ id: 99999999, version: 1, description: 'x' })).statusCode).toBe(404);
    // A file id past what an id can be: a 400, not a 500.
    expect((await update({ id: a.id, version: 1, addedFiles: '99999999999' })).statusCode).toBe(400);
    const [row] = await db.select().from(activities).where(eq(activities.id, a.id));
    expect(row).toMatchObject({ version: 1, date: null, category: 0 });
  });
});

describe('deleting an activity', () => {
  it('removes it with its links and file records, and logs it', async () => {
    const acc = await newAccount();
    const a = await addActivity(acc.id);
    await db.insert(files).values({ systemName: `d-${a.id}`, userName: 'x.pdf', mime: 'application/pdf', size: 1, parentType: 3, parentId: a.id });
    const res = await agent.del(`/api/activity/${a.id}`);
    expect(res.statusCode).toBe(200);
    expect((await agent.get(`/api/activity/${a.id}`)).statusCode).toBe(404);
    expect(await db.select().from(activityLinks).where(eq(activityLinks.activityId, a.id))).toEqual([]);
    expect(await db.select().from(files).where(and(eq(files.parentType, 3), eq(files.parentId, a.id)))).toEqual([]);
    expect(await lastLog(a.id)).toMatchObject({ action: 'Delete', actionBy: agent.id });
    expect((await agent.del(`/api/activity/${a.id}`)).statusCode).toBe(404);
    expect((await payer.del(`/api/activity/${a.id}`)).statusCode).toBe(403);
  });
});

// A world of its own: two employees with sign-ins, actions created and assigned between them.
const world = await (async () => {
  const maria = await newAccount({ firstName: 'Maria', lastName: 'Zafeiriou', isEmploye: true });
  const nikos = await newAccount({ firstName: 'Nikos', lastName: 'Zachariou', isEmploye: true });
  const mariaUser = await t.user({ roles: ['employee'] });
  const nikosUser = await t.user({ roles: ['employee'] });
  await db.update(users).set({ accountId: maria.id }).where(eq(users.id, mariaUser.id));
  await db.update(users).set({ accountId: nikos.id }).where(eq(users.id, nikosUser.id));
  const client = await newAccount({ isClient: true });
  const make = async (as: Client, body: Json) => {
    const a = await addActivity(client.id, as);
    const res = await update({ id: a.id, version: 1, ...body }, as);
    expect(res.statusCode).toBe(200);
    return res.json() as Json & { id: number };
  };
  // by Maria, assigned to Nikos, to do, planned 10 March
  const a1 = await make(mariaUser, { description: 'Call the notary', done: false, assignedTo: nikos.id, date: '2031-03-10T09:00:00' });
  // by Maria, unassigned, to do, planned 5 March
  const a2 = await make(mariaUser, { description: 'Prepare the contract', done: false, date: '2031-03-05T09:00:00' });
  // by Nikos, assigned to Maria, completed 2 Feb
  const a3 = await make(nikosUser, { description: 'Show the flat', done: true, doneDate: '2031-02-02T18:00:00', assignedTo: maria.id });
  // by Nikos, not an action
  const a4 = await make(nikosUser, { description: 'Client prefers mornings' });
  return { maria, nikos, mariaUser, nikosUser, a1, a2, a3, a4 };
})();

describe('the action list', () => {

  const search = async (body: Json, as: Client = admin, opts?: CallOptions) => {
    const res = await as.post('/api/activity/actions', body, opts);
    expect(res.statusCode).toBe(200);
    return res.json() as { items: (Json & { id: number })[]; totalRows: number; options: Json };
  };
  const ids = (r: { items: { id: number }[] }) => r.items.map((i) => i.id);
  const mine = [world.a1.id, world.a2.id, world.a3.id, world.a4.id];
  const only = (r: { items: { id: number }[] }) => ids(r).filter((id) => mine.includes(id));

  it('lists actions only, never notes, and filters by state in either notation', async () => {
    const all = await search({ perPage: 100 });
    expect(only(all)).toEqual(expect.arrayContaining([world.a1.id, world.a2.id, world.a3.id]));
    expect(only(all)).not.toContain(world.a4.id);
    expect(only(await search({ done: 'todo', perPage: 100 })).sort()).toEqual([world.a1.id, world.a2.id].sort());
    expect(only(await search({ done: false, perPage: 100 })).sort()).toEqual([world.a1.id, world.a2.id].sort());
    expect(only(await search({ done: 'completed', perPage: 100 }))).toEqual([world.a3.id]);
    expect(only(await search({ done: true, perPage: 100 }))).toEqual([world.a3.id]);
    expect(only(await search({ done: null, perPage: 100 })).length).toBe(3);
  });

  it('filters by the person who created or is assigned', async () => {
    expect(ids(await search({ employee: world.maria.id, employeeFilterType: 0 })).sort()).toEqual([world.a1.id, world.a2.id].sort());
    expect(ids(await search({ employee: world.maria.id, employeeFilterType: 1 }))).toEqual([world.a3.id]);
    expect(ids(await search({ employee: world.nikos.id, employeeFilterType: 1 }))).toEqual([world.a1.id]);
    expect(ids(await search({ employeeText: 'zachari', employeeFilterType: 1 }))).toEqual([world.a1.id]);
    expect(ids(await search({ employeeText: 'ZAFEIR', employeeFilterType: 0 })).sort()).toEqual([world.a1.id, world.a2.id].sort());
  });

  it('filters by creation, completion or planned date, whole days inclusive', async () => {
    const planned = await search({ dateFilterType: 2, startDate: '2031-03-05', endDate: '2031-03-10' });
    expect(ids(planned)).toEqual([world.a2.id, world.a1.id]); // soonest first
    expect(ids(await search({ dateFilterType: 2, startDate: '2031-03-06', endDate: '2031-03-31' }))).toEqual([world.a1.id]);
    expect(ids(await search({ dateFilterType: 1, startDate: '2031-02-02', endDate: '2031-02-02' }))).toEqual([world.a3.id]);
    expect(ids(await search({ dateFilterType: 1, startDate: '2031-02-03' }))).toEqual([]);
    const created = await search({ dateFilterType: 0, startDate: '2000-01-01', endDate: '2099-12-31', perPage: 100 });
    expect(only(created).length).toBe(3);
    expect(ids(await search({ dateFilterType: 0, endDate: '2000-01-01' }))).toEqual([]);
  });

  it("keeps the caller's own open actions for the home page", async () => {
    const maria = await search({ mine: true, done: 'todo' }, world.mariaUser);
    expect(ids(maria)).toEqual([world.a2.id]); // created by her and unassigned; a1 is Nikos's
    const nikos = await search({ mine: true, done: 'todo' }, world.nikosUser);
    expect(ids(nikos)).toEqual([world.a1.id]);
    expect(ids(await search({ mine: true }, world.nikosUser))).toEqual([world.a1.id]);
    expect(ids(await search({ mine: true }, agent))).toEqual([]);
  });

  it('pages with totals, answers translated options and refuses bad filters', async () => {
    const p1 = await search({ employee: world.maria.id, employeeFilterType: 0, perPage: 5, currentPage: 1, dateFilterType: 2 });
    expect(p1.totalRows).toBe(2);
    const p2 = await search({ employee: world.maria.id, employeeFilterType: 0, perPage: 5, currentPage: 2 });
    expect(p2).toMatchObject({ items: [], totalRows: 2 });
    const el = await search({}, admin, { lang: 'el' });
    expect(el.options).toMatchObject({
      dateFilterTypes: [{ value: 0, text: 'Δημιουργίας' }, { value: 1, text: 'Ολοκλήρωσης' }, { value: 2, text: 'Προγραμματισμού' }],
      employeeFilterTypes: [{ value: 0 }, { value: 1 }],
      doneList: [{ value: 'all' }, { value: 'todo' }, { value: 'completed' }],
      perPageList: [5, 20, 100],
    });
    for (const bad of [{ dateFilterType: 3 }, { employeeFilterType: 2 }, { done: 'open' }, { perPage: 1000 }, { startDate: '2031-13-01' }, { startDate: 'yesterday' }]) {
      const res = await admin.post('/api/activity/actions', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await payer.post('/api/activity/actions', {})).statusCode).toBe(403);
  });

  it('answers each action with its links and assignee', async () => {
    const r = await search({ employee: world.nikos.id, employeeFilterType: 1 });
    expect(r.items[0]).toMatchObject({
      id: world.a1.id,
      description: 'Call the notary',
      done: false,
      date: '2031-03-10T09:00:00',
      assignedTo: { id: world.nikos.id, description: 'Zachariou Nikos' },
      createdBy: 'Zafeiriou Maria',
      links: [{ entity: 2 }],
    });
  });
});
