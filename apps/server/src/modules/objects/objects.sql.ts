import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { OBJECT_SUBTYPES, OBJECT_LISTS, OBJECT_TITLE_ORDER, cultureOf, type TObjectTitleField } from '@crm/contract';
import { accounts, locations, objectColumns, objects, users } from '../../db/schema/index.ts';
import { refDigits } from '../../lib/reference-number.ts';

/** SQL pieces of the objects' lists and records: who created / changed them, place, type, owner. */
export const oCreator = alias(users, 'ocu');
export const oCreatorAccount = alias(accounts, 'ocua');
export const oModifier = alias(users, 'omu');
export const oModifierAccount = alias(accounts, 'omua');
export const oPlace = alias(locations, 'opl');
export const oPlaceParent = alias(locations, 'oplp');
export const oOwner = alias(accounts, 'oow');

export const col = (field: string) => objectColumns[field]!;

/** The joins behind the names below, for statements written as SQL. */
export const objectJoins = sql`
  left join ${users} as ${sql.identifier('ocu')} on ${oCreator.id} = ${objects.createdBy}
  left join ${accounts} as ${sql.identifier('ocua')} on ${oCreatorAccount.id} = ${oCreator.accountId}
  left join ${users} as ${sql.identifier('omu')} on ${oModifier.id} = ${objects.modifiedBy}
  left join ${accounts} as ${sql.identifier('omua')} on ${oModifierAccount.id} = ${oModifier.accountId}
  left join ${locations} as ${sql.identifier('opl')} on ${oPlace.id} = ${col('locationId')}
  left join ${locations} as ${sql.identifier('oplp')} on ${oPlaceParent.id} = ${oPlace.parentId}
  left join ${accounts} as ${sql.identifier('oow')} on ${oOwner.id} = ${objects.ownerId}`;

export const objectCreatedBy = sql<string | null>`coalesce(${oCreatorAccount.displayName}, ${oCreator.username})`;
export const objectModifiedBy = sql<string | null>`coalesce(${oModifierAccount.displayName}, ${oModifier.username})`;

const NAME_COLUMN: Record<string, string> = { en: 'name_en', el: 'name_el', ru: 'name_ru' };
/**
 * The place in the reader's language as the seed writes it with its parents ("Καραμπουρνάκι,
 * Καλαμαριά, Θεσσαλονίκη"); for a place without that text, its name and its parent's.
 */
export function placeText(culture: string | undefined): SQL<string> {
  const c = NAME_COLUMN[culture ?? 'en'] ? (culture ?? 'en') : 'en';
  const name = NAME_COLUMN[c]!;
  const place = sql.raw(`"opl".${name}`);
  const parent = sql.raw(`"oplp".${name}`);
  const full = sql.raw(`"opl".text_${c}`);
  return sql<string>`coalesce(nullif(${full}, ''), concat_ws(', ', ${place}, nullif(${parent}, ${place})), '')`;
}

/**
 * The place an object (the statement's `objects`) is in, by its own name in the reader's language
 * ("Γλυφάδα", not its municipality and prefecture): the short name a card can head with.
 */
export function placeName(culture: string | undefined): SQL<string | null> {
  const name = sql.raw(NAME_COLUMN[culture ?? 'en'] ?? NAME_COLUMN.en!);
  return sql<string | null>`(select nullif(btrim(l.${name}), '') from ${locations} l where l.id = ${objects}.location_id)`;
}

const TITLE_COLUMNS: Record<TObjectTitleField, string> = { title: 'title', titleEn: 'title_en', titleRu: 'title_ru' };
/**
 * The object's title as its reader reads it: the reader's own title first, then the others, in the
 * order of OBJECT_TITLE_ORDER (en: the English title, then the main one, then the Russian; el: the
 * main one first; ru: the Russian first), a blank one skipped; null only when the object has no title at all. Every list, picker and
 * record that names an object to a signed-in reader selects this, never `title` itself. It is only
 * ever selected, never sorted or filtered on (search reads `search_text`, which holds both titles).
 * `table` is the alias the statement gives objects (`o`); without one, the objects table.
 */
