import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, actionLog, activities, activityLinks, dealParties, deals, files, leads, objectAccounts, objects, reservations, shortlists, transactions, users, viewingObjects, viewings } from '../../db/schema/index.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { createTestApp } from '../../../test/harness.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const emp = await t.user({ roles: ['employee'] });
const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });

async function person(fields: Record<string, unknown>) {
  const [a] = await db.insert(accounts).values(fields as never).returning({ id: accounts.id });
  return a!.id;
}
async function newObject(title: string, extra: Record<string, unknown> = {}) {
  const [o] = await db.insert(objects).values({ title, ...extra } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  return o!;
}
const version = async (id: number) => (await db.select({ v: accounts.version }).from(accounts).where(eq(accounts.id, id)))[0]!.v;

/** Every text in the workbook, sheet by sheet. */
async function workbookTexts(body: Buffer) {
  const wb = await workbookOf(body);
  const sheets: Record<string, string[]> = {};
  wb.eachSheet((ws) => {
    const cells: string[] = [];
    ws.eachRow((row) => row.eachCell((c) => cells.push(c.value instanceof Date ? c.value.toISOString() : String(c.value))));
    sheets[ws.name] = cells;
  });
  return sheets;
}

/** The rows of every table in which any text, array or JSON column holds `value` (any case). */
async function tracesOf(value: string): Promise<string[]> {
  const cols = (
    await db.execute<{ table_name: string; column_name: string }>(sql`select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
      where c.table_schema = 'public' and c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`)
  ).rows;
  const found: string[] = [];
  for (const c of cols) {
    const r = await db.execute(sql`select count(*)::int as n from ${sql.identifier(c.table_name)} where ${sql.identifier(c.column_name)}::text ilike ${`%${value}%`}`);
    if ((r.rows[0] as { n: number }).n > 0) found.push(`${c.table_name}.${c.column_name}`);
  }
  return found;
}

// The person, with something of every kind the CRM keeps, and another person beside them.
const P = { first: 'Quolmina', last: 'Zyxaerased', email: 'quolmina.z@example.gr', phone: '+30 694 555 0101', tax: '094014249', address: 'Odos Xerophylla 17' };
const Q = { first: 'Other', last: 'Vexworthy', email: 'vex.other@example.com' };
const pId = await person({ firstName: P.first, lastName: P.last, isClient: true, isOwner: true, hasTransactions: true, emails: [P.email], phones: [P.phone], taxNumber: P.tax, address: P.address, city: 'Thessaloniki', notes: `Met ${P.first} at the fair` });
const qId = await person({ firstName: Q.first, lastName: Q.last, isClient: true, emails: [Q.email] });
const home = await newObject('Maisonette in Panorama', { active: false, internalNotes: `Keys with ${P.first}'s sister` });
// Another person's record that shares the first name only: left alone.
const namesake = await newObject('Studio near the port', { internalNotes: `${P.first} from the bakery asked about it` });
await db.insert(actionLog).values({ action: 'Update', entity: 'Account', entityId: qId, message: `${P.first} from the bakery`, data: { notes: `Knows ${P.first} from the bakery` } });
// The mandate the person gave for their home (decision 079), with their tax office.
const mandateRow = (await db.execute(sql`insert into object_mandates (object_id, kind, start_date, end_date) values (${home.id}, 'exclusive', '2026-02-01', '2026-09-30') returning id`)).rows[0] as { id: number };
await db.execute(sql`insert into object_mandate_owners (mandate_id, account_id, tax_office) values (${mandateRow.id}, ${pId}, 'Zyxoffice Kalamarias'), (${mandateRow.id}, ${qId}, 'Vexoffice')`);
await db.insert(objectAccounts).values([
  { objectId: home.id, accountId: pId, relation: 1 },
  { objectId: home.id, accountId: qId, relation: 2 },
]);
const [lead] = await db.insert(leads).values({ accountId: pId, description: `${P.first} wants a sea view` } as never).returning({ id: leads.id });
const offeredFlat = await newObject('Flat by the sea in Kalamaria');
await db.execute(sql`insert into lead_objects (lead_id, object_id) values (${lead!.id}, ${offeredFlat.id})`);
const [viewing] = await db.insert(viewings).values({ demandId: lead!.id, dateOfViewing: new Date('2026-05-02T09:00:00Z') }).returning({ id: viewings.id });
await db.insert(viewingObjects).values({ viewingId: viewing!.id, objectId: offeredFlat.id, result: 2, comment: 'Liked the balcony' });
const [deal] = await db.insert(deals).values({ objectId: home.id, dealType: 2, dealStage: 5, price: 210000, notes: `Seller ${P.last} signs at the notary` } as never).returning({ id: deals.id });
await db.insert(dealParties).values([
  { dealId: deal!.id, accountId: pId, relation: 1 },
  { dealId: deal!.id, accountId: qId, relation: 2 },
]);
const [booking] = await db
  .insert(reservations)
  .values({ objectId: offeredFlat.id, checkIn: '2026-07-01', duration: 5, clientAccountId: pId, clientLastName: P.last, clientFirstName: P.first, clientEmail: P.email, clientPhone: P.phone, total: 900 })
  .returning({ id: reservations.id });
const [payment] = await db
  .insert(transactions)
  .values({ accountId: pId, type: 'income', amount: '150.00', transactionDate: new Date('2026-06-01T10:00:00Z'), paymentMethod: 1, internalNotes: `Paid by ${P.first} ${P.last}` } as never)
  .returning({ id: transactions.id });
const [note] = await db.insert(activities).values({ description: `Called ${P.first} on ${P.phone}`, category: 1 }).returning({ id: activities.id });
await db.insert(activityLinks).values({ activityId: note!.id, entity: LinkKind.Account, entityId: pId });
const storage = getFileStorage(t.dataDir);
const stored = `pd${Date.now()}.pdf`;
const scratch = path.join(t.dataDir, 'scratch.pdf');
fs.writeFileSync(scratch, '%PDF-1.4 passport scan');
await storage.put(stored, { path: scratch });
await db.insert(files).values({ systemName: stored, userName: `passport-${P.last}.pdf`, mime: 'application/pdf', size: 22, parentType: LinkKind.Account, parentId: pId });
await db.insert(shortlists).values({ tokenHash: `h${Date.now()}`, leadId: lead!.id, channel: 'email', email: P.email, language: 'el', expiresOn: new Date(Date.now() + 86400000) });
const signIn = await t.user({ roles: ['clientPayments'], email: `z-${P.email}` });
await db.update(users).set({ accountId: pId }).where(eq(users.id, signIn.id));
// The account's own history, through the API: the log keeps what changed.
const edited = await admin.post('/api/account/update', { id: pId, version: await version(pId), postcode: '54248', nationality: 'Zyxaerasian' });
expect(edited.statusCode, edited.body).toBe(200);
await db.execute(sql`insert into alerts (source, content, entity, entity_id) values ('todo', ${`Call back ${P.first} ${P.last}`}, 'Account', ${pId})`);

describe("a person's data (download)", () => {
  it("holds the person's own values on a sheet per kind, in the reader's language, and none of the other party's", async () => {
    const res = await admin.get(`/api/account/personal-data/${pId}`, { lang: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`Personal-data-${pId}.xlsx`);
    const sheets = await workbookTexts(res.rawPayload);
    expect(Object.keys(sheets)).toEqual(
      expect.arrayContaining(['Πρόσωπο', 'Τηλέφωνα και e-mail', 'Ενδιαφέροντα', 'Προτεινόμενα ακίνητα', 'Υποδείξεις', 'Συμφωνίες', 'Κρατήσεις', 'Πληρωμές', 'Ακίνητα', 'Δραστηριότητες', 'Αρχεία', 'Ιστορικό ενεργειών', 'Εντολές ανάθεσης']),
    );
    const all = Object.values(sheets).flat().join('\n');
    for (const v of [P.first, P.last, P.email, P.phone, P.tax, P.address, 'Zyxaerasian', `${P.first} wants a sea view`, 'Flat by the sea in Kalamaria', 'Liked the balcony', `passport-${P.last}.pdf`, `Called ${P.first}`, 'Zyxoffice Kalamarias', 'Αποκλειστική'])
      expect(all, v).toContain(v);
    // Labels of the account's fields, in Greek.
    expect(sheets['Πρόσωπο']).toEqual(expect.arrayContaining(['Επώνυμο', P.last, 'Διεύθυνση', P.address]));
    // The deal: their role, and the other party by role only.
    expect(sheets['Συμφωνίες']).toEqual(expect.arrayContaining(['Πωλητής / εκμισθωτής', 'Αγοραστής / μισθωτής']));
    for (const v of [Q.first, Q.last, Q.email, 'Vexoffice']) expect(all, v).not.toContain(v);
    // The download is on the record: who took whose data.
    const [logged] = await db.select().from(actionLog).where(and(eq(actionLog.action, 'Download'), eq(actionLog.entity, 'Account'))).orderBy(desc(actionLog.id)).limit(1);
    expect(logged).toMatchObject({ actionBy: admin.id, message: `Personal-data-${pId}.xlsx`, data: { accountId: pId } });
  });

  it('neutralises a value a spreadsheet would run as a formula', async () => {
    const id = await person({ firstName: 'Ann', lastName: 'Formula', notes: '=HYPERLINK("http://x.test","y")' });
    const res = await admin.get(`/api/account/personal-data/${id}`);
    const sheets = await workbookTexts(res.rawPayload);
    expect(sheets['Person']).toContain(`'=HYPERLINK("http://x.test","y")`);
  });

  it('is for office admins only', async () => {
    expect((await emp.get(`/api/account/personal-data/${pId}`)).statusCode).toBe(403);
    expect((await branchAdmin.get(`/api/account/personal-data/${pId}`)).statusCode).toBe(403);
    expect((await admin.get('/api/account/personal-data/999999')).statusCode).toBe(404);
  });
});

describe("a person's data (erasure)", () => {
  const snapshot = async (id: number) => ({
    a: (await db.select().from(accounts).where(eq(accounts.id, id)))[0],
    log: (await db.select({ n: sql<number>`count(*)::int` }).from(actionLog))[0]!.n,
  });

  it('is refused, in the reader\'s language and changing nothing, for an employee, an admin\'s sign-in, a listed property\'s owner, a stale version', async () => {
    const employee = await person({ firstName: 'Eva', lastName: 'Staffer', isEmploye: true });
    let before = await snapshot(employee);
    let res = await admin.post(`/api/account/erase/${employee}`, { version: before.a!.version }, { lang: 'el' });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toContain('λογαριασμό εργαζομένου');
    expect(await snapshot(employee)).toEqual(before);

    const boss = await person({ firstName: 'Bob', lastName: 'Bossman', isClient: true });
    const bossSignIn = await t.user({ roles: ['admin'] });
    await db.update(users).set({ accountId: boss }).where(eq(users.id, bossSignIn.id));
    before = await snapshot(boss);
    res = await admin.post(`/api/account/erase/${boss}`, { version: before.a!.version });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toBe('This person signs in as an administrator. Take the administrator role from their sign-in first.');
    expect(await snapshot(boss)).toEqual(before);

    const owner = await person({ firstName: 'Olga', lastName: 'Ownerova', isOwner: true });
    const listed = await newObject('Listed villa', { active: true });
    await db.insert(objectAccounts).values({ objectId: listed.id, accountId: owner, relation: 1 });
    before = await snapshot(owner);
    res = await admin.post(`/api/account/erase/${owner}`, { version: before.a!.version }, { lang: 'ru' });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toContain(String(listed.ref));
    expect(res.json().title).toContain('собственник объекта');
    expect(await snapshot(owner)).toEqual(before);

    before = await snapshot(pId);
    res = await admin.post(`/api/account/erase/${pId}`, { version: before.a!.version - 1 });
    expect(res.statusCode).toBe(409);
    expect(await snapshot(pId)).toEqual(before);
  });

  it('is for office admins only', async () => {
    const v = await version(pId);
    expect((await emp.post(`/api/account/erase/${pId}`, { version: v })).statusCode).toBe(403);
    expect((await branchAdmin.post(`/api/account/erase/${pId}`, { version: v })).statusCode).toBe(403);
  });

  it('leaves no trace of the name, phone, e-mail, tax number or address anywhere in the database, and keeps what the law keeps', async () => {
    const res = await admin.post(`/api/account/erase/${pId}`, { version: await version(pId) }, { lang: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: pId, displayName: `#${pId}`, email: null, phone: null, taxNumber: null, address: null, notes: null, files: [] });
    expect(res.json().erasedOn).toMatch(/^\d{4}-\d\d-\d\dT/);

    for (const v of [P.last, P.email, P.phone, P.tax, P.address, 'Zyxaerasian', `passport-${P.last}`, 'Zyxoffice']) expect(await tracesOf(v), v).toEqual([]);
    expect((await tracesOf(P.first)).sort(), P.first).toEqual(['action_log.data', 'action_log.message', 'objects.internal_notes']);
    // The person's property keeps its notes less the name; another record that shares only the first name is untouched.
    expect((await db.execute(sql`select internal_notes from objects where id = ${home.id}`)).rows[0]).toEqual({ internal_notes: `Keys with #${pId}'s sister` });
    expect((await db.execute(sql`select internal_notes from objects where id = ${namesake.id}`)).rows[0]).toEqual({ internal_notes: `${P.first} from the bakery asked about it` });
    // The other person is untouched.
    expect(await tracesOf(Q.last)).toContain('accounts.last_name');

    // Kept: the deal with its parties and price, the payment, the reservation's amounts.
    expect((await db.select().from(dealParties).where(eq(dealParties.dealId, deal!.id))).map((p) => p.accountId).sort()).toEqual([pId, qId].sort());
    expect(Number((await db.execute(sql`select price from deals where id = ${deal!.id}`)).rows[0]!.price)).toBe(210000);
    expect(Number((await db.select({ amount: transactions.amount }).from(transactions).where(eq(transactions.id, payment!.id)))[0]!.amount)).toBe(150);
    expect((await db.select({ total: reservations.total, last: reservations.clientLastName }).from(reservations).where(eq(reservations.id, booking!.id)))[0]).toEqual({ total: 900, last: `#${pId}` });
    // Gone: the file (from disk too), the activity on it alone, the sign-in and its sessions; the shortlist withdrawn.
    expect(await db.select().from(files).where(eq(files.systemName, stored))).toEqual([]);
    expect(await storage.get(stored)).toBeUndefined();
    expect(await db.select().from(activities).where(eq(activities.id, note!.id))).toEqual([]);
    expect((await db.select().from(users).where(eq(users.id, signIn.id)))[0]).toMatchObject({ disabled: true, passwordHash: null });
    expect((await signIn.get('/api/account/view/1')).statusCode).toBe(401);
    expect((await db.select().from(shortlists).where(eq(shortlists.leadId, lead!.id)))[0]).toMatchObject({ email: null, withdrawnBy: admin.id });
    expect((await db.execute(sql`select description from leads where id = ${lead!.id}`)).rows[0]!.description).toBeNull();

    // The log: the erasure (who, which account), none of the values; older entries keep which fields changed.
    const [erased] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Account'), eq(actionLog.entityId, pId), eq(actionLog.action, 'Erase')));
    expect(erased).toMatchObject({ actionBy: admin.id, message: null });
    const [update] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Account'), eq(actionLog.entityId, pId), eq(actionLog.action, 'Update')));
    expect(update!.data).toEqual({ postcode: null, nationality: null });
  });

  it('shows the account as erased, closed to edits, to a second erasure and to shortlists', async () => {
    const v = await version(pId);
    let res = await admin.post('/api/account/update', { id: pId, version: v, firstName: 'Back', lastName: 'Again' });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toContain('add them as a new account');
    res = await admin.post(`/api/account/patch/${pId}?version=${v}`, [{ op: 'replace', path: '/notes', value: 'Back again' }]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().title).toContain('add them as a new account');
    res = await admin.post(`/api/account/erase/${pId}`, { version: v });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toBe("This person's data has already been erased.");
    expect((await db.select({ v: accounts.version }).from(accounts).where(eq(accounts.id, pId)))[0]!.v).toBe(v);
    res = await admin.post(`/api/lead/${lead!.id}/shortlist`, { objectIds: [offeredFlat.id], channel: 'link' }, { lang: 'el' });
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toContain('έχουν διαγραφεί');
    expect(await db.select().from(shortlists).where(eq(shortlists.leadId, lead!.id))).toHaveLength(1);
  });
});
