import { describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { z } from 'zod';
import {
  ACCOUNT_FIELD_DESCRIPTIONS,
  OBJECT_FIELDS,
  OBJECT_GROUPS,
  STATEMENT_COLUMNS,
  TRANSACTION_FIELDS,
  TRANSACTION_FIELD_BY_NAME,
  TRANSACTION_GROUPS,
  TRANSACTION_RANGES,
  TRANSACTION_TYPES,
  ZAccountFields,
  ZExpenseForm,
  ZExpenseFormData,
  ZIncomeForm,
  ZIncomeFormData,
  ZObjectFields,
  ZStatementAnswer,
  listValuesOf,
  statementHeadKey,
  transactionFieldsOf,
  type TTransactionFieldDescription,
  type TTransactionType,
} from '@crm/contract';
import { objects, transactions } from '../src/db/schema/index.ts';
import { columnName } from '../src/db/schema/objects.ts';
import { columnDefaultOf, isNotNullColumn } from '../src/db/schema/payments.ts';
import { createTestApp } from './harness.ts';

// The declarative field descriptions are the one source of each entity's fields: these checks
// fail when the description, the contract's schema and the table drift apart.
describe('field descriptions', () => {
  it('describe exactly the fields of the account contract, each once', () => {
    const names = ACCOUNT_FIELD_DESCRIPTIONS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(ZAccountFields.shape).sort());
  });

  it('make the object schema and the objects table: one column per described field', () => {
    const names = OBJECT_FIELDS.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(ZObjectFields.shape).sort()).toEqual([...names].sort());
    const columns = getTableColumns(objects) as Record<string, { name: string }>;
    for (const d of OBJECT_FIELDS) expect(columns[d.name]?.name, d.name).toBe(columnName(d.name));
    for (const d of OBJECT_FIELDS) expect(OBJECT_GROUPS).toContain(d.group);
  });

  it('refuse values outside a field’s limits in the object schema', () => {
    expect(ZObjectFields.shape.mapCircleRadius!.safeParse(39).success).toBe(false);
    expect(ZObjectFields.shape.mapCircleRadius!.safeParse(2500).success).toBe(true);
    expect(ZObjectFields.shape.mapCircleRadius!.safeParse(2505).success).toBe(false);
    expect(ZObjectFields.shape.bedrooms!.safeParse(2.5).success).toBe(false);
    expect(ZObjectFields.shape.dateAvailable!.safeParse('2026-02-30').success).toBe(false);
    expect(ZObjectFields.shape.orientation!.safeParse([1, 3]).success).toBe(true);
  });
});

