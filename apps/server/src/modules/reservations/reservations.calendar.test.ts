import { describe, expect, it } from 'vitest';
import { CALENDAR_MAX_EACH } from '@crm/contract';
import { accounts, objects, reservations } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';
import { shortLets } from '../../../test/short-lets.ts';

/**
 * A booking's check-in and check-out on the calendar, where booking managers plan their days.
 */
const t = await createTestApp();
const { db } = t;

const agent = await t.user({ roles: ['employee'] });
const branchAgent = await t.user({ roles: ['employee'], branchId: 1 });

const { newObject, book } = shortLets(t, agent);

type Entry = { kind: string; id: number; start: string; allDay: boolean; title: string; link: string; assigned: string };
async function calendar(query: string, as: Client = agent, lang = 'en') {
  const res = await as.get(`/api/calendar?${query}`, { lang });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Entry[]; truncated: boolean };
}
const staysOf = (items: Entry[], id: number) => items.filter((e) => (e.kind === 'checkIn' || e.kind === 'checkOut') && e.id === id).map((e) => `${e.kind} ${e.start}${e.allDay ? ' all day' : ''}`);

describe('check-ins and check-outs on the calendar', () => {
  it('are entries of their own: the guest, the property, the stage, a link to the booking; a check-in at its arrival time', async () => {
    const flat = await newObject('CAL-1');
    const r = await book(flat.id, '2030-03-10', 3, { client: { lastName: 'Müller', firstName: 'Katrin' }, arrivalTimePlanned: '15:30' });
    const { items, truncated } = await calendar('from=2030-03-09&till=2030-03-15');
    expect(truncated).toBe(false);
    const checkIn = items.find((e) => e.kind === 'checkIn' && e.id === r.id);
    expect(checkIn).toEqual({ kind: 'checkIn', id: r.id, start: '2030-03-10T15:30:00', allDay: false, title: `Check-in · Müller Katrin · #${flat.refText} (CAL-1) · Confirmed`, version: r.version, link: `/Reservations/${r.id}`, assigned: '' });
    // The check-out has no time kept: a day's entry.
    expect(items.find((e) => e.kind === 'checkOut' && e.id === r.id)).toMatchObject({ start: '2030-03-13T00:00:00', allDay: true, title: `Check-out · Müller Katrin · #${flat.refText} (CAL-1) · Confirmed` });
    // The actual arrival time, once kept, wins over the planned one.
    const edit = (await agent.get(`/api/Reservation/edit/${r.id}`)).json();
    expect((await agent.post('/api/Reservation/update', { id: r.id, version: edit.version, arrivalTimeActual: '17:05' })).statusCode).toBe(200);
    expect(staysOf((await calendar('from=2030-03-09&till=2030-03-15')).items, r.id)).toEqual(['checkIn 2030-03-10T17:05:00', 'checkOut 2030-03-13T00:00:00 all day']);
    // In the reader's language.
    const greek = (await calendar('from=2030-03-09&till=2030-03-15', agent, 'el')).items.find((e) => e.kind === 'checkOut' && e.id === r.id);
    expect(greek!.title).toBe(`Αναχώρηση · Müller Katrin · #${flat.refText} (CAL-1) · Επιβεβαιωμένη`);
  });

  it('show each end of a stay in the period that holds it, the first and last day included, and leave cancelled bookings out', async () => {
    const flat = await newObject('CAL-2');
    const across = await book(flat.id, '2030-04-28', 5);
    const cancelled = await book(flat.id, '2030-05-10', 2, { reservationStage: 7 });
    const other = await newObject('CAL-2B');
    const edges = await book(other.id, '2030-05-01', 30);
    const april = (await calendar('from=2030-04-01&till=2030-04-30')).items;
    expect(staysOf(april, across.id)).toEqual(['checkIn 2030-04-28T00:00:00 all day']);
    const may = (await calendar('from=2030-05-01&till=2030-05-31')).items;
    expect(staysOf(may, across.id)).toEqual(['checkOut 2030-05-03T00:00:00 all day']);
    expect(staysOf(may, edges.id)).toEqual(['checkIn 2030-05-01T00:00:00 all day', 'checkOut 2030-05-31T00:00:00 all day']);
    expect(staysOf(may, cancelled.id)).toEqual([]);
    // A day's check-out comes before its check-in (the guest leaves in the morning, the next one arrives).
    const turnover = await book(other.id, '2030-05-31', 2);
    const day = (await calendar('from=2030-05-31&till=2030-05-31')).items.filter((e) => e.kind.startsWith('check'));
    expect(day.map((e) => `${e.kind} ${e.id}`)).toEqual([`checkOut ${edges.id}`, `checkIn ${turnover.id}`]);
  });

  it('are shown to everyone who has reservations, whoever the employee chosen, and can be left out', async () => {
    const flat = await newObject('CAL-3');
    const r = await book(flat.id, '2030-06-10', 2);
    const [employee] = await db.insert(accounts).values({ firstName: 'Nikos', lastName: 'Georgiou', isEmploye: true }).returning({ id: accounts.id });
    expect(staysOf((await calendar(`from=2030-06-01&till=2030-06-30&assigned=${employee!.id}`)).items, r.id)).toHaveLength(2);
    expect(staysOf((await calendar('from=2030-06-01&till=2030-06-30&stays=false')).items, r.id)).toEqual([]);
    expect(staysOf((await calendar('from=2030-06-01&till=2030-06-30&stays=true')).items, r.id)).toHaveLength(2);
    // A branch user has no reservations: not on the calendar either, even when asked.
    expect(staysOf((await calendar('from=2030-06-01&till=2030-06-30&stays=true', branchAgent)).items, r.id)).toEqual([]);
    expect((await agent.get('/api/calendar?from=2030-06-01&till=2030-06-30&stays=yes')).statusCode).toBe(400);
  });

  it('say so when a period holds more check-ins and check-outs than the calendar sends', async () => {
    // 35 properties, each booked night after night through July 2031: 1,085 stays, 2,170 ends in the month.
    const flats = await db
      .insert(objects)
      .values(Array.from({ length: 35 }, (_, i) => ({ title: `Busy ${i}`, forShortRent: true }) as never))
      .returning({ id: objects.id });
    await db.insert(reservations).values(
      flats.flatMap((f) => Array.from({ length: 31 }, (_, d) => ({ objectId: f.id, checkIn: `2031-07-${String(d + 1).padStart(2, '0')}`, duration: 1, reservationStage: 3, clientLastName: `Busy ${d}` }))),
    );
    const month = await calendar('from=2031-07-01&till=2031-07-31');
    expect(month.truncated).toBe(true);
    const ends = month.items.filter((e) => e.kind === 'checkIn' || e.kind === 'checkOut');
    expect(ends).toHaveLength(CALENDAR_MAX_EACH);
    // The first ones by day, check-outs before check-ins: the month's last days are what is cut.
    expect(ends.every((e) => e.start < '2031-07-31')).toBe(true);
    const week = await calendar('from=2031-07-01&till=2031-07-07');
    expect(week.truncated).toBe(false);
    expect(week.items.filter((e) => e.kind === 'checkIn')).toHaveLength(35 * 7);
    expect(week.items.filter((e) => e.kind === 'checkOut')).toHaveLength(35 * 6);
    // Left out, they cut nothing.
    expect((await calendar('from=2031-07-01&till=2031-07-31&stays=false')).truncated).toBe(false);
  });
});
