import { describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { accounts, actionLog } from '../../db/schema/index.ts';
import { createTestApp, json } from '../../../test/harness.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });
const admin = await t.user({ roles: ['admin'] });

const person = async (values: Partial<typeof accounts.$inferInsert>) => (await db.insert(accounts).values(values).returning({ id: accounts.id }))[0]!.id;
// Every lead below is of a client named Leadsheetou, so the filter by that name picks exactly them.
const maria = await person({ firstName: 'Maria', lastName: 'Leadsheetou', phones: ['+30 2310 123456', '+30 6944 000111'], emails: ['maria@example.test'] });
const nikos = await person({ firstName: 'Nikos', lastName: '=Leadsheetou(1)' });
const agentAccount = await person({ firstName: 'Eleni', lastName: 'Agentaki', isEmploye: true });
const source = await person({ firstName: '', lastName: 'Spitogatos', isSource: true });
const place = ((await db.execute(sql`select id from locations where key is not null order by id limit 1`)).rows[0] as { id: number }).id;

async function lead(accountId: number, body: Record<string, unknown>) {
  const added = await agent.post('/api/lead/add', { accountId });
  expect(added.statusCode, added.body).toBe(200);
  const id = added.json().id as number;
  const saved = await agent.post('/api/lead/update', { id, version: 1, ...body });
  expect(saved.statusCode, saved.body).toBe(200);
  return id;
}
const first = await lead(maria, {
  forPurchase: true,
  forRent: true,
  rentBudgetRangeMax: 650,
  purchaseBudgetRangeMin: 100000,
  purchaseBudgetRangeMax: 150000.5,
  stage: 3,
  priority: 4,
  source,
  startDate: '2026-03-02',
  locationId: place,
  objectSubTypes: [1],
  bedroomsMin: 2,
  areaMin: 80,
  description: 'Near a school',
});
const second = await lead(nikos, { forRent: true, rentBudgetRangeMax: 900, stage: 1, priority: 2 });
const assigned = await agent.post('/api/assignment/lead/add', { demandId: first, assignedTo: agentAccount });
expect(assigned.statusCode, assigned.body).toBe(200);
const mine = { lastName: 'Leadsheetou' };

const sheet = async (body: unknown, lang: string) => {
  const res = await agent.post('/api/lead/download', body, { lang });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  expect(res.headers['content-disposition']).toContain('Leads.xlsx');
  return (await workbookOf(res)).worksheets[0]!;
};

describe('Leads.xlsx', () => {
  it('holds every matching lead in the list’s order, in the reader’s language, with the client’s phones, real numbers and dates, and no formulas', async () => {
    const ws = await sheet({ ...mine, sortBy: 'createdOn', sortDir: 'asc' }, 'el');
    expect(ws.name).toBe('Ενδιαφέροντα');
    expect(ws.getCell('A1').value).toBe('Ενδιαφέροντα');
    expect(ws.getCell('A2').value).toBe('Εμφανίζονται: Επώνυμο πελάτη: Leadsheetou');
    const head = (ws.getRow(5).values as unknown[]).slice(1);
    expect(head.slice(0, 10)).toEqual(['Αρ. ενδιαφέροντος', 'Δημιουργία', 'Πελάτης', 'Τηλέφωνα', 'E-mail', 'Είδος', 'Προϋπολογισμός', 'Στάδιο', 'Προτεραιότητα', 'Συνεργάτες']);
    const col = (name: string) => {
      expect(head).toContain(name);
      return head.indexOf(name) + 1;
    };
    const [a, b] = [ws.getRow(6), ws.getRow(7)];
    expect([a.getCell(1).value, b.getCell(1).value]).toEqual([first, second]);
    expect(ws.getRow(8).getCell(1).value ?? null).toBeNull();
    expect(a.getCell(3).value).toBe('Leadsheetou Maria');
    // Each phone kept from being a formula on its own: "+30 …" stays as typed.
    expect(a.getCell(4).value).toBe('+30 2310 123456; +30 6944 000111');
    expect(a.getCell(5).value).toBe('maria@example.test');
    expect(a.getCell(6).value).toBe('Αγορά');
    expect(a.getCell(7).value).toBe('100\u00a0000\u00a0€ – 150\u00a0001\u00a0€');
    expect(a.getCell(8).value).toBe('Προτάσεις ακινήτων');
    expect(a.getCell(9).value).toBe('Επείγουσα');
    expect(a.getCell(10).value).toBe('Agentaki Eleni');
    expect(a.getCell(col('Πηγή')).value).toBe('Spitogatos');
    expect(a.getCell(col('Από')).value).toEqual(new Date('2026-03-02T00:00:00Z'));
    expect(a.getCell(col('Υπνοδωμάτια τουλάχιστον')).value).toBe(2);
    // Every service a yes/no and every budget an amount of its own: a lead to buy or rent shows both.
    expect([a.getCell(col('Αγορά')).value, a.getCell(col('Ενοικίαση')).value, a.getCell(col('Βραχυχρόνια μίσθωση')).value]).toEqual(['Ναι', 'Ναι', 'Όχι']);
    expect(a.getCell(col('Προϋπολογισμός αγοράς έως')).value).toBe(150000.5);
    expect(a.getCell(col('Προϋπολογισμός αγοράς έως')).numFmt).toContain('€');
    expect(a.getCell(col('Μηνιαίο μίσθωμα έως')).value).toBe(650);
    expect(a.getCell(col('Εμβαδόν από')).value).toBe(80);
    // The long text is not in the file.
    expect(head).not.toContain('Περιγραφή');
    // A name a spreadsheet would run is text.
    expect(b.getCell(3).value).toBe("'=Leadsheetou(1) Nikos");
    expect(b.getCell(6).value).toBe('Ενοικίαση');
    for (let r = 1; r <= 7; r++) ws.getRow(r).eachCell((c) => expect(c.formula).toBeUndefined());
  });

  it('follows every filter of the list, and its sort, in English and Russian', async () => {
    const en = await sheet({ ...mine, service: 2, sortBy: 'priority', sortDir: 'asc' }, 'en');
    expect(en.name).toBe('Leads');
    expect(en.getCell('A2').value).toBe("Showing: Service: Rent; Client's last name: Leadsheetou");
    expect([6, 7, 8].map((r) => en.getRow(r).getCell(1).value ?? null)).toEqual([second, first, null]);
    const ru = await sheet({ ...mine, stages: [3], priorities: [4], sources: [source], agentId: agentAccount }, 'ru');
    expect(ru.name).toBe('Заявки');
    expect([6, 7].map((r) => ru.getRow(r).getCell(1).value ?? null)).toEqual([first, null]);
    expect(String(ru.getCell('A2').value)).toContain('Spitogatos');
    expect(String(ru.getCell('A2').value)).toContain('Agentaki Eleni');
    const all = await sheet({}, 'en');
    expect(all.getCell('A2').value).toBe('Showing: All leads');
  });

  it('holds the leads the list shows for the same filter, in the same order, for every sort', async () => {
    const filters = [{}, mine, { service: 1 }, { service: 2, budgetRangeMax: 1000 }, { stages: [1, 3] }, { priorities: [2] }, { sources: [source] }, { agentId: agentAccount }, { startDate: '2026-03-01', endDate: '2026-03-31' }];
    const sorts = [{}, { sortBy: 'createdOn', sortDir: 'asc' }, { sortBy: 'name', sortDir: 'asc' }, { sortBy: 'stage', sortDir: 'desc' }, { sortBy: 'priority', sortDir: 'asc' }];
    for (const f of filters)
      for (const o of sorts) {
        const listed = (await json(agent.post('/api/lead/search', { ...f, ...o, perPage: 1000 }))).items.map((r: { id: number }) => r.id);
        const ws = await sheet({ ...f, ...o }, 'en');
        const inFile: unknown[] = [];
        ws.eachRow((row, n) => n > 5 && inFile.push(row.getCell(1).value));
        expect(inFile, JSON.stringify([f, o])).toEqual(listed);
      }
  });

  it('names no one beyond the leads to an API key that may not read accounts: no phones, e-mails or agents, the filter’s people by number', async () => {
    const NONE = { accounts: 'none', properties: 'none', leads: 'none', deals: 'none', payments: 'none' };
    const keyed = async (scopes: Record<string, string>) => t.client((await json(admin.post('/api/ApiKeys', { name: `Leads ${JSON.stringify(scopes)}`, scopes: { ...NONE, ...scopes }, expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) }))).secret);
    const leadsOnly = await keyed({ leads: 'read' });
    const res = await leadsOnly.post('/api/lead/download', { ...mine, agentId: agentAccount }, { lang: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    const ws = (await workbookOf(res)).worksheets[0]!;
    const head = (ws.getRow(5).values as unknown[]).slice(1);
    expect(head.slice(0, 8)).toEqual(['Lead No.', 'Created', 'Client', 'Type', 'Budget', 'Stage', 'Priority', 'Source']);
    expect(head).not.toContain('Phones');
    expect(head).not.toContain('Agents');
    expect(ws.getCell('A2').value).toBe(`Showing: Agent: #${agentAccount}; Client's last name: Leadsheetou`);
    const text = JSON.stringify(ws.getRow(6).values);
    expect(text).not.toContain('6944');
    expect(text).not.toContain('maria@example.test');
    // With accounts to read as well, the contacts are there.
    const both = await keyed({ leads: 'read', accounts: 'read' });
    const full = (await workbookOf(await both.post('/api/lead/download', mine, { lang: 'en' }))).worksheets[0]!;
    expect((full.getRow(5).values as unknown[]).slice(1, 6)).toEqual(['Lead No.', 'Created', 'Client', 'Phones', 'E-mails']);
  });

  it('leaves out the drafts the list leaves out (a lead added and never filled in)', async () => {
    const added = await agent.post('/api/lead/add', {});
    const draft = added.json().id as number;
    const ws = await sheet({}, 'en');
    const ids: unknown[] = [];
    ws.eachRow((row, n) => n > 5 && ids.push(row.getCell(1).value));
    expect(ids).toContain(first);
    expect(ids).not.toContain(draft);
  });

  it('is in the action log with its filter in every language; bad input is refused, and so is a reader not signed in', async () => {
    await sheet({ ...mine, priorities: [4] }, 'en');
    const [row] = await db.select().from(actionLog).where(eq(actionLog.action, 'Download')).orderBy(desc(actionLog.id)).limit(1);
    expect(row).toMatchObject({ actionBy: agent.id, entity: 'Lead', message: 'Leads.xlsx' });
    expect(row!.data).toEqual({
      rows: 1,
      filter: {
        en: "Showing: Priorities: Urgent; Client's last name: Leadsheetou",
        el: 'Εμφανίζονται: Προτεραιότητες: Επείγουσα; Επώνυμο πελάτη: Leadsheetou',
        ru: expect.stringMatching(/^Показаны: .+: .+; .+: Leadsheetou$/),
      },
    });
    expect((await agent.post('/api/lead/download', { stages: [0] })).statusCode).toBe(400);
    expect((await agent.post('/api/lead/download', { sortBy: 'nonsense' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/lead/download', payload: {} })).statusCode).toBe(401);
  });
});
