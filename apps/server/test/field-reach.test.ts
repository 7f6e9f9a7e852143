import { describe, expect, it } from 'vitest';
import { DEAL_FIELDS, DEAL_LIST_PARTIES, DEAL_RELATION, LEAD_FIELDS, OBJECT_FIELDS, type TDealFieldDescription, type TFieldDescription, type TLeadFieldDescription } from '@crm/contract';
import { objectColumnsOf } from '../src/modules/objects/objects.columns.ts';
import { dealImportFields, leadImportFields, objectImportFields } from '../src/modules/imports/imports.fields.ts';
import { CellError, judge, readCell } from '../src/modules/imports/imports.cells.ts';
import type { FieldContext } from '../src/modules/fields/field-registry.ts';
import { dealColumnsOf } from '../src/modules/deals/deals.xlsx.ts';
import { leadColumnsOf } from '../src/modules/leads/leads.xlsx.ts';

/**
 * A field added to the description of properties, deals or leads reaches their spreadsheets with no
 * line of its own: Properties.xlsx and the property import, Deals.xlsx and the deal import, Leads.xlsx
 * and the lead import. Here each description gets one field more (the real ones stay as they are);
 * the web's test (apps/web/src/app/field-reach.test.ts) follows it into the forms, the views and the
 * column choosers.
 */
const t = (key: string) => key;

describe('a field added to the description of properties', () => {
  const added: TFieldDescription = { name: 'ceilingHeight', type: 'number', group: 'facts', min: 0, max: 20 };
  const fields = [...OBJECT_FIELDS, added];

  it('is a column of Properties.xlsx, headed by its label, written as a number', () => {
    expect(OBJECT_FIELDS.map((d) => d.name)).not.toContain('ceilingHeight');
    const column = objectColumnsOf(fields).find((c) => c.key === 'ceilingHeight');
    expect(column).toMatchObject({ head: 'fields.object.ceilingHeight', kind: 'number', inList: false });
    expect(column!.value({ ceilingHeight: '2.85' }, t)).toBe(2.85);
  });

  it('is a column a property import accepts, by its label and with its limits', () => {
    const field = objectImportFields(fields).find((f) => f.key === 'ceilingHeight');
    expect(field).toMatchObject({ target: 'object', name: 'ceilingHeight', labelKey: 'fields.object.ceilingHeight', required: false });
    expect(field!.def).toMatchObject({ type: 'number', min: 0, max: 20 });
  });
});

