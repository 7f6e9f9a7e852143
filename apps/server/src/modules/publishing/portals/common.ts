import type { TCulture, TPortalKind } from '@crm/contract';
import { escapeXml } from '../html.ts';
import type { TPublicPhoto, TPublicText } from '../public.view.ts';
import type { TPortalListing, TPortalPhoto } from './listing.ts';

export const x = escapeXml;

/**
 * One thing a channel needs that the property lacks: a text key under `portals.missing.*` and its
 * values; a value that starts with "@" is a text key itself (a type or region name, in the reader's language).
 */
export type TPortalProblem = { key: string; params?: Record<string, string | number> };

/**
 * What a portal takes of a property's photos: the smallest size (either way up: the long side
 * against the larger figure, the short side against the smaller), how many at most, in which
 * formats; `published` false where the portal publishes no figure and these are ours (decision 091).
 */
export type TPhotoRules = { minWidth: number; minHeight: number; maxCount: number; formats: readonly ('jpeg' | 'png' | 'gif')[]; published: boolean };

/** What a feed is written with: the public address (absolute links), the agency as the channel names it. */
export type TFeedContext = {
  base: string;
  channelName: string;
  agencyId: string | null;
  agencyName: string;
  agencyEmail: string | null;
  agencyPhone: string | null;
  generated: Date;
  /** English labels (features, in the formats that take free text). */
  tEn: (key: string) => string;
};

/**
 * One portal's format (decision 083): what it needs of a property (`check`: empty when ready), and
 * the feed written from the properties that pass: the opening, one property, the close. A property
 * with any problem is left out of the feed, never written half-filled.
 */
export type TPortalMapping = {
  kind: TPortalKind;
  check: (o: TPortalListing, channel: { agencyId: string | null }) => TPortalProblem[];
  open: (ctx: TFeedContext) => string;
  item: (o: TPortalListing, ctx: TFeedContext) => string;
  close: (ctx: TFeedContext) => string;
  /** Its photo requirements; a photo too small is left out of the feed and named on the card. */
  photos: TPhotoRules;
  /**
   * Whether the format has a feed with no property. Kyero's XSD wants one property at least (its
   * `property` has no minOccurs="0"): a channel with none answers 204, no file (decision 091).
   */
  emptyAllowed: boolean;
};

/** A simple element, left out when it has no value. */
export const el = (name: string, value: unknown, attrs = '', indent = '    ') =>
  value === null || value === undefined || value === '' ? '' : `${indent}<${name}${attrs}>${x(String(value))}</${name}>\n`;

/** The property's public page in a language (absolute). */
export const pageUrl = (base: string, lang: TCulture, ref: string) => `${base}/listings/${ref}?lang=${lang}`;
/** A photo as JPEG (the formats the portals read), the screen-size copy made on upload, by an absolute address. */
export const photoJpegUrl = (base: string, p: TPublicPhoto) => `${base}/listings/photo/${encodeURIComponent(p.web.replace(/\.[a-z0-9]+$/i, '.jpg'))}`;

export const textIn = (texts: TPublicText[], lang: TCulture) => texts.find((t) => t.lang === lang)?.text ?? null;

/** Large enough for the portal (a photo of unknown size is given the benefit of the doubt). */
const photoFits = (p: TPortalPhoto, r: TPhotoRules) =>
  p.width === null || p.height === null || (Math.max(p.width, p.height) >= Math.max(r.minWidth, r.minHeight) && Math.min(p.width, p.height) >= Math.min(r.minWidth, r.minHeight));

/** The photos a portal gets, in their order: those large enough, at most as many as it takes. */
export const portalPhotos = (o: TPortalListing, r: TPhotoRules) => o.photos.filter((p) => photoFits(p, r)).slice(0, r.maxCount);

/** What the portal will not get of the photos (the property still goes): each photo too small, by its place, and those past its count. */
export function photoNotes(o: TPortalListing, r: TPhotoRules): TPortalProblem[] {
  const out: TPortalProblem[] = o.photos.flatMap((p, i) =>
    photoFits(p, r) ? [] : [{ key: 'portals.photo.tooSmall', params: { n: i + 1, width: p.width!, height: p.height!, minWidth: r.minWidth, minHeight: r.minHeight } }],
  );
  const fitting = o.photos.filter((p) => photoFits(p, r)).length;
  if (fitting > r.maxCount) out.push({ key: 'portals.photo.tooMany', params: { max: r.maxCount, count: fitting } });
  return out;
}

/** The sale price, else the monthly rent; a property offered only for short stays has none the portals take. */
export const mainOffer = (o: TPortalListing) => o.prices.find((p) => p.service === 'sale') ?? o.prices.find((p) => p.service === 'rent') ?? null;

