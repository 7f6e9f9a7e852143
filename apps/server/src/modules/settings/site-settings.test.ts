import { describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestApp, type Client } from '../../../test/harness.ts';
import { accounts, actionLog, siteSettings } from '../../db/schema/index.ts';

/** The agency's details for its public site (decision 022): who may set them, how they are checked, versioned and logged. */
const t = await createTestApp();
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
const agent = await t.user({ roles: ['employee'] });

const read = (as: Client = admin) => as.get('/api/SiteSettings');
const save = (payload: Record<string, unknown>, as: Client = admin, lang = 'en') => as.post('/api/SiteSettings', payload, { lang });
const stored = async () => (await db.select().from(siteSettings).where(eq(siteSettings.id, 1)))[0]!;
const current = async () => {
  // The agency's later details (issue 45) are site-identity.test.ts's.
  const { sourceList: _s, licence: _l, taxNumber: _t, saleFeePercent: _p, rentFeeMonths: _m, nameEl: _ne, website: _w, taxOffice: _to, publicUrl: _pu, hasLogo: _hl, setupDone: _sd, mandateRequiredToPublish: _mr, linkBase: _lb, linksLocal: _ll, ...settings } = (await read()).json() as { version: number; name: string | null; phone: string | null; email: string | null; address: string | null; enquirySourceId: number | null; sourceList: unknown; licence: unknown; taxNumber: unknown; saleFeePercent: unknown; rentFeeMonths: unknown; nameEl: unknown; website: unknown; taxOffice: unknown; publicUrl: unknown; hasLogo: unknown; setupDone: unknown; mandateRequiredToPublish: unknown; linkBase: unknown; linksLocal: unknown };
  return settings;
};

