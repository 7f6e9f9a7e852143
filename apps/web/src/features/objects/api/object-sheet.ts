import { queryOptions } from '@tanstack/react-query';
import type { TCulture, TObjectSheetAnswer } from '@crm/contract';
import { api } from '../../../lib/api.ts';

/** GET /api/object/sheet/{idOrRef}: the property sheet in `culture`, with the street address when asked. */
export const objectSheetQuery = (idOrRef: string, culture: TCulture, address: boolean) =>
  queryOptions({
    queryKey: ['object', 'sheet', idOrRef.toLowerCase(), culture, address] as const,
    queryFn: ({ signal }) => api<TObjectSheetAnswer>(`/api/object/sheet/${encodeURIComponent(idOrRef)}?culture=${culture}&address=${address ? 1 : 0}`, { signal }),
    meta: { handlesErrors: true },
  });
