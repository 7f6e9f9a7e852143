import type { FastifyInstance } from 'fastify';
import { and, eq, gte, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { CULTURES, OBJECT_SUBTYPES, formatReferenceNumber, plainText, type TObjectRow, type TObjectSearch, type TObjectSearchRow, type TSearchHit } from '@crm/contract';
import type { z } from 'zod';
import type { ZObjectListQuery } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { accounts, locations, objects } from '../../db/schema/index.ts';
import { fieldError } from '../../lib/errors.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import { inIdOrder, idAmong } from '../../lib/paging.ts';
import { placesCovered } from '../locations/locations.service.ts';
import { countListed, keptListedCount, notDraft } from '../../lib/drafts.ts';
import { collationOf } from '../accounts/accounts.lists.ts';
import { containsPattern, escapeLike, latinMatch, latinMatchReadings } from '../accounts/accounts.sql.ts';
import type { SearchProvider } from '../shell/shell.routes.ts';
import type { Reader } from './objects.service.ts';
import { typeText } from './objects.options.ts';
import { LIST_COLUMNS, listValues, moreColumns, moreValues, readColumns, type ReadRow } from './objects.columns.ts';
import {
  col,
  fromObjects,
  firstImageId,
  objectTitle,
  oOwner,
  oPlace,
  oPlaceParent,
  objectCreatedBy,
  objectModifiedBy,
  placeText,
  rankArray,
  typeRankSql,
} from './objects.sql.ts';

/** How many objects the map answer holds at most (the rest are counted in totalRows). */
export const MAP_MAX_OBJECTS = 2000;

type ListQuery = z.output<typeof ZObjectListQuery>;

/** Every place's id in the order of its shown text in the reader's language (a few hundred rows). */
async function placesInOrder(db: Db, culture: string): Promise<number[]> {
  const c = ['en', 'el', 'ru'].includes(culture) ? culture : 'en';
  const { rows } = await db.execute<{ id: number; text: string }>(sql`
    select l.id, coalesce(nullif(${sql.raw(`l.text_${c}`)}, ''), concat_ws(', ', ${sql.raw(`l.name_${c}`)}, nullif(${sql.raw(`p.name_${c}`)}, ${sql.raw(`l.name_${c}`)})), '') as text
    from locations l left join locations p on p.id = l.parent_id`);
  const ranks = rankArray(c, rows.map((r) => ({ id: Number(r.id), text: r.text })));
  return ranks
    .map((rank, i) => ({ id: i + 1, rank }))
    .filter((e) => e.rank > 0)
    .sort((a, b) => a.rank - b.rank)
    .map((e) => e.id);
}

/** One ordered part of a list: its first `limit` ids. */
type Segment = (limit: number) => Promise<number[]>;

/**
 * The ids of rows offset..offset+perPage of the parts read one after the other. A sort by a
 * joined name or a place is read part by part from indexes (owners in name order, each with its
 * objects; places in order, each with its objects), so the first pages cost a few index probes
 * instead of collating every object's joined text.
 */
async function pageOfSegments(segments: Segment[], offset: number, perPage: number): Promise<number[]> {
  const want = offset + perPage;
  const ids: number[] = [];
  for (const segment of segments) {
    if (ids.length >= want) break;
    ids.push(...(await segment(want - ids.length)));
  }
  return ids.slice(offset, want);
}

const idsOf = (rows: unknown) => (rows as { rows: { id: number }[] }).rows.map((r) => Number(r.id));

/** The page's ids when sorting by owner (objects without an owner last) or by place (without a place first going up). */
async function segmentedPage(db: Db, q: ListQuery, reader: Reader): Promise<number[] | null> {
  const asc = q.sortDir === 'asc';
  const dir = sql.raw(asc ? 'asc' : 'desc');
  const offset = (q.currentPage - 1) * q.perPage;
  const listed = notDraft('objects', objects.id);
  if (q.sortBy === 'owner') {
    const collate = collationOf(reader.culture);
    const owned: Segment = async (n) =>
      idsOf(
        await db.execute(sql`
          select o.id from ${accounts} ow cross join lateral (select id from ${objects} where owner_id = ow.id and ${listed}) o
          order by ow.display_name collate ${collate} ${dir}, ow.id ${dir}, o.id ${dir} limit ${n}`),
      );
    const ownerless: Segment = async (n) => idsOf(await db.execute(sql`select id from ${objects} where owner_id is null and ${listed} order by id ${dir} limit ${n}`));
    return pageOfSegments([owned, ownerless], offset, q.perPage);
  }
  if (q.sortBy === 'location') {
    const places = await placesInOrder(db, reader.culture);
    if (!asc) places.reverse();
    const placed: Segment = async (n) =>
      idsOf(
        await db.execute(sql`
          select o.id from unnest(${sql.param(places)}::int[]) with ordinality as r(loc, pos)
          cross join lateral (select id from ${objects} where location_id = r.loc and ${listed} order by id ${dir} limit ${n}) o
          order by r.pos, o.id ${dir} limit ${n}`),
      );
    const unplaced: Segment = async (n) => idsOf(await db.execute(sql`select id from ${objects} where location_id is null and ${listed} order by id ${dir} limit ${n}`));
    return pageOfSegments(asc ? [unplaced, placed] : [placed, unplaced], offset, q.perPage);
  }
  return null;
}

function orderOf(q: ListQuery, reader: Reader): SQL[] {
  const dir = sql.raw(q.sortDir === 'asc' ? 'asc' : 'desc');
  const collate = collationOf(reader.culture);
  const required = (k: SQL) => [sql`${k} ${dir}`];
  const optional = (k: SQL) => [sql`${k} ${dir} nulls last`];
  const keys: Record<Exclude<ListQuery['sortBy'], 'owner' | 'location'>, SQL[]> = {
    createdOn: required(sql`${objects.createdOn}`),
    createdBy: optional(sql`${objectCreatedBy} collate ${collate}`),
    referenceNumber: required(sql`${objects.referenceNumber}`),
    type: required(sql`${typeRankSql(reader.t, reader.culture)}`),
    modifiedOn: required(sql`${objects.modifiedOn}`),
    modifiedBy: optional(sql`${objectModifiedBy} collate ${collate}`),
  };
  return [...keys[q.sortBy as keyof typeof keys], sql`${objects.id} ${dir}`];
}

/** POST /api/object: the objects list, paged and sorted in SQL. */
type ListRow = { id: number; ref: number; typeId: number | null; subTypeId: number | null; location: string; owner: string | null; ownerId: number | null; createdOn: Date; createdBy: string | null; modifiedOn: Date; modifiedBy: string | null };

export async function listObjects(app: FastifyInstance, q: ListQuery, reader: Reader): Promise<{ items: TObjectRow[]; totalRows: number }> {
  type R = ListRow;
  const offset = (q.currentPage - 1) * q.perPage;
  // The page's ids first: sorting reads only what the sort key needs (PostgreSQL drops the joins
  // nothing reads), then the page's rows with their names and places.
  const pageQuery = (async () =>
    (await segmentedPage(app.db, q, reader)) ??
    ((await fromObjects(app.db, { id: objects.id })
      .where(notDraft('objects', objects.id))
      .orderBy(...orderOf(q, reader))
      .limit(q.perPage)
      .offset(offset)) as unknown as { id: number }[]).map((p) => p.id))();
  const [pageIds, total] = await Promise.all([pageQuery, keptListedCount(app.db, 'objects')]);
  const found = pageIds.length
    ? await fromObjects(app.db, {
        id: objects.id,
        ref: objects.referenceNumber,
        typeId: col('subTypeObjectTypeId'),
        subTypeId: col('objectSubTypeId'),
        location: placeText(reader.culture),
        owner: oOwner.displayName,
        ownerId: objects.ownerId,
        createdOn: objects.createdOn,
        createdBy: objectCreatedBy,
        modifiedOn: objects.modifiedOn,
        modifiedBy: objectModifiedBy,
      }).where(idAmong(objects.id, pageIds))
    : [];
  const rows = inIdOrder(pageIds, found as unknown as R[], (r) => r.id);
  const tz = app.config.timeZone;
  return {
    items: rows.map((r) => ({
      id: r.id,
      referenceNumber: formatReferenceNumber(r.ref),
      type: typeText(reader.t, r.typeId, r.subTypeId),
      location: r.location,
      owner: r.owner,
      ownerId: r.ownerId,
      createdOn: toLocalDateTime(r.createdOn, tz)!,
      createdBy: r.createdBy,
      modifiedOn: toLocalDateTime(r.modifiedOn, tz)!,
      modifiedBy: r.modifiedBy,
    })),
    totalRows: total,
  };
}

/** The conditions of the search form. */
export async function searchWhere(db: Db, q: Omit<TObjectSearch, 'perPage' | 'currentPage' | 'showOnMap' | 'more'>): Promise<SQL | undefined> {
  if (q.priceMin != null && q.priceMax != null && q.priceMin > q.priceMax) throw fieldError('priceMax', 'objects.rangeOrder');
  if (q.areaMin != null && q.areaMax != null && q.areaMin > q.areaMax) throw fieldError('areaMax', 'objects.rangeOrder');
  const all = [
    ['forSale', 'salePrice'],
    ['forRent', 'rentPrice'],
    ['forShortRent', 'shortRentPrice'],
  ] as const;
  const services = all.filter(([flag]) => q[flag]);
  const priced = q.priceMin != null || q.priceMax != null;
  const inRange = (price: string) =>
    and(q.priceMin != null ? gte(col(price), q.priceMin) : undefined, q.priceMax != null ? lte(col(price), q.priceMax) : undefined);
  // The chosen services are OR-ed; a price range applies to the chosen services' prices, or with no
  // service chosen to any price the object is offered at. A price left from a service it is no
  // longer offered for (which neither the list nor the map shows) does not count.
  const service = services.length
    ? or(...services.map(([flag, price]) => and(sql`${col(flag)}`, priced ? inRange(price) : undefined)))
    : priced
      ? or(...all.map(([flag, price]) => and(sql`${col(flag)}`, inRange(price))))
      : undefined;
  const createdByText = q.createdByText?.trim();
  return and(
    service,
    q.areaMin != null ? gte(col('area'), q.areaMin) : undefined,
    q.areaMax != null ? lte(col('area'), q.areaMax) : undefined,
    q.bedroomsMin ? gte(col('bedrooms'), q.bedroomsMin) : undefined,
    // A place includes the places under it (a municipality's seat: the municipality, placesCovered). They are looked up first and given as a list: a
    // recursive subquery inside the search left PostgreSQL guessing how many objects it keeps, and it
    // joined every owner before filtering (a map search took 100 ms of SQL at 50k objects).
    q.locationId ? sql`${col('locationId')} = any(${sql.param(await placesCovered(db, q.locationId))}::int[])` : undefined,
    q.createdBy ? eq(objects.createdByAccountId, q.createdBy) : undefined,
    !q.createdBy && createdByText
      ? sql`${objects.createdByAccountId} in (select a.id from accounts a where a.is_employe and a.search_text like ${containsPattern(createdByText)})`
      : undefined,
  );
}

/**
 * POST /api/object/search: a page of the matching objects, or with showOnMap every matching object
 * that has a place on the map (its point, else its circle's centre), at most MAP_MAX_OBJECTS.
 */
export async function searchObjects(app: FastifyInstance, q: TObjectSearch, reader: Reader): Promise<{ items: TObjectSearchRow[]; totalRows: number }> {
  const lat = sql<number | null>`coalesce(${col('latitude')}, ${col('mapCircleLatitude')})`;
  const lng = sql<number | null>`coalesce(${col('longitude')}, ${col('mapCircleLongitude')})`;
  if (q.showOnMap) return mapPins(app, and(await searchWhere(app.db, q), sql`${lat} is not null and ${lng} is not null`), reader);
  const where = await searchWhere(app.db, q);
  // Drafts are left out of the page by id, and taken off the count (lib/drafts.ts).
  // The ids first, from objects alone (its indexes), then the rows of those ids with their names,
  // places and first photo: the names are never joined for objects that are filtered out.
  const idsQuery = app.db
    .select({ id: objects.id })
    .from(objects)
    .where(and(where, notDraft('objects', objects.id)))
    .orderBy(sql`${objects.createdOn} desc`, sql`${objects.id} desc`)
    .limit(q.perPage)
    .offset((q.currentPage - 1) * q.perPage);
  const [pageIds, count] = await Promise.all([idsQuery, countListed(app.db, 'objects', where)]);
  const ids = pageIds.map((r) => r.id);
  // The list's described columns (objects.columns.ts: the same ones Properties.xlsx writes), and what the map and the thumbnail need.
  const more = moreColumns(q.more);
  const found = ids.length
    ? await fromObjects(app.db, { id: objects.id, ...readColumns([...LIST_COLUMNS, ...more], reader.culture), ownerId: objects.ownerId, latitude: lat, longitude: lng, imageId: firstImageId }).where(
        idAmong(objects.id, ids),
      )
    : [];
  const rows = inIdOrder(ids, found as unknown as ReadRow[], (r) => r.id as number);
  const num = (v: unknown) => (v == null ? null : Number(v));
  return {
    items: rows.map((r) => ({
      id: r.id as number,
      ...listValues(r, reader.t),
      ownerId: (r.ownerId ?? null) as number | null,
      latitude: num(r.latitude),
      longitude: num(r.longitude),
      imageId: num(r.imageId),
      ...(more.length ? { more: moreValues(more, r, reader.t, (d) => toLocalDateTime(d, app.config.timeZone)!) } : {}),
    })),
    totalRows: count,
  };
}

/**
 * The map's pins (up to MAP_MAX_OBJECTS, newest first) and, beside them, how many objects match. Each
 * pin's columns come from the row the filter already read (not looked up again by id), and only the
 * place is joined (a pin shows neither the owner nor a photo). The count stays its own statement: a
 * count over the same rows made a broad search (all of Greece) keep every match in memory, 89 -> 112 ms.
 * Read as plain rows, each type's text looked up once: built through the query builder, mapping
 * 2,000 rows field by field cost more than the query.
 */
async function mapPins(app: FastifyInstance, where: SQL | undefined, reader: Reader): Promise<{ items: TObjectSearchRow[]; totalRows: number }> {
  type Pin = { id: number; ref: number; title: string | null; typeId: number | null; subTypeId: number | null; location: string; area: string | number | null; forSale: boolean; forRent: boolean; forShortRent: boolean; salePrice: string | number | null; rentPrice: string | number | null; shortRentPrice: string | number | null; latitude: number; longitude: number };
  const o = sql.identifier('o');
  const pins = app.db.execute<Pin>(sql`
    select o.id, o.ref, o.title, o."typeId", o."subTypeId", ${placeText(reader.culture)} as location,
      o.area, o."forSale", o."forRent", o."forShortRent", o."salePrice", o."rentPrice", o."shortRentPrice", o.latitude, o.longitude
    from (
      select ${objects.id} as id, ${objects.referenceNumber} as ref, ${objectTitle(reader.culture)} as title, ${col('subTypeObjectTypeId')} as "typeId", ${col('objectSubTypeId')} as "subTypeId",
        ${col('locationId')} as location_id, ${col('area')} as area, ${col('forSale')} as "forSale", ${col('forRent')} as "forRent", ${col('forShortRent')} as "forShortRent",
        ${col('salePrice')} as "salePrice", ${col('rentPrice')} as "rentPrice", ${col('shortRentPrice')} as "shortRentPrice",
        coalesce(${col('latitude')}, ${col('mapCircleLatitude')})::float8 as latitude, coalesce(${col('longitude')}, ${col('mapCircleLongitude')})::float8 as longitude,
        ${objects.createdOn} as created_on
      from ${objects}
      where ${where ?? sql`true`} and ${notDraft('objects', objects.id)}
      order by ${objects.createdOn} desc, ${objects.id} desc
      limit ${MAP_MAX_OBJECTS}) ${o}
      left join ${locations} as ${sql.identifier('opl')} on ${oPlace.id} = o.location_id
      left join ${locations} as ${sql.identifier('oplp')} on ${oPlaceParent.id} = ${oPlace.parentId}
    order by o.created_on desc, o.id desc`);
  const [{ rows }, count] = await Promise.all([pins, countListed(app.db, 'objects', where)]);
  const types = new Map<string, string>();
  const typeOf = (typeId: number | null, subTypeId: number | null) => {
    const key = `${typeId}:${subTypeId}`;
    let text = types.get(key);
    if (text === undefined) types.set(key, (text = typeText(reader.t, typeId, subTypeId)));
    return text;
  };
  const num = (v: string | number | null) => (v == null ? null : Number(v));
  const items = rows.map((r) => ({
    id: Number(r.id),
    referenceNumber: formatReferenceNumber(Number(r.ref)),
    title: r.title,
    type: typeOf(r.typeId, r.subTypeId),
    location: r.location,
    area: num(r.area),
    forSale: r.forSale,
    forRent: r.forRent,
    forShortRent: r.forShortRent,
    salePrice: num(r.salePrice),
    rentPrice: num(r.rentPrice),
    shortRentPrice: num(r.shortRentPrice),
    owner: null,
    ownerId: null,
    latitude: r.latitude,
    longitude: r.longitude,
    imageId: null,
  }));
  return { items, totalRows: count };
}

const MAX_REF = 2147483647;
/**
 * Reference numbers that start with the typed digits, as ranges on the unique index: "42" is 42,
 * 420–429, 4200–4299 …; "004" (as shown, padded to 4) is 40–49.
 */
export function refPrefix(digits: string): SQL | undefined {
  if (!/^\d{1,10}$/.test(digits)) return undefined;
  const n = Number(digits);
  const ranges: [number, number][] = [];
  if (digits.startsWith('0')) {
    if (digits.length <= 4) {
      const k = 10 ** (4 - digits.length);
      ranges.push([n * k, (n + 1) * k - 1]);
    }
  } else {
    for (let k = 1; n * k <= MAX_REF; k *= 10) ranges.push([n * k, Math.min((n + 1) * k - 1, MAX_REF)]);
  }
  const parts = ranges.filter(([lo]) => lo >= 1).map(([lo, hi]) => (lo === hi ? sql`${objects.referenceNumber} = ${lo}` : sql`${objects.referenceNumber} between ${lo} and ${hi}`));
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

/** The reference number in typed text: "42", "#0042", "ref0042". */
const refDigits = (text: string) => /^(?:#|ref)?\s*(\d{1,10})$/i.exec(text.trim())?.[1];

/** Every word of the text in the object's search text (reference, titles, address, owner). */
function wordsMatch(text: string): SQL | undefined {
  // Words of one or two letters would scan every object (no trigram to look up): they are left out.
  const words = text.split(/\s+/).filter((w) => w.length >= 3).slice(0, 8);
  if (!words.length) return undefined;
  return and(...words.map((w) => or(sql`${objects.searchText} like ${containsPattern(w)}`, latinMatch(sql`${objects.searchText}`, w, true))));
}

/**
 * Above this many words of the properties with the fragment, the properties are walked in reference
 * order instead of looked up word by word: each word costs an index look-up of its first 20 whether
 * or not the words before gave 20 already (review: 222 words 10–15 ms against a 0.7 ms walk, 22
 * words 1.5 against 1.2), and a fragment in many words is in many properties, which the walk
 * finds soon.
 */
export const OBJECT_WORDS_MAX = 50;

/** A matched property as the search shows it. */
type Match = { id: number; ref: number; title: string | null; address: string | null; owner: string | null; code: string | null };

/**
 * One word of three characters or more (decision 126): the properties whose search text has it are
 * those with a word that has it (a pattern without a space lies inside one word), so each matched
 * word of object_search_words (0124) gives its first `limit` properties by reference number from
 * object_words' index, the listing codes that start with the typed text give theirs, and the answer
 * is the first `limit` of all of them by reference number: a property a word's own first `limit`
 * leave out has `limit` properties ahead of it. Undefined when this cannot answer
 * exactly as the walk does: a pattern with a space in it (a character whose normal form holds one),
 * or more than OBJECT_WORDS_MAX matched words.
 */
async function matchObjectsByWords(db: Db, culture: string, frag: string, limit: number, byCode: SQL | undefined): Promise<Match[] | undefined> {
  const readings = latinMatchReadings(frag, true);
  const patterns = [sql`crm_search_norm(${escapeLike(frag)})`, ...readings.map((v) => sql`crm_latin_skeleton(${v})`)];
  const spaced = sql.join(
    patterns.map((p) => sql`position(' ' in ${p}) > 0`),
    sql` or `,
  );
  const latin = latinMatch(sql`s.word`, frag, true);
  const kept = notDraft('objects', objects.id);
  // `limit (select …)`: a limit the planner cannot see, so it reads the trigram index (as walkWords).
  const { rows } = await db.execute<{ fallback: boolean; rows: Match[] }>(sql`
    with w as materialized (
      select s.word from object_search_words s
      where s.word like ${containsPattern(frag)}${latin ? sql` or ${latin}` : sql``}
      limit (select ${sql.raw(String(OBJECT_WORDS_MAX + 1))})),
    k as materialized (select count(*)::int as n from w),
    c as (
      select y.id, y.ref from w cross join lateral (
        select ow.object_id as id, ow.reference_number as ref from object_words ow where ow.word = w.word
        order by ow.reference_number limit ${limit}) y
      where (select n from k) <= ${OBJECT_WORDS_MAX}
      ${byCode ? sql`union all (select ${objects.id}, ${objects.referenceNumber} from ${objects} where ${byCode} and ${kept} order by ${objects.referenceNumber} limit ${limit})` : sql``})
    select ${spaced} or (select n from k) > ${OBJECT_WORDS_MAX} as fallback,
      coalesce((select json_agg(t) from (
        select ${objects.id} as id, ${objects.referenceNumber} as ref, ${objectTitle(culture)} as title, ${col('address')} as address,
          ${accounts.displayName} as owner, ${col('websiteCode')} as code
        from (select distinct id, ref from c order by ref limit ${limit}) d join ${objects} on ${objects.id} = d.id left join ${accounts} on ${accounts.id} = ${objects.ownerId}
        order by ${objects.referenceNumber} limit ${limit}) t), '[]') as rows`);
  const row = rows[0];
  if (!row || row.fallback) return undefined;
  return row.rows;
}

/**
 * The properties the text finds. `byWordsAllowed` false: walked on their search text, as before 0124
 * (the tests compare); `seen.byWords` says whether the words answered.
 */
export async function matchObjects(db: Db, culture: string, text: string, limit: number, extra?: SQL, named?: SQL, byWordsAllowed = true, seen?: { byWords?: boolean }) {
  const typed = refDigits(text);
  // Digits beyond any reference number (a phone number) are searched as text only.
  const digits = typed && Number(typed) <= MAX_REF ? typed : undefined;
  const byRef = digits ? refPrefix(digits) : undefined;
  const byWords = digits && digits.length < 3 ? undefined : wordsMatch(typed ?? text);
  // The code a listing site gives it ("TH-0020"), as guests quote it: its start, from its index.
  const byCode = !digits && /^[^\s]{3,50}$/.test(text) && /\d/.test(text) ? sql`lower(${col('websiteCode')}) like ${`${escapeLike(text.toLowerCase())}%`}` : undefined;
  const frag = typed ?? text;
  const rank = digits ? sql`case when ${objects.referenceNumber} = ${Number(digits)} then 0 when ${byRef ?? sql`false`} then 1 else 2 end` : undefined;
  // One word, every property (the global search, the picker without a filter): by the words (decision
  // 126). Not a reference number: its ranges and the trigrams of its digits cost less than the words.
  const byWordsFound = byWordsAllowed && byWords && !digits && !extra && !/\s/.test(frag) ? await matchObjectsByWords(db, culture, frag, limit, byCode) : undefined;
  const hits = (where: SQL | undefined, order: (SQL | typeof objects.referenceNumber)[], n: number) =>
    db
      .select({
        id: objects.id,
        ref: objects.referenceNumber,
        title: objectTitle(culture),
        address: sql<string | null>`${col('address')}`,
        owner: accounts.displayName,
        code: sql<string | null>`${col('websiteCode')}`,
      })
      .from(objects)
      .leftJoin(accounts, eq(accounts.id, objects.ownerId))
      .where(where)
      .orderBy(...order)
      .limit(n);
  const match = or(byRef, byWords, byCode);
  // A draft is found by nobody (lib/drafts.ts): its author has it at its address.
  const kept = and(extra, notDraft('objects', objects.id));
  // Then the properties of a place or a kind the text names, read apart: sorted together with the
  // text's own matches, every property of a municipality (4,000 of the bench's 50,000) was read
  // and sorted to show twenty. Alone they come in reference order from its unique index.
  const namedObjects = (found: Match[]) =>
    hits(and(named, kept, found.length ? notInArray(objects.id, found.map((f) => f.id)) : undefined), [objects.referenceNumber], limit - found.length);
  if (seen) seen.byWords = !!byWordsFound;
  if (byWordsFound) return named && byWordsFound.length < limit ? [...byWordsFound, ...(await namedObjects(byWordsFound))] : byWordsFound;
  const found = match ? await hits(and(match, kept), [...(rank ? [rank] : []), objects.referenceNumber], limit) : [];
  if (!named || found.length >= limit) return found;
  return [...found, ...(await namedObjects(found))];
}
const describe = (m: Match) => [`#${formatReferenceNumber(m.ref)}${m.code ? ` (${m.code})` : ''}`, m.title ?? m.address, m.owner].filter(Boolean).join(' · ');

/** GET /api/object/searchByRefNumOrTitle: at most 20; options STR: short-rent objects only. */
export async function searchByRefNumOrTitle(app: FastifyInstance, searchStr: string, options: 'no' | 'STR', culture: string) {
  const text = searchStr.trim();
  if (!text) return { items: [] };
  const rows = await matchObjects(app.db, culture, text, 20, options === 'STR' ? sql`${col('forShortRent')}` : undefined, await namedPlaceOrKind(app, text));
  return { items: rows.map((r) => ({ id: r.id, referenceNumber: formatReferenceNumber(r.ref), description: describe(r) })) };
}

/**
 * Every place by its names in the three languages, with the places inside it (read once an hour:
 * places are the seeded gazetteer), kept per database handle: one process may serve several
 * databases (the API tests share their workers' modules), and a place's id is its database's own.
 */
const placesByDb = new WeakMap<Db, { at: number; byName: Map<string, number[]> }>();
async function placesNamed(db: Db, name: string): Promise<number[]> {
  let placesByName = placesByDb.get(db);
  if (!placesByName || Date.now() - placesByName.at > 3600_000) {
    const rows = await db.select({ id: locations.id, path: locations.path, el: locations.nameEl, en: locations.nameEn, ru: locations.nameRu }).from(locations);
    const inside = new Map<number, number[]>();
    for (const r of rows) for (const above of r.path ?? []) inside.set(above, [...(inside.get(above) ?? []), r.id]);
    const byName = new Map<string, number[]>();
    for (const r of rows) {
      const ids = [...new Set([r.id, ...(inside.get(r.id) ?? [])])];
      for (const n of new Set([r.el, r.en, r.ru].map(plainText))) byName.set(n, [...new Set([...(byName.get(n) ?? []), ...ids])]);
    }
    placesByName = { at: Date.now(), byName };
    placesByDb.set(db, placesByName);
  }
  const exact = placesByName.byName.get(name);
  if (exact || name.length < 4) return exact ?? [];
  // The start of a name, or of a word of it, as people type it into a picker ("Χαλκ", "kassan",
  // "Καλλικράτεια" for Νέα Καλλικράτεια): every place it begins.
  const ids = new Set<number>();
  for (const [n, places] of placesByName.byName) if (n.startsWith(name) || n.includes(` ${name}`)) for (const id of places) ids.add(id);
  return [...ids];
}

/**
 * What a typed name stands for besides text: a place ("Καλαμαριά", "kalamaria", or the start of a
 * place's name from four letters, "Χαλκ": the properties there and in the areas inside it, which
 * are titled by their neighbourhood) or a kind of property ("βίλα", "Villa", "вилла"), in any of
 * the three languages.
 */
export async function namedPlaceOrKind(app: FastifyInstance, text: string): Promise<SQL | undefined> {
  const name = plainText(text);
  if (name.length < 3 || /\d/.test(name)) return undefined;
  const kinds = OBJECT_SUBTYPES.filter((k) => CULTURES.some((c) => plainText(app.translator.t(c, `objects.list.objectSubTypes.${k.value}`)) === name)).map((k) => k.value);
  const places = await placesNamed(app.db, name);
  return or(
    places.length ? sql`${col('locationId')} = any(${sql.param(places)}::int[])` : undefined,
    kinds.length ? sql`${col('objectSubTypeId')} = any(${sql.param(kinds)}::smallint[])` : undefined,
  );
}

/** The objects' part of the global search box: by reference number, title, address, owner, and the place or kind a name stands for. */
export function makeObjectSearchProvider(app: FastifyInstance): SearchProvider {
  return async ({ text, limit, culture }) => {
    const rows = await matchObjects(app.db, culture, text, limit, undefined, await namedPlaceOrKind(app, text));
    return rows.map((r): TSearchHit => ({ id: r.id, description: describe(r), entity: 'Object' }));
  };
}
