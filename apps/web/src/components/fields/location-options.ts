import type { TSelectOption } from '@crm/contract';
import { SEARCH_MAX_HITS } from '@crm/contract/constants';
import { LOCATION } from '@crm/contract/resources';
import { call } from '../../lib/api.ts';

/**
 * Places matching a typed text (GET /api/location/search): at most 20, each with its path
 * ("Karabournaki, Kalamaria, Thessaloniki"). The single-field editor's suggestions for a
 * 'location' field, and the location picker's.
 */
export async function searchLocations(searchStr: string, signal?: AbortSignal): Promise<{ id: number; text: string }[]> {
  const text = searchStr.trim();
  if (!text) return [];
  const res = await call(LOCATION.calls.search, { query: { searchStr: text } }, { signal, background: true });
  return res.items.slice(0, SEARCH_MAX_HITS);
}

export const loadLocationOptions = async (search: string): Promise<TSelectOption[]> => (await searchLocations(search)).map((h) => ({ value: h.id, text: h.text }));
