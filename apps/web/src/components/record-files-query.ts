import { queryOptions } from '@tanstack/react-query';
import { FILE } from '@crm/contract/resources';
import { call } from '../lib/api.ts';

export const recordFilesKey = (entityType: number, id: number) => ['files', entityType, id] as const;

/** A record's files: read by its section, and asked early by the route (app/prefetch.ts). */
export const recordFilesQuery = (entityType: number, id: number) =>
  queryOptions({
    queryKey: recordFilesKey(entityType, id),
    queryFn: ({ signal }) => call(FILE.calls.list, { query: { parentType: entityType, parentId: id } }, { signal }),
    enabled: id > 0,
  });
