import { queryOptions } from '@tanstack/react-query';
import type { TObjectPublishState } from '@crm/contract';
import { api } from '../../../lib/api.ts';

/** Whether the publishing work has still to answer: requested, neither published nor refused. */
export const publishInProgress = (s: { publishRequested?: boolean | null; published?: boolean | null; publishError?: string | null }) =>
  s.publishRequested === true && !s.published && !s.publishError;

/** GET /api/object/publishState/{id}: asked again every second while the publishing runs. */
export const publishStateQuery = (id: number, enabled: boolean) =>
  queryOptions({
    queryKey: ['object', 'publishState', id] as const,
    queryFn: ({ signal }) => api<TObjectPublishState>(`/api/object/publishState/${id}`, { signal, background: true }),
    enabled,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && !publishInProgress(q.state.data) ? false : 1000),
  });
