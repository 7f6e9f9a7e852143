import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, actionLog, activities, activityLinks, leadObjects, objects, viewingObjects, viewings } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';

const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

async function newObject(title: string) {
  const [o] = await db.insert(objects).values({ title } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  return o!;
}
const [employee] = await db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Georgiou', isEmploye: true }).returning({ id: accounts.id });
const [client] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Markou', isClient: true }).returning({ id: accounts.id });
const flat = await newObject('Flat in Kalamaria');
const house = await newObject('House in Panorama');
const leadId = (await agent.post('/api/lead/add', { accountId: client!.id })).json().id as number;
await agent.post('/api/lead/addObject', { leadId, objectId: flat.id });
await agent.post('/api/lead/addObject', { leadId, objectId: house.id });

describe('a viewing', () => {
  let id = 0;
  it('starts from a lead with its offered objects, and is stored on save with a result per object', async () => {
    const blank = await agent.get(`/api/Viewing/add?demandId=${leadId}`);
    expect(blank.statusCode).toBe(200);
    expect(blank.json()).toMatchObject({ id: null, demandId: leadId, results: [{ objectId: flat.id }, { objectId: house.id }] });
    expect(blank.json().demand).toContain('Markou Eleni');
    expect(blank.json().resultOptions).toHaveLength(7);

    const created = await agent.post('/api/Viewing/update', {
      demandId: leadId,
      dateOfViewing: '2026-12-03T11:30:00',
      results: [
        { objectId: flat.id, result: 2 },
        { objectId: house.id, result: 5 },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    id = created.json().id;
    expect(created.json()).toMatchObject({ dateOfViewing: '2026-12-03T11:30:00', result: 2, version: 1, viewingNumber: String(id) });
    const stored = await db.select().from(viewingObjects).where(eq(viewingObjects.viewingId, id)).orderBy(viewingObjects.position);
    expect(stored.map((r) => [r.objectId, r.result])).toEqual([
      [flat.id, 2],
      [house.id, 5],
    ]);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Viewing'), eq(actionLog.entityId, id)));
    expect(log).toMatchObject({ entity: 'Viewing', action: 'Create' });
  });

  it('starts from a lead offered more properties than a viewing holds with the first 100, and saves', async () => {
    const many = (await agent.post('/api/lead/add', { accountId: client!.id })).json().id as number;
    const offered = await db.insert(objects).values(Array.from({ length: 101 }, (_, i) => ({ title: `Studio ${i}` }) as never)).returning({ id: objects.id });
    await db.insert(leadObjects).values(offered.map((o, i) => ({ leadId: many, objectId: o.id, position: i })) as never);
    const blank = (await agent.get(`/api/Viewing/add?demandId=${many}`)).json();
    expect(blank.results).toHaveLength(100);
    expect(blank.results[0].objectId).toBe(offered[0]!.id);
    const saved = await agent.post('/api/Viewing/update', { demandId: many, dateOfViewing: '2026-12-04T10:00:00', results: blank.results.map((r: { objectId: number }) => ({ objectId: r.objectId, result: 1 })) });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('updates with the version guard: a stale save is a 409 with the current viewing, and nothing changes', async () => {
    const ok = await agent.post('/api/Viewing/update', { id, version: 1, results: [{ objectId: flat.id, result: 4 }] });
    expect(ok.json()).toMatchObject({ version: 2, result: 4, results: [{ objectId: flat.id, result: 4 }] });
    const stale = await agent.post('/api/Viewing/update', { id, version: 1, dateOfViewing: '2026-12-05T10:00:00' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ version: 2, dateOfViewing: '2026-12-03T11:30:00' });
  });

  it('is listed with the spec’s columns, its row styled by the result, and filtered in SQL', async () => {
    await agent.post('/api/assignment/viewing/add', { assignedTo: employee!.id, viewingId: id });
    const res = await agent.post('/api/Viewing/search', { objectId: flat.id, dateOfViewingFrom: '2026-12-01', dateOfViewingTill: '2026-12-03' });
    expect(res.statusCode).toBe(200);
    const row = res.json().items.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({ leadId, result: 'Offer made', rowClass: 'offermade', assigned: 'Georgiou Nikos', objects: String(flat.id) });
    expect(row.objectRefs[0].referenceNumber).toBe(String(flat.ref).padStart(4, '0'));
    const none = await agent.post('/api/Viewing/search', { dateOfViewingFrom: '2026-12-04' });
    expect(none.json().items.map((r: { id: number }) => r.id)).not.toContain(id);
    const mine = await agent.post('/api/Viewing/search', { assigned: employee!.id, results: [4] });
    expect(mine.json().totalRows).toBe(1);
  });

  it('shows on the calendar and moves to another day by dragging, with the version guard', async () => {
    const cal = await agent.get(`/api/calendar?from=2026-12-01&till=2026-12-07&assigned=${employee!.id}`);
    expect(cal.statusCode).toBe(200);
    const ev = cal.json().items.find((e: { kind: string; id: number }) => e.kind === 'viewing' && e.id === id);
    expect(ev).toMatchObject({ start: '2026-12-03T11:30:00', link: `/Viewing/${id}`, assigned: 'Georgiou Nikos' });
    const moved = await agent.post('/api/Viewing/move', { id, version: ev.version, dateOfViewing: '2026-12-04T11:30:00' });
    expect(moved.json()).toMatchObject({ dateOfViewing: '2026-12-04T11:30:00', version: ev.version + 1 });
    expect((await agent.post('/api/Viewing/move', { id, version: ev.version, dateOfViewing: '2026-12-05T11:30:00' })).statusCode).toBe(409);
    expect((await agent.get('/api/calendar?from=2026-12-07&till=2026-12-01')).statusCode).toBe(400);
    expect((await agent.get('/api/calendar?from=2026-01-01&till=2026-12-31')).statusCode).toBe(400);
  });

  it('says so when a period holds more than it shows', async () => {
    const day = (n: number) => new Date(Date.UTC(2027, 2, 1 + (n % 28), 9, n % 60));
    await t.db.insert(activities).values(Array.from({ length: 2001 }, (_, n) => ({ date: day(n), done: false, description: `To-do ${n}` })));
    const full = await agent.get('/api/calendar?from=2027-03-01&till=2027-03-31');
    expect(full.statusCode).toBe(200);
    expect(full.json().truncated).toBe(true);
    expect(full.json().items.filter((e: { kind: string }) => e.kind === 'activity')).toHaveLength(2000);
    const week = await agent.get('/api/calendar?from=2027-03-01&till=2027-03-07');
    expect(week.json()).toMatchObject({ truncated: false });
    expect(week.json().items.length).toBeLessThan(2000);
  });

  it('refuses bad input with a clear 4xx', async () => {
    for (const body of [
      { dateOfViewing: '2026-02-30T10:00:00' },
      { dateOfViewing: '2026-12-03 10:00' },
      { results: [{ objectId: 2147483647, result: 1 }] },
      { results: [{ objectId: flat.id, result: 9 }] },
      { results: [{ objectId: flat.id, result: 1 }, { objectId: flat.id, result: 2 }] },
      { demandId: 2147483647 },
    ]) {
      const res = await agent.post('/api/Viewing/update', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await agent.get('/api/Viewing/edit/2147483647')).statusCode).toBe(404);
    expect((await agent.get('/api/Viewing/add?demandId=2147483647')).statusCode).toBe(404);
  });

  it('is refused without a date, or without a lead and a property, and stays complete when an edit would empty it', async () => {
    const count = async () => (await db.select({ id: viewings.id }).from(viewings)).length;
    const before = await count();
    const cases: [object, string, string][] = [
      [{}, 'dateOfViewing', 'Enter the day and time of the viewing.'],
      [{ demandId: leadId }, 'dateOfViewing', 'Enter the day and time of the viewing.'],
      [{ dateOfViewing: '2026-12-04T10:00:00', results: [] }, 'demandId', 'Choose the lead or add at least one property to view.'],
    ];
    for (const [body, field, text] of cases) {
      const res = await agent.post('/api/Viewing/update', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors[field], JSON.stringify(body)).toEqual([text]);
    }
    expect(await count()).toBe(before);
    // A property alone is enough; taking it away again is not.
    const made = await agent.post('/api/Viewing/update', { dateOfViewing: '2026-12-04T10:00:00', results: [{ objectId: house.id, result: 1 }] });
    expect(made.statusCode, made.body).toBe(200);
    const emptied = await agent.post('/api/Viewing/update', { id: made.json().id, version: made.json().version, results: [] });
    expect(emptied.statusCode).toBe(400);
    expect((await agent.get(`/api/Viewing/edit/${made.json().id}`)).json().results).toHaveLength(1);
    await agent.del(`/api/Viewing/${made.json().id}`);
  });

  it('is deleted with its objects and the activities only it held', async () => {
    const act = await agent.post('/api/activity/add', { entityType: 7, id });
    expect(act.statusCode, act.body).toBe(200);
    const activityId = act.json().id as number;
    expect((await agent.del(`/api/Viewing/${id}`)).statusCode).toBe(200);
    expect(await db.select().from(viewings).where(eq(viewings.id, id))).toEqual([]);
    expect(await db.select().from(viewingObjects).where(eq(viewingObjects.viewingId, id))).toEqual([]);
    expect(await db.select().from(activityLinks).where(eq(activityLinks.activityId, activityId))).toEqual([]);
    expect(await db.select().from(activities).where(eq(activities.id, activityId))).toEqual([]);
    expect((await agent.del(`/api/Viewing/${id}`)).statusCode).toBe(404);
  });
});

describe('a comment per object of a viewing', () => {
  const el = { lang: 'el' };

  it('is saved with the viewing (trimmed, blank is none), read back, logged, and reaches the object and the lead', async () => {
    const made = await agent.post('/api/Viewing/update', {
      demandId: leadId,
      dateOfViewing: '2027-01-14T17:00:00',
      results: [
        { objectId: flat.id, result: 5, comment: '  Too dark, north-facing.  ' },
        { objectId: house.id, result: 3, comment: '   ' },
      ],
    });
    expect(made.statusCode, made.body).toBe(200);
    const v = made.json();
    expect(v.results).toMatchObject([
      { objectId: flat.id, result: 5, comment: 'Too dark, north-facing.' },
      { objectId: house.id, result: 3, comment: null },
    ]);
    expect((await agent.get(`/api/Viewing/edit/${v.id}`)).json().results.map((r: { comment: string | null }) => r.comment)).toEqual(['Too dark, north-facing.', null]);
    const [created] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Viewing'), eq(actionLog.entityId, v.id)));
    expect((created!.data as { results: { comment?: string }[] }).results[0]!.comment).toContain('Too dark');

    // Changed under the version guard: the new comment is stored and logged, a stale save changes nothing.
    const upd = await agent.post('/api/Viewing/update', {
      id: v.id,
      version: v.version,
      results: [
        { objectId: flat.id, result: 5, comment: 'Too dark, north-facing.' },
        { objectId: house.id, result: 3, comment: 'Wants to see it again with his wife' },
      ],
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const stale = await agent.post('/api/Viewing/update', { id: v.id, version: v.version, results: [{ objectId: house.id, result: 5, comment: 'Overwritten' }] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.results[1]).toMatchObject({ objectId: house.id, comment: 'Wants to see it again with his wife' });
    const stored = await db.select().from(viewingObjects).where(eq(viewingObjects.viewingId, v.id)).orderBy(viewingObjects.position);
    expect(stored.map((r) => r.comment)).toEqual(['Too dark, north-facing.', 'Wants to see it again with his wife']);
    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Viewing'), eq(actionLog.entityId, v.id))).orderBy(actionLog.id);
    expect(logs.map((l) => l.action)).toEqual(['Create', 'Update']);
    expect(JSON.stringify(logs[1]!.data)).toContain('Wants to see it again with his wife');

    // The object's page: this object's result and comment at that viewing.
    const viewed = (await agent.get(`/api/object/view/${house.id}`, el)).json();
    expect(viewed.viewings.find((x: { id: number }) => x.id === v.id)).toMatchObject({ result: 'Δεύτερη υπόδειξη', comment: 'Wants to see it again with his wife' });
    // The lead's viewings: newest first, each object with its result and comment, in the reader's language.
    const ofLead = await agent.get(`/api/lead/${leadId}/viewings`, el);
    expect(ofLead.statusCode, ofLead.body).toBe(200);
    const first = ofLead.json().items[0];
    expect(first).toMatchObject({ id: v.id, dateOfViewing: '2027-01-14T17:00:00', result: 'Δεύτερη υπόδειξη' });
    expect(first.objects).toEqual([
      { objectId: flat.id, objectReferenceNumber: String(flat.ref).padStart(4, '0'), title: 'Flat in Kalamaria', result: 'Δεν ενδιαφέρεται', comment: 'Too dark, north-facing.' },
      { objectId: house.id, objectReferenceNumber: String(house.ref).padStart(4, '0'), title: 'House in Panorama', result: 'Δεύτερη υπόδειξη', comment: 'Wants to see it again with his wife' },
    ]);
  });

  it('refuses a comment past 1000 characters with a translated error and changes nothing', async () => {
    const made = (await agent.post('/api/Viewing/update', { dateOfViewing: '2027-01-15T10:00:00', results: [{ objectId: flat.id, result: 1, comment: 'fine' }] })).json();
    const long = await agent.post('/api/Viewing/update', { id: made.id, version: made.version, results: [{ objectId: flat.id, result: 2, comment: 'x'.repeat(1001) }] }, el);
    expect(long.statusCode).toBe(400);
    expect(JSON.stringify(long.json())).toMatch(/[Α-Ωα-ω]/);
    const exact = await agent.post('/api/Viewing/update', { id: made.id, version: made.version, results: [{ objectId: flat.id, result: 2, comment: 'y'.repeat(1000) }] });
    expect(exact.statusCode).toBe(200);
    expect((await agent.get(`/api/Viewing/edit/${made.id}`)).json()).toMatchObject({ version: made.version + 1, results: [{ result: 2, comment: 'y'.repeat(1000) }] });
  });

  it('are shown on the Viewings list beside each property, and found by a word of them whatever its accents and case', async () => {
    const made = await agent.post('/api/Viewing/update', {
      demandId: leadId,
      dateOfViewing: '2027-02-10T12:00:00',
      results: [
        { objectId: flat.id, result: 5, comment: 'Πολύ σκοτεινό, βλέπει σε φωταγωγό.' },
        { objectId: house.id, result: 2, comment: 'Του άρεσε ο κήπος· θέλει να το ξαναδεί με τη γυναίκα του' },
      ],
    }, el);
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id as number;
    const found = async (comment: string) => {
      const res = await agent.post('/api/Viewing/search', { comment, perPage: 100 });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { id: number; objectRefs: { id: number; referenceNumber: string; comment: string | null }[] }[]; totalRows: number };
    };
    // The row: each property's reference with what the client said of it.
    const row = (await found('σκοτεινό')).items.find((r) => r.id === id)!;
    expect(row.objectRefs).toEqual([
      { id: flat.id, referenceNumber: String(flat.ref).padStart(4, '0'), comment: 'Πολύ σκοτεινό, βλέπει σε φωταγωγό.' },
      { id: house.id, referenceNumber: String(house.ref).padStart(4, '0'), comment: 'Του άρεσε ο κήπος· θέλει να το ξαναδεί με τη γυναίκα του' },
    ]);
    // Accents, case and the final sigma ignored; several words in one comment, in any order.
    for (const text of ['ΣΚΟΤΕΙΝΟ', 'σκοτεινο', 'Φωταγωγο', 'κηπος', 'ΚΉΠΟΣ', 'γυναίκα  ξαναδει', ' τη γυναικα ']) {
      expect((await found(text)).items.map((r) => r.id), text).toEqual([id]);
    }
    // Words said of two different properties are not one comment; words nobody said find nothing.
    expect((await found('σκοτεινό κήπος')).totalRows).toBe(0);
    expect((await found('θέα')).totalRows).toBe(0);
    // LIKE's own characters are plain text.
    expect((await found('%')).totalRows).toBe(0);
    expect((await found('_')).totalRows).toBe(0);
    // With the other filters: the lead and a result.
    expect((await agent.post('/api/Viewing/search', { comment: 'κήπος', demandId: leadId, results: [2] })).json().totalRows).toBe(1);
    expect((await agent.post('/api/Viewing/search', { comment: 'κήπος', results: [4] })).json().totalRows).toBe(0);
    // Blank is no filter.
    const all = (await agent.post('/api/Viewing/search', {})).json().totalRows as number;
    expect((await agent.post('/api/Viewing/search', { comment: '   ' })).json().totalRows).toBe(all);
    // Too long, or text that cannot be stored: a 400 with a translated message.
    const long = await agent.post('/api/Viewing/search', { comment: 'x'.repeat(201) }, el);
    expect(long.statusCode).toBe(400);
    expect(JSON.stringify(long.json())).toMatch(/[Α-Ωα-ω]/);
    expect((await agent.post('/api/Viewing/search', { comment: 'a\u0000b' })).statusCode).toBe(400);
    await agent.del(`/api/Viewing/${id}`);
  });

  it("are paged on the lead: the newest first, the total, and the next ones on asking", async () => {
    const lead = (await agent.post('/api/lead/add', { accountId: client!.id })).json().id as number;
    const ids: number[] = [];
    for (let day = 1; day <= 5; day++) {
      const v = await agent.post('/api/Viewing/update', { demandId: lead, dateOfViewing: `2027-03-0${day}T10:00:00`, results: [{ objectId: flat.id, result: 1, comment: `Day ${day}` }] });
      ids.push(v.json().id as number);
    }
    const page = async (q: string) => {
      const res = await agent.get(`/api/lead/${lead}/viewings${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { items: { id: number; objects: { comment: string | null }[] }[]; totalRows: number };
    };
    const first = await page('?perPage=2');
    expect(first.totalRows).toBe(5);
    expect(first.items.map((v) => v.id)).toEqual([ids[4], ids[3]]);
    expect((await page('?perPage=2&currentPage=2')).items.map((v) => v.id)).toEqual([ids[2], ids[1]]);
    expect((await page('?perPage=2&currentPage=3')).items.map((v) => v.objects[0]!.comment)).toEqual(['Day 1']);
    expect((await page('?perPage=2&currentPage=4')).items).toEqual([]);
    // Without paging: the first page of 20.
    expect((await page('')).items).toHaveLength(5);
    for (const q of ['?perPage=0', '?perPage=101', '?currentPage=0', '?perPage=x']) expect((await agent.get(`/api/lead/${lead}/viewings${q}`)).statusCode, q).toBe(400);
  });

  it("answers a lead's viewings to staff only, and 404 for a lead that is not there", async () => {
    expect((await app.inject({ url: `/api/lead/${leadId}/viewings` })).statusCode).toBe(401);
    const payments = await t.user({ roles: ['clientPayments'] });
    expect((await payments.get(`/api/lead/${leadId}/viewings`)).statusCode).toBe(403);
    expect((await agent.get('/api/lead/2147483000/viewings')).statusCode).toBe(404);
    expect((await agent.get(`/api/lead/${2 ** 31}/viewings`)).statusCode).toBe(400);
  });
});
