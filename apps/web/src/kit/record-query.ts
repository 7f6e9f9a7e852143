import { queryOptions, type QueryKey } from '@tanstack/react-query';
import type { AnswerOf, Call, RequestOf } from '@crm/contract/resources';
import { call } from '../lib/api.ts';

/**
 * A record as its screen opens it (the edit call of its resource, by id): always read afresh, never
 * from a cached copy, so the version its saves send is the current one; a failure is the screen's
 * to show (not-found, the error box). `keepOnReconnect`: a form is open on it, and reading it again
 * on reconnecting would open the form afresh and drop what was typed (a save meets a newer version
 * as a 409 and merges).
 */
export const recordQuery = <C extends Call>(queryKey: QueryKey, c: C, id: number, opts: { keepOnReconnect?: boolean } = {}) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<AnswerOf<C>> => call(c, { params: { id } } as RequestOf<C>, { signal }),
    staleTime: 0,
    ...(opts.keepOnReconnect ? { refetchOnReconnect: false } : {}),
    meta: { handlesErrors: true },
  });