/** The checks the portals share, each adding its problem to `out`. */
export const need = {
  price(o: TPortalListing, out: TPortalProblem[]) {
    if (!mainOffer(o)) out.push({ key: o.prices.some((p) => p.service === 'shortRent') ? 'portals.missing.shortStayOnly' : 'portals.missing.price' });
  },
  /** At least `min` photos of a size the portal takes. */
  photos(o: TPortalListing, min: number, rules: TPhotoRules, out: TPortalProblem[]) {
    const count = portalPhotos(o, rules).length;
    if (count >= min) return;
    out.push(o.photos.length > count ? { key: 'portals.missing.photosSize', params: { min, count, minWidth: rules.minWidth, minHeight: rules.minHeight } } : { key: 'portals.missing.photos', params: { min, count } });
  },
  /** A description in one of `langs` of at least `min` characters. */
  description(o: TPortalListing, langs: TCulture[], min: number, out: TPortalProblem[]) {
    if (!langs.some((l) => (textIn(o.descriptions, l) ?? '').length >= min)) out.push({ key: `portals.missing.description.${langs.join('')}`, params: { min } });
  },
  title(o: TPortalListing, lang: TCulture, out: TPortalProblem[]) {
    if (!textIn(o.titles, lang)) out.push({ key: `portals.missing.title.${lang}` });
  },
  coordinates(o: TPortalListing, out: TPortalProblem[]) {
    if (!o.coordinates) out.push({ key: 'portals.missing.coordinates' });
  },
  area(o: TPortalListing, out: TPortalProblem[]) {
    if (!(o.area && o.area > 0) && !(o.lotArea && o.lotArea > 0)) out.push({ key: 'portals.missing.area' });
  },
  /** A code of the portal's table for the property's type, else the type named. */
  typeCode<C>(o: TPortalListing, table: Readonly<Record<number, C>>, out: TPortalProblem[]): C | undefined {
    const code = o.subTypeId !== null ? table[o.subTypeId] : undefined;
    if (code === undefined) out.push(o.subTypeId === null ? { key: 'portals.missing.type' } : { key: 'portals.missing.typeCode', params: { type: `@objects.list.objectSubTypes.${o.subTypeId}` } });
    return code;
  },
  regionCode<C>(o: TPortalListing, table: Readonly<Record<string, C>>, out: TPortalProblem[]): C | undefined {
    const code = o.regionKey !== null ? table[o.regionKey] : undefined;
    if (code === undefined) out.push(o.region ? { key: 'portals.missing.regionCode', params: { region: o.region.en } } : { key: 'portals.missing.region' });
    return code;
  },
  /** The energy class: Greek law wants it in every advertisement (Law 4122/2013, art. 12), so the Greek portals require it. */
  energyCode<C>(o: TPortalListing, table: Readonly<Record<number, C>>, required: boolean, out: TPortalProblem[]): C | undefined {
    if (o.energyClass === null) {
      if (required) out.push({ key: 'portals.missing.energyClass' });
      return undefined;
    }
    const code = table[o.energyClass];
    if (code === undefined) out.push({ key: 'portals.missing.energyCode', params: { energy: `@objects.list.energyClass.${o.energyClass}` } });
    return code;
  },
  agencyId(channel: { agencyId: string | null }, out: TPortalProblem[]) {
    if (!channel.agencyId) out.push({ key: 'portals.missing.agencyId' });
  },
};

/** What one portal needs of a property, checked in this order (each problem once, as `need` words it). */
export type TListingRules = {
  /** The channel's agency id with the portal (its feed names the agency by it). */
  agencyId?: boolean;
  types: Readonly<Record<number, unknown>>;
  regions: Readonly<Record<string, unknown>>;
  area?: boolean;
  coordinates?: boolean;
  town?: boolean;
  photos: { min: number; rules: TPhotoRules };
  title?: TCulture;
  description: { langs: TCulture[]; min: number };
  energy: { table: Readonly<Record<number, unknown>>; required: boolean };
};

/** A portal's check (TPortalMapping.check) from its rules. */
export function listingCheck(r: TListingRules): TPortalMapping['check'] {
  return (o, channel) => {
    const out: TPortalProblem[] = [];
    if (r.agencyId) need.agencyId(channel, out);
    need.price(o, out);
    need.typeCode(o, r.types, out);
    need.regionCode(o, r.regions, out);
    if (r.area) need.area(o, out);
    if (r.coordinates) need.coordinates(o, out);
    if (r.town && !o.town) out.push({ key: 'portals.missing.town' });
    need.photos(o, r.photos.min, r.photos.rules, out);
    if (r.title) need.title(o, r.title, out);
    need.description(o, r.description.langs, r.description.min, out);
    need.energyCode(o, r.energy.table, r.energy.required, out);
    return out;
  };
}

/** "2026-11-27 20:30:00" (UTC) from an ISO date-time. */
export const sqlDateTime = (iso: string | null, fallback: Date) => (iso ?? fallback.toISOString()).slice(0, 19).replace('T', ' ');
