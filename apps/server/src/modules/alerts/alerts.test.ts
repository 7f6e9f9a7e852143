import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { actionLog, alerts, assignments } from '../../db/schema/index.ts';
import { parseMail } from '../../../test/mime.ts';
import { appInstances, createTestApp } from '../../../test/harness.ts';
import { createAlert, createAlerts } from './alerts.create.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { agencyToday, checkOfficeAlerts, checkRentReminders, dueRentReminder, rentPaymentDate } from './alerts.system.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const employee = await t.user({ roles: ['employee'] });
const branchUser = await t.user({ roles: ['employee'], branchId: 1 });
const unreadCount = async () => (await admin.get('/api/Alert/unreadCount')).json() as number;

/** Another instance of the app on the same database (its own pool and job runner). */
const instance = appInstances(t);

describe('rent payment days', () => {
  it('reads 0 as the last day, -n as n days before it, n as that day (the last day in a shorter month)', () => {
    expect(rentPaymentDate(2026, 2, 0)).toBe('2026-02-28');
    expect(rentPaymentDate(2028, 2, 0)).toBe('2028-02-29');
    expect(rentPaymentDate(2026, 2, -2)).toBe('2026-02-26');
    expect(rentPaymentDate(2026, 4, 31)).toBe('2026-04-30');
    expect(rentPaymentDate(2026, 4, 5)).toBe('2026-04-05');
    expect(rentPaymentDate(2026, 2, -40)).toBe('2026-02-01');
  });

  it('reminds 7, 4 and 2 days before and on the day, in this month or the next', () => {
    const step = (today: string, day: number) => dueRentReminder(today, day)?.step ?? null;
    expect(step('2026-02-21', 0)).toBe(7);
    expect(step('2026-02-20', 0)).toBeNull();
    expect(step('2026-02-23', 0)).toBe(7); // 5 days left: the 7-day reminder, not skipped
    expect(step('2026-02-24', 0)).toBe(4);
    expect(step('2026-02-26', 0)).toBe(2);
    expect(step('2026-02-27', 0)).toBe(2);
    expect(step('2026-02-28', 0)).toBe(0);
    expect(dueRentReminder('2026-01-30', 3)).toEqual({ paymentDate: '2026-02-03', step: 4, daysLeft: 4 });
    expect(dueRentReminder('2026-12-29', 1)).toEqual({ paymentDate: '2027-01-01', step: 4, daysLeft: 3 });
    expect(dueRentReminder('2026-03-10', 10)).toEqual({ paymentDate: '2026-03-10', step: 0, daysLeft: 0 });
    expect(dueRentReminder('2026-03-11', 10)).toBeNull();
  });
});

