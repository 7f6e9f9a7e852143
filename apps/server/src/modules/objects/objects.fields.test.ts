import { describe, expect, it } from 'vitest';
import { OBJECT_EDITABLE_FIELDS, OBJECT_FIELDS, OBJECT_SEARCH_ROW_FIELDS, OBJECT_SHOWN_BY_NAME } from '@crm/contract/object-fields';
import { OBJECT_MORE_COLUMNS, ZObjectFields, ZObjectSearchRow } from '@crm/contract';
import { objectColumns } from '../../db/schema/index.ts';
import { readLocaleFiles } from '../../db/seed/index.ts';
import { OBJECT_GROUPS_LEFT_OUT, OBJECT_LEFT_OUT, importFields } from '../imports/imports.fields.ts';
import { NOT_IN_FILE, OBJECT_COLUMNS } from './objects.columns.ts';

/**
 * A field added to a property's description (packages/contract/src/object-fields.ts) needs only its
 * column (a generated migration) and its label in three languages: the form and the view draw it
 * from the description, and so do the places this test walks. A field the description has and one of
 * them does not fails here, unless that place leaves it out by name, with the reason beside the name.
 */
describe("a property's described fields", () => {
  const texts = readLocaleFiles();
  const editable = OBJECT_EDITABLE_FIELDS.filter((d) => d.group !== 'map');

  it('each have a database column, a check in the API, and a label in English, Greek and Russian', () => {
    expect(OBJECT_FIELDS.filter((d) => !objectColumns[d.name]).map((d) => d.name)).toEqual([]);
    expect(OBJECT_EDITABLE_FIELDS.filter((d) => !(d.name in ZObjectFields.shape)).map((d) => d.name)).toEqual([]);
    for (const { culture, texts: t } of texts) expect(OBJECT_FIELDS.filter((d) => !t[`fields.object.${d.name}`]).map((d) => d.name), culture).toEqual([]);
  });

  it('are each a column of Properties.xlsx, but what stays in the CRM', () => {
    const inFile = new Set(OBJECT_COLUMNS.map((c) => c.key));
    const shownByName = new Set(['subTypeObjectTypeId', 'objectSubTypeId', 'locationId']);
    expect(editable.filter((d) => !inFile.has(d.name) && !shownByName.has(d.name) && !NOT_IN_FILE.has(d.name)).map((d) => d.name)).toEqual([]);
    // The file's heads are the fields' labels.
    expect(OBJECT_COLUMNS.filter((c) => c.head.startsWith('fields.object.')).every((c) => c.head === `fields.object.${c.key}`)).toBe(true);
  });

  it("are each a column of the property search list or offered in its column chooser, but what stays in the CRM", () => {
    const inRow = new Set(Object.keys(ZObjectSearchRow.shape));
    const offered = new Set(OBJECT_MORE_COLUMNS);
    expect(editable.filter((d) => !inRow.has(d.name) && !offered.has(d.name) && !OBJECT_SHOWN_BY_NAME.has(d.name) && !NOT_IN_FILE.has(d.name)).map((d) => d.name)).toEqual([]);
    // Each one offered is a column the file writes (the server reads it the same way).
    expect(OBJECT_MORE_COLUMNS.filter((n) => !OBJECT_COLUMNS.some((c) => c.key === n))).toEqual([]);
    // The row's described fields as the chooser leaves them out are the row's own.
    expect([...OBJECT_SEARCH_ROW_FIELDS].sort()).toEqual(OBJECT_FIELDS.filter((d) => d.group !== 'map' && inRow.has(d.name)).map((d) => d.name).sort());
  });

  it('can each be brought in from a spreadsheet, but the publishing switches and the map', () => {
    const imported = new Set(importFields('objects').map((f) => f.name));
    expect(editable.filter((d) => !imported.has(d.name) && !OBJECT_LEFT_OUT.has(d.name) && !OBJECT_GROUPS_LEFT_OUT.has(d.group)).map((d) => d.name)).toEqual([]);
  });
});
