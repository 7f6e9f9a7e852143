import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { accounts, assignments, branches, dealParties, deals, leads, objects, users, viewings } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { periodDays } from './results.service.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { app, db } = t;
await db.insert(branches).values({ id: 2, nameKey: 'branch.1' }).onConflictDoNothing();

const employee = async (firstName: string, lastName: string, branchId: number | null) =>
  (await db.insert(accounts).values({ firstName, lastName, isEmploye: true, branchId }).returning({ id: accounts.id }))[0]!.id;
const anna = await employee('Anna', 'Papadaki', 1);
const nikos = await employee('Nikos', 'Georgiou', 2);
// Left the agency before the period: not a row.
await db.insert(accounts).values({ firstName: 'Old', lastName: 'Leaver', isEmploye: true, endDate: '2025-12-31' });

// The agency's time zone (Europe/Athens, UTC+2 in March until the 29th, then UTC+3).
const at = (local: string) => sql`${local}::timestamp at time zone ${app.config.timeZone}` as unknown as Date;
const object = (createdOn: string, by: number) => db.insert(objects).values({ createdOn: at(createdOn), createdByAccountId: by } as never);
await object('2026-03-01T00:30:00', anna);
await object('2026-03-31T23:30:00', anna);
await object('2026-02-28T23:30:00', anna); // the day before the period
await object('2026-03-12T10:00:00', nikos);

const viewing = async (date: string, result: number, agents: number[]) => {
  const [v] = await db.insert(viewings).values({ dateOfViewing: at(date), result }).returning({ id: viewings.id });
  for (const a of agents) await db.insert(assignments).values({ parent: 3, parentId: v!.id, accountId: a });
};
await viewing('2026-03-10T11:00:00', 4, [anna, nikos]); // an offer, both agents were there
await viewing('2026-03-31T20:00:00', 2, [anna]);
await viewing('2026-03-15T12:00:00', 6, [anna]); // cancelled
await viewing('2026-03-16T12:00:00', 7, [anna]); // the client did not come
await viewing('2026-04-01T00:30:00', 2, [anna]); // the day after
await viewing('2026-03-05T09:00:00', 5, [nikos]);

const lead = async (createdOn: string, agent: number, startDate?: string) => {
  const [l] = await db.insert(leads).values({ createdOn: at(createdOn), ...(startDate ? { startDate } : {}) } as never).returning({ id: leads.id });
  await db.insert(assignments).values({ parent: 2, parentId: l!.id, accountId: agent });
};
await lead('2026-03-03T10:00:00', anna);
await lead('2026-03-20T10:00:00', nikos);
await lead('2026-02-27T10:00:00', nikos);
await lead('2026-04-01T00:30:00', anna); // the next day in Athens (still 31 March in UTC)
await lead('2026-03-10T10:00:00', anna, '2026-04-02'); // entered in March, but its start date is April's
await lead('2026-02-10T10:00:00', nikos, '2026-02-11');

const deal = async (values: Record<string, unknown>, agents: number[]) => {
  const [d] = await db.insert(deals).values(values as never).returning({ id: deals.id });
  for (const a of agents) await db.insert(dealParties).values({ dealId: d!.id, accountId: a, relation: 6 });
};
await deal({ dealType: 2, dealStage: 5, askingPrice: 190000, price: 185000.5, commission: 3700.25, endDate: '2026-03-20' }, [anna, nikos]);
await deal({ dealType: 1, dealStage: 5, askingPrice: 650, price: 600, commission: 300, endDate: '2026-03-31' }, [anna]);
await deal({ dealType: 2, dealStage: 5, price: 90000, commission: 1800, endDate: '2026-04-01' }, [anna]); // closed after the period
await deal({ dealType: 2, dealStage: 4, price: 70000, commission: 1400, endDate: '2026-03-10' }, [anna]); // not closed
await deal({ dealType: 2, dealStage: 5, askingPrice: 100000, commission: 2000.1, endDate: '2026-03-02' }, [nikos]);

const officeAdmin = await t.user({ roles: ['admin'] });
const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
const nikosUser = await t.user({ roles: ['employee'], branchId: 2 });
await db.update(users).set({ accountId: nikos }).where(eq(users.id, nikosUser.id));
const noAccount = await t.user({ roles: ['employee'] });

