import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { addMonths, LinkKind, MANDATE_FIELDS, MANDATE_GROUPS, ZMandate, ZMandateEdit } from '@crm/contract';
import { readLocaleFiles } from '../../db/seed/index.ts';
import { actionLog, alerts, assignments, objectMandates } from '../../db/schema/index.ts';
import { appInstances, createTestApp, patchField } from '../../../test/harness.ts';
import { parseMail } from '../../../test/mime.ts';
import { agencyToday } from '../../lib/dates.ts';
import { checkMandateAlerts, dueMandateStep } from './mandates.alerts.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const employee = await t.user({ roles: ['employee'] });
const branchUser = await t.user({ roles: ['employee'], branchId: 1 });
const today = agencyToday(t.config.timeZone);
const plusDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);

const addObject = async () => (await admin.get('/api/object/add')).json() as { id: number; referenceNumber: string; version: number };
let n = 0;
const addAccount = async (lastName: string, fields: Record<string, unknown> = {}) => {
  const res = await admin.post('/api/account/add', { firstName: `F${++n}`, lastName, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const owner = await addAccount('Παπαδόπουλος', { firstName: 'Γιώργος', isOwner: true, middleName: 'Ιωάννης', internalPassportNumber: 'ΑΚ 123456', taxNumber: '090000045', address: 'Τσιμισκή 10', postcode: '54624', city: 'Θεσσαλονίκη' });
const mandate = (objectId: number, extra: Record<string, unknown> = {}) => ({
  objectId,
  kind: 'exclusive',
  startDate: '2026-01-10',
  endDate: '2026-09-10',
  askingPrice: 185000,
  commissionPercent: 2,
  exceptions: [{ name: 'Νίκος Γεωργίου', note: 'ήρθε μόνος του πριν από την εντολή' }],
  owners: [{ accountId: owner, taxOffice: 'Δ΄ Θεσσαλονίκης' }],
  ...extra,
});
const stored = async (objectId: number) => t.db.select().from(objectMandates).where(eq(objectMandates.objectId, objectId));

const instances = appInstances(t);
const instance = async () => (await instances()).app;

describe('the mandate’s field description', () => {
  it('names fields of the mandate and of its save, each labelled in en, el and ru, and counts months as the calendar does', () => {
    for (const d of MANDATE_FIELDS) {
      expect(Object.keys(ZMandate.shape), d.name).toContain(d.name);
      expect(Object.keys(ZMandateEdit.shape), d.name).toContain(d.name);
      expect(MANDATE_GROUPS).toContain(d.group);
    }
    for (const c of readLocaleFiles()) for (const d of MANDATE_FIELDS) expect(c.texts[`mandates.field.${d.name}`], `${c.culture} ${d.name}`).toBeTruthy();
    expect(addMonths('2026-06-30', 8)).toBe('2027-02-28');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-11-10', 4)).toBe('2027-03-10');
  });
});

describe('a property’s mandates', () => {
  it('stores an exclusive mandate with its owner’s identity from the account, the exceptions, and logs it', async () => {
    const o = await addObject();
    const res = await admin.post('/api/Mandate/update', mandate(o.id));
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json();
    expect(m).toMatchObject({
      objectId: o.id, kind: 'exclusive', startDate: '2026-01-10', endDate: '2026-09-10', extendedUntil: null, askingPrice: 185000, commissionPercent: 2, version: 1,
      exceptions: [{ name: 'Νίκος Γεωργίου', note: 'ήρθε μόνος του πριν από την εντολή' }],
      owners: [{ accountId: owner, name: 'Παπαδόπουλος Γιώργος Ιωάννης', fatherName: 'Ιωάννης', idNumber: 'ΑΚ 123456', taxNumber: '090000045', address: 'Τσιμισκή 10, 54624 Θεσσαλονίκη', taxOffice: 'Δ΄ Θεσσαλονίκης' }],
    });
    const list = (await admin.get(`/api/Mandate?objectId=${o.id}`)).json();
    expect(list.items.map((x: { id: number }) => x.id)).toEqual([m.id]);
    const [log] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Mandate'), eq(actionLog.entityId, m.id)));
    expect(log).toMatchObject({ action: 'Create', data: { objectId: o.id, kind: 'exclusive', ownerIds: [owner] } });
    // A change carries the version it was based on: a stale one is a 409 with the current mandate.
    const upd = await admin.post('/api/Mandate/update', { ...mandate(o.id), id: m.id, version: 1, commissionPercent: 2.5 });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).toMatchObject({ commissionPercent: 2.5, version: 2 });
    const stale = await admin.post('/api/Mandate/update', { ...mandate(o.id), id: m.id, version: 1, commissionPercent: 3 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ commissionPercent: 2.5, version: 2 });
    const [changed] = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Mandate'), eq(actionLog.entityId, m.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(changed).toMatchObject({ action: 'Update', data: { objectId: o.id, commissionPercent: { from: 2, to: 2.5 } } });
    // Its signed documents are its files, through the ordinary upload.
    const fd = new FormData();
    fd.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'))], { type: 'application/pdf' }), 'εντολή-υπογεγραμμένη.pdf');
    const up = await admin.post('/api/files', fd);
    expect(up.statusCode, up.body).toBe(200);
    const attached = await admin.post('/api/files/setParent', { entityType: LinkKind.Mandate, id: m.id, fileNames: [(up.json() as { id: number }[])[0]!.id] });
    expect(attached.statusCode, attached.body).toBe(200);
    const files = await admin.get(`/api/files?parentType=${LinkKind.Mandate}&parentId=${m.id}`);
    expect(files.statusCode, files.body).toBe(200);
    expect(files.json().items.map((f: { userName: string }) => f.userName)).toEqual(['εντολή-υπογεγραμμένη.pdf']);
    expect((await admin.post('/api/files/setParent', { entityType: LinkKind.Mandate, id: 999999, fileNames: [] })).statusCode).toBe(404);
    expect((await admin.del(`/api/Mandate/${m.id}?version=1`)).statusCode).toBe(409);
    expect((await admin.del(`/api/Mandate/${m.id}?version=2`)).statusCode).toBe(200);
    expect(await stored(o.id)).toEqual([]);
    // Its documents went with it: detached, to be purged.
    expect((await t.db.execute(sql`select count(*)::int as n from files where parent_type = ${LinkKind.Mandate} and parent_id = ${m.id}`)).rows[0]).toEqual({ n: 0 });
    expect((await t.db.execute(sql`select count(*)::int as n from files where user_name = 'εντολή-υπογεγραμμένη.pdf' and detached_on is not null`)).rows[0]).toEqual({ n: 1 });
  });

  it('refuses an exclusive mandate longer than 8 months with the law’s reason, translated, and stores nothing', async () => {
    const o = await addObject();
    const res = await admin.post('/api/Mandate/update', mandate(o.id, { startDate: '2026-01-10', endDate: '2026-09-11' }), { lang: 'el' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.endDate[0]).toBe('Η αποκλειστική εντολή διαρκεί το πολύ 8 μήνες (ν. 4072/2012): αυτή μπορεί να λήγει το αργότερο στις 10/09/2026.');
    expect(await stored(o.id)).toEqual([]);
    // Exactly 8 months is allowed; a simple mandate may last longer.
    expect((await admin.post('/api/Mandate/update', mandate(o.id, { endDate: '2026-09-10' }))).statusCode).toBe(200);
    expect((await admin.post('/api/Mandate/update', mandate(o.id, { kind: 'simple', endDate: '2027-09-10' }))).statusCode).toBe(200);
    expect(await stored(o.id)).toHaveLength(2);
  });

  it('lets an exclusive mandate be extended once, by at most 4 months; a second extension or a longer one is refused', async () => {
    const o = await addObject();
    const m = (await admin.post('/api/Mandate/update', mandate(o.id))).json();
    const tooLong = await admin.post('/api/Mandate/update', { ...mandate(o.id), id: m.id, version: m.version, extendedUntil: '2027-01-11' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors.extendedUntil[0]).toBe('An exclusive mandate is extended by at most 4 months (law 4072/2012): until 10/01/2027 at the latest.');
    const extended = await admin.post('/api/Mandate/update', { ...mandate(o.id), id: m.id, version: m.version, extendedUntil: '2026-12-10' });
    expect(extended.statusCode, extended.body).toBe(200);
    const e = extended.json();
    expect(e).toMatchObject({ extendedUntil: '2026-12-10', version: 2 });
    // A later extension than the one stored is a second extension.
    const again = await admin.post('/api/Mandate/update', { ...mandate(o.id), id: m.id, version: e.version, extendedUntil: '2027-01-10' }, { lang: 'ru' });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.extendedUntil[0]).toBe('Эксклюзивное поручение можно продлить только один раз (закон 4072/2012), не более чем на 4 месяца.');
    const [row] = await stored(o.id);
    expect(row).toMatchObject({ extendedUntil: '2026-12-10', extensions: 1, version: 2 });
    // Correcting the extension to an earlier day is no second extension.
    const corrected = await admin.post('/api/Mandate/update', { ...mandate(o.id), id: m.id, version: e.version, extendedUntil: '2026-11-30' });
    expect(corrected.statusCode, corrected.body).toBe(200);
    // Named exceptions: an exception without a name is refused.
    const unnamed = await admin.post('/api/Mandate/update', mandate(o.id, { exceptions: [{ name: '  ', note: 'a neighbour' }] }));
    expect(unnamed.statusCode).toBe(400);
  });

  it('follows a merge of owners: the duplicate’s mandates become the kept account’s, one line when both gave it', async () => {
    const o = await addObject();
    const dup = await addAccount('Παπαδόπουλος', { firstName: 'Γιώργος', isOwner: true });
    const other = await addAccount('Ιωάννου', { isOwner: true });
    const m = (await admin.post('/api/Mandate/update', mandate(o.id, { owners: [{ accountId: dup, taxOffice: 'Καλαμαριάς' }, { accountId: owner }, { accountId: other }] }))).json();
    expect(m.owners.map((x: { accountId: number }) => x.accountId)).toEqual([dup, owner, other]);
    const alone = (await admin.post('/api/Mandate/update', mandate(o.id, { kind: 'simple', owners: [{ accountId: dup, taxOffice: 'Καλαμαριάς' }] }))).json();
    const kept = (await admin.get(`/api/account/view/${owner}`)).json();
    const merged = await admin.post('/api/account/merge', { account: { id: owner, version: kept.version }, duplicateId: dup });
    expect(merged.statusCode, merged.body).toBe(200);
    expect((await admin.get(`/api/Mandate/edit/${m.id}`)).json().owners.map((x: { accountId: number }) => x.accountId)).toEqual([owner, other]);
    expect((await admin.get(`/api/Mandate/edit/${alone.id}`)).json().owners).toMatchObject([{ accountId: owner, taxOffice: 'Καλαμαριάς' }]);
  });

  it('is open to staff, branch staff included, and closed to anyone else', async () => {
    const o = await addObject();
    expect((await employee.post('/api/Mandate/update', mandate(o.id))).statusCode).toBe(200);
    expect((await branchUser.get(`/api/Mandate?objectId=${o.id}`)).statusCode).toBe(200);
    expect((await t.client().get(`/api/Mandate?objectId=${o.id}`)).statusCode).toBe(401);
    const payments = await t.user({ roles: ['clientPayments'] });
    expect((await payments.get(`/api/Mandate?objectId=${o.id}`)).statusCode).toBe(403);
    expect((await payments.post('/api/Mandate/update', mandate(o.id))).statusCode).toBe(403);
  });
});

describe('the publish gate', () => {
  const setRequired = async (on: boolean) => {
    const s = (await admin.get('/api/SiteSettings')).json();
    const res = await admin.post('/api/SiteSettings', { ...s, mandateRequiredToPublish: on });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().mandateRequiredToPublish).toBe(on);
  };

  it('refuses publishing without a mandate in force while the setting is on, and allows it when off or with a mandate', async () => {
    await setRequired(true);
    const o = await addObject();
    const refused = await patchField(admin, 'object', o.id, 'publishRequested', true, { lang: 'el' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().title).toBe('Το γραφείο δημοσιεύει μόνο ακίνητα με εντολή ανάθεσης σε ισχύ: καταχωρίστε πρώτα την εντολή του ιδιοκτήτη.');
    expect((await admin.get(`/api/object/view/${o.id}`)).json().publishRequested).toBe(false);
    // An ended mandate is not in force.
    await admin.post('/api/Mandate/update', mandate(o.id, { kind: 'simple', startDate: '2020-01-01', endDate: plusDays(today, -1) }));
    expect((await patchField(admin, 'object', o.id, 'publishRequested', true)).statusCode).toBe(400);
    // One in force today: allowed.
    await admin.post('/api/Mandate/update', mandate(o.id, { startDate: today, endDate: addMonths(today, 6) }));
    const allowed = await patchField(admin, 'object', o.id, 'publishRequested', true);
    expect(allowed.statusCode, allowed.body).toBe(200);
    // The setting off: a property without a mandate may be published.
    await setRequired(false);
    const other = await addObject();
    expect((await patchField(admin, 'object', other.id, 'publishRequested', true)).statusCode).toBe(200);
  });
});

describe('alerts before a mandate ends', () => {
  it('steps: 30 days ahead, then 10, nothing past or further', () => {
    expect([31, 30, 11, 10, 0, -1].map(dueMandateStep)).toEqual([null, 30, 30, 10, 10, null]);
  });

  it('alerts the property’s agents 30 and 10 days before the end, once each across two instances, and lists it as ending soon', async () => {
    const o = await addObject();
    const greekAgent = await addAccount('Praktoraki', { firstName: 'Ελένη', language: 'el', isEmploye: true, email: 'agent2.mandate@agency.test' });
    const agent = await addAccount('Agentidou', { isEmploye: true, email: 'agent.mandate@agency.test' });
    await t.db.insert(assignments).values([{ parent: 0, parentId: o.id, accountId: agent }, { parent: 0, parentId: o.id, accountId: greekAgent }]);
    const end = plusDays(today, 40);
    const m = (await admin.post('/api/Mandate/update', mandate(o.id, { startDate: plusDays(today, -100), endDate: end }))).json();
    const second = await instance();
    const mine = async () => (await t.db.select().from(alerts).where(and(eq(alerts.kind, 'mandate'), eq(alerts.entityId, o.id)))).map((a) => a.content);
    // 31 days before: nothing yet.
    await checkMandateAlerts(app, { today: plusDays(end, -31) });
    expect(await mine()).toEqual([]);
    // 30 days before, on two instances at once and again the next day: one alert.
    await Promise.all([checkMandateAlerts(app, { today: plusDays(end, -30) }), checkMandateAlerts(second, { today: plusDays(end, -30) })]);
    await checkMandateAlerts(app, { today: plusDays(end, -29) });
    expect(await mine()).toEqual([`The exclusive mandate of property #${o.referenceNumber} ends on ${end.slice(8, 10)}/${end.slice(5, 7)}/${end.slice(0, 4)} (in 30 days).`]);
    // 10 days before: the second one, once.
    await Promise.all([checkMandateAlerts(app, { today: plusDays(end, -10) }), checkMandateAlerts(second, { today: plusDays(end, -10) })]);
    await checkMandateAlerts(second, { today: plusDays(end, -9) });
    expect(await mine()).toHaveLength(2);
    expect((await mine())[1]).toContain('(in 10 days)');
    await app.jobs.drain();
    const mails = t.outbox().filter((x) => x.text.includes('To: agent.mandate@agency.test'));
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text).toContain(`/Objects/View/${o.id}`);
    // What the agents read: the subject and the alert's words in their language, the day as they write it.
    const endsOn = `${end.slice(8, 10)}/${end.slice(5, 7)}/${end.slice(0, 4)}`;
    const plain = (m: { text: string }) => parseMail(m.text).parts.find((p) => p.type === 'text/plain')!.text;
    expect(parseMail(mails[0]!.text).header('Subject')).toContain('A mandate ends soon');
    expect(plain(mails[0]!)).toContain(`The exclusive mandate of property #${o.referenceNumber} ends on ${endsOn} (in 30 days).`);
    expect(plain(mails[1]!)).toContain(`The exclusive mandate of property #${o.referenceNumber} ends on ${endsOn} (in 10 days).`);
    const greekMails = t.outbox().filter((x) => x.text.includes('To: agent2.mandate@agency.test'));
    expect(greekMails).toHaveLength(2);
    expect(parseMail(greekMails[0]!.text).header('Subject')).toContain('Λήξη εντολής ανάθεσης');
    expect(plain(greekMails[0]!)).toContain(`Η αποκλειστική εντολή ανάθεσης του ακινήτου #${o.referenceNumber} λήγει στις ${endsOn} (σε 30 ημέρες).`);
    // An office notice, opened without a name (the rent reminders greet their agent by name).
    expect(plain(greekMails[0]!)).toMatch(/^Χαίρετε,\n/);
    expect(plain(mails[0]!)).toMatch(/^Hello,\n/);
    expect(plain(greekMails[0]!)).not.toContain('Ελένη');
    // Read in Greek.
    const [first] = await t.db.select().from(alerts).where(and(eq(alerts.kind, 'mandate'), eq(alerts.entityId, o.id))).orderBy(alerts.id).limit(1);
    const greek = (await admin.get(`/api/alert/${first!.id}`, { lang: 'el' })).json();
    expect(greek.content).toContain('Η αποκλειστική εντολή ανάθεσης του ακινήτου');
    expect(greek.source).toBe('Εντολές ανάθεσης');
    // An extension is a new end: its own alerts come in their time.
    await admin.post('/api/Mandate/update', { ...mandate(o.id), startDate: plusDays(today, -100), endDate: end, id: m.id, version: m.version, extendedUntil: plusDays(end, 60) });
    await checkMandateAlerts(app, { today: plusDays(end, -9) });
    expect(await mine()).toHaveLength(2);
    // Ending within 30 days of today: the agents' list.
    const soonObject = await addObject();
    await t.db.insert(assignments).values({ parent: 0, parentId: soonObject.id, accountId: agent });
    const soonMandate = (await admin.post('/api/Mandate/update', mandate(soonObject.id, { startDate: plusDays(today, -30), endDate: plusDays(today, 12) }))).json() as { id: number; version: number };
    type Ending = { objectId: number; daysLeft: number; agents: string; owners: string };
    const soonOne = async () => ((await admin.get('/api/Mandate/endingSoon')).json().items as Ending[]).find((x) => x.objectId === soonObject.id);
    const soon = (await admin.get('/api/Mandate/endingSoon')).json().items as Ending[];
    expect(soon.find((x) => x.objectId === soonObject.id)).toMatchObject({ daysLeft: 12, agents: 'Agentidou F' + String(n), owners: 'Παπαδόπουλος Γιώργος Ιωάννης' });
    expect(soon.some((x) => x.objectId === o.id)).toBe(false);
    // The list is kept between visits, but never past a change to what it shows: the end moved, an agent renamed.
    await admin.post('/api/Mandate/update', { ...mandate(soonObject.id, { startDate: plusDays(today, -30), endDate: plusDays(today, 20) }), id: soonMandate.id, version: soonMandate.version });
    expect(await soonOne()).toMatchObject({ daysLeft: 20 });
    await t.db.execute(sql`update accounts set last_name = 'Agentaki' where id = ${agent}`);
    expect(await soonOne()).toMatchObject({ agents: 'Agentaki F' + String(n) });
    // "Mine": only the caller's properties (this admin is assigned to none).
    expect((await admin.get('/api/Mandate/endingSoon?mine=1')).json().items).toEqual([]);
  });
});
