import { describe, expect, it } from 'vitest';
import { accounts, objects } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

const person = async (firstName: string, lastName: string) => (await db.insert(accounts).values({ firstName, lastName }).returning({ id: accounts.id }))[0]!.id;
const property = async (title: string) => (await db.insert(objects).values({ title } as never).returning({ id: objects.id, ref: objects.referenceNumber }))[0]!;

// Every deal below has the same notary, so the filter by her name picks exactly them.
const notary = await person('Eleni', 'Sumaki');
const buyer = await person('Maria', '=HYPERLINK("http://evil")');
const flat = await property('Flat in Kalamaria');
const deal = async (body: Record<string, unknown>) => {
  const res = await agent.post('/api/Deal/update', { objectId: flat.id, accounts: [{ accountId: notary, relation: 4 }, { accountId: buyer, relation: 2 }], ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const ids = [
  await deal({ dealType: 2, dealStage: 5, askingPrice: 190000, price: 185000.5, commission: 3700.25, dateOfDeposit: '2026-03-02' }),
  // No final price yet: the asking price is what the list shows, and what it adds up.
  await deal({ dealType: 2, dealStage: 1, askingPrice: 120000, commission: 2400 }),
  await deal({ dealType: 2, dealStage: 6, askingPrice: 99000, price: 95000, commission: 1900 }),
  await deal({ dealType: 1, dealStage: 5, askingPrice: 650, price: 600, commission: 300, rentStart: '2026-04-01', rentExpiration: '2027-03-31' }),
  await deal({ dealType: 1, dealStage: 2, askingPrice: 450.75 }),
];
const mine = { lastName: 'Sumaki' };

describe('the deals list’s totals', () => {
  it('add up every matching deal, not the page: sales and rentals apart, the commission of both, cancelled ones left out', async () => {
    const res = await agent.post('/api/Deal/search', { ...mine, perPage: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json();
    expect(a.items).toHaveLength(1);
    // The cancelled deal is counted in the list, not in the money.
    expect(a.totalRows).toBe(5);
    expect(a.sumsWithCancelled).toBe(false);
    expect(a.sums).toEqual({ saleCount: 2, saleTotal: '305000.50', rentCount: 2, rentTotal: '1050.75', commission: '6400.25' });
  });

  it('count cancelled deals when the stage filter picks them, and follow every filter', async () => {
    const cancelled = (await agent.post('/api/Deal/search', { ...mine, stages: [6] })).json();
    expect(cancelled).toMatchObject({ totalRows: 1, sumsWithCancelled: true, sums: { saleCount: 1, saleTotal: '95000.00', rentCount: 0, rentTotal: '0.00', commission: '1900.00' } });
    const rentals = (await agent.post('/api/Deal/search', { ...mine, dealType: 1 })).json();
    expect(rentals).toMatchObject({ totalRows: 2, sums: { saleCount: 0, saleTotal: '0.00', rentCount: 2, rentTotal: '1050.75', commission: '300.00' } });
    const none = (await agent.post('/api/Deal/search', { lastName: 'Nobody-of-that-name' })).json();
    expect(none).toMatchObject({ totalRows: 0, items: [], sums: { saleCount: 0, saleTotal: '0.00', rentCount: 0, rentTotal: '0.00', commission: '0.00' } });
  });
});

describe('Deals.xlsx', () => {
  const sheet = async (body: unknown, lang: string) => {
    const res = await agent.post('/api/Deal/download', body, { lang });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('Deals.xlsx');
    const wb = await workbookOf(res);
    return wb.worksheets[0]!;
  };

  it('holds every matching deal in the list’s order, in the reader’s language, with real numbers and dates, the totals, and no formulas', async () => {
    const ws = await sheet({ ...mine, sortBy: 'price', sortDir: 'desc' }, 'el');
    expect(ws.name).toBe('Συμφωνίες');
    expect(ws.getCell('A2').value).toBe('Εμφανίζονται: Επώνυμο (οποιουδήποτε μέρους): Sumaki');
    expect([ws.getCell('A3').value, ws.getCell('B3').value, ws.getCell('D3').value, ws.getCell('E3').value, ws.getCell('G3').value, ws.getCell('H3').value]).toEqual([
      '2 πωλήσεις',
      305000.5,
      '2 μισθώσεις (μηνιαίο μίσθωμα)',
      1050.75,
      'Μεσιτική αμοιβή',
      6400.25,
    ]);
    expect(ws.getCell('B3').numFmt).toContain('€');
    expect(ws.getCell('D4').value).toMatch(/^Οι ακυρωμένες συμφωνίες/);
    const head = (ws.getRow(6).values as unknown[]).slice(1);
    expect(head.slice(0, 6)).toEqual(['Αρ. συμφωνίας', 'Καταχωρίστηκε', 'Είδος', 'Στάδιο', 'Ακίνητο', 'Τίτλος ακινήτου']);
    const col = (name: string) => head.indexOf(name) + 1;
    // The list's order (price, highest first), every deal, the cancelled one too.
    const rows = [7, 8, 9, 10, 11].map((r) => ws.getRow(r));
    expect(rows.map((r) => r.getCell(1).value)).toEqual([ids[0], ids[1], ids[2], ids[3], ids[4]]);
    expect(ws.getRow(12).getCell(1).value ?? null).toBeNull();
    const first = rows[0]!;
    expect(first.getCell(col('Τελική τιμή')).value).toBe(185000.5);
    expect(first.getCell(col('Τελική τιμή')).numFmt).toContain('€');
    expect(first.getCell(col('Μεσιτική αμοιβή')).value).toBe(3700.25);
    expect(first.getCell(col('Στάδιο')).value).toBe('Ολοκληρώθηκε');
    expect(first.getCell(5).value).toBe(`#${String(flat.ref).padStart(4, '0')}`);
    expect(first.getCell(col('Συμβολαιογράφος')).value).toBe('Sumaki Eleni');
    // A name a spreadsheet would run is text.
    expect(String(first.getCell(col('Αγοραστής / μισθωτής')).value)).toMatch(/^'=HYPERLINK/);
    const rental = rows[3]!;
    expect(rental.getCell(col('Έναρξη μίσθωσης')).value).toEqual(new Date('2026-04-01T00:00:00Z'));
    for (let r = 1; r <= 11; r++) ws.getRow(r).eachCell((c) => expect(c.formula).toBeUndefined());
    for (const cell of ['A3', 'D3', 'G3', 'A6']) expect(ws.getCell(cell).numFmt ?? 'General', cell).toBe('General');
  });

  it('says its filter in English and Russian, and refuses a bad filter with a 400', async () => {
    const en = await sheet({ ...mine, dealType: 1, stages: [5] }, 'en');
    expect(en.getCell('A2').value).toBe('Showing: Rental; Closed; Last name (any party): Sumaki');
    expect(en.getCell('A3').value).toBe('0 sales');
    expect(en.getCell('D3').value).toBe('1 rental (monthly rent)');
    const ru = await sheet({ ...mine }, 'ru');
    expect(ru.name).toBe('Сделки');
    expect(ru.getCell('A3').value).toBe('2 продажи');
    expect((await agent.post('/api/Deal/download', { stages: [9] })).statusCode).toBe(400);
    expect((await agent.post('/api/Deal/download', { sortBy: 'nonsense' })).statusCode).toBe(400);
  });

  it('is refused without a sign-in', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/Deal/download', payload: {} })).statusCode).toBe(401);
  });
});
