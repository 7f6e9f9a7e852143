import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { accounts, actionLog } from '../../db/schema/index.ts';

const t = await createTestApp();
const staff = await t.user({ roles: ['employee'] });

async function newAccount(values: Partial<typeof accounts.$inferInsert> = {}) {
  const [a] = await t.db
    .insert(accounts)
    .values({ firstName: 'Eleni', lastName: 'Georgiou', ...values })
    .returning({ id: accounts.id });
  return a!.id;
}

const row = async (id: number) => (await t.db.select().from(accounts).where(eq(accounts.id, id)))[0]!;

/** A one-field change as the editor makes it: based on the version its edit request answered. */
async function patch(id: number, field: string, value: unknown, opts: { headers?: Record<string, string>; method?: 'PATCH' | 'POST'; entity?: string } = {}) {
  const entity = opts.entity ?? 'account';
  const asked = await staff.get(`/api/${entity}/editRequestSelectList?id=${id}&fieldName=${field}`);
  // An If-Match of the test's own says the version instead.
  const version = asked.statusCode === 200 && !opts.headers?.['if-match'] ? (asked.json() as { version?: number }).version : undefined;
  return staff.call(opts.method ?? 'PATCH', `/api/${entity}/patch/${id}${version === undefined ? '' : `?version=${version}`}`, [{ op: 'replace', path: `/${field}`, value }], { headers: opts.headers });
}

function selectList(id: number, fieldName: string, headers: Record<string, string> = {}) {
  return staff.get(`/api/account/editRequestSelectList?id=${id}&fieldName=${fieldName}`, { headers });
}

describe('text and textarea', () => {
  it('saves a trimmed text, bumps the version, stamps the record and logs the change', async () => {
    const id = await newAccount();
    const res = await patch(id, 'lastName', '  Papadaki  ');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.viewUpdated).toBe(true);
    expect(body.dto).toMatchObject({ id, lastName: 'Papadaki', firstName: 'Eleni', displayName: 'Papadaki Eleni', version: 2, modifiedBy: staff.email });
    expect(body.dto.modifiedOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const stored = await row(id);
    expect(stored.lastName).toBe('Papadaki');
    expect(stored.version).toBe(2);
    expect(stored.modifiedBy).toBe(staff.id);
    const log = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Account'), eq(actionLog.entityId, id)));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: 'Update', message: 'lastName', data: { field: 'lastName', from: 'Georgiou', to: 'Papadaki' } });
  });

  it('a tax number follows the rule of the whole-record save: a Greek ΑΦΜ with its check digit', async () => {
    const id = await newAccount();
    const wrong = await patch(id, 'taxNumber', '123456789', { headers: { 'accept-language': 'el' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors.taxNumber[0]).toMatch(/^Μη έγκυρος ΑΦΜ/);
    expect((await row(id)).taxNumber).toBeNull();
    const right = await patch(id, 'taxNumber', ' 123456783 ');
    expect(right.statusCode, right.body).toBe(200);
    expect((await row(id)).taxNumber).toBe('123456783');
    // What the field saves, the whole-record save (and Merge) takes back unchanged.
    const whole = await staff.post('/api/account/update', { id, version: 2, taxNumber: '123456783', city: 'Kalamaria' });
    expect(whole.statusCode, whole.body).toBe(200);
    expect((await patch(id, 'taxNumber', null)).statusCode).toBe(200);
  });

  it('an unchanged value writes nothing', async () => {
    const id = await newAccount({ city: 'Thessaloniki' });
    const res = await patch(id, 'city', 'Thessaloniki ');
    expect(res.statusCode).toBe(200);
    expect(res.json().viewUpdated).toBe(false);
    expect((await row(id)).version).toBe(1);
    expect(await t.db.select().from(actionLog).where(eq(actionLog.entityId, id))).toEqual([]);
  });

  it('an empty text clears the field, but a required name cannot be emptied', async () => {
    const id = await newAccount({ city: 'Kalamaria' });
    expect((await patch(id, 'city', '')).json().dto.city).toBeNull();
    const res = await patch(id, 'lastName', '   ');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ lastName: ['This field is required'] });
    expect((await row(id)).lastName).toBe('Georgiou');
  });

  it('too long or of the wrong type: 400 with a translated field error, nothing changed', async () => {
    const id = await newAccount();
    const long = await patch(id, 'postcode', '5'.repeat(21));
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual({ postcode: ['Enter at most 20 characters'] });
    const wrong = await patch(id, 'city', 42);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ city: ['This value has the wrong type'] });
    const greek = await patch(id, 'city', 42, { headers: { 'accept-language': 'el' } });
    expect(greek.json().errors.city[0]).not.toBe('This value has the wrong type');
    expect((await row(id)).version).toBe(1);
  });

  it('notes keep their lines', async () => {
    const id = await newAccount();
    const res = await patch(id, 'notes', 'Calls after 18:00.\r\nPrefers Greek.\n');
    expect(res.json().dto.notes).toBe('Calls after 18:00.\nPrefers Greek.');
  });

  it('the select-list call answers the current value of a plain field', async () => {
    const id = await newAccount({ nationality: 'Greek' });
    const res = await selectList(id, 'nationality');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ value: 'Greek', type: 'text', selectList: [], dtoFieldName: 'nationality', version: 1 });
  });
});

