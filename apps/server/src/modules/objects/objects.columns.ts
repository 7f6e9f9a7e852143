import { formatReferenceNumber, type TCulture, type TObjectSearchRow } from '@crm/contract';
import { OBJECT_FIELDS, OBJECT_NOT_IN_FILE, OBJECT_SHOWN_BY_NAME, type TFieldDescription } from '@crm/contract/object-fields';
import { objects } from '../../db/schema/index.ts';
import { typeText } from './objects.options.ts';
import { col, objectTitle, oOwner, placeText } from './objects.sql.ts';
import type { Reader } from './objects.service.ts';

/** A property as read for the list or the file: each column's own names (ref, typeId, salePrice…). */
export type ReadRow = Record<string, unknown>;
/** How a column's value is written in Properties.xlsx (and what the list's row holds of it). */
export type ColumnKind = 'reference' | 'text' | 'number' | 'money' | 'flag' | 'dateTime';
/** What the search list's row says of a property (the rest of its row is the map's and the thumbnail's). */
export type ListKey = Exclude<keyof TObjectSearchRow, 'id' | 'ownerId' | 'latitude' | 'longitude' | 'imageId' | 'more'>;

/**
 * One column of the property list: its name in the list's row, the text key of its head, what is
 * read for it, its value, and how the file writes it. The search list (searchObjects) reads and
 * answers the columns `inList`; Properties.xlsx writes every one, in this order, so a column added to
 * the list is in the file too.
 */
export type ObjectColumn = {
  key: string;
  /** The search list's row carries it; the others are what an agent sends or checks in the file. */
  inList: boolean;
  head: string;
  kind: ColumnKind;
  /** Its width in the file, in characters. */
  width: number;
  read: (culture: TCulture) => Record<string, unknown>;
  /** The value the list's row holds (the file writes it by `kind`). */
  value: (r: ReadRow, t: Reader['t']) => string | number | boolean | Date | null;
};

const num = (v: unknown) => (v == null ? null : Number(v));
/** A described field read as it is, under its own name. */
const field = (name: string, kind: ColumnKind, width: number, inList: boolean): ObjectColumn => ({
  key: name,
  inList,
  head: `fields.object.${name}`,
  kind,
  width,
  read: () => ({ [name]: col(name) }),
  value: (r) => (kind === 'flag' ? Boolean(r[name]) : kind === 'number' || kind === 'money' ? num(r[name]) : ((r[name] ?? null) as string | null)),
});

const LISTED: readonly ObjectColumn[] = [
  { key: 'referenceNumber', inList: true, head: 'objects.xlsx.number', kind: 'reference', width: 8, read: () => ({ ref: objects.referenceNumber }), value: (r) => formatReferenceNumber(Number(r.ref)) },
  { key: 'title', inList: true, head: 'fields.object.title', kind: 'text', width: 34, read: (c) => ({ title: objectTitle(c) }), value: (r) => (r.title ?? null) as string | null },
  {
    key: 'type',
    inList: true,
    head: 'objects.col.type',
    kind: 'text',
    width: 20,
    read: () => ({ typeId: col('subTypeObjectTypeId'), subTypeId: col('objectSubTypeId') }),
    value: (r, t) => typeText(t, r.typeId as number | null, r.subTypeId as number | null),
  },
  { key: 'location', inList: true, head: 'objects.col.location', kind: 'text', width: 30, read: (c) => ({ location: placeText(c) }), value: (r) => (r.location ?? null) as string | null },
  field('area', 'number', 10, true),
  ...(['bedrooms', 'bathrooms', 'floor'] as const).map((name) => field(name, 'number', 9, false)),
  ...(['forSale', 'forRent', 'forShortRent'] as const).map((name) => field(name, 'flag', 10, true)),
  ...(['salePrice', 'rentPrice', 'shortRentPrice'] as const).map((name) => field(name, 'money', 14, true)),
  ...(['sold', 'rented', 'published'] as const).map((name) => field(name, 'flag', 10, false)),
  { key: 'owner', inList: true, head: 'objects.col.owner', kind: 'text', width: 26, read: () => ({ owner: oOwner.displayName }), value: (r) => (r.owner ?? null) as string | null },
  { key: 'createdOn', inList: false, head: 'objects.col.createdOn', kind: 'dateTime', width: 17, read: () => ({ createdOn: objects.createdOn }), value: (r) => r.createdOn as Date },
];

/** The described fields the columns above show in their own way (the type and the place by name), and what stays in the CRM. */
const SHOWN_OTHERWISE = OBJECT_SHOWN_BY_NAME;
export const NOT_IN_FILE = OBJECT_NOT_IN_FILE;

