import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { actionLog, assignments, leads, objects, users, viewings } from '../../db/schema/index.ts';
import { accountMaker } from '../../../test/records.ts';
import { createTestApp, signInsOfEachRole } from '../../../test/harness.ts';

const t = await createTestApp();
const { app, db } = t;

const { admin, agent, branchAgent, payer } = await signInsOfEachRole(t);

const newAccount = accountMaker(db, 'Dimitra', 'Karagianni');

const employee = await newAccount({ firstName: 'Giorgos', lastName: 'Alexiou', isEmploye: true });
const specialist = await newAccount({ firstName: 'Anna', lastName: 'Vlachou', isProfessional: true, isLawyer: true });

describe('assignments of a record', () => {
  it('lists nobody at first, then the people assigned, with their names', async () => {
    const acc = await newAccount({ isClient: true });
    const empty = await agent.get(`/api/assignment/account/${acc.id}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ canEdit: true, items: [] });

    const added = await agent.post('/api/assignment/account/add', { assignedTo: employee.id, accountId: acc.id });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ accountId: employee.id, account: 'Alexiou Giorgos' });
    await agent.post('/api/assignment/account/add', { assignedTo: specialist.id, accountId: acc.id });

    const list = await admin.get(`/api/assignment/account/${acc.id}`);
    expect(list.json()).toEqual({
      canEdit: true,
      items: [
        { accountId: employee.id, account: 'Alexiou Giorgos' },
        { accountId: specialist.id, account: 'Vlachou Anna' },
      ],
    });
    const [log] = await db.select().from(actionLog).where(eq(actionLog.entity, 'Assignment')).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Create', actionBy: agent.id, data: { parent: 'account', parentId: acc.id, accountId: specialist.id } });
  });

  it('keeps the parents apart: lead 5, object 5, viewing 5 and account 5 are different records', async () => {
    const id = 500000 + Math.floor(Math.random() * 1000);
    // Each parent must exist (assignments refuse unknown ones): the same number in each table.
    await db.insert(objects).values({ id } as never);
    await db.insert(leads).values({ id } as never);
    await db.insert(viewings).values({ id });
    expect((await agent.post('/api/assignment/lead/add', { assignedTo: employee.id, demandId: id })).statusCode).toBe(200);
    expect((await agent.post('/api/assignment/object/add', { assignedTo: specialist.id, objectId: id })).statusCode).toBe(200);
    expect((await agent.post('/api/assignment/viewing/add', { assignedTo: employee.id, viewingId: id })).statusCode).toBe(200);
    expect((await agent.get(`/api/assignment/lead/${id}`)).json().items).toEqual([{ accountId: employee.id, account: 'Alexiou Giorgos' }]);
    expect((await agent.get(`/api/assignment/object/${id}`)).json().items).toEqual([{ accountId: specialist.id, account: 'Vlachou Anna' }]);
    expect((await agent.get(`/api/assignment/viewing/${id}`)).json().items).toHaveLength(1);
    const stored = await db.select({ parent: assignments.parent }).from(assignments).where(eq(assignments.parentId, id)).orderBy(assignments.parent);
    expect(stored.map((s) => s.parent)).toEqual([0, 2, 3]); // Object 0, Lead 2, Viewing 3
    // parent segments in any letter case, or by number
    expect((await agent.get(`/api/assignment/LEAD/${id}`)).json().items).toHaveLength(1);
    expect((await agent.get(`/api/Assignment/2/${id}`)).json().items).toHaveLength(1);
  });

  it('names the unknown parent, the missing record field, duplicates and people who cannot be assigned', async () => {
    const acc = await newAccount();
    const unknown = await agent.get(`/api/assignment/deal/${acc.id}`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().title).toBe('Unknown value for Parent enum');
    const unknownAdd = await agent.post('/api/assignment/house/add', { assignedTo: employee.id, accountId: acc.id });
    expect(unknownAdd.statusCode).toBe(400);
    expect(unknownAdd.json().code).toBe('assignments.unknownParent');
    expect((await agent.del(`/api/assignment/7/${acc.id}/${employee.id}`)).statusCode).toBe(400);

    const noParent = await agent.post('/api/assignment/account/add', { assignedTo: employee.id, demandId: acc.id });
    expect(noParent.statusCode).toBe(400);
    expect(Object.keys(noParent.json().errors)).toEqual(['accountId']);
    expect((await agent.post('/api/assignment/account/add', { accountId: acc.id })).statusCode).toBe(400);
    expect((await agent.post('/api/assignment/account/add', { assignedTo: 'Giorgos', accountId: acc.id })).statusCode).toBe(400);

    const client = await newAccount({ isClient: true });
    const notStaff = await agent.post('/api/assignment/account/add', { assignedTo: client.id, accountId: acc.id }, { lang: 'el' });
    expect(notStaff.statusCode).toBe(400);
    expect(notStaff.json().errors.assignedTo).toEqual(['Ανάθεση μπορεί να γίνει μόνο σε υπαλλήλους και ειδικούς.']);
    expect((await agent.post('/api/assignment/account/add', { assignedTo: 99999999, accountId: acc.id })).statusCode).toBe(400);

    expect((await agent.post('/api/assignment/account/add', { assignedTo: employee.id, accountId: acc.id })).statusCode).toBe(200);
    const dup = await agent.post('/api/assignment/account/add', { assignedTo: employee.id, accountId: acc.id });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors.assignedTo).toEqual(['Alexiou Giorgos is already assigned.']);
    expect(await db.select().from(assignments).where(and(eq(assignments.parent, 1), eq(assignments.parentId, acc.id)))).toHaveLength(1);

    const missing = await agent.post('/api/assignment/account/add', { assignedTo: employee.id, accountId: 99999999 });
    expect(missing.statusCode).toBe(404);
    expect((await agent.get('/api/assignment/account/99999999')).statusCode).toBe(404);
  });

  it('removes an assignment once, and logs it', async () => {
    const acc = await newAccount();
    await agent.post('/api/assignment/account/add', { assignedTo: employee.id, accountId: acc.id });
    await agent.post('/api/assignment/account/add', { assignedTo: specialist.id, accountId: acc.id });
    const res = await admin.del(`/api/assignment/account/${acc.id}/${employee.id}`);
    expect(res.statusCode).toBe(200);
    expect((await admin.get(`/api/assignment/account/${acc.id}`)).json().items).toEqual([{ accountId: specialist.id, account: 'Vlachou Anna' }]);
    expect((await admin.del(`/api/assignment/account/${acc.id}/${employee.id}`)).statusCode).toBe(404);
    const [log] = await db.select().from(actionLog).where(eq(actionLog.entity, 'Assignment')).orderBy(desc(actionLog.id)).limit(1);
    expect(log).toMatchObject({ action: 'Delete', actionBy: admin.id, data: { parent: 'account', parentId: acc.id, accountId: employee.id } });
  });

  it('lets a branch user change only the records he is assigned to', async () => {
    const acc = await newAccount();
    const me = await newAccount({ firstName: 'Petros', lastName: 'Branchiotis', isEmploye: true });
    await db.update(users).set({ accountId: me.id }).where(eq(users.id, branchAgent.id));
    const view = await branchAgent.get(`/api/assignment/account/${acc.id}`);
    expect(view.json()).toEqual({ canEdit: false, items: [] });
    expect((await branchAgent.post('/api/assignment/account/add', { assignedTo: me.id, accountId: acc.id })).statusCode).toBe(403);
    await admin.post('/api/assignment/account/add', { assignedTo: me.id, accountId: acc.id });
    expect((await branchAgent.get(`/api/assignment/account/${acc.id}`)).json().canEdit).toBe(true);
    expect((await branchAgent.post('/api/assignment/account/add', { assignedTo: employee.id, accountId: acc.id })).statusCode).toBe(200);
  });

  it('is for staff only', async () => {
    const acc = await newAccount();
    expect((await app.inject({ url: `/api/assignment/account/${acc.id}` })).statusCode).toBe(401);
    expect((await payer.get(`/api/assignment/account/${acc.id}`)).statusCode).toBe(403);
    expect((await payer.post('/api/assignment/account/add', { assignedTo: employee.id, accountId: acc.id })).statusCode).toBe(403);
    expect((await payer.del(`/api/assignment/account/${acc.id}/${employee.id}`)).statusCode).toBe(403);
  });
});
