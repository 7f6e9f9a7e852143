import type { TSelectOption } from '@crm/contract';
import { SEARCH_MAX_HITS } from '@crm/contract/constants';
import { api } from '../../../lib/api.ts';

export type TLocationHit = { id: number; text: string };

/** GET /api/location/search?searchStr=: places whose name (any of its languages, accents ignored) matches, with their path; at most 20. */
export async function searchLocations(searchStr: string, signal?: AbortSignal): Promise<TLocationHit[]> {
  const text = searchStr.trim();
  if (!text) return [];
  const res = await api<{ items: TLocationHit[] }>('/api/location/search', { query: { searchStr: text }, signal, background: true });
  return res.items.slice(0, SEARCH_MAX_HITS);
}

/** The same as select options: the single-field editor's `loadOptions` for a 'location' field. */
export const loadLocationOptions = async (search: string): Promise<TSelectOption[]> =>
  (await searchLocations(search)).map((h) => ({ value: h.id, text: h.text }));
