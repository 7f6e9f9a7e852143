import { afterAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { isValidGreekVat, ZInvoice } from '@crm/contract';
import { actionLog, invoices, invoiceSeries, invoiceSettings } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { startMydataServer, validateWith } from '../../../test/mydata-server.ts';
import { agencyToday } from '../../lib/dates.ts';
import { buildInvoicesDoc } from './mydata-xml.ts';
import { readPdf } from '../../../test/pdf-text.ts';
import { workbookOf } from '../../../test/xlsx.ts';

const CREDENTIALS = { userId: 'agency-user', key: 'f1e2d3c4b5a6978877665544332211ff' };
const mydata = await startMydataServer(CREDENTIALS);
afterAll(() => mydata.close());

const t = await createTestApp({ MYDATA_URL: mydata.url, MYDATA_RETRY_SECONDS: '0' });
const { app } = t;
const admin = await t.user({ roles: ['admin'] });
const employee = await t.user({ roles: ['employee'] });

/** A valid Greek ΑΦΜ from eight digits (the ninth is the check digit). */
const vat = (eight: string) => {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(eight[i]) * 2 ** (8 - i);
  return `${eight}${(sum % 11) % 10}`;
};
const AGENCY_VAT = vat('09999999');
const CLIENT_VAT = vat('80012345');

let n = 0;
const addAccount = async (fields: Record<string, unknown>) => {
  const res = await admin.post('/api/account/add', { firstName: `F${++n}`, lastName: `Πελάτης${n}`, isClient: true, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const company = await addAccount({ isCompany: true, name: 'Ακίνητα Βορρά Α.Ε.', taxNumber: CLIENT_VAT, address: 'Τσιμισκή 10', postcode: '54624', city: 'Θεσσαλονίκη' });
const person = await addAccount({ firstName: 'Μαρία', lastName: 'Νικολάου', address: 'Εγνατίας 5', postcode: '54625', city: 'Θεσσαλονίκη' });
const addDeal = async (client: number, stage = 5, commission = 3720.5) => {
  const res = await admin.post('/api/Deal/update', { dealType: 2, dealStage: stage, endDate: '2026-11-20', price: 186000, commission, accounts: [{ accountId: client, relation: 2 }] });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
};
const saveSettings = async (over: Record<string, unknown> = {}) => {
  const current = (await admin.get('/api/Invoice/settings')).json();
  const res = await admin.post('/api/Invoice/settings', { version: current.version, vatNumber: AGENCY_VAT, branch: 0, userId: CREDENTIALS.userId, subscriptionKey: CREDENTIALS.key, ...over });
  return res;
};
const draftFor = async (dealId: number, kind?: 'invoice' | 'receipt', over: Record<string, unknown> = {}) => {
  const blank = await employee.get(`/api/Invoice/add?dealId=${dealId}${kind ? `&kind=${kind}` : ''}`);
  expect(blank.statusCode, blank.body).toBe(200);
  const res = await employee.post('/api/Invoice/update', { ...(blank.json() as Record<string, unknown>), ...over });
  expect(res.statusCode, res.body).toBe(200);
  return ZInvoice.parse(res.json());
};
const issue = async (id: number, version: number, lang?: 'en' | 'el' | 'ru') => employee.post(`/api/Invoice/issue/${id}`, { version }, lang ? { lang } : undefined);
const mydataPost = async (xml: string) =>
  (await fetch(`${mydata.url}/SendInvoices`, { method: 'POST', headers: { 'aade-user-id': CREDENTIALS.userId, 'ocp-apim-subscription-key': CREDENTIALS.key }, body: xml })).text();
const view = async (id: number) => ZInvoice.parse((await employee.get(`/api/Invoice/edit/${id}`)).json());

describe('the agency tax data and myDATA credentials', () => {
  it('refuse a bad ΑΦΜ with the check digit’s reason in the reader’s language, and keep the key sealed, never answered', async () => {
    const bad = await saveSettings({ vatNumber: '090000046' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.vatNumber[0]).toBe('This is not a valid Greek tax number (AFM): nine digits, the last one a check digit.');
    const current = (await admin.get('/api/Invoice/settings')).json();
    const greek = await admin.post('/api/Invoice/settings', { version: current.version, vatNumber: '123456789', branch: 0, userId: null }, { lang: 'el' });
    expect(greek.json().errors.vatNumber[0]).toBe('Μη έγκυρος ΑΦΜ: εννέα ψηφία, με το τελευταίο ψηφίο ελέγχου.');
    expect((await employee.get('/api/Invoice/settings')).statusCode).toBe(403);

    const ok = await saveSettings();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ vatNumber: AGENCY_VAT, branch: 0, userId: CREDENTIALS.userId, keySet: true, endpoint: mydata.url, version: current.version + 1 });
    expect(ok.body).not.toContain(CREDENTIALS.key);
    const [row] = await t.db.select().from(invoiceSettings);
    expect(row!.mydataKey).toMatch(/^v1:/);
    expect(row!.mydataKey).not.toContain(CREDENTIALS.key);
    // A stale save is refused; a blank key keeps the stored one.
    expect((await admin.post('/api/Invoice/settings', { version: current.version, vatNumber: AGENCY_VAT, branch: 0, userId: 'x' })).statusCode).toBe(409);
    const keep = await admin.post('/api/Invoice/settings', { version: ok.json().version, vatNumber: AGENCY_VAT, branch: 0, userId: CREDENTIALS.userId, subscriptionKey: '' });
    expect(keep.json().keySet).toBe(true);
    const [after] = await t.db.select().from(invoiceSettings);
    expect(after!.mydataKey).toBe(row!.mydataKey);
    const logged = await t.db.select().from(actionLog).where(eq(actionLog.entity, 'InvoiceSettings'));
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(logged.map((l) => l.data))).not.toContain(CREDENTIALS.key);
  });
});

describe('a draft from a closed deal', () => {
  it('is offered only for a closed deal, its client and commission filled in: a company invoiced, a person given a receipt', async () => {
    const open = await addDeal(company, 1);
    const refused = await employee.get(`/api/Invoice/add?dealId=${open}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.dealId[0]).toBe("Only a closed deal's commission is invoiced.");

    const toCompany = (await employee.get(`/api/Invoice/add?dealId=${await addDeal(company)}`)).json();
    expect(toCompany).toMatchObject({ id: null, kind: 'invoice', mydataType: '2.1', status: 'draft', series: 'ΤΠΥ', counterpart: { vatNumber: CLIENT_VAT, name: 'Ακίνητα Βορρά Α.Ε.', city: 'Θεσσαλονίκη', postalCode: '54624', country: 'GR' } });
    expect(toCompany.lines).toEqual([expect.objectContaining({ netCents: 372050, vatCategory: 1, vatCents: 89292, grossCents: 461342 })]);
    const toPerson = (await employee.get(`/api/Invoice/add?dealId=${await addDeal(person)}`)).json();
    expect(toPerson).toMatchObject({ kind: 'receipt', mydataType: '11.2', series: 'ΑΠΥ', counterpart: { vatNumber: null, name: 'Νικολάου Μαρία' } });
    // Branch staff do not reach the agency's invoices.
    const branch = await t.user({ roles: ['employee'], branchId: 1 });
    expect((await branch.get('/api/Invoice')).statusCode).toBe(403);
  });

  it('adds up to the cent: each line’s VAT rounded once, the totals the sums of the lines', async () => {
    const d = await draftFor(await addDeal(company), 'invoice', {
      lines: [
        { description: 'Αμοιβή μεσιτείας', netCents: 100001, vatCategory: 1 },
        { description: 'Αυτοψία', netCents: 33333, vatCategory: 2 },
        { description: 'Έξοδα φακέλου', netCents: 1, vatCategory: 1 },
        { description: 'Απαλλασσόμενη υπηρεσία', netCents: 5000, vatCategory: 7, vatExemption: 3 },
      ],
    });
    expect(d.lines.map((l) => [l.netCents, l.vatCents, l.grossCents])).toEqual([
      [100001, 24000, 124001],
      [33333, 4333, 37666],
      [1, 0, 1],
      [5000, 0, 5000],
    ]);
    expect({ net: d.netCents, vat: d.vatCents, gross: d.grossCents }).toEqual({ net: 138335, vat: 28333, gross: 166668 });
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, d.id!));
    expect([row!.netCents, row!.vatCents, row!.grossCents]).toEqual([138335, 28333, 166668]);
    // VAT 0% without its exemption reason is refused at the line.
    const bad = await employee.post('/api/Invoice/update', { id: d.id, version: d.version, kind: 'invoice', series: d.series, counterpart: d.counterpart, paymentMethod: 1, lines: [{ description: 'x', netCents: 100, vatCategory: 7 }] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['lines.0.vatExemption']);
  });

  it('refuses an invoice to a customer whose ΑΦΜ fails the check digit, in the reader’s language', async () => {
    const blank = (await employee.get(`/api/Invoice/add?dealId=${await addDeal(company)}`)).json();
    const wrong = { ...blank, counterpart: { ...blank.counterpart, vatNumber: '800123451' } };
    expect(isValidGreekVat('800123451')).toBe(false);
    const en = await employee.post('/api/Invoice/update', wrong);
    expect(en.statusCode).toBe(400);
    expect(en.json().errors['counterpart.vatNumber'][0]).toBe('This is not a valid Greek tax number (AFM): nine digits, the last one a check digit.');
    const ru = await employee.post('/api/Invoice/update', wrong, { lang: 'ru' });
    expect(ru.json().errors['counterpart.vatNumber'][0]).toBe('Недействительный греческий ИНН: девять цифр, последняя — контрольная.');
    const none = await employee.post('/api/Invoice/update', { ...blank, counterpart: { ...blank.counterpart, vatNumber: null } }, { lang: 'el' });
    expect(none.json().errors['counterpart.vatNumber'][0]).toBe('Το τιμολόγιο χρειάζεται τον ΑΦΜ του πελάτη· σε ιδιώτη εκδίδεται απόδειξη.');
    expect(await t.db.select().from(invoices).where(and(eq(invoices.dealId, blank.dealId)))).toEqual([]);
  });
});

describe('issuing', () => {
  it('numbers concurrent issues of one series without gaps or repeats, in the issuing transaction', { timeout: 120_000 }, async () => {
    // Numbering alone: without credentials nothing is transmitted.
    const current = (await admin.get('/api/Invoice/settings')).json();
    await admin.post('/api/Invoice/settings', { version: current.version, vatNumber: AGENCY_VAT, branch: 0, userId: null, clearKey: true });
    const series = `C${Date.now() % 100000}`;
    const drafts = await Promise.all([1, 2].map(async () => draftFor(await addDeal(person), 'receipt', { series })));
    const issued = await Promise.all(drafts.map((d) => issue(d.id!, d.version)));
    expect(issued.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(issued.map((r) => r.json().number).sort()).toEqual([1, 2]);
    // Twenty more at once: 3 … 22, each once.
    const more = await Promise.all(Array.from({ length: 20 }, async () => draftFor(await addDeal(person), 'receipt', { series })));
    const numbers = (await Promise.all(more.map((d) => issue(d.id!, d.version)))).map((r) => r.json().number as number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 3));
    const first = await view(drafts[0]!.id!);
    expect(first.issueDate).toBe(agencyToday(t.config.timeZone));
    expect(first.status).toBe('issued');
    expect((await saveSettings({ version: (await admin.get('/api/Invoice/settings')).json().version })).statusCode).toBe(200);
  });

  it('keeps each series to one myDATA type: the default ones from the start, another once a document is in it, on save and on issue', async () => {
    const receipt = await draftFor(await addDeal(person), 'receipt');
    const edit = (d: typeof receipt, series: string, lang: 'en' | 'el' | 'ru' = 'en') =>
      employee.post('/api/Invoice/update', { id: d.id, version: d.version, kind: d.kind, series, counterpart: d.counterpart, paymentMethod: d.paymentMethod, lines: d.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption })) }, { lang });
    // A receipt typed into the retail credit notes' series, an invoice into the receipts'.
    const intoRetailCredit = await edit(receipt, 'ΠΣΛ');
    expect(intoRetailCredit.statusCode).toBe(400);
    expect(intoRetailCredit.json().errors.series[0]).toBe('Series ΠΣΛ is kept for another document type (myDATA 11.4); each series is numbered for one type only. Choose another series for this document.');
    const invoice = await draftFor(await addDeal(company), 'invoice');
    expect((await edit(invoice, 'ΑΠΥ')).statusCode).toBe(400);
    // A series of the agency's own: the type of the first document in it.
    const own = `S${Date.now().toString(36).slice(-5).toUpperCase()}`;
    const moved = await edit(receipt, own);
    expect(moved.statusCode, moved.body).toBe(200);
    const intoReceipts = await edit(invoice, own, 'el');
    expect(intoReceipts.statusCode).toBe(400);
    expect(intoReceipts.json().errors.series[0]).toContain(`Η σειρά ${own} χρησιμοποιείται για άλλο είδος παραστατικού (myDATA 11.2)`);
    expect((await view(invoice.id!)).series).toBe('ΤΠΥ');
    // A draft that got there before (saved before this rule): issued after the receipt, refused, and its number given back.
    await t.db.update(invoices).set({ series: own }).where(eq(invoices.id, invoice.id!));
    const first = await issue(receipt.id!, moved.json().version);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().number).toBe(1);
    const clash = await issue(invoice.id!, invoice.version, 'ru');
    expect(clash.statusCode).toBe(409);
    expect(clash.json().title).toBe(`Серия ${own} закреплена за другим типом документа (myDATA 11.2): у каждой серии своя нумерация для одного типа. Выберите для этого документа другую серию.`);
    expect(await view(invoice.id!)).toMatchObject({ status: 'draft', number: null });
    expect(await t.db.select().from(invoiceSeries).where(eq(invoiceSeries.series, own))).toEqual([{ series: own, lastNumber: 1 }]);
    await app.jobs.drain();
  });

  it('stores a series in one form, however typed, so `τπυ`, `ΤΠΥ.`, `Τ ΠΥ` or a Latin A are the same series, type and numbering', async () => {
    // The invoices' series in lower case, with a dot or a space: still theirs, so no receipt.
    const receipt = await draftFor(await addDeal(person), 'receipt');
    const body = (d: typeof receipt, series: string) => ({ id: d.id, version: d.version, kind: d.kind, series, counterpart: d.counterpart, paymentMethod: d.paymentMethod, lines: d.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption })) });
    for (const typed of ['τπυ', 'ΤΠΥ.', 'Τ ΠΥ']) {
      const refused = await employee.post('/api/Invoice/update', body(receipt, typed));
      expect(refused.statusCode, typed).toBe(400);
      expect(refused.json().errors.series[0]).toBe('Series ΤΠΥ is kept for another document type (myDATA 2.1); each series is numbered for one type only. Choose another series for this document.');
    }
    // The receipts' series typed with a Latin A: stored as ΑΠΥ (Greek), numbered with the other receipts.
    const latinA = await employee.post('/api/Invoice/update', body(receipt, 'AΠΥ '));
    expect(latinA.statusCode, latinA.body).toBe(200);
    expect(latinA.json().series).toBe('\u0391\u03a0\u03a5');
    expect((await t.db.select({ series: invoices.series }).from(invoices).where(eq(invoices.id, receipt.id!)))[0]!.series).toBe('ΑΠΥ');
    const other = await draftFor(await addDeal(person), 'receipt', { series: 'απυ.' });
    expect(other.series).toBe('ΑΠΥ');
    const n1 = (await issue(receipt.id!, latinA.json().version)).json().number as number;
    const n2 = (await issue(other.id!, other.version)).json().number as number;
    expect(n2).toBe(n1 + 1);
    expect(await t.db.select().from(invoiceSeries).where(eq(invoiceSeries.series, 'AΠΥ'))).toEqual([]);
    // A series of the agency's own, typed two ways: one series, one counter, one type.
    const digits = String(Date.now() % 1_000_000);
    const own = `Δ${digits}`;
    const a = await draftFor(await addDeal(person), 'receipt', { series: `δ ${digits}.` });
    const b = await draftFor(await addDeal(person), 'receipt', { series: own });
    expect([a.series, b.series]).toEqual([own, own]);
    const invoice = await draftFor(await addDeal(company), 'invoice');
    const intoOwn = await employee.post('/api/Invoice/update', body(invoice, `${own} `));
    expect(intoOwn.statusCode).toBe(400);
    expect(intoOwn.json().errors.series[0]).toContain(`Series ${own} is kept for another document type (myDATA 11.2)`);
    expect((await issue(a.id!, a.version)).json().number).toBe(1);
    expect((await issue(b.id!, b.version)).json().number).toBe(2);
    expect(await t.db.select().from(invoiceSeries).where(eq(invoiceSeries.series, own))).toEqual([{ series: own, lastNumber: 2 }]);
    await app.jobs.drain();
  });

  it('goes on numbering a series already in the books under its exact name, though it is not in the one form new series take', async () => {
    const legacy = `inv-${Date.now() % 1_000_000}`;
    await t.db.insert(invoiceSeries).values({ series: legacy, lastNumber: 7 });
    const d = await draftFor(await addDeal(person), 'receipt', { series: legacy });
    expect(d.series).toBe(legacy);
    expect((await issue(d.id!, d.version)).json()).toMatchObject({ series: legacy, number: 8 });
    expect(await t.db.select().from(invoiceSeries).where(eq(invoiceSeries.series, legacy.toUpperCase()))).toEqual([]);
    // The list finds it by the name as typed.
    const listed = await employee.get(`/api/Invoice?series=${encodeURIComponent(legacy)}`);
    expect(listed.json().items.map((r: { id: number }) => r.id)).toEqual([d.id]);
    await app.jobs.drain();
  });

  it('lets a draft saved into a series before another type took it be edited, and refuses it on issue and when its series or kind changes', async () => {
    const own = `Ε${Date.now() % 1_000_000}`;
    const receipt = await draftFor(await addDeal(person), 'receipt', { series: own });
    const invoice = await draftFor(await addDeal(company), 'invoice');
    // Saved there before the rule: its counterpart and payment method are still edited.
    await t.db.update(invoices).set({ series: own }).where(eq(invoices.id, invoice.id!));
    const lines = invoice.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption }));
    const edited = await employee.post('/api/Invoice/update', { id: invoice.id, version: invoice.version, kind: 'invoice', series: own, counterpart: { ...invoice.counterpart, name: 'Ακίνητα Νότου Α.Ε.' }, paymentMethod: 3, lines });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await view(invoice.id!)).toMatchObject({ series: own, paymentMethod: 3, counterpart: { name: 'Ακίνητα Νότου Α.Ε.' } });
    // Its kind changed: checked (a receipt may join the receipts).
    const asReceipt = await employee.post('/api/Invoice/update', { id: invoice.id, version: edited.json().version, kind: 'receipt', series: own, counterpart: { ...invoice.counterpart, name: 'Ακίνητα Νότου Α.Ε.' }, paymentMethod: 3, lines });
    expect(asReceipt.statusCode, asReceipt.body).toBe(200);
    const backToInvoice = await employee.post('/api/Invoice/update', { id: invoice.id, version: asReceipt.json().version, kind: 'invoice', series: own, counterpart: { ...invoice.counterpart, name: 'Ακίνητα Νότου Α.Ε.' }, paymentMethod: 3, lines });
    expect(backToInvoice.statusCode).toBe(400);
    expect(backToInvoice.json().errors.series[0]).toContain(`Series ${own} is kept for another document type (myDATA 11.2)`);
    expect((await view(invoice.id!)).kind).toBe('receipt');
    // Put back as the invoice it was (as before the rule): issued after the receipt, refused.
    await t.db.update(invoices).set({ kind: 'invoice' }).where(eq(invoices.id, invoice.id!));
    expect((await issue(receipt.id!, receipt.version)).statusCode).toBe(200);
    const refused = await issue(invoice.id!, (await view(invoice.id!)).version);
    expect(refused.statusCode).toBe(409);
    expect(await view(invoice.id!)).toMatchObject({ status: 'draft', number: null });
    await app.jobs.drain();
  });

  it('makes the document final: an issued invoice is neither edited nor deleted, and a stale change is a conflict', async () => {
    const d = await draftFor(await addDeal(company), 'invoice');
    const stale = await employee.post('/api/Invoice/update', { ...d, version: d.version - 1 });
    expect(stale.statusCode).toBe(409);
    const done = (await issue(d.id!, d.version)).json();
    expect(done.number).toBeGreaterThan(0);
    const edit = await employee.post('/api/Invoice/update', { ...d, version: done.version, lines: [{ description: 'Άλλο ποσό', netCents: 1, vatCategory: 1 }] }, { lang: 'el' });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().title).toBe('Ένα εκδοθέν παραστατικό δεν αλλάζει: ακυρώνεται ή διορθώνεται με πιστωτικό.');
    expect((await employee.del(`/api/Invoice/${d.id}?version=${done.version}`)).statusCode).toBe(409);
    expect((await issue(d.id!, done.version)).statusCode).toBe(409);
    await app.jobs.drain();
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, d.id!));
    expect(row!.lines).toEqual(d.lines);
    const log = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Invoice'), eq(actionLog.entityId, d.id!)));
    expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['Create', 'Update']));
  });
});

describe('myDATA', () => {
  it('builds InvoicesDoc XML that AADE’s XSD accepts for an invoice, a receipt and the credit note of each', async () => {
    const inv = await view((await draftFor(await addDeal(company), 'invoice')).id!);
    const rec = await view((await draftFor(await addDeal(person), 'receipt')).id!);
    const numbered = (i: typeof inv) => ({ ...i, number: 7, issueDate: '2026-11-27' });
    const issuer = { vatNumber: AGENCY_VAT, branch: 0 };
    const retailCredit = { ...numbered(rec), kind: 'credit' as const, mydataType: '11.4', creditOf: { id: 2, kind: 'receipt' as const, series: 'ΑΠΥ', number: 7, mark: '400001000000124' } };
    for (const doc of [numbered(inv), numbered(rec), { ...numbered(inv), kind: 'credit' as const, mydataType: '5.1', creditOf: { id: 1, kind: 'invoice' as const, series: 'ΤΠΥ', number: 7, mark: '400001000000123' } }, retailCredit]) {
      const xml = buildInvoicesDoc(doc, issuer);
      expect(await validateWith('InvoicesDoc-v1.0.12.xsd', xml), doc.kind).toEqual({ valid: true, errors: [] });
    }
    expect(buildInvoicesDoc(numbered(rec), issuer)).not.toContain('<counterpart>');
    // A receipt's credit note (11.4) is retail too: no counterpart, the receipt's MARK, retail income.
    const retail = buildInvoicesDoc(retailCredit, issuer);
    expect(retail).toContain('<invoiceType>11.4</invoiceType>');
    expect(retail).toContain('<correlatedInvoices>400001000000124</correlatedInvoices>');
    expect(retail).toContain('E3_561_003');
    expect(retail).not.toContain('<counterpart>');
    // Not every XML passes: a document without its lines is refused by the XSD.
    const broken = buildInvoicesDoc(numbered(inv), issuer).replace(/<invoiceDetails>[\s\S]*<\/invoiceDetails>/, '');
    expect((await validateWith('InvoicesDoc-v1.0.12.xsd', broken)).valid).toBe(false);
  });

  it('carries a withholding chosen on an invoice’s line (withheldAmount, withheldPercentCategory) that AADE’s XSD accepts, and prints what is payable', async () => {
    expect((await saveSettings()).statusCode).toBe(200);
    const before = mydata.received.length;
    const d = await draftFor(await addDeal(company, 5, 1000), 'invoice', {
      lines: [
        { description: 'Αμοιβή μεσιτείας', netCents: 100000, vatCategory: 1, withheldCategory: 3 },
        { description: 'Έξοδα φακέλου', netCents: 5001, vatCategory: 1 },
      ],
    });
    expect(d.lines.map((l) => [l.withheldCategory, l.withheldCents])).toEqual([[3, 20000], [null, 0]]);
    expect({ gross: d.grossCents, withheld: d.withheldCents }).toEqual({ gross: 130201, withheld: 20000 });
    const xml = buildInvoicesDoc({ ...d, number: 9, issueDate: '2026-11-27' }, { vatNumber: AGENCY_VAT, branch: 0 });
    expect(await validateWith('InvoicesDoc-v1.0.12.xsd', xml)).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<withheldAmount>200.00</withheldAmount><withheldPercentCategory>3</withheldPercentCategory>');
    expect(xml).toContain('<totalWithheldAmount>200.00</totalWithheldAmount>');
    expect(xml).toContain('<totalGrossValue>1102.01</totalGrossValue>');
    expect(xml).toContain('<amount>1102.01</amount>');
    await issue(d.id!, d.version);
    await app.jobs.drain();
    const sent = mydata.received.slice(before).find((r) => r.body.includes('<withheldPercentCategory>3</withheldPercentCategory>'))!;
    expect(sent).toMatchObject({ valid: true, errors: [] });
    expect((await view(d.id!)).status).toBe('accepted');
    const text = readPdf((await employee.get(`/api/Invoice/pdf/${d.id}?culture=en`)).rawPayload).text.replace(/\s+/g, ' ');
    expect(text).toContain('Παρακράτηση φόρου / Tax withheld 200,00 €');
    expect(text).toContain('Πληρωτέο ποσό / Amount payable 1 102,01 €');
    // A private person withholds nothing: refused on a receipt.
    const blank = (await employee.get(`/api/Invoice/add?dealId=${await addDeal(person)}`)).json();
    const refused = await employee.post('/api/Invoice/update', { ...blank, lines: [{ ...blank.lines[0], withheldCategory: 3 }] }, { lang: 'en' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors['lines.0.withheldCategory'][0]).toContain('A private person withholds no tax');
    // A category outside the list is a 400 before anything runs.
    expect((await employee.post('/api/Invoice/update', { ...blank, lines: [{ ...blank.lines[0], withheldCategory: 5 }] })).statusCode).toBe(400);
  });

  it('sends an issued invoice through the job runner and keeps the MARK and UID of the answer; an accepted one is never sent again', async () => {
    const before = mydata.received.length;
    const d = await draftFor(await addDeal(company), 'invoice');
    const issued = (await issue(d.id!, d.version)).json();
    expect(issued.status).toBe('sent');
    await app.jobs.drain();
    const got = mydata.received.slice(before).filter((r) => r.body.includes(`<aa>${issued.number}</aa>`) && r.body.includes('<invoiceType>2.1</invoiceType>'));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ path: '/SendInvoices', userId: CREDENTIALS.userId, key: CREDENTIALS.key, valid: true, errors: [] });
    expect(got[0]!.body).toContain('<invoiceType>2.1</invoiceType>');
    expect(got[0]!.body).toContain(`<aa>${issued.number}</aa>`);
    const accepted = await view(d.id!);
    expect(accepted).toMatchObject({ status: 'accepted', mark: expect.stringMatching(/^4000010\d{8}$/), uid: expect.stringMatching(/^[0-9A-F]{40}$/), authenticationCode: expect.stringMatching(/^AC/), errors: [] });
    expect(got[0]!.answered).toContain(`<invoiceMark>${accepted.mark}</invoiceMark>`);
    const again = await employee.post(`/api/Invoice/transmit/${d.id}`, { version: accepted.version });
    expect(again.statusCode).toBe(409);
    await app.jobs.drain();
    expect(mydata.received.slice(before).filter((r) => r.body.includes(`<aa>${issued.number}</aa>`) && r.body.includes('<invoiceType>2.1</invoiceType>'))).toHaveLength(1);

    // Its credit note names it (correlatedInvoices) and is accepted in turn.
    const credit = (await employee.post(`/api/Invoice/credit/${d.id}`, { version: accepted.version })).json();
    expect(credit).toMatchObject({ kind: 'credit', mydataType: '5.1', status: 'draft', creditOf: { id: d.id, mark: accepted.mark }, grossCents: accepted.grossCents });
    expect((await issue(credit.id, credit.version)).statusCode).toBe(200);
    await app.jobs.drain();
    const sentCredit = mydata.received.at(-1)!;
    expect(sentCredit).toMatchObject({ valid: true });
    expect(sentCredit.body).toContain(`<correlatedInvoices>${accepted.mark}</correlatedInvoices>`);
    expect((await view(credit.id)).status).toBe('accepted');
    // Credited in full: no second credit note; a click with the version seen before is a 409 too.
    const now = await view(d.id!);
    const second = await employee.post(`/api/Invoice/credit/${d.id}`, { version: now.version }, { lang: 'en' });
    expect(second.statusCode).toBe(409);
    expect(second.body).toContain('already credited in full');
    expect((await employee.post(`/api/Invoice/credit/${d.id}`, { version: accepted.version })).statusCode).toBe(409);
    // A receipt is not credited with a 5.1.
    const receipt = await draftFor(await addDeal(person), 'receipt');
    expect((await employee.post(`/api/Invoice/credit/${receipt.id}`, { version: receipt.version })).statusCode).toBe(400);
  });

  it('make one credit note at a time, never more than what is left of the invoice', async () => {
    const d = await draftFor(await addDeal(company), 'invoice');
    await issue(d.id!, d.version);
    await app.jobs.drain();
    const accepted = await view(d.id!);
    expect(accepted.status).toBe('accepted');
    // Two clicks at once: one credit note, the other refused.
    const both = await Promise.all([1, 2].map(() => employee.post(`/api/Invoice/credit/${d.id}`, { version: accepted.version })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const credit = ZInvoice.parse(both.find((r) => r.statusCode === 200)!.json());
    const again = await employee.post(`/api/Invoice/credit/${d.id}`, { version: (await view(d.id!)).version }, { lang: 'en' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already being prepared');
    // Its amounts raised past the invoice's: refused when issued, with what is left.
    const raised = await employee.post('/api/Invoice/update', {
      id: credit.id,
      version: credit.version,
      kind: 'credit',
      series: credit.series,
      counterpart: credit.counterpart,
      paymentMethod: credit.paymentMethod,
      lines: credit.lines.map((l) => ({ description: l.description, netCents: l.netCents * 10, vatCategory: l.vatCategory, vatExemption: l.vatExemption })),
    });
    expect(raised.statusCode, raised.body).toBe(200);
    const tooLarge = await employee.post(`/api/Invoice/issue/${credit.id}`, { version: raised.json().version }, { lang: 'en' });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.body).toContain(`cannot exceed what is left of the document it credits: ${(accepted.grossCents / 100).toFixed(2)} €`);
    expect((await view(credit.id!)).status).toBe('draft');
  });

  it('cancels a receipt myDATA accepted by a retail credit note (11.4): its own series, no withholding, the receipt’s MARK, sent once and accepted', async () => {
    expect((await saveSettings()).statusCode).toBe(200);
    const d = await draftFor(await addDeal(person), 'receipt');
    await issue(d.id!, d.version);
    await app.jobs.drain();
    const receipt = await view(d.id!);
    expect(receipt.status).toBe('accepted');
    const made = await employee.post(`/api/Invoice/credit/${d.id}`, { version: receipt.version });
    expect(made.statusCode, made.body).toBe(200);
    const credit = ZInvoice.parse(made.json());
    expect(credit).toMatchObject({ kind: 'credit', mydataType: '11.4', series: 'ΠΣΛ', status: 'draft', grossCents: receipt.grossCents, creditOf: { id: d.id, kind: 'receipt', mark: receipt.mark }, counterpart: { vatNumber: null, name: 'Νικολάου Μαρία' } });
    // A private person withholds nothing, on the receipt's credit note either.
    const body = { id: credit.id, version: credit.version, kind: 'credit', series: credit.series, counterpart: credit.counterpart, paymentMethod: credit.paymentMethod };
    // Its series is the retail credit notes' own: renamed to the credit invoices' or the receipts' one, refused, in the reader's language.
    const lines = credit.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption }));
    const toCreditInvoices = await employee.post('/api/Invoice/update', { ...body, series: 'ΠΤ', lines }, { lang: 'el' });
    expect(toCreditInvoices.statusCode).toBe(400);
    expect(toCreditInvoices.json().errors.series[0]).toBe(
      'Η σειρά ΠΤ χρησιμοποιείται για άλλο είδος παραστατικού (myDATA 5.1): κάθε σειρά αριθμείται για ένα μόνο είδος. Επιλέξτε άλλη σειρά για αυτό το παραστατικό.',
    );
    const toReceipts = await employee.post('/api/Invoice/update', { ...body, series: 'ΑΠΥ', lines }, { lang: 'ru' });
    expect(toReceipts.json().errors.series[0]).toContain('Серия ΑΠΥ закреплена за другим типом документа (myDATA 11.2)');
    expect((await view(credit.id!)).series).toBe('ΠΣΛ');
    const withheld = await employee.post('/api/Invoice/update', { ...body, lines: credit.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption, withheldCategory: 3 })) }, { lang: 'en' });
    expect(withheld.statusCode).toBe(400);
    const before = mydata.received.length;
    const issued = await issue(credit.id!, credit.version);
    expect(issued.statusCode, issued.body).toBe(200);
    await app.jobs.drain();
    const sent = mydata.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ valid: true });
    expect(sent[0]!.body).toContain('<invoiceType>11.4</invoiceType>');
    expect(sent[0]!.body).toContain(`<correlatedInvoices>${receipt.mark}</correlatedInvoices>`);
    expect(sent[0]!.body).not.toContain('<counterpart>');
    expect(await view(credit.id!)).toMatchObject({ status: 'accepted', series: 'ΠΣΛ', number: expect.any(Number) });
    // Its PDF is titled as the law names it, in Greek and the language asked.
    const pdf = await employee.get(`/api/Invoice/pdf/${credit.id}?culture=en`);
    expect(pdf.statusCode).toBe(200);
    const text = readPdf(pdf.rawPayload).text.replace(/\s+/g, ' ');
    expect(text).toContain('Πιστωτικό Στοιχείο Λιανικής');
    expect(text).toContain('Retail credit note');
    // Credited in full: no second one, said of the receipt as a document, not an invoice.
    const second = await employee.post(`/api/Invoice/credit/${d.id}`, { version: (await view(d.id!)).version }, { lang: 'en' });
    expect(second.statusCode).toBe(409);
    expect(second.json().title).toBe('This document is already credited in full.');
    // The list, the deal's documents and the accountant's xlsx call it a retail credit note.
    const row = (await employee.get(`/api/Invoice?dealId=${receipt.dealId}`)).json().items.find((r: { id: number }) => r.id === credit.id);
    expect(row).toMatchObject({ kind: 'credit', mydataType: '11.4', series: 'ΠΣΛ' });
    const file = await employee.get(`/api/Invoice/download?dealId=${receipt.dealId}`, { lang: 'el' });
    const wb = await workbookOf(file);
    const kinds = [7, 8].map((r) => [wb.worksheets[0]!.getRow(r).getCell(2).value, wb.worksheets[0]!.getRow(r).getCell(3).value]);
    expect(kinds).toEqual([
      ['Πιστωτικό Στοιχείο Λιανικής (ιδιώτης)', 'ΠΣΛ'],
      ['Απόδειξη Παροχής Υπηρεσιών (ιδιώτης)', 'ΑΠΥ'],
    ]);
  });

  it('shows myDATA’s error code and message on a rejected document, which is sent again once corrected', async () => {
    mydata.plan.push({ kind: 'error', code: '104', message: 'Counterpart VAT number does not exist' });
    const d = await draftFor(await addDeal(company), 'invoice');
    await issue(d.id!, d.version);
    await app.jobs.drain();
    const rejected = await view(d.id!);
    expect(rejected).toMatchObject({ status: 'rejected', mark: null, errors: [{ code: '104', message: 'Counterpart VAT number does not exist' }] });
    // Its lines stay as issued; its counterpart is corrected, then it is sent again and accepted.
    const other = vat('99887766');
    const lines = rejected.lines.map((l) => ({ description: l.description, netCents: l.netCents, vatCategory: l.vatCategory, vatExemption: l.vatExemption }));
    const changedLines = await employee.post('/api/Invoice/update', { id: d.id, version: rejected.version, kind: 'invoice', series: rejected.series, counterpart: rejected.counterpart, paymentMethod: 1, lines: [{ ...lines[0], netCents: 1 }] });
    expect(changedLines.statusCode).toBe(409);
    const fixed = await employee.post('/api/Invoice/update', { id: d.id, version: rejected.version, kind: 'invoice', series: rejected.series, counterpart: { ...rejected.counterpart, vatNumber: other }, paymentMethod: 3, lines });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const resent = await employee.post(`/api/Invoice/transmit/${d.id}`, { version: fixed.json().version });
    expect(resent.json().status).toBe('sent');
    await app.jobs.drain();
    const accepted = await view(d.id!);
    expect(accepted).toMatchObject({ status: 'accepted', number: rejected.number, errors: [], paymentMethod: 3 });
    expect(mydata.received.at(-1)!.body).toContain(`<vatNumber>${other}</vatNumber>`);
  });

  it('tries again after a 500 (the job runner’s retry) and keeps the answer that follows', async () => {
    const before = mydata.received.length;
    mydata.plan.push({ kind: 'status', status: 500 });
    const d = await draftFor(await addDeal(person), 'receipt');
    await issue(d.id!, d.version);
    await app.jobs.drain();
    const got = mydata.received.slice(before);
    expect(got.map((r) => r.answered.startsWith('<?xml') ? 'ResponseDoc' : r.answered)).toEqual(['500', 'ResponseDoc']);
    expect(got.every((r) => r.valid)).toBe(true);
    expect(got[1]!.body).toBe(got[0]!.body);
    expect(got[0]!.body).toContain('<invoiceType>11.2</invoiceType>');
    const accepted = await view(d.id!);
    expect(accepted.status).toBe('accepted');
    expect(accepted.mark).not.toBeNull();
  });

  it('when myDATA stays unreachable: retried until the job’s attempts run out, then an alert tells the office; the document is kept and sent once when asked again', async () => {
    expect((await saveSettings()).statusCode).toBe(200);
    const before = mydata.received.length;
    for (let i = 0; i < 8; i++) mydata.plan.push({ kind: 'status', status: 503 });
    const d = await draftFor(await addDeal(person), 'receipt');
    await issue(d.id!, d.version);
    // Eight attempts, one after the other: on a busy machine longer than drain's usual 15 s.
    await app.jobs.drain(80_000);
    // Every attempt of the job posted the same document, and none was answered.
    const got = mydata.received.slice(before);
    expect(got.map((r) => r.answered)).toEqual(Array(8).fill('503'));
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    const waiting = await view(d.id!);
    expect(waiting).toMatchObject({ status: 'sent', mark: null });
    expect(waiting.errors).toHaveLength(1);
    // The office's alert names the job as the Jobs page does, in the reader's language.
    const [job] = (await t.db.execute(sql`select id from jobs where name = 'invoices.mydata' and state = 'failed' and payload->>'invoiceId' = ${String(d.id)}`)).rows as { id: number }[];
    expect(job).toBeDefined();
    const [alert] = (await t.db.execute(sql`select id from alerts where entity = 'Job' and entity_id = ${job!.id}`)).rows as { id: number }[];
    const shown = (await admin.get(`/api/alert/${alert!.id}`, { lang: 'el' })).json();
    expect(shown.content).toContain(app.translator.t('el', 'jobs.name.invoices.mydata'));
    // Sent again by a person: myDATA is asked first, holds nothing, and gets it once.
    const again = await employee.post(`/api/Invoice/transmit/${d.id}`, { version: waiting.version });
    expect(again.statusCode, again.body).toBe(200);
    await app.jobs.drain();
    expect((await view(d.id!)).status).toBe('accepted');
    expect(mydata.received.slice(before + 8).map((r) => r.answered.startsWith('<?xml') ? 'ResponseDoc' : r.answered)).toEqual(['ResponseDoc']);
  }, 120_000);

  it('asks myDATA before sending again when an answer was lost, and keeps the MARK it holds: one document received, never two', async () => {
    const before = mydata.received.length;
    const asked = mydata.queried.length;
    // Other documents of the day and type registered first, so the answer comes in pages.
    for (let i = 0; i < 3; i++) {
      const other = await draftFor(await addDeal(company), 'invoice');
      await issue(other.id!, other.version);
    }
    await app.jobs.drain();
    mydata.plan.push({ kind: 'drop' });
    const d = await draftFor(await addDeal(company), 'invoice');
    const issued = ZInvoice.parse((await issue(d.id!, d.version)).json());
    await app.jobs.drain();
    const mine = mydata.received.slice(before).filter((r) => r.body.includes(`<aa>${issued.number}</aa>`) && r.body.includes('<invoiceType>2.1</invoiceType>'));
    expect(mine.map((r) => r.answered)).toEqual(['dropped']);
    const registered = mydata.registered.find((r) => r.invoice.includes(`<aa>${issued.number}</aa>`) && r.invoiceType === '2.1')!;
    const accepted = await view(d.id!);
    // The QR code's address too, from the listing's qrCodeUrl: the printed code is AADE's, not a text of ours.
    expect(accepted).toMatchObject({ status: 'accepted', mark: String(registered.mark), uid: registered.uid, authenticationCode: registered.authenticationCode, qrUrl: registered.qrUrl, errors: [] });
    // The retry asked by date and type from MARK 0, in dd/MM/yyyy, and followed the continuation token.
    const queries = mydata.queried.slice(asked);
    const [y, m, day] = issued.issueDate!.split('-');
    expect(queries[0]!.query).toMatchObject({ mark: '0', dateFrom: `${day}/${m}/${y}`, dateTo: `${day}/${m}/${y}`, invType: '2.1' });
    expect(queries.length).toBeGreaterThan(1);
    expect(queries.at(-1)!.query.nextRowKey).toBeTruthy();
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Invoice'), eq(actionLog.entityId, d.id!)));
    expect(logged.map((l) => l.data)).toContainEqual(expect.objectContaining({ mark: accepted.mark, foundInMyData: true }));
    // A person's "send again" of it now is refused; nothing more reaches myDATA.
    expect((await employee.post(`/api/Invoice/transmit/${d.id}`, { version: accepted.version })).statusCode).toBe(409);
    await app.jobs.drain();
    expect(mydata.received.slice(before).filter((r) => r.body.includes(`<aa>${issued.number}</aa>`) && r.body.includes('<invoiceType>2.1</invoiceType>'))).toHaveLength(1);
  });

  it('never sends when the lookup does not end: a continuation token that repeats leaves the document unanswered, not sent twice', async () => {
    const before = mydata.received.length;
    mydata.plan.push({ kind: 'drop' });
    const d = await draftFor(await addDeal(company), 'invoice');
    const issued = ZInvoice.parse((await issue(d.id!, d.version)).json());
    mydata.paging.stuck = true;
    try {
      await app.jobs.drain();
    } finally {
      mydata.paging.stuck = false;
    }
    const mine = mydata.received.slice(before).filter((r) => r.body.includes(`<aa>${issued.number}</aa>`) && r.body.includes('<invoiceType>2.1</invoiceType>'));
    expect(mine.map((r) => r.answered)).toEqual(['dropped']);
    const left = await view(d.id!);
    expect(left.status).toBe('sent');
    expect(left.errors[0]).toMatchObject({ code: 'response', message: expect.stringContaining('RequestTransmittedDocs') });
  });

  it('sends after asking when myDATA does not hold the document, and a second copy is what the lookup prevents', async () => {
    // The answer is lost before myDATA registered anything (a 500): the retry asks, finds nothing, sends.
    const asked = mydata.queried.length;
    mydata.plan.push({ kind: 'status', status: 503 });
    const d = await draftFor(await addDeal(company), 'invoice');
    const issued = ZInvoice.parse((await issue(d.id!, d.version)).json());
    await app.jobs.drain();
    expect(mydata.queried.length).toBeGreaterThan(asked);
    expect((await view(d.id!)).status).toBe('accepted');
    // Sent twice without asking, the stand-in refuses the copy as a duplicate: what the lookup avoids.
    const again = await mydataPost(buildInvoicesDoc(await view(d.id!), { vatNumber: AGENCY_VAT, branch: 0 }));
    expect(again).toContain('<code>228</code>');
    expect(mydata.registered.filter((r) => r.invoice.includes(`<aa>${issued.number}</aa>`) && r.invoiceType === '2.1')).toHaveLength(1);
  });

  it('validates before sending: a document the XSD refuses is rejected with the schema’s reason and never sent', async () => {
    const before = mydata.received.length;
    const blank = (await employee.get(`/api/Invoice/add?dealId=${await addDeal(company)}&kind=invoice`)).json();
    // "ZZ" is no country of AADE's list (CountryType): the server's own checks let it through, the XSD does not.
    const d = await draftFor(blank.dealId, 'invoice', { counterpart: { ...blank.counterpart, vatNumber: 'ZZ123', country: 'ZZ', city: 'Nowhere', postalCode: '0000' } });
    await issue(d.id!, d.version);
    await app.jobs.drain();
    const refused = await view(d.id!);
    expect(refused.status).toBe('rejected');
    expect(refused.errors[0]).toMatchObject({ code: 'xsd', message: expect.stringContaining('ZZ') });
    expect(mydata.received.length).toBe(before);
  });

  it('takes a refusal of the credentials (401) as an answer: rejected, shown, and not tried again by the job', async () => {
    const current = (await admin.get('/api/Invoice/settings')).json();
    await admin.post('/api/Invoice/settings', { version: current.version, vatNumber: AGENCY_VAT, branch: 0, userId: CREDENTIALS.userId, subscriptionKey: 'not-the-key' });
    const before = mydata.received.length;
    const d = await draftFor(await addDeal(person), 'receipt');
    await issue(d.id!, d.version);
    await app.jobs.drain();
    expect(mydata.received.slice(before).map((r) => [r.key, r.answered])).toEqual([['not-the-key', '401']]);
    const refused = await view(d.id!);
    expect(refused).toMatchObject({ status: 'rejected', errors: [{ code: 'HTTP 401', message: expect.stringContaining('invalid subscription key') }] });
    // With the right key, sent again by a person, it is accepted.
    await saveSettings({ version: (await admin.get('/api/Invoice/settings')).json().version });
    await employee.post(`/api/Invoice/transmit/${d.id}`, { version: refused.version });
    await app.jobs.drain();
    expect((await view(d.id!)).status).toBe('accepted');
  });

  it('without credentials an issued document stays not transmitted, and the list filters by status', async () => {
    const current = (await admin.get('/api/Invoice/settings')).json();
    expect((await admin.post('/api/Invoice/settings', { version: current.version, vatNumber: AGENCY_VAT, branch: 0, userId: null, clearKey: true })).json().keySet).toBe(false);
    const before = mydata.received.length;
    const d = await draftFor(await addDeal(person), 'receipt');
    const issued = (await issue(d.id!, d.version)).json();
    expect(issued.status).toBe('issued');
    await app.jobs.drain();
    expect(mydata.received.length).toBe(before);
    const sendNow = await employee.post(`/api/Invoice/transmit/${d.id}`, { version: issued.version });
    expect(sendNow.statusCode).toBe(400);
    const list = (await employee.get('/api/Invoice?status=issued')).json();
    expect(list.items.map((r: { id: number }) => r.id)).toContain(d.id);
    expect(list.items.every((r: { status: string }) => r.status === 'issued')).toBe(true);
    const accepted = (await employee.get('/api/Invoice?status=accepted&perPage=1000')).json();
    expect(accepted.totalRows).toBe(accepted.items.length);
    expect(accepted.items.every((r: { status: string; mark: string | null }) => r.status === 'accepted' && r.mark)).toBe(true);
    const counted = await t.db.execute(sql`select count(*)::int as n from invoices where status = 'accepted'`);
    expect(accepted.totalRows).toBe((counted.rows[0] as { n: number }).n);
    await saveSettings({ version: (await admin.get('/api/Invoice/settings')).json().version });
  });
});

describe('the document as a PDF', () => {
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  const pdfOf = async (id: number, culture?: string) => {
    const res = await employee.get(`/api/Invoice/pdf/${id}${culture ? `?culture=${culture}` : ''}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return { res, read: readPdf(res.rawPayload) };
  };

  it('prints an accepted invoice with its MARK, UID and the QR code myDATA answered, in Greek and the customer’s language, fonts embedded', async () => {
    expect((await saveSettings()).statusCode).toBe(200);
    const d = await draftFor(await addDeal(company), 'invoice');
    const issued = ZInvoice.parse((await issue(d.id!, d.version)).json());
    await app.jobs.drain();
    const accepted = await view(d.id!);
    expect(accepted.status).toBe('accepted');
    expect(accepted.qrUrl).toBe(`${mydata.url}/TimologioQR/QRInfo?q=${accepted.uid}`);
    const { res, read } = await pdfOf(d.id!, 'en');
    const text = flat(read.text);
    expect(decodeURIComponent(res.headers['content-disposition'] as string)).toContain(`Invoice for services ΤΠΥ ${issued.number} (en).pdf`);
    expect(text).toContain(`Τιμολόγιο Παροχής Υπηρεσιών / Invoice for services ΤΠΥ ${issued.number}`);
    expect(text).toContain(`ΜΑΡΚ (αριθμός καταχώρησης myDATA) / MARK (myDATA registration number): ${accepted.mark}`);
    expect(text).toContain(accepted.uid!);
    expect(text).toContain(accepted.authenticationCode!);
    expect(text).toContain('Ακίνητα Βορρά Α.Ε.');
    expect(text).toContain(`Σύνολο / Total ${'4 613,42 €'}`);
    // The QR code: the one image (pdfkit keeps a PNG's alpha as a second, soft-mask image).
    expect(read.images).toBeGreaterThanOrEqual(1);
    expect(read.embeddedFonts).toBeGreaterThan(0);
    expect(read.fonts.every((f) => /DejaVu/.test(f))).toBe(true);
    // In Greek alone: no other language beside it.
    const greek = flat((await pdfOf(d.id!, 'el')).read.text);
    expect(greek).toContain(`Τιμολόγιο Παροχής Υπηρεσιών ΤΠΥ ${issued.number}`);
    expect(greek).not.toContain('Invoice for services');
    const russian = flat((await pdfOf(d.id!, 'ru')).read.text);
    expect(russian).toContain('Τιμολόγιο Παροχής Υπηρεσιών / Счёт за услуги');
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Invoice'), eq(actionLog.entityId, d.id!), eq(actionLog.action, 'Download')));
    expect(logged).toHaveLength(3);
  });

  it('prints a document not transmitted without a QR code, saying so; a draft has no PDF; branch staff get none', async () => {
    const current = (await admin.get('/api/Invoice/settings')).json();
    await admin.post('/api/Invoice/settings', { version: current.version, vatNumber: AGENCY_VAT, branch: 0, userId: null, clearKey: true });
    const d = await draftFor(await addDeal(person), 'receipt');
    const draftPdf = await employee.get(`/api/Invoice/pdf/${d.id}`, { lang: 'en' });
    expect(draftPdf.statusCode).toBe(400);
    expect(draftPdf.body).toContain('A draft has no PDF');
    await issue(d.id!, d.version);
    const { read } = await pdfOf(d.id!);
    const text = flat(read.text);
    expect(text).toContain('Απόδειξη Παροχής Υπηρεσιών ΑΠΥ');
    expect(text).toContain('Δεν έχει διαβιβαστεί ακόμη στο myDATA.');
    expect(text).not.toContain('ΜΑΡΚ');
    expect(read.images).toBe(0);
    const branch = await t.user({ roles: ['employee'], branchId: 1 });
    expect((await branch.get(`/api/Invoice/pdf/${d.id}`)).statusCode).toBe(403);
    await saveSettings({ version: (await admin.get('/api/Invoice/settings')).json().version });
  });
});

describe('the invoices list for the accountant', () => {
  it('filters by date, customer, status, kind and series, with the sums of the matches counted in SQL, and gives them as xlsx', async () => {
    expect((await saveSettings()).statusCode).toBe(200);
    const buyer = await addAccount({ isCompany: true, name: 'Λογιστική Δοκιμή Ο.Ε.', taxNumber: vat('55512345') });
    const series = `Τ${Date.now() % 1_000_000}`;
    const made: number[] = [];
    for (const commission of [1000, 2500.5]) {
      const d = await draftFor(await addDeal(buyer, 5, commission), 'invoice', { series });
      await issue(d.id!, d.version);
      made.push(d.id!);
    }
    // A draft of the same series and customer: listed, but not counted.
    await draftFor(await addDeal(buyer, 5, 999), 'invoice', { series });
    await app.jobs.drain();
    const original = await view(made[0]!);
    const credit = ZInvoice.parse((await employee.post(`/api/Invoice/credit/${original.id}`, { version: original.version })).json());
    await employee.post('/api/Invoice/update', {
      id: credit.id, version: credit.version, kind: 'credit', series: credit.series, counterpart: credit.counterpart, paymentMethod: credit.paymentMethod,
      lines: [{ description: 'Έκπτωση', netCents: 10000, vatCategory: 1 }],
    });
    await issue(credit.id!, (await view(credit.id!)).version);
    await app.jobs.drain();

    const today = agencyToday(app.config.timeZone);
    const list = (await employee.get(`/api/Invoice?series=${encodeURIComponent(series)}&dateFrom=${today}&dateTo=${today}`)).json();
    expect(list.items).toHaveLength(2);
    // 1000.00 + 2500.50 net, VAT 24% each rounded: 240.00 + 600.12.
    expect(list.sums).toEqual({ count: 2, netCents: 350050, vatCents: 84012, grossCents: 434062 });
    const byCustomer = (await employee.get(`/api/Invoice?customer=${encodeURIComponent('λογιστική δοκιμή')}`)).json();
    // Two invoices, a draft and the credit note; the sums: the invoices less the credit note (100.00 + 24.00).
    expect(byCustomer.totalRows).toBe(4);
    expect(byCustomer.sums).toEqual({ count: 3, netCents: 340050, vatCents: 81612, grossCents: 421662 });
    const byVat = (await employee.get(`/api/Invoice?customer=${vat('55512345')}&kind=credit`)).json();
    expect(byVat.items.map((r: { id: number }) => r.id)).toEqual([credit.id]);
    expect((await employee.get(`/api/Invoice?series=${encodeURIComponent(series)}&dateTo=2020-01-01`)).json()).toMatchObject({ totalRows: 0, sums: { count: 0, grossCents: 0 } });
    // The wildcard of LIKE is a plain character in the filter.
    expect((await employee.get('/api/Invoice?customer=%25')).json().totalRows).toBe(0);
    expect((await employee.get('/api/Invoice?dateFrom=2026-02-30')).statusCode).toBe(400);

    const downloadsBefore = (await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Invoice'), eq(actionLog.action, 'Download'), eq(actionLog.message, 'Invoices.xlsx')))).length;
    const file = await employee.get(`/api/Invoice/download?customer=${encodeURIComponent('Λογιστική Δοκιμή')}`, { lang: 'el' });
    expect(file.statusCode, file.body.slice(0, 200)).toBe(200);
    expect(file.headers['content-disposition']).toContain('Invoices.xlsx');
    const wb = await workbookOf(file);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Παραστατικά');
    expect(String(ws.getRow(2).getCell(1).value)).toContain('Πελάτης: Λογιστική Δοκιμή');
    expect(ws.getRow(3).getCell(1).value).toBe('Σύνολα 3 εκδοθέντων παραστατικών (με αφαίρεση των πιστωτικών)');
    expect([9, 10, 11].map((c) => ws.getRow(3).getCell(c).value)).toEqual([3400.5, 816.12, 4216.62]);
    const rows = [7, 8, 9, 10].map((r) => ws.getRow(r));
    expect(rows.map((r) => r.getCell(3).value)).toEqual(['ΠΤ', series, series, series]);
    expect(rows[0]!.getCell(11).value).toBe(-124);
    expect(rows[0]!.getCell(6).value).toBe(vat('55512345'));
    const logged = await t.db.select().from(actionLog).where(and(eq(actionLog.entity, 'Invoice'), eq(actionLog.action, 'Download'), eq(actionLog.message, 'Invoices.xlsx')));
    expect(logged).toHaveLength(downloadsBefore + 1);
    const branch = await t.user({ roles: ['employee'], branchId: 1 });
    expect((await branch.get('/api/Invoice/download')).statusCode).toBe(403);
  });
});
