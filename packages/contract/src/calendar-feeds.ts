import { z } from 'zod';
import type { CallSchemas } from './call.ts';

/**
 * Calendar addresses (issue 46, decision 081): a staff member's own (their viewings and planned
 * activities) and an office administrator's office-wide one (every agent's viewings), subscribed
 * to from a phone's or Outlook's calendar. The address is answered once; only its SHA-256 is kept.
 */
export const CALENDAR_FEED_SCOPES = ['own', 'office'] as const;
export type TCalendarFeedScope = (typeof CALENDAR_FEED_SCOPES)[number];
/** The feed's window: this many days back and ahead of today. */
export const CALENDAR_FEED_DAYS_BACK = 60;
export const CALENDAR_FEED_DAYS_AHEAD = 365;

/** One address's state (never the address itself). */
export const ZCalendarFeed = z.object({
  scope: z.enum(CALENDAR_FEED_SCOPES),
  /** An address that works now. */
  active: z.boolean(),
  /** The address's first characters, to tell it from a newer one. */
  hint: z.string().nullable(),
  createdOn: z.string().nullable(),
  /** When a calendar last fetched it. */
  lastUsedOn: z.string().nullable(),
});
export type TCalendarFeed = z.infer<typeof ZCalendarFeed>;

/** GET /api/calendarFeeds: the reader's own address and, for an office administrator, the office-wide one (else null). */
export const ZCalendarFeeds = z.object({ own: ZCalendarFeed, office: ZCalendarFeed.nullable() });
export type TCalendarFeeds = z.infer<typeof ZCalendarFeeds>;

/** A new address (the old one stops working): answered this once, with its QR code as SVG. */
export const ZCalendarFeedCreated = z.object({ feed: ZCalendarFeed, url: z.string(), qrSvg: z.string() });
export type TCalendarFeedCreated = z.infer<typeof ZCalendarFeedCreated>;

/** The calendar addresses' calls (decision 081). */
export const CALENDAR_FEED_API = {
  list: { answer: ZCalendarFeeds },
  createOwn: { answer: ZCalendarFeedCreated },
  revokeOwn: { answer: ZCalendarFeed },
  createOffice: { answer: ZCalendarFeedCreated },
  revokeOffice: { answer: ZCalendarFeed },
  /** The calendar itself (text/calendar), by its address's secret: no sign-in. */
  ics: {},
} satisfies Record<string, CallSchemas>;