describe('a field added to the description of deals', () => {
  const added: TDealFieldDescription = { name: 'notaryFee', type: 'currency', group: 'money', step: 0.01, min: 0, max: 999999999999.99 };
  const fields = [...DEAL_FIELDS, added];
  const row = { d: { id: 1, createdOn: new Date(), notaryFee: '120.50' }, ref: null, title: null, parties: [] };

  it('is a column of Deals.xlsx, headed by its label, written as an amount in euro', () => {
    expect(DEAL_FIELDS.map((d) => d.name)).not.toContain('notaryFee');
    const column = dealColumnsOf(t, 'Europe/Athens', fields).find((c) => c.head === 'fields.deal.notaryFee');
    expect(column?.style?.numFmt).toContain('€');
    expect(column!.cell(row)).toBe(120.5);
  });

  it('is a column a deal import accepts, by its label, read the Greek way and judged by its limits', async () => {
    const field = dealImportFields(fields).find((f) => f.key === 'notaryFee');
    expect(field).toMatchObject({ target: 'deal', name: 'notaryFee', labelKey: 'fields.deal.notaryFee', required: false });
    expect(field!.def).toMatchObject({ type: 'currency', min: 0, max: 999999999999.99 });
    const lookups = { places: new Map(), choices: new Map() };
    const ctx = { t } as unknown as FieldContext;
    expect(await judge(ctx, field!.key, field!, readCell(field!, '1.250,50', lookups), {})).toBe(1250.5);
    expect(() => readCell(field!, '12,3456', lookups)).toThrow(CellError);
    expect(() => readCell(field!, '-5', lookups)).toThrow(CellError);
    expect(dealImportFields(DEAL_FIELDS).map((f) => f.key)).not.toContain('notaryFee');
    // A day and a yes/no by their kinds, as Deals.xlsx writes them.
    const [day, yes] = dealImportFields([
      { name: 'keysHandedOver', type: 'date', group: 'dates' },
      { name: 'furnished', type: 'boolean', group: 'rent' },
    ]).filter((f) => f.labelKey.startsWith('fields.deal.'));
    expect(await judge(ctx, day!.key, day!, readCell(day!, '15/01/2027', lookups), {})).toBe('2027-01-15');
    expect(readCell(yes!, 'Ναι', lookups)).toBe(true);
  });

  it('is refused as a column of Deals.xlsx while the file has no way to write its kind (a choice would read as its number)', () => {
    const choice: TDealFieldDescription = { name: 'financing', type: 'select', group: 'money' } as TDealFieldDescription;
    expect(() => dealColumnsOf(t, 'Europe/Athens', [...DEAL_FIELDS, choice])).toThrow('Deals.xlsx has no column for a select field (financing)');
  });

  it('leaves the file’s columns of the real description as they are: their widths and formats', () => {
    const money = dealColumnsOf(t, 'Europe/Athens').find((c) => c.head === 'fields.deal.price')!.style?.numFmt;
    const day = dealColumnsOf(t, 'Europe/Athens').find((c) => c.head === 'fields.deal.endDate')!.style?.numFmt;
    expect(money).toContain('€');
    expect(day).toMatch(/d/);
    expect(dealColumnsOf(t, 'Europe/Athens').map((c) => [c.width, c.style?.numFmt ?? null])).toEqual([
      [9, null], [17, expect.any(String)], [10, null], [22, null], [10, null], [30, null],
      ...DEAL_LIST_PARTIES.map(() => [24, null]),
      [24, null],
      [15, money], [15, money], [15, money], [15, money], [13, day], [13, day], [13, day], [12, null], [13, day], [13, day],
    ]);
  });

  it('leaves the file’s columns of the real description as they are: the list’s, then every described field but the notes', () => {
    expect(dealColumnsOf(t, 'Europe/Athens').map((c) => c.head)).toEqual([
      'deals.xlsx.number', 'deals.xlsx.created', 'deals.ui.col.type', 'deals.ui.col.stage', 'deals.ui.col.object', 'deals.xlsx.objectTitle',
      ...DEAL_LIST_PARTIES.map((key) => `deals.relation.${DEAL_RELATION[key]}`),
      `deals.relation.${DEAL_RELATION.partner}`,
      ...['askingPrice', 'price', 'deposit', 'commission', 'dateOfDeposit', 'startDate', 'endDate', 'contractDurationMonths', 'rentStart', 'rentExpiration'].map((n) => `fields.deal.${n}`),
    ]);
  });
});

