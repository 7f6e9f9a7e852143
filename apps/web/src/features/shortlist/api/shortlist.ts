import { queryOptions } from '@tanstack/react-query';
import type { TShortlistAnswer, TShortlistPublic } from '@crm/contract';
import { api } from '../../../lib/api.ts';

/** GET /api/shortlist/{token}: the properties the link's shortlist holds (no sign-in). */
export const shortlistQuery = (token: string) =>
  queryOptions({
    queryKey: ['shortlist', token] as const,
    queryFn: ({ signal }) => api<TShortlistPublic>(`/api/shortlist/${encodeURIComponent(token)}`, { signal, handle401: true }),
    retry: false,
  });

/** POST /api/shortlist/{token}/answer. */
export const answerShortlist = (token: string, objectId: number, answer: TShortlistAnswer | null) =>
  api<TShortlistPublic>(`/api/shortlist/${encodeURIComponent(token)}/answer`, { body: { objectId, answer }, handle401: true });