async function addObject() {
  const o = (await admin.get('/api/object/add')).json();
  return o as { id: number; referenceNumber: string };
}
let n = 0;
async function addAccount(lastName: string, fields: Record<string, unknown> = {}) {
  const res = await admin.post('/api/account/add', { firstName: `F${++n}`, lastName, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
}

describe('rent reminders', () => {
  it('makes a reminder due today exactly once across two instances and a restart, mailed to the assigned employee', async () => {
    const today = agencyToday(t.config.timeZone);
    const o = await addObject();
    const tenant = await addAccount('Tenantopoulos');
    // The agent reads Greek: the mail greets her by her first name, as a colleague would write.
    const agent = await addAccount('Agentaki', { firstName: 'Δέσποινα', language: 'el', isEmploye: true, email: 'agent.rent@agency.test' });
    await t.db.insert(assignments).values({ parent: 0, parentId: o.id, accountId: agent });
    const second = await instance();
    // Saving the tenant link checks that object at once (a job), on whichever instance claims it.
    const res = await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: tenant, relation: 4, startDate: '2020-01-01', rentPaymentDay: Number(today.slice(8, 10)) });
    expect(res.statusCode, res.body).toBe(200);
    // Both instances check at the same moment, and again.
    await Promise.all([checkRentReminders(app), checkRentReminders(second.app), checkRentReminders(app), checkRentReminders(second.app)]);
    // A restart of the second instance: its start-up check runs again.
    await second.app.close();
    (second as { app?: FastifyInstance }).app = undefined;
    const third = await instance();
    await third.app.jobs.drain();
    await app.jobs.drain();
    const rows = await t.db.select().from(alerts).where(and(eq(alerts.kind, 'rent'), eq(alerts.entityId, o.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.content).toContain('Tenantopoulos');
    expect(rows[0]!.content).toContain('today');
    await app.jobs.drain();
    const mails = t.outbox().filter((m) => m.text.includes('To: agent.rent@agency.test'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`/Objects/View/${o.id}`);
    const text = parseMail(mails[0]!.text).parts.find((p) => p.type === 'text/plain')!.text;
    expect(text).toMatch(/^Αγαπητή Δέσποινα,\n/);
    // Shown in the reader's language.
    const greek = (await admin.get(`/api/alert/${rows[0]!.id}`, { lang: 'el' })).json();
    expect(greek.content).toContain('σήμερα');
    expect(greek.source).toBe('Μισθώματα');
    expect(greek.link).toBe(`/Objects/View/${o.id}`);
  });

  it('says "in N days" with the plural each language needs', async () => {
    const made = await t.db
      .insert(alerts)
      .values([1, 2, 7].map((days) => ({ source: 'Rent', kind: 'rent', content: 'Rent reminder', messageKey: 'alerts.msg.rentDueIn', params: { tenant: 'Ivanova', ref: '0042', date: '01/12/2026', days, count: days } })))
      .returning({ id: alerts.id });
    const read = async (id: number, lang: string) => ((await admin.get(`/api/alert/${id}`, { lang })).json() as { content: string }).content;
    expect(await read(made[0]!.id, 'en')).toContain('(in 1 day)');
    expect(await read(made[2]!.id, 'en')).toContain('(in 7 days)');
    expect(await read(made[0]!.id, 'el')).toContain('σε 1 ημέρα.');
    expect(await read(made[2]!.id, 'el')).toContain('σε 7 ημέρες.');
    expect(await read(made[1]!.id, 'ru')).toContain('(через 2 дня)');
    expect(await read(made[2]!.id, 'ru')).toContain('(через 7 дней)');
    // The day as each reader writes it: Russian with dots, as its screens do.
    expect(await read(made[0]!.id, 'ru')).toContain('01.12.2026');
    expect(await read(made[0]!.id, 'ru')).not.toContain('01/12/2026');
    expect(await read(made[0]!.id, 'el')).toContain('01/12/2026');
  });

  it('leaves out ended links, other relations and links without a payment day', async () => {
    const today = agencyToday(t.config.timeZone);
    const day = Number(today.slice(8, 10));
    const o = await addObject();
    const ended = await addAccount('Endedtenant');
    const owner = await addAccount('Justowner');
    const noDay = await addAccount('Nodaytenant');
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: ended, relation: 4, startDate: '2020-01-01', endDate: '2021-01-01', rentPaymentDay: day });
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: owner, relation: 1, startDate: '2020-01-01', rentPaymentDay: day });
    await admin.post('/api/objectAccount/add', { objectId: o.id, accountId: noDay, relation: 7, startDate: '2020-01-01' });
    expect(await checkRentReminders(app, { objectId: o.id })).toEqual([]);
  });
});