// Transactions (income and expense): the description makes the forms' answers and lists, the
// save's form-data fields and the table's columns; the spec fixes some of those shapes on the wire.
describe('transaction field descriptions', () => {
  const described = TRANSACTION_FIELDS as readonly TTransactionFieldDescription[];
  const kinds = TRANSACTION_TYPES;
  const names = (kind: TTransactionType) => transactionFieldsOf(kind).map((d) => d.name);
  const keysOf = (s: { shape: object }) => Object.keys(s.shape).sort();

  it('name each field once, in a group, for income, expense or both, with a list that has values for those kinds', () => {
    const all = described.map((d) => d.name);
    expect(new Set(all).size).toBe(all.length);
    for (const d of described) {
      expect(TRANSACTION_GROUPS, d.name).toContain(d.group);
      expect(d.kinds.length, d.name).toBeGreaterThan(0);
      for (const k of d.kinds) expect(kinds, d.name).toContain(k);
      // A select has a list of values, or references records (an integer id: the owner's property).
      expect(d.type === 'select', d.name).toBe(d.list !== undefined || d.references !== undefined);
      if (d.list) for (const k of d.kinds) expect(listValuesOf(d.list, k).length, `${d.name} ${k}`).toBeGreaterThan(0);
      if (d.default !== undefined) for (const k of d.kinds) expect(listValuesOf(d.list!, k), `${d.name} default`).toContain(d.default);
    }
    for (const [from, to] of TRANSACTION_RANGES) expect(TRANSACTION_FIELD_BY_NAME.get(from)!.kinds).toEqual(TRANSACTION_FIELD_BY_NAME.get(to)!.kinds);
  });

  it('make each form: its updateFields are the record’s own fields and the kind’s described fields, its lists those of its selects', () => {
    for (const [kind, form] of [
      ['income', ZIncomeForm],
      ['expense', ZExpenseForm],
    ] as const) {
      expect(keysOf(form.shape.updateFields), kind).toEqual(['accountId', 'id', 'version', ...names(kind)].sort());
      expect(keysOf(form.shape.lists), kind).toEqual(transactionFieldsOf(kind).flatMap((d) => (d.list ? [d.list] : [])).sort());
      // A blank form has a value for a field with a default; others may be null until chosen.
      for (const d of transactionFieldsOf(kind)) {
        const nullable = (form.shape.updateFields.shape as Record<string, z.ZodType>)[d.name]!.safeParse(null).success;
        expect(nullable, `${kind} ${d.name}`).toBe(d.type !== 'money' && d.type !== 'date-time' && d.default === undefined);
      }
    }
    expect(keysOf(ZStatementAnswer.shape.lists)).toEqual(described.flatMap((d) => (d.list ? [d.list] : [])).sort());
  });

  it('keep the wire shapes the spec fixes: the income form’s updateFields and lists, the expense’s additions', () => {
    const props = (s: z.ZodType) => (z.toJSONSchema(s, { io: 'output' }) as { properties: Record<string, unknown> }).properties;
    const num = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 };
    const numOrNull = { anyOf: [num, { type: 'null' }] };
    const textOrNull = { type: ['string', 'null'] };
    // Spec 001, 3: Income form updateFields (amount, transactionDate, paymentMethod, categoryId,
    // internalNotes); Expense form: the same plus status, paymentDate, expirationDate, startDate, endDate.
    expect(props(ZIncomeForm.shape.updateFields)).toMatchObject({ amount: { type: 'string' }, transactionDate: { type: 'string' }, paymentMethod: num, categoryId: numOrNull, internalNotes: textOrNull });
    expect(props(ZExpenseForm.shape.updateFields)).toMatchObject({ status: num, paymentDate: textOrNull, expirationDate: textOrNull, startDate: textOrNull, endDate: textOrNull });
    expect(Object.keys(ZIncomeForm.shape.lists.shape)).toEqual(expect.arrayContaining(['paymentMethod', 'categoryId']));
    expect(Object.keys(ZExpenseForm.shape.lists.shape)).toEqual(expect.arrayContaining(['paymentMethod', 'categoryId', 'status']));
  });

  it('make the save’s form-data fields: the described ones of the kind, each checked as its type, limits and list say', () => {
    const record = ['accountId', 'attachments', 'id', 'version'];
    expect(keysOf(ZIncomeFormData)).toEqual([...record, ...names('income')].sort());
    expect(keysOf(ZExpenseFormData)).toEqual([...record, ...names('expense')].sort());
    for (const [kind, schema] of [
      ['income', ZIncomeFormData],
      ['expense', ZExpenseFormData],
    ] as const) {
      const shape = schema.shape as Record<string, z.ZodType>;
      for (const d of transactionFieldsOf(kind)) {
        const ok = (v: string | undefined) => shape[d.name]!.safeParse(v).success;
        expect(ok(undefined), `${kind} ${d.name} left out`).toBe(!d.required);
        if (d.list) {
          for (const v of listValuesOf(d.list, kind)) expect(ok(String(v)), `${kind} ${d.name} ${v}`).toBe(true);
          const others = kinds.flatMap((k) => listValuesOf(d.list!, k)).filter((v) => !listValuesOf(d.list!, kind).includes(v));
          for (const v of [...others, 999]) expect(ok(String(v)), `${kind} ${d.name} ${v}`).toBe(false);
        }
        if (d.max) {
          expect(ok('x'.repeat(d.max)), `${kind} ${d.name} at its limit`).toBe(true);
          expect(ok('x'.repeat(d.max + 1)), `${kind} ${d.name} past its limit`).toBe(false);
        }
        if (d.type === 'money') {
          for (const v of ['1.234,56', '1234.56', '1 234,56', '0,01', '1.234', '1,234.56']) expect(ok(v), `${d.name} ${v}`).toBe(true);
          for (const v of ['0', '-5', '10.0055', '1.234,567', '1e3', '1234567890123', '1.2.3']) expect(ok(v), `${d.name} ${v}`).toBe(false);
        }
        if (d.type === 'date-time') {
          expect(ok('2026-03-01T10:30:00'), d.name).toBe(true);
          for (const v of ['2026-03-01', '2026-03-01T10:30', '2026-02-30T10:30:00', '2026-03-01T24:00:00']) expect(ok(v), `${d.name} ${v}`).toBe(false);
        }
        if (d.type === 'date') for (const [v, good] of [['2026-03-01', true], ['2026-13-01', false], ['', true]] as const) expect(ok(v), `${d.name} ${v}`).toBe(good);
      }
    }
  });

  it('make the transactions table: one column per described field, of its type, NOT NULL and defaults as described', () => {
    const columns = getTableColumns(transactions) as unknown as Record<string, { name: string; getSQLType(): string; notNull: boolean; default: unknown }>;
    const sqlType: Record<TTransactionFieldDescription['type'], string> = {
      money: 'numeric(14, 2)',
      'date-time': 'timestamp with time zone',
      select: 'smallint',
      date: 'date',
      text: 'text',
      textarea: 'text',
    };
    for (const d of described) {
      const c = columns[d.name]!;
      expect(c?.name, d.name).toBe(columnName(d.name));
      expect(c.getSQLType(), d.name).toBe(d.references ? 'integer' : sqlType[d.type]);
      expect(c.notNull, d.name).toBe(isNotNullColumn(d));
      expect(c.default, d.name).toBe(columnDefaultOf(d));
    }
    // Every other column is the record's own (set by the system, never typed into a form; the running balance by the triggers of migration 0114).
    const own = ['id', 'referenceNumber', 'accountId', 'type', 'approvalRequestedOn', 'approvalTokenHash', 'confirmedByClientDate', 'createdOn', 'createdBy', 'modifiedOn', 'modifiedBy', 'version', 'balance'];
    expect(Object.keys(columns).sort()).toEqual([...own, ...described.map((d) => d.name)].sort());
  });

  it('match the migrated database: a field added without its migration fails here', async () => {
    const t = await createTestApp();
    try {
      const res = await t.pool.query<{ column_name: string; data_type: string; numeric_precision: number | null; numeric_scale: number | null; is_nullable: 'YES' | 'NO'; column_default: string | null }>(
        `select column_name, data_type, numeric_precision, numeric_scale, is_nullable, column_default from information_schema.columns where table_schema = 'public' and table_name = 'transactions'`,
      );
      const stored = new Map(res.rows.map((r) => [r.column_name, r]));
      const columns = getTableColumns(transactions) as unknown as Record<string, { getSQLType(): string }>;
      for (const d of described) {
        const c = stored.get(columnName(d.name));
        expect(c, `${d.name}: no column ${columnName(d.name)} (npm run db:generate -w @crm/server)`).toBeDefined();
        // The table's type (checked against the description above), as PostgreSQL names it.
        expect(c!.data_type, d.name).toBe(columns[d.name]!.getSQLType().replace(/\(.*\)$/, ''));
        if (d.type === 'money') expect([c!.numeric_precision, c!.numeric_scale], d.name).toEqual([14, 2]);
        expect(c!.is_nullable, d.name).toBe(isNotNullColumn(d) ? 'NO' : 'YES');
        const def = columnDefaultOf(d);
        expect(c!.column_default, d.name).toBe(def === undefined ? null : String(def));
      }
    } finally {
      await t.app.close();
    }
  });

  it('name in the statement only fields the client may read, and a text for each of its columns', () => {
    for (const c of STATEMENT_COLUMNS) {
      const d = TRANSACTION_FIELD_BY_NAME.get(c);
      if (d) expect(d.staffOnly, c).toBeFalsy();
      else expect(statementHeadKey(c), c).toBe(`payments.col.${c}`);
    }
    for (const d of described.filter((x) => x.staffOnly)) expect(STATEMENT_COLUMNS as readonly string[]).not.toContain(d.name);
  });
});
