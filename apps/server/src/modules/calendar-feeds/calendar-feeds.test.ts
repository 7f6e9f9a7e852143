import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { accounts, objects, users } from '../../db/schema/index.ts';
import { createTestApp, json } from '../../../test/harness.ts';
import { agencyToday } from '../../lib/dates.ts';

/**
 * Calendar addresses (issue 46, decision 081): an agent's own calendar and an office admin's
 * office-wide one, read back with an iCalendar parser (ical.js) event by event.
 */
const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'], language: 'en-UK' });
const agent = await t.user({ roles: ['employee'], language: 'en-UK' });
const colleague = await t.user({ roles: ['employee'] });
const employee = async (user: { id: number }, firstName: string, lastName: string) => {
  const [a] = await db.insert(accounts).values({ firstName, lastName, isEmploye: true }).returning({ id: accounts.id });
  await db.update(users).set({ accountId: a!.id }).where(eq(users.id, user.id));
  return a!.id;
};
const me = await employee(agent, 'Stefanos', 'Agentis');
const them = await employee(colleague, 'Maria', 'Synadelfou');
const [client] = await db.insert(accounts).values({ firstName: 'Eleni', lastName: 'Pelatis', isClient: true, phones: ['+30 694 123 4567'] }).returning({ id: accounts.id });
const [flat] = await db.insert(objects).values({ title: 'Flat by the sea', address: 'Vasilissis Olgas 112' } as never).returning({ id: objects.id, ref: objects.referenceNumber });
const ref = String(flat!.ref).padStart(4, '0');
const leadId = (await json(agent.post('/api/lead/add', { accountId: client!.id }))).id as number;

