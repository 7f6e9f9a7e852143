import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { DEAL_FIELDS, DEAL_STAGE_CLOSED, DEAL_TYPE_RENTAL, DEAL_TYPE_SALE, OWNER_RELATION } from '@crm/contract';
import { createTestApp } from '../../../test/harness.ts';
import { csv, importCalls } from '../../../test/imports.ts';
import { accounts, actionLog, dealParties, deals, objectAccounts, objects, users } from '../../db/schema/index.ts';
import { workbookOf } from '../../../test/xlsx.ts';
import { dealTotals, keptDealTotals } from '../deals/deals.service.ts';

/** Deals from a spreadsheet: the property by its reference number, its owners as sellers, the client found or made, every described field. */
const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });

const { send, preview, run } = importCalls('deals', admin);
const countOf = async (table: typeof deals | typeof accounts) => (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
const tag = () => Math.random().toString(36).slice(2, 8);
const dealsOf = async (objectId: number) => (await db.select().from(deals).where(eq(deals.objectId, objectId)).orderBy(deals.id)) as Record<string, unknown>[];
const partiesOf = async (dealId: number) =>
  (await db.select({ accountId: dealParties.accountId, relation: dealParties.relation }).from(dealParties).where(eq(dealParties.dealId, dealId)).orderBy(dealParties.position));

async function person(extra: Partial<typeof accounts.$inferInsert> = {}) {
  const [a] = await db.insert(accounts).values({ firstName: 'Γιώργος', lastName: `Παπαδόπουλος${tag()}`, ...extra }).returning();
  return a!;
}
/** A property with an owner, and its reference number as a cell writes it. */
async function property(ownerId?: number) {
  const [o] = await db.insert(objects).values({ title: 'Διαμέρισμα Καλαμαριά' } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  if (ownerId) await db.insert(objectAccounts).values({ objectId: o!.id, accountId: ownerId, relation: OWNER_RELATION });
  return { id: o!.id, ref: String(o!.ref).padStart(4, '0') };
}

const EL_HEADERS = [
  'Κωδικός ακινήτου', 'Ονοματεπώνυμο', 'Κινητό', 'Email', 'Είδος συμφωνίας', 'Στάδιο', 'Ζητούμενη τιμή', 'Τελική τιμή', 'Αρραβώνας / εγγύηση', 'Μεσιτική αμοιβή',
  'Ημερομηνία αρραβώνα / εγγύησης', 'Έναρξη διαπραγμάτευσης', 'Ημερομηνία υπογραφής συμβολαίου', 'Διάρκεια συμβολαίου (μήνες)', 'Έναρξη μίσθωσης', 'Λήξη μίσθωσης', 'Σημειώσεις',
];

describe('import of deals', () => {
  it('is for office administrators only', async () => {
    expect((await send('d.csv', csv([EL_HEADERS]), agent)).statusCode).toBe(403);
    expect((await agent.get('/api/import/template?kind=deals')).statusCode).toBe(403);
  });

  it('a good Greek file: the property’s owner as seller, a client found by phone and one made; every field stored; the property sold; the log; the kept totals agree', async () => {
    const owner = await person();
    const known = await person({ firstName: 'Νίκος', lastName: `Γεωργίου${tag()}`, phones: ['+30 694 555 7788'] });
    const [a, b] = [await property(owner.id), await property()];
    const email = `maria.${tag()}@example.gr`;
    const rows = [
      EL_HEADERS,
      [a.ref, `${known.lastName} Νίκος`, '6945557788', '', 'Πώληση', 'Ολοκληρώθηκε', '200.000', '185.000,50', '18.500', '3.700', '15/01/2026', '10/01/2026', '20/03/2026', '12', '', '', 'Πληρωμή με δάνειο'],
      [`#${b.ref}`, 'Παπαδοπούλου Μαρία', '', email, 'Μίσθωση', 'Δόθηκε εγγύηση', '', '750', '1.500', '', '01/02/2026', '', '', '', '01/03/2026', '28/02/2027', ''],
    ];
    const res = await send('συμφωνίες.csv', csv(rows), admin, 'el');
    expect(res.statusCode, res.body).toBe(200);
    const up = res.json();
    expect(up.mapping).toEqual(['referenceNumber', 'fullName', 'phone', 'email', ...DEAL_FIELDS.map((d) => d.name)]);
    const p = await preview(up, 'el');
    expect(p.rows.map((r: { errors: object }) => r.errors)).toEqual([{}, {}]);
    expect(p.rows[0].existing).toEqual({ id: known.id, name: known.displayName });
    expect(p.rows[0].values).toMatchObject({ referenceNumber: `${a.ref} · Διαμέρισμα Καλαμαριά`, dealType: 'Πώληση', dealStage: 'Ολοκληρώθηκε', price: '185\u00a0000,50\u00a0€', endDate: '20/03/2026' });
    expect(p.counts).toMatchObject({ deals: 2, clients: 1, linked: 1, withErrors: 0, skipped: 0 });

    const before = { deals: await countOf(deals), accounts: await countOf(accounts) };
    const done = await run(up);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().counts).toMatchObject({ deals: 2, clients: 1, linked: 1, owners: 0 });
    expect(await countOf(deals)).toBe(before.deals + 2);
    expect(await countOf(accounts)).toBe(before.accounts + 1);

    const [sale] = await dealsOf(a.id);
    expect(sale).toMatchObject({
      dealType: 2, dealStage: 5, askingPrice: 200000, price: 185000.5, deposit: 18500, commission: 3700, dateOfDeposit: '2026-01-15', startDate: '2026-01-10',
      endDate: '2026-03-20', contractDurationMonths: 12, rentStart: null, rentExpiration: null, notes: 'Πληρωμή με δάνειο', version: 1,
    });
    expect(await partiesOf(sale!.id as number)).toEqual([{ accountId: owner.id, relation: 1 }, { accountId: known.id, relation: 2 }]);
    // Closed as a sale: the property is sold, as a deal closed in the form makes it.
    expect((await db.execute(sql`select sold from objects where id = ${a.id}`)).rows[0]).toEqual({ sold: true });
    // The new client: named as the file says, a client, with the e-mail; the tenant of the rental (no owner on that property).
    const [made] = await db.select().from(accounts).where(sql`${email} = any(${accounts.emails})`);
    expect(made).toMatchObject({ lastName: 'Παπαδοπούλου', firstName: 'Μαρία', isClient: true });
    const [rental] = await dealsOf(b.id);
    expect(rental).toMatchObject({ dealType: 1, dealStage: 2, price: 750, deposit: 1500, dateOfDeposit: '2026-02-01', rentStart: '2026-03-01', rentExpiration: '2027-02-28', contractDurationMonths: null });
    expect(await partiesOf(rental!.id as number)).toEqual([{ accountId: made!.id, relation: 2 }]);
    // The deal's page shows it.
    const view = await agent.get(`/api/Deal/edit/${sale!.id}`, { lang: 'el' });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({ objectReferenceNumber: a.ref, accounts: [{ accountId: owner.id, relation: 1 }, { accountId: known.id, relation: 2 }] });

    const [entry] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Import'), eq(actionLog.entityId, done.json().id)));
    expect(entry!.data).toMatchObject({ newDeals: 2, newClients: 1, accountIds: [made!.id], linkedAccountIds: [known.id] });
    expect(((entry!.data as { dealIds: number[] }).dealIds).sort()).toEqual([sale!.id, rental!.id].sort());
    // Each deal is in the log as one made in the form is, naming the import.
    const dealLog = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Deal'), eq(actionLog.action, 'Create'), inArray(actionLog.entityId, [sale!.id as number, rental!.id as number])));
    expect(dealLog).toHaveLength(2);
    for (const e of dealLog) expect(e.data).toMatchObject({ importId: done.json().id });
    // The kept totals (decision 072) agree with the deals.
    await db.execute(sql`select crm_deal_totals_fold()`);
    for (const f of [{}, { dealType: 2 }, { dealType: 1, stages: [2] }]) expect(await keptDealTotals(db, f, true)).toEqual(await dealTotals(db, f.dealType ? sql`deal_type = ${f.dealType}${'stages' in f ? sql` and deal_stage = 2` : sql``}` : undefined, true));
  });

  it('rows with errors are refused at their cells with the reason, and nothing of the file is stored', async () => {
    const a = await property();
    const rows = [
      ['Property reference no.', 'Full name', 'Phone', 'Deal type', 'Stage', 'Final price', 'Closing date', 'Contract duration (months)', 'Rent start', 'Rent expiration', 'Start of negotiations'],
      ['999999999', 'Smith John', '6971112233', 'Swap', 'Sleeping', '12,3456', '31/02/2026', '', '', '', ''],
      [a.ref, 'Smith', '', 'Rental', 'Closed', '', '', '12', '10/05/2026', '01/05/2026', ''],
      ['', 'Brown Anna', '', 'Sale', '', '', '01/01/2026', '', '01/01/2026', '', '05/01/2026'],
    ];
    const up = (await send('bad.csv', csv(rows))).json();
    const p = await preview(up);
    expect(p.rows[0].errors).toEqual({
      referenceNumber: 'No property has the reference number “999999999”.',
      dealType: '“Swap” is not one of the values of this list.',
      dealStage: '“Sleeping” is not one of the values of this list.',
      price: '“12,3456” has too many decimals (at most 2).',
      endDate: '“31/02/2026” is not a date (write it as 31/12/2026).',
    });
    expect(p.rows[1].errors).toEqual({
      fullName: '“Smith”: write the surname, then the first name.',
      contractDurationMonths: 'The contract duration is for sales only.',
      rentExpiration: 'The end cannot be before the start.',
    });
    expect(p.rows[2].errors).toEqual({
      referenceNumber: 'This field is required',
      dealStage: 'This field is required',
      rentStart: 'Rent start and expiration are for rentals only.',
      endDate: 'The end cannot be before the start.',
    });
    expect(p.counts).toMatchObject({ withErrors: 3, deals: 0 });
    const before = { deals: await countOf(deals), accounts: await countOf(accounts) };
    const refused = await run(up);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().title).toBe('Rows with errors: 3. Correct the file, or tick “Skip rows with errors”.');
    expect(await countOf(deals)).toBe(before.deals);
    expect(await countOf(accounts)).toBe(before.accounts);
  });

  it('a re-import makes no second deal: the same file is refused, and a row whose deal is stored is shown and left out', async () => {
    const phone = `69${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const a = await property();
    const head = ['Property reference no.', 'Surname', 'First name', 'Phone', 'Deal type', 'Stage', 'Final price'];
    const first = [head, [a.ref, 'Ivanova', 'Olga', phone, 'Rental', 'Negotiation', '900']];
    expect((await run((await send('rent.csv', csv(first))).json())).statusCode).toBe(200);
    // The same file again: refused whole.
    expect((await run((await send('rent.csv', csv(first))).json())).statusCode).toBe(409);
    // The same row with a cell left empty, and a new one: the stored deal is shown and left out, the new one made.
    const more = (await send('rent-2.csv', csv([head, [a.ref, 'Ivanova', 'Olga', phone, 'Rental', 'Negotiation', ''], [a.ref, 'Ivanova', 'Olga', phone, 'Rental', 'Negotiation', '1200']]))).json();
    const p = await preview(more);
    const [stored] = await dealsOf(a.id);
    expect(p.rows[0].existing).toEqual({ id: stored!.id, name: `Deal #${stored!.id}, already in the CRM with the same values` });
    expect(p.counts).toMatchObject({ deals: 1, skipped: 1, clients: 0, linked: 1 });
    // Two equal rows in one file: the second is an error.
    const twice = (await send('twice.csv', csv([head, [a.ref, 'Petrova', 'Anna', '2310999777', 'Sale', 'Negotiation', '5000'], [a.ref, 'Petrova', 'Anna', '2310999777', 'Sale', 'Negotiation', '5000']]))).json();
    expect((await preview(twice)).rows[1].errors).toEqual({ '': 'The same deal as in row 2.' });
    expect((await run(more)).statusCode).toBe(200);
    expect((await dealsOf(a.id)).map((d) => d.price)).toEqual([900, 1200]);
  });

  it('a row left out for its error takes no later row of its client with it: that row makes its own client, never a deal without one', async () => {
    const phone = `2310${Math.floor(100000 + Math.random() * 899999)}`;
    const who = `Skipped${tag()}`;
    const a = await property();
    const head = ['Property reference no.', 'Surname', 'First name', 'Phone', 'Deal type', 'Stage'];
    const up = (await send('skip.csv', csv([head, [a.ref, who, 'Eleni', phone, 'Sale', 'No such stage'], [a.ref, who, 'Eleni', phone, 'Sale', 'Negotiation']]))).json();
    expect((await preview(up)).counts).toMatchObject({ deals: 1, clients: 1, withErrors: 1 });
    expect((await run(up, true)).statusCode).toBe(200);
    const [client] = await db.select().from(accounts).where(eq(accounts.lastName, who));
    const [deal] = await dealsOf(a.id);
    expect(await partiesOf(deal!.id as number)).toEqual([{ accountId: client!.id, relation: 2 }]);
  });

  it('a row left out for an error found with its property (type, stage, reference, a field of the other type, dates out of order) takes no later row of its client with it', async () => {
    const head = ['Property reference no.', 'Surname', 'First name', 'Phone', 'Deal type', 'Stage', 'Contract duration (months)', 'Start of negotiations', 'Closing date'];
    const faults: [string, (ref: string) => string[]][] = [
      ['no type', (ref) => [ref, '', '', '', 'Negotiation', '', '', '']],
      ['no stage', (ref) => [ref, '', '', 'Sale', '', '', '', '']],
      ['unknown property', () => ['999999999', '', '', 'Sale', 'Negotiation', '', '', '']],
      ['a sale’s field on a rental', (ref) => [ref, '', '', 'Rental', 'Negotiation', '12', '', '']],
      ['dates out of order', (ref) => [ref, '', '', 'Sale', 'Negotiation', '', '10/05/2026', '01/05/2026']],
    ];
    for (const [what, fault] of faults) for (const byPhone of [true, false]) {
      const phone = byPhone ? `2310${Math.floor(100000 + Math.random() * 899999)}` : '';
      const who = `Later${tag()}`;
      const a = await property();
      const [ref, , , , ...rest] = fault(a.ref);
      const up = (await send(`skip-${tag()}.csv`, csv([head, [ref!, who, 'Eleni', phone, ...rest], [a.ref, who, 'Eleni', phone, 'Sale', 'Negotiation', '', '', '']]))).json();
      const p = await preview(up);
      expect(Object.keys(p.rows[0].errors).length, what).toBeGreaterThan(0);
      expect(p.counts, what).toMatchObject({ deals: 1, clients: 1, withErrors: 1 });
      const done = await run(up, true);
      expect(done.statusCode, `${what}: ${done.body}`).toBe(200);
      const [client] = await db.select().from(accounts).where(eq(accounts.lastName, who));
      const [deal] = await dealsOf(a.id);
      expect(await partiesOf(deal!.id as number), what).toEqual([{ accountId: client!.id, relation: 2 }]);
    }
  });

  it('two imports at once, closing deals on the same properties in opposite order, both end well and the row both files hold makes one deal', async () => {
    const [a, b, c] = [await property((await person()).id), await property((await person()).id), await property()];
    const head = ['Property reference no.', 'Surname', 'First name', 'Phone', 'Deal type', 'Stage', 'Final price', 'Deposit', 'Deposit date', 'Closing date'];
    const phone = () => `69${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const shared = [c.ref, `Both${tag()}`, 'Anna', phone(), 'Sale', 'Negotiation', '99000', '', '', ''];
    const closed = (ref: string) => [ref, `Buyer${tag()}`, 'Nikos', phone(), 'Rental', 'Closed', '800', '1600', '01/03/2026', '05/03/2026'];
    const one = (await send('one.csv', csv([head, closed(a.ref), closed(b.ref), shared]))).json();
    const two = (await send('two.csv', csv([head, closed(b.ref), closed(a.ref), shared]))).json();
    const answers = await Promise.all([run(one), run(two)]);
    for (const res of answers) expect([200, 400, 409], res.body).toContain(res.statusCode);
    expect(answers.some((res) => res.statusCode === 200)).toBe(true);
    expect(await dealsOf(c.id)).toHaveLength(1);
  });

  it('a client named by name alone is the stored deal’s on a re-run: the same deal is left out, one moved to another stage too, a new one takes that client', async () => {
    const who = `Byname${tag()}`;
    const a = await property();
    const head = ['Property reference no.', 'Surname', 'First name', 'Deal type', 'Stage', 'Final price'];
    const row = [a.ref, who, 'Σοφία', 'Rental', 'Negotiation', '700'];
    expect((await run((await send('n1.csv', csv([head, row]))).json())).statusCode).toBe(200);
    const [stored] = await dealsOf(a.id);
    const [client] = await db.select().from(accounts).where(eq(accounts.lastName, who));
    const people = await countOf(accounts);
    // Written as another file writes it (capitals, no accent): the same person.
    const again = (await send('n2.csv', csv([head, [a.ref, who.toUpperCase(), 'ΣΟΦΙΑ', 'Rental', 'Negotiation', '700']]))).json();
    const p = await preview(again);
    expect(p.rows[0].existing).toEqual({ id: stored!.id, name: `Deal #${stored!.id}, already in the CRM with the same values` });
    expect(p.counts).toMatchObject({ deals: 0, skipped: 1, clients: 0 });
    // The deal moved on in the CRM: the file's row is shown at its stage and left out.
    await db.execute(sql`update deals set deal_stage = 2 where id = ${stored!.id}`);
    const moved = (await send('n3.csv', csv([head, row, [a.ref, who, 'Σοφία', 'Rental', 'Negotiation', '750']]))).json();
    const q = await preview(moved, 'el');
    expect(q.rows[0].existing).toEqual({ id: stored!.id, name: `Η συμφωνία #${stored!.id} υπάρχει ήδη στο CRM σε άλλο στάδιο (Δόθηκε εγγύηση)` });
    expect((await preview(moved, 'ru')).rows[0].existing.name).toBe(`Сделка № ${stored!.id} уже есть в CRM на другом этапе (Залог внесён)`);
    expect(q.counts).toMatchObject({ deals: 0, skipped: 2 });
    // A deal of the same client at the file's stage with other values is a new deal, for that client.
    // The file's other row of that name alone (another property) is the same client too.
    const b = await property();
    const other = (await send('n4.csv', csv([head, [b.ref, who, 'Σοφία', 'Sale', 'Negotiation', '90000'], [a.ref, who, 'Σοφία', 'Rental', 'Deposit paid', '750']]))).json();
    expect((await preview(other)).counts).toMatchObject({ deals: 2, linked: 2, clients: 0 });
    expect((await run(other)).statusCode).toBe(200);
    const all = await dealsOf(a.id);
    expect(all).toHaveLength(2);
    expect(await partiesOf(all[1]!.id as number)).toEqual([{ accountId: client!.id, relation: 2 }]);
    expect(await partiesOf((await dealsOf(b.id))[0]!.id as number)).toEqual([{ accountId: client!.id, relation: 2 }]);
    expect(await countOf(accounts)).toBe(people);
  });

  it('a client found by phone who owns the property is an error at the phone, in the reader’s language', async () => {
    const owner = await person({ phones: [`+30 697 ${Math.floor(1000000 + Math.random() * 8999999)}`] });
    const a = await property(owner.id);
    const head = ['Property reference no.', 'Full name', 'Phone', 'Deal type', 'Stage'];
    const up = (await send('own.csv', csv([head, [a.ref, owner.lastName + ' Γιώργος', owner.phones![0]!, 'Sale', 'Negotiation']]))).json();
    expect((await preview(up)).rows[0].errors).toEqual({ phone: 'This phone or e-mail belongs to the property’s owner: the buyer or tenant must be another person.' });
    expect((await preview(up, 'el')).rows[0].errors).toEqual({ phone: 'Αυτό το τηλέφωνο ή e-mail ανήκει στον ιδιοκτήτη του ακινήτου· ο αγοραστής ή ο μισθωτής πρέπει να είναι άλλο πρόσωπο.' });
    expect((await run(up)).statusCode).toBe(400);
    expect(await dealsOf(a.id)).toEqual([]);
  });

  it('a file of more deals than one import makes in well under a minute is refused with the reason', async () => {
    const head = ['Property reference no.', 'Deal type', 'Stage'];
    const res = await send('big.csv', csv([head, ...Array.from({ length: 2001 }, () => ['1', 'Sale', 'Negotiation'])]));
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toMatch(/^The file has more than 2\D?000 rows\. Split it into smaller files\.$/);
    expect((await send('fits.csv', csv([head, ...Array.from({ length: 2000 }, () => ['1', 'Sale', 'Negotiation'])]))).statusCode).toBe(200);
    // The kind's own maximum, however far past it the file goes, and counted under a header found lower down.
    const far = await send('far.csv', csv([head, ...Array.from({ length: 2030 }, () => ['1', 'Sale', 'Negotiation'])]));
    expect(far.json().title).toMatch(/^The file has more than 2\D?000 rows\./);
    const titled = [['Deals', '', ''], ['Exported 01/03/2026', '', ''], head];
    expect((await send('titled.csv', csv([...titled, ...Array.from({ length: 2000 }, () => ['1', 'Sale', 'Negotiation'])]))).json()).toMatchObject({ headerRow: 3, rowCount: 2000 });
    expect((await send('titled2.csv', csv([...titled, ...Array.from({ length: 2001 }, () => ['1', 'Sale', 'Negotiation'])]))).json().title).toMatch(/^The file has more than 2\D?000 rows\./);
  });

  it('proposes the client’s column from its role and a rental’s price from its rent, in the three languages', async () => {
    for (const client of ['Αγοραστής', 'Μισθωτής', 'Ενοικιαστής', 'Πελάτης', 'Buyer', 'Tenant', 'Client', 'Покупатель', 'Арендатор', 'Клиент']) {
      expect((await send('h.csv', csv([['Κωδικός ακινήτου', client], ['1', 'x']]))).json().mapping, client).toEqual(['referenceNumber', 'fullName']);
    }
    for (const rent of ['Ενοίκιο', 'Μίσθωμα', 'Rent', 'Аренда']) {
      expect((await send('h.csv', csv([['Κωδικός ακινήτου', rent], ['1', 'x']]))).json().mapping, rent).toEqual(['referenceNumber', 'price']);
    }
    for (const [head, key] of [['Agent', 'agent'], ['Πράκτορας', 'agent'], ['Υπεύθυνος', 'agent'], ['Агент', 'agent'], ['Ответственный', 'agent'], ['Lawyer', 'lawyer'], ['Δικηγόρος', 'lawyer'], ['Юрист', 'lawyer'], ['Notary', 'notary'], ['Συμβολαιογράφος', 'notary'], ['Нотариус', 'notary']]) {
      expect((await send('h.csv', csv([['Κωδικός ακινήτου', head!], ['1', 'x']]))).json().mapping, head).toEqual(['referenceNumber', key]);
    }
  });

  it('reads Russian headers and values; an imported deal takes the version guard', async () => {
    const a = await property();
    const rows = [['Номер объекта', 'ФИО', 'Телефон', 'Тип сделки', 'Этап', 'Итоговая цена', 'Дата подписания договора'], [a.ref, 'Смирнов Алексей', '+7 916 765 43 21', 'продажа', 'подписание договора', '400 000', '31.05.2026']];
    const up = (await send('сделки.csv', csv(rows), admin, 'ru')).json();
    expect(up.mapping).toEqual(['referenceNumber', 'fullName', 'phone', 'dealType', 'dealStage', 'price', 'endDate']);
    const p = await preview(up, 'ru');
    expect(p.rows[0].errors).toEqual({});
    // The day as the file wrote it (the preview writes days as the agency does: 31.05.2026 in Russian).
    expect(p.rows[0].values).toMatchObject({ dealType: 'Продажа', dealStage: 'Подписание договора', endDate: '31.05.2026' });
    expect((await run(up)).statusCode).toBe(200);
    const [deal] = await dealsOf(a.id);
    expect(deal).toMatchObject({ dealType: 2, dealStage: 4, price: 400000, endDate: '2026-05-31', version: 1 });
    expect((await admin.post('/api/Deal/update', { id: deal!.id, version: 0, notes: 'x' })).statusCode).toBe(409);
    expect((await admin.post('/api/Deal/update', { id: deal!.id, version: 1, notes: 'Υπογραφή στον συμβολαιογράφο' })).statusCode).toBe(200);
  });

  it('the template has the deal’s headers in the reader’s language, and they map back to their fields', async () => {
    const res = await admin.get('/api/import/template?kind=deals', { lang: 'el' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('Deals-template.xlsx');
    const wb = await workbookOf(res);
    const headers = (wb.worksheets[0]!.getRow(1).values as string[]).slice(1);
    expect(headers.slice(0, 5)).toEqual(['Κωδικός ακινήτου', 'Επώνυμο', 'Όνομα', 'Τηλέφωνα', 'E-mail']);
    expect(headers).toContain('Είδος συμφωνίας');
    // Filled as Deals.xlsx writes its cells: amounts and months as numbers, days as dates, the type and stage by name.
    const a = await property();
    const cell: Record<string, unknown> = { dealType: 'Πώληση', dealStage: 'Διαπραγμάτευση', askingPrice: 200000.5, price: 195000, startDate: new Date(Date.UTC(2026, 0, 15)), contractDurationMonths: 6 };
    const wb2 = new ExcelJS.Workbook();
    wb2.addWorksheet('x').addRow(headers);
    wb2.worksheets[0]!.addRow([Number(a.ref), `Template${tag()}`, 'Άννα', '', '', ...DEAL_FIELDS.map((d) => cell[d.name] ?? null)]);
    const up = (await send('template.xlsx', Buffer.from(await wb2.xlsx.writeBuffer()))).json();
    expect(up.mapping).toEqual(['referenceNumber', 'lastName', 'firstName', 'phone', 'email', ...DEAL_FIELDS.map((d) => d.name), 'agent', 'lawyer', 'notary']);
    const p = await preview(up, 'el');
    expect(p.rows[0].errors).toEqual({});
    expect((await run(up)).statusCode).toBe(200);
    expect((await dealsOf(a.id))[0]).toMatchObject({ dealType: 2, dealStage: 1, askingPrice: 200000.5, price: 195000, startDate: '2026-01-15', contractDurationMonths: 6 });
  });
});

describe('a deal of the file already in the CRM, by its client', () => {
  const stored = async (objectId: number, buyer: number, dealType: number, dealStage: number, price: number) => {
    const [d] = await db.insert(deals).values({ objectId, dealType, dealStage, price } as never).returning({ id: deals.id });
    await db.insert(dealParties).values({ dealId: d!.id, accountId: buyer, relation: 2, position: 0 });
    return d!.id;
  };

  it('two people of one name on two properties: each row is its own property\'s stored deal, not the first one\'s buyer', async () => {
    const last = `Παπαδόπουλος${tag()}`;
    const x1 = await person({ lastName: last, firstName: 'Γιώργος' });
    const x2 = await person({ lastName: last, firstName: 'Γιώργος' });
    const [p, q] = [await property(), await property()];
    const onP = await stored(p.id, x1.id, DEAL_TYPE_RENTAL, 1, 700);
    const onQ = await stored(q.id, x2.id, DEAL_TYPE_SALE, 1, 100000);
    const head = ['Property reference no.', 'Surname', 'First name', 'Deal type', 'Stage', 'Final price'];
    const up = (await send('h.csv', csv([head, [p.ref, last, 'Γιώργος', 'Rental', 'Negotiation', '700'], [q.ref, last, 'Γιώργος', 'Sale', 'Negotiation', '100000']]))).json();
    const pv = await preview(up);
    expect(pv.rows.map((r: { existing: { id: number } | null }) => r.existing?.id)).toEqual([onP, onQ]);
    expect(pv.counts).toMatchObject({ deals: 0, skipped: 2 });
  });

  it('a tenant whose earlier rental of the property is closed: a new rental at other terms is a new deal; the same rental again is not', async () => {
    const x = await person({ phones: [`+30 697 ${Math.floor(1000000 + Math.random() * 8999999)}`] });
    const p = await property();
    const closed = await stored(p.id, x.id, DEAL_TYPE_RENTAL, DEAL_STAGE_CLOSED, 600);
    const head = ['Property reference no.', 'Full name', 'Phone', 'Deal type', 'Stage', 'Final price'];
    const renewal = (await send('r.csv', csv([head, [p.ref, `${x.lastName} Γιώργος`, x.phones![0]!, 'Rental', 'Negotiation', '900']]))).json();
    expect((await preview(renewal)).counts).toMatchObject({ deals: 1, skipped: 0 });
    // The same rental, in the old file still in negotiation, is the one closed since.
    const again = (await send('a.csv', csv([head, [p.ref, `${x.lastName} Γιώργος`, x.phones![0]!, 'Rental', 'Negotiation', '600']]))).json();
    const pv = await preview(again);
    expect(pv.rows[0].existing.id).toBe(closed);
    expect(pv.counts).toMatchObject({ deals: 0, skipped: 1 });
  });
});

describe('Deals.xlsx read back, and a deal’s agent, lawyer and notary', () => {
  const employee = async () => person({ firstName: 'Ελένη', lastName: `Πράκτορα${tag()}`, isEmploye: true, emails: [`eleni.${tag()}@agency.test`] });

  it('a Deals.xlsx downloaded from the list is uploaded as it is: headers found under its title, every deal shown as already there, a re-run makes none', async () => {
    const chief = await employee();
    const lawyer = await person({ firstName: 'Κώστας', lastName: `Νομικός${tag()}`, isLawyer: true });
    const notary = await person({ firstName: 'Άννα', lastName: `Συμβολαιογράφου${tag()}`, isNotary: true });
    const buyer = await person();
    const tenant = await person({ firstName: 'Ιωάννα', lastName: `Ενοικιάστρια${tag()}`, phones: ['+30 697 111 2233'] });
    const [a, b] = [await property((await person()).id), await property((await person()).id)];
    const made = async (objectId: number, values: Record<string, unknown>, people: [number, number][]) => {
      const [d] = await db.insert(deals).values({ objectId, ...values } as never).returning({ id: deals.id });
      await db.insert(dealParties).values(people.map(([accountId, relation], position) => ({ dealId: d!.id, accountId, relation, position })));
      return d!.id;
    };
    await made(a.id, { dealType: DEAL_TYPE_SALE, dealStage: 2, askingPrice: 210000, price: 185000.5, deposit: 18500, dateOfDeposit: '2026-02-10' }, [[buyer.id, 2], [lawyer.id, 3], [chief.id, 6]]);
    await made(b.id, { dealType: DEAL_TYPE_RENTAL, dealStage: 1, price: 750, rentStart: '2026-03-01', rentExpiration: '2027-02-28' }, [[tenant.id, 2], [notary.id, 4], [chief.id, 6]]);

    const file = await admin.post('/api/Deal/download', { agentId: chief.id }, { lang: 'el' });
    expect(file.statusCode, file.body).toBe(200);
    const before = { deals: await countOf(deals), accounts: await countOf(accounts) };
    const res = await send('Deals.xlsx', file.rawPayload, admin, 'el');
    expect(res.statusCode, res.body).toBe(200);
    const up = res.json();
    expect(up.headerRow).toBeGreaterThan(1);
    expect(up.rowCount).toBe(2);
    for (const key of ['referenceNumber', 'fullName', 'dealType', 'dealStage', 'agent', 'lawyer', 'notary', 'price', 'rentStart']) expect(up.mapping).toContain(key);
    const p = await preview(up, 'el');
    expect(p.headerRow).toBe(up.headerRow);
    expect(p.rows.map((r: { row: number }) => r.row)).toEqual([up.headerRow + 1, up.headerRow + 2]);
    expect(p.rows.map((r: { errors: object }) => r.errors)).toEqual([{}, {}]);
    expect(p.rows.map((r: { existing: { name: string } | null }) => r.existing?.name)).toEqual([expect.stringMatching(/^Η συμφωνία #\d+/), expect.stringMatching(/^Η συμφωνία #\d+/)]);
    expect(p.rows.find((r: { values: Record<string, string> }) => r.values.lawyer).values).toMatchObject({ agent: chief.displayName, lawyer: lawyer.displayName });
    expect(p.counts).toMatchObject({ deals: 0, clients: 0, skipped: 2 });
    expect((await run(up)).statusCode).toBe(400);
    expect({ deals: await countOf(deals), accounts: await countOf(accounts) }).toEqual(before);
  });

  it('the agent by full name or e-mail, the lawyer and notary by name become the deal’s people; an unknown agent or lawyer is an error at its cell', async () => {
    const chief = await employee();
    const lawyer = await person({ firstName: 'Πέτρος', lastName: `Δικηγόρου${tag()}` });
    const [a, b, c] = [await property(), await property(), await property()];
    const rows = [
      ['Κωδικός ακινήτου', 'Ονοματεπώνυμο', 'Είδος συμφωνίας', 'Στάδιο', 'Τελική τιμή', 'Πράκτορας', 'Δικηγόρος'],
      [a.ref, `Αγοραστής${tag()} Γιάννης`, 'Πώληση', 'Διαπραγμάτευση', '150.000', `Ελένη ${chief.lastName}`, lawyer.displayName!],
      [b.ref, '', 'Πώληση', 'Διαπραγμάτευση', '90.000', chief.emails[0]!.toUpperCase(), ''],
      [c.ref, '', 'Πώληση', 'Διαπραγμάτευση', '80.000', 'Κανένας Άγνωστος', 'Άγνωστος Δικηγόρος'],
    ];
    const up = (await send('συμφωνίες.csv', csv(rows), admin, 'el')).json();
    expect(up.headerRow).toBe(1);
    expect(up.mapping.slice(5)).toEqual(['agent', 'lawyer']);
    const p = await preview(up, 'el');
    expect(p.rows[0].errors).toEqual({});
    expect(p.rows[0].values).toMatchObject({ agent: chief.displayName, lawyer: lawyer.displayName });
    expect(p.rows[1].errors).toEqual({});
    expect(p.rows[2].errors).toEqual({
      agent: 'Δεν υπάρχει συνεργάτης του γραφείου με όνομα ή e-mail «Κανένας Άγνωστος»: γράψτε το ονοματεπώνυμο ή το e-mail του πράκτορα όπως είναι στην καρτέλα του.',
      lawyer: 'Δεν υπάρχει επαφή στο CRM με όνομα «Άγνωστος Δικηγόρος»: καταχωρίστε την πρώτα ή γράψτε το όνομα όπως είναι στην καρτέλα της.',
    });
    expect((await run(up, true)).statusCode).toBe(200);
    const [sale] = await dealsOf(a.id);
    expect((await partiesOf(sale!.id as number)).filter((x) => x.relation !== 2)).toEqual([{ accountId: chief.id, relation: 6 }, { accountId: lawyer.id, relation: 3 }]);
    expect(await partiesOf((await dealsOf(b.id))[0]!.id as number)).toEqual([{ accountId: chief.id, relation: 6 }]);
    expect(await dealsOf(c.id)).toEqual([]);
  });

  it('two employees of one name: the agent is asked for by e-mail, in the reader’s language', async () => {
    const lastName = `Διπλός${tag()}`;
    await person({ firstName: 'Νίκος', lastName, isEmploye: true });
    await person({ firstName: 'Νίκος', lastName, isEmploye: true });
    const a = await property();
    const up = (await send('agent.csv', csv([['Код объекта', 'Тип сделки', 'Этап', 'Агент'], [a.ref, 'Продажа', 'Переговоры', `${lastName} Νίκος`]]), admin, 'ru')).json();
    expect(up.mapping).toEqual(['referenceNumber', 'dealType', 'dealStage', 'agent']);
    expect((await preview(up, 'ru')).rows[0].errors).toEqual({ agent: `Сотрудников с именем «${lastName} Νίκος» несколько: укажите e-mail агента.` });
  });
});

describe('a deal’s people on a re-run, and who may be its agent, lawyer or notary', () => {
  const store = async (objectId: number, values: Record<string, unknown>, people: [number, number][]) => {
    const [d] = await db.insert(deals).values({ objectId, ...values } as never).returning({ id: deals.id });
    await db.insert(dealParties).values(people.map(([accountId, relation], position) => ({ dealId: d!.id, accountId, relation, position })));
    return d!.id;
  };
  const phone = () => `+30 697 ${Math.floor(1000000 + Math.random() * 8999999)}`;
  const chiefOf = () => person({ firstName: 'Ελένη', lastName: `Πράκτορα${tag()}`, isEmploye: true });

  it('a Deals.xlsx whose deal has an unmarked lawyer while a namesake is marked as one, uploaded again, makes no second deal', async () => {
    const chief = await chiefOf();
    const lastName = `Νομικός${tag()}`;
    const onDeal = await person({ firstName: 'Κώστας', lastName });
    await person({ firstName: 'Κώστας', lastName, isLawyer: true });
    const buyer = await person({ phones: [phone()] });
    const a = await property((await person()).id);
    const id = await store(a.id, { dealType: DEAL_TYPE_SALE, dealStage: 1, price: 100000 }, [[buyer.id, 2], [onDeal.id, 3], [chief.id, 6]]);
    const file = await admin.post('/api/Deal/download', { agentId: chief.id }, { lang: 'en' });
    const up = (await send('Deals.xlsx', file.rawPayload, admin, 'en')).json();
    const p = await preview(up, 'en');
    expect(p.rows.map((r: { errors: object; existing: { name: string } | null }) => [r.errors, r.existing?.name])).toEqual([[{}, `Deal #${id}, already in the CRM with the same values`]]);
    expect(p.counts).toMatchObject({ deals: 0, skipped: 1 });
    expect((await run(up)).statusCode).toBe(400);
    expect((await dealsOf(a.id)).map((d) => d.id)).toEqual([id]);
  });

  it('a deal whose agent or lawyer was changed in the CRM after the file was made is shown so and left out, not made again', async () => {
    const [first, second] = [await chiefOf(), await chiefOf()];
    const lawyer = await person({ firstName: 'Πέτρος', lastName: `Δικηγόρου${tag()}`, isLawyer: true });
    const buyer = await person({ phones: [phone()] });
    const a = await property((await person()).id);
    const id = await store(a.id, { dealType: DEAL_TYPE_SALE, dealStage: 1, price: 100000 }, [[buyer.id, 2], [first.id, 6]]);
    const file = await admin.post('/api/Deal/download', { agentId: first.id }, { lang: 'el' });
    await db.execute(sql`update deal_parties set account_id = ${second.id} where deal_id = ${id} and relation = 6`);
    const up = (await send('Deals.xlsx', file.rawPayload, admin, 'el')).json();
    const p = await preview(up, 'el');
    expect(p.rows.map((r: { existing: { name: string } | null }) => r.existing?.name)).toEqual([`Η συμφωνία #${id} υπάρχει ήδη στο CRM με άλλον πράκτορα, δικηγόρο ή συμβολαιογράφο (άλλαξε στο μεταξύ)`]);
    expect(p.counts).toMatchObject({ deals: 0, skipped: 1 });
    // A row naming a lawyer the stored deal has not: the same, in Russian.
    const rows = [['Код объекта', 'ФИО', 'Телефон', 'Тип сделки', 'Этап', 'Итоговая цена', 'Юрист'], [a.ref, `${buyer.lastName} ${buyer.firstName}`, buyer.phones[0]!, 'Продажа', 'Переговоры', '100 000', lawyer.displayName!]];
    const up2 = (await send('lawyer.csv', csv(rows), admin, 'ru')).json();
    const p2 = await preview(up2, 'ru');
    expect(p2.rows[0].errors).toEqual({});
    expect(p2.rows[0].existing?.name).toBe(`Сделка № ${id} уже есть в CRM с другим агентом, юристом или нотариусом (изменено после выгрузки)`);
    expect((await run(up2)).statusCode).toBe(400);
    expect((await dealsOf(a.id)).map((d) => d.id)).toEqual([id]);
  });

  it('a lawyer and a notary are found by name in capitals or without accents; of namesakes the one marked for the column, a client namesake aside', async () => {
    const s = tag();
    const lawyer = await person({ firstName: 'Κώστας', lastName: `Νομικός${s}`, isLawyer: true });
    // A client and a notary share the lawyer's name: the lawyer's column takes the lawyer, the notary's the notary.
    await person({ firstName: 'Κώστας', lastName: `Νομικός${s}`, isClient: true });
    const notaryNamesake = await person({ firstName: 'Κώστας', lastName: `Νομικός${s}`, isNotary: true });
    const notary = await person({ firstName: 'Άννα', lastName: `Συμβολαιογράφου${s}`, isNotary: true });
    const [a, b] = [await property(), await property()];
    const rows = [
      ['Κωδικός ακινήτου', 'Είδος συμφωνίας', 'Στάδιο', 'Δικηγόρος', 'Συμβολαιογράφος'],
      [a.ref, 'Πώληση', 'Διαπραγμάτευση', `ΚΩΣΤΑΣ ΝΟΜΙΚΟΣ${s.toUpperCase()}`, `Αννα Συμβολαιογραφου${s}`],
      [b.ref, 'Πώληση', 'Διαπραγμάτευση', `Νομικος${s} Κωστας`, `κώστας νομικός${s}`],
    ];
    const up = (await send('people.csv', csv(rows), admin, 'el')).json();
    expect(up.mapping).toEqual(['referenceNumber', 'dealType', 'dealStage', 'lawyer', 'notary']);
    const p = await preview(up, 'el');
    expect(p.rows.map((r: { errors: object }) => r.errors)).toEqual([{}, {}]);
    expect((await run(up)).statusCode).toBe(200);
    expect((await partiesOf((await dealsOf(a.id))[0]!.id as number))).toEqual([{ accountId: lawyer.id, relation: 3 }, { accountId: notary.id, relation: 4 }]);
    expect((await partiesOf((await dealsOf(b.id))[0]!.id as number))).toEqual([{ accountId: lawyer.id, relation: 3 }, { accountId: notaryNamesake.id, relation: 4 }]);
  });

  it('a lawyer stored with a middle name is found by first and last name; a long text in the column is no one, an error at its cell', async () => {
    const s = tag();
    const [lawyer] = await db.insert(accounts).values({ firstName: 'Κώστας', lastName: `Νομικός${s}`, middleName: 'Ιωάννου', isLawyer: true }).returning();
    const [a, b] = [await property(), await property()];
    const rows = [
      ['Κωδικός ακινήτου', 'Είδος συμφωνίας', 'Στάδιο', 'Δικηγόρος'],
      [a.ref, 'Πώληση', 'Διαπραγμάτευση', `Κώστας Νομικός${s}`],
      [b.ref, 'Πώληση', 'Διαπραγμάτευση', Array.from({ length: 3000 }, (_, i) => `λέξη${i}`).join(' ')],
    ];
    const up = (await send('middle.csv', csv(rows), admin, 'el')).json();
    const p = await preview(up, 'el');
    expect(p.rows[0].errors).toEqual({});
    expect(p.rows[0].values.lawyer).toBe(lawyer!.displayName);
    expect(Object.keys(p.rows[1].errors)).toEqual(['lawyer']);
  });

  it('a Deals.xlsx whose buyer has a middle name (a patronymic), uploaded again, makes no second deal and no second client', async () => {
    const chief = await chiefOf();
    const [buyer] = await db.insert(accounts).values({ firstName: 'Максим', lastName: `Волков${tag()}`, middleName: 'Александрович', isClient: true }).returning();
    const a = await property((await person()).id);
    const id = await store(a.id, { dealType: DEAL_TYPE_RENTAL, dealStage: 1, price: 4300 }, [[buyer!.id, 2], [chief.id, 6]]);
    const file = await admin.post('/api/Deal/download', { agentId: chief.id }, { lang: 'el' });
    const before = await countOf(accounts);
    const up = (await send('Deals.xlsx', file.rawPayload, admin, 'el')).json();
    const p = await preview(up, 'el');
    expect(p.rows.map((r: { existing: { name: string } | null }) => r.existing?.name)).toEqual([`Η συμφωνία #${id} υπάρχει ήδη στο CRM με τα ίδια στοιχεία`]);
    expect(p.counts).toMatchObject({ deals: 0, clients: 0, skipped: 1 });
    expect((await run(up)).statusCode).toBe(400);
    expect([await countOf(accounts), (await dealsOf(a.id)).map((d) => d.id)]).toEqual([before, [id]]);
  });

  it('a lawyer named exactly as one account is that one, though another of that last and first name has a middle name; a firm’s long name is found whole', async () => {
    const s = tag();
    const [plain] = await db.insert(accounts).values({ firstName: 'Κώστας', lastName: `Νομικός${s}`, isLawyer: true }).returning();
    await db.insert(accounts).values({ firstName: 'Κώστας', lastName: `Νομικός${s}`, middleName: 'Ιωάννου', isLawyer: true });
    const [firm] = await db.insert(accounts).values({ isCompany: true, name: `Δικηγορική Εταιρεία Παπαδόπουλος Γεωργίου και Συνεργάτες ${s}`, isLawyer: true }).returning();
    const [a, b] = [await property(), await property()];
    const rows = [['Κωδικός ακινήτου', 'Είδος συμφωνίας', 'Στάδιο', 'Δικηγόρος'], [a.ref, 'Πώληση', 'Διαπραγμάτευση', `Νομικός${s} Κώστας`], [b.ref, 'Πώληση', 'Διαπραγμάτευση', firm!.displayName!]];
    const p = await preview((await send('exact.csv', csv(rows), admin, 'el')).json(), 'el');
    expect(p.rows.map((r: { errors: object; values: { lawyer: string } }) => [r.errors, r.values.lawyer])).toEqual([[{}, plain!.displayName], [{}, firm!.displayName]]);
    // A client of the lawyer's display name, the lawyer with a middle name: the lawyer's column takes the lawyer.
    const t2 = tag();
    await db.insert(accounts).values({ firstName: 'Πέτρος', lastName: `Δίκαιος${t2}`, isClient: true });
    const [marked] = await db.insert(accounts).values({ firstName: 'Πέτρος', lastName: `Δίκαιος${t2}`, middleName: 'Νικολάου', isLawyer: true }).returning();
    const c = await property();
    const p2 = await preview((await send('marked.csv', csv([rows[0]!, [c.ref, 'Πώληση', 'Διαπραγμάτευση', `Δίκαιος${t2} Πέτρος`]]), admin, 'el')).json(), 'el');
    expect([p2.rows[0].errors, p2.rows[0].values.lawyer]).toEqual([{}, marked!.displayName]);
  });

  it('two unmarked namesakes in the lawyer’s column are asked apart; the agent is an office user or an employee, never a payments client’s sign-in', async () => {
    const s = tag();
    await person({ firstName: 'Μάρκος', lastName: `Διπλός${s}` });
    await person({ firstName: 'Μάρκος', lastName: `Διπλός${s}` });
    const client = await person({ firstName: 'Πελάτισσα', lastName: `Πληρωμών${s}`, isClient: true });
    await db.insert(users).values({ email: `pay${s}@example.gr`, username: `pay${s}`, roles: ['clientPayments'], accountId: client.id });
    const staff = await person({ firstName: 'Σοφία', lastName: `Γραμματέως${s}` });
    await db.insert(users).values({ email: `sofia${s}@agency.test`, username: `sofia${s}`, roles: ['employee'], accountId: staff.id });
    const [a, b] = [await property(), await property()];
    const rows = [
      ['Κωδικός ακινήτου', 'Είδος συμφωνίας', 'Στάδιο', 'Πράκτορας', 'Δικηγόρος'],
      [a.ref, 'Πώληση', 'Διαπραγμάτευση', client.displayName!, `Διπλός${s} Μάρκος`],
      [b.ref, 'Πώληση', 'Διαπραγμάτευση', `sofia${s}@agency.test`, ''],
    ];
    const up = (await send('agents.csv', csv(rows), admin, 'en')).json();
    const p = await preview(up, 'en');
    expect(Object.keys(p.rows[0].errors).sort()).toEqual(['agent', 'lawyer']);
    expect(p.rows[0].errors.agent).toContain(client.displayName!);
    expect(p.rows[1].errors).toEqual({});
    expect(p.rows[1].values.agent).toBe(staff.displayName);
  });
});
