import { describe, expect, it } from 'vitest';
import { DEAL_FIELDS, DEAL_LIST_PARTIES, DEAL_RELATION, OBJECT_FIELDS, type TDealFieldDescription, type TFieldDescription } from '@crm/contract';
import { objectColumnsOf } from '../src/modules/objects/objects.columns.ts';
import { objectImportFields } from '../src/modules/imports/imports.fields.ts';
import { dealColumnsOf } from '../src/modules/deals/deals.xlsx.ts';

/**
 * A field added to the description of properties or deals reaches their spreadsheets with no line
 * of its own: Properties.xlsx and the property import, Deals.xlsx. Here each description gets one
 * field more (the real ones stay as they are); the web's test (apps/web/src/app/field-reach.test.ts)
 * follows it into the forms, the views and the column choosers. Leads have no spreadsheet, and
 * deals are not imported.
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
