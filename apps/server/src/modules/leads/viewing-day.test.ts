import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { accounts, actionLog, assignments, objects, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { refDigits } from '../../lib/reference-number.ts';

// The viewing as the agent on the way reads it: the client's phone, each property's address and
// where its key is; and a new viewing is its maker's unless another agent is chosen.
const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });
const [me] = await db.insert(accounts).values({ firstName: 'Stefanos', lastName: 'Agentis', isEmploye: true }).returning({ id: accounts.id });
await db.update(users).set({ accountId: me!.id }).where(eq(users.id, agent.id));
const [colleague] = await db.insert(accounts).values({ firstName: 'Maria', lastName: 'Synadelfou', isEmploye: true }).returning({ id: accounts.id });
const [holder] = await db.insert(accounts).values({ firstName: 'Petros', lastName: 'Thyroros', isProfessional: true }).returning({ id: accounts.id });
const [client] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Pelatis', isClient: true, phones: ['', '+30 694 123 4567', '2310 555 111'] }).returning({ id: accounts.id });
const [flat] = await db
  .insert(objects)
  .values({ title: 'Flat by the sea', address: 'Vasilissis Olgas 112', zipCode: '54645' } as never)
  .returning({ id: objects.id });
const [house] = await db.insert(objects).values({ title: 'House with garden' } as never).returning({ id: objects.id });
const leadId = (await agent.post('/api/lead/add', { accountId: client!.id })).json().id as number;
await agent.post('/api/lead/addObject', { leadId, objectId: flat!.id });
// The flat's keys: one in the office (received), one out with the doorman.
await admin.post('/api/ObjectKeys/edit', { objectId: flat!.id, received: '2026-03-01', description: 'Blue tag' });
await admin.post('/api/ObjectKeys/edit', { objectId: flat!.id, accountId: holder!.id, givenAway: '2026-03-05', description: 'Spare' });

const assignedTo = async (viewingId: number) =>
  (await db.select({ accountId: assignments.accountId }).from(assignments).where(and(eq(assignments.parent, 3), eq(assignments.parentId, viewingId)))).map((r) => r.accountId);

