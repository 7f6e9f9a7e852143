import { sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { OBJECT_SUBTYPES, OBJECT_LISTS } from '@crm/contract';
import { accounts, locations, objectColumns, objects, users } from '../../db/schema/index.ts';

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
 * The type shown in lists (subtype, else type) as SQL, for sorting by it in the reader's language:
 * the texts are parameters indexed by id.
 */
export function typeTextSql(t: (key: string) => string): SQL<string> {
  const maxSub = Math.max(...OBJECT_SUBTYPES.map((s) => s.value));
  const subs = Array.from({ length: maxSub }, (_, i) => t(`objects.list.objectSubTypes.${i + 1}`));
  const maxType = Math.max(...OBJECT_LISTS.objectTypes);
  const types = Array.from({ length: maxType }, (_, i) => t(`objects.list.objectTypes.${i + 1}`));
  return sql<string>`coalesce((${sql.param(subs)}::text[])[${col('objectSubTypeId')}], (${sql.param(types)}::text[])[${col('subTypeObjectTypeId')}], '')`;
}

/** "0042": the reference number as shown. */
export const refText = sql<string>`lpad(${objects.referenceNumber}::text, 4, '0')`;

/** The first photo of an object (files of type image in their order). */
export const firstImageId = sql<number | null>`(select f.id from files f
  where f.parent_type = 1 and f.parent_id = ${objects.id} and f.type = 'image' order by f.sort_order, f.id limit 1)`;
