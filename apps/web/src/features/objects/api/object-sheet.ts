import { queryOptions } from '@tanstack/react-query';
import type { TCulture } from '@crm/contract';
import { OBJECT } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** GET /api/object/sheet/{idOrRef}: the property sheet in `culture`, with the street address when asked. */
export const objectSheetQuery = (idOrRef: string, culture: TCulture, address: boolean) =>
  queryOptions({
    queryKey: ['object', 'sheet', idOrRef.toLowerCase(), culture, address] as const,
    queryFn: ({ signal }) => call(OBJECT.calls.sheet, { params: { idOrRef }, query: { culture, address: address ? '1' : '0' } }, { signal }),
    meta: { handlesErrors: true },
  });