describe('site settings', () => {
  it('are read and changed by office admins only', async () => {
    for (const who of [agent, branchAdmin]) {
      expect((await read(who)).statusCode).toBe(403);
      expect((await save({ phone: '+30 2310 123 456', version: 1 }, who)).statusCode).toBe(403);
    }
    expect((await app.inject({ method: 'GET', url: '/api/SiteSettings' })).statusCode).toBe(401);
    expect(await stored()).toMatchObject({ phone: null, email: null, version: 1 });
    expect(await current()).toEqual({ name: null, phone: null, email: null, address: null, enquirySourceId: null, version: 1 });
  });

  it('refuses a phone or e-mail an agency would not write, with the reason in the reader\'s language, and keeps nothing', async () => {
    for (const phone of ['call us', '2310-12', '+30 2310 +123456', '1234567890123456', '69x1234567', '+30 2310 123 456 -']) {
      const res = await save({ phone, email: 'office@agency.gr', version: 1 });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().errors.phone, phone).toEqual(['Enter a phone number: 7 to 15 digits, spaces allowed, + only at the start (e.g. +30 2310 123 456)']);
      expect(res.json().errors.email).toBeUndefined();
    }
    for (const email of ['office@agency', 'office agency.gr', 'office@@agency.gr', '<a>@agency.gr']) {
      const res = await save({ email, version: 1 }, admin, 'el');
      expect(res.statusCode, email).toBe(400);
      expect(res.json().errors.email, email).toEqual(['Η διεύθυνση e-mail δεν είναι έγκυρη']);
    }
    const ru = await save({ phone: 'звоните', version: 1 }, admin, 'ru');
    expect(ru.json().errors.phone).toEqual(['Введите номер телефона: от 7 до 15 цифр, можно с пробелами, знак + только в начале (например, +30 2310 123 456)']);
    const long = await save({ name: 'x'.repeat(101), address: 'y'.repeat(201), version: 1 });
    expect(Object.keys(long.json().errors).sort()).toEqual(['address', 'name']);
    expect(await stored()).toMatchObject({ name: null, phone: null, email: null, address: null, version: 1 });
  });

  it('stores the details as written (spaces run together), raises the version and logs what changed', async () => {
    const res = await save({ name: '  Thermaikos   Homes ', phone: '+30 2310  123 456', email: 'info@thermaikos-homes.gr', address: 'Tsimiski 45, 546 23 Thessaloniki', version: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ name: 'Thermaikos Homes', phone: '+30 2310 123 456', email: 'info@thermaikos-homes.gr', address: 'Tsimiski 45, 546 23 Thessaloniki', enquirySourceId: null, licence: null, taxNumber: null, saleFeePercent: null, rentFeeMonths: null, nameEl: null, website: null, taxOffice: null, publicUrl: null, hasLogo: false, setupDone: false, mandateRequiredToPublish: false, version: 2 });
    expect(await stored()).toMatchObject({ name: 'Thermaikos Homes', phone: '+30 2310 123 456', version: 2, modifiedBy: admin.id });
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'SiteSettings'), eq(actionLog.actionBy, admin.id))).orderBy(desc(actionLog.id));
    expect(log).toMatchObject({ action: 'Update', entityId: 1 });
    expect(log!.data).toEqual({
      name: { from: null, to: 'Thermaikos Homes' },
      phone: { from: null, to: '+30 2310 123 456' },
      email: { from: null, to: 'info@thermaikos-homes.gr' },
      address: { from: null, to: 'Tsimiski 45, 546 23 Thessaloniki' },
    });
    // The same again changes nothing and logs nothing.
    const logs = async () => (await db.select().from(actionLog).where(eq(actionLog.entity, 'SiteSettings'))).length;
    const before = await logs();
    expect((await save({ name: 'Thermaikos Homes', phone: '+30 2310 123 456', email: 'info@thermaikos-homes.gr', address: 'Tsimiski 45, 546 23 Thessaloniki', version: 2 })).json().version).toBe(2);
    expect(await logs()).toBe(before);
  });

  it('answers a save based on an older version with 409 and the current details, and changes nothing', async () => {
    const res = await save({ phone: '2310 999999', version: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().current).toMatchObject({ phone: '+30 2310 123 456', version: 2 });
    expect((await stored()).phone).toBe('+30 2310 123 456');
  });

  it('clears a detail saved empty', async () => {
    const res = await save({ name: 'Thermaikos Homes', phone: ' ', email: '', address: null, version: 2 });
    expect(res.statusCode, res.body).toBe(200);
    expect(await current()).toEqual({ name: 'Thermaikos Homes', phone: null, email: null, address: null, enquirySourceId: null, version: 3 });
  });

  it("names the source of the site's enquiries among the source accounts only, and lets it go with its account", async () => {
    const [website] = await db.insert(accounts).values({ lastName: 'Own website', isSource: true }).returning({ id: accounts.id });
    const [client] = await db.insert(accounts).values({ lastName: 'Not a source', isClient: true }).returning({ id: accounts.id });
    const list = (await read()).json().sourceList as { value: number; text: string }[];
    expect(list).toContainEqual({ value: website!.id, text: 'Own website' });
    expect(list.map((o) => o.value)).not.toContain(client!.id);
    const refused = await save({ name: 'Thermaikos Homes', enquirySourceId: client!.id, version: 3 }, admin, 'el');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.enquirySourceId).toEqual(['Επιλέξτε μία από τις διαθέσιμες τιμές']);
    const ok = await save({ name: 'Thermaikos Homes', enquirySourceId: website!.id, version: 3 });
    expect(ok.json()).toMatchObject({ enquirySourceId: website!.id, version: 4 });
    await db.delete(accounts).where(eq(accounts.id, website!.id));
    expect(await current()).toMatchObject({ enquirySourceId: null, version: 4 });
  });

  it('takes a registry number as Greek agencies write it, and refuses words without a number in the reader\'s language, changing nothing', async () => {
    const base = { ...(await current()) } as Record<string, unknown>;
    delete base.version;
    const before = await stored();
    for (const value of ['ΓΕΜΗ', 'abc', 'ΑΡ. ΜΗΤΡΩΟΥ', 'x-y', '1', 'ΓΕΜΗ 12345<script>', 'N/A']) {
      const res = await save({ ...base, licence: value, version: (await current()).version }, admin, 'el');
      expect(res.statusCode, value).toBe(400);
      expect(res.json().errors, value).toEqual({
        licence: ['Γράψτε τον αριθμό μητρώου όπως αναγράφεται στα έγγραφα του γραφείου, π.χ. ΓΕΜΗ 123456701000 ή Α.Μ. 2345: ψηφία, με πρόθεμα αν θέλετε.'],
      });
    }
    const ru = await save({ ...base, licence: 'номер', version: (await current()).version }, admin, 'ru');
    expect(ru.json().errors.licence).toEqual(['Введите регистрационный номер так, как он указан в документах агентства, например ΓΕΜΗ 123456701000 или Α.Μ. 2345: цифры, при желании с префиксом.']);
    expect(await stored()).toEqual(before);
    for (const value of ['123456701000', 'ΓΕΜΗ 123456701000', 'Γ.Ε.ΜΗ.: 123456701000', 'Α.Μ. 2345', 'ΓΕΜΗ 123456701000 / ΑΜ 2345', 'Αρ. Μητρώου Μεσιτών 87', 'GEMI 123456701000', '№ 1234-56']) {
      const res = await save({ ...base, licence: value, version: (await current()).version }, admin, 'en');
      expect(res.statusCode, `${value}: ${res.body}`).toBe(200);
      expect(res.json().licence).toBe(value);
    }
    // Cleared: no number at all is allowed.
    expect((await save({ ...base, licence: '', version: (await current()).version })).json().licence).toBeNull();
  });

  it("keeps the viewing sheet's details: registry number, a valid ΑΦΜ and the fee terms, refusing bad ones in the reader's language", async () => {
    const base = { ...(await current()) } as Record<string, unknown>;
    delete base.version;
    const v = (await current()).version;
    const bad = await save({ ...base, taxNumber: '123456789', saleFeePercent: 0, rentFeeMonths: 13, version: v }, admin, 'el');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      taxNumber: ['Ο ΑΦΜ δεν είναι έγκυρος: έχει 9 ψηφία και το τελευταίο, το ψηφίο ελέγχου, δεν ταιριάζει με τα οκτώ πρώτα. Ελέγξτε μήπως πληκτρολογήθηκε λάθος ψηφίο.'],
      saleFeePercent: ['Συμπληρώστε την αμοιβή για πώληση ως ποσοστό επί του τιμήματος: πάνω από 0 και έως 100, με έως δύο δεκαδικά (π.χ. 2)'],
      rentFeeMonths: ['Συμπληρώστε την αμοιβή για μίσθωση σε μηνιαία μισθώματα: πάνω από 0 και έως 12, με έως δύο δεκαδικά (π.χ. 1 ή 0,5 για μισό μίσθωμα)'],
    });
    for (const [field, value] of [['taxNumber', '12345678'], ['taxNumber', 'EL12345678X'], ['saleFeePercent', 2.005], ['saleFeePercent', 101], ['rentFeeMonths', -1], ['licence', 'x'.repeat(101)]] as const) {
      const res = await save({ ...base, [field]: value, version: v }, admin, 'ru');
      expect(res.statusCode, `${field} ${value}`).toBe(400);
      expect(Object.keys(res.json().errors), `${field} ${value}`).toEqual([field]);
    }
    // The fee alone first: a change of its own, logged as a number.
    expect((await save({ ...base, saleFeePercent: 2.5, version: v }, admin, 'en')).json()).toMatchObject({ saleFeePercent: 2.5, version: v + 1 });
    const ok = await save({ ...base, licence: ' ΓΕΜΗ  123456701000 ', taxNumber: 'EL 094 014 201', saleFeePercent: 2.5, rentFeeMonths: 1, version: v + 1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ licence: 'ΓΕΜΗ 123456701000', taxNumber: '094014201', saleFeePercent: 2.5, rentFeeMonths: 1, version: v + 2 });
    expect(await stored()).toMatchObject({ licence: 'ΓΕΜΗ 123456701000', taxNumber: '094014201', saleFeePercent: 2.5, rentFeeMonths: 1, version: v + 2 });
    const [log] = await db.select().from(actionLog).where(eq(actionLog.entity, 'SiteSettings')).orderBy(desc(actionLog.id));
    expect(log!.data).toEqual({
      licence: { from: null, to: 'ΓΕΜΗ 123456701000' },
      taxNumber: { from: null, to: '094014201' },
      rentFeeMonths: { from: null, to: 1 },
    });
    // The same again logs nothing; a stale version changes nothing.
    expect((await save({ ...base, licence: 'ΓΕΜΗ 123456701000', taxNumber: '094014201', saleFeePercent: 2.5, rentFeeMonths: 1, version: v + 2 })).json().version).toBe(v + 2);
    const stale = await save({ ...base, licence: 'Α.Μ. 2345', saleFeePercent: 3, version: v + 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ licence: 'ΓΕΜΗ 123456701000', saleFeePercent: 2.5, rentFeeMonths: 1, version: v + 2 });
    expect(await stored()).toMatchObject({ licence: 'ΓΕΜΗ 123456701000', saleFeePercent: 2.5, version: v + 2 });
    // The public site's details are not the sheet's: the public pages get the four alone.
    const { getSiteContact } = await import('./site-settings.service.ts');
    expect(Object.keys(await getSiteContact(db)).sort()).toEqual(['address', 'email', 'name', 'phone']);
  });
});
