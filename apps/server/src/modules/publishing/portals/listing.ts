import { sql, type SQL } from 'drizzle-orm';
import type { TCulture } from '@crm/contract';
import type { Db } from '../../../db/client.ts';
import { WEB_SIZE } from '../../files/pictures.ts';
import { PUBLIC_WHERE, publicSelect, toPublicObject, type TPublicPhoto, type TPublicText } from '../public.view.ts';
import type { T } from '../../../lib/i18n.ts';

type Row = Record<string, unknown>;
type Named = { en: string; el: string; ru: string };

/** A photo as a portal gets it: the screen-size copy made on upload, with its pixel size (null: not known). */
export type TPortalPhoto = TPublicPhoto & { width: number | null; height: number | null };

/**
 * A property as the portals' mappings read it: the public view's allow-listed columns only (the
 * exact point and address only where the property shows them), with raw codes rather than labels.
 */
export type TPortalListing = {
  id: number;
  ref: string;
  /** The last change, ISO 8601 UTC. */
  updated: string | null;
  typeId: number | null;
  subTypeId: number | null;
  /** Offered for, with the price each is offered at (a discount's price when lower). */
  prices: { service: 'sale' | 'rent' | 'shortRent'; price: number }[];
  area: number | null;
  lotArea: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  floor: number | null;
  constructionYear: number | null;
  /** 1 A+ … 9 G, 10 exempt, 11 pending (OBJECT_LISTS.energyClass). */
  energyClass: number | null;
  titles: TPublicText[];
  descriptions: TPublicText[];
  /** The screen-size copies, with their pixel sizes. */
  photos: TPortalPhoto[];
  /** Exact where the property shows its point; else the approximate circle's centre, rounded (about 100 m). */
  coordinates: { latitude: number; longitude: number; exact: boolean } | null;
  /** The prefecture's stable key ("thessaloniki", "chalkidiki") and names; the municipality's; the place's own. */
  regionKey: string | null;
  region: Named | null;
  town: Named | null;
  place: Named | null;
  address: string | null;
  zipCode: string | null;
  /** Field names of the features it has (OBJECT_FEATURES). */
  features: string[];
  videoURL: string | null;
  /** On the agency's website now (a channel sends only such properties). */
  onSite: boolean;
};

const named = (r: Row, prefix: string): Named | null =>
  typeof r[`${prefix}En`] === 'string' && r[`${prefix}En`] !== '' ? { en: String(r[`${prefix}En`]), el: String(r[`${prefix}El`] ?? r[`${prefix}En`]), ru: String(r[`${prefix}Ru`] ?? r[`${prefix}En`]) } : null;
const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** The place's prefecture (path[1]) and municipality (path[2]) by their names in the three languages. */
const PLACE_COLUMNS = sql.raw(`
  (select l.key from locations l where l.id = pl.path[1]) as "regionKey",
  (select l.name_en from locations l where l.id = pl.path[1]) as "regionEn",
  (select l.name_el from locations l where l.id = pl.path[1]) as "regionEl",
  (select l.name_ru from locations l where l.id = pl.path[1]) as "regionRu",
  (select l.name_en from locations l where l.id = pl.path[2]) as "townEn",
  (select l.name_el from locations l where l.id = pl.path[2]) as "townEl",
  (select l.name_ru from locations l where l.id = pl.path[2]) as "townRu",
  pl.name_en as "placeEn", pl.name_el as "placeEl", pl.name_ru as "placeRu",
  (select coalesce(array_agg(array[f.width, f.height] order by f.sort_order, f.id), '{}') from files f
    where f.parent_type = 1 and f.parent_id = o.id and f.type = 'image' and f.web_name is not null) as "photoSizes"`);

/** The screen-size copy's pixel size from the upload's (fitted inside WEB_SIZE, never enlarged: pictures.ts). */
function webCopySize(size: (number | null)[] | undefined): { width: number | null; height: number | null } {
  const [w, h] = size ?? [];
  if (!w || !h) return { width: null, height: null };
  const scale = Math.min(1, WEB_SIZE / Math.max(w, h));
  return { width: Math.round(w * scale), height: Math.round(h * scale) };
}

function toListing(r: Row, t: T): TPortalListing {
  const o = toPublicObject(r, 'en', t);
  const fact = (key: string) => num(o.facts.find((f) => f.key === key)?.value);
  const coordinates =
    o.map?.kind === 'point'
      ? { latitude: round(o.map.latitude, 6), longitude: round(o.map.longitude, 6), exact: true }
      : o.map?.kind === 'circle'
        ? { latitude: round(o.map.latitude, 3), longitude: round(o.map.longitude, 3), exact: false }
        : null;
  return {
    id: Number(r.id),
    ref: o.ref,
    updated: o.updated,
    typeId: o.typeId,
    subTypeId: o.subTypeId,
    prices: o.prices.map((p) => ({ service: p.service, price: p.price })),
    area: fact('area'),
    lotArea: fact('lotArea'),
    bedrooms: num(r.bedrooms),
    bathrooms: num(r.bathrooms),
    floor: num(r.floor),
    constructionYear: num(r.constructionYear),
    energyClass: o.energyClass,
    titles: o.texts.titles,
    descriptions: o.texts.descriptions,
    // Same files, same order as the public view's photos.
    photos: o.photos.map((p, i) => ({ ...p, ...webCopySize((r.photoSizes as (number | null)[][] | null)?.[i]) })),
    coordinates,
    regionKey: typeof r.regionKey === 'string' ? r.regionKey : null,
    region: named(r, 'region'),
    town: named(r, 'town'),
    place: named(r, 'place'),
    address: o.address,
    zipCode: typeof r.zipCode === 'string' && r.zipCode.trim() ? r.zipCode.trim() : null,
    features: o.features,
    videoURL: o.videoURL,
    onSite: r.onSite === true,
  };
}

const select = (where: SQL) => sql`
  select ${publicSelect('en' as TCulture)}, ${PLACE_COLUMNS}, (${PUBLIC_WHERE}) as "onSite"
  from objects o left join locations pl on pl.id = o.location_id where ${where}`;

/** One property as the portals would read it, on the website or not (its publishing card). */
export async function portalListing(db: Db, objectId: number, t: T): Promise<TPortalListing | undefined> {
  const r = (await db.execute(select(sql`o.id = ${objectId}`))).rows[0] as Row | undefined;
  return r ? toListing(r, t) : undefined;
}

/**
 * Every property on the website one channel sends (all, or those chosen for it), a batch at a
 * time in reference-number order.
 */
export async function* channelListings(db: Db, channel: { id: number; selection: string }, t: T, batch = 500): AsyncGenerator<TPortalListing> {
  const chosen = channel.selection === 'chosen' ? sql`and exists (select 1 from portal_channel_objects pc where pc.channel_id = ${channel.id} and pc.object_id = o.id)` : sql``;
  let after = 0;
  for (;;) {
    const rows = (await db.execute(sql`${select(sql`${PUBLIC_WHERE} ${chosen} and o.reference_number > ${after}`)} order by o.reference_number limit ${batch}`)).rows as Row[];
    for (const r of rows) yield toListing(r, t);
    if (rows.length < batch) return;
    after = rows[rows.length - 1]!.reference_number as number;
  }
}
