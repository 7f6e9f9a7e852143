import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { csv, importCalls } from '../../../test/imports.ts';
import { accounts, actionLog, leads } from '../../db/schema/index.ts';
import { workbookOf } from '../../../test/xlsx.ts';

/** Leads (clients' requests) from a spreadsheet: the client found by phone or e-mail or made, the lead with every described field. */
const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });

const { send, preview, run } = importCalls('leads', admin);
const countOf = async (table: typeof leads | typeof accounts) => (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
const tag = () => Math.random().toString(36).slice(2, 8);
const leadsOf = async (accountId: number) => (await db.select().from(leads).where(eq(leads.accountId, accountId)).orderBy(leads.id)) as Record<string, unknown>[];

const EL_HEADERS = [
  'Ονοματεπώνυμο', 'Κινητό', 'Email', 'Αγορά', 'Ενοικίαση', 'Προϋπολογισμός αγοράς από', 'Προϋπολογισμός αγοράς έως', 'Επιθυμητή περιοχή',
  'Επιθυμητά είδη ακινήτου', 'Επιθυμητά χαρακτηριστικά', 'Υπνοδωμάτια τουλάχιστον', 'Στάδιο', 'Προτεραιότητα', 'Πηγή', 'Από', 'Έως', 'Περιγραφή',
];

describe('import of leads', () => {
  it('is for office administrators only', async () => {
    expect((await send('l.csv', csv([EL_HEADERS]), agent)).statusCode).toBe(403);
    expect((await agent.get('/api/import/template?kind=leads')).statusCode).toBe(403);
  });

  it('a good file with Greek headers: an existing client found by phone and marked a client, a new one made; every field stored; the action log names them', async () => {
    const known = (await db.insert(accounts).values({ firstName: 'Νίκος', lastName: `Γεωργίου${tag()}`, phones: ['+30 694 555 1234'], isOwner: true }).returning())[0]!;
    const source = (await db.insert(accounts).values({ firstName: 'Spitogatos', lastName: `Portal${tag()}`, isSource: true }).returning())[0]!;
    const email = `maria.${tag()}@example.gr`;
    const rows = [
      EL_HEADERS,
      [`${known.lastName} Νίκος`, '6945551234', '', 'Ναι', 'Όχι', '150.000', '250.000', 'Πευκοχώρι', 'Μεζονέτα, Διαμέρισμα', 'Πάρκινγκ, Ανελκυστήρας', '2', 'Σε επικοινωνία', 'Υψηλή', source.displayName!, '01/03/2026', '31/12/2026', 'Κοντά στη θάλασσα'],
      ['Παπαδοπούλου Μαρία', '', email, '', 'Ναι', '', '', 'Kalamaria', '', '', '', '', '', '', '', '', ''],
    ];
    const res = await send('ζητήσεις.csv', csv(rows), admin, 'el');
    expect(res.statusCode, res.body).toBe(200);
    const up = res.json();
    expect(up.mapping).toEqual([
      'fullName', 'phone', 'email', 'forPurchase', 'forRent', 'purchaseBudgetRangeMin', 'purchaseBudgetRangeMax', 'locationId',
      'objectSubTypes', 'features', 'bedroomsMin', 'stage', 'priority', 'source', 'startDate', 'endDate', 'description',
    ]);
    const p = await preview(up, 'el');
    expect(p.rows.map((r: { errors: object }) => r.errors)).toEqual([{}, {}]);
    expect(p.rows[0].existing).toEqual({ id: known.id, name: known.displayName });
    expect(p.rows[0].values).toMatchObject({ forPurchase: 'Ναι', purchaseBudgetRangeMax: '250\u00a0000\u00a0€', stage: 'Σε επικοινωνία', priority: 'Υψηλή', features: 'Πάρκινγκ, Ανελκυστήρας', source: source.displayName });
    expect(p.rows[0].values.locationId).toContain('Πευκοχώρι');
    expect(p.counts).toMatchObject({ leads: 2, clients: 1, linked: 1, withErrors: 0, skipped: 0 });

    const before = { leads: await countOf(leads), accounts: await countOf(accounts) };
    const done = await run(up);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().counts).toMatchObject({ leads: 2, clients: 1, linked: 1, owners: 0 });
    expect(await countOf(leads)).toBe(before.leads + 2);
    expect(await countOf(accounts)).toBe(before.accounts + 1);

    const [ofKnown] = await leadsOf(known.id);
    expect(ofKnown).toMatchObject({
      forPurchase: true, forRent: false, purchaseBudgetRangeMin: 150000, purchaseBudgetRangeMax: 250000, objectSubTypes: [1, 3], bedroomsMin: 2,
      stage: 2, priority: 3, source: source.id, startDate: '2026-03-01', endDate: '2026-12-31', description: 'Κοντά στη θάλασσα', draft: false,
    });
    // Kept in the lists' order, as the lead form keeps them.
    expect(ofKnown!.features).toEqual(['elevator', 'parking']);
    expect((await db.select().from(accounts).where(eq(accounts.id, known.id)))[0]).toMatchObject({ isClient: true, isOwner: true, version: known.version + 1 });
    // The new client: named as the file says, a client, with the e-mail; the lead new and normal as Add makes one.
    const [made] = await db.select().from(accounts).where(sql`${email} = any(${accounts.emails})`);
    expect(made).toMatchObject({ lastName: 'Παπαδοπούλου', firstName: 'Μαρία', isClient: true, isOwner: false });
    const [ofMade] = await leadsOf(made!.id);
    expect(ofMade).toMatchObject({ forRent: true, forPurchase: false, stage: 1, priority: 2, draft: false });
    // The leads list and the lead's page show them.
    const view = await agent.get(`/api/lead/view/${ofMade!.id}`);
    expect(view.statusCode, view.body).toBe(200);
    const [entry] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Import'), eq(actionLog.entityId, done.json().id)));
    expect(entry!.data).toMatchObject({ newLeads: 2, newClients: 1, accountIds: [made!.id], linkedAccountIds: [known.id] });
    expect(((entry!.data as { leadIds: number[] }).leadIds).sort()).toEqual([ofKnown!.id, ofMade!.id].sort());
    // Each lead is in the log as one added for a client is, naming the import; so is the account that became a client.
    const leadLog = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.action, 'Create'), sql`${actionLog.entityId} = any(${sql.param([ofKnown!.id, ofMade!.id])}::int[])`));
    expect(leadLog.map((e) => e.data).sort((x, y) => (x as { accountId: number }).accountId - (y as { accountId: number }).accountId)).toEqual(
      [{ accountId: known.id, importId: done.json().id }, { accountId: made!.id, importId: done.json().id }].sort((x, y) => x.accountId - y.accountId),
    );
    const [marked] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Account'), eq(actionLog.entityId, known.id)));
    expect(marked).toMatchObject({ action: 'Update', data: { isClient: true, importId: done.json().id } });
  });

  it('rows with errors are refused at their cells with the reason, and nothing of the file is stored', async () => {
    const rows = [
      ['Full name', 'Phone', 'Purchase', 'Purchase budget from', 'Purchase budget up to', 'Stage', 'Area wanted', 'Features wanted', 'From', 'Until', 'Source'],
      ['Smith John', '6971112233', 'maybe', '300000', '200000', 'Sleeping', 'Atlantis', 'Lift, Helipad', '31/02/2026', '', 'Nobody'],
      ['Smith', '6971112234', '', '', '', '', '', '', '10/05/2026', '01/05/2026', ''],
    ];
    const up = (await send('bad.csv', csv(rows))).json();
    const p = await preview(up);
    expect(p.rows[0].errors).toEqual({
      forPurchase: '“maybe”: write Yes or No.',
      purchaseBudgetRangeMax: 'The budget “up to” cannot be lower than “from”',
      stage: '“Sleeping” is not one of the values of this list.',
      locationId: '“Atlantis” is not in the list of areas.',
      features: '“Helipad” is not one of the values of this list.',
      startDate: '“31/02/2026” is not a date (write it as 31/12/2026).',
      source: '“Nobody” is not one of the values of this list.',
    });
    expect(p.rows[1].errors).toEqual({ fullName: '“Smith”: write the surname, then the first name.', endDate: 'The end date cannot be before the start date' });
    expect(p.counts).toMatchObject({ withErrors: 2, leads: 0 });
    const before = { leads: await countOf(leads), accounts: await countOf(accounts) };
    const refused = await run(up);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().title).toBe('Rows with errors: 2. Correct the file, or tick “Skip rows with errors”.');
    expect(await countOf(leads)).toBe(before.leads);
    expect(await countOf(accounts)).toBe(before.accounts);
  });

  it('a re-import makes no second lead: the same file is refused, and a row whose client has the same lead is shown and left out', async () => {
    const phone = `69${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const first = [['Surname', 'First name', 'Phone', 'Rent', 'Monthly rent up to'], ['Ivanova', 'Olga', phone, 'Yes', '900']];
    const up = (await send('rent.csv', csv(first))).json();
    expect((await run(up)).statusCode).toBe(200);
    // The same file again: refused whole.
    const again = (await send('rent.csv', csv(first))).json();
    expect((await run(again)).statusCode).toBe(409);
    // A file with the same row and a new one: the stored lead is shown and left out, the new one made for the same client.
    const more = (await send('rent-2.csv', csv([...first, ['Ivanova', 'Olga', phone, 'Yes', '1200']]))).json();
    const p = await preview(more);
    const [client] = await db.select().from(accounts).where(sql`${phone} = any(${accounts.phones})`);
    const [stored] = await leadsOf(client!.id);
    expect(p.rows[0].existing).toEqual({ id: stored!.id, name: `Lead #${stored!.id} – ${client!.displayName}, with the same values` });
    expect(p.counts).toMatchObject({ leads: 1, skipped: 1, clients: 0, linked: 1 });
    // Two equal rows in one file: the second is an error.
    const twice = (await send('twice.csv', csv([...first.slice(0, 1), ['Petrova', 'Anna', '2310999888', 'Yes', '700'], ['Petrova', 'Anna', '2310999888', 'Yes', '700']]))).json();
    expect((await preview(twice)).rows[1].errors).toEqual({ '': 'The same lead as in row 2.' });
    const done = await run(more);
    expect(done.statusCode, done.body).toBe(200);
    const all = await leadsOf(client!.id);
    expect(all.map((l) => l.rentBudgetRangeMax)).toEqual([900, 1200]);
  });

  it('reads Russian headers and values; an imported lead is no draft and takes the version guard', async () => {
    const rows = [['ФИО', 'Телефон', 'Покупка', 'Бюджет покупки до', 'Этап', 'Приоритет', 'Желаемые особенности'], ['Смирнов Алексей', '+7 916 123 45 67', 'Да', '400 000', 'Переговоры', 'Срочный', 'Лифт']];
    const up = (await send('заявки.csv', csv(rows), admin, 'ru')).json();
    expect(up.mapping).toEqual(['fullName', 'phone', 'forPurchase', 'purchaseBudgetRangeMax', 'stage', 'priority', 'features']);
    const p = await preview(up, 'ru');
    expect(p.rows[0].errors).toEqual({});
    expect(p.rows[0].values).toMatchObject({ forPurchase: 'Да', stage: 'Переговоры', priority: 'Срочный', features: 'Лифт' });
    expect((await run(up)).statusCode).toBe(200);
    const [client] = await db.select().from(accounts).where(sql`'+7 916 123 45 67' = any(${accounts.phones})`);
    const [lead] = await leadsOf(client!.id);
    expect(lead).toMatchObject({ purchaseBudgetRangeMax: 400000, stage: 5, priority: 4, features: ['elevator'], draft: false, version: 1 });
    const stale = await admin.post('/api/lead/update', { id: lead!.id, version: 0, description: 'x' });
    expect(stale.statusCode).toBe(409);
    expect((await admin.post('/api/lead/update', { id: lead!.id, version: 1, description: 'Ζητά θέα' })).statusCode).toBe(200);
  });

  it('the template has the lead’s headers in the reader’s language, and they map back to their fields', async () => {
    const res = await admin.get('/api/import/template?kind=leads', { lang: 'el' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('Leads-template.xlsx');
    const wb = await workbookOf(res);
    const headers = (wb.worksheets[0]!.getRow(1).values as string[]).slice(1);
    expect(headers.slice(0, 4)).toEqual(['Επώνυμο', 'Όνομα', 'Τηλέφωνα', 'E-mail']);
    expect(headers).toContain('Προϋπολογισμός αγοράς έως');
    const wb2 = new ExcelJS.Workbook();
    wb2.addWorksheet('x').addRow(headers);
    wb2.worksheets[0]!.addRow(['Α', 'Β']);
    const up = (await send('template.xlsx', Buffer.from(await wb2.xlsx.writeBuffer()))).json();
    expect(up.mapping).toEqual(['lastName', 'firstName', 'phone', 'email', ...(await import('@crm/contract')).LEAD_FIELDS.map((d) => d.name)]);
  });
});