/**
 * A described field as a column of its own, written as its type says: a choice by its name in the
 * reader's language, a yes/no feature as Yes or No (blank when not said), a number as a number.
 */
function describedColumn(d: TFieldDescription): ObjectColumn {
  const base = { key: d.name, inList: false, head: `fields.object.${d.name}`, read: () => ({ [d.name]: col(d.name) }) };
  const choice = (t: Reader['t'], v: unknown) => (v == null || v === '' ? null : t(`objects.list.${d.list}.${String(v)}`));
  switch (d.type) {
    case 'number':
    case 'area':
    case 'distance':
      return { ...base, kind: 'number', width: 10, value: (r) => num(r[d.name]) };
    case 'currency':
      return { ...base, kind: 'money', width: 14, value: (r) => num(r[d.name]) };
    case 'boolean':
      return { ...base, kind: 'flag', width: 10, value: (r) => Boolean(r[d.name]) };
    case 'boolNullable':
      return { ...base, kind: 'text', width: 10, value: (r, t) => (r[d.name] === true ? t('common.yes') : r[d.name] === false ? t('common.no') : null) };
    case 'select':
    case 'enum':
      return { ...base, kind: 'text', width: 18, value: (r, t) => (d.list ? choice(t, r[d.name]) : ((r[d.name] ?? null) as string | null)) };
    case 'multi-select':
    case 'flag-enum': {
      const values = (v: unknown) => (Array.isArray(v) ? v : typeof v === 'string' && v ? v.split(',') : []);
      return { ...base, kind: 'text', width: 18, value: (r, t) => values(r[d.name]).map((v) => (d.list ? choice(t, String(v).trim()) : String(v))).join(', ') || null };
    }
    default:
      return { ...base, kind: 'text', width: d.type === 'textarea' ? 40 : 18, value: (r) => (r[d.name] == null || r[d.name] === '' ? null : String(r[d.name])) };
  }
}

/** The main title as typed (the list's title column is the reader's). */
const MAIN_TITLE: ObjectColumn = { key: 'mainTitle', inList: false, head: 'objects.xlsx.mainTitle', kind: 'text', width: 34, read: () => ({ mainTitle: col('title') }), value: (r) => (r.mainTitle ?? null) as string | null };

/**
 * The columns of Properties.xlsx made from a description of a property's fields: the list's, then
 * every other described field but its map and what stays in the CRM (a field added to the
 * description is in the file without a line here).
 */
export const objectColumnsOf = (fields: readonly TFieldDescription[]): ObjectColumn[] => [
  ...LISTED,
  ...fields.filter((d) => d.group !== 'map' && !SHOWN_OTHERWISE.has(d.name) && !NOT_IN_FILE.has(d.name) && !LISTED.some((c) => c.key === d.name)).flatMap((d) =>
    // The list's title is the reader's (an English one in an English file): the main one, as typed, is before the description.
    d.name === 'description' ? [MAIN_TITLE, describedColumn(d)] : [describedColumn(d)],
  ),
];
/** Every column of Properties.xlsx, in its order. */
export const OBJECT_COLUMNS: readonly ObjectColumn[] = objectColumnsOf(OBJECT_FIELDS);

/** What is read for `columns`, in the reader's language. */
export const readColumns = (columns: readonly ObjectColumn[], culture: TCulture): Record<string, unknown> => Object.assign({}, ...columns.map((c) => c.read(culture)));

/** The search list's columns, and its row's values of a property read for them. */
export const LIST_COLUMNS = OBJECT_COLUMNS.filter((c) => c.inList);
export const listValues = (r: ReadRow, t: Reader['t']) => Object.fromEntries(LIST_COLUMNS.map((c) => [c.key, c.value(r, t)])) as unknown as Pick<TObjectSearchRow, ListKey>;

/** The search list's further columns asked for (OBJECT_MORE_COLUMNS: each is a column of the file), in the file's order. */
export const moreColumns = (names: readonly string[]) => OBJECT_COLUMNS.filter((c) => names.includes(c.key));
/** A row's values of further columns: as the file would write them, a date as its agency-time text. */
export const moreValues = (columns: readonly ObjectColumn[], r: ReadRow, t: Reader['t'], dateText: (d: Date) => string) =>
  Object.fromEntries(
    columns.map((c) => {
      const v = c.value(r, t);
      return [c.key, v instanceof Date ? dateText(v) : v];
    }),
  );