describe('a viewing on the way', () => {
  it('answers the client with their phones, and each property with its address and its keys, new or stored', async () => {
    const blank = (await agent.get(`/api/Viewing/add?demandId=${leadId}`)).json();
    expect(blank.client).toEqual({ accountId: client!.id, name: 'Pelatis Eleni', phones: ['+30 694 123 4567', '2310 555 111'] });
    expect(blank.agent).toEqual({ id: me!.id, text: 'Agentis Stefanos' });
    expect(blank.results[0]).toMatchObject({ objectId: flat!.id, address: 'Vasilissis Olgas 112, 54645' });

    const saved = await agent.post('/api/Viewing/update', {
      demandId: leadId,
      dateOfViewing: '2026-12-03T11:30:00',
      results: [
        { objectId: flat!.id, result: 1 },
        { objectId: house!.id, result: 1 },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = (await agent.get(`/api/Viewing/edit/${saved.json().id}`)).json();
    expect(read.client.phones[0]).toBe('+30 694 123 4567');
    const [f, h] = read.results;
    expect(f).toMatchObject({ objectId: flat!.id, address: 'Vasilissis Olgas 112, 54645' });
    expect(f.keys).toEqual([
      { id: expect.any(Number), description: 'Blue tag', accountId: null, account: null, received: '2026-03-01', givenAway: null, lastLoan: null },
      { id: expect.any(Number), description: 'Spare', accountId: holder!.id, account: 'Thyroros Petros', received: null, givenAway: '2026-03-05', lastLoan: { account: 'Thyroros Petros' } },
    ]);
    expect(h).toMatchObject({ objectId: house!.id, address: null, keys: [] });
    // What the answer carries posts back unchanged to the update.
    const again = await agent.post('/api/Viewing/update', { ...read, results: read.results });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('is assigned to whoever made it, logged as an assignment; another agent chosen, or none, is kept', async () => {
    const mine = (await agent.post('/api/Viewing/update', { demandId: leadId, dateOfViewing: '2026-12-04T10:00:00' })).json();
    expect(await assignedTo(mine.id)).toEqual([me!.id]);
    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Assignment'), eq(actionLog.message, 'Agentis Stefanos')));
    const log = logs.find((l) => (l.data as { parentId?: number } | null)?.parentId === mine.id);
    expect(log).toMatchObject({ action: 'Create', data: { parent: 'viewing', parentId: mine.id, accountId: me!.id } });
    const list = (await agent.post('/api/Viewing/search', { assigned: me!.id })).json();
    expect(list.items.map((r: { id: number }) => r.id)).toContain(mine.id);

    const theirs = (await agent.post('/api/Viewing/update', { demandId: leadId, dateOfViewing: '2026-12-04T12:00:00', assignedTo: colleague!.id })).json();
    expect(await assignedTo(theirs.id)).toEqual([colleague!.id]);
    const nobody = (await agent.post('/api/Viewing/update', { demandId: leadId, dateOfViewing: '2026-12-04T13:00:00', assignedTo: null })).json();
    expect(await assignedTo(nobody.id)).toEqual([]);
    // A change does not add anyone.
    await agent.post('/api/Viewing/update', { id: mine.id, version: mine.version, dateOfViewing: '2026-12-04T10:30:00', assignedTo: colleague!.id });
    expect(await assignedTo(mine.id)).toEqual([me!.id]);

    // A client is no agent: refused, and no viewing is made.
    const before = (await agent.post('/api/Viewing/search', {})).json().totalRows;
    const bad = await agent.post('/api/Viewing/update', { demandId: leadId, dateOfViewing: '2026-12-04T14:00:00', assignedTo: client!.id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.assignedTo).toBeDefined();
    expect((await agent.post('/api/Viewing/search', {})).json().totalRows).toBe(before);

    // A user without an account of their own makes a viewing no one's.
    const adminMade = (await admin.post('/api/Viewing/update', { demandId: leadId, dateOfViewing: '2026-12-04T15:00:00' })).json();
    expect(await assignedTo(adminMade.id)).toEqual([]);
  });

  it('shows on the day: the calendar answers a viewing with its client, first phone and the properties’ addresses', async () => {
    const res = await agent.get(`/api/calendar?from=2026-12-03&till=2026-12-03&assigned=${me!.id}`);
    expect(res.statusCode).toBe(200);
    const v = res.json().items.find((e: { kind: string }) => e.kind === 'viewing');
    expect(v).toMatchObject({ client: 'Pelatis Eleni', clientPhone: '+30 694 123 4567', addresses: ['Vasilissis Olgas 112'] });

    // The property's place, and the place renamed, show at once (the week is kept until what it shows changes).
    const [place] = (await db.execute<{ id: number }>(sql`select id from locations where level = 3 order by id limit 1`)).rows;
    await db.update(objects).set({ locationId: place!.id } as never).where(eq(objects.id, flat!.id));
    const addresses = async () =>
      (await agent.get(`/api/calendar?from=2026-12-03&till=2026-12-03&assigned=${me!.id}`)).json().items.find((e: { kind: string }) => e.kind === 'viewing').addresses;
    expect((await addresses())[0]).toMatch(/^Vasilissis Olgas 112, ./);
    await db.execute(sql`update locations set text_en = 'Nea Paralia', text_el = 'Νέα Παραλία', text_ru = 'Неа Паралия' where id = ${place!.id}`);
    expect(await addresses()).toEqual(['Vasilissis Olgas 112, Nea Paralia']);
  });

  it('names a property of five digits whole and a short one with its zeros (lpad alone cut 12345 to 1234)', async () => {
    const [shown] = (await db.execute<{ long: string; short: string }>(sql`select ${refDigits(sql`12345`)} as long, ${refDigits(sql`7`)} as short`)).rows;
    expect(shown).toEqual({ long: '12345', short: '0007' });
    await db.update(objects).set({ referenceNumber: 12345 } as never).where(eq(objects.id, flat!.id));
    const [house5] = await db.select({ ref: objects.referenceNumber }).from(objects).where(eq(objects.id, house!.id));
    const day = (await agent.get(`/api/calendar?from=2026-12-03&till=2026-12-03&assigned=${me!.id}`)).json();
    const v = day.items.find((e: { kind: string }) => e.kind === 'viewing');
    expect(v.title).toContain(`#12345 #${String(house5!.ref).padStart(4, '0')}`);
  });
});
