import { el, listingCheck, mainOffer, photoJpegUrl, portalPhotos, textIn, x, type TFeedContext, type TPortalMapping, type TPhotoRules } from './common.ts';
import type { TPortalListing } from './listing.ts';

/**
 * Spitogatos (decision 083). Its XML import specification is given only to agencies with an
 * account; every element name and code here is ASSUMED from what its listing pages and search
 * filters show, and listed in the decision as unverified until checked against the specification
 * an agency receives. A changed specification touches this file only.
 */

/** Our subtypes as Spitogatos's category and property type (assumed). */
export const SPITOGATOS_TYPES: Readonly<Record<number, { category: string; type: string }>> = {
  1: { category: 'residential', type: 'apartment' },
  2: { category: 'residential', type: 'studio' },
  3: { category: 'residential', type: 'maisonette' },
  4: { category: 'residential', type: 'detached' },
  5: { category: 'residential', type: 'villa' },
  6: { category: 'residential', type: 'building' },
  7: { category: 'commercial', type: 'office' },
  8: { category: 'commercial', type: 'store' },
  9: { category: 'commercial', type: 'warehouse' },
  10: { category: 'commercial', type: 'industrial' },
  11: { category: 'commercial', type: 'hotel' },
  12: { category: 'commercial', type: 'building' },
  13: { category: 'land', type: 'plot' },
  14: { category: 'land', type: 'parcel' },
  15: { category: 'other', type: 'parking' },
  16: { category: 'commercial', type: 'business' },
};
/** Our prefectures as Spitogatos's area codes (assumed). */
export const SPITOGATOS_AREAS: Readonly<Record<string, string>> = { thessaloniki: 'thessaloniki-prefecture', chalkidiki: 'chalkidiki-prefecture' };
/** The certificate's class on the Greek scale (Α+ … Η written A+ … G), exempt, pending (assumed codes). */
export const SPITOGATOS_ENERGY: Readonly<Record<number, string>> = { 1: 'A+', 2: 'A', 3: 'B+', 4: 'B', 5: 'C', 6: 'D', 7: 'E', 8: 'Z', 9: 'H', 10: 'exempt', 11: 'pending' };
export const SPITOGATOS_TRANSACTIONS = { sale: 'sale', rent: 'rent' } as const;

const MIN_PHOTOS = 1;
/** Spitogatos: its specification is given to agencies only; ours. */
export const SPITOGATOS_PHOTOS: TPhotoRules = { minWidth: 800, minHeight: 600, maxCount: 40, formats: ['jpeg'], published: false };
const MIN_DESCRIPTION = 50;

const check = listingCheck({
  agencyId: true,
  types: SPITOGATOS_TYPES,
  regions: SPITOGATOS_AREAS,
  area: true,
  coordinates: true,
  photos: { min: MIN_PHOTOS, rules: SPITOGATOS_PHOTOS },
  title: 'el',
  description: { langs: ['el'], min: MIN_DESCRIPTION },
  energy: { table: SPITOGATOS_ENERGY, required: true },
});

function item(o: TPortalListing, ctx: TFeedContext): string {
  const offer = mainOffer(o)!;
  const kind = SPITOGATOS_TYPES[o.subTypeId!]!;
  const c = o.coordinates!;
  return (
    '  <property>\n' +
    el('ref', o.ref) +
    el('updated', o.updated) +
    el('transaction', SPITOGATOS_TRANSACTIONS[offer.service as 'sale' | 'rent']) +
    el('category', kind.category) +
    el('type', kind.type) +
    el('price', Math.round(offer.price)) +
    el('sqm', o.area ? Math.round(o.area) : o.lotArea ? Math.round(o.lotArea) : null) +
    el('bedrooms', o.bedrooms) +
    el('bathrooms', o.bathrooms) +
    el('floor', o.floor) +
    el('construction_year', o.constructionYear) +
    el('energy_class', SPITOGATOS_ENERGY[o.energyClass!]) +
    el('area_code', SPITOGATOS_AREAS[o.regionKey!]) +
    el('municipality', o.town?.el) +
    el('latitude', c.latitude) +
    el('longitude', c.longitude) +
    el('exact_location', c.exact ? 1 : 0) +
    el('title', textIn(o.titles, 'el'), ' lang="el"') +
    el('title', textIn(o.titles, 'en'), ' lang="en"') +
    el('description', textIn(o.descriptions, 'el'), ' lang="el"') +
    el('description', textIn(o.descriptions, 'en'), ' lang="en"') +
    `    <photos>${portalPhotos(o, SPITOGATOS_PHOTOS).map((p) => `<photo>${x(photoJpegUrl(ctx.base, p))}</photo>`).join('')}</photos>\n` +
    '  </property>\n'
  );
}

export const spitogatos: TPortalMapping = {
  kind: 'spitogatos',
  check,
  open: (ctx) => `<?xml version="1.0" encoding="UTF-8"?>\n<properties agent_id="${x(ctx.agencyId ?? '')}" generated="${ctx.generated.toISOString()}">\n`,
  item,
  close: () => '</properties>\n',
  photos: SPITOGATOS_PHOTOS,
  emptyAllowed: true,
};