describe('import of leads, again and with rows left out', () => {
  it('a file made from the template with its stage, priority and start left empty, imported again, makes no second lead', async () => {
    const phone = `2310${Math.floor(100000 + Math.random() * 899999)}`;
    const who = `Again${tag()}`;
    const head = ['Surname', 'First name', 'Phone', 'Rent', 'Stage', 'Priority', 'From'];
    const first = await send('again1.csv', csv([head, [who, 'Anna', phone, 'Yes', '', '', '']]));
    expect(first.statusCode, first.body).toBe(200);
    expect((await run(first.json())).statusCode).toBe(200);
    const [client] = await db.select().from(accounts).where(eq(accounts.lastName, who));
    // The stored lead took its defaults where the file was empty: new, normal, from today.
    expect((await leadsOf(client!.id)).map((l) => [l.stage, l.priority, l.startDate != null])).toEqual([[1, 2, true]]);
    // The same row again, and a new one: the first is the lead stored, only the second is made.
    const second = await send('again2.csv', csv([head, [who, 'Anna', phone, 'Yes', '', '', ''], [who, 'Anna', phone, 'No', '', '', '']]));
    const p = await preview(second.json());
    expect(p.counts).toMatchObject({ leads: 1, skipped: 1 });
    expect((await run(second.json())).statusCode).toBe(200);
    expect(await leadsOf(client!.id)).toHaveLength(2);
  });

  it('a row left out for its error takes no later row of the same person with it: that row makes its own client, never a lead without one', async () => {
    const phone = `2310${Math.floor(100000 + Math.random() * 899999)}`;
    const who = `Skipped${tag()}`;
    const head = ['Surname', 'First name', 'Phone', 'Rent', 'Stage'];
    const up = await send('skip.csv', csv([head, [who, 'Eleni', phone, 'Yes', 'No such stage'], [who, 'Eleni', phone, 'Yes', '']]));
    expect(up.statusCode, up.body).toBe(200);
    const p = await preview(up.json());
    expect(p.counts).toMatchObject({ leads: 1, clients: 1, withErrors: 1 });
    const orphansBefore = (await db.select({ n: sql<number>`count(*)::int` }).from(leads).where(and(sql`${leads.accountId} is null`, eq(leads.draft, false))))[0]!.n;
    const res = await run(up.json(), true);
    expect(res.statusCode, res.body).toBe(200);
    const [client] = await db.select().from(accounts).where(eq(accounts.lastName, who));
    expect(await leadsOf(client!.id)).toHaveLength(1);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(leads).where(and(sql`${leads.accountId} is null`, eq(leads.draft, false))))[0]!.n).toBe(orphansBefore);
  });
  it('a client named by name alone is found though the CRM has her middle name too', async () => {
    const who = `Patronym${tag()}`;
    const [stored] = await db.insert(accounts).values({ firstName: 'Μαρία', lastName: who, middleName: 'Γεωργίου', isClient: true }).returning();
    const up = (await send('middle.csv', csv([['Surname', 'First name', 'Rent', 'Monthly rent up to'], [who.toUpperCase(), 'ΜΑΡΙΑ', 'Yes', '700']]))).json();
    const p = await preview(up);
    expect(p.rows[0].existing?.id).toBe(stored!.id);
    expect(p.counts).toMatchObject({ leads: 1, clients: 0 });
    // Her full name in one column, the middle name after the first, as a file writes a patronymic.
    const up2 = (await send('middle2.csv', csv([['Full name', 'Rent', 'Monthly rent up to'], [`${who} Μαρία Γεωργίου`, 'Yes', '750']]))).json();
    const p2 = await preview(up2);
    expect(p2.rows[0].existing?.id).toBe(stored!.id);
    // A namesake without the middle name: the row naming exactly her is hers, not two of one name.
    const [plain] = await db.insert(accounts).values({ firstName: 'Μαρία', lastName: who, isClient: true }).returning();
    const p3 = await preview((await send('middle3.csv', csv([['Surname', 'First name', 'Rent', 'Monthly rent up to'], [who, 'Μαρία', 'Yes', '700']]))).json());
    expect(p3.rows[0].existing?.id).toBe(plain!.id);
  });

  it('a client named by name alone is found again by that name on a re-run (one client, said so); two such clients of one name, or one with a phone, are not', async () => {
    const who = `Onlyname${tag()}`;
    const head = ['Surname', 'First name', 'Rent', 'Monthly rent up to'];
    const first = (await send('names1.csv', csv([head, [who, 'Anna', 'Yes', '800']]))).json();
    expect((await run(first)).statusCode).toBe(200);
    const [client, ...others] = await db.select().from(accounts).where(eq(accounts.lastName, who));
    expect(others).toEqual([]);
    // The same row and a new request of hers, in another file: the stored lead is left out, the new one is hers.
    const again = (await send('names2.csv', csv([head, [who, 'Anna', 'Yes', '800'], [who.toUpperCase(), 'anna', 'Yes', '950']]))).json();
    const p = await preview(again);
    expect(p.rows.map((r: { errors: object }) => r.errors)).toEqual([{}, {}]);
    expect(p.rows[1].existing).toEqual({ id: client!.id, name: `${client!.displayName} (found by the full name; neither has a phone or e-mail)` });
    expect(p.counts).toMatchObject({ leads: 1, clients: 0, linked: 1, skipped: 1 });
    expect((await run(again)).statusCode).toBe(200);
    expect(await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.lastName, who))).toEqual([{ id: client!.id }]);
    expect((await leadsOf(client!.id)).map((l) => l.rentBudgetRangeMax)).toEqual([800, 950]);

    // A name typed in capitals or without accents is the same name (Greek capitals end in Σ, not ς).
    const greek = `Παπάς${tag()}`;
    const [papas] = await db.insert(accounts).values({ lastName: greek, firstName: 'Ελένη', isClient: true }).returning();
    const caps = await preview((await send('names4.csv', csv([head, [greek.toUpperCase().normalize('NFD').replace(/\p{M}/gu, ''), 'ΕΛΕΝΗ', 'Yes', '600'], [greek.normalize('NFD').replace(/\p{M}/gu, ''), 'Ελενη', 'Yes', '650']]))).json());
    expect(caps.rows.map((r: { existing: { id: number } | null }) => r.existing?.id)).toEqual([papas!.id, papas!.id]);
    expect(caps.counts).toMatchObject({ clients: 0, linked: 2 });

    // Two clients of one name without contacts, and one of another name with a phone: neither is taken by name.
    const twin = `Twin${tag()}`;
    await db.insert(accounts).values([{ lastName: twin, firstName: 'Maria', isClient: true }, { lastName: twin, firstName: 'Maria', isClient: true }]);
    const phoned = (await db.insert(accounts).values({ lastName: `Phoned${tag()}`, firstName: 'Olga', isClient: true, phones: ['2310 555 111'] }).returning())[0]!;
    const p2 = await preview((await send('names3.csv', csv([head, [twin, 'Maria', 'Yes', '700'], [phoned.lastName!, 'Olga', 'Yes', '700']]))).json());
    expect(p2.rows.map((r: { existing: unknown }) => r.existing)).toEqual([null, null]);
    expect(p2.counts).toMatchObject({ clients: 2, linked: 0 });
  });

  it('with "skip rows with errors", a lead whose client is already in the CRM (by phone or by name) is made, only the row with the error is left out', async () => {
    const phone = `2310${Math.floor(100000 + Math.random() * 899999)}`;
    const known = (await db.insert(accounts).values({ lastName: `Known${tag()}`, firstName: 'Nikos', phones: [phone], isClient: true }).returning())[0]!;
    const named = (await db.insert(accounts).values({ lastName: `Named${tag()}`, firstName: 'Eleni', isClient: true }).returning())[0]!;
    const head = ['Surname', 'First name', 'Phone', 'Rent', 'Stage'];
    const up = (await send('skip-known.csv', csv([head, [known.lastName!, 'Nikos', phone, 'Yes', ''], [`Bad${tag()}`, 'Kostas', '', 'Yes', 'No such stage'], [named.lastName!, 'Eleni', '', 'Yes', '']]))).json();
    const p = await preview(up);
    expect(p.counts).toMatchObject({ leads: 2, linked: 2, clients: 0, withErrors: 1 });
    const res = await run(up, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().counts).toMatchObject({ leads: 2, linked: 2, skipped: 1 });
    expect(await leadsOf(known.id)).toHaveLength(1);
    expect(await leadsOf(named.id)).toHaveLength(1);
  });
});
