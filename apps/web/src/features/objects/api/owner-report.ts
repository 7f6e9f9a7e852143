import { queryOptions } from '@tanstack/react-query';
import { OWNER_REPORT } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

export const ownerReportKeys = { ofObject: (objectId: number) => ['ownerReport', objectId] as const };

/** GET /api/ownerReport/{id}: the property's owner's report set-up (decision 087). */
export const ownerReportQuery = (objectId: number) =>
  queryOptions({
    queryKey: ownerReportKeys.ofObject(objectId),
    queryFn: ({ signal }) => call(OWNER_REPORT.calls.state, { params: { id: objectId } }, { signal }),
    enabled: objectId > 0,
  });

export const makeOwnerReportLink = (id: number) => call(OWNER_REPORT.calls.createLink, { params: { id } });
export const sendOwnerReport = (id: number) => call(OWNER_REPORT.calls.send, { params: { id } });
export const revokeOwnerReport = (id: number) => call(OWNER_REPORT.calls.revoke, { params: { id } });
export const setOwnerReportMonthly = (id: number, monthly: boolean) => call(OWNER_REPORT.calls.monthly, { params: { id }, body: { monthly } });
export const shareWithOwner = (id: number, viewingId: number, share: boolean) => call(OWNER_REPORT.calls.share, { params: { id }, body: { viewingId, share } });
