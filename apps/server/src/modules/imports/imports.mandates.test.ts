import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { OWNER_RELATION } from '@crm/contract';
import { createTestApp } from '../../../test/harness.ts';
import { csv, importCalls } from '../../../test/imports.ts';
import { accounts, actionLog, objectAccounts, objectMandateOwners, objectMandates, objects } from '../../db/schema/index.ts';
import { workbookOf } from '../../../test/xlsx.ts';

/** Mandates from a spreadsheet (decision 094): the property by its reference number, the owners by their accounts, the law's limits per row. */
const t = await createTestApp();
const { db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });

const { send, preview, run } = importCalls('mandates', admin);
const mandateCount = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(objectMandates))[0]!.n;

/** A property with an owner, and its reference number as a cell writes it. */
async function property(ownerId?: number) {
  const [o] = await db.insert(objects).values({ title: 'Διαμέρισμα Καλαμαριά' } as never).returning({ id: objects.id, ref: objects.referenceNumber });
  if (ownerId) await db.insert(objectAccounts).values({ objectId: o!.id, accountId: ownerId, relation: OWNER_RELATION });
  return { id: o!.id, ref: String(o!.ref).padStart(4, '0') };
}
const tag = () => Math.random().toString(36).slice(2, 8);
async function person(extra: Partial<typeof accounts.$inferInsert> = {}) {
  const [a] = await db.insert(accounts).values({ firstName: 'Γιώργος', lastName: `Παπαδόπουλος${tag()}`, ...extra }).returning();
  return a!;
}

const HEADERS = ['Κωδικός ακινήτου', 'Είδος εντολής', 'Έναρξη', 'Λήξη', 'Παράταση έως', 'Ζητούμενο τίμημα', 'Αμοιβή μεσίτη (%)', 'ΑΦΜ εντολέα', 'Email εντολέα', 'Εξαιρέσεις'];

