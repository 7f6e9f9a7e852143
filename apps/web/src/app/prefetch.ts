import type { FetchQueryOptions } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { firstPage, type ListSource } from '../kit/list-source.ts';
import { sessionStore } from '../lib/session.ts';
import { queryClient } from './query-client.ts';

/**
 * A route's loader that asks for the data its screen reads first, and returns at once: the answers
 * travel while the screen's code downloads (a lazy route's code and its loader start together),
 * and the screen's queries find them in the cache instead of asking only once it has mounted. On a
 * phone's first visit to a record that is a round trip saved after 0.5–1 s of script. Nothing is
 * asked without a session (the screen is about to send the reader to sign in); a fresh answer is
 * not asked again (the queries' staleTime), and failures are the screen's to show.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function prefetching(queries: (args: LoaderFunctionArgs) => FetchQueryOptions<any, any, any, any>[]) {
  return (args: LoaderFunctionArgs) => {
    if (sessionStore.get()) for (const q of queries(args)) void queryClient.prefetchQuery(q);
    return null;
  };
}

/** A list screen's loader: the first page its screen asks for, as its cookies stand (the list's source, kit/list-source.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const firstPageOf = (list: ListSource<any, any>) => prefetching(() => [firstPage(list)]);
