import { queryOptions } from '@tanstack/react-query';
import type { TWebConfig } from '@crm/contract';
import { api } from './api.ts';

/** The server's settings the screens need (GET /api/config): read once per session. */
export const webConfigQuery = queryOptions({
  queryKey: ['webConfig'],
  queryFn: ({ signal }) => api<TWebConfig>('/api/config', { signal, background: true }),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: 1,
});
