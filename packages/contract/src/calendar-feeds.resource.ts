import { calls } from './call.ts';
import type { CALENDAR_FEED_API } from './calendar-feeds.ts';

/**
 * Calendar addresses (issue 46, decision 081): made, made anew and revoked by their owner (the
 * office-wide one by office administrators); the calendar itself is served outside /api by its secret.
 */
export const CALENDAR_FEED = {
  calls: calls<typeof CALENDAR_FEED_API>({
    list: 'GET /api/calendarFeeds',
    createOwn: 'POST /api/calendarFeeds/own',
    revokeOwn: 'DELETE /api/calendarFeeds/own',
    createOffice: 'POST /api/calendarFeeds/office',
    revokeOffice: 'DELETE /api/calendarFeeds/office',
    ics: 'GET /calendar/:file',
  }),
  screens: {
    page: '/CalendarFeed',
  },
} as const;
