import { describe, expect, it, vi } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { accounts, actionLog, objects } from '../../db/schema/index.ts';
import { PAGE_ROWS } from '../../lib/downloads.ts';
import { createTestApp } from '../../../test/harness.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { app, db, pool } = t;
const admin = await t.user({ roles: ['admin'] });

// More rows than two pages: 2 × 2,000 + 500.
const N = 2 * PAGE_ROWS + 500;
const [flat] = await db.insert(objects).values({ title: 'Flat of the large lists', forSale: true, salePrice: '150000' } as never).returning();
await db.execute(sql`insert into objects (title, for_rent, rent_price) select 'Paged flat ' || g, true, 1000 + g from generate_series(1, ${N}) g`);
await db.execute(sql`insert into deals (object_id, deal_type, deal_stage, price) select ${flat!.id}, 1, 1, 1000 + g from generate_series(1, ${N}) g`);
await db.execute(
  sql`insert into reservations (object_id, check_in, duration, client_last_name, reservation_stage) select ${flat!.id}, date '2040-01-01' + 2 * g, 1, 'Pagedguest', 1 from generate_series(1, ${N}) g`,
);

// An account with a long statement, and as many accounts on the mailing list.
const [payer] = await db.insert(accounts).values({ firstName: 'Paged', lastName: 'Payer', hasTransactions: true } as never).returning();
await db.execute(sql`insert into transactions (account_id, type, status, amount, transaction_date) select ${payer!.id}, case when g % 3 = 0 then 'expense' else 'income' end, case when g % 3 = 0 then 1 end, 10 + g, timestamp '2030-01-01' + g * interval '1 hour' from generate_series(1, ${N}) g`);
const refs = (await db.execute<{ lo: number; hi: number }>(sql`select min(reference_number) as lo, max(reference_number) as hi from transactions where account_id = ${payer!.id}`)).rows[0]!;
await db.execute(sql`insert into accounts (first_name, last_name, emails, language) select 'Listed ' || g, 'Listed', array['listed' || lpad(g::text, 5, '0') || '@example.gr'], 'Russian' from generate_series(1, ${N}) g`);

// The deals' numbers: the price grows with the number, so the cheapest deal is the first made.
const { lo, hi } = (await db.execute<{ lo: number; hi: number }>(sql`select min(id) as lo, max(id) as hi from deals`)).rows[0]!;

type Answer = { rowCount: number | null; rows: unknown[]; fields?: unknown[] };
type Query = (...a: unknown[]) => unknown;

/**
 * Every statement the server sends while `run` runs, with how many rows and columns it answered (the
 * real database answers): through the pool, and through a connection taken from it (a cursor's).
 */
async function statements(run: () => Promise<unknown>) {
  const seen: { text: string; rows: number; columns: number }[] = [];
  const record = (a: unknown[], res: Answer) => {
    const text = typeof a[0] === 'string' ? a[0] : String((a[0] as { text?: string }).text);
    seen.push({ text, rows: res.rows?.length ?? 0, columns: res.fields?.length ?? 0 });
  };
  const query = pool.query.bind(pool) as (...a: unknown[]) => Promise<Answer>;
  pool.query = (async (...a: unknown[]) => {
    const res = await query(...a);
    record(a, res);
    return res;
  }) as typeof pool.query;
  // A connection's own calls; those the pool makes for its query (with a callback) are counted above.
  const taken = new Map<{ query: Query }, Query>();
  const onAcquire = (client: { query: Query }) => {
    if (taken.has(client)) return;
    const own = client.query;
    taken.set(client, own);
    client.query = (...a: unknown[]) => {
      if (typeof a.at(-1) === 'function') return own.apply(client, a);
      return (own.apply(client, a) as Promise<Answer>).then((res) => {
        record(a, res);
        return res;
      });
    };
  };
  pool.on('acquire', onAcquire);
  try {
    await run();
  } finally {
    pool.query = query as typeof pool.query;
    pool.off('acquire', onAcquire);
    for (const [client, own] of taken) client.query = own;
  }
  return seen;
}

async function download(url: string, payload: object) {
  const res = await admin.post(url, payload, { lang: 'en' });
  expect(res.statusCode, res.body).toBe(200);
  const wb = await workbookOf(res);
  return wb.worksheets[0]!;
}

