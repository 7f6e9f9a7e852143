import type { TCulture } from '@crm/contract';
import { el, listingCheck, mainOffer, pageUrl, photoJpegUrl, portalPhotos, textIn, x, type TFeedContext, type TPortalMapping, type TPhotoRules } from './common.ts';
import type { TPortalListing } from './listing.ts';

/**
 * Indomio (Immobiliare.it's portal in Greece; decision 083). Its import specification is given to
 * partners and could not be found in public: the element names and codes below are ours, written
 * from what its listing pages show (transaction, category and type, price, surface, rooms, energy
 * class, place, coordinates, texts per language, photos), documented in the decision as unverified.
 */

/** Our subtypes as Indomio's category and type (assumed, unverified). */
export const INDOMIO_TYPES: Readonly<Record<number, { category: string; type: string }>> = {
  1: { category: 'residential', type: 'apartment' },
  2: { category: 'residential', type: 'studio' },
  3: { category: 'residential', type: 'maisonette' },
  4: { category: 'residential', type: 'detached_house' },
  5: { category: 'residential', type: 'villa' },
  6: { category: 'residential', type: 'building' },
  7: { category: 'commercial', type: 'office' },
  8: { category: 'commercial', type: 'shop' },
  9: { category: 'commercial', type: 'warehouse' },
  13: { category: 'land', type: 'building_plot' },
  14: { category: 'land', type: 'land' },
  15: { category: 'commercial', type: 'parking' },
};
/** Our prefectures as Indomio's region (assumed). */
export const INDOMIO_REGIONS: Readonly<Record<string, string>> = { thessaloniki: 'thessaloniki', chalkidiki: 'chalkidiki' };
/** The certificate's class (assumed: the Greek scale's letters in Latin). */
export const INDOMIO_ENERGY: Readonly<Record<number, string>> = { 1: 'A+', 2: 'A', 3: 'B+', 4: 'B', 5: 'C', 6: 'D', 7: 'E', 8: 'F', 9: 'G', 10: 'exempt', 11: 'pending' };
export const INDOMIO_TRANSACTIONS = { sale: 'sale', rent: 'rent' } as const;

const LANGS: TCulture[] = ['el', 'en', 'ru'];
const MIN_PHOTOS = 1;
/** Indomio: no figure is public; ours (as for Kyero). */
export const INDOMIO_PHOTOS: TPhotoRules = { minWidth: 800, minHeight: 600, maxCount: 50, formats: ['jpeg'], published: false };
const MIN_DESCRIPTION = 50;

const check = listingCheck({
  types: INDOMIO_TYPES,
  regions: INDOMIO_REGIONS,
  area: true,
  coordinates: true,
  photos: { min: MIN_PHOTOS, rules: INDOMIO_PHOTOS },
  description: { langs: ['el', 'en'], min: MIN_DESCRIPTION },
  energy: { table: INDOMIO_ENERGY, required: true },
});

function item(o: TPortalListing, ctx: TFeedContext): string {
  const offer = mainOffer(o)!;
  const kind = INDOMIO_TYPES[o.subTypeId!]!;
  const c = o.coordinates!;
  const texts = LANGS.flatMap((l) => [
    el('title', textIn(o.titles, l), ` lang="${l}"`),
    el('description', textIn(o.descriptions, l), ` lang="${l}"`),
    textIn(o.titles, l) ? el('url', pageUrl(ctx.base, l, o.ref), ` lang="${l}"`) : '',
  ]);
  return (
    `  <listing id="${x(o.ref)}"${o.updated ? ` updated="${x(o.updated)}"` : ''}>\n` +
    el('transaction', INDOMIO_TRANSACTIONS[offer.service as 'sale' | 'rent']) +
    el('category', kind.category) +
    el('type', kind.type) +
    el('price', Math.round(offer.price), ' currency="EUR"') +
    el('surface', o.area ? Math.round(o.area) : null, ' unit="m2"') +
    el('landSurface', o.lotArea ? Math.round(o.lotArea) : null, ' unit="m2"') +
    el('bedrooms', o.bedrooms) +
    el('bathrooms', o.bathrooms) +
    el('floor', o.floor) +
    el('yearBuilt', o.constructionYear) +
    el('energyClass', INDOMIO_ENERGY[o.energyClass!]) +
    `    <location region="${x(INDOMIO_REGIONS[o.regionKey!]!)}" latitude="${c.latitude}" longitude="${c.longitude}" exact="${c.exact}">\n` +
    el('municipality', o.town?.el, ' lang="el"', '      ') +
    el('area', o.place?.el, ' lang="el"', '      ') +
    el('address', o.address, '', '      ') +
    el('postcode', o.zipCode, '', '      ') +
    '    </location>\n' +
    texts.join('') +
    `    <photos>\n${portalPhotos(o, INDOMIO_PHOTOS).map((p, i) => `      <photo order="${i + 1}">${x(photoJpegUrl(ctx.base, p))}</photo>\n`).join('')}    </photos>\n` +
    el('video', o.videoURL) +
    '  </listing>\n'
  );
}

export const indomio: TPortalMapping = {
  kind: 'indomio',
  check,
  open: (ctx) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<listings generated="${ctx.generated.toISOString()}"${ctx.agencyId ? ` agency="${x(ctx.agencyId)}"` : ''} agencyName="${x(ctx.agencyName)}">\n`,
  item,
  close: () => '</listings>\n',
  photos: INDOMIO_PHOTOS,
  emptyAllowed: true,
};