describe('currency and dates', () => {
  it('stores the budget as a number with its cents; refuses more decimals, text, negatives and from > up to', async () => {
    const id = await newAccount();
    // More decimals than cents: refused, saying so, not rounded where nobody sees it.
    const cents = await patch(id, 'purchaseBudgetRangeMax', 250000.456);
    expect(cents.statusCode).toBe(400);
    expect(cents.json().errors).toEqual({ purchaseBudgetRangeMax: ['At most two decimals (cents).'] });
    const ok = await patch(id, 'purchaseBudgetRangeMax', 250000.46);
    expect(ok.json().dto.purchaseBudgetRangeMax).toBe(250000.46);
    expect((await row(id)).purchaseBudgetRangeMax).toBe(250000.46);
    expect((await patch(id, 'purchaseBudgetRangeMin', '100000')).json().errors).toEqual({ purchaseBudgetRangeMin: ['This value has the wrong type'] });
    expect((await patch(id, 'purchaseBudgetRangeMin', -1)).json().errors).toEqual({ purchaseBudgetRangeMin: ['Must be 0 or more'] });
    const order = await patch(id, 'purchaseBudgetRangeMin', 300000);
    expect(order.statusCode).toBe(400);
    expect(order.json().errors).toEqual({ purchaseBudgetRangeMin: ['The budget “from” cannot be higher than “up to”'] });
    expect((await patch(id, 'purchaseBudgetRangeMin', 150000)).json().dto.purchaseBudgetRangeMin).toBe(150000);
    expect((await patch(id, 'purchaseBudgetRangeMax', null)).json().dto.purchaseBudgetRangeMax).toBeNull();
  });

  it('dates must be real calendar dates and the period must not end before it starts', async () => {
    const id = await newAccount({ isEmploye: true });
    expect((await patch(id, 'startDate', '2025-02-30')).json().errors).toEqual({ startDate: ['Enter a valid date'] });
    expect((await patch(id, 'startDate', 'tomorrow')).statusCode).toBe(400);
    expect((await patch(id, 'startDate', '2025-03-01')).json().dto.startDate).toBe('2025-03-01');
    expect((await patch(id, 'endDate', '2025-02-01')).json().errors).toEqual({ endDate: ['The end date cannot be before the start date'] });
    expect((await patch(id, 'endDate', '2026-02-28')).json().dto.endDate).toBe('2026-02-28');
    expect((await row(id)).endDate).toBe('2026-02-28');
  });
});

describe('select, yes/no/not set and the specialty checkbox group', () => {
  it('branch is not editable one field at a time (admins change it on the account, with its sign-in)', async () => {
    const id = await newAccount({ isEmploye: true });
    const res = await patch(id, 'branchId', 1);
    expect(res.statusCode).toBe(400);
    expect((await row(id)).branchId).toBeNull();
  });

  it('service: one of the services', async () => {
    const id = await newAccount({ isClient: true });
    const list = await selectList(id, 'service');
    expect(list.json().selectList.map((o: { value: number }) => o.value)).toEqual([1, 2, 3, 4, 5]);
    expect(list.json().selectList[0].text).toBe('Purchase');
    expect((await patch(id, 'service', 2)).json().dto.service).toBe(2);
    expect((await patch(id, 'service', 9)).statusCode).toBe(400);
  });

  it('company: yes, no or not set; other values are refused', async () => {
    const id = await newAccount();
    expect((await patch(id, 'isCompany', true)).json().dto.isCompany).toBe(true);
    expect((await patch(id, 'isCompany', false)).json().dto.isCompany).toBe(false);
    expect((await patch(id, 'isCompany', null)).json().dto.isCompany).toBeNull();
    expect((await patch(id, 'isIndividual', 'yes')).json().errors).toEqual({ isIndividual: ['This value has the wrong type'] });
  });

  it('specialties: the ticked flags are stored as the boolean columns', async () => {
    const id = await newAccount({ isProfessional: true, isPlumber: true });
    const list = await selectList(id, 'specialties');
    expect(list.json()).toMatchObject({ type: 'flag-enum', value: 'isPlumber', valueArray: ['isPlumber'], selectListText: 'Plumber', dtoFieldName: 'specialties' });
    expect(list.json().selectList).toHaveLength(21);
    const res = await patch(id, 'specialties', ['isNotary', 'isAttorney']);
    expect(res.statusCode).toBe(200);
    expect(res.json().dto).toMatchObject({ specialties: ['isAttorney', 'isNotary'], isAttorney: true, isNotary: true, isPlumber: false });
    const stored = await row(id);
    expect([stored.isAttorney, stored.isNotary, stored.isPlumber]).toEqual([true, true, false]);
    // same set in another order: nothing to write
    const same = await patch(id, 'specialties', ['isNotary', 'isAttorney']);
    expect(same.json().viewUpdated).toBe(false);
    expect((await patch(id, 'specialties', ['isAstronaut'])).json().errors).toEqual({ specialties: ['Choose one of the offered values'] });
    expect((await patch(id, 'specialties', 'isNotary,isLawyer')).json().dto.specialties).toEqual(['isNotary', 'isLawyer']);
    expect((await patch(id, 'specialties', [])).json().dto.specialties).toEqual([]);
  });
});