const march = { period: 'range', from: '2026-03-01', till: '2026-03-31' };
const annaRow = {
  name: 'Papadaki Anna',
  properties: 2,
  viewings: 2,
  offers: 1,
  leads: 1,
  sales: 1,
  salesValue: '185000.50',
  salesCommission: '3700.25',
  rentals: 1,
  rentalsValue: '600.00',
  rentalsCommission: '300.00',
  commission: '4000.25',
};
const nikosRow = {
  name: 'Georgiou Nikos',
  properties: 1,
  viewings: 2,
  offers: 1,
  leads: 1,
  sales: 2,
  salesValue: '285000.50',
  salesCommission: '5700.35',
  rentals: 0,
  rentalsValue: '0.00',
  rentalsCommission: '0.00',
  commission: '5700.35',
};

describe('the agents’ results', () => {
  it('count each agent’s period: boundaries in the agency’s time zone, cancelled and missed viewings and unclosed deals left out, exact money', async () => {
    const res = await officeAdmin.post('/api/report/results', march);
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json();
    expect(a).toMatchObject({ from: '2026-03-01', till: '2026-03-31' });
    // In alphabetical order of their names, surname first as the app shows them.
    expect(a.rows).toEqual([
      { accountId: nikos, ...nikosRow },
      { accountId: anna, ...annaRow },
    ]);
    // The shared viewing and the shared sale count once in the totals.
    expect(a.totals).toEqual({
      accountId: null,
      name: 'Total',
      properties: 3,
      viewings: 3,
      offers: 1,
      leads: 2,
      sales: 2,
      salesValue: '285000.50',
      salesCommission: '5700.35',
      rentals: 1,
      rentalsValue: '600.00',
      rentalsCommission: '300.00',
      commission: '6000.35',
    });
    expect(a.branches.map((b: { value: number }) => b.value)).toEqual([1, 2]);
  });

  it('show a branch admin their branch’s agents, an employee their own row, and an office admin the branch picked', async () => {
    const branch = (await branchAdmin.post('/api/report/results', { ...march, branchId: 2 })).json();
    expect(branch.rows).toEqual([{ accountId: anna, ...annaRow }]);
    expect(branch.totals).toMatchObject({ ...annaRow, name: 'Total' });
    expect(branch.branches).toEqual([]);
    const own = (await nikosUser.post('/api/report/results', march)).json();
    expect(own.rows).toEqual([{ accountId: nikos, ...nikosRow }]);
    expect(own.totals).toMatchObject({ viewings: 2, sales: 2, salesValue: '285000.50' });
    const none = (await noAccount.post('/api/report/results', march)).json();
    expect(none.rows).toEqual([]);
    expect(none.totals).toMatchObject({ properties: 0, viewings: 0, salesValue: '0.00', commission: '0.00' });
    const picked = (await officeAdmin.post('/api/report/results', { ...march, branchId: 2 })).json();
    expect(picked.rows.map((r: { accountId: number }) => r.accountId)).toEqual([nikos]);
  });

  it('count the periods from the agency’s today', () => {
    expect(periodDays({ period: 'month' }, '2026-02-14')).toEqual({ from: '2026-02-01', till: '2026-02-28' });
    expect(periodDays({ period: 'lastMonth' }, '2026-01-05')).toEqual({ from: '2025-12-01', till: '2025-12-31' });
    expect(periodDays({ period: 'quarter' }, '2026-11-27')).toEqual({ from: '2026-10-01', till: '2026-12-31' });
    expect(periodDays({ period: 'year' }, '2026-11-27')).toEqual({ from: '2026-01-01', till: '2026-12-31' });
  });

  it('refuse a period out of order, outside sensible years or not a date, with a translated message', async () => {
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ period: 'range', from: '2026-04-01', till: '2026-03-01' }, 'till', 'en', 'The end date cannot be before the start date'],
      [{ period: 'range', from: '2026-04-01', till: '2026-03-01' }, 'till', 'el', 'Η ημερομηνία λήξης δεν μπορεί να είναι πριν από την ημερομηνία έναρξης'],
      [{ period: 'range', from: '1026-04-01', till: '2026-03-01' }, 'from', 'en', 'Choose a date between the years 2000 and 2100'],
      [{ period: 'range', from: '2026-04-01', till: '9999-12-31' }, 'till', 'el', 'Επιλέξτε ημερομηνία μεταξύ των ετών 2000 και 2100'],
      [{ period: 'range', till: '2026-03-01' }, 'from', 'en', 'This field is required'],
      [{ period: 'range', from: '2026-02-30', till: '2026-03-01' }, 'from', 'en', 'This date does not exist in the calendar'],
    ];
    for (const [body, field, lang, message] of cases) {
      for (const url of ['/api/report/results', '/api/report/results/download']) {
        const res = await officeAdmin.post(url, body, { lang });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errors[field][0], JSON.stringify(body)).toBe(message);
      }
    }
    expect((await officeAdmin.post('/api/report/results', { period: 'decade' })).statusCode).toBe(400);
    expect((await officeAdmin.post('/api/report/results', { branchId: 'all' })).statusCode).toBe(400);
  });

  it('match the leads and deals lists filtered by the agent and the period, which its numbers open', async () => {
    const report = (await officeAdmin.post('/api/report/results', march)).json();
    const search = async (url: string, body: Record<string, unknown>) => {
      const res = await officeAdmin.post(url, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().totalRows as number;
    };
    for (const row of report.rows as { accountId: number; leads: number; sales: number; rentals: number }[]) {
      expect(await search('/api/lead/search', { agentId: row.accountId, startDate: march.from, endDate: march.till })).toBe(row.leads);
      const closed = { agentId: row.accountId, stages: [5], endDateFrom: march.from, endDateTill: march.till };
      expect(await search('/api/Deal/search', { ...closed, dealType: 2 })).toBe(row.sales);
      expect(await search('/api/Deal/search', { ...closed, dealType: 1 })).toBe(row.rentals);
    }
    // The agent filter alone: every lead assigned to Anna, every deal she is in charge of (not one where she is another party).
    expect(await search('/api/lead/search', { agentId: anna })).toBe(3);
    await deal({ dealType: 2, dealStage: 5, price: 1000, endDate: '2026-03-05' }, []).then(async () => {
      const [d] = await db.execute<{ id: number }>(sql`select max(id) as id from deals`).then((r) => r.rows);
      await db.insert(dealParties).values({ dealId: d!.id, accountId: anna, relation: 2 });
    });
    expect(await search('/api/Deal/search', { agentId: anna })).toBe(4);
    // Deals.xlsx names the agent in its filter line, in the reader's language.
    const xlsx = await officeAdmin.post('/api/Deal/download', { agentId: anna, stages: [5] }, { lang: 'el' });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    const wb = await workbookOf(xlsx);
    expect(String(wb.worksheets[0]!.getCell('A2').value)).toContain('Συνεργάτης: Papadaki Anna');
    expect((await officeAdmin.post('/api/Deal/search', { agentId: 'anna' })).statusCode).toBe(400);
    expect((await officeAdmin.post('/api/lead/search', { agentId: 0 })).statusCode).toBe(400);
  });

  it('is refused without a sign-in', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/report/results', payload: march })).statusCode).toBe(401);
  });
});

