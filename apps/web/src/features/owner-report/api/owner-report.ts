import { queryOptions } from '@tanstack/react-query';
import type { TCulture } from '@crm/contract/constants';
import { OWNER_REPORT } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** GET /api/ownerReport/public/{token}: the owner's report (no sign-in). */
export const ownerReportPageQuery = (token: string, culture: TCulture) =>
  queryOptions({
    // Per language: the property's title comes in the reader's.
    queryKey: ['ownerReportPage', token, culture] as const,
    queryFn: ({ signal }) => call(OWNER_REPORT.calls.view, { params: { token } }, { signal, handle401: true }),
    retry: false,
  });