describe('office alerts', () => {
  it('tells about a key not returned for a week and an overdue to-do, once each', async () => {
    const o = await addObject();
    const holder = await addAccount('Keyholder');
    const weekAgo = new Date(Date.now() - 9 * 86400000).toISOString().slice(0, 10);
    const k = await admin.post('/api/ObjectKeys/edit', { objectId: o.id, accountId: holder, received: null, givenAway: weekAgo, description: 'Front door' });
    expect(k.statusCode, k.body).toBe(200);
    await t.db.execute(sql`insert into activities (description, done, date) values ('Call the notary about the contract', false, now() - interval '2 hours')`);
    const first = await checkOfficeAlerts(app);
    const again = await checkOfficeAlerts(app);
    expect(again).toEqual([]);
    const made = await t.db.select().from(alerts).where(sql`${alerts.id} = any(${sql.param(first)}::int[])`);
    expect(made.map((a) => a.kind).sort()).toEqual(['key', 'todo']);
    expect(made.find((a) => a.kind === 'key')!.content).toContain('Keyholder');
    expect(made.find((a) => a.kind === 'todo')!.content).toContain('Call the notary');
  });

  it("writes an overdue to-do's due day and time as each reader does: 26.11.2026, 14:15 in Russian", async () => {
    // Due three hours ago, on the minute, so its time in the agency's zone is known.
    const due = new Date(Math.floor((Date.now() - 3 * 3600e3) / 60000) * 60000);
    await t.db.execute(sql`insert into activities (description, done, date) values ('Send the lease to the tenant', false, ${due.toISOString()}::timestamptz)`);
    const made = await t.db.select().from(alerts).where(sql`${alerts.id} = any(${sql.param(await checkOfficeAlerts(app))}::int[]) and ${alerts.content} like '%Send the lease%'`);
    expect(made).toHaveLength(1);
    const local = toLocalDateTime(due, t.config.timeZone)!;
    const [y, m, d, time] = [local.slice(0, 4), local.slice(5, 7), local.slice(8, 10), local.slice(11, 16)];
    const read = async (lang: string) => ((await admin.get(`/api/alert/${made[0]!.id}`, { lang })).json() as { content: string }).content;
    expect(await read('ru')).toContain(`(срок ${d}.${m}.${y}, ${time},`);
    expect(await read('en')).toContain(`(due ${d}/${m}/${y}, ${time},`);
    expect(await read('el')).toContain(`(προθεσμία ${d}/${m}/${y}, ${time},`);
    // The list reads it so too, and an alert made before this (its values as they were kept) as well.
    const [old] = await t.db
      .insert(alerts)
      .values({ source: 'Tasks', kind: 'todo', content: 'Overdue to-do', messageKey: 'alerts.msg.todoOverdue', params: { what: 'Call the bank', date: '26/11/2026, 14:15', who: '—' } })
      .returning({ id: alerts.id });
    const list = (await admin.post('/api/alert/list', { perPage: 5, currentPage: 1 }, { lang: 'ru' })).json() as { items: { id: number; content: string }[] };
    expect(list.items.find((a) => a.id === old!.id)!.content).toBe('Просроченная задача (срок 26.11.2026, 14:15, исполнитель —): Call the bank');
    expect(await read('ru')).not.toContain('/');
  });
});

