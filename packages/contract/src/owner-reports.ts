import { z } from 'zod';
import { byId, ZId, ZIdParam } from './common.ts';
import type { CallSchemas } from './call.ts';

/**
 * The owner's report (issue 47, decision 087): a property under mandate has private, read-only links
 * for its owners (no sign-in), showing the viewings (date, the client's reaction, only the comments the
 * agent shared; never a client's name or contacts), the enquiries per month and source, the shortlists
 * it was sent in, its price changes and the mandate's dates. The link is answered once; only its
 * SHA-256 is kept. The agent mails it on demand or switches on a monthly mail per property.
 */

/** How long a report link works after it was made (a monthly mail brings a new one). */
export const OWNER_REPORT_LINK_DAYS = 100;
/** The viewings the staff card lists to share, and the report shows: the newest this many. */
export const OWNER_REPORT_MAX_VIEWINGS = 200;

/** A link's token: 256 random bits, base64url (43 characters). */
export const ZOwnerReportToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'ownerReport.linkInvalid');
export const ZOwnerReportTokenParam = z.object({ token: ZOwnerReportToken });

/** One viewing of the property as the staff card lists it: the client's comment and whether the owner sees it. */
export const ZOwnerReportViewingLine = z.object({
  viewingId: ZId,
  date: z.string().nullable(),
  result: z.number().nullable(),
  comment: z.string().nullable(),
  /** The comment as shared with the owner (kept as it was when shared), null while not shared. */
  shared: z.string().nullable(),
});
export type TOwnerReportViewingLine = z.infer<typeof ZOwnerReportViewingLine>;

/** GET /api/ownerReport/{id}: the property's report set-up as the staff card shows it. */
export const ZOwnerReportState = z.object({
  objectId: ZId,
  /** The mandate in force, without which no link is made or mailed. */
  mandateInForce: z.boolean(),
  monthly: z.boolean(),
  /** Links that work now. */
  activeLinks: z.number(),
  lastLinkOn: z.string().nullable(),
  lastMailedOn: z.string().nullable(),
  /** The mandate's owners: whom "send now" mails (those with an e-mail). */
  owners: z.array(z.object({ name: z.string(), email: z.string().nullable(), language: z.enum(['en', 'el', 'ru']) })),
  viewings: z.array(ZOwnerReportViewingLine),
});
export type TOwnerReportState = z.infer<typeof ZOwnerReportState>;

/** A new link: answered this once. */
export const ZOwnerReportLink = z.object({ url: z.string(), state: ZOwnerReportState });
export type TOwnerReportLink = z.infer<typeof ZOwnerReportLink>;

/** POST /api/ownerReport/{id}/send: mailed now to these addresses. */
export const ZOwnerReportSent = z.object({ sentTo: z.array(z.string()), state: ZOwnerReportState });
export type TOwnerReportSent = z.infer<typeof ZOwnerReportSent>;

export const ZOwnerReportMonthlyBody = z.object({ monthly: z.boolean() });
export const ZOwnerReportShareBody = z.object({ viewingId: ZId, share: z.boolean() });
export type TOwnerReportShareBody = z.infer<typeof ZOwnerReportShareBody>;

/** GET /api/ownerReport/public/{token}: the owner's page. */
export const ZOwnerReportPublic = z.object({
  language: z.enum(['en', 'el', 'ru']),
  agency: z.object({ name: z.string(), logo: z.string().nullable(), phone: z.string().nullable(), email: z.string().nullable(), address: z.string().nullable() }),
  property: z.object({ ref: z.string(), title: z.string() }),
  mandate: z.object({ kind: z.enum(['simple', 'exclusive']), startDate: z.string(), endDate: z.string(), extendedUntil: z.string().nullable() }).nullable(),
  madeOn: z.string(),
  expiresOn: z.string(),
  viewings: z.array(z.object({ date: z.string().nullable(), result: z.number().nullable(), comment: z.string().nullable() })),
  /** Enquiries (leads offered this property) per month (YYYY-MM) and source, newest month first. */
  enquiries: z.array(z.object({ month: z.string(), source: z.string().nullable(), count: z.number() })),
  /** The shortlists it was sent to clients in. */
  shortlists: z.number(),
  /** Its page's views on the agency's site per month (YYYY-MM), newest first. */
  siteViews: z.array(z.object({ month: z.string(), views: z.number() })),
  /** Price changes from the action log: the day and the new price per service. */
  prices: z.array(z.object({ date: z.string(), service: z.enum(['sale', 'rent', 'shortRent']), price: z.number().nullable() })),
});
export type TOwnerReportPublic = z.infer<typeof ZOwnerReportPublic>;

/** The owner's report's calls (decision 087); their methods and paths: `owner-reports.resource.ts`. */
export const OWNER_REPORT_API = {
  state: byId(ZOwnerReportState),
  createLink: byId(ZOwnerReportLink),
  send: byId(ZOwnerReportSent),
  revoke: byId(ZOwnerReportState),
  monthly: { params: ZIdParam, body: ZOwnerReportMonthlyBody, answer: ZOwnerReportState },
  share: { params: ZIdParam, body: ZOwnerReportShareBody, answer: ZOwnerReportState },
  view: { params: ZOwnerReportTokenParam, answer: ZOwnerReportPublic },
} satisfies Record<string, CallSchemas>;
