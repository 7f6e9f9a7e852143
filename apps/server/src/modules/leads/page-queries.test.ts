import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ASSIGNMENT_PARENTS, LinkKind } from '@crm/contract';
import { accounts, assignments, files, leadObjects, leads, objects, viewingObjects, viewings } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';

/**
 * The pages a client sees or is handed (the shortlist page, the viewing sheet, the property sheet)
 * are read with a few statements, however many properties or photos they show: none per property.
 */
const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test' });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

async function newObjects(n: number) {
  const rows = await db
    .insert(objects)
    .values(
      Array.from({ length: n }, (_, i) => ({
        referenceNumber: sql`nextval('objects_reference_number_seq')`,
        title: `Flat ${i}`,
        objectSubTypeId: 1,
        subTypeObjectTypeId: 1,
        forRent: true,
        rentPrice: 600 + i,
        forSale: true,
        salePrice: 150000 + i,
        area: 70,
        active: true,
      })) as never,
    )
    .returning({ id: objects.id });
  // Two photos each.
  await db.insert(files).values(
    rows.flatMap((o, i) => [1, 2].map((k) => ({ systemName: `p${o.id}-${k}.jpg`, userName: 'p.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'image', webName: `p${o.id}-${k}-web.webp`, thumbName: `p${o.id}-${k}-t.webp`, sortOrder: k + i }))),
  );
  return rows.map((r) => r.id);
}

/** The statements the app sends while `run` runs (the job runner's own polling left out). */
async function statements(run: () => Promise<void>) {
  const sent: string[] = [];
  const query = t.pool.query.bind(t.pool);
  t.pool.query = ((q: string | { text: string }, values?: unknown[]) => {
    sent.push(typeof q === 'string' ? q : q.text);
    return query(q as never, values as never);
  }) as typeof t.pool.query;
  try {
    await run();
  } finally {
    t.pool.query = query;
  }
  return sent.filter((s) => !/\bjobs\b/.test(s));
}

async function shortlistOf(n: number) {
  const ids = await newObjects(n);
  const [a] = await db.insert(accounts).values({ firstName: 'Maria', lastName: `Client${n}` }).returning();
  const [l] = await db.insert(leads).values({ accountId: a!.id, forRent: true } as never).returning({ id: leads.id });
  await db.insert(leadObjects).values(ids.map((objectId, position) => ({ leadId: l!.id, objectId, position })));
  const res = await agent.post(`/api/lead/${l!.id}/shortlist`, { objectIds: ids, channel: 'link' });
  expect(res.statusCode, res.body).toBe(200);
  return /\/Shortlist\/([A-Za-z0-9_-]{43})$/.exec(res.json().url as string)![1]!;
}

async function viewingOf(n: number) {
  const ids = await newObjects(n);
  const [a] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: `Viewer${n}`, language: 'el' }).returning();
  const [l] = await db.insert(leads).values({ accountId: a!.id, forPurchase: true } as never).returning({ id: leads.id });
  const [v] = await db.insert(viewings).values({ demandId: l!.id, dateOfViewing: new Date('2026-12-03T09:30:00Z') } as never).returning({ id: viewings.id });
  await db.insert(viewingObjects).values(ids.map((objectId, position) => ({ viewingId: v!.id, objectId, position })) as never);
  const [e] = await db.insert(accounts).values({ firstName: 'Nikos', lastName: `Agent${n}`, isEmploye: true }).returning();
  await db.insert(assignments).values({ parent: ASSIGNMENT_PARENTS.viewing, parentId: v!.id, accountId: e!.id });
  return v!.id;
}

describe('the pages a client sees: a few statements, none per property', () => {
  it('the shortlist page', async () => {
    const [small, large] = [await shortlistOf(2), await shortlistOf(20)];
    // The first opening notes the time (one statement more): both opened once before counting.
    for (const tk of [small, large]) expect((await app.inject({ url: `/api/shortlist/${tk}` })).statusCode).toBe(200);
    const counts: number[] = [];
    for (const tk of [small, large]) {
      const sent = await statements(async () => {
        const res = await app.inject({ url: `/api/shortlist/${tk}` });
        expect(res.statusCode).toBe(200);
      });
      counts.push(sent.length);
    }
    expect(counts[1], 'with 20 properties as with 2').toBe(counts[0]);
    // The shortlist, its properties, the lead's client and services, the agency's settings, the agent's full name.
    expect(counts[0]).toBeLessThanOrEqual(7);
  });

  it('the viewing sheet', async () => {
    const [small, large] = [await viewingOf(2), await viewingOf(15)];
    const counts: number[] = [];
    for (const id of [small, large]) {
      const sent = await statements(async () => {
        const res = await agent.get(`/api/Viewing/${id}/sheet`);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().objects.length).toBe(id === small ? 2 : 15);
      });
      counts.push(sent.length);
    }
    expect(counts[1], 'with 15 properties as with 2').toBe(counts[0]);
    expect(counts[0]).toBeLessThanOrEqual(4);
  });

  it('the property sheet', async () => {
    const [one] = await newObjects(1);
    const [many] = await newObjects(1);
    await db.insert(files).values(
      Array.from({ length: 10 }, (_, k) => ({ systemName: `m${k}.jpg`, userName: 'm.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: many!, type: 'image', webName: `m${k}-web.webp`, thumbName: `m${k}-t.webp`, sortOrder: 10 + k })),
    );
    const counts: number[] = [];
    for (const id of [one, many]) {
      const sent = await statements(async () => {
        const res = await agent.get(`/api/object/sheet/${id}`);
        expect(res.statusCode, res.body).toBe(200);
      });
      counts.push(sent.length);
    }
    expect(counts[1], 'with 12 photos as with 2').toBe(counts[0]);
    expect(counts[0]).toBeLessThanOrEqual(4);
  });
});