// `heads`: the row of the column heads.
describe('a large list is read a page at a time as its file is written', () => {
  it.each([
    ['Deals.xlsx', '/api/Deal/download', { dealType: 1, sortBy: 'price', sortDir: 'asc' }, 6, (ws: ExcelJS.Worksheet, at: number) => ws.getRow(at).getCell(1).value, lo, hi],
    ['Properties.xlsx', '/api/object/download', { forRent: true }, 5, (ws: ExcelJS.Worksheet, at: number) => ws.getRow(at).getCell(2).value, `Paged flat ${N}`, 'Paged flat 1'],
    [
      'Reservations.xlsx',
      '/api/Reservation/download',
      { startDate: '2040-01-01', endDate: '2099-12-31', clientName: 'Pagedguest', sortBy: 'checkIn', sortDir: 'asc' },
      6,
      (ws: ExcelJS.Worksheet, at: number) => (ws.getRow(at).getCell(5).value as Date).toISOString().slice(0, 10),
      '2040-01-03',
      new Date(Date.UTC(2040, 0, 1 + 2 * N)).toISOString().slice(0, 10),
    ],
  ] as const)('%s: every row, in the list order, no statement answering more than a page of rows', async (name, url, filter, heads, cell, first, last) => {
    let ws: ExcelJS.Worksheet | undefined;
    const seen = await statements(async () => {
      ws = await download(url, filter);
    });
    // The file holds every row, in the list's order (the first and the last where they belong).
    expect(ws!.rowCount - heads).toBe(N);
    expect(cell(ws!, heads + 1)).toBe(first);
    expect(cell(ws!, heads + N)).toBe(last);
    // Only the list's numbers (one column) are read at once; the rows themselves a page at a time.
    const large = seen.filter((s) => s.rows > PAGE_ROWS);
    expect(large.length, JSON.stringify(large.map((s) => s.text.slice(0, 120)))).toBeGreaterThan(0);
    for (const s of large) expect(s.columns, s.text).toBe(1);
    expect(seen.filter((s) => s.rows > 1 && s.columns > 1).length).toBeGreaterThanOrEqual(Math.ceil(N / PAGE_ROWS));
    // Recorded once, with every row.
    const [logged] = await db.select().from(actionLog).where(eq(actionLog.action, 'Download')).orderBy(desc(actionLog.id)).limit(1);
    expect(logged).toMatchObject({ message: name, data: expect.objectContaining({ rows: N }) });
  });
});

async function downloadGet(url: string) {
  const res = await admin.get(url, { lang: 'en' });
  expect(res.statusCode, res.body).toBe(200);
  // Sent as it is written: no length known beforehand.
  expect(res.headers['content-length']).toBeUndefined();
  const wb = await workbookOf(res);
  return wb.worksheets[0]!;
}

describe('the office files made of whole lists are written as they are sent, their rows read a page at a time', () => {
  it.each([
    // Newest first: the last row made first, the first made last (their numbers).
    ['a statement (Transactions.xlsx)', (): string => `/api/transactions/download/${payer!.id}`, 6, N, (ws: ExcelJS.Worksheet, at: number): ExcelJS.CellValue => ws.getRow(at).getCell(2).value, refs.hi, refs.lo],
    ['the mailing list (Emails-Russian.xlsx)', (): string => '/api/DataExport?except=false', 1, N, (ws: ExcelJS.Worksheet, at: number): ExcelJS.CellValue => ws.getRow(at).getCell(1).value, 'listed00001@example.gr', `listed${String(N).padStart(5, '0')}@example.gr`],
  ] as const)('%s: every row in order, no statement answering more than a page of rows', async (_name, url, heads, count, cell, first, last) => {
    let ws: ExcelJS.Worksheet | undefined;
    const seen = await statements(async () => {
      ws = await downloadGet(url());
    });
    expect(ws!.rowCount - heads).toBe(count);
    expect(cell(ws!, heads + 1)).toBe(first);
    expect(cell(ws!, heads + count)).toBe(last);
    expect(seen.filter((s) => s.rows > PAGE_ROWS)).toEqual([]);
    expect(seen.filter((s) => /^fetch forward/.test(s.text)).length).toBeGreaterThanOrEqual(Math.ceil(count / PAGE_ROWS));
  });

  it('the texts (Localization.xlsx): every key once, a page at a time', async () => {
    const keys = (await db.execute<{ n: number }>(sql`select count(distinct key)::int as n from localization`)).rows[0]!.n;
    expect(keys).toBeGreaterThan(PAGE_ROWS);
    let ws: ExcelJS.Worksheet | undefined;
    const seen = await statements(async () => {
      ws = await downloadGet('/api/LocalizationExport');
    });
    expect(ws!.rowCount - 1).toBe(keys);
    expect(seen.filter((s) => s.rows > PAGE_ROWS)).toEqual([]);
  });
});

describe('a reader who goes before the file ends', () => {
  it('is not recorded, the file stops being made, and the same file can be asked for again at once', async () => {
    const before = (await db.select().from(actionLog).where(eq(actionLog.action, 'Download'))).length;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const ask = (signal?: AbortSignal) =>
      fetch(`http://127.0.0.1:${port}/api/Deal/download`, {
        method: 'POST',
        headers: { ...admin.headers, 'content-type': 'application/json', 'accept-language': 'en' },
        body: JSON.stringify({ dealType: 1 }),
        signal,
      });
    const gone = new AbortController();
    const res = await ask(gone.signal);
    expect(res.status).toBe(200);
    // The first bytes of the file, then the reader goes.
    const reader = res.body!.getReader();
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    gone.abort();
    await reader.cancel().catch(() => {});
    // The same file again: not refused as "being made" once the first has stopped, and whole.
    const again = await vi.waitFor(
      async () => {
        const r = await ask();
        if (r.status === 409) throw new Error(`still being made: ${await r.text()}`);
        return r;
      },
      { timeout: 5000, interval: 100 },
    );
    expect(again.status).toBe(200);
    const wb = await workbookOf(Buffer.from(await again.arrayBuffer()));
    expect(wb.worksheets[0]!.rowCount - 6).toBe(N);
    // Only the whole file is on the record.
    const after = await db.select().from(actionLog).where(eq(actionLog.action, 'Download')).orderBy(desc(actionLog.id));
    expect(after).toHaveLength(before + 1);
    expect(after[0]!.data).toMatchObject({ rows: N });
    app.server.closeAllConnections();
  });
});
