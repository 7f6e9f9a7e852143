import { sql, type SQL } from 'drizzle-orm';
import { SEARCH_MAX_HITS, type TCulture } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { locations } from '../../db/schema/index.ts';
import { MAIN_PLACE_KEYS } from '../../db/seed/locations-data.ts';
import { collationOf } from '../accounts/accounts.lists.ts';
import { escapeLike, latinReadings } from '../accounts/accounts.sql.ts';

/** The column holding a place's text (with its parents) in the reader's language. */
export const locationTextColumn = (culture: TCulture | string | undefined) =>
  culture === 'el' ? locations.textEl : culture === 'ru' ? locations.textRu : locations.textEn;

const textColumnName = (culture: TCulture | string | undefined) => `text_${culture === 'el' || culture === 'ru' ? culture : 'en'}`;
const aliasedText = (alias: string, culture: TCulture | string | undefined) => sql.raw(`${alias}.${textColumnName(culture)}`);

/**
 * The text of the place with id `locationId` (a column or expression of the outer statement) in the
 * reader's language, "Καραμπουρνάκι, Καλαμαριά, Θεσσαλονίκη"; null for no place. One primary-key
 * lookup per row of the outer statement: use it on a page of rows, or join `locations` yourself.
 */
export const locationText = (locationId: SQL | { getSQL(): SQL }, culture: TCulture | string | undefined) =>
  sql<string | null>`(select ${aliasedText('l_t', culture)} from ${locations} l_t where l_t.id = ${locationId})`;

/**
 * `locationId` is the place `id` or one of its sub-places (a municipality includes its areas): the
 * search filter "in this place". The GIN index on `locations.path` answers it.
 */
export const locationWithin = (locationId: SQL | { getSQL(): SQL }, id: number) =>
  sql`${locationId} in (select l_w.id from ${locations} l_w where l_w.path @> array[${id}::int])`;

/** The ids of a place and all its sub-places (empty for an unknown id). */
export async function locationAndDescendants(db: Db, id: number): Promise<number[]> {
  const rows = (await db.execute(sql`select id from ${locations} where path @> array[${id}::int] order by id`)).rows as { id: number }[];
  return rows.map((r) => r.id);
}

/** The municipality whose seat (a place of the same name under it) `place` is, else null: SQL, for placesCovered and matching. */
export const seatMunicipalityOf = (place: SQL) => sql`(select seat.parent_id from locations seat join locations town on town.id = seat.parent_id
  where seat.id = ${place} and seat.name_el = town.name_el)`;

/**
 * Place `alias` has a seat (a place of the same name under it: Καλαμαριά in the municipality of
 * Καλαμαριά). The seat stands for it (placesCovered), so the place is offered once: as the seat.
 */
const hasSeat = (alias: string) => sql.raw(`exists (select 1 from locations seat where seat.parent_id = ${alias}.id and seat.name_el = ${alias}.name_el)`);
/** Place `alias` is the seat of the place above it (offered instead of it, where that is offered). */
const isSeat = (alias: string) => sql.raw(`exists (select 1 from locations town where town.id = ${alias}.parent_id and town.name_el = ${alias}.name_el)`);

/**
 * The places a search for place `id` covers: the place and those under it, and when the place is
 * the seat of a municipality of the same name (Καλαμαριά in the municipality of Καλαμαριά), the
 * whole municipality. The picker writes the municipality's neighbourhoods "Αρετσού, Καλαμαριά", so
 * an agent who picks "Καλαμαριά" means them too. Matching reads places the same way.
 */
export async function placesCovered(db: Db, id: number): Promise<number[]> {
  const rows = (await db.execute(sql`select id from ${locations} where path @> array[coalesce(${seatMunicipalityOf(sql`${id}::int`)}, ${id}::int)] order by id`)).rows as { id: number }[];
  return rows.map((r) => r.id);
}

const hasGreekOrCyrillic = (s: string) => /[\u0370-\u03ff\u1f00-\u1fff\u0400-\u04ff]/.test(s);

/** The Latin skeletons a typed Latin text stands for (latinReadings: as typed, and as Greeklish). */
const skeletons = (text: string): SQL[] => latinReadings(text).map((v) => sql`crm_latin_skeleton(${v})`);

/** `column` holds a skeleton of the text, for a skeleton of three letters or more. */
const skeletonIn = (column: SQL, text: string, pattern: (skel: SQL) => SQL) =>
  sql.join(
    skeletons(text).map((skel) => sql`(length(${skel}) >= 3 and ${column} like ${pattern(skel)})`),
    sql` or `,
  );