export function objectTitle(culture: string | undefined, table?: string): SQL<string | null> {
  // Written out once per language and alias, and reused as text: it holds no values, and every
  // list page and record selects it (the text is the one drizzle built from its parts each time).
  const c = cultureOf(culture);
  const key = `${c} ${table ?? 'objects'}`;
  let title = titles.get(key);
  if (!title) {
    const order = OBJECT_TITLE_ORDER[c];
    const column = (field: TObjectTitleField) => `nullif(btrim(${quoted(table ?? 'objects')}.${quoted(TITLE_COLUMNS[field])}), '')`;
    title = `coalesce(${order.map(column).join(', ')})`;
    titles.set(key, title);
  }
  // A new SQL object each time (a caller may give it a decoder of its own), over the kept text.
  return sql.raw(title) as SQL<string | null>;
}
const titles = new Map<string, string>();
/** An identifier as PostgreSQL reads it (drizzle's sql.identifier spells it the same way). */
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** "0042": the reference number as shown. */
export const refText = refDigits(sql`${objects.referenceNumber}`);

/** The first photo of an object (files of type image in their order). */
export const firstImageId = sql<number | null>`(select f.id from files f
  where f.parent_type = 1 and f.parent_id = ${objects.id} and f.type = 'image' order by f.sort_order, f.id limit 1)`;

const collators = new Map<string, Intl.Collator>();
const collatorOf = (culture: string) => {
  let c = collators.get(culture);
  if (!c) collators.set(culture, (c = new Intl.Collator(culture, { sensitivity: 'base', numeric: true })));
  return c;
};

/**
 * Ranks of texts in the reader's alphabet, as an array indexed by id (1-based): sorting a list by
 * a small set of texts (types, places) compares integers in SQL instead of collating text per row.
 */
export function rankArray(culture: string, entries: { id: number; text: string }[]): number[] {
  const coll = collatorOf(culture);
  const sorted = [...entries].sort((a, b) => coll.compare(a.text, b.text) || a.id - b.id);
  const max = entries.reduce((m, e) => Math.max(m, e.id), 0);
  const ranks = Array.from({ length: max }, () => 0);
  sorted.forEach((e, i) => (ranks[e.id - 1] = i + 1));
  return ranks;
}

/** The type shown in lists, as a rank in the reader's alphabet (no type first). */
export function typeRankSql(t: (key: string) => string, culture: string): SQL<number> {
  const texts = [
    ...OBJECT_SUBTYPES.map((s) => ({ id: s.value, text: t(`objects.list.objectSubTypes.${s.value}`), sub: true })),
    ...OBJECT_LISTS.objectTypes.map((v) => ({ id: v, text: t(`objects.list.objectTypes.${v}`), sub: false })),
  ];
  // one ranking over subtypes and types together: an object without subtype shows its type
  const all = texts.map((e, i) => ({ id: i + 1, text: e.text }));
  const ranks = rankArray(culture, all);
  const subs = Array.from({ length: Math.max(...OBJECT_SUBTYPES.map((s) => s.value)) }, () => 0);
  const types = Array.from({ length: Math.max(...OBJECT_LISTS.objectTypes) }, () => 0);
  texts.forEach((e, i) => ((e.sub ? subs : types)[e.id - 1] = ranks[i]!));
  return sql<number>`coalesce((${sql.param(subs)}::int[])[${col('objectSubTypeId')}], (${sql.param(types)}::int[])[${col('subTypeObjectTypeId')}], 0)`;
}

/** The objects with everything the rows show joined (the planner drops joins nothing reads). */
export function fromObjects(db: Db | Tx, columns: Record<string, unknown>) {
  return db
    .select(columns as never)
    .from(objects)
    .leftJoin(oCreator, eq(oCreator.id, objects.createdBy))
    .leftJoin(oCreatorAccount, eq(oCreatorAccount.id, oCreator.accountId))
    .leftJoin(oModifier, eq(oModifier.id, objects.modifiedBy))
    .leftJoin(oModifierAccount, eq(oModifierAccount.id, oModifier.accountId))
    .leftJoin(oPlace, eq(oPlace.id, col('locationId')))
    .leftJoin(oPlaceParent, eq(oPlaceParent.id, oPlace.parentId))
    .leftJoin(oOwner, eq(oOwner.id, objects.ownerId));
}
