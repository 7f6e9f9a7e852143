import { describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { accounts, objectAccounts, objects, users } from '../../db/schema/index.ts';
import { createTestApp, json, type Client } from '../../../test/harness.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { makeStampFormatter } from '../../lib/dates.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const emp = await t.user({ roles: ['employee'] });
const branchUser = await t.user({ roles: ['employee'], branchId: 1 });

// The person behind the employee's sign-in: lists show its name as the creator.
const [empAccount] = await t.db.insert(accounts).values({ firstName: 'Sofia', lastName: 'Markou', isEmploye: true, role: 'employee', emails: [emp.email] }).returning();
await t.db.update(users).set({ accountId: empAccount!.id }).where(eq(users.id, emp.id));

type Row = Record<string, unknown> & { id: number; name: string };
type List = { items: Row[]; totalRows: number };
/** A list as `as` reads it; it must answer. */
const list = (url: string, as: Client = admin) => json<List>(as.get(url));
const search = (url: string, payload: object) => json<List & { filterLists?: { serviceList: unknown[]; sourceList: unknown[] } }>(admin.post(url, payload));
const names = (a: { items: Row[] }) => a.items.map((r) => r.name);

// Created at known moments (UTC); Athens is UTC+2 in winter, UTC+3 in summer.
const at = (iso: string) => new Date(iso);
const [src1, src2] = await t.db
  .insert(accounts)
  .values([
    { isSource: true, isCompany: true, name: 'Spitogatos', companyType: 'Portal', createdOn: at('2025-01-01T10:00:00Z') },
    { isSource: true, isCompany: true, name: 'Facebook', companyType: 'Social network', createdOn: at('2025-01-02T10:00:00Z') },
  ])
  .returning();
await t.db.insert(accounts).values([
  // Owners
  { firstName: 'Nikos', lastName: 'Alexiou', isOwner: true, createdOn: at('2025-02-01T10:00:00Z'), modifiedOn: at('2025-03-01T10:00:00Z'), createdBy: admin.id, modifiedBy: emp.id },
  { firstName: 'Anna', lastName: 'Boura', isOwner: true, createdOn: at('2025-02-02T10:00:00Z'), createdBy: emp.id },
  { firstName: 'Petros', lastName: 'Christou', isOwner: true, isClient: true, service: 1, sourceId: src1!.id, createdOn: at('2025-02-03T10:00:00Z') },
  // Clients
  { firstName: 'Γιώργος', lastName: 'Παπαδόπουλος', isClient: true, service: 1, sourceId: src1!.id, purchaseBudgetRangeMin: 100000, purchaseBudgetRangeMax: 150000, createdOn: at('2025-05-31T21:30:00Z') }, // 1 June in Athens
  { firstName: 'Olga', lastName: 'Smirnova', isClient: true, service: 2, sourceId: src2!.id, purchaseBudgetRangeMin: 500, createdOn: at('2025-06-01T20:59:00Z') }, // 1 June, 23:59 in Athens
  { firstName: 'Ivan', lastName: 'Petrov', isClient: true, service: 3, createdOn: at('2025-06-01T21:00:00Z') }, // 2 June in Athens
  // Specialists
  { firstName: 'Eleni', lastName: 'Notara', isProfessional: true, isNotary: true, numberOfSoldObjects: 3 },
  { firstName: 'Kostas', lastName: 'Ydravlikos', isProfessional: true, isPlumber: true, isLocksmith: true },
  // Partners
  { isCompany: true, name: 'Halkidiki Tours', isPartnerTourism: true, country: 'Greece', createdBy: emp.id, createdOn: at('2025-04-10T10:00:00Z') },
  { isCompany: true, name: 'Sofia Realty', isPartnerRealEstate: true, country: 'Bulgaria', createdBy: admin.id, createdOn: at('2025-04-20T10:00:00Z') },
  // Employees
  { firstName: 'Maria', lastName: 'Vlachou', isEmploye: true, role: 'admin', branchId: null },
]);

describe('account lists', () => {
  it('owners: pages, counts, sorts by name and shows creator/modifier names and dates', async () => {
    const all = await list('/api/owner?sortBy=name&sortDir=asc');
    expect(all.totalRows).toBe(3);
    expect(names(all)).toEqual(['Alexiou Nikos', 'Boura Anna', 'Christou Petros']);
    expect(all.items[0]).toMatchObject({ createdOn: '2025-02-01T12:00:00', createdBy: admin.email, modifiedOn: '2025-03-01T12:00:00', modifiedBy: 'Markou Sofia', objectReferenceNumbers: '' });
    expect(all.items[1]!.createdBy).toBe('Markou Sofia');
    const page2 = await list('/api/owner?sortBy=name&sortDir=desc&perPage=2&currentPage=2');
    expect(page2).toMatchObject({ totalRows: 3 });
    expect(names(page2)).toEqual(['Alexiou Nikos']);
    const byCreator = await list('/api/owner?sortBy=createdBy&sortDir=asc');
    expect(byCreator.items.map((r) => r.createdBy)).toEqual(['Markou Sofia', admin.email, null]);
    const newest = await list('/api/owner');
    expect(names(newest)).toEqual(['Christou Petros', 'Boura Anna', 'Alexiou Nikos']);
    const showAll = await list('/api/owner?perPage=1000000');
    expect(showAll.totalRows).toBe(3);
  });

  it('a later page holds the same rows, columns and names as that part of the whole list, in every order', async () => {
    for (const sortBy of ['name', 'createdOn', 'createdBy', 'modifiedOn', 'modifiedBy', 'objects']) {
      for (const sortDir of ['asc', 'desc']) {
        const whole = await list(`/api/owner?sortBy=${sortBy}&sortDir=${sortDir}`);
        const pages = [];
        for (const page of [1, 2, 3]) pages.push(...(await list(`/api/owner?sortBy=${sortBy}&sortDir=${sortDir}&perPage=1&currentPage=${page}`)).items);
        expect(pages, `${sortBy} ${sortDir}`).toEqual(whole.items);
      }
    }
  });

  it('refuses bad paging and unknown sort keys', async () => {
    for (const q of ['perPage=0', 'perPage=abc', 'currentPage=0', 'sortBy=password', 'sortDir=up', 'perPage=1000001']) {
      const res = await admin.get(`/api/owner?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('clients: filters by service, sources, local created-on dates and last name without accents; answers the filter lists', async () => {
    const all = await search('/api/clients/search', {});
    expect(all.totalRows).toBe(4);
    expect(all.filterLists!.serviceList).toEqual([
      { value: 0, text: 'All services' },
      { value: 1, text: 'Purchase' },
      { value: 2, text: 'Rental' },
      { value: 3, text: 'Short-term rental' },
      { value: 4, text: 'Sale' },
      { value: 5, text: 'Letting' },
    ]);
    expect(all.filterLists!.sourceList).toEqual([
      { value: src2!.id, text: 'Facebook' },
      { value: src1!.id, text: 'Spitogatos' },
    ]);
    const gp = all.items.find((r) => r.name === 'Παπαδόπουλος Γιώργος')!;
    expect(gp).toMatchObject({ hasNotClosedLead: false, purchaseBudgetRangeMin: 100000, purchaseBudgetRangeMax: 150000, createdOn: '2025-06-01T00:30:00', objectReferenceNumbers: '' });
    // A client who also owns a property shows it in the Objects column, as the Owners list does.
    const [flat] = await t.db.insert(objects).values({ referenceNumber: 4321 } as never).returning({ id: objects.id });
    await t.db.insert(objectAccounts).values({ objectId: flat!.id, accountId: gp.id, relation: 1 } as never);
    const withFlat = (await search('/api/clients/search', {})).items.find((r) => r.id === gp.id)!;
    expect(withFlat.objectReferenceNumbers).toContain('4321');
    await t.db.delete(objectAccounts).where(eq(objectAccounts.objectId, flat!.id));
    await t.db.delete(objects).where(eq(objects.id, flat!.id));

    expect(names(await search('/api/clients/search', { serviceFilter: 1, sortBy: 'name', sortDir: 'asc' }))).toEqual(['Christou Petros', 'Παπαδόπουλος Γιώργος']);
    expect(names(await search('/api/clients/search', { sources: [src2!.id] }))).toEqual(['Smirnova Olga']);
    const june1 = await search('/api/clients/search', { startDate: '2025-06-01', endDate: '2025-06-01', sortBy: 'name', sortDir: 'asc' });
    expect(names(june1)).toEqual(['Smirnova Olga', 'Παπαδόπουλος Γιώργος']);
    expect(names(await search('/api/clients/search', { startDate: '2025-06-02' }))).toEqual(['Petrov Ivan']);
    expect(names(await search('/api/clients/search', { lastName: 'παπαδοπ' }))).toEqual(['Παπαδόπουλος Γιώργος']);
    expect(names(await search('/api/clients/search', { lastName: 'ΠΑΠΑΔΌΠΟΥΛΟΣ' }))).toEqual(['Παπαδόπουλος Γιώργος']);
    expect((await search('/api/clients/search', { lastName: '%' })).totalRows).toBe(0);
    // A name fragment is counted in the page's own scan: every page, and one past the end, says 2.
    const pages = await Promise.all([1, 2, 3].map((currentPage) => search('/api/clients/search', { lastName: 'ov', perPage: 1, currentPage, sortBy: 'name', sortDir: 'asc' })));
    expect(pages.map((r) => [names(r), r.totalRows])).toEqual([[['Petrov Ivan'], 2], [['Smirnova Olga'], 2], [[], 2]]);
    const byBudget = await search('/api/clients/search', { sortBy: 'request', sortDir: 'desc' });
    expect(names(byBudget).slice(0, 2)).toEqual(['Παπαδόπουλος Γιώργος', 'Smirnova Olga']);
  });

  it('clients: refuses ill-typed filters', async () => {
    for (const body of [{ serviceFilter: 'rent' }, { sources: 'all' }, { startDate: '01/06/2025' }, { perPage: 0 }]) {
      const res = await admin.post('/api/clients/search', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('specialists: every specialty flag and the number of sold objects', async () => {
    const res = await list('/api/professional?sortBy=name&sortDir=asc');
    expect(res.totalRows).toBe(2);
    expect(res.items[0]).toMatchObject({ name: 'Notara Eleni', isNotary: true, isPlumber: false, numberOfSoldObjects: 3 });
    expect(res.items[1]).toMatchObject({ name: 'Ydravlikos Kostas', isPlumber: true, isLocksmith: true, isNotary: false });
    expect(Object.keys(res.items[0]!)).toContain('isRealEstateAgencyOrBroker');
  });

  it('partners: both kinds, filtered by creator, creator text, country and created-on range', async () => {
    const all = await search('/api/partners', { sortBy: 'name', sortDir: 'asc' });
    expect(all.totalRows).toBe(2);
    expect(all.items[0]).toMatchObject({ name: 'Halkidiki Tours', isPartnerTourism: true, isPartnerRealEstate: false, country: 'Greece', createdBy: 'Markou Sofia' });
    // the creator is picked as a person: the employee account whose sign-in created the partner
    expect(names(await search('/api/partners', { createdBy: empAccount!.id }))).toEqual(['Halkidiki Tours']);
    expect(names(await search('/api/partners', { createdByText: 'markou' }))).toEqual(['Halkidiki Tours']);
    expect(names(await search('/api/partners', { country: 'bulg' }))).toEqual(['Sofia Realty']);
    expect(names(await search('/api/partners', { createdOnStart: '2025-04-15', createdOnEnd: '2025-04-30' }))).toEqual(['Sofia Realty']);
    const paged = await search('/api/partners', { perPage: 1, currentPage: 2, sortBy: 'createdOn', sortDir: 'asc' });
    expect(paged.totalRows).toBe(2);
    expect(names(paged)).toEqual(['Sofia Realty']);
  });

  it('sources: name and company type, sortable', async () => {
    const res = await list('/api/source?sortBy=companyType&sortDir=asc');
    expect(res.items).toEqual([
      { id: src1!.id, name: 'Spitogatos', phone: null, companyType: 'Portal' },
      { id: src2!.id, name: 'Facebook', phone: null, companyType: 'Social network' },
    ]);
    // In the reader's alphabet: capitals and accents do not reorder it (it sorted "Bank" before "agency", "Ένωση" before "Γραφείο").
    const more = await t.db
      .insert(accounts)
      .values(['agency', 'Bank', 'Ένωση', 'Γραφείο', 'ξενοδοχείο'].map((companyType, i) => ({ isSource: true, isCompany: true, name: `Source ${i}`, companyType })))
      .returning({ id: accounts.id });
    const types = (await list('/api/source?sortBy=companyType&sortDir=asc')).items.map((r) => String(r.companyType));
    expect(types).toEqual(['agency', 'Bank', 'Portal', 'Social network', 'Γραφείο', 'Ένωση', 'ξενοδοχείο']);
    await t.db.delete(accounts).where(inArray(accounts.id, more.map((m) => m.id)));
  });

  it('employees: name, role, branch and sign-in, closed to branch users', async () => {
    const res = await list('/api/employe?sortBy=name&sortDir=asc', emp);
    expect(res.items.map(({ name, role, branchId, signIn }) => ({ name, role, branchId, signIn }))).toEqual([
      { name: 'Markou Sofia', role: 'employee', branchId: null, signIn: emp.email },
      { name: 'Vlachou Maria', role: 'admin', branchId: null, signIn: null },
    ]);
    const denied = await branchUser.get('/api/employe');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().title).toBe('Access denied');
    // The other lists stay open to branch users.
    await list('/api/owner', branchUser);
  });

  it('the generic list holds every account; lists need a sign-in', async () => {
    const res = await list('/api/account?perPage=5&sortBy=name&sortDir=asc');
    expect(res.totalRows).toBe(14);
    expect(res.items).toHaveLength(5);
    expect(Object.keys(res.items[0]!).sort()).toEqual(['createdBy', 'createdOn', 'id', 'modifiedBy', 'modifiedOn', 'name', 'phone']);
    expect((await app.inject({ url: '/api/account' })).statusCode).toBe(401);
  });

  it('pages never overlap or skip rows when many share the sort value', async () => {
    const same = at('2025-07-01T10:00:00Z');
    await t.db.insert(accounts).values(Array.from({ length: 7 }, (_, i) => ({ firstName: `Twin${i}`, lastName: 'Same', isOwner: true, createdOn: same })));
    const seen: number[] = [];
    for (let p = 1; p <= 4; p++) seen.push(...(await list(`/api/owner?perPage=3&currentPage=${p}`)).items.map((r) => r.id));
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
  });

  it('every list has a search box (name, phone or e-mail, in either script) and shows the first phone', async () => {
    await t.db.insert(accounts).values([
      { firstName: 'Ελένη', lastName: 'Καραγιάννη', isOwner: true, isClient: true, phones: ['+30 2310 555123', '6944 000111'], emails: ['eleni@example.gr'] },
      { firstName: 'Eleftheria', lastName: 'Karali', isOwner: true, phones: ['2310 999888'] },
      { isCompany: true, name: 'Karagiannis Partners', isPartnerRealEstate: true, phones: ['210 1112223'] },
      { isCompany: true, name: 'Karagiannis Ads', isSource: true, companyType: 'Print' },
      { firstName: 'Kostas', lastName: 'Karagiannis', isProfessional: true, isNotary: true },
      { firstName: 'Nefeli', lastName: 'Karagianni', isEmploye: true, role: 'employee', phones: ['6900 123456'] },
    ]);
    const owners = await list(`/api/owner?search=${encodeURIComponent('Καραγ')}&sortBy=name&sortDir=asc`);
    expect(owners).toMatchObject({ totalRows: 1, items: [{ name: 'Καραγιάννη Ελένη', phone: '+30 2310 555123' }] });
    // A phone as typed with spaces, or a part of its digits; an e-mail; Greeklish for a Greek name.
    for (const typed of ['2310 555', '555123', 'eleni@example', 'karagianni']) {
      expect(names(await list(`/api/owner?search=${encodeURIComponent(typed)}`)), typed).toEqual(['Καραγιάννη Ελένη']);
    }
    expect(names(await list('/api/owner?search=kara&sortBy=name&sortDir=asc'))).toEqual(['Karali Eleftheria', 'Καραγιάννη Ελένη']);
    // Paged: the total is the matches', not the kind's.
    expect(await list('/api/owner?search=kara&perPage=1&currentPage=2&sortBy=name&sortDir=asc')).toMatchObject({ totalRows: 2, items: [{ name: 'Καραγιάννη Ελένη' }] });
    expect(await list('/api/owner?search=nobody-by-that-name')).toEqual({ items: [], totalRows: 0 });
    expect((await search('/api/clients/search', { search: '6944 000111' })).items.map((r) => [r.name, r.phone])).toEqual([['Καραγιάννη Ελένη', '+30 2310 555123']]);
    expect(names(await search('/api/partners', { search: 'karag' }))).toEqual(['Karagiannis Partners']);
    expect(names(await list('/api/source?search=karag'))).toEqual(['Karagiannis Ads']);
    expect(names(await list('/api/professional?search=karag'))).toEqual(['Karagiannis Kostas']);
    expect((await list('/api/employe?search=karag')).items.map((r) => [r.name, r.phone])).toEqual([['Karagianni Nefeli', '6900 123456']]);
    expect(names(await list('/api/account?search=karag&sortBy=name&sortDir=asc'))).toEqual(['Karagianni Nefeli', 'Karagiannis Ads', 'Karagiannis Kostas', 'Karagiannis Partners', 'Καραγιάννη Ελένη']);
    // The search is text, not a way into the statement.
    expect((await list(`/api/owner?search=${encodeURIComponent("%' or 1=1 --")}`)).totalRows).toBe(0);
    const long = await admin.get(`/api/owner?search=${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
  });
});

describe('list dates', () => {
  it('formats moments as the wall clock of the zone says (Intl), across daylight-saving changes and odd offsets', () => {
    // The reference: Intl's own formatting of each moment, field by field.
    const wallClock = (ms: number, timeZone: string) =>
      new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
        .format(new Date(ms))
        .replace(' ', 'T');
    const moments = [
      Date.UTC(2025, 2, 30, 0, 59, 59), Date.UTC(2025, 2, 30, 1, 0, 0), // Athens springs forward at 01:00 UTC
      Date.UTC(2025, 9, 26, 0, 59, 59, 999), Date.UTC(2025, 9, 26, 1, 0, 0), // and falls back
      Date.UTC(2024, 1, 29, 22, 0, 0), Date.UTC(1999, 11, 31, 23, 59, 59),
      ...Array.from({ length: 500 }, (_, i) => Date.UTC(2020, 0, 1) + i * 7_919_993_377),
    ];
    for (const tz of ['Europe/Athens', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe', 'UTC']) {
      const stamp = makeStampFormatter(tz);
      for (const ms of moments) {
        expect(stamp(ms), `${tz} ${ms}`).toBe(wallClock(ms, tz));
        expect(toLocalDateTime(new Date(ms), tz), `${tz} ${ms}`).toBe(wallClock(ms, tz));
      }
    }
    expect(makeStampFormatter('Europe/Athens')(null)).toBeNull();
  });
});

describe('name order by the reader\'s language', () => {
  it('sorts Greek accented capitals beside their letter, case and accents ignored, and Russian Ё beside Е', async () => {
    const owners = await t.db
      .insert(accounts)
      .values(
        ['Ήλιος Ζαχαρίας', 'Ηλίας Άρης', 'ζαφειρίου Νίκη', 'Άννα Βλάχου', 'Αλεξίου Μαρία', 'Ёлкин Пётр', 'Елкина Анна', 'Жуков Иван'].map((n) => {
          const [lastName, firstName] = n.split(' ') as [string, string];
          return { lastName, firstName, isOwner: true };
        }),
      )
      .returning({ id: accounts.id, name: accounts.displayName });
    const mine = new Set(owners.map((o) => o.id));
    const order = async (lang: string) => {
      const res = await admin.get('/api/owner?perPage=1000000&sortBy=name&sortDir=asc', { lang });
      return (res.json().items as { id: number; name: string }[]).filter((r) => mine.has(r.id)).map((r) => r.name);
    };
    const greek = (await order('el')).filter((n) => /[α-ωά-ώ]/i.test(n));
    expect(greek).toEqual(['Αλεξίου Μαρία', 'Άννα Βλάχου', 'ζαφειρίου Νίκη', 'Ηλίας Άρης', 'Ήλιος Ζαχαρίας']);
    const russian = (await order('ru')).filter((n) => /[а-яё]/i.test(n));
    expect(russian).toEqual(['Ёлкин Пётр', 'Елкина Анна', 'Жуков Иван']);
  });
});