/** One typed word matched against a search text: as typed (normal form), or for Latin letters also by its Latin skeleton. */
function wordMatches(column: SQL, word: string): SQL {
  const asTyped = sql`${column} like '%' || crm_search_norm(${escapeLike(word)}) || '%'`;
  if (hasGreekOrCyrillic(word)) return asTyped;
  return sql`(${asTyped} or ${skeletonIn(column, word, (skel) => sql`'%' || ${skel} || '%'`)})`;
}

/**
 * GET /api/location/search: at most 20 places whose names (Greek, English or Russian, accents and
 * case ignored; Greeklish and transliterated text by the Latin skeleton) contain the typed text.
 * Several words narrow by the parents too ("kallithea kassandra"). Places whose own name starts with
 * the text come first, then those with a word starting with it, then the rest; bigger places first,
 * then by text in the reader's language.
 */
export async function searchLocations(db: Db, searchStr: string, culture: TCulture) {
  const text = searchStr.replace(/\s+/g, ' ').trim();
  if (!text) return { items: [] };
  const words = text.split(' ').slice(0, 6);
  const textCol = aliasedText('l', culture);
  const own = sql`l.search_text`;
  const pathText = sql`ps.text`;
  const latin = !hasGreekOrCyrillic(text);
  const norm = sql`crm_search_norm(${escapeLike(text)})`;
  const nameStarts = (name: string) => {
    const col = sql.raw(`l.${name}`);
    const asTyped = sql`crm_search_norm(${col}) like ${norm} || '%'`;
    return latin ? sql`(${asTyped} or ${skeletonIn(sql`crm_latin_skeleton(${col})`, text, (skel) => sql`${skel} || '%'`)})` : asTyped;
  };
  const wordStarts = latin
    ? sql`(' ' || ${own} like '% ' || ${norm} || '%' or ${skeletonIn(sql`' ' || ${own}`, text, (skel) => sql`'% ' || ${skel} || '%'`)})`
    : sql`' ' || ${own} like '% ' || ${norm} || '%'`;
  const rows = (
    await db.execute(sql`
      select l.id, ${textCol} as text
      from ${locations} l
      left join ${locations} p1 on p1.id = l.parent_id
      left join ${locations} p2 on p2.id = p1.parent_id
      cross join lateral (select concat_ws(' ', l.search_text, p1.search_text, p2.search_text) as text) ps
      where ${sql.join(
        words.map((w) => wordMatches(pathText, w)),
        sql` and `,
      )}
        and not ${hasSeat('l')}
      order by
        case when ${nameStarts('name_el')} or ${nameStarts('name_en')} or ${nameStarts('name_ru')} then 0
             when ${wordStarts} then 1
             when ${wordMatches(own, text)} then 2
             else 3 end,
        l.level, ${textCol} collate ${collationOf(culture)}, l.id
      limit ${SEARCH_MAX_HITS}`)
  ).rows as { id: number; text: string }[];
  return { items: rows.map((r) => ({ id: r.id, text: r.text })) };
}

/** How many places getTopLocations offers. */
export const TOP_LOCATIONS = 10;

/**
 * GET /api/object/getTopLocations: the municipalities and areas with the most objects (an object
 * counts for its place and every place above it), with their counts; while the agency has few
 * objects, the main markets fill the list (count 0 where there are none).
 */
export async function topLocations(db: Db, culture: TCulture) {
  const textCol = aliasedText('l', culture);
  const mainKeys = sql`${`{${MAIN_PLACE_KEYS.join(',')}}`}::text[]`;
  const rows = (
    await db.execute(sql`
      with per_place as (
        select location_id, count(*)::int as n from objects where location_id is not null group by location_id
      ), per_area as (
        select a.id, sum(pp.n)::int as n
        from per_place pp join ${locations} l on l.id = pp.location_id cross join unnest(l.path) as a(id)
        group by a.id
      )
      -- A place with a seat is offered as its seat (the name agents use), with the whole place's count.
      select coalesce(seat.id, l.id) as id, coalesce(${aliasedText('seat', culture)}, ${textCol}) as text, coalesce(pa.n, 0)::int as objects
      from ${locations} l left join per_area pa on pa.id = l.id
        left join ${locations} seat on seat.parent_id = l.id and seat.name_el = l.name_el
      where l.level >= 2 and (pa.n > 0 or l.key = any(${mainKeys})) and not (l.level >= 3 and ${isSeat('l')})
      order by coalesce(pa.n, 0) desc,
        array_position(${mainKeys}, l.key) nulls last,
        ${textCol} collate ${collationOf(culture)}, l.id
      limit ${TOP_LOCATIONS}`)
  ).rows as { id: number; text: string; objects: number }[];
  return { locations: rows };
}
