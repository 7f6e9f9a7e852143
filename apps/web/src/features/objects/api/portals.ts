import { queryOptions } from '@tanstack/react-query';
import { PORTAL } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/**
 * GET /api/object/portals/{id}: each active portal channel as this property stands in it (decision 083);
 * `stamp` (its last change, whether it is on the website) asks again when the property changes.
 */
export const objectPortalsQuery = (id: number, stamp: string) =>
  queryOptions({
    queryKey: ['object', 'portals', id, stamp] as const,
    queryFn: ({ signal }) => call(PORTAL.calls.objectStatus, { params: { id } }, { signal }),
  });

/** The property chosen for a "chosen" channel, or not; answers the channels as they stand now. */
export const setObjectPortal = (id: number, channelId: number, included: boolean) => call(PORTAL.calls.include, { params: { id }, body: { channelId, included } });
