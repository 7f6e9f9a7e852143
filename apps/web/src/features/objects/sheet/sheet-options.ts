import type { TCulture } from '@crm/contract/constants';

export type TSheetService = 'sale' | 'rent' | 'shortRent';

/** What the agent chose for the sheet (kept in the address, so a reload or a shared link prints the same). */
export type TSheetOptions = { culture: TCulture; service: TSheetService | null; address: boolean; photos: number };

/** The most photos a sheet prints: the main one and four more. */
export const SHEET_MAX_PHOTOS = 5;

/**
 * The sheet's options from the address: the language (else the reader's), the service whose price
 * is printed (null: the first one the property is offered for), the address (only when `address=1`)
 * and the number of photos (0 to 5, else 5). Anything unreadable falls back to the default.
 */
export function readSheetOptions(search: URLSearchParams, readerCulture: TCulture): TSheetOptions {
  const lang = search.get('lang');
  const service = search.get('service');
  const photos = Number(search.get('photos') ?? SHEET_MAX_PHOTOS);
  return {
    culture: lang === 'en' || lang === 'el' || lang === 'ru' ? lang : readerCulture,
    service: service === 'sale' || service === 'rent' || service === 'shortRent' ? service : null,
    address: search.get('address') === '1',
    photos: Number.isInteger(photos) && photos >= 0 && photos <= SHEET_MAX_PHOTOS && search.get('photos') !== '' ? photos : SHEET_MAX_PHOTOS,
  };
}

/** The address's search part of these options (defaults left out). */
export function writeSheetOptions(o: TSheetOptions, readerCulture: TCulture): URLSearchParams {
  const s = new URLSearchParams();
  if (o.culture !== readerCulture) s.set('lang', o.culture);
  if (o.service) s.set('service', o.service);
  if (o.address) s.set('address', '1');
  if (o.photos !== SHEET_MAX_PHOTOS) s.set('photos', String(o.photos));
  return s;
}

/** The price printed: the chosen service's when the property has it, else its first one (none when it has no price). */
export function printedPrice<P extends { service: TSheetService }>(prices: P[], service: TSheetService | null): P | null {
  return prices.find((p) => p.service === service) ?? prices[0] ?? null;
}