describe('a field added to the description of leads', () => {
  const added: TLeadFieldDescription = { name: 'parkingSpacesMin', type: 'number', group: 'wishes', integer: true, min: 0, max: 10 };
  const row = (l: Record<string, unknown>) => ({ l: { id: 1, createdOn: new Date(), ...l }, account: null, phones: [], emails: [], agents: null, sourceName: null, placeName: null });

  it('is a column of Leads.xlsx, headed by its label, written as a number', () => {
    expect(LEAD_FIELDS.map((d) => d.name)).not.toContain('parkingSpacesMin');
    const column = leadColumnsOf(t, 'Europe/Athens', [...LEAD_FIELDS, added]).find((c) => c.head === 'fields.lead.parkingSpacesMin');
    expect(column!.cell(row({ parkingSpacesMin: 2 }))).toBe(2);
    expect(column!.cell(row({ parkingSpacesMin: null }))).toBeNull();
  });

  it('is a column a lead import accepts, by its label, read as its kind and judged by its limits', async () => {
    const field = leadImportFields([...LEAD_FIELDS, added]).find((f) => f.key === 'parkingSpacesMin');
    expect(field).toMatchObject({ target: 'lead', name: 'parkingSpacesMin', labelKey: 'fields.lead.parkingSpacesMin', required: false });
    expect(field!.def).toMatchObject({ type: 'number', integer: true, min: 0, max: 10 });
    const lookups = { places: new Map(), choices: new Map() };
    const ctx = { t } as unknown as FieldContext;
    expect(await judge(ctx, field!.key, field!, readCell(field!, '2', lookups), {})).toBe(2);
    await expect(judge(ctx, field!.key, field!, readCell(field!, '11', lookups), {})).rejects.toMatchObject({ code: 'validation.tooBig', params: { max: 10 } });
    expect(() => readCell(field!, 'two', lookups)).toThrow(CellError);
    expect(leadImportFields(LEAD_FIELDS).map((f) => f.key)).not.toContain('parkingSpacesMin');
  });

  it('is written as an amount in euro, a day or yes/no by its kind', () => {
    const fields: TLeadFieldDescription[] = [
      { name: 'deposit', type: 'currency', group: 'budget' },
      { name: 'moveIn', type: 'date', group: 'main' },
      { name: 'pets', type: 'boolean', group: 'wishes' },
    ];
    const columns = leadColumnsOf(t, 'Europe/Athens', [...LEAD_FIELDS, ...fields]);
    const of = (name: string) => columns.find((c) => c.head === `fields.lead.${name}`)!;
    expect(of('deposit').style?.numFmt).toContain('€');
    expect(of('deposit').cell(row({ deposit: '1500.50' }))).toBe(1500.5);
    expect(of('moveIn').cell(row({ moveIn: '2027-01-15' }))).toEqual(new Date('2027-01-15T00:00:00Z'));
    expect(of('pets').cell(row({ pets: true }))).toBe('common.yes');
  });

  it('is refused as a column of Leads.xlsx while the file has no way to write its kind (a choice would read as its number)', () => {
    const choice: TLeadFieldDescription = { name: 'financing', type: 'select', group: 'main' } as TLeadFieldDescription;
    expect(() => leadColumnsOf(t, 'Europe/Athens', [...LEAD_FIELDS, choice])).toThrow('Leads.xlsx has no column for a select field (financing)');
  });

  it('leaves the file’s columns of the real description as they are: the list’s, then every described field but the stage, the priority and the long text', () => {
    const described = LEAD_FIELDS.filter((d) => !['stage', 'priority', 'description'].includes(d.name)).map((d) => `fields.lead.${d.name}`);
    expect(described).toContain('fields.lead.forRent');
    expect(described).toContain('fields.lead.rentBudgetRangeMax');
    expect(leadColumnsOf(t, 'Europe/Athens').map((c) => c.head)).toEqual([
      'leads.xlsx.number', 'leads.ui.col.created', 'leads.ui.col.name', 'accounts.ui.field.phones', 'accounts.ui.field.emails',
      'leads.ui.col.type', 'leads.ui.col.budget', 'leads.ui.col.stage', 'leads.ui.col.priority', 'leads.xlsx.agents',
      ...described,
    ]);
    // Without the people (an API key that may not read accounts): no phones, e-mails or agents.
    expect(leadColumnsOf(t, 'Europe/Athens', LEAD_FIELDS, false).map((c) => c.head).slice(0, 8)).toEqual([
      'leads.xlsx.number', 'leads.ui.col.created', 'leads.ui.col.name', 'leads.ui.col.type', 'leads.ui.col.budget', 'leads.ui.col.stage', 'leads.ui.col.priority', 'fields.lead.source',
    ]);
  });
});
