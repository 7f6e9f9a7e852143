import { describe, expect, it } from 'vitest';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, actionLog, activities, activityLinks, assignments, files, users } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';

const t = await createTestApp();
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const emp = await t.user({ roles: ['employee'] });
const branchUser = await t.user({ roles: ['employee'], branchId: 1 });
const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });

let seq = 0;
async function addAccount(fields: Record<string, unknown> = {}, as: Client = admin): Promise<number> {
  seq++;
  const res = await as.post('/api/account/add', { firstName: `First${seq}`, lastName: `Last${seq}`, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}
const view = async (id: number) => (await admin.get(`/api/account/view/${id}`)).json();
const lastLog = async (entity: string, entityId: number) =>
  (await t.db.select().from(actionLog).where(and(eq(actionLog.entity, entity), eq(actionLog.entityId, entityId))).orderBy(desc(actionLog.id)).limit(1))[0];
async function insertFile(name: string, parent?: { type: number; id: number }) {
  const [f] = await t.db
    .insert(files)
    .values({ systemName: `${name}-${Math.random().toString(36).slice(2)}`, userName: name, mime: 'application/pdf', size: 10, parentType: parent?.type ?? null, parentId: parent?.id ?? null })
    .returning();
  return f!;
}

describe('adding an account', () => {
  it('requires first and last name, with the error under each field, in the caller\'s language; nothing is stored', async () => {
    const before = (await t.db.select({ id: accounts.id }).from(accounts)).length;
    const res = await emp.post('/api/account/add', { isClient: true, firstName: '  ' }, { lang: 'el' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.errors.firstName).toEqual(['Υποχρεωτικό πεδίο']);
    expect(body.errors.lastName).toEqual(['Υποχρεωτικό πεδίο']);
    expect((await t.db.select({ id: accounts.id }).from(accounts)).length).toBe(before);
  });

  it('stores the preset flags, dates becoming a client, joins e-mails and phones, and logs the creation', async () => {
    const id = await addAccount(
      { firstName: 'Maria', lastName: 'Papadopoulou', isClient: true, email: ' maria@example.gr ;; m.p@example.com ', phone: '+30 694 111 2233', purchaseBudgetRangeMin: 150000, purchaseBudgetRangeMax: 200000 },
      emp,
    );
    const a = await view(id);
    expect(a).toMatchObject({
      id,
      displayName: 'Papadopoulou Maria',
      isClient: true,
      isOwner: false,
      email: 'maria@example.gr;m.p@example.com',
      phone: '+30 694 111 2233',
      purchaseBudgetRangeMin: 150000,
      purchaseBudgetRangeMax: 200000,
      createdBy: emp.email,
      modifiedBy: emp.email,
      files: [],
      leads: [],
      ownedObjectsReferenceNumbers: '',
      signIn: null,
      isOwnerDate: null,
      version: 1,
    });
    expect(a.isClientDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(a.createdOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(await lastLog('Account', id)).toMatchObject({ action: 'Create', actionBy: emp.id, message: 'Papadopoulou Maria' });
  });

  it('refuses more than 4 e-mails and more than 5 phones with a translated field error', async () => {
    const five = 'a@x.gr;b@x.gr;c@x.gr;d@x.gr;e@x.gr';
    const res = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', email: five });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.email).toEqual(['An account can have at most 4 e-mail addresses. Separate them with a semicolon (;).']);
    const phones = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', phone: '2310000001;2310000002;2310000003;2310000004;2310000005;2310000006' }, { lang: 'ru' });
    expect(phones.json().errors.phone).toEqual(['У контакта может быть не более 5 номеров телефона. Разделяйте их точкой с запятой (;).']);
  });

  it('refuses an e-mail or a phone that is not one, in the reader’s language, and takes the ways people write them', async () => {
    for (const email of ['maria@@example', 'maria@example', 'maria example@x.gr', 'a@x.gr;@x.gr', 'a@x..gr']) {
      const res = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', email }, { lang: 'el' });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().errors.email, email).toEqual(['Η διεύθυνση e-mail δεν είναι έγκυρη']);
    }
    for (const phone of ['abc-12', '12', '+30 69x', '2310 123456; hello', '6912345678 ext. 12a']) {
      const res = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', phone });
      expect(res.statusCode, phone).toBe(400);
      expect(res.json().errors.phone, phone).toHaveLength(1);
    }
    const good = { email: 'maria.p+crm@thermaikos-homes.gr; m@mail.example.co.uk', phone: '+30 691 234 5678;(2310) 45-67-89; 2310.456.789 ext. 12; +7 (916) 123-45-67; (+30) 697 123 4567' };
    const res = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', ...good });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const upd = await admin.post('/api/account/update', { id, version: 1, phone: 'abc-12' });
    expect(upd.json().errors.phone).toHaveLength(1);
    expect((await admin.post('/api/account/update', { id, version: 1, email: '', phone: '' })).statusCode).toBe(200);
  });

  it('checks a Greek tax number (ΑΦΜ) by its check digit when it is typed, in the reader’s language', async () => {
    for (const bad of ['123', '123456789', '000000000', '09000000O']) {
      const res = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', taxNumber: bad }, { lang: 'el' });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors.taxNumber, bad).toEqual([expect.stringMatching(/^Μη έγκυρος ΑΦΜ\. Έχει 9 ψηφία και το τελευταίο είναι ψηφίο ελέγχου/)]);
    }
    // 090000045 is the check digit's own example; spaces and the VAT prefix are fine; empty is fine.
    for (const good of ['090000045', 'EL 090 000 045', '', null]) {
      const res = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', taxNumber: good });
      expect(res.statusCode, `${good}: ${res.body}`).toBe(200);
    }
    const id = await addAccount({});
    const edit = (await admin.post('/api/account/update', { id, version: 1, taxNumber: '090000046' })).json();
    expect(edit.errors.taxNumber).toHaveLength(1);
    // A number of another country is not checked.
    expect((await admin.post('/api/account/update', { id, version: 1, taxNumberOfOtherCountry: 'CZ998877' })).statusCode).toBe(200);
  });

  it("takes a language from the list and refuses another in the reader's language, changing nothing; one stored before the list stays and can be kept", async () => {
    const el = { lang: 'el' };
    const refused = await admin.post('/api/account/add', { firstName: 'A', lastName: 'LanguageRefused', language: 'Klingon' }, el);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.language).toEqual(['Επιλέξτε γλώσσα από τη λίστα.']);
    expect(await t.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.lastName, 'LanguageRefused'))).toEqual([]);
    const id = await addAccount({ language: 'ru' });
    expect((await view(id)).language).toBe('ru');
    const ru = await admin.post('/api/account/update', { id, version: 1, language: 'xx' }, { lang: 'ru' });
    expect(ru.json().errors.language).toEqual(['Выберите язык из списка.']);
    expect(await view(id)).toMatchObject({ language: 'ru', version: 1 });
    expect((await admin.post('/api/account/update', { id, version: 1, language: '' })).statusCode).toBe(200);
    expect((await view(id)).language).toBeNull();

    // A language typed before the list: shown and kept while other fields are saved, on the record
    // and one field at a time; only another value must be one of the list.
    await t.db.update(accounts).set({ language: 'Russian' }).where(eq(accounts.id, id));
    expect((await admin.post('/api/account/update', { id, version: 2, city: 'Θεσσαλονίκη' })).statusCode).toBe(200);
    expect(await view(id)).toMatchObject({ language: 'Russian', city: 'Θεσσαλονίκη' });
    const patch = (value: string, version: number) =>
      admin.patch(`/api/account/patch/${id}?version=${version}`, [{ op: 'replace', path: '/language', value }], { lang: 'en' });
    expect((await patch('Russian', 3)).statusCode).toBe(200);
    const typed = await patch('Russisch', 3);
    expect(typed.statusCode).toBe(400);
    expect(typed.json().errors.language).toEqual(['Choose a language from the list.']);
    expect((await patch('uk', 3)).statusCode).toBe(200);
    expect((await view(id)).language).toBe('uk');

    // A merge keeps the duplicate's language as it is stored, listed or not, and nothing else.
    const kept = await addAccount({ language: 'el' });
    const dup = await addAccount({});
    await t.db.update(accounts).set({ language: 'русский' }).where(eq(accounts.id, dup));
    const other = await admin.post('/api/account/merge', { account: { id: kept, version: 1, language: 'Klingon' }, duplicateId: dup }, el);
    expect(other.statusCode).toBe(400);
    expect(other.json().errors.language).toEqual(['Επιλέξτε γλώσσα από τη λίστα.']);
    expect((await view(dup)).id).toBe(dup);
    expect((await admin.post('/api/account/merge', { account: { id: kept, version: 1, language: 'русский' }, duplicateId: dup })).statusCode).toBe(200);
    expect((await view(kept)).language).toBe('русский');
  });

  it('rejects values of the wrong type before anything runs', async () => {
    const res = await admin.post('/api/account/add', { firstName: 'A', lastName: 'B', isClient: 'yes', branchId: 'one' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual(['branchId', 'isClient']);
  });

  it('lets only office admins give a new account a role or a branch', async () => {
    expect((await emp.post('/api/account/add', { firstName: 'A', lastName: 'B', isEmploye: true, role: 'admin' })).statusCode).toBe(403);
    const id = await addAccount({ isEmploye: true, role: 'employee', branchId: 1 });
    expect(await view(id)).toMatchObject({ role: 'employee', branchId: 1, isEmploye: true });
  });
});

describe('viewing and editing', () => {
  it('answers the edit form with translated select lists', async () => {
    const src = await addAccount({ isSource: true, isCompany: true, name: 'Spitogatos' });
    const id = await addAccount();
    const res = await emp.get(`/api/account/edit/${id}`, { lang: 'el' });
    expect(res.statusCode).toBe(200);
    const { dto, selectLists } = res.json();
    expect(dto.id).toBe(id);
    expect(selectLists.roles).toEqual([
      { value: 'admin', text: 'Διαχειριστής' },
      { value: 'employee', text: 'Υπάλληλος' },
    ]);
    expect(selectLists.branches).toEqual([{ value: 1, text: 'Θεσσαλονίκη' }]);
    expect(selectLists.sources).toContainEqual({ value: src, text: 'Spitogatos' });
    expect(selectLists.services.map((s: { value: number }) => s.value)).toEqual([1, 2, 3, 4, 5]);
    expect(selectLists.services[0].text).toBe('Αγορά');
  });

  it('answers 404 for a missing account and 400 for an id that is not one', async () => {
    expect((await admin.get('/api/account/view/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/account/edit/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/account/view/abc')).statusCode).toBe(400);
    expect((await admin.get('/api/account/view/0')).statusCode).toBe(400);
    expect((await admin.get('/api/account/view/1')).statusCode).not.toBe(401);
    expect((await app.inject({ url: '/api/account/view/1' })).statusCode).toBe(401);
  });

  it('is closed to payments-only users', async () => {
    const client = await t.user({ roles: ['clientPayments'] });
    const id = await addAccount();
    expect((await client.get(`/api/account/view/${id}`)).statusCode).toBe(403);
    expect((await client.post('/api/account/add', { firstName: 'A', lastName: 'B' })).statusCode).toBe(403);
  });
});

describe('updating', () => {
  it('saves the changed fields, counts the version up, stamps the change and logs it', async () => {
    const id = await addAccount({ isOwner: false });
    const res = await emp.post('/api/account/update', { id, version: 1, lastName: 'Georgiou', isOwner: true, email: 'g@x.gr; h@x.gr', city: '' });
    expect(res.statusCode).toBe(200);
    const dto = res.json();
    expect(dto).toMatchObject({ id, lastName: 'Georgiou', isOwner: true, email: 'g@x.gr;h@x.gr', city: null, version: 2, modifiedBy: emp.email });
    expect(dto.isOwnerDate).toMatch(/^\d{4}-/);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, id));
    expect(row!.emails).toEqual(['g@x.gr', 'h@x.gr']);
    const log = await lastLog('Account', id);
    expect(log).toMatchObject({ action: 'Update', actionBy: emp.id });
    expect(log!.data).toMatchObject({ lastName: 'Georgiou', isOwner: true, email: 'g@x.gr;h@x.gr' });
  });

  it('keeps the version and writes no log when nothing changes', async () => {
    const id = await addAccount({ firstName: 'Same', email: 'same@x.gr' });
    const res = await admin.post('/api/account/update', { id, version: 1, firstName: 'Same', email: ' same@x.gr ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().version).toBe(1);
    expect(await lastLog('Account', id)).toMatchObject({ action: 'Create' });
  });

  it('answers a stale version with 409 and the current record, and changes nothing', async () => {
    const id = await addAccount({ firstName: 'Nikos' });
    expect((await admin.post('/api/account/update', { id, version: 1, firstName: 'Nick' })).statusCode).toBe(200);
    const stale = await admin.post('/api/account/update', { id, version: 1, firstName: 'Nikolaos', notes: 'lost update' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ id, firstName: 'Nick', version: 2, notes: null });
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, id));
    expect(row).toMatchObject({ firstName: 'Nick', notes: null, version: 2 });
  });

  it('refuses 6 phones, an unknown account, bad types and bad choices', async () => {
    const id = await addAccount();
    const phones = await admin.post('/api/account/update', { id, version: 1, phone: '2310000001;2310000002;2310000003;2310000004;2310000005;2310000006' });
    expect(phones.statusCode).toBe(400);
    expect(phones.json().errors.phone[0]).toMatch(/at most 5 phone numbers/);
    expect((await admin.post('/api/account/update', { id: 999999, version: 1, firstName: 'X' })).statusCode).toBe(404);
    expect((await admin.post('/api/account/update', { id, version: 1, lastName: ' ' })).json().errors.lastName).toEqual(['This field is required']);
    expect((await admin.post('/api/account/update', { id, version: 'one' })).statusCode).toBe(400);
    expect((await admin.post('/api/account/update', { id, version: 1, service: 9 })).json().errors.service).toEqual(['Choose one of the offered values']);
    expect((await admin.post('/api/account/update', { id, version: 1, role: 'boss' })).json().errors.role).toEqual(['Choose one of the offered values']);
    expect((await admin.post('/api/account/update', { id, version: 1, branchId: 7 })).json().errors.branchId).toEqual(['Choose one of the offered values']);
    await admin.post('/api/account/update', { id, version: 1, purchaseBudgetRangeMax: 200000 }).then((r) => expect(r.statusCode).toBe(200));
    const budget = await admin.post('/api/account/update', { id, version: 2, purchaseBudgetRangeMin: 250000 }, { lang: 'el' });
    expect(budget.json().errors.purchaseBudgetRangeMin).toEqual(['Ο προϋπολογισμός «από» δεν μπορεί να υπερβαίνει το «έως»']);
    expect((await admin.post('/api/account/update', { id, version: 2, startDate: '2025-05-01', endDate: '2025-04-30' })).json().errors.endDate).toBeDefined();
    // A budget past what the database holds (numeric(14,2)) is the field's error, not a 500.
    for (const too of [1e12, 999999999999.999]) {
      const big = await admin.post('/api/account/update', { id, version: 2, purchaseBudgetRangeMax: too });
      expect(big.statusCode, big.body).toBe(400);
      expect(Object.keys(big.json().errors)).toEqual(['purchaseBudgetRangeMax']);
    }
    // The limit is written as the screens write numbers, in the reader's language.
    const bigEl = await admin.post('/api/account/update', { id, version: 2, purchaseBudgetRangeMax: 1e12 }, { lang: 'el' });
    expect(bigEl.json().errors.purchaseBudgetRangeMax).toEqual(['Η τιμή πρέπει να είναι έως 999\u00a0999\u00a0999\u00a0999,99']);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, id));
    expect(row).toMatchObject({ version: 2, purchaseBudgetRangeMin: null, startDate: null });
  });

  it('lets only office admins change a role or a branch, and keeps the sign-in in step', async () => {
    const id = await addAccount({ isEmploye: true, role: 'employee', email: 'kostas@agency.test' });
    const [u] = await t.db.insert(users).values({ email: 'kostas@agency.test', username: 'Kostas', roles: ['employee'], accountId: id }).returning();
    expect((await emp.post('/api/account/update', { id, version: 1, role: 'admin' })).statusCode).toBe(403);
    expect((await branchAdmin.post('/api/account/update', { id, version: 1, branchId: 1 })).statusCode).toBe(403);
    // Other fields stay open to employees.
    expect((await emp.post('/api/account/update', { id, version: 1, notes: 'Speaks Russian' })).statusCode).toBe(200);
    const res = await admin.post('/api/account/update', { id, version: 2, role: 'admin', branchId: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'admin', branchId: 1, signIn: 'kostas@agency.test' });
    const [after] = await t.db.select().from(users).where(eq(users.id, u!.id));
    expect(after).toMatchObject({ roles: ['admin'], branchId: 1 });
    expect(await lastLog('User', u!.id)).toMatchObject({ action: 'Update', actionBy: admin.id });
  });

  it('leaves the sign-in of a client (payments only) alone when its account gets a role', async () => {
    const id = await addAccount({ isClient: true });
    const [u] = await t.db.insert(users).values({ email: `pay${id}@example.gr`, username: 'Payer', roles: ['clientPayments'], accountId: id }).returning();
    expect((await admin.post('/api/account/update', { id, version: 1, role: 'admin' })).statusCode).toBe(200);
    expect((await t.db.select().from(users).where(eq(users.id, u!.id)))[0]).toMatchObject({ roles: ['clientPayments'], branchId: null });
  });

  it('attaches newly uploaded files, but never a file that belongs to another record', async () => {
    const id = await addAccount();
    const other = await addAccount();
    const f1 = await insertFile('contract.pdf');
    const f2 = await insertFile('passport.pdf');
    const taken = await insertFile('other.pdf', { type: LinkKind.Account, id: other });
    const res = await admin.post('/api/account/update', { id, version: 1, filesNew: `${f1.id}, ${f2.id},${taken.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().files.map((f: { userName: string }) => f.userName)).toEqual(['contract.pdf', 'passport.pdf']);
    expect((await view(other)).files).toEqual([{ systemName: taken.systemName, userName: 'other.pdf' }]);
    expect((await admin.post('/api/account/update', { id, version: 2, filesNew: '1;DROP' })).json().errors.filesNew).toBeDefined();
  });
});

describe('deleting', () => {
  it('removes the account, its assignments and activities of its own, keeps shared activities and detaches files', async () => {
    const id = await addAccount();
    const other = await addAccount();
    const agent = await addAccount({ isEmploye: true });
    await t.db.insert(assignments).values({ parent: 1, parentId: id, accountId: agent });
    const [own] = await t.db.insert(activities).values({ description: 'Call back' }).returning();
    const [shared] = await t.db.insert(activities).values({ description: 'Viewing with both' }).returning();
    await t.db.insert(activityLinks).values([
      { activityId: own!.id, entity: LinkKind.Account, entityId: id },
      { activityId: shared!.id, entity: LinkKind.Account, entityId: other },
      { activityId: shared!.id, entity: LinkKind.Account, entityId: id, position: 1 },
    ]);
    const file = await insertFile('id-card.jpg', { type: LinkKind.Account, id });

    const res = await emp.del(`/api/account/${id}`);
    expect(res.statusCode).toBe(200);
    expect((await admin.get(`/api/account/view/${id}`)).statusCode).toBe(404);
    expect(await t.db.select().from(assignments).where(and(eq(assignments.parent, 1), eq(assignments.parentId, id)))).toEqual([]);
    expect(await t.db.select().from(activities).where(eq(activities.id, own!.id))).toEqual([]);
    expect(await t.db.select({ e: activityLinks.entityId }).from(activityLinks).where(eq(activityLinks.activityId, shared!.id))).toEqual([{ e: other }]);
    const [f] = await t.db.select().from(files).where(eq(files.id, file.id));
    expect(f).toMatchObject({ parentType: null, parentId: null });
    expect(await lastLog('Account', id)).toMatchObject({ action: 'Delete', actionBy: emp.id });
    expect((await admin.del(`/api/account/${id}`)).statusCode).toBe(404);
    expect((await admin.del('/api/account/nope')).statusCode).toBe(400);
  });

  it('lets only office admins delete the account of someone who signs in', async () => {
    const id = await addAccount({ isEmploye: true });
    await t.db.insert(users).values({ email: `s${id}@agency.test`, username: 'S', roles: ['employee'], accountId: id });
    expect((await emp.del(`/api/account/${id}`)).statusCode).toBe(403);
    expect((await admin.del(`/api/account/${id}`)).statusCode).toBe(200);
  });
});

describe('merging', () => {
  it('keeps the chosen values and moves activities, assignments, files, sign-ins and clients to the kept account', async () => {
    const kept = await addAccount({ firstName: 'Eleni', lastName: 'Kosta', phone: '2310 111111' });
    const dup = await addAccount({ firstName: 'Elena', lastName: 'Kosta', email: 'eleni@example.gr', isClient: true });
    const agent1 = await addAccount({ isEmploye: true });
    const agent2 = await addAccount({ isEmploye: true });
    const client = await addAccount({ isClient: true, sourceId: dup });
    const elsewhere = await addAccount();
    await t.db.insert(assignments).values([
      { parent: 1, parentId: kept, accountId: agent1 },
      { parent: 1, parentId: dup, accountId: agent1 },
      { parent: 1, parentId: dup, accountId: agent2 },
      { parent: 1, parentId: elsewhere, accountId: dup },
    ]);
    const [both] = await t.db.insert(activities).values({ description: 'Meeting with both' }).returning();
    const [onlyDup] = await t.db.insert(activities).values({ description: 'Call Elena', assignedTo: dup }).returning();
    await t.db.insert(activityLinks).values([
      { activityId: both!.id, entity: LinkKind.Account, entityId: kept },
      { activityId: both!.id, entity: LinkKind.Account, entityId: dup, position: 1 },
      { activityId: onlyDup!.id, entity: LinkKind.Account, entityId: dup },
    ]);
    const keptFile = await insertFile('a.pdf', { type: LinkKind.Account, id: kept });
    const dupFile = await insertFile('b.pdf', { type: LinkKind.Account, id: dup });
    const [u] = await t.db.insert(users).values({ email: `elena${dup}@x.gr`, username: 'Elena', roles: ['employee'], accountId: dup }).returning();

    const res = await admin.post('/api/account/merge', { account: { id: kept, version: 1, email: 'eleni@example.gr', isClient: true }, duplicateId: dup });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: kept, firstName: 'Eleni', email: 'eleni@example.gr', phone: '2310 111111', isClient: true, version: 2 });
    expect(res.json().isClientDate).not.toBeNull();
    expect(res.json().files.map((f: { systemName: string }) => f.systemName)).toEqual([keptFile.systemName, dupFile.systemName]);

    expect((await admin.get(`/api/account/view/${dup}`)).statusCode).toBe(404);
    const links = await t.db.select().from(activityLinks).where(inArray(activityLinks.activityId, [both!.id, onlyDup!.id]));
    expect(links.map((l) => [l.activityId, l.entityId]).sort()).toEqual([[both!.id, kept], [onlyDup!.id, kept]].sort());
    const [moved] = await t.db.select().from(activities).where(eq(activities.id, onlyDup!.id));
    expect(moved!.assignedTo).toBe(kept);
    const asg = await t.db.select().from(assignments).where(eq(assignments.parent, 1));
    expect(asg.filter((a) => a.parentId === kept).map((a) => a.accountId).sort()).toEqual([agent1, agent2].sort());
    expect(asg.filter((a) => a.parentId === elsewhere).map((a) => a.accountId)).toEqual([kept]);
    expect((await t.db.select().from(users).where(eq(users.id, u!.id)))[0]!.accountId).toBe(kept);
    expect((await view(client)).sourceId).toBe(kept);
    const log = await lastLog('Account', kept);
    expect(log).toMatchObject({ action: 'Merge', actionBy: admin.id });
    expect(log!.data).toMatchObject({ keptId: kept, duplicateId: dup });
  });

  it('refuses to merge an account with itself, a missing one, and a stale version, changing nothing', async () => {
    const kept = await addAccount();
    const dup = await addAccount();
    const file = await insertFile('c.pdf', { type: LinkKind.Account, id: dup });
    const same = await admin.post('/api/account/merge', { account: { id: kept, version: 1 }, duplicateId: kept });
    expect(same.statusCode).toBe(400);
    expect(same.json().title).toBe('Choose two different accounts to merge.');
    expect((await admin.post('/api/account/merge', { account: { id: kept, version: 1 }, duplicateId: 999999 })).statusCode).toBe(404);
    expect((await admin.post('/api/account/merge', { account: { id: kept, version: 1 } })).statusCode).toBe(400);
    await admin.post('/api/account/update', { id: kept, version: 1, notes: 'changed meanwhile' });
    const stale = await admin.post('/api/account/merge', { account: { id: kept, version: 1, notes: 'old' }, duplicateId: dup });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ id: kept, notes: 'changed meanwhile', version: 2 });
    expect((await view(dup)).id).toBe(dup);
    expect((await t.db.select().from(files).where(eq(files.id, file.id)))[0]!.parentId).toBe(dup);
  });
});

describe('employee role', () => {
  it('shows the employee\'s name, role and the roles to choose from, to office admins only', async () => {
    const id = await addAccount({ firstName: 'Anna', lastName: 'Ivanova', isEmploye: true, role: 'employee' });
    const res = await admin.get(`/api/UserRole/${id}`, { lang: 'ru' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: 'Ivanova Anna',
      role: 'employee',
      roleList: [
        { value: 'admin', text: 'Администратор' },
        { value: 'employee', text: 'Сотрудник' },
      ],
    });
    expect((await emp.get(`/api/UserRole/${id}`)).statusCode).toBe(403);
    expect((await branchAdmin.get(`/api/UserRole/${id}`)).statusCode).toBe(403);
    expect((await admin.get('/api/UserRole/999999')).statusCode).toBe(404);
  });

  it('saves the role on the account and its sign-in; refuses other roles, non-employees and non-admins', async () => {
    const id = await addAccount({ isEmploye: true, role: 'employee' });
    const [u] = await t.db.insert(users).values({ email: `r${id}@agency.test`, username: 'R', roles: ['employee'], accountId: id }).returning();
    expect((await emp.post(`/api/UserRole/${id}`, { role: 'admin' })).statusCode).toBe(403);
    expect((await branchUser.post(`/api/UserRole/${id}`, { role: 'admin' })).statusCode).toBe(403);
    expect((await admin.post(`/api/UserRole/${id}`, { role: 'owner' })).json().errors.role).toEqual(['Choose one of the offered values']);
    expect((await admin.post(`/api/UserRole/${id}`, {})).statusCode).toBe(400);
    const res = await admin.post(`/api/UserRole/${id}`, { role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().role).toBe('admin');
    expect((await t.db.select().from(users).where(eq(users.id, u!.id)))[0]!.roles).toEqual(['admin']);
    expect((await view(id)).version).toBe(2);
    expect(await lastLog('Account', id)).toMatchObject({ action: 'Update', actionBy: admin.id });
    const notEmployee = await addAccount();
    expect((await admin.post(`/api/UserRole/${notEmployee}`, { role: 'admin' })).statusCode).toBe(400);
  });

  it('does not take the role away from the last administrator', async () => {
    const solo = await createTestApp();
    const id = (await solo.db.insert(accounts).values({ firstName: 'Only', lastName: 'Admin', isEmploye: true, role: 'admin' }).returning())[0]!.id;
    const me = await solo.user({ roles: ['admin'], email: 'only.admin@agency.test' });
    await solo.db.update(users).set({ accountId: id }).where(eq(users.id, me.id));
    const res = await me.post(`/api/UserRole/${id}`, { role: 'employee' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.role[0]).toMatch(/only administrator left/);
    expect((await solo.db.select().from(users).where(eq(users.id, me.id)))[0]!.roles).toEqual(['admin']);
  });
});

describe('employee sign-ins', () => {
  it('creates the sign-in of an employee when an admin sets a password for its e-mail; it signs in with the account\'s role and branch', async () => {
    const id = await addAccount({ firstName: 'Dimitra', lastName: 'Nikolaou', isEmploye: true, role: 'employee', branchId: 1, email: 'office@other.gr;Dimitra.N@Agency.test' });
    const res = await admin.post('/api/authenticate/setPassword', { email: 'dimitra.n@agency.test', password: 'first-password-1' });
    expect(res.statusCode, res.body).toBe(200);
    const login = await t.client().post('/api/authenticate/login', { username: 'dimitra.n@agency.test', password: 'first-password-1' });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ username: 'Nikolaou Dimitra', userroles: ['employee'], branchId: 1, accountId: id });
    expect((await view(id)).signIn).toBe('Dimitra.N@Agency.test');
    const [u] = await t.db.select().from(users).where(eq(users.accountId, id));
    const logs = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'User'), eq(actionLog.entityId, u!.id))).orderBy(actionLog.id);
    expect(logs.map((l) => l.action)).toEqual(['Create', 'SetPassword', 'Login']);
    // The admin who set the password made the sign-in, and the log says so.
    expect(logs[0]).toMatchObject({ actionBy: admin.id });
    expect(logs[1]).toMatchObject({ actionBy: admin.id, message: 'Dimitra.N@Agency.test' });
    // A branch employee reaches the account screens but not the employees list.
    const token = login.json().token as string;
    expect((await t.client(token).get(`/api/account/view/${id}`)).statusCode).toBe(200);
    expect((await t.client(token).get('/api/employe')).statusCode).toBe(403);
  });

  it('does not create a sign-in for an e-mail of a non-employee, nor for an employee without that e-mail', async () => {
    await addAccount({ isClient: true, email: 'client@example.gr' });
    await addAccount({ isEmploye: true, email: 'someone.else@agency.test' });
    const res = await admin.post('/api/authenticate/setPassword', { email: 'client@example.gr', password: 'long-enough-1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.email).toBeDefined();
    expect((await admin.post('/api/authenticate/setPassword', { email: 'else@agency.test', password: 'long-enough-1' })).statusCode).toBe(400);
    expect(await t.db.select().from(users).where(eq(users.email, 'client@example.gr'))).toEqual([]);
  });

  it('shows a linked sign-in\'s person as the creator of records', async () => {
    const id = await addAccount({ firstName: 'Giorgos', lastName: 'Alexiou', isEmploye: true, role: 'admin', email: 'giorgos@agency.test' });
    await admin.post('/api/authenticate/setPassword', { email: 'giorgos@agency.test', password: 'giorgos-pass-1' });
    const token = (await t.client().post('/api/authenticate/login', { username: 'giorgos@agency.test', password: 'giorgos-pass-1' })).json().token;
    const created = await addAccount({}, t.client(token));
    expect((await view(created)).createdBy).toBe('Alexiou Giorgos');
    expect((await view(id)).signIn).toBe('giorgos@agency.test');
  });
});
