import { queryOptions } from '@tanstack/react-query';
import { SHELL } from '@crm/contract/resources';
import { call } from './api.ts';

/** The server's settings the screens need (GET /api/config): read once per session. */
export const webConfigQuery = queryOptions({
  queryKey: ['webConfig'],
  queryFn: ({ signal }) => call(SHELL.calls.config, {}, { signal, background: true }),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: 1,
});
