import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { and, desc, eq, sql } from 'drizzle-orm';
import { ASSIGNMENT_PARENTS } from '@crm/contract';
import { accounts, actionLog, assignments, leadObjects, leads, objects, siteSettings, users, viewings } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { agencyIdentity, linkBase } from './site-settings.service.ts';
import { getFileStorage } from '../../storage/file-storage.ts';

/**
 * The agency's own face (issue 45): its names, web address, tax office, public address and logo in
 * the settings, checked, versioned and logged; and what clients see carrying them (the public site,
 * the sheets, the shortlist page), with the agent's full name and never a sign-in's.
 */
const t = await createTestApp();
const { app, db } = t;
const admin = await t.user({ roles: ['admin'], email: 'admin@agency.test' });

const read = async () => (await admin.get('/api/SiteSettings')).json();
const save = (payload: Record<string, unknown>, lang = 'en') => admin.post('/api/SiteSettings', payload, { lang });
const stored = async () => (await db.select().from(siteSettings).where(eq(siteSettings.id, 1)))[0]!;
const PNG = await sharp({ create: { width: 1200, height: 300, channels: 4, background: '#1d4e89' } }).png().toBuffer();

describe("the agency's identity in the settings", () => {
  it('a fresh install has not done its set-up, and its links point to this machine', async () => {
    const s = await read();
    expect(s).toMatchObject({ setupDone: false, hasLogo: false, nameEl: null, website: null, taxOffice: null, publicUrl: null, linksLocal: true });
    expect(s.linkBase).toMatch(/^http:\/\/localhost/);
  });

  it('refuses a web or public address no one could open, in the reader\'s language, and changes nothing', async () => {
    const before = await stored();
    const res = await save({ name: 'Thermaikos Homes', website: 'thermaikos homes', publicUrl: 'crm.thermaikos.gr/?x=1', version: before.version }, 'el');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      website: ['Γράψτε τη διεύθυνση της ιστοσελίδας όπως ανοίγει, π.χ. www.grafeio.gr'],
      publicUrl: ['Γράψτε τη διεύθυνση στην οποία ανοίγουν οι χρήστες το CRM, με https:// μπροστά (π.χ. https://crm.grafeio.gr), χωρίς ? ή #'],
    });
    const ru = await save({ website: 'сайт', version: before.version }, 'ru');
    expect(ru.json().errors.website).toEqual(['Укажите адрес сайта так, как его открывают, например www.agency.gr']);
    expect(await stored()).toEqual(before);
  });

  it('stores the names, web address, tax office and public address, marks the set-up done, and logs what changed', async () => {
    const { version } = await stored();
    const res = await save({
      name: 'Thermaikos Homes', nameEl: ' Θερμαϊκός  Ακίνητα ', phone: '+30 2310 254 870', email: 'info@thermaikos-homes.gr', address: 'Τσιμισκή 45, Θεσσαλονίκη',
      licence: null, taxNumber: '094712341', taxOffice: 'Δ΄ Θεσσαλονίκης', website: 'www.thermaikos-homes.gr', publicUrl: 'https://crm.thermaikos-homes.gr/',
      saleFeePercent: 2, rentFeeMonths: 1, setupDone: true, version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      nameEl: 'Θερμαϊκός Ακίνητα', website: 'https://www.thermaikos-homes.gr', taxOffice: 'Δ΄ Θεσσαλονίκης', publicUrl: 'https://crm.thermaikos-homes.gr',
      setupDone: true, hasLogo: false, version: version + 1,
    });
    const s = await read();
    expect(s).toMatchObject({ nameEl: 'Θερμαϊκός Ακίνητα', setupDone: true, linkBase: 'https://crm.thermaikos-homes.gr', linksLocal: false });
    const [log] = await db.select().from(actionLog).where(eq(actionLog.entity, 'SiteSettings')).orderBy(desc(actionLog.id)).limit(1);
    expect(log!.data).toMatchObject({
      nameEl: { from: null, to: 'Θερμαϊκός Ακίνητα' },
      taxOffice: { from: null, to: 'Δ΄ Θεσσαλονίκης' },
      publicUrl: { from: null, to: 'https://crm.thermaikos-homes.gr' },
      setupDone: { from: false, to: true },
    });
    // Links are built on it from now on.
    expect(await linkBase(app)).toBe('https://crm.thermaikos-homes.gr');
    // A caller that does not know the later fields (an older page) leaves them as they are.
    const older = await save({ name: 'Thermaikos Homes', phone: '+30 2310 254 871', email: 'info@thermaikos-homes.gr', address: 'Τσιμισκή 45, Θεσσαλονίκη', taxNumber: '094712341', saleFeePercent: 2, rentFeeMonths: 1, version: version + 1 });
    expect(older.json()).toMatchObject({ phone: '+30 2310 254 871', nameEl: 'Θερμαϊκός Ακίνητα', taxOffice: 'Δ΄ Θεσσαλονίκης', setupDone: true, version: version + 2 });
    // A stale version changes nothing.
    expect((await save({ nameEl: 'Άλλο', version })).statusCode).toBe(409);
    expect((await stored()).nameEl).toBe('Θερμαϊκός Ακίνητα');
  });

  it('refuses a logo that is not a picture, whatever its name, and keeps a picture as a PNG anyone may read', async () => {
    const before = await stored();
    const bad = await admin.upload('/api/SiteSettings/logo', [{ field: 'version', value: String(before.version) }, { field: 'file', name: 'logo.png', data: Buffer.from('%PDF-1.4 not a logo'), type: 'image/png' }], { lang: 'el' });
    expect(bad.statusCode).toBe(415);
    expect(bad.json().title).toBe('Το «logo.png» δεν είναι εικόνα: ανεβάστε το λογότυπο ως PNG, JPEG ή WebP.');
    const html = await admin.upload('/api/SiteSettings/logo', [{ field: 'version', value: String(before.version) }, { field: 'file', name: 'logo.html', data: Buffer.from('<html><script>alert(1)</script></html>') }]);
    expect(html.statusCode).toBe(415);
    expect(await stored()).toEqual(before);
    expect((await app.inject({ url: '/api/public/logo' })).statusCode).toBe(404);

    const ok = await admin.upload('/api/SiteSettings/logo', [{ field: 'version', value: String(before.version) }, { field: 'file', name: 'Λογότυπο.png', data: PNG, type: 'image/png' }]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ hasLogo: true, version: before.version + 1 });
    const logo = await app.inject({ url: '/api/public/logo' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    // Kept no larger than the box (800 × 400), never enlarged.
    expect(await sharp(logo.rawPayload).metadata()).toMatchObject({ format: 'png', width: 800, height: 200 });
    const identity = await agencyIdentity(app);
    expect(identity.logo?.contentType).toBe('image/png');
    expect((await identity.logo!.read())!.equals(logo.rawPayload)).toBe(true);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'SiteSettings'), eq(actionLog.actionBy, admin.id))).orderBy(desc(actionLog.id)).limit(1);
    expect(log!.data).toEqual({ logo: { from: null, to: 'Λογότυπο.png' } });
    // A stale version removes nothing; the current one does.
    expect((await admin.del(`/api/SiteSettings/logo?version=${before.version}`)).statusCode).toBe(409);
    const [{ logoName } = { logoName: null }] = await db.select({ logoName: siteSettings.logoName }).from(siteSettings);
    expect(await getFileStorage(t.dataDir).stat(logoName!)).toBeDefined();
    const gone = await admin.del(`/api/SiteSettings/logo?version=${before.version + 1}`);
    expect(gone.json()).toMatchObject({ hasLogo: false, version: before.version + 2 });
    expect((await app.inject({ url: '/api/public/logo' })).statusCode).toBe(404);
    // Its file went after the commit, and its name with it (decision 115).
    expect(await getFileStorage(t.dataDir).stat(logoName!)).toBeUndefined();
    expect((await db.execute(sql`select count(*)::int as n from stored_files_pending where name = ${logoName}`)).rows[0]).toEqual({ n: 0 });
    await admin.upload('/api/SiteSettings/logo', [{ field: 'version', value: String(before.version + 2) }, { field: 'file', name: 'logo.png', data: PNG }]);
  });
});

