import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, actionLog, objects, reservations } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const t = await createTestApp();
const { db } = t;

const agent = await t.user({ roles: ['employee'] });
const branchAgent = await t.user({ roles: ['employee'], branchId: 1 });
const admin = await t.user({ roles: ['admin'] });

const save = (body: Record<string, unknown>, lang = 'en') => agent.post('/api/Reservation/update', body, { lang });
const search = async (body: Record<string, unknown>) => {
  const res = await agent.post('/api/Reservation/search', body);
  expect(res.statusCode).toBe(200);
  return res.json();
};

let seq = 0;
async function newObject(values: Record<string, unknown> = {}) {
  seq++;
  const [o] = await db
    .insert(objects)
    .values({ title: `Studio ${seq}`, forShortRent: true, websiteCode: `WEB-${seq}`, ...values } as never)
    .returning({ id: objects.id, ref: objects.referenceNumber });
  return o!;
}
async function book(objectId: number, checkIn: string, duration: number, extra: Record<string, unknown> = {}) {
  const res = await save({ objectId, checkIn, duration, client: { lastName: `Guest${++seq}` }, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('a reservation', () => {
  it('is booked on a short-let object: check-out, deposit and final commission are computed, and the action log has it', async () => {
    const o = await newObject();
    const res = await save({
      objectId: o.id,
      checkIn: '2026-07-10',
      duration: 7,
      adults: 2,
      children: 1,
      arrivalTimePlanned: '15:30',
      client: { lastName: 'Papadopoulos', firstName: 'Giorgos', phone: '+30 6900 000000' },
      reservationStage: 3,
      sourceId: 4,
      total: 1234.56,
      prepaymentCash: 100.1,
      prepaymentBank: 200.2,
      prepaymentBankDone: true,
      comission: 0.3,
      comission3rdParty: 0.1,
      paymentToOwner: 1000,
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r).toMatchObject({
      checkOut: '2026-07-17',
      duration: 7,
      totalPaymentDeposit: 300.3,
      finalComission: 0.2,
      prepaymentBankDone: true,
      reservationStage: 3,
      client: { lastName: 'Papadopoulos', firstName: 'Giorgos' },
      object: { id: o.id, websiteCode: `WEB-${seq}` },
      version: 1,
    });
    expect(r.reservationNumber).toBe(String(r.id));
    expect(r.bookingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.stageOptions.map((s: { text: string }) => s.text)).toContain('Confirmed');
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Reservation'), eq(actionLog.entityId, r.id)));
    expect(log).toMatchObject({ action: 'Create', actionBy: agent.id });

    // Check-out sent instead of the nights.
    const moved = await save({ id: r.id, version: 1, checkIn: '2026-07-11', checkOut: '2026-07-14' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ checkIn: '2026-07-11', duration: 3, checkOut: '2026-07-14', version: 2 });
    // Stale version: 409 with the current record, nothing written.
    const stale = await save({ id: r.id, version: 1, adults: 5 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ version: 2, adults: 2 });
    const [row] = await db.select().from(reservations).where(eq(reservations.id, r.id));
    expect(row!.adults).toBe(2);
  });

  it('opens blank for the add form, and in Greek', async () => {
    const o = await newObject();
    const res = await agent.get(`/api/Reservation/add?objectId=${o.id}&checkIn=2026-08-01`, { lang: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: null, objectId: o.id, checkIn: '2026-08-01', reservationStage: 1, client: { lastName: null } });
    expect(res.json().sourceOptions.map((s: { text: string }) => s.text)).toContain('Η ιστοσελίδα μας');
    expect((await agent.get('/api/Reservation/edit/2147483647')).statusCode).toBe(404);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const o = await newObject();
    const longLet = await newObject({ forShortRent: false });
    const ok = { objectId: o.id, checkIn: '2026-09-01', duration: 3, client: { lastName: 'Nikolaou' } };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, total: -1 }, 'total'],
      [{ ...ok, comission: -0.01 }, 'comission'],
      [{ ...ok, total: 10.001 }, 'total'],
      [{ ...ok, checkOut: '2026-08-30', duration: undefined }, 'checkOut'],
      [{ ...ok, checkOut: '2026-09-01', duration: undefined }, 'checkOut'],
      [{ ...ok, duration: 0 }, 'duration'],
      [{ ...ok, duration: 366 }, 'duration'],
      [{ ...ok, reservationStage: 99 }, 'reservationStage'],
      [{ ...ok, sourceId: 0 }, 'sourceId'],
      [{ ...ok, objectId: 2147483648 }, 'objectId'],
      [{ ...ok, id: 2147483648 }, 'id'],
      [{ ...ok, client: { lastName: '  ' } }, 'client.lastName'],
      [{ ...ok, client: {} }, 'client.lastName'],
      [{ ...ok, arrivalTimePlanned: '25:00' }, 'arrivalTimePlanned'],
      [{ ...ok, externalLink: 'javascript:alert(1)' }, 'externalLink'],
      [{ ...ok, checkIn: '2026-02-30' }, 'checkIn'],
      // A mistyped year: the stay would end after 31/12/9999.
      [{ ...ok, checkIn: '9999-12-31', duration: 1 }, 'checkIn'],
      [{ ...ok, objectId: longLet.id }, 'objectId'],
      [{ ...ok, comission: 100, comission3rdParty: 150 }, 'comission3rdParty'],
      [{ ...ok, comission: 0.2, comission3rdParty: 0.3 }, 'comission3rdParty'],
      [{ ...ok, comission3rdParty: 0.01 }, 'comission3rdParty'],
    ];
    for (const [body, field] of cases) {
      const res = await save(body);
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      const errors = res.json().errors ?? {};
      expect(Object.keys(errors).join(','), `${field}: ${res.body}`).toContain(field);
    }
    // A stay past the longest, or of no night, is told in the stay's words (as nights or as a check-out).
    const long = await save({ ...ok, duration: 366 });
    expect(long.json().errors.duration).toEqual(['A stay can last at most 365 nights.']);
    const longEl = await save({ ...ok, duration: 400 }, 'el');
    expect(longEl.json().errors.duration).toEqual(['Μια διαμονή μπορεί να διαρκέσει έως 365 διανυκτερεύσεις.']);
    const longOut = await save({ ...ok, duration: undefined, checkOut: '2027-09-02' }, 'ru');
    expect(longOut.json().errors.checkOut).toEqual(['Проживание может длиться не более 365 ночей.']);
    expect((await save({ ...ok, duration: 0 })).json().errors.duration).toEqual(['A stay lasts at least one night.']);
    expect((await save({ ...ok, duration: 365 })).statusCode).toBe(200);
    await db.delete(reservations).where(eq(reservations.objectId, o.id));
    const notShort = await save({ ...ok, objectId: longLet.id });
    expect(notShort.json().errors.objectId[0]).toContain('short let');
    const noName = await save({ ...ok, client: {} }, 'el');
    expect(noName.json().errors['client.lastName'][0]).toBeTruthy();
    const over = await save({ ...ok, comission: 100, comission3rdParty: 150 }, 'el');
    expect(over.json().errors.comission3rdParty[0]).toBe('Η προμήθεια τρίτων δεν μπορεί να είναι μεγαλύτερη από την προμήθεια, αφού καταβάλλεται από αυτήν.');
    expect(await db.select().from(reservations).where(eq(reservations.objectId, o.id))).toHaveLength(0);
  });

  it('answers and opens a booking whose sums pass what one amount may be (three prepayments of 9 000 000 000)', async () => {
    const o = await newObject();
    const res = await save({ objectId: o.id, checkIn: '2026-10-01', duration: 2, client: { lastName: 'Big' }, prepaymentCash: 9e9, prepaymentBank: 9e9, prepaymentInvoice: 9e9, comission: 50, comission3rdParty: 50 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ totalPaymentDeposit: 27e9, finalComission: 0 });
    const opened = await agent.get(`/api/Reservation/edit/${res.json().id}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().totalPaymentDeposit).toBe(27e9);
  });

  it('never double-books an object: an overlapping stay is refused naming the other booking; the check-out day and cancelled stays are free', async () => {
    const o = await newObject();
    const first = await book(o.id, '2026-06-01', 5, { client: { lastName: 'Ioannou', firstName: 'Eleni' } });
    const clash = await save({ objectId: o.id, checkIn: '2026-06-04', duration: 3, client: { lastName: 'Other' } });
    expect(clash.statusCode).toBe(400);
    const message = clash.json().errors.checkIn[0] as string;
    expect(message).toContain(`reservation ${first.id}`);
    expect(message).toContain('Ioannou Eleni');
    expect(message).toContain('01/06/2026');
    expect(message).toContain('06/06/2026');
    const el = await save({ objectId: o.id, checkIn: '2026-05-30', duration: 10, client: { lastName: 'Other' } }, 'el');
    expect(el.statusCode).toBe(400);
    expect(el.json().errors.checkIn[0]).toContain('είναι ήδη κρατημένο');
    // The check-out day is the next guest's check-in day.
    const next = await book(o.id, '2026-06-06', 2);
    // Moving a booking onto another is refused too; moving it within its own nights is not.
    const move = await save({ id: next.id, version: next.version, checkIn: '2026-06-05' });
    expect(move.statusCode).toBe(400);
    expect((await save({ id: first.id, version: first.version, duration: 4 })).statusCode).toBe(200);
    // A cancelled stay holds nothing; reviving it over another is refused.
    const cancelled = await book(o.id, '2026-06-20', 3, { reservationStage: 7 });
    await book(o.id, '2026-06-21', 2);
    expect((await save({ id: cancelled.id, version: cancelled.version, reservationStage: 3 })).statusCode).toBe(400);
    // Another object on the same nights is fine.
    await book((await newObject()).id, '2026-06-02', 3);
  });

  it('settles two bookings of the same nights sent at the same moment: one is stored, the other refused', async () => {
    const o = await newObject();
    const body = (n: string) => ({ objectId: o.id, checkIn: '2026-10-01', duration: 4, client: { lastName: n } });
    const [a, b] = await Promise.all([save(body('A')), save(body('B'))]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    expect(await db.select().from(reservations).where(eq(reservations.objectId, o.id))).toHaveLength(1);
  });

  it('links the client: picked from an account, or saved as a new client account; merging accounts moves the bookings', async () => {
    const o = await newObject();
    const [acc] = await db.insert(accounts).values({ lastName: 'Georgiou', firstName: 'Anna', emails: ['anna@example.com'], phones: ['+30 210 1234567'] }).returning({ id: accounts.id });
    const picked = await book(o.id, '2027-01-01', 2, { client: {}, clientAccountId: acc!.id });
    expect(picked).toMatchObject({ clientAccountId: acc!.id, client: { lastName: 'Georgiou', firstName: 'Anna', email: 'anna@example.com', phone: '+30 210 1234567' } });
    const [marked] = await db.select({ isClient: accounts.isClient }).from(accounts).where(eq(accounts.id, acc!.id));
    expect(marked!.isClient).toBe(true);
    expect((await save({ objectId: o.id, checkIn: '2027-02-01', duration: 1, client: {}, clientAccountId: 2147483647 })).statusCode).toBe(400);

    const saved = await book(o.id, '2027-01-05', 2, { client: { lastName: 'Petrou', firstName: 'Kostas', email: 'kostas@example.com', taxNumber: '090000045' }, saveClientAsAccount: true });
    expect(saved.clientAccountId).toBeGreaterThan(0);
    const [created] = await db.select().from(accounts).where(eq(accounts.id, saved.clientAccountId));
    expect(created).toMatchObject({ lastName: 'Petrou', firstName: 'Kostas', emails: ['kostas@example.com'], isClient: true, taxNumber: '090000045', taxNumberOfOtherCountry: null });
    // A foreign guest's number is not a Greek ΑΦΜ: the new client keeps it under another country.
    const guest = await book(o.id, '2027-01-09', 2, { client: { lastName: 'Jensen', firstName: 'Lars', taxNumber: 'DK12345678' }, saveClientAsAccount: true });
    const [foreign] = await db.select().from(accounts).where(eq(accounts.id, guest.clientAccountId));
    expect(foreign).toMatchObject({ taxNumber: null, taxNumberOfOtherCountry: 'DK12345678' });

    // A guest's phone or e-mail the account would refuse is named, and nothing is stored.
    const before = (await db.select({ id: accounts.id }).from(accounts)).length;
    const badPhone = await save({ objectId: o.id, checkIn: '2027-03-01', duration: 2, client: { lastName: 'Smith', phone: '+44 7700 900123 (Mike)' }, saveClientAsAccount: true });
    expect(badPhone.statusCode).toBe(400);
    expect(Object.keys(badPhone.json().errors)).toEqual(['client.phone']);
    const badEmail = await save({ objectId: o.id, checkIn: '2027-03-01', duration: 2, client: { lastName: 'Smith', email: 'john.smith@example.co.uk.' }, saveClientAsAccount: true });
    expect(badEmail.statusCode).toBe(400);
    expect(Object.keys(badEmail.json().errors)).toEqual(['client.email']);
    // A company's name longer than an account's last name may be (200) stays the booking's, not an account's.
    const longName = 'Θ'.repeat(250);
    const tooLong = await save({ objectId: o.id, checkIn: '2027-03-01', duration: 2, client: { lastName: longName }, saveClientAsAccount: true });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json().errors)).toEqual(['client.lastName']);
    expect((await db.select({ id: accounts.id }).from(accounts)).length).toBe(before);
    expect(await db.select().from(reservations).where(and(eq(reservations.objectId, o.id), eq(reservations.clientLastName, 'Smith')))).toHaveLength(0);
    // Two numbers written with ';' become the account's two phones.
    const two = await book(o.id, '2027-03-10', 2, { client: { lastName: 'Twophones', phone: '697 1234567; 2310 123456' }, saveClientAsAccount: true });
    const [withTwo] = await db.select({ phones: accounts.phones }).from(accounts).where(eq(accounts.id, two.clientAccountId));
    expect(withTwo!.phones).toEqual(['697 1234567', '2310 123456']);
    // As a booking's own details (not saved as an account) they are kept as typed.
    const asTyped = await book(o.id, '2027-03-01', 2, { client: { lastName: 'Smith', phone: '+44 7700 900123 (Mike)' } });
    expect(asTyped.client.phone).toBe('+44 7700 900123 (Mike)');

    const [kept] = await db.select({ v: accounts.version }).from(accounts).where(eq(accounts.id, acc!.id));
    const merged = await admin.post('/api/account/merge', { account: { id: acc!.id, version: kept!.v }, duplicateId: saved.clientAccountId });
    expect(merged.statusCode, merged.body).toBe(200);
    const [moved] = await db.select({ a: reservations.clientAccountId }).from(reservations).where(eq(reservations.id, saved.id));
    expect(moved!.a).toBe(acc!.id);
  });

  it('takes a linked account’s long values (a company’s name, an ID number with its issuing office) and opens again', async () => {
    const o = await newObject();
    const company = 'Ξενοδοχειακές και Τουριστικές Επιχειρήσεις Βορείου Ελλάδος — Θερμαϊκός Κόλπος Α.Ε. (υποκατάστημα Καλαμαριάς, τμήμα κρατήσεων ομίλων και εταιρικών πελατών)';
    const idNumber = 'ΑΚ 123456, Τ.Α. Καλαμαριάς, 12/05/2019';
    const [acc] = await db.insert(accounts).values({ name: company, internalPassportNumber: idNumber, emails: ['at the front desk', `${'a'.repeat(250)}@example.com`, 'bookings@thermaikos.gr'] } as never).returning({ id: accounts.id });
    const r = await book(o.id, '2027-04-01', 3, { client: {}, clientAccountId: acc!.id });
    expect(r.client).toMatchObject({ lastName: company, internalPassportNumber: idNumber, email: 'bookings@thermaikos.gr' });
    const opened = await agent.get(`/api/Reservation/edit/${r.id}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().client.internalPassportNumber).toBe(idNumber);
  });

  it('keeps its property from being deleted (a branch user cannot even see it); once it is gone the property can be', async () => {
    const o = await newObject();
    const r = await book(o.id, '2027-05-01', 3, { total: 450 });
    for (const who of [branchAgent, agent, admin]) {
      const res = await who.del(`/api/object/${o.id}`, { lang: 'en' });
      expect(res.statusCode).toBe(409);
      expect(res.json().title).toBe('This property has reservations (1). It can be deleted once they are deleted or moved to another property.');
    }
    expect(await db.select({ id: reservations.id }).from(reservations).where(eq(reservations.objectId, o.id))).toEqual([{ id: r.id }]);
    expect((await agent.del(`/api/Reservation/${r.id}`)).statusCode).toBe(200);
    expect((await agent.del(`/api/object/${o.id}`)).statusCode).toBe(200);
  });

  it("shows its stage on its property's page: a cancelled stay on the same nights as another is no double booking", async () => {
    const o = await newObject();
    const cancelled = await book(o.id, '2027-08-01', 4, { reservationStage: 7, client: { lastName: 'Early' } });
    const confirmed = await book(o.id, '2027-08-01', 4, { reservationStage: 3, client: { lastName: 'Late' } });
    for (const [lang, texts] of [
      ['en', ['Cancelled', 'Confirmed']],
      ['el', ['Ακυρωμένη', 'Επιβεβαιωμένη']],
      ['ru', ['Отменена', 'Подтверждена']],
    ] as const) {
      const view = await agent.get(`/api/object/view/${o.id}`, { lang });
      expect(view.statusCode, view.body).toBe(200);
      // The later booking of the same nights first.
      expect(view.json().reservations).toMatchObject([
        { id: confirmed.id, reservationStage: 3, stage: texts[1] },
        { id: cancelled.id, reservationStage: 7, stage: texts[0] },
      ]);
    }
  });

  it('is deleted with its action-log row', async () => {
    const r = await book((await newObject()).id, '2027-03-01', 2);
    expect((await agent.del(`/api/Reservation/${r.id}`)).statusCode).toBe(200);
    expect((await agent.get(`/api/Reservation/edit/${r.id}`)).statusCode).toBe(404);
    expect((await agent.del(`/api/Reservation/${r.id}`)).statusCode).toBe(404);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Reservation'), eq(actionLog.entityId, r.id), eq(actionLog.action, 'Delete')));
    expect(log).toBeTruthy();
  });
});

describe('the reservations list', () => {
  it('filters by each filter and sums the footer exactly over every matching row, not only the page', async () => {
    const o = await newObject({ websiteCode: 'SUMS-1' });
    const year = '2031';
    const a = await book(o.id, `${year}-01-10`, 3, { total: 0.1, comission: 0.1, comission3rdParty: 0.05, paymentToOwner: 0.07, sourceId: 3, reservationStage: 3, client: { lastName: 'Alpha' }, reservationNumberExternal: 'HMABC123', problem: 'Late key' });
    const b = await book(o.id, `${year}-02-10`, 3, { total: 0.2, comission: 0.2, sourceId: 4, reservationStage: 2, bookingDate: '2030-12-01', client: { lastName: 'Βήτα' } });
    const c = await book(o.id, `${year}-12-30`, 5, { total: 1000000.35, sourceId: 4, reservationStage: 3, client: { lastName: 'Gamma' } });
    const base = { objectId: o.id, startDate: `${year}-01-01`, endDate: `${year}-12-31`, dateFilterType: 1 };
    const all = await search({ ...base, perPage: 1 });
    expect(all.totalRows).toBe(3);
    expect(all.items).toHaveLength(1);
    expect(all.sums).toEqual({ total: '1000000.65', paymentToOwner: '0.07', comission: '0.30', comission3rdParty: '0.05', finalComission: '0.25' });
    const ids = async (body: Record<string, unknown>) => ((await search({ ...base, perPage: 50, sortDir: 'asc', ...body })).items as { id: number }[]).map((r) => r.id);
    expect(await ids({ sources: [4] })).toEqual([b.id, c.id]);
    expect(await ids({ stages: [2] })).toEqual([b.id]);
    expect(await ids({ clientName: 'alph' })).toEqual([a.id]);
    expect(await ids({ clientName: 'Vita' })).toEqual([b.id]);
    expect(await ids({ reservationNumber: String(c.id) })).toEqual([c.id]);
    expect(await ids({ reservationNumberExternal: 'hmabc' })).toEqual([a.id]);
    expect(await ids({ objectId: undefined, objectWebsiteCode: 'sums' })).toEqual([a.id, b.id, c.id]);
    // Check-out in the year: c leaves in the next one. Booking date: b was booked the year before.
    expect(await ids({ dateFilterType: 2 })).toEqual([a.id, b.id]);
    expect(await ids({ dateFilterType: 0, startDate: '2030-01-01', endDate: '2030-12-31' })).toEqual([b.id]);
    // Stay: any night in the range.
    expect(await ids({ dateFilterType: 3, startDate: `${year}-01-12`, endDate: `${year}-01-12` })).toEqual([a.id]);
    expect(await ids({ dateFilterType: 3, startDate: `${year}-01-13`, endDate: `${year}-01-13` })).toEqual([]);
    const row = (await search({ ...base, perPage: 50, sortDir: 'asc' })).items[0];
    expect(row).toMatchObject({ id: a.id, rowClass: 'confirmed', stage: 'Confirmed', problem: 'Late key', objectWebsiteCode: 'SUMS-1', clientDisplayName: 'Alpha', sourceDisplayName: 'Airbnb', total: 0.1, finalComission: 0.05 });
  });

  it('leaves cancelled bookings out of the footer sums (not out of the count) unless the stage filter picks them', async () => {
    const o = await newObject();
    const year = '2032';
    await book(o.id, `${year}-03-01`, 3, { total: 300.1, paymentToOwner: 200, comission: 60, comission3rdParty: 10, reservationStage: 3 });
    await book(o.id, `${year}-03-10`, 2, { total: 1000, paymentToOwner: 800, comission: 150, comission3rdParty: 20, reservationStage: 7 });
    await book(o.id, `${year}-03-20`, 2, { total: 0.2, paymentToOwner: 0.1, comission: 0.05, reservationStage: 6 });
    const base = { objectId: o.id, startDate: `${year}-01-01`, endDate: `${year}-12-31`, dateFilterType: 1, perPage: 50 };
    const all = await search(base);
    expect(all.totalRows).toBe(3);
    expect(all.items).toHaveLength(3);
    expect(all.sums).toEqual({ total: '300.30', paymentToOwner: '200.10', comission: '60.05', comission3rdParty: '10.00', finalComission: '50.05' });
    expect(all.sumsWithCancelled).toBe(false);
    // Stages picked without "cancelled": still left out.
    const settled = await search({ ...base, stages: [3, 6] });
    expect(settled.sums.total).toBe('300.30');
    expect(settled.sumsWithCancelled).toBe(false);
    // Picked by name, they are summed: alone, and beside other stages.
    const cancelled = await search({ ...base, stages: [7] });
    expect(cancelled.totalRows).toBe(1);
    expect(cancelled.sums).toEqual({ total: '1000.00', paymentToOwner: '800.00', comission: '150.00', comission3rdParty: '20.00', finalComission: '130.00' });
    expect(cancelled.sumsWithCancelled).toBe(true);
    const both = await search({ ...base, stages: [3, 7] });
    expect(both.sums.total).toBe('1300.10');
    expect(both.sumsWithCancelled).toBe(true);
  });

  it('downloads as Reservations.xlsx: every matching booking in the list\'s order, the footer sums above, real numbers and dates, no formulas', async () => {
    const o = await newObject({ websiteCode: 'XLSX-1' });
    const year = '2033';
    const a = await book(o.id, `${year}-03-01`, 3, { total: 300.1, paymentToOwner: 200, comission: 60, comission3rdParty: 10, reservationStage: 3, sourceId: 3, client: { lastName: '=HYPERLINK("http://evil")' } });
    const b = await book(o.id, `${year}-03-10`, 2, { total: 1000, paymentToOwner: 800, comission: 150, reservationStage: 7 });
    const c = await book(o.id, `${year}-04-20`, 4, { total: 0.2, reservationStage: 6, totalDone: true });
    const body = { objectId: o.id, startDate: `${year}-01-01`, endDate: `${year}-12-31`, dateFilterType: 1, sortBy: 'checkIn', sortDir: 'asc' };
    const res = await agent.post('/api/Reservation/download', body, { lang: 'el' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('Reservations.xlsx');
    const wb = await workbookOf(res);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Κρατήσεις');
    expect(ws.getCell('A2').value).toBe(`Εμφανίζονται: Άφιξη: 01/01/${year} – 31/12/${year}`);
    const head = (ws.getRow(6).values as unknown[]).slice(1);
    const col = (name: string) => head.indexOf(name) + 1;
    // The sums, each above its own column: the cancelled booking left out, and said so.
    expect(ws.getRow(3).getCell(col('Σύνολο')).value).toBe(300.3);
    expect(ws.getRow(3).getCell(col('Σύνολο')).numFmt).toContain('€');
    expect(ws.getCell('A3').value).toBe('Σύνολα όλων των 3 κρατήσεων του φίλτρου');
    expect(String(ws.getCell('D4').value)).toMatch(/^Οι ακυρωμένες κρατήσεις/);
    expect([7, 8, 9].map((r) => ws.getRow(r).getCell(1).value)).toEqual([a.id, b.id, c.id]);
    expect(ws.getRow(10).getCell(1).value ?? null).toBeNull();
    expect(ws.getRow(7).getCell(col('Άφιξη')).value).toEqual(new Date(`${year}-03-01T00:00:00Z`));
    expect(ws.getRow(7).getCell(col('Προμήθεια')).value).toBe(60);
    expect(String(ws.getRow(7).getCell(col('Επισκέπτης')).value)).toMatch(/^'=HYPERLINK/);
    expect(ws.getRow(9).getCell(col('Εξοφλήθηκε')).value).toBe('Ναι');
    for (let r = 1; r <= 9; r++) ws.getRow(r).eachCell((cell) => expect(cell.formula).toBeUndefined());
    // Branch users see no reservations, nor their file; a bad filter is a 400.
    expect((await branchAgent.post('/api/Reservation/download', body)).statusCode).toBe(403);
    expect((await agent.post('/api/Reservation/download', { stages: [99] })).statusCode).toBe(400);
  });

  it('defaults to the current year by check-out, and refuses bad filters', async () => {
    const o = await newObject();
    const year = new Date().getFullYear();
    const r = await book(o.id, `${year}-05-01`, 2);
    const res = await search({ objectId: o.id });
    expect(res.startDate).toBe(`${year}-01-01`);
    expect(res.endDate).toBe(`${year}-12-31`);
    expect(res.items.map((i: { id: number }) => i.id)).toEqual([r.id]);
    const backwards = await agent.post('/api/Reservation/search', { dateFilterType: 3, startDate: '2026-05-02', endDate: '2026-05-01' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors.endDate[0]).toContain('cannot be before');
    for (const bad of [{ stages: [99] }, { sources: [0] }, { dateFilterType: 4 }, { startDate: '2026-13-01' }, { objectId: 2147483648 }, { perPage: 0 }]) {
      expect((await agent.post('/api/Reservation/search', bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('branch users', () => {
  it('are refused every reservation call, and see no reservations on an object', async () => {
    const o = await newObject();
    const r = await book(o.id, '2028-01-01', 2);
    for (const [method, url, body] of [
      ['POST', '/api/Reservation/search', {}],
      ['GET', '/api/Reservation/add', undefined],
      ['GET', `/api/Reservation/edit/${r.id}`, undefined],
      ['POST', '/api/Reservation/update', { id: r.id, version: r.version, adults: 3 }],
      ['DELETE', `/api/Reservation/${r.id}`, undefined],
      // nor reach it through its activities
      ['POST', '/api/activity/add', { entityType: 6, id: r.id }],
      ['GET', `/api/activity?parent=6&parentId=${r.id}`, undefined],
    ] as const) {
      expect((await branchAgent.call(method, url, body)).statusCode, url).toBe(403);
    }
    // An activity of the booking (a to-do, linked to the guest's account too) stays out of their sight.
    const added = await agent.post('/api/activity/add', { entityType: 6, id: r.id });
    expect(added.statusCode).toBe(200);
    const [guest] = await db.insert(accounts).values({ firstName: 'Guest', lastName: 'Passportou' }).returning({ id: accounts.id });
    const act = added.json();
    const todo = await agent.post('/api/activity/update', {
      id: act.id,
      version: act.version,
      description: 'Guest passport AB123: call back',
      done: false,
      links: [...act.links.map((l: { entity: number; id: number }) => ({ entity: l.entity, id: l.id })), { entity: 2, id: guest!.id }],
    });
    expect(todo.statusCode, todo.body).toBe(200);
    for (const [method, url, body] of [
      ['GET', `/api/activity/${act.id}`, undefined],
      ['POST', '/api/activity/update', { id: act.id, version: todo.json().version, description: 'changed' }],
      ['DELETE', `/api/activity/${act.id}`, undefined],
    ] as const) {
      expect((await branchAgent.call(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    const actions = await branchAgent.post('/api/activity/actions', {});
    expect(actions.statusCode).toBe(200);
    expect(actions.json().items.map((i: { id: number }) => i.id)).not.toContain(act.id);
    const onGuest = await branchAgent.get(`/api/activity?parent=2&parentId=${guest!.id}`);
    expect(onGuest.json()).toMatchObject({ items: [], totalRows: 0 });
    // The office sees it everywhere.
    expect((await agent.get(`/api/activity?parent=2&parentId=${guest!.id}`)).json().totalRows).toBe(1);
    expect((await agent.post('/api/activity/actions', {})).json().items.map((i: { id: number }) => i.id)).toContain(act.id);
    expect((await agent.get(`/api/activity/${act.id}`)).json().description).toBe('Guest passport AB123: call back');
    // Nor its files: listed, opened, removed, reordered or attached to (ids are easy to guess).
    const upload = async (name: string) => {
      const res = await agent.upload('/api/files', [{ field: 'files', name, data: Buffer.from(`guest passport scan ${name}`) }]);
      expect(res.statusCode, res.body).toBe(200);
      return res.json()[0] as { id: number; systemName: string };
    };
    const passport = await upload('passport.txt');
    expect((await agent.post('/api/files/setParent', { entityType: 3, id: act.id, fileNames: [String(passport.id)] })).statusCode).toBe(200);
    const another = await upload('visa.txt');
    for (const [method, url, body] of [
      ['GET', `/api/files?parentType=3&parentId=${act.id}`, undefined],
      ['GET', `/api/files/${passport.id}`, undefined],
      ['GET', `/api/files/${passport.systemName}`, undefined],
      ['POST', '/api/files/reorder', { ids: [passport.id] }],
      ['POST', '/api/files/setParent', { entityType: 3, id: act.id, fileNames: [String(another.id)] }],
      ['DELETE', `/api/files/${passport.id}`, undefined],
    ] as const) {
      expect((await branchAgent.call(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    const kept = await agent.get(`/api/files?parentType=3&parentId=${act.id}`);
    expect(kept.json().items.map((f: { id: number }) => f.id)).toEqual([passport.id]);
    expect((await agent.get(`/api/files/${passport.id}`)).body).toBe('guest passport scan passport.txt');
    // Files of what they may see stay theirs to use.
    expect((await branchAgent.post('/api/files/setParent', { entityType: 2, id: guest!.id, fileNames: [String(another.id)] })).statusCode).toBe(200);
    expect((await branchAgent.get(`/api/files/${another.id}`)).statusCode).toBe(200);
    const view = await branchAgent.get(`/api/object/view/${o.id}`);
    expect(view.statusCode).toBe(200);
    expect(view.json().reservations).toEqual([]);
    const own = await agent.get(`/api/object/view/${o.id}`);
    expect(own.json().reservations).toEqual([{ id: r.id, descr: expect.stringContaining('01/01/2028 – 03/01/2028'), reservationStage: 1, stage: 'Inquiry' }]);
  });
});
