import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { FILE, OBJECT, urlOf, type AnswerOf } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { saveBlob } from '../../../lib/download.ts';

/** The search form as kept in the cookie "ObjectSearch.filter" (with the texts of the picked place and employee). */
export type TObjectSearchFilter = {
  forSale: boolean;
  forRent: boolean;
  forShortRent: boolean;
  locationId: number | null;
  locationText: string;
  priceMin: number | null;
  priceMax: number | null;
  areaMin: number | null;
  areaMax: number | null;
  /** At least this many bedrooms ("3+"); null: any. */
  bedroomsMin: number | null;
  createdBy: number | null;
  createdByText: string;
  /** Output: results on the map instead of a list. */
  showOnMap: boolean;
  perPage: number;
  currentPage: number;
};

export const NO_OBJECT_SEARCH: TObjectSearchFilter = {
  forSale: false,
  forRent: false,
  forShortRent: false,
  locationId: null,
  locationText: '',
  priceMin: null,
  priceMax: null,
  areaMin: null,
  areaMax: null,
  bedroomsMin: null,
  createdBy: null,
  createdByText: '',
  showOnMap: false,
  perPage: 20,
  currentPage: 1,
};

/** The map asks for the matches with a place in one request; the server answers at most 2 000 (and the count of all). */
export const MAP_MAX_RESULTS = 2000;

export type TObjectSearchAnswer = AnswerOf<typeof OBJECT.calls.search>;

/** The property search: a page of the list (with the further columns chosen), or the first MAP_MAX_RESULTS for the map. */
export const objectSearchQuery = (f: TObjectSearchFilter, more: readonly string[] = []) => {
  const { locationText: _l, ...rest } = f;
  const body = {
    ...rest,
    createdByText: f.createdByText || null,
    ...(f.showOnMap ? { perPage: MAP_MAX_RESULTS, currentPage: 1 } : more.length ? { more: [...more] } : {}),
  };
  return queryOptions({
    queryKey: ['objects', 'search', body],
    queryFn: ({ signal }) => call(OBJECT.calls.search, { body }, { signal, background: true }),
    placeholderData: keepPreviousData,
  });
};

/** Properties.xlsx of every property the applied search matches. */
export async function downloadObjects(f: TObjectSearchFilter) {
  const { locationText: _l, showOnMap: _m, perPage: _p, currentPage: _c, ...rest } = f;
  const blob = await call(OBJECT.calls.download, { body: { ...rest, createdByText: f.createdByText || null } }, { blob: true });
  saveBlob(blob, 'Properties.xlsx');
}

/** A photo's small version, for lists. */
export const objectThumbUrl = (imageId: number) => urlOf(FILE.calls.get, { params: { systemName: String(imageId) }, query: { size: 'thumb' } });
