import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts, texts } from './shipped-texts.testing.ts';

let logDataRows: typeof import('./log-data.ts').logDataRows;
let logDataText: typeof import('./log-data.ts').logDataText;
let logRefs: typeof import('./log-data.ts').logRefs;

beforeAll(async () => {
  await startShippedTexts();
  ({ logDataRows, logDataText, logRefs } = await import('./log-data.ts'));
});

const rows = (entity: string, data: unknown) => logDataRows(i18next.t, entity, data).map((r) => [r.label, r.value]);

describe('an action-log entry read as its screen words it', () => {
  it("words a booking's client field by field, not as raw JSON", async () => {
    await i18next.changeLanguage('el');
    const el = texts('el');
    const got = rows('Reservation', { objectId: 12, client: { lastName: 'Schmidt', firstName: 'Hans', email: 'hans.schmidt@example.de', phone: null } });
    expect(got).toEqual([
      [el['fields.reservation.objectId'] ?? 'objectId', '#12'],
      [el['fields.reservation.lastName'], 'Schmidt'],
      [el['fields.reservation.firstName'], 'Hans'],
      [el['fields.reservation.email'], 'hans.schmidt@example.de'],
    ]);
    expect(JSON.stringify(got)).not.toContain('{');
  });

  it("words an invoice's entries in the reader's language: its status change, customer, lines and language by name, no raw JSON", async () => {
    await i18next.changeLanguage('el');
    const el = texts('el');
    const issued = rows('Invoice', { status: { from: 'draft', to: 'sent' }, series: 'ΑΠΥ', number: 2 });
    expect(issued[0]).toEqual([el['actionLog.data.status'], `${el['invoices.status.draft']} → ${el['invoices.status.sent']}`]);
    const made = rows('Invoice', {
      counterpart: { from: { name: 'Παπαδοπούλου Ελένη', vatNumber: null }, to: { name: 'Παπαδοπούλου Ελένη', vatNumber: '094014201' } },
      lines: [{ netCents: 310025, vatCents: 74406, grossCents: 384431, description: 'Αμοιβή μεσιτείας', vatCategory: 1 }],
    });
    expect(made).toEqual([
      [el['invoices.field.counterpart'], 'Παπαδοπούλου Ελένη → Παπαδοπούλου Ελένη · 094014201'],
      [el['invoices.field.lines'], expect.stringMatching(/^Αμοιβή μεσιτείας: 3\s844,31\s€$/)],
    ]);
    expect(rows('Invoice', { culture: 'en' })).toEqual([[el['actionLog.data.culture'], el['accounts.ui.language.en']]]);
    expect(JSON.stringify([issued, made])).not.toMatch(/Cents|draft|\{/);
  });

  it("labels a property's fields as the property form does, and says yes or no", async () => {
    await i18next.changeLanguage('en');
    expect(rows('Object', { bedrooms: 3, furnished: true, salePrice: 250000 })).toEqual([
      ['Bedrooms', '3'],
      ['Furnished', 'Yes'],
      ['Sale price', '250\u00a0000\u00a0€'],
    ]);
  });

  it("names a deal's parties by the names the server read, each a link to the account; one not known by its number", () => {
    const data = { accounts: [{ relation: 1, accountId: 384 }, { relation: 2, accountId: 385 }] };
    const [seller, buyer] = [texts('en')['deals.relation.1']!, texts('en')['deals.relation.2']!];
    const [row] = logDataRows(i18next.t, 'Deal', data, { accounts: { '384': 'Pavlidis Giorgos' } });
    expect(row!.value).toBe(`${seller} Pavlidis Giorgos, ${buyer} #385`);
    expect(row!.parts).toEqual([
      { role: seller, text: 'Pavlidis Giorgos', to: '/Accounts/View/384' },
      { role: buyer, text: '#385' },
    ]);
  });

  it('names the accounts, properties and leads other entries hold by number as the server read them, each a link to it; one not known by its number', async () => {
    await i18next.changeLanguage('en');
    const en = texts('en');
    const refs = {
      accounts: { '12': 'Petridou Sofia', '13': 'Kleidas Kostas' },
      objects: { '161': '#0042 Flat in Kalamaria' },
      leads: { '35': 'Petridou Sofia — Purchase, ≤ 250\u00a0000\u00a0€' },
    };
    const parts = (entity: string, data: unknown) => logDataRows(i18next.t, entity, data, refs).map((r) => [r.key, r.value, r.parts]);
    const flat = { text: '#0042 Flat in Kalamaria', to: '/Objects/View/161' };
    const lead = { text: 'Petridou Sofia — Purchase, ≤ 250\u00a0000\u00a0€', to: '/Leads/View/35' };
    // A lead's client, a deal's property and lead.
    expect(parts('Lead', { accountId: 12 })).toEqual([['accountId', 'Petridou Sofia', [{ text: 'Petridou Sofia', to: '/Accounts/View/12' }]]]);
    expect(parts('Deal', { objectId: 161, demandId: 35 })).toEqual([
      ['objectId', flat.text, [flat]],
      ['demandId', lead.text, [lead]],
    ]);
    // A viewing's properties with what was said of them; one deleted since by its number.
    expect(parts('Viewing', { demandId: 35, results: [{ objectId: 161, result: 2, comment: 'Too dark' }, { objectId: 7, result: null }] })).toEqual([
      ['demandId', lead.text, [lead]],
      ['results', `${flat.text}: ${en['viewings.result.2']} “Too dark”, #7`, [{ ...flat, note: `: ${en['viewings.result.2']} “Too dark”` }, { text: '#7' }]],
    ]);
    // A lead's offered properties; a key's holder changed from one account to another, and to none.
    expect(parts('Lead', { objects: [161, 7] })).toEqual([['objects', `${flat.text}, #7`, [flat, { text: '#7' }]]]);
    expect(logDataRows(i18next.t, 'Lead', { objects: [161] }, refs)[0]!.label).toBe(en['actionLog.data.objects']);
    expect(parts('ObjectKey', { loanId: 3, accountId: { from: 13, to: 12 }, keyAccountId: { from: 13, to: null } }).slice(1)).toEqual([
      ['accountId', 'Kleidas Kostas → Petridou Sofia', [{ text: 'Kleidas Kostas', to: '/Accounts/View/13' }, { text: 'Petridou Sofia', to: '/Accounts/View/12', sep: ' → ' }]],
      ['keyAccountId', 'Kleidas Kostas → —', [{ text: 'Kleidas Kostas', to: '/Accounts/View/13' }, { text: '—', sep: ' → ' }]],
    ]);
    // The single-field editor's change of a booking's property.
    expect(parts('Reservation', { field: 'objectId', from: 7, to: 161 })).toEqual([['objectId', `#7 → ${flat.text}`, [{ text: '#7' }, { ...flat, sep: ' → ' }]]]);
  });

  it("names the deals, viewings, sign-ins, branches and an account's source entries hold by number: a link where the record has a page; one not known by its number", async () => {
    await i18next.changeLanguage('en');
    const refs = logRefs(i18next.t, {
      accountNames: { '40': 'Spitogatos Nikos' },
      dealIds: [12],
      viewingDates: { '7': '2026-03-12T10:30:00', '8': null },
      userNames: { '3': 'Georgiou Maria' },
      branchNames: { '1': 'Thessaloniki' },
    });
    const parts = (entity: string, data: unknown) => logDataRows(i18next.t, entity, data, refs).map((r) => [r.key, r.value, r.parts]);
    expect(parts('Lead', { stage: 3, dealId: 12 })[1]).toEqual(['dealId', 'Deal #12', [{ text: 'Deal #12', to: '/Deals/12' }]]);
    expect(parts('Lead', { viewingId: 7 })).toEqual([['viewingId', 'Viewing #7 · 12/03/2026, 10:30', [{ text: 'Viewing #7 · 12/03/2026, 10:30', to: '/Viewing/7' }]]]);
    expect(parts('Lead', { viewingId: 8 })[0]![1]).toBe('Viewing #8');
    // A deal deleted since: its number.
    expect(parts('Object', { dealId: 13 })).toEqual([['dealId', '#13', [{ text: '#13' }]]]);
    // A sign-in and a branch have no page: their names, not links.
    expect(parts('Account', { userId: 3, email: 'm@agency.gr' })[0]).toEqual(['userId', 'Georgiou Maria', [{ text: 'Georgiou Maria' }]]);
    expect(parts('User', { roles: ['admin'], branchId: 1 })[1]).toEqual(['branchId', 'Thessaloniki', [{ text: 'Thessaloniki' }]]);
    expect(parts('Account', { field: 'branchId', from: 1, to: null })).toEqual([['branchId', 'Thessaloniki → —', [{ text: 'Thessaloniki' }, { text: '—', sep: ' → ' }]]]);
    // An account's source is an account; a booking's source is where it was booked.
    expect(parts('Account', { sourceId: 40 })).toEqual([['sourceId', 'Spitogatos Nikos', [{ text: 'Spitogatos Nikos', to: '/Accounts/View/40' }]]]);
    expect(parts('Reservation', { sourceId: 1 })).toEqual([['sourceId', texts('en')['reservations.source.1'], undefined]]);
    // In the reader's language.
    await i18next.changeLanguage('el');
    expect(logDataRows(i18next.t, 'Lead', { dealId: 12 }, logRefs(i18next.t, { dealIds: [12] }))[0]!.value).toBe('Συμφωνία #12');
    await i18next.changeLanguage('en');
  });

  it("words a deal's change: stage and type by name, prices as money, parties by role, no bookkeeping keys", async () => {
    await i18next.changeLanguage('el');
    const el = texts('el');
    expect(rows('Deal', { id: 29, version: 4, dealStage: 2, dealType: 1, price: 226000, deposit: '5000.50', accounts: [{ relation: 1, accountId: 384 }] })).toEqual([
      [el['fields.deal.dealStage'], el['deals.stage.2']],
      [el['fields.deal.dealType'], el['deals.type.1']],
      [el['fields.deal.price'], '226\u00a0000\u00a0€'],
      [el['fields.deal.deposit'], '5\u00a0000,50\u00a0€'],
      ['Συμβαλλόμενοι', `${el['deals.relation.1']} #384`],
    ]);
    await i18next.changeLanguage('en');
  });

  it('shows a moment logged in UTC on the agency’s clock: a transaction at 00:30 in Athens is on its own day', async () => {
    await i18next.changeLanguage('en');
    expect(rows('Transaction', { transactionDate: '2026-03-14T22:30:00.000Z' })).toEqual([[texts('en')['fields.transaction.transactionDate'] ?? 'transactionDate', '15/03/2026, 00:30']]);
    // Summer time: three hours ahead.
    expect(rows('Transaction', { transactionDate: '2026-07-31T21:15:00Z' })[0]![1]).toBe('01/08/2026, 00:15');
    // A text that only looks like a moment (typed into notes) is shown as written.
    expect(rows('Account', { notes: { from: null, to: '2026-13-01T10:00Z' } })[0]![1]).toBe('— → 2026-13-01T10:00Z');
    // As the server logs it now, the local text.
    expect(rows('Transaction', { transactionDate: '2026-03-15T00:30:00' })[0]![1]).toBe('15/03/2026, 00:30');
  });

  it('shows a field edited on its own as one row: its label, the old value → the new one', async () => {
    await i18next.changeLanguage('el');
    const el = texts('el');
    expect(rows('Object', { field: 'salePrice', from: 250000, to: 245000 })).toEqual([[el['fields.object.salePrice'], '250\u00a0000\u00a0€ → 245\u00a0000\u00a0€']]);
    expect(rows('Account', { field: 'city', from: null, to: 'Καλαμαριά' })).toEqual([[el['accounts.ui.field.city'], '— → Καλαμαριά']]);
    await i18next.changeLanguage('en');
  });

  it("shows a property's contact change by its relation's name and only the values that changed, old → new", async () => {
    await i18next.changeLanguage('en');
    const en = texts('en');
    expect(rows('Object', { accountId: 12, relation: 4, from: { startDate: '2026-01-01', endDate: null, price: 650, rentPaymentDay: 5 }, to: { startDate: '2026-01-01', endDate: '2026-12-31', price: 700, rentPaymentDay: 5 } })).toEqual([
      [en['actionLog.data.accountId'], '#12'],
      [en['actionLog.data.relation'], en['objects.relation.4']],
      [en['actionLog.data.endDate'], '— → 31/12/2026'],
      [en['actionLog.data.price'], '650\u00a0€ → 700\u00a0€'],
    ]);
    expect(rows('Object', { accountId: 12, relations: [1, 4] })).toEqual([
      [en['actionLog.data.accountId'], '#12'],
      [en['actionLog.data.relations'], `${en['objects.relation.1']}, ${en['objects.relation.4']}`],
    ]);
  });

  it("shows a deleted alert's source by its name, and not its text key and values (they are its message)", async () => {
    await i18next.changeLanguage('el');
    const el = texts('el');
    const shown = rows('Alert', { source: 'Website', messageKey: 'alerts.msg.websiteEnquiry', params: { ref: '0042' } });
    expect(shown).toHaveLength(1);
    expect(shown[0]![1]).toBe(el['alerts.source.Website']);
    await i18next.changeLanguage('en');
  });

  it("words a viewing's properties with their results and comments, and an account's kinds by name", async () => {
    await i18next.changeLanguage('en');
    const en = texts('en');
    expect(rows('Viewing', { demandId: 35, results: [{ objectId: 161, result: 2 }, { objectId: 7, result: null }] })).toEqual([
      ['Lead', '#35'],
      ['Properties shown', `#161: ${en['viewings.result.2']}, #7`],
    ]);
    expect(rows('Viewing', { results: [{ objectId: 161, result: 5, comment: 'Too dark' }, { objectId: 7, result: 3, comment: null }] })).toEqual([
      ['Properties shown', `#161: ${en['viewings.result.5']} “Too dark”, #7: ${en['viewings.result.3']}`],
    ]);
    expect(rows('Account', { isClient: true })).toEqual([[en['accounts.ui.kind.isClient'], 'Yes']]);
  });

  it("labels an account's fields with the account form's texts, in the reader's language", async () => {
    await i18next.changeLanguage('el');
    const [[label]] = rows('Account', { lastName: 'Παπαδοπούλου' });
    expect(label).toBe(texts('el')['accounts.ui.field.lastName']);
    expect(label).not.toBe('lastName');
    // A gender by its name: as the form's save logs it, and as the single-field editor does.
    expect(rows('Account', { gender: 'female' })).toEqual([[texts('el')['accounts.ui.field.gender'], 'Γυναίκα']]);
    expect(rows('Owner', { field: 'gender', from: null, to: 'male' })).toEqual([[texts('el')['accounts.ui.field.gender'], '— → Άνδρας']]);
    await i18next.changeLanguage('en');
  });

  it("names the log's own keys, shows an old and new value as a change, and dates as dates", async () => {
    await i18next.changeLanguage('en');
    expect(rows('Alert', { notes: { from: null, to: 'Called back' } })).toEqual([['Notes', '— → Called back']]);
    expect(rows('User', { language: 'el' })).toEqual([['Language', 'Greek']]);
    expect(rows('User', { ip: '10.0.0.7', knownDevice: false, roles: ['admin', 'employee'] })).toEqual([
      ['IP address', '10.0.0.7'],
      ['Known device', 'No'],
      ['Roles', 'Administrator, Employee'],
    ]);
    expect(rows('Viewing', { dateOfViewing: '2026-03-05T10:30:00' })).toEqual([['Viewing date', '05/03/2026, 10:30']]);
    expect(rows('Deal', { dateOfDeposit: '2026-03-05' })).toEqual([['Date of deposit', '05/03/2026']]);
  });

  it('keeps a key it has no words for as stored, and a value that is not a field list as one line', async () => {
    await i18next.changeLanguage('ru');
    expect(rows('Object', { somethingNew: 'x' })).toEqual([['somethingNew', 'x']]);
    expect(rows('Account', { filesAttached: [12, 13] })).toEqual([['Прикреплённые файлы', '12, 13']]);
    expect(logDataText(i18next.t, [1, 2])).toBe('1, 2');
    expect(rows('Object', null)).toEqual([]);
  });

  it("words a download by its rows and its filter, in the reader's language whoever downloaded it", async () => {
    const data = {
      rows: 2,
      filter: { en: 'Showing: Sale; Last name (any party): Exportaki', el: 'Εμφανίζονται: Πώληση; Επώνυμο (οποιουδήποτε μέρους): Exportaki', ru: 'Показаны: Продажа; Фамилия (любого участника): Exportaki' },
    };
    await i18next.changeLanguage('el');
    expect(rows('Deal', data)).toEqual([
      ['Γραμμές στο αρχείο', '2'],
      ['Φίλτρο', 'Εμφανίζονται: Πώληση; Επώνυμο (οποιουδήποτε μέρους): Exportaki'],
    ]);
    await i18next.changeLanguage('ru');
    expect(rows('Transaction', { accountId: 7, ...data })[2]).toEqual(['Фильтр', 'Показаны: Продажа; Фамилия (любого участника): Exportaki']);
    await i18next.changeLanguage('en');
    expect(rows('Object', data)).toEqual([
      ['Rows in the file', '2'],
      ['Filter', 'Showing: Sale; Last name (any party): Exportaki'],
    ]);
  });
});
