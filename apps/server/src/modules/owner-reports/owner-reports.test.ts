import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { actionLog, leads, ownerReportLinks } from '../../db/schema/index.ts';
import { createTestApp, signInsOfEachRole } from '../../../test/harness.ts';
import { agencyToday } from '../../lib/dates.ts';
import { runMonthlyReports } from './owner-reports.service.ts';

/**
 * The owner's report (issue 47, decision 087): the staff calls, the owner's page by its link (one
 * property, no client's name or contacts, only shared comments), revoked and expired links, the mail
 * on demand and the monthly mail once a month per property.
 */
const t = await createTestApp();
const { app, db } = t;
const { admin, agent, branchAgent, payer } = await signInsOfEachRole(t);
const today = agencyToday(t.config.timeZone);
const plusDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86400000).toISOString().slice(0, 10);

let n = 0;
const addAccount = async (fields: Record<string, unknown>) => {
  const res = await admin.post('/api/account/add', { firstName: `F${++n}`, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const addObject = async () => (await admin.get('/api/object/add')).json() as { id: number; referenceNumber: string; version: number };
async function underMandate(owners: number[]) {
  const o = await addObject();
  const res = await admin.post('/api/Mandate/update', {
    objectId: o.id, kind: 'exclusive', startDate: plusDays(today, -30), endDate: plusDays(today, 90), askingPrice: 185000, commissionPercent: 2, exceptions: [],
    owners: owners.map((accountId) => ({ accountId, taxOffice: 'Δ΄ Θεσσαλονίκης' })),
  });
  expect(res.statusCode, res.body).toBe(200);
  return o;
}
const tokenOf = (url: string) => /\/OwnerReport\/([A-Za-z0-9_-]{43})$/.exec(url)![1]!;

const ownerEl = await addAccount({ lastName: 'Παπαδόπουλος', firstName: 'Γιώργος', isOwner: true, email: 'giorgos.owner@example.gr' });
const ownerRu = await addAccount({ lastName: 'Иванова', firstName: 'Анна', isOwner: true, email: 'anna.owner@example.ru', language: 'ru' });
const client = await addAccount({ lastName: 'Μαρκοπούλου', firstName: 'Ελένη', isClient: true, email: 'eleni.client@example.gr', phone: '6944123456' });
const sourceId = await addAccount({ firstName: 'Portal', lastName: 'Spitogatos', isSource: true });
await db.execute(sql`update accounts set is_company = true where id = ${sourceId}`);

const flatA = await underMandate([ownerEl, ownerRu]);
const flatB = await underMandate([ownerEl]);
const leadId = (await agent.post('/api/lead/add', { accountId: client })).json().id as number;
await db.update(leads).set({ source: sourceId } as never).where(eq(leads.id, leadId));
await agent.post('/api/lead/addObject', { leadId, objectId: flatA.id });
await agent.post('/api/lead/addObject', { leadId, objectId: flatB.id });
const viewingAt = `${plusDays(today, -3)}T11:30:00`;
const viewing = await agent.post('/api/Viewing/update', {
  demandId: leadId,
  dateOfViewing: viewingAt,
  results: [
    { objectId: flatA.id, result: 2, comment: 'Φωτεινό, αλλά θέλει ανακαίνιση στο μπάνιο' },
    { objectId: flatB.id, result: 5, comment: 'Secret remark about flat B' },
  ],
});
expect(viewing.statusCode, viewing.body).toBe(200);
const viewingId = viewing.json().id as number;
const second = await agent.post('/api/Viewing/update', { demandId: leadId, dateOfViewing: `${plusDays(today, -1)}T09:00:00`, results: [{ objectId: flatA.id, result: 5, comment: 'Too dark, never show this to the owner' }] });
const secondId = second.json().id as number;

describe('the owner’s report: staff calls', () => {
  it('refuses bad input, anonymous callers and the payments clients, and a property without a mandate', async () => {
    expect((await agent.get('/api/ownerReport/0')).statusCode).toBe(400);
    expect((await agent.get('/api/ownerReport/abc')).statusCode).toBe(400);
    expect((await agent.post(`/api/ownerReport/${flatA.id}/monthly`, { monthly: 'yes' })).statusCode).toBe(400);
    expect((await agent.post(`/api/ownerReport/${flatA.id}/share`, { viewingId: -1, share: true })).statusCode).toBe(400);
    expect((await agent.get('/api/ownerReport/999999')).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/ownerReport/${flatA.id}` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: `/api/ownerReport/${flatA.id}/link` })).statusCode).toBe(401);
    expect((await payer.get(`/api/ownerReport/${flatA.id}`)).statusCode).toBe(403);
    expect((await payer.post(`/api/ownerReport/${flatA.id}/link`, {})).statusCode).toBe(403);
    expect((await payer.post(`/api/ownerReport/${flatA.id}/send`, {})).statusCode).toBe(403);
    const bare = await addObject();
    const refused = await agent.post(`/api/ownerReport/${bare.id}/link`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().title).toContain('mandate');
    expect((await agent.get(`/api/ownerReport/${bare.id}`)).json()).toMatchObject({ mandateInForce: false, activeLinks: 0 });
    // A viewing of another property cannot be shared on this one.
    const other = await agent.post(`/api/ownerReport/${bare.id}/share`, { viewingId, share: true });
    expect(other.statusCode).toBe(404);
  });

  it('lets staff of a branch make a link too, as properties and their mandates belong to no branch', async () => {
    const res = await branchAgent.post(`/api/ownerReport/${flatB.id}/link`, {});
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('the owner’s page', () => {
  it('shows the property’s viewings with only the shared comment, counts and the mandate, and no client’s name, phone or e-mail', async () => {
    const shared = await agent.post(`/api/ownerReport/${flatA.id}/share`, { viewingId, share: true });
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().viewings.find((v: { viewingId: number }) => v.viewingId === viewingId).shared).toBe('Φωτεινό, αλλά θέλει ανακαίνιση στο μπάνιο');
    // The viewing saved again afterwards (the app rewrites its lines): the shared comment stays shared.
    const again = await agent.post('/api/Viewing/update', { id: viewingId, version: viewing.json().version, results: [{ objectId: flatA.id, result: 3, comment: 'Φωτεινό, αλλά θέλει ανακαίνιση στο μπάνιο' }, { objectId: flatB.id, result: 5, comment: 'Secret remark about flat B' }] });
    expect(again.statusCode, again.body).toBe(200);
    // A price change, from the action log.
    const edit = (await admin.get(`/api/object/edit/${flatA.id}`)).json().object;
    expect((await admin.post('/api/object/update', { id: flatA.id, version: edit.version, forSale: true, salePrice: 179000 })).statusCode).toBe(200);

    const made = await agent.post(`/api/ownerReport/${flatA.id}/link`, {});
    expect(made.statusCode, made.body).toBe(200);
    const { url } = made.json();
    expect(url).toMatch(/\/OwnerReport\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(url);
    // Only its hash is kept.
    const stored = await db.select().from(ownerReportLinks).where(eq(ownerReportLinks.objectId, flatA.id));
    expect(stored.some((l) => l.tokenHash.includes(token))).toBe(false);
    const [logged] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'OwnerReport'), eq(actionLog.entityId, flatA.id), eq(actionLog.action, 'Create')));
    expect(logged).toBeDefined();

    const page = await app.inject({ method: 'GET', url: `/api/ownerReport/public/${token}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    const r = page.json();
    // The first owner's language (no language on the account: Greek).
    expect(r.language).toBe('el');
    expect(r.property.ref).toBe(flatA.referenceNumber);
    expect(r.mandate).toMatchObject({ kind: 'exclusive', startDate: plusDays(today, -30), endDate: plusDays(today, 90) });
    expect(r.viewings).toEqual([
      { date: `${plusDays(today, -1)}T09:00:00`, result: 5, comment: null },
      { date: viewingAt, result: 3, comment: 'Φωτεινό, αλλά θέλει ανακαίνιση στο μπάνιο' },
    ]);
    expect(r.enquiries).toEqual([{ month: expect.stringMatching(/^\d{4}-\d{2}$/), source: expect.stringContaining('Spitogatos'), count: 1 }]);
    expect(r.prices).toEqual([{ date: today, service: 'sale', price: 179000 }]);
    expect(r.shortlists).toBe(0);
    expect(r.siteViews).toEqual([]);
    for (const secret of ['Μαρκοπούλου', 'Ελένη', 'eleni.client', '6944123456', 'Too dark', 'Secret remark', 'Παπαδόπουλος', 'giorgos.owner']) expect(page.body).not.toContain(secret);
  });

  it('shows nothing of another property: the link of A opens A only', async () => {
    const a = tokenOf((await agent.post(`/api/ownerReport/${flatA.id}/link`, {})).json().url);
    const body = (await app.inject({ method: 'GET', url: `/api/ownerReport/public/${a}` })).json();
    expect(body.property.ref).toBe(flatA.referenceNumber);
    expect(JSON.stringify(body)).not.toContain(`"ref":"${flatB.referenceNumber}"`);
    // Flat B's viewing line (not liked, its own comment) is not among A's.
    expect(body.viewings.map((v: { result: number }) => v.result)).not.toContain(undefined);
    expect(JSON.stringify(body)).not.toContain('Secret remark');
    // No other record is reachable by the link: there is no other public call of the report.
    expect((await app.inject({ method: 'GET', url: `/api/ownerReport/public/${a}/${flatB.id}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/ownerReport/${flatB.id}?token=${a}` })).statusCode).toBe(401);
  });

  it('answers 404 for an unknown, a revoked or an expired link, each saying so in the reader’s language', async () => {
    const unknown = await app.inject({ method: 'GET', url: `/api/ownerReport/public/${'A'.repeat(43)}`, headers: { 'accept-language': 'el' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().title).toContain('δεν είναι έγκυρος');
    expect((await app.inject({ method: 'GET', url: '/api/ownerReport/public/short' })).statusCode).toBe(400);

    const token = tokenOf((await agent.post(`/api/ownerReport/${flatA.id}/link`, {})).json().url);
    const revoked = await agent.post(`/api/ownerReport/${flatA.id}/revoke`, {});
    expect(revoked.json().activeLinks).toBe(0);
    const gone = await app.inject({ method: 'GET', url: `/api/ownerReport/public/${token}`, headers: { 'accept-language': 'en' } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().title).toContain('withdrawn');

    const late = tokenOf((await agent.post(`/api/ownerReport/${flatA.id}/link`, {})).json().url);
    await db.execute(sql`update owner_report_links set expires_on = now() - interval '1 minute' where object_id = ${flatA.id} and revoked_on is null`);
    const expired = await app.inject({ method: 'GET', url: `/api/ownerReport/public/${late}`, headers: { 'accept-language': 'ru' } });
    expect(expired.statusCode).toBe(404);
    expect(expired.json().title).toContain('истёк');
  });

  it('names a source only when it is a company: a person who sent the client stays unnamed', async () => {
    const flat = await underMandate([ownerEl]);
    const friend = await addAccount({ lastName: 'Κωνσταντίνου', firstName: 'Σοφία', isSource: true, email: 'sofia.friend@example.gr' });
    const lead = (await agent.post('/api/lead/add', { accountId: client })).json().id as number;
    await db.update(leads).set({ source: friend } as never).where(eq(leads.id, lead));
    await agent.post('/api/lead/addObject', { leadId: lead, objectId: flat.id });
    const token = tokenOf((await agent.post(`/api/ownerReport/${flat.id}/link`, {})).json().url);
    const page = await app.inject({ method: 'GET', url: `/api/ownerReport/public/${token}` });
    expect(page.json().enquiries).toEqual([{ month: expect.stringMatching(/^\d{4}-\d{2}$/), source: null, count: 1 }]);
    for (const secret of ['Κωνσταντίνου', 'Σοφία', 'sofia.friend']) expect(page.body).not.toContain(secret);
  });

  it('stops a link when a later mandate of the property is in force: the old owner does not read the new one’s report', async () => {
    const flat = await underMandate([ownerEl]);
    const token = tokenOf((await agent.post(`/api/ownerReport/${flat.id}/link`, {})).json().url);
    expect((await app.inject({ method: 'GET', url: `/api/ownerReport/public/${token}` })).statusCode).toBe(200);
    await db.execute(sql`update object_mandates set end_date = ${plusDays(today, -1)}::date where object_id = ${flat.id}`);
    const next = await admin.post('/api/Mandate/update', {
      objectId: flat.id, kind: 'simple', startDate: today, endDate: plusDays(today, 60), askingPrice: 190000, commissionPercent: 2, exceptions: [],
      owners: [{ accountId: ownerRu, taxOffice: 'Καλαμαριάς' }],
    });
    expect(next.statusCode, next.body).toBe(200);
    const gone = await app.inject({ method: 'GET', url: `/api/ownerReport/public/${token}`, headers: { 'accept-language': 'en' } });
    expect(gone.statusCode).toBe(404);
    // A link made under the new mandate opens.
    const fresh = tokenOf((await agent.post(`/api/ownerReport/${flat.id}/link`, {})).json().url);
    expect((await app.inject({ method: 'GET', url: `/api/ownerReport/public/${fresh}` })).statusCode).toBe(200);
  });

  it('answers an address that guesses links a 429, even for a real link; another address reads it', async () => {
    const token = tokenOf((await agent.post(`/api/ownerReport/${flatA.id}/link`, {})).json().url);
    const open = (tk: string, ip: string) => app.inject({ method: 'GET', url: `/api/ownerReport/public/${tk}`, remoteAddress: ip });
    for (let i = 0; i < 20; i++) expect((await open(`${String(i).padStart(2, '0')}${'q'.repeat(41)}`, '198.51.100.20')).statusCode).toBe(404);
    expect((await open(token, '198.51.100.20')).statusCode).toBe(429);
    expect((await open(token, '198.51.100.21')).statusCode).toBe(200);
  });

  it('unshares a comment: the owner no longer sees it', async () => {
    await agent.post(`/api/ownerReport/${flatA.id}/share`, { viewingId: secondId, share: true });
    const token = tokenOf((await agent.post(`/api/ownerReport/${flatA.id}/link`, {})).json().url);
    const read = async () => (await app.inject({ method: 'GET', url: `/api/ownerReport/public/${token}` })).body;
    expect(await read()).toContain('Too dark');
    const off = await agent.post(`/api/ownerReport/${flatA.id}/share`, { viewingId: secondId, share: false });
    expect(off.statusCode).toBe(200);
    expect(await read()).not.toContain('Too dark');
  });
});

describe('the views of the property’s page on the site', () => {
  it('counts each visitor once a day per month, not a robot nor a reload, and the report shows them', async () => {
    await db.execute(sql`update objects set published = true, publish_requested = true, active = true where id = ${flatA.id}`);
    const page = await app.inject({ method: 'GET', url: `/listings/${flatA.referenceNumber}` });
    // The same visitor again (another language, a reload): not counted again.
    await app.inject({ method: 'GET', url: `/listings/${flatA.referenceNumber}?lang=en` });
    for (let i = 0; i < 5; i++) await app.inject({ method: 'GET', url: `/listings/${flatA.referenceNumber}` });
    // A robot that says so, and a request that names no client: not counted.
    await app.inject({ method: 'GET', url: `/listings/${flatA.referenceNumber}`, remoteAddress: '203.0.113.7', headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } });
    await app.inject({ method: 'GET', url: `/listings/${flatA.referenceNumber}`, remoteAddress: '203.0.113.8', headers: { 'user-agent': '' } });
    // Another visitor: counted; and another browser behind the first one's address (a carrier's NAT).
    await app.inject({ method: 'GET', url: `/listings/${flatA.referenceNumber}`, remoteAddress: '203.0.113.9' });
    await app.inject({ method: 'GET', url: `/listings/${flatA.referenceNumber}`, headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' } });
    await app.inject({ method: 'GET', url: `/listings/${flatB.referenceNumber}` });
    expect([200, 404]).toContain(page.statusCode);
    const token = tokenOf((await agent.post(`/api/ownerReport/${flatA.id}/link`, {})).json().url);
    const r = (await app.inject({ method: 'GET', url: `/api/ownerReport/public/${token}` })).json();
    expect(r.siteViews).toEqual([{ month: today.slice(0, 7), views: 3 }]);
  });
});

describe('the report by mail', () => {
  it('mails each owner now, in their language, with a link of their own', async () => {
    const res = await agent.post(`/api/ownerReport/${flatA.id}/send`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sentTo.sort()).toEqual(['anna.owner@example.ru', 'giorgos.owner@example.gr']);
    await app.jobs.drain();
    const ru = await t.lastMailTo('anna.owner@example.ru');
    expect(ru).toContain('Направляем отчёт по вашему объекту');
    const el = await t.lastMailTo('giorgos.owner@example.gr');
    expect(el).toContain('Σας στέλνουμε την αναφορά για το ακίνητό σας');
    const ruToken = /\/OwnerReport\/([A-Za-z0-9_-]{43})/.exec(ru)![1]!;
    const page = (await app.inject({ method: 'GET', url: `/api/ownerReport/public/${ruToken}` })).json();
    expect(page.language).toBe('ru');
  });

  it('mails the monthly report once a month per property, even when the job runs twice', async () => {
    const c = await underMandate([ownerRu]);
    const before = t.outbox().filter((m) => m.text.includes('To: anna.owner@example.ru')).length;
    expect((await agent.post(`/api/ownerReport/${c.id}/monthly`, { monthly: true })).json().monthly).toBe(true);
    const [first, twice] = await Promise.all([runMonthlyReports(app, { today }), runMonthlyReports(app, { today })]);
    expect([...first, ...twice].filter((id) => id === c.id)).toEqual([c.id]);
    expect(await runMonthlyReports(app, { today })).not.toContain(c.id);
    await app.jobs.drain();
    while (app.pendingWork.size) await Promise.all([...app.pendingWork]);
    const after = t.outbox().filter((m) => m.text.includes('To: anna.owner@example.ru')).length;
    expect(after - before).toBe(1);
    // The next month mails again.
    const next = `${plusDays(`${today.slice(0, 7)}-01`, 40).slice(0, 7)}-05`;
    expect(await runMonthlyReports(app, { today: next })).toContain(c.id);
    // Switched off: nothing more.
    await agent.post(`/api/ownerReport/${c.id}/monthly`, { monthly: false });
    const later = `${plusDays(`${next.slice(0, 7)}-01`, 40).slice(0, 7)}-05`;
    expect(await runMonthlyReports(app, { today: later })).not.toContain(c.id);
  });
});
