import type { TCulture } from '@crm/contract';
import { el, listingCheck, mainOffer, pageUrl, photoJpegUrl, portalPhotos, sqlDateTime, textIn, x, type TFeedContext, type TPortalMapping, type TPhotoRules } from './common.ts';
import type { TPortalListing } from './listing.ts';

/**
 * Kyero, import format v3 (schema 3.4 of 11 August 2017; decision 083), written to its published XSD,
 * kept beside this file (kyero-v3.xsd, its source named in the README there) and checked against it
 * in the tests. Its texts are in its own list of languages, which has English and Russian but no
 * Greek: a Greek title or description does not go to Kyero.
 */

/** Our property subtypes (OBJECT_SUBTYPES) as Kyero's property types; a subtype not here is not sent. */
export const KYERO_TYPES: Readonly<Record<number, string>> = {
  1: 'Apartment',
  2: 'Studio',
  3: 'Duplex',
  4: 'Detached House',
  5: 'Villa',
  7: 'Office',
  8: 'Commercial',
  9: 'Warehouse',
  13: 'Plot',
  14: 'Land',
  15: 'Garage',
};

/** Our prefectures (locations' stable keys) as Kyero's province; the town is the municipality's English name. */
export const KYERO_PROVINCES: Readonly<Record<string, string>> = {
  thessaloniki: 'Thessaloniki',
  chalkidiki: 'Chalkidiki',
};

/** The energy certificate's class (1 A+ … 9 G, 10 exempt, 11 pending) on Kyero's scale A–G, X (exempt or in process). */
export const KYERO_ENERGY: Readonly<Record<number, string>> = { 1: 'A', 2: 'A', 3: 'B', 4: 'B', 5: 'C', 6: 'D', 7: 'E', 8: 'F', 9: 'G', 10: 'X', 11: 'X' };

/** Our transaction kinds as Kyero's price frequency; short stays (a nightly price) have none. */
export const KYERO_PRICE_FREQ = { sale: 'sale', rent: 'month' } as const;

/** Ours that Kyero's language list has (it has no Greek). */
const LANGS: TCulture[] = ['en', 'ru'];
const MIN_PHOTOS = 1;
/** Kyero: its XSD takes at most 50 images, by a .jpg, .png or .gif address; the smallest size is ours (Kyero publishes none we could read). */
export const KYERO_PHOTOS: TPhotoRules = { minWidth: 800, minHeight: 600, maxCount: 50, formats: ['jpeg', 'png', 'gif'], published: false };
const MIN_DESCRIPTION = 30;

const check = listingCheck({
  types: KYERO_TYPES,
  regions: KYERO_PROVINCES,
  town: true,
  photos: { min: MIN_PHOTOS, rules: KYERO_PHOTOS },
  // Its buyers are from abroad: the description in English.
  description: { langs: ['en'], min: MIN_DESCRIPTION },
  energy: { table: KYERO_ENERGY, required: false },
});

function item(o: TPortalListing, ctx: TFeedContext): string {
  const offer = mainOffer(o)!;
  const langs = (inner: (lang: TCulture) => string | null, name: string) => {
    const parts = LANGS.map((l) => ({ l, v: inner(l) })).filter((p) => p.v);
    return parts.length ? `    <${name}>${parts.map((p) => `<${p.l}>${x(p.v!)}</${p.l}>`).join('')}</${name}>\n` : '';
  };
  const c = o.coordinates;
  const surface = [o.area ? `<built>${Math.round(o.area)}</built>` : '', o.lotArea ? `<plot>${Math.round(o.lotArea)}</plot>` : ''].join('');
  return (
    '  <property>\n' +
    el('id', o.ref) +
    el('date', sqlDateTime(o.updated, ctx.generated)) +
    el('ref', o.ref) +
    el('price', Math.round(offer.price)) +
    el('currency', 'EUR') +
    el('price_freq', KYERO_PRICE_FREQ[offer.service as 'sale' | 'rent']) +
    el('type', KYERO_TYPES[o.subTypeId!]) +
    el('town', o.town!.en) +
    el('province', KYERO_PROVINCES[o.regionKey!]) +
    el('country', 'Greece') +
    (c ? `    <location><latitude>${c.latitude}</latitude><longitude>${c.longitude}</longitude></location>\n` : '') +
    el('location_detail', o.place && o.place.en !== o.town!.en ? o.place.en.slice(0, 50) : null) +
    el('beds', o.bedrooms) +
    el('baths', o.bathrooms) +
    (surface ? `    <surface_area>${surface}</surface_area>\n` : '') +
    (o.energyClass !== null ? `    <energy_rating><consumption>${KYERO_ENERGY[o.energyClass]}</consumption></energy_rating>\n` : '') +
    langs((l) => (textIn(o.titles, l) || textIn(o.descriptions, l) ? pageUrl(ctx.base, l, o.ref) : null), 'url') +
    langs((l) => textIn(o.descriptions, l), 'desc') +
    (o.features.length ? `    <features>${o.features.slice(0, 50).map((f) => `<feature>${x(ctx.tEn(`fields.object.${f}`))}</feature>`).join('')}</features>\n` : '') +
    `    <images>${portalPhotos(o, KYERO_PHOTOS).map((p, i) => `<image id="${i + 1}"><url>${x(photoJpegUrl(ctx.base, p))}</url></image>`).join('')}</images>\n` +
    '  </property>\n'
  );
}

export const kyero: TPortalMapping = {
  kind: 'kyero',
  check,
  open: (ctx) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<root>\n  <kyero><feed_version>3</feed_version><feed_generated>${sqlDateTime(null, ctx.generated)}</feed_generated></kyero>\n` +
    `  <agent>${ctx.agencyId && /^\d+$/.test(ctx.agencyId) ? `<id>${ctx.agencyId}</id>` : ''}<name>${x(ctx.agencyName)}</name>${ctx.agencyEmail ? `<email>${x(ctx.agencyEmail)}</email>` : ''}${ctx.agencyPhone ? `<tel>${x(ctx.agencyPhone)}</tel>` : ''}</agent>\n`,
  item,
  close: () => '</root>\n',
  photos: KYERO_PHOTOS,
  emptyAllowed: false,
};