describe('what clients see', () => {
  it('the public site is titled and signed with the name in the reader\'s letters, its numbers and logo', async () => {
    const el = (await app.inject({ url: '/listings?lang=el' })).body;
    expect(el).toMatch(/<title>[^<]* · Θερμαϊκός Ακίνητα<\/title>/);
    expect(el).toContain('<span class="agency-name">Θερμαϊκός Ακίνητα</span>');
    expect(el).toMatch(/<a class="brand" href="\/listings\?lang=el"><img src="\/api\/public\/logo\?v=\d+" alt="" height="40">Θερμαϊκός Ακίνητα<\/a>/);
    expect(el).toContain('ΑΦΜ: 094712341, ΔΟΥ: Δ΄ Θεσσαλονίκης');
    expect(el).toContain('href="https://www.thermaikos-homes.gr"');
    // No registry number set: no line with a label and nothing after it.
    expect(el).not.toContain('Αρ. ΓΕΜΗ');
    expect(el).toContain('<link rel="canonical" href="https://crm.thermaikos-homes.gr/listings');
    const en = (await app.inject({ url: '/listings?lang=en' })).body;
    expect(en).toMatch(/<title>[^<]* · Thermaikos Homes<\/title>/);
    expect(en).toContain('VAT no.: 094712341, Tax office: Δ΄ Θεσσαλονίκης');
    await db.update(siteSettings).set({ licence: '158204306000' }).where(eq(siteSettings.id, 1));
    app.publicPages.clear();
    expect((await app.inject({ url: '/listings?lang=el' })).body).toContain('Αρ. ΓΕΜΗ: 158204306000');
    await db.update(siteSettings).set({ licence: null }).where(eq(siteSettings.id, 1));
    app.publicPages.clear();
  });

  it('the viewing and property sheets carry the name, numbers and logo, leave out a number not set, and name the agent in full', async () => {
    const [agentAccount] = await db.insert(accounts).values({ firstName: 'Στέφανος', lastName: 'Παπαδάκης', isEmploye: true }).returning({ id: accounts.id });
    const [client] = await db.insert(accounts).values({ firstName: 'Maria', lastName: 'Client', isClient: true, language: 'el' }).returning({ id: accounts.id });
    const [lead] = await db.insert(leads).values({ accountId: client!.id, forRent: true } as never).returning({ id: leads.id });
    const [viewing] = await db.insert(viewings).values({ demandId: lead!.id, dateOfViewing: new Date('2026-12-03T09:30:00Z') } as never).returning({ id: viewings.id });
    await db.insert(assignments).values({ parent: ASSIGNMENT_PARENTS.viewing, parentId: viewing!.id, accountId: agentAccount!.id });
    const s = (await admin.get(`/api/Viewing/${viewing!.id}/sheet`, { lang: 'en' })).json();
    expect(s.agency).toMatchObject({ name: 'Θερμαϊκός Ακίνητα', licence: null, taxNumber: '094712341', taxOffice: 'Δ΄ Θεσσαλονίκης', website: 'https://www.thermaikos-homes.gr' });
    expect(s.agency.logo).toMatch(/^\/api\/public\/logo\?v=\d+$/);
    expect(s.agents).toBe('Στέφανος Παπαδάκης');
    const inEnglish = (await admin.get(`/api/Viewing/${viewing!.id}/sheet?culture=en`, { lang: 'en' })).json();
    expect(inEnglish.agency.name).toBe('Thermaikos Homes');
    expect(JSON.stringify(s)).not.toMatch(/admin/i);

    const [flat] = await db.insert(objects).values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, objectSubTypeId: 1, forRent: true, rentPrice: 700 } as never).returning({ id: objects.id });
    await db.insert(assignments).values({ parent: ASSIGNMENT_PARENTS.object, parentId: flat!.id, accountId: agentAccount!.id });
    const sheet = (await admin.get(`/api/object/sheet/${flat!.id}?culture=el`, { lang: 'el' })).json();
    expect(sheet.agency).toMatchObject({ name: 'Θερμαϊκός Ακίνητα', licence: null, taxNumber: '094712341', taxOffice: 'Δ΄ Θεσσαλονίκης' });
    expect(sheet.labels).toMatchObject({ taxNumber: 'ΑΦΜ', taxOffice: 'ΔΟΥ' });
    expect(sheet.agent.name).toBe('Στέφανος Παπαδάκης');
    expect(JSON.stringify(sheet)).not.toMatch(/admin/i);
  });

  it("the shortlist page names the agent who sent it in full, never the sign-in, and its link is on the public address", async () => {
    const [o] = await db.insert(objects).values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, title: 'Flat', titleEl: 'Διαμέρισμα', objectSubTypeId: 1, forRent: true, rentPrice: 700, active: true } as never).returning({ id: objects.id });
    const [a] = await db.insert(accounts).values({ firstName: 'Maria', lastName: 'Shortlisted', language: 'el' }).returning();
    const [l] = await db.insert(leads).values({ accountId: a!.id, forRent: true } as never).returning({ id: leads.id });
    await db.insert(leadObjects).values({ leadId: l!.id, objectId: o!.id, position: 0 });
    const sent = await admin.post(`/api/lead/${l!.id}/shortlist`, { objectIds: [o!.id], channel: 'link' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().url).toMatch(/^https:\/\/crm\.thermaikos-homes\.gr\/Shortlist\//);
    const token = /\/Shortlist\/([A-Za-z0-9_-]{43})$/.exec(sent.json().url)![1]!;
    // The first administrator has no account with a name: the page says "we", not "admin".
    const before = (await app.inject({ url: `/api/shortlist/${token}`, headers: { 'accept-language': 'el' } })).json();
    expect(before.agentName).toBeNull();
    expect(before.agency.name).toBe('Θερμαϊκός Ακίνητα');
    expect(JSON.stringify(before)).not.toMatch(/admin/i);
    // Once the sign-in is a person's, the page names them in full.
    const [me] = await db.insert(accounts).values({ firstName: 'Γιώργος', lastName: 'Αδάμου', isEmploye: true }).returning({ id: accounts.id });
    await db.update(users).set({ accountId: me!.id }).where(eq(users.id, admin.id));
    const after = (await app.inject({ url: `/api/shortlist/${token}` })).json();
    expect(after.agentName).toBe('Γιώργος Αδάμου');
    expect(JSON.stringify(after)).not.toMatch(/admin/i);
  });
});
