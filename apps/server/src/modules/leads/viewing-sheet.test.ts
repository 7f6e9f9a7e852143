import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ASSIGNMENT_PARENTS, formatReferenceNumber } from '@crm/contract';
import { accounts, actionLog, assignments, leads, objects, siteSettings, viewingObjects, viewings } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';

/** The viewing sheet a client signs (decision 044): what it says, in which language, who may read it. */
const t = await createTestApp();
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });
const payer = await t.user({ roles: ['clientPayments'] });

const sheet = (id: number, query = '', lang = 'en', as: Client = agent) => as.get(`/api/Viewing/${id}/sheet${query}`, { lang });

const [employee] = await db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Georgiou', isEmploye: true }).returning({ id: accounts.id });
const [client] = await db
  .insert(accounts)
  .values({ firstName: 'Eleni', lastName: 'Markou', isClient: true, language: 'el', phones: ['+30 694 123 4567'], emails: ['eleni@example.gr'], internalPassportNumber: 'AK 123456' })
  .returning({ id: accounts.id });
const [flat, house] = await db
  .insert(objects)
  .values([
    { objectSubTypeId: 1, area: 85, forSale: true, salePrice: 185000, forRent: true, rentPrice: 750 } as never,
    { objectSubTypeId: 2, area: 32.5, forRent: true, rentPrice: 420 } as never,
  ])
  .returning({ id: objects.id, ref: objects.referenceNumber });
const [lead] = await db.insert(leads).values({ accountId: client!.id, forPurchase: true } as never).returning({ id: leads.id });
const [viewing] = await db.insert(viewings).values({ demandId: lead!.id, dateOfViewing: new Date('2026-12-03T09:30:00Z') } as never).returning({ id: viewings.id });
await db.insert(viewingObjects).values([
  { viewingId: viewing!.id, objectId: flat!.id, position: 0 },
  { viewingId: viewing!.id, objectId: house!.id, position: 1 },
] as never);
await db.insert(assignments).values({ parent: ASSIGNMENT_PARENTS.viewing, parentId: viewing!.id, accountId: employee!.id });
await db.update(siteSettings).set({ name: 'Thermaikos Homes', licence: 'ΓΕΜΗ 123456701000', taxNumber: '094014201', saleFeePercent: 2, rentFeeMonths: 1 }).where(eq(siteSettings.id, 1));

describe('the viewing sheet', () => {
  it("is written in the client's language when the account has one of the three, with the client, the agent, the properties and the fee terms", async () => {
    const res = await sheet(viewing!.id);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.culture).toBe('el');
    expect(s.texts.title).toBe('Δελτίο υπόδειξης ακινήτων');
    expect(s).toMatchObject({
      viewingNumber: String(viewing!.id),
      // The office's time (Europe/Athens, UTC+2 in December).
      dateOfViewing: '03/12/2026, 11:30',
      agency: { name: 'Thermaikos Homes', licence: 'ΓΕΜΗ 123456701000', taxNumber: '094014201' },
      client: { name: 'Eleni Markou', phone: '+30 694 123 4567', email: 'eleni@example.gr', idNumber: 'AK 123456' },
      agents: 'Nikos Georgiou',
    });
    // The lead buys: the flat's sale price; the studio is only let, so its rent.
    expect(s.objects).toEqual([
      { referenceNumber: formatReferenceNumber(flat!.ref), type: 'Διαμέρισμα', location: null, area: '85\u00a0m²', price: '185\u00a0000\u00a0€' },
      { referenceNumber: formatReferenceNumber(house!.ref), type: 'Γκαρσονιέρα', location: null, area: '32,5\u00a0m²', price: '420\u00a0€ / μήνα' },
    ]);
    // A buyer's sheet states the fee on a purchase.
    expect(s.declaration).toContain('«Thermaikos Homes»');
    expect(s.declaration).toContain('για αγορά, 2% επί του τιμήματος πλέον ΦΠΑ');
    expect(s.declaration).not.toContain('μίσθωμα πλέον');
  });

  it('is written in the language asked for, and states both fees when the lead asks for neither service', async () => {
    await db.update(leads).set({ forPurchase: false } as never).where(eq(leads.id, lead!.id));
    const s = (await sheet(viewing!.id, '?culture=ru', 'en')).json();
    expect(s.culture).toBe('ru');
    expect(s.texts.title).toBe('Акт показа объектов недвижимости');
    expect(s.dateOfViewing).toBe('03.12.2026, 11:30');
    expect(s.declaration).toContain('при покупке — 2 % от цены плюс НДС; при аренде — арендная плата за один месяц плюс НДС');
    await db.update(leads).set({ forPurchase: true } as never).where(eq(leads.id, lead!.id));
  });

  it("leaves blanks for what is not known: no fee set, a client without a language (the reader's), a viewing without a lead", async () => {
    await db.update(siteSettings).set({ saleFeePercent: null, rentFeeMonths: 1.5 }).where(eq(siteSettings.id, 1));
    await db.update(accounts).set({ language: null }).where(eq(accounts.id, client!.id));
    const en = (await sheet(viewing!.id, '', 'en')).json();
    expect(en.culture).toBe('en');
    expect(en.declaration).toContain('on a purchase, ______% of the price plus VAT');
    const [bare] = await db.insert(viewings).values({ dateOfViewing: new Date('2026-12-04T08:00:00Z') } as never).returning({ id: viewings.id });
    await db.insert(viewingObjects).values({ viewingId: bare!.id, objectId: house!.id, position: 0 } as never);
    const s = (await sheet(bare!.id, '', 'el')).json();
    expect(s.client).toEqual({ name: null, phone: null, email: null, idNumber: null });
    expect(s.agents).toBeNull();
    expect(s.declaration).toContain('για αγορά, ______% επί του τιμήματος πλέον ΦΠΑ· για μίσθωση, 1,5 μηνιαία μισθώματα πλέον ΦΠΑ');
    expect(s.objects[0].price).toBe('420\u00a0€ / μήνα');
  });

  it('is read by those who see viewings, refuses an unknown language or viewing, and logs nothing', async () => {
    const logs = async () => (await db.select().from(actionLog)).length;
    const before = await logs();
    expect((await sheet(viewing!.id, '', 'en', payer)).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: `/api/Viewing/${viewing!.id}/sheet` })).statusCode).toBe(401);
    const bad = await sheet(viewing!.id, '?culture=de');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.culture).toEqual(['Choose one of the offered values']);
    const missing = await sheet(2147483000, '', 'el');
    expect(missing.statusCode).toBe(404);
    expect(await logs()).toBe(before);
  });
});
