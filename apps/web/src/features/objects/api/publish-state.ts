import { queryOptions } from '@tanstack/react-query';
import { PUBLISHING } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

type PublishFlags = { publishRequested?: boolean | null; published?: boolean | null; publishError?: string | null };

/** The object is still on the website, but no longer wanted there: the withdrawal has not run yet. */
export const withdrawalInProgress = (s: PublishFlags) => s.publishRequested === false && s.published === true;

/**
 * Whether the publishing work has still to answer: requested, neither published nor refused; or no
 * longer requested, and still published.
 */
export const publishInProgress = (s: PublishFlags) => (s.publishRequested === true && !s.published && !s.publishError) || withdrawalInProgress(s);

/** On the website, and meant to be (a withdrawal asked for is not shown as published). */
export const shownPublished = (s: PublishFlags) => s.published === true && s.publishRequested !== false;

/** GET /api/object/publishState/{id}: asked again every second while the publishing runs. */
export const publishStateQuery = (id: number, enabled: boolean) =>
  queryOptions({
    queryKey: ['object', 'publishState', id] as const,
    queryFn: ({ signal }) => call(PUBLISHING.calls.state, { params: { id } }, { signal, background: true }),
    enabled,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && !publishInProgress(q.state.data) ? false : 1000),
  });