describe('alert calls', () => {
  it('lists newest first with counts; opening marks read by the caller; mark as unread; notes with a version guard; delete', async () => {
    const before = await unreadCount();
    const id = (await createAlert(t.db, { source: 'Website', content: 'A visitor asked about #0042' }))!;
    expect(await unreadCount()).toBe(before + 1);
    const list = (await admin.post('/api/alert/list', { perPage: 10, currentPage: 1 })).json();
    expect(list.items[0]).toMatchObject({ id, source: 'Website', content: 'A visitor asked about #0042', readedOn: null, readedBy: null });
    expect(list.unreadCount).toBe(before + 1);
    expect(list.items.length).toBeLessThanOrEqual(10);
    // the default page is the first, of 10
    for (let i = 0; i < 10; i++) await createAlert(t.db, { source: 'Website', content: `filler ${i}` });
    const first = await admin.post('/api/alert/list', {});
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(10);
    const second = (await admin.post('/api/alert/list', { perPage: 10, currentPage: 2 })).json();
    expect(second.items.map((a: { id: number }) => a.id)).toContain(id);

    const opened = (await employee.get(`/api/alert/${id}`)).json();
    expect(opened.readedOn).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(opened.readedBy).toBeTruthy();
    expect(await unreadCount()).toBe(before + 10);
    // opening again changes nothing
    const again = (await admin.get(`/api/alert/${id}`)).json();
    expect(again.readedBy).toBe(opened.readedBy);
    expect(again.version).toBe(opened.version);

    const unread = await admin.post(`/api/alert/mark-as-unread/${id}`);
    expect(unread.statusCode).toBe(200);
    expect(unread.json().readedOn).toBeNull();
    expect(await unreadCount()).toBe(before + 11);

    const noted = await admin.post(`/api/alert/update-notes/${id}`, { notes: 'Called back, viewing on Friday', version: unread.json().version });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json().notes).toBe('Called back, viewing on Friday');
    const stale = await admin.post(`/api/alert/update-notes/${id}`, { notes: 'Overwrite', version: unread.json().version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.notes).toBe('Called back, viewing on Friday');
    // Saved with the notes as they were read: a colleague marking it unread meanwhile is no conflict...
    await admin.post(`/api/alert/mark-as-unread/${id}`);
    const kept = await admin.post(`/api/alert/update-notes/${id}`, { notes: 'Viewing moved to Saturday', version: noted.json().version, was: 'Called back, viewing on Friday' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().notes).toBe('Viewing moved to Saturday');
    // ... but notes someone else changed since are.
    const overwrite = await admin.post(`/api/alert/update-notes/${id}`, { notes: 'Mine', version: kept.json().version, was: 'Called back, viewing on Friday' });
    expect(overwrite.statusCode).toBe(409);
    expect(overwrite.json().current.notes).toBe('Viewing moved to Saturday');
    const blankWas = await admin.post(`/api/alert/update-notes/${id}`, { notes: 'Mine', was: null });
    expect(blankWas.statusCode).toBe(409);

    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Alert'), eq(actionLog.entityId, id)));
    expect(logged.map((l) => l.action)).toEqual(expect.arrayContaining(['Read', 'MarkUnread', 'Update']));

    expect((await admin.del(`/api/alert/${id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/alert/${id}`)).statusCode).toBe(404);
    expect((await admin.del(`/api/alert/${id}`)).statusCode).toBe(404);
    expect(await unreadCount()).toBe(before + 10);
    // A plain text alert logs its text only.
    const [plain] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Alert'), eq(actionLog.entityId, id), eq(actionLog.action, 'Delete')));
    expect(plain).toMatchObject({ message: 'A visitor asked about #0042', data: { source: 'Website' } });
  });

  it('names a failed job as the Jobs page does, in the reader’s language; every job has that name in the three languages', async () => {
    const id = (await createAlert(t.db, { source: 'Jobs', kind: 'job', messageKey: 'alerts.msg.jobFailed', params: { name: 'mail.send', attempts: 5, error: 'SMTP 550' }, content: 'The background job "mail.send" failed' }))!;
    const el = (await admin.get(`/api/alert/${id}`, { lang: 'el' })).json();
    expect(el.content).toContain(app.translator.t('el', 'jobs.name.mail.send'));
    expect(el.content).not.toContain('mail.send');
    const jobs = (app as unknown as { jobs: { names: () => string[] } }).jobs.names();
    expect(jobs).toContain('deals.rentalsExpire');
    for (const name of jobs) {
      for (const culture of ['en', 'el', 'ru'] as const) expect(app.translator.t(culture, `jobs.name.${name}`), `${culture} ${name}`).not.toBe(`jobs.name.${name}`);
    }
  });

  it('logs a deleted system alert with its text key and values, so the log reads it in each reader’s language', async () => {
    const params = { ref: '0042', name: 'Maria K.', email: 'maria@example.gr' };
    const content = 'New website enquiry about property #0042 from Maria K. (maria@example.gr); it is among the new leads.';
    const id = (await createAlert(t.db, { source: 'Website', messageKey: 'alerts.msg.websiteEnquiry', params, content }))!;
    expect((await admin.del(`/api/alert/${id}`)).statusCode).toBe(200);
    const [row] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Alert'), eq(actionLog.entityId, id), eq(actionLog.action, 'Delete')));
    expect(row).toMatchObject({ message: content, data: { source: 'Website', messageKey: 'alerts.msg.websiteEnquiry', params } });
    // The home page's recent changes carry it too (and no other record's data).
    const recent = (await admin.get('/api/home')).json().recent as { entity: string; entityId: number; data: unknown }[];
    expect(recent.find((r) => r.entity === 'Alert' && r.entityId === id)?.data).toMatchObject({ messageKey: 'alerts.msg.websiteEnquiry', params });
    expect(recent.filter((r) => r.entity !== 'Alert').every((r) => r.data === null)).toBe(true);
  });

  it('refuses bad input with a 400 that changes nothing, and branch users', async () => {
    const id = (await createAlert(t.db, { source: 'Website', content: 'x' }))!;
    expect((await admin.post('/api/alert/list', { perPage: 0, currentPage: 1 })).statusCode).toBe(400);
    expect((await admin.post(`/api/alert/update-notes/${id}`, { notes: 'x'.repeat(4001) })).statusCode).toBe(400);
    expect((await admin.get('/api/alert/abc')).statusCode).toBe(400);
    expect((await branchUser.post('/api/alert/list', {})).statusCode).toBe(403);
    expect((await branchUser.get(`/api/alert/${id}`)).statusCode).toBe(403);
    expect((await branchUser.get('/api/Alert/unreadCount')).json()).toBe(0);
    const [row] = await t.db.select().from(alerts).where(eq(alerts.id, id));
    expect(row!.readedOn).toBeNull();
    expect(row!.notes).toBeNull();
  });

  it('a dedup key makes an alert once, even when asked at the same moment', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => createAlert(t.db, { source: 'Rent', content: 'once', dedupKey: 'test:once' })));
    expect(ids.filter((x) => x !== null)).toHaveLength(1);
  });

  it('in bulk: makes each new key once (across batches, twice in a list, or already made) and answers ids in the order given', async () => {
    await createAlert(t.db, { source: 'Rent', content: 'made before', dedupKey: 'bulk:0' });
    const list = Array.from({ length: 1200 }, (_, i) => ({ source: 'Rent', content: `bulk ${i}`, params: { i }, dedupKey: `bulk:${i}` }));
    list.push({ source: 'Rent', content: 'again', params: { i: 7 }, dedupKey: 'bulk:7' });
    const ids = await createAlerts(t.db, list);
    expect(ids[0]).toBeNull();
    expect(ids[1200]).toBeNull();
    expect(ids.filter((x) => x !== null)).toHaveLength(1199);
    const stored = await t.db.select({ id: alerts.id, content: alerts.content, key: alerts.dedupKey }).from(alerts).where(sql`${alerts.dedupKey} like 'bulk:%'`);
    expect(stored).toHaveLength(1200);
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const i of [1, 499, 500, 501, 1000, 1199]) expect(byId.get(ids[i]!)?.content).toBe(`bulk ${i}`);
    expect(stored.find((r) => r.key === 'bulk:0')?.content).toBe('made before');
    // A second run makes nothing.
    expect((await createAlerts(t.db, list)).every((x) => x === null)).toBe(true);
  });
});

