import { el, listingCheck, mainOffer, photoJpegUrl, portalPhotos, textIn, x, type TFeedContext, type TPortalMapping, type TPhotoRules } from './common.ts';
import type { TPortalListing } from './listing.ts';

/**
 * xe.gr (Χρυσή Ευκαιρία; decision 083). Its feed specification is given only to agencies with an
 * account; every element name and code here is ASSUMED from what its listing pages show, and
 * listed in the decision as unverified. A changed specification touches this file only.
 */

/** Our subtypes as xe.gr's property type (its Greek listing words, assumed as codes). */
export const XE_TYPES: Readonly<Record<number, string>> = {
  1: 'DIAMERISMA',
  2: 'STUDIO',
  3: 'MEZONETA',
  4: 'MONOKATOIKIA',
  5: 'VILLA',
  6: 'KTIRIO',
  7: 'GRAFEIO',
  8: 'KATASTIMA',
  9: 'APOTHIKI',
  10: 'VIOMICHANIKO',
  11: 'XENODOCHEIO',
  13: 'OIKOPEDO',
  14: 'AGROTEMACHIO',
  15: 'PARKING',
};
/** Our prefectures as xe.gr's geography (assumed: the prefecture's Greek name). */
export const XE_REGIONS: Readonly<Record<string, string>> = { thessaloniki: 'Θεσσαλονίκη (Νομός)', chalkidiki: 'Χαλκιδική (Νομός)' };
/** The certificate's class, in Greek letters as the certificates write them (assumed). */
export const XE_ENERGY: Readonly<Record<number, string>> = { 1: 'Α+', 2: 'Α', 3: 'Β+', 4: 'Β', 5: 'Γ', 6: 'Δ', 7: 'Ε', 8: 'Ζ', 9: 'Η', 10: 'ΕΞΑΙΡΕΙΤΑΙ', 11: 'ΑΝΑΜΕΝΕΤΑΙ' };
export const XE_TRANSACTIONS = { sale: 'POLISI', rent: 'ENOIKIASI' } as const;

const MIN_PHOTOS = 1;
/** xe.gr: its specification is given to agencies only; ours. */
export const XE_PHOTOS: TPhotoRules = { minWidth: 800, minHeight: 600, maxCount: 30, formats: ['jpeg'], published: false };
const MIN_DESCRIPTION = 30;

const check = listingCheck({
  types: XE_TYPES,
  regions: XE_REGIONS,
  area: true,
  photos: { min: MIN_PHOTOS, rules: XE_PHOTOS },
  title: 'el',
  description: { langs: ['el'], min: MIN_DESCRIPTION },
  energy: { table: XE_ENERGY, required: true },
});

function item(o: TPortalListing, ctx: TFeedContext): string {
  const offer = mainOffer(o)!;
  const c = o.coordinates;
  return (
    `  <ad ref="${x(o.ref)}">\n` +
    el('modified', o.updated) +
    el('transaction', XE_TRANSACTIONS[offer.service as 'sale' | 'rent']) +
    el('type', XE_TYPES[o.subTypeId!]) +
    el('price', Math.round(offer.price)) +
    el('size', o.area ? Math.round(o.area) : o.lotArea ? Math.round(o.lotArea) : null) +
    el('bedrooms', o.bedrooms) +
    el('bathrooms', o.bathrooms) +
    el('floor', o.floor) +
    el('year', o.constructionYear) +
    el('energy', XE_ENERGY[o.energyClass!]) +
    el('prefecture', XE_REGIONS[o.regionKey!]) +
    el('municipality', o.town?.el) +
    el('area', o.place?.el) +
    (c ? `    <geo lat="${c.latitude}" lng="${c.longitude}" approximate="${c.exact ? 'no' : 'yes'}"/>\n` : '') +
    el('title', textIn(o.titles, 'el'), ' lang="el"') +
    el('text', textIn(o.descriptions, 'el'), ' lang="el"') +
    el('text', textIn(o.descriptions, 'en'), ' lang="en"') +
    portalPhotos(o, XE_PHOTOS).map((p) => el('image', photoJpegUrl(ctx.base, p))).join('') +
    '  </ad>\n'
  );
}

export const xe: TPortalMapping = {
  kind: 'xe',
  check,
  open: (ctx) => `<?xml version="1.0" encoding="UTF-8"?>\n<ads${ctx.agencyId ? ` account="${x(ctx.agencyId)}"` : ''} generated="${ctx.generated.toISOString()}">\n`,
  item,
  close: () => '</ads>\n',
  photos: XE_PHOTOS,
  emptyAllowed: true,
};
