import { describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { ACCOUNT_FIELD_DESCRIPTIONS, OBJECT_FIELDS, OBJECT_GROUPS, ZAccountFields, ZObjectFields } from '@crm/contract';
import { objects } from '../src/db/schema/index.ts';
import { columnName } from '../src/db/schema/objects.ts';

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