describe('background jobs for admins', () => {
  it('lists failed jobs with their error; a retry queues one again with fresh attempts, once, logged; others may not', async () => {
    const [failed] = (
      await t.db.execute(sql`insert into jobs (name, payload, state, attempts, max_attempts, last_error, finished_on)
        values ('test.never-registered', '{}'::jsonb, 'failed', 3, 3, 'SMTP 421 try later', now()) returning id`)
    ).rows as { id: number }[];
    const id = Number(failed!.id);
    const listed = (await admin.get('/api/jobs?state=failed')).json() as { counts: Record<string, number>; items: { id: number; lastError: string; attempts: number }[] };
    expect(listed.items.find((j) => j.id === id)).toMatchObject({ lastError: 'SMTP 421 try later', attempts: 3 });
    expect(listed.counts.failed).toBeGreaterThanOrEqual(1);

    for (const who of [employee, branchUser]) expect((await who.post(`/api/jobs/${id}/retry`)).statusCode).toBe(403);
    const res = await admin.post(`/api/jobs/${id}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = (await t.db.execute(sql`select state, attempts, finished_on from jobs where id = ${id}`)).rows as { state: string; attempts: number; finished_on: Date | null }[];
    expect(row).toMatchObject({ attempts: 0, finished_on: null });
    // Queued again (an instance's runner may have picked it up already: no handler, so it is running or failed once more).
    expect(['queued', 'running', 'failed']).toContain(row!.state);
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Job'), eq(actionLog.entityId, id)));
    expect(logged.map((l) => l.message)).toContain('Retried');

    // Not a failed job: 404 in the reader's language, nothing changed.
    await t.db.execute(sql`update jobs set state = 'done' where id = ${id}`);
    const again = await admin.post(`/api/jobs/${id}/retry`, undefined, { lang: 'el' });
    expect(again.statusCode).toBe(404);
    expect(again.json().title).toBe('Αυτή η εργασία δεν έχει αποτύχει (ή δεν υπάρχει πια): δεν υπάρχει κάτι να ξαναδοκιμαστεί.');
    expect((await admin.post('/api/jobs/2147483648/retry')).statusCode).toBe(400);
  });

  it('does not queue a failed job twice when the same job is waiting already', async () => {
    const rows = (
      await t.db.execute(sql`insert into jobs (name, payload, state, singleton_key, run_at, attempts, max_attempts, finished_on) values
        ('test.check', '{}'::jsonb, 'failed', 'k1', now(), 2, 2, now()),
        ('test.check', '{}'::jsonb, 'queued', 'k1', now() + interval '1 hour', 0, 2, null) returning id, state`)
    ).rows as { id: number; state: string }[];
    const failedId = Number(rows.find((r) => r.state === 'failed')!.id);
    const res = await admin.post(`/api/jobs/${failedId}/retry`);
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toBe('The same job is already waiting in the queue.');
    const [row] = (await t.db.execute(sql`select state from jobs where id = ${failedId}`)).rows as { state: string }[];
    expect(row!.state).toBe('failed');
  });
});
