import { CALENDAR_FEED } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** The calendar addresses' calls (decision 081), for the reader's own screen. */
export const calendarFeedsQuery = () => ({
  queryKey: ['calendarFeeds'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => call(CALENDAR_FEED.calls.list, {}, { signal }),
});
export const createFeed = (scope: 'own' | 'office') => call(scope === 'own' ? CALENDAR_FEED.calls.createOwn : CALENDAR_FEED.calls.createOffice, {});
export const revokeFeed = (scope: 'own' | 'office') => call(scope === 'own' ? CALENDAR_FEED.calls.revokeOwn : CALENDAR_FEED.calls.revokeOffice, {});
