import { queryOptions } from '@tanstack/react-query';
import type { TShortlistAnswer } from '@crm/contract';
import type { TCulture } from '@crm/contract/constants';
import { SHORTLIST } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** GET /api/shortlist/{token}: the properties the link's shortlist holds (no sign-in). */
export const shortlistQuery = (token: string, culture: TCulture) =>
  queryOptions({
    // Per language: the properties' titles, types and places come in the reader's.
    queryKey: ['shortlist', token, culture] as const,
    queryFn: ({ signal }) => call(SHORTLIST.calls.view, { params: { token } }, { signal, handle401: true }),
    retry: false,
  });

/** POST /api/shortlist/{token}/answer. */
export const answerShortlist = (token: string, objectId: number, answer: TShortlistAnswer | null) =>
  call(SHORTLIST.calls.answer, { params: { token }, body: { objectId, answer } }, { handle401: true });