describe('import of mandates', () => {
  it('is for office administrators only', async () => {
    expect((await send('m.csv', csv([HEADERS]), agent)).statusCode).toBe(403);
    expect((await agent.get('/api/import/template?kind=mandates')).statusCode).toBe(403);
  });

  it('a good file: columns mapped from Greek headers, owners by tax number, e-mail or the property’s own, stored with the action log', async () => {
    const byTax = await person({ taxNumber: '094014201' });
    const byEmail = await person({ emails: [`eleni.${tag()}@example.gr`] });
    const ownerOfC = await person();
    const [a, b, c] = [await property(byTax.id), await property(), await property(ownerOfC.id)];
    const rows = [
      HEADERS,
      [a.ref, 'Αποκλειστική', '01/03/2026', '31/10/2026', '28/02/2027', '185.000', '2', 'EL 094014201', '', '"Νίκος Γεωργίου (ο αδελφός του); Anna Smith"'],
      [`#${b.ref}`, 'simple', '15/01/2026', '15/01/2027', '', '', '', '', byEmail.emails![0]!.toUpperCase(), ''],
      [c.ref, 'Απλή', '2026-04-01', '2026-12-31', '', '', '1,5', '', '', ''],
    ];
    const res = await send('εντολές.csv', csv(rows), admin, 'el');
    expect(res.statusCode, res.body).toBe(200);
    const up = res.json();
    expect(up.mapping).toEqual(['referenceNumber', 'kind', 'startDate', 'endDate', 'extendedUntil', 'askingPrice', 'commissionPercent', 'owner.taxNumber', 'owner.email', 'exceptions']);
    const p = await preview(up, 'el');
    expect(p.counts).toMatchObject({ mandates: 3, withErrors: 0, skipped: 0 });
    expect(p.rows[0].errors).toEqual({});
    expect(p.rows[0].values).toMatchObject({ referenceNumber: `${a.ref} · Διαμέρισμα Καλαμαριά`, kind: 'Αποκλειστική', endDate: '31/10/2026', askingPrice: '185\u00a0000\u00a0€', 'owner.taxNumber': byTax.displayName });
    expect(p.rows[2].values['owner.taxNumber']).toBe(`Οι ιδιοκτήτες του ακινήτου: ${ownerOfC.displayName}`);

    const done = await run(up);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().counts).toMatchObject({ mandates: 3, owners: 0, objects: 0 });
    const stored = await db.select().from(objectMandates).where(inArray(objectMandates.objectId, [a.id, b.id, c.id]));
    const ofA = stored.find((m) => m.objectId === a.id)!;
    expect(ofA).toMatchObject({ kind: 'exclusive', startDate: '2026-03-01', endDate: '2026-10-31', extendedUntil: '2027-02-28', extensions: 1, askingPrice: 185000, commissionPercent: 2 });
    expect(ofA.exceptions).toEqual([{ name: 'Νίκος Γεωργίου', note: 'ο αδελφός του' }, { name: 'Anna Smith', note: null }]);
    expect(stored.find((m) => m.objectId === c.id)).toMatchObject({ kind: 'simple', commissionPercent: 1.5 });
    const owners = await db.select().from(objectMandateOwners).where(inArray(objectMandateOwners.mandateId, stored.map((m) => m.id)));
    expect(owners.map((o) => [stored.find((m) => m.id === o.mandateId)!.objectId, o.accountId]).sort()).toEqual([[a.id, byTax.id], [b.id, byEmail.id], [c.id, ownerOfC.id]].sort());
    // Each mandate is in the action log as the form's new one is, naming the import; the import names them all.
    const log = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Mandate'), inArray(actionLog.entityId, stored.map((m) => m.id))));
    expect(log).toHaveLength(3);
    expect(log.find((l) => l.entityId === ofA.id)).toMatchObject({ action: 'Create', data: { objectId: a.id, kind: 'exclusive', ownerIds: [byTax.id], importId: done.json().id } });
    const [entry] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Import'), eq(actionLog.entityId, done.json().id)));
    expect((entry!.data as { mandateIds: number[]; newMandates: number }).mandateIds.sort()).toEqual(stored.map((m) => m.id).sort());
    // The property view's list shows the imported mandate.
    const list = (await agent.get(`/api/Mandate?objectId=${a.id}`)).json();
    expect(list.items[0]).toMatchObject({ kind: 'exclusive', owners: [{ accountId: byTax.id, taxNumber: '094014201' }] });
  });

  it('each rule the mandate form enforces is refused at its cell with the same reason, and nothing of the file is stored', async () => {
    const owner = await person({ emails: [`owner.${tag()}@example.gr`] });
    const twin1 = await person({ taxNumber: '123456783' });
    await person({ taxNumber: '123456783' });
    const a = await property(owner.id);
    const rows = [
      HEADERS,
      [a.ref, 'Αποκλειστική', '01/03/2026', '02/11/2026', '', '', '', '', '', ''], // over 8 months
      [a.ref, 'Αποκλειστική', '01/03/2026', '31/10/2026', '01/03/2027', '', '', '', '', ''], // extension over 4 months
      [a.ref, 'Απλή', '01/03/2026', '01/02/2026', '', '', '', '', '', ''], // ends before it starts
      ['999999', 'Απλή', '01/03/2026', '01/04/2026', '', '', '', '', '', ''], // no such property
      [a.ref, 'Μεικτή', '01/03/2026', '01/04/2026', '', '', '', '', '', ''], // no such kind
      [a.ref, 'Απλή', '01/03/2026', '01/04/2026', '', '', '120', '', 'nobody@example.gr', ''], // commission over 100 %, unknown owner
      [a.ref, 'Απλή', '01/05/2026', '01/06/2026', '', '', '', '123456783', '', '(χωρίς όνομα)'], // two contacts share the tax number; an exception without a name
      [a.ref, 'Απλή', '', '01/06/2026', '', '', '', '', '', ''], // no start
      [a.ref, 'Απλή', '01/07/2026', '01/08/2026', '', '', '', '', '', ''], // good
      [a.ref, 'simple', '2026-07-01', '2026-08-01', '', '', '', '', '', ''], // the same mandate again
    ];
    const before = await mandateCount();
    const up = (await send('bad.csv', csv(rows))).json();
    const p = await preview(up);
    const errors = p.rows.map((r: { errors: Record<string, string> }) => r.errors);
    expect(errors[0]).toEqual({ endDate: 'An exclusive mandate lasts at most 8 months (law 4072/2012): this one may end on 01/11/2026 at the latest.' });
    expect(errors[1]).toEqual({ extendedUntil: 'An exclusive mandate is extended by at most 4 months (law 4072/2012): until 28/02/2027 at the latest.' });
    expect(errors[2]).toEqual({ endDate: 'The end cannot be before the start.' });
    expect(errors[3]).toEqual({ referenceNumber: 'No property has the reference number “999999”.' });
    expect(errors[4]).toEqual({ kind: '“Μεικτή” is not one of the values of this list.' });
    expect(errors[5]).toEqual({ commissionPercent: expect.stringContaining('100'), 'owner.email': 'No contact has “nobody@example.gr”: add the owner first (or import the owners).' });
    expect(errors[6]).toEqual({ 'owner.taxNumber': expect.stringContaining(twin1.displayName!), exceptions: '“(χωρίς όνομα)”: each exception must name the person.' });
    expect(errors[7]).toEqual({ startDate: 'This field is required' });
    expect(errors[8]).toEqual({});
    expect(errors[9]).toEqual({ referenceNumber: 'The same mandate as in row 10.' });
    expect(p.counts).toMatchObject({ mandates: 1, withErrors: 9 });
    // In Greek, the law's reason as the form gives it.
    const el = await preview(up, 'el');
    expect(el.rows[0].errors.endDate).toBe('Η αποκλειστική εντολή διαρκεί το πολύ 8 μήνες (ν. 4072/2012): αυτή μπορεί να λήγει το αργότερο στις 01/11/2026.');

    const refused = await run(up);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().title).toContain('Rows with errors: 9');
    expect(await mandateCount()).toBe(before);
    // With "skip rows with errors": the good row only.
    const done = await run(up, true);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().counts).toMatchObject({ mandates: 1, skipped: 9, withErrors: 9 });
    expect(await mandateCount()).toBe(before + 1);
  });

  it('a re-import: the same file is refused, and a mandate already in the CRM is shown and left out', async () => {
    const owner = await person({ taxNumber: '090000045' });
    const a = await property(owner.id);
    const file = csv([HEADERS, [a.ref, 'Αποκλειστική', '01/02/2026', '30/09/2026', '', '', '', '', '', '']]);
    const first = (await send('m1.csv', file)).json();
    expect((await run(first)).statusCode).toBe(200);
    const count = await mandateCount();
    // The same file again.
    const again = (await send('m1-copy.csv', file)).json();
    expect((await preview(again)).importedBefore).not.toBeNull();
    const refused = await run(again);
    expect(refused.statusCode).toBe(409);
    // Another file holding that mandate and a new one: the first is left out, whatever the duplicates' choice.
    const other = (await send('m2.csv', csv([HEADERS, [a.ref, 'exclusive', '2026-02-01', '2026-09-30', '', '', '', '', '', ''], [a.ref, 'Απλή', '01/10/2026', '31/12/2026', '', '', '', '', '', '']]))).json();
    const p = await preview(other);
    expect(p.rows[0].existing).toMatchObject({ name: `${a.ref}: Exclusive 01/02/2026–30/09/2026` });
    expect(p.counts).toMatchObject({ mandates: 1, skipped: 1, withErrors: 0 });
    const done = await run(other);
    expect(done.json().counts).toMatchObject({ mandates: 1, skipped: 1 });
    expect(await mandateCount()).toBe(count + 1);
    // Only what is there already: nothing to import.
    const none = (await send('m3.csv', csv([HEADERS, [a.ref, 'Απλή', '01/10/2026', '31/12/2026', '', '', '', '', '', '']]))).json();
    const nothing = await run(none);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().title).toBe('No row is left to import.');
  });

  it('the owner’s tax office (ΔΟΥ): matched to the offices the CRM knows and stored in its spelling; an unknown one is an error of its cell', async () => {
    // The offices the CRM knows: those typed on mandates' owners, and the agency's own.
    const known = await person();
    const old = await property(known.id);
    const [m] = await db.insert(objectMandates).values({ objectId: old.id, kind: 'simple', startDate: '2025-01-01', endDate: '2025-06-30' } as never).returning({ id: objectMandates.id });
    await db.insert(objectMandateOwners).values([{ mandateId: m!.id, accountId: known.id, position: 0, taxOffice: 'Δ΄ Θεσσαλονίκης' }]);
    await db.execute(sql`insert into site_settings (id, tax_office) values (1, 'Καλαμαριάς') on conflict (id) do update set tax_office = excluded.tax_office`);
    const one = await person({ taxNumber: '099887766' });
    const two = await person({ taxNumber: '099887755' });
    const [a, b, c, d, e, f] = [await property(one.id), await property(), await property(one.id), await property(one.id), await property(one.id), await property(two.id)];
    await db.insert(objectAccounts).values({ objectId: f.id, accountId: one.id, relation: OWNER_RELATION }); // f's owners in the CRM's order: two, then one
    const H = ['Κωδικός ακινήτου', 'Είδος εντολής', 'Έναρξη', 'Λήξη', 'ΑΦΜ εντολέα', 'ΔΟΥ εντολέα'];
    const rows = [
      H,
      [a.ref, 'Απλή', '01/03/2026', '31/12/2026', '', 'ΔΟΥ Δ\' ΘΕΣΣΑΛΟΝΙΚΗΣ'], // the property's owner; another spelling of a known office
      [b.ref, 'Απλή', '01/03/2026', '31/12/2026', '"099887766; 099887755"', '"Δ.Ο.Υ. Καλαμαριας; Δ΄ Θεσσαλονίκης"'], // one office per owner, in their order
      [c.ref, 'Απλή', '01/03/2026', '31/12/2026', '', 'Καλαμαριά'], // unknown, with a near one
      [d.ref, 'Απλή', '01/03/2026', '31/12/2026', '', 'Πάτρας'], // unknown
      [e.ref, 'Απλή', '01/03/2026', '31/12/2026', '', '"Καλαμαριάς; Δ΄ Θεσσαλονίκης"'], // two offices, one owner
      [f.ref, 'Απλή', '01/03/2026', '31/12/2026', '', '"Καλαμαριάς; Δ΄ Θεσσαλονίκης"'], // no owner named: the property's two, in the CRM's order
    ];
    const up = (await send('δου.csv', csv(rows), admin, 'el')).json();
    expect(up.mapping).toEqual(['referenceNumber', 'kind', 'startDate', 'endDate', 'owner.taxNumber', 'owner.taxOffice']);
    const p = await preview(up);
    const errors = p.rows.map((r: { errors: Record<string, string> }) => r.errors);
    expect([...errors.slice(0, 2), errors[5]]).toEqual([{}, {}, {}]);
    // Whose office is which, said owner by owner: the property's owners too, who the row does not name.
    expect(p.rows[0].values['owner.taxOffice']).toBe(`${one.displayName}: Δ΄ Θεσσαλονίκης`);
    expect(p.rows[1].values['owner.taxOffice']).toBe(`${one.displayName}: Καλαμαριάς; ${two.displayName}: Δ΄ Θεσσαλονίκης`);
    expect(p.rows[5].values['owner.taxOffice']).toBe(`${two.displayName}: Καλαμαριάς; ${one.displayName}: Δ΄ Θεσσαλονίκης`);
    expect(errors[2]).toEqual({ 'owner.taxOffice': '“Καλαμαριά” is not a tax office (DOY) the CRM knows. Did you mean: Καλαμαριάς?' });
    expect(errors[3]).toEqual({ 'owner.taxOffice': '“Πάτρας” is not a tax office (DOY) the CRM knows: type it once on an owner of a mandate (or in the agency’s details), or correct the cell.' });
    expect(errors[4]).toEqual({ 'owner.taxOffice': 'Tax offices: 2, owners: 1. Write one tax office per owner, in the owners’ order, separated by “;”.' });
    const el = (await preview(up, 'el')).rows.map((r: { errors: Record<string, string> }) => r.errors);
    expect(el[2]['owner.taxOffice']).toBe('Η ΔΟΥ «Καλαμαριά» δεν είναι γνωστή στο CRM. Μήπως εννοείτε: Καλαμαριάς;');
    expect(el[3]['owner.taxOffice']).toBe('Η ΔΟΥ «Πάτρας» δεν είναι γνωστή στο CRM: καταχωρίστε την μία φορά σε εντολέα μιας εντολής (ή στα στοιχεία του γραφείου) ή διορθώστε το κελί.');
    expect(el[4]['owner.taxOffice']).toBe('ΔΟΥ: 2, εντολείς: 1. Γράψτε μία ΔΟΥ ανά εντολέα, με τη σειρά των εντολέων, χωρισμένες με «;».');
    const ru = (await preview(up, 'ru')).rows.map((r: { errors: Record<string, string> }) => r.errors);
    expect(ru[4]['owner.taxOffice']).toBe('Налоговых инспекций: 2, доверителей: 1. Укажите по одной налоговой инспекции (ДОУ) на каждого доверителя, в их порядке, через «;».');
    expect(ru[3]['owner.taxOffice']).toBe('Налоговая инспекция (ДОУ) «Πάτρας» в CRM не значится: один раз укажите её у доверителя в поручении (или в реквизитах агентства) либо исправьте ячейку.');

    const done = await run(up, true);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().counts).toMatchObject({ mandates: 3, withErrors: 3 });
    const stored = await db.select().from(objectMandates).where(inArray(objectMandates.objectId, [a.id, b.id]));
    const owners = await db.select().from(objectMandateOwners).where(inArray(objectMandateOwners.mandateId, stored.map((x) => x.id)));
    const office = (objectId: number, accountId: number) => owners.find((o) => o.accountId === accountId && stored.find((x) => x.id === o.mandateId)!.objectId === objectId)?.taxOffice;
    expect(office(a.id, one.id)).toBe('Δ΄ Θεσσαλονίκης');
    expect(office(b.id, one.id)).toBe('Καλαμαριάς');
    expect(office(b.id, two.id)).toBe('Δ΄ Θεσσαλονίκης');
    const [fm] = await db.select().from(objectMandates).where(eq(objectMandates.objectId, f.id));
    const fOwners = await db.select().from(objectMandateOwners).where(eq(objectMandateOwners.mandateId, fm!.id));
    expect(Object.fromEntries(fOwners.map((o) => [o.accountId, o.taxOffice]))).toEqual({ [two.id]: 'Καλαμαριάς', [one.id]: 'Δ΄ Θεσσαλονίκης' });
    // The action log's new mandate names the offices as the form's does; the mandate's list shows them.
    const log = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Mandate'), eq(actionLog.entityId, stored.find((x) => x.objectId === b.id)!.id)));
    expect(log[0]!.data).toMatchObject({ ownerIds: [one.id, two.id], taxOffices: ['Καλαμαριάς', 'Δ΄ Θεσσαλονίκης'] });
    const list = (await admin.get(`/api/Mandate?objectId=${b.id}`)).json();
    expect(list.items[0].owners.map((o: { taxOffice: string }) => o.taxOffice)).toEqual(['Καλαμαριάς', 'Δ΄ Θεσσαλονίκης']);
  });

  it('the template has the mandate’s headers in the reader’s language, and they map back to their fields', async () => {
    const res = await admin.get('/api/import/template?kind=mandates', { lang: 'el' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('Mandates-template.xlsx');
    const wb = await workbookOf(res);
    const headers = (wb.worksheets[0]!.getRow(1).values as string[]).slice(1);
    expect(headers.slice(0, 4)).toEqual(['Κωδικός ακινήτου', 'Είδος εντολής', 'Έναρξη', 'Λήξη']);
    expect(headers).toContain('Ιδιοκτήτης: ΑΦΜ');
    expect(headers).toContain('Ιδιοκτήτης: ΔΟΥ');
    const wb2 = new ExcelJS.Workbook();
    wb2.addWorksheet('x').addRow(headers);
    wb2.worksheets[0]!.addRow(['0001']);
    const up = (await send('template.xlsx', Buffer.from(await wb2.xlsx.writeBuffer()))).json();
    expect(up.mapping).toEqual(['referenceNumber', 'kind', 'startDate', 'endDate', 'extendedUntil', 'askingPrice', 'commissionPercent', 'commissionAmount', 'owner.taxNumber', 'owner.email', 'owner.phone', 'owner.taxOffice', 'exceptions', 'notes']);
  });
});