describe('Results.xlsx', () => {
  it('holds the report in the reader’s language with the period in the title, number and euro cells, and the totals', async () => {
    const res = await officeAdmin.post('/api/report/results/download', march, { lang: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('Results.xlsx');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const wb = await workbookOf(res);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Αποτελέσματα');
    expect(ws.getCell('A1').value).toBe('Απόδοση συνεργατών: 01/03/2026 – 31/03/2026');
    expect((ws.getRow(3).values as unknown[]).slice(1, 4)).toEqual(['Συνεργάτης', 'Νέα ακίνητα', 'Υποδείξεις']);
    expect((ws.getRow(5).values as unknown[]).slice(1)).toEqual(['Papadaki Anna', 2, 2, 1, 1, 1, 185000.5, 3700.25, 1, 600, 300, 4000.25]);
    expect(ws.getCell('G4').numFmt).toContain('€');
    expect((ws.getRow(6).values as unknown[]).slice(1)).toEqual(['Σύνολο', 3, 3, 1, 2, 2, 285000.5, 5700.35, 1, 600, 300, 6000.35]);
    // Who took the agents' figures, and for which period, is on the record.
    const logged = await db.execute(sql`select entity, message, data from action_log where action = 'Download' order by id desc limit 1`);
    expect(logged.rows[0]).toMatchObject({
      entity: 'Report',
      message: 'Results.xlsx',
      data: { rows: 2, filter: { el: 'Απόδοση συνεργατών: 01/03/2026 – 31/03/2026', ru: expect.stringContaining('01.03.2026 – 31.03.2026') } },
    });
  });
});