const today = agencyToday('Europe/Athens');
const day = (n: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const tomorrow = day(1);
const later = day(200);
const viewing = async (as: typeof agent, at: string, extra: Record<string, unknown> = {}) =>
  json(as.post('/api/Viewing/update', { demandId: leadId, dateOfViewing: at, results: [{ objectId: flat!.id, result: 1 }], ...extra }));

const mine = await viewing(agent, `${tomorrow}T10:00:00`);
const summer = await viewing(agent, `${later}T10:00:00`);
const cancelled = await viewing(agent, `${tomorrow}T12:00:00`, { results: [{ objectId: flat!.id, result: 6 }] });
const theirs = await viewing(colleague, `${tomorrow}T11:00:00`);
const todo = await json(agent.post('/api/activity/add', { entityType: 2, id: client!.id, description: 'Call back about the keys\nShe asked twice.', done: false, date: `${tomorrow}T15:00:00`, assignedTo: me }));
const doneTodo = await json(agent.post('/api/activity/add', { entityType: 2, id: client!.id, description: 'Already done', done: true, date: `${tomorrow}T16:00:00`, assignedTo: me }));

const pathOf = (url: string) => new URL(url).pathname;
const anonymous = t.client(null);

/** The feed read back: its events by UID, each with the parser's view of its times. */
async function readFeed(url: string) {
  const res = await anonymous.get(pathOf(url));
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
  const cal = new ICAL.Component(ICAL.parse(res.body));
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const events = new Map(
    cal.getAllSubcomponents('vevent').map((c) => {
      const e = new ICAL.Event(c);
      return [e.uid, { e, c, start: e.startDate.toJSDate().toISOString(), local: e.startDate.toString(), zone: e.startDate.zone?.tzid, sequence: e.sequence }] as const;
    }),
  );
  return { res, body: res.body, cal, events };
}
const uidOf = (kind: string, id: number) => `${kind}-${id}@localhost:3000`;
const stored = async (id: number) => ((await t.pool.query('select date_of_viewing from viewings where id = $1', [id])).rows[0].date_of_viewing as Date).toISOString();

describe('a calendar address', () => {
  let ownUrl = '';

  it('is answered once with its QR code, and only its SHA-256 is kept', async () => {
    const before = await json(agent.get('/api/calendarFeeds'));
    expect(before).toEqual({ own: { scope: 'own', active: false, hint: null, createdOn: null, lastUsedOn: null }, office: null });
    const made = await json(agent.post('/api/calendarFeeds/own'));
    expect(made.url).toMatch(/^http:\/\/localhost:3000\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(made.qrSvg).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(made.feed).toMatchObject({ scope: 'own', active: true, lastUsedOn: null });
    ownUrl = made.url;
    const token = /\/calendar\/(.+)\.ics$/.exec(made.url)![1]!;
    const row = (await t.pool.query('select token_hash, hint from calendar_feeds where user_id = $1', [agent.id])).rows[0];
    expect(row.token_hash).toEqual(createHash('sha256').update(token).digest());
    expect(made.feed.hint).toBe(row.hint);
    expect(JSON.stringify(await json(agent.get('/api/calendarFeeds')))).not.toContain(token);
    const log = (await t.pool.query(`select action, data from action_log where entity = 'CalendarFeed' and action_by = $1`, [agent.id])).rows;
    expect(log).toEqual([{ action: 'Create', data: { scope: 'own', hint: row.hint, replaced: false } }]);
  });

  it('holds its owner’s viewings and planned to-dos in the agency’s zone, and nothing cancelled, done or another agent’s', async () => {
    const { body, events } = await readFeed(ownUrl);
    expect([...events.keys()].sort()).toEqual([uidOf('activity', todo.id), uidOf('viewing', mine.id), uidOf('viewing', summer.id)].sort());
    expect(events.has(uidOf('viewing', cancelled.id))).toBe(false);
    expect(events.has(uidOf('viewing', theirs.id))).toBe(false);
    expect(events.has(uidOf('activity', doneTodo.id))).toBe(false);

    // Tomorrow's viewing: at 10:00 on the Athens clock with its TZID, the same instant the CRM keeps.
    const v = events.get(uidOf('viewing', mine.id))!;
    expect(v.zone).toBe('Europe/Athens');
    expect(v.local).toBe(`${tomorrow}T10:00:00`);
    expect(v.start).toBe(await stored(mine.id));
    expect(body).toContain(`DTSTART;TZID=Europe/Athens:${tomorrow.replace(/-/g, '')}T100000`);
    expect(v.e.endDate.toString()).toBe(`${tomorrow}T11:00:00`);
    expect(v.e.summary).toBe(`Viewing · #${ref} Flat by the sea · Pelatis Eleni`);
    expect(v.e.location).toBe('Vasilissis Olgas 112');
    expect(v.e.description).toBe(`Client: Pelatis Eleni\nPhone: +30 694 123 4567\nProperties: #${ref} Flat by the sea\nOpen in the CRM: http://localhost:3000/Viewing/${mine.id}`);
    expect(v.c.getFirstPropertyValue('url')).toBe(`http://localhost:3000/Viewing/${mine.id}`);
    expect(v.sequence).toBe(mine.version);
    // DTSTAMP and LAST-MODIFIED in UTC, as RFC 5545 asks.
    expect(body).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(body).toMatch(/\r\nLAST-MODIFIED:\d{8}T\d{6}Z\r\n/);

    // Months ahead, on the zone's other offset where it changes: still 10:00 in Athens, still the kept instant.
    const s = events.get(uidOf('viewing', summer.id))!;
    expect(s.local).toBe(`${later}T10:00:00`);
    expect(s.start).toBe(await stored(summer.id));

    const a = events.get(uidOf('activity', todo.id))!;
    expect(a.local).toBe(`${tomorrow}T15:00:00`);
    expect(a.e.summary).toBe('Call back about the keys · Pelatis Eleni');
    expect(a.e.description).toBe(`Call back about the keys\nShe asked twice.\nClient: Pelatis Eleni\nPhone: +30 694 123 4567\nOpen in the CRM: http://localhost:3000/Accounts/View/${client!.id}`);
  });

  it('keeps an event’s UID when it changes, with its SEQUENCE raised; an unchanged calendar is a 304 by its ETag', async () => {
    const first = await readFeed(ownUrl);
    const again = await anonymous.get(pathOf(ownUrl), { headers: { 'if-none-match': String(first.res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const edit = await json(agent.get(`/api/Viewing/edit/${mine.id}`));
    await json(agent.post('/api/Viewing/update', { ...edit, dateOfViewing: `${tomorrow}T10:30:00` }));
    const { res, events } = await readFeed(ownUrl);
    expect(res.headers.etag).not.toBe(first.res.headers.etag);
    const v = events.get(uidOf('viewing', mine.id))!;
    expect(v.local).toBe(`${tomorrow}T10:30:00`);
    expect(v.sequence).toBe(first.events.get(uidOf('viewing', mine.id))!.sequence + 1);
    expect((await json(agent.get('/api/calendarFeeds'))).own.lastUsedOn).not.toBeNull();
  });

  it('office-wide, for an office admin: every agent’s viewings, none cancelled; refused to anyone else', async () => {
    expect((await colleague.post('/api/calendarFeeds/office')).statusCode).toBe(403);
    expect((await colleague.del('/api/calendarFeeds/office')).statusCode).toBe(403);
    const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
    expect((await branchAdmin.post('/api/calendarFeeds/office')).statusCode).toBe(403);
    expect((await json(colleague.get('/api/calendarFeeds'))).office).toBeNull();

    const made = await json(admin.post('/api/calendarFeeds/office'));
    expect((await json(admin.get('/api/calendarFeeds'))).office).toMatchObject({ scope: 'office', active: true });
    const { cal, events } = await readFeed(made.url);
    expect(cal.getFirstPropertyValue('x-wr-calname')).toBe('Office · all viewings');
    expect(events.has(uidOf('viewing', mine.id))).toBe(true);
    expect(events.has(uidOf('viewing', theirs.id))).toBe(true);
    expect(events.has(uidOf('viewing', cancelled.id))).toBe(false);
    expect(events.has(uidOf('activity', todo.id))).toBe(false);
    expect(events.get(uidOf('viewing', theirs.id))!.e.description).toContain('Agents: Synadelfou Maria');
    void them;

    // No longer an office admin: the address answers 404 (what it shows is an admin's).
    await db.update(users).set({ roles: ['employee'] }).where(eq(users.id, admin.id));
    expect((await anonymous.get(pathOf(made.url))).statusCode).toBe(404);
    await db.update(users).set({ roles: ['admin'] }).where(eq(users.id, admin.id));
    expect((await anonymous.get(pathOf(made.url))).statusCode).toBe(200);
  });

  it('made anew, the old address answers 404 at once; revoked, so does the new one', async () => {
    // Made while reading the CRM in Greek: its texts are Greek.
    const next = await json(agent.post('/api/calendarFeeds/own', undefined, { lang: 'el' }));
    expect(next.url).not.toBe(ownUrl);
    expect((await anonymous.get(pathOf(ownUrl))).statusCode).toBe(404);
    const greek = await readFeed(next.url);
    expect(greek.events.get(uidOf('viewing', mine.id))!.e.summary).toBe(`Υπόδειξη · #${ref} Flat by the sea · Pelatis Eleni`);
    expect(greek.events.get(uidOf('viewing', mine.id))!.e.description).toContain('Τηλέφωνο: +30 694 123 4567');
    const revoked = await json(agent.del('/api/calendarFeeds/own'));
    expect(revoked).toEqual({ scope: 'own', active: false, hint: null, createdOn: null, lastUsedOn: null });
    expect((await anonymous.get(pathOf(next.url))).statusCode).toBe(404);
    const log = (await t.pool.query(`select action, data->>'replaced' as replaced from action_log where entity = 'CalendarFeed' and action_by = $1 order by id`, [agent.id])).rows;
    expect(log.map((r) => r.action)).toEqual(['Create', 'Create', 'Revoke']);
    // A made-up address is a 404 too, and a stream of them is told to wait.
    expect((await anonymous.get('/calendar/not-a-token.ics')).statusCode).toBe(404);
    let status = 404;
    for (let i = 0; i < 40 && status === 404; i++) status = (await anonymous.get(`/calendar/${'x'.repeat(43)}.ics`, { remoteAddress: '203.0.113.9' })).statusCode;
    expect(status).toBe(429);
  });

  it('opens a to-do on the record the calendar opens it on, when two of its links share the first place', async () => {
    const feed = await json(colleague.post('/api/calendarFeeds/own'));
    const both = await json(colleague.post('/api/activity/add', { entityType: 2, id: client!.id, description: 'Show the flat again', done: false, date: `${tomorrow}T17:00:00`, assignedTo: them }));
    // The property linked at the client's place: the calendar orders such links by kind, then id (a property before an account).
    await t.pool.query('insert into activity_links (activity_id, entity, entity_id, position) values ($1, 1, $2, 0)', [both.id, flat!.id]);
    expect((await t.pool.query('select entity, position from activity_links where activity_id = $1 order by entity', [both.id])).rows).toEqual([
      { entity: 1, position: 0 },
      { entity: 2, position: 0 },
    ]);
    const calendar = await json(colleague.get(`/api/calendar?from=${tomorrow}&till=${tomorrow}`));
    const inCalendar = JSON.stringify(calendar).includes(`/Objects/View/${flat!.id}`);
    expect(inCalendar).toBe(true);
    const { events } = await readFeed(feed.url);
    expect(events.get(uidOf('activity', both.id))!.c.getFirstPropertyValue('url')).toBe(`http://localhost:3000/Objects/View/${flat!.id}`);
    await json(colleague.del('/api/calendarFeeds/own'));
  });
});