describe('the call itself', () => {
  it('a stale If-Match is answered 409 with the current record and changes nothing', async () => {
    const id = await newAccount();
    const first = await patch(id, 'city', 'Thermi', { headers: { 'if-match': '1' } });
    expect(first.statusCode).toBe(200);
    const stale = await patch(id, 'city', 'Panorama', { headers: { 'if-match': '"1"' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ id, city: 'Thermi', version: 2 });
    expect((await row(id)).city).toBe('Thermi');
    // the version as a query parameter works too (the web client sends it so)
    const query = await staff.patch(`/api/account/patch/${id}?version=1`, [{ op: 'replace', path: '/city', value: 'Pylaia' }]);
    expect(query.statusCode).toBe(409);
    expect((await patch(id, 'city', 'Pylaia', { headers: { 'if-match': '2' } })).json().dto.version).toBe(3);
  });

  it('POST works for old clients, also with a JSON Patch content type', async () => {
    const id = await newAccount();
    expect((await patch(id, 'country', 'Greece', { method: 'POST' })).json().dto.country).toBe('Greece');
    const res = await staff.patch(`/api/Account/Patch/${id}`, JSON.stringify([{ op: 'replace', path: '/nationality', value: 'Cypriot' }]), { headers: { 'content-type': 'application/json-patch+json', 'if-match': 'W/"2"' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().dto.nationality).toBe('Cypriot');
  });

  it('unknown entities and fields, several operations or another op are refused', async () => {
    const id = await newAccount();
    const entity = await patch(id, 'city', 'X', { entity: 'spaceship' });
    expect(entity.statusCode).toBe(400);
    expect(entity.json().title).toBe('Records of the kind “spaceship” cannot be edited field by field.');
    expect((await staff.get(`/api/spaceship/editRequestSelectList?id=${id}&fieldName=city`)).statusCode).toBe(400);
    const field = await patch(id, 'isEmploye', true);
    expect(field.statusCode).toBe(400);
    expect(field.json().title).toBe('The field “isEmploye” cannot be edited here.');
    expect((await selectList(id, 'version')).statusCode).toBe(400);
    const two = await staff.patch(`/api/account/patch/${id}`, [
      { op: 'replace', path: '/city', value: 'A' },
      { op: 'replace', path: '/country', value: 'B' },
    ]);
    expect(two.statusCode).toBe(400);
    const remove = await staff.patch(`/api/account/patch/${id}`, [{ op: 'remove', path: '/city' }]);
    expect(remove.statusCode).toBe(400);
    const noValue = await staff.patch(`/api/account/patch/${id}`, [{ op: 'replace', path: '/city' }]);
    expect(noValue.statusCode).toBe(400);
    expect((await row(id)).version).toBe(1);
  });

  it('a missing record is 404; without a sign-in 401', async () => {
    expect((await patch(999999, 'city', 'X')).statusCode).toBe(404);
    expect((await selectList(999999, 'city')).statusCode).toBe(404);
    const id = await newAccount();
    const anon = await t.app.inject({ method: 'PATCH', url: `/api/account/patch/${id}`, payload: [{ op: 'replace', path: '/city', value: 'X' }] });
    expect(anon.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/account/editRequestSelectList?id=${id}&fieldName=city` })).statusCode).toBe(401);
    const client = await t.user({ roles: ['clientPayments'] });
    const denied = await client.patch(`/api/account/patch/${id}`, [{ op: 'replace', path: '/city', value: 'X' }]);
    expect(denied.statusCode).toBe(403);
    expect((await row(id)).city).toBeNull();
  });
});
