/**
 * What an object needs before the public may see it, and how a refusal is stored and read.
 *
 * The refusal is stored as codes (`@publishing.missing.photo;publishing.missing.salePrice`) and
 * turned into text when read, so each colleague reads it in their own language, and a renamed text
 * changes old refusals too. Any other stored text is shown as it is.
 */

import { circleHidesPoint, showsPoint } from '@crm/contract';

type Row = Record<string, unknown>;

const set = (v: unknown) => v !== null && v !== undefined && !(typeof v === 'string' && v.trim() === '');
const CODES_MARK = '@';

/** The offered services and the price each one needs. */
export const SERVICE_PRICES = [
  ['forSale', 'salePrice'],
  ['forRent', 'rentPrice'],
  ['forShortRent', 'shortRentPrice'],
] as const;

/**
 * Every reason the object cannot be published (codes under `publishing.missing.*`), in the order
 * the object's form shows the fields; empty when it can be.
 */
export function publishProblems(o: Row, photoCount: number): string[] {
  const out: string[] = [];
  const missing = (what: string) => out.push(`publishing.missing.${what}`);
  if (o.active !== true) out.push('publishing.inactive');
  if (o.sold === true) out.push('publishing.sold');
  if (!set(o.title)) missing('title');
  if (!set(o.objectSubTypeId)) missing('type');
  const offered = SERVICE_PRICES.filter(([flag]) => o[flag] === true);
  if (!offered.length) missing('service');
  for (const [, price] of offered) if (!set(o[price]) || (o[price] as number) <= 0) missing(price);
  if (!set(o.area) || (o.area as number) <= 0) missing('area');
  if (!set(o.locationId)) missing('location');
  if (o.displayAddress === true && !set(o.address)) missing('address');
  // The exact point hidden: the public map shows the approximate circle instead (spec: circle required).
  const circle = set(o.mapCircleLatitude) && set(o.mapCircleLongitude) && set(o.mapCircleRadius);
  if (!showsPoint(o) && set(o.latitude) && set(o.longitude) && !circle) missing('mapCircle');
  // A circle around the point itself would give the hidden address away.
  if (
    !showsPoint(o) &&
    set(o.latitude) &&
    set(o.longitude) &&
    circle &&
    !circleHidesPoint({ latitude: Number(o.latitude), longitude: Number(o.longitude) }, { latitude: Number(o.mapCircleLatitude), longitude: Number(o.mapCircleLongitude), radius: Number(o.mapCircleRadius) })
  )
    out.push('publishing.circleOnPoint');
  if (!set(o.description)) missing('description');
  // A Russian text is shown to Russian readers in place of the main one: both or neither.
  if (set(o.titleRu) && !set(o.descriptionRu)) missing('descriptionRu');
  if (set(o.descriptionRu) && !set(o.titleRu)) missing('titleRu');
  // So is an English one to English readers.
  if (set(o.titleEn) && !set(o.descriptionEn)) missing('descriptionEn');
  if (set(o.descriptionEn) && !set(o.titleEn)) missing('titleEn');
  if (photoCount < 1) missing('photo');
  return out;
}

/** The stored form of a refusal. */
export const encodePublishError = (codes: string[]) => (codes.length ? CODES_MARK + codes.join(';') : null);

/** The refusal as a sentence in the reader's language ("Not published: no photo; no sale price.", "…: λείπει η τιμή πώλησης· …"). */
export function publishErrorText(stored: unknown, t: (key: string, params?: Record<string, string | number>) => string): string | null {
  if (typeof stored !== 'string' || !stored) return null;
  if (!stored.startsWith(CODES_MARK)) return stored;
  const codes = stored.slice(1).split(';').filter(Boolean);
  // Greek separates the items with the ano teleia ("·"): its ";" is the question mark.
  return t('publishing.error', { list: codes.map((c) => t(c)).join(`${t('publishing.errorSeparator')} `) });
}
