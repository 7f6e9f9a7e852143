import { queryOptions } from '@tanstack/react-query';
import type { TShortlistAnswer, TShortlistPublic } from '@crm/contract';
import type { TCulture } from '@crm/contract/constants';
import { api } from '../../../lib/api.ts';

/** GET /api/shortlist/{token}: the properties the link's shortlist holds (no sign-in). */
export const shortlistQuery = (token: string, culture: TCulture) =>
  queryOptions({
    // Per language: the properties' titles, types and places come in the reader's.
    queryKey: ['shortlist', token, culture] as const,
    queryFn: ({ signal }) => api<TShortlistPublic>(`/api/shortlist/${encodeURIComponent(token)}`, { signal, handle401: true }),
    retry: false,
  });

/** POST /api/shortlist/{token}/answer. */
export const answerShortlist = (token: string, objectId: number, answer: TShortlistAnswer | null) =>
  api<TShortlistPublic>(`/api/shortlist/${encodeURIComponent(token)}/answer`, { body: { objectId, answer }, handle401: true });
