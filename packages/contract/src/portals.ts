import { z } from 'zod';
import { byId, ZId, ZIdParam, ZOk, ZText, ZVersion, ZVersionQuery } from './common.ts';
import type { CallSchemas } from './call.ts';

/** The portals a channel can feed (decision 083); each has its own mapping module on the server. */
export const PORTAL_KINDS = ['kyero', 'indomio', 'spitogatos', 'xe'] as const;
export type TPortalKind = (typeof PORTAL_KINDS)[number];
/** Which properties a channel sends: every published one, or those chosen one by one. */
export const PORTAL_SELECTIONS = ['all', 'chosen'] as const;
export type TPortalSelection = (typeof PORTAL_SELECTIONS)[number];
export const PORTAL_NAME_MAX = 100;
export const PORTAL_AGENCY_ID_MAX = 50;

/** A channel's feed address: /feed/{secret}/{kind}.xml (no sign-in; the secret keeps it unguessable). */
export const portalFeedPath = (secret: string, kind: TPortalKind) => `/feed/${secret}/${kind}.xml`;

/** A channel's report address: the portal posts its import's errors there (decision 091). */
export const portalReportPath = (secret: string) => `/feed/${secret}/report`;

/** One error a portal reported on its last import of the feed (decision 091). */
export const ZPortalReport = z.object({
  /** The property's reference number as the feed gives it. */
  ref: z.string(),
  /** The property, where the reference is one of ours. */
  objectId: z.number().int().nullable(),
  /** The portal's own words (not translated). */
  message: z.string(),
  /** When the portal reported it (the agency's time). */
  reportedOn: z.string(),
});
export type TPortalReport = z.infer<typeof ZPortalReport>;
/** Most refused properties a channel lists (the newest report's, by reference). */
export const PORTAL_REFUSED_SHOWN = 50;

/** A report as a portal posts it in JSON (its own format is not public: decision 091). */
export const ZPortalReportBody = z.union([
  z.object({ errors: z.array(z.object({ ref: z.union([z.string(), z.number()]), message: z.string() })).max(10000) }),
  z.array(z.object({ ref: z.union([z.string(), z.number()]), message: z.string() })).max(10000),
]);
export const ZPortalReportAnswer = z.object({ recorded: z.number().int() });

/** POST /api/PortalChannels: a new channel (office admins); its feed secret is made by the server. */
export const ZPortalChannelCreate = z.object({
  kind: z.enum(PORTAL_KINDS),
  name: ZText(PORTAL_NAME_MAX).pipe(z.string().trim().min(1)),
  enabled: z.boolean().default(true),
  selection: z.enum(PORTAL_SELECTIONS).default('all'),
  agencyId: ZText(PORTAL_AGENCY_ID_MAX).nullable().optional(),
});
export type TPortalChannelCreate = z.input<typeof ZPortalChannelCreate>;

/** POST /api/PortalChannels/{id}: the channel's settings changed (version guard). */
export const ZPortalChannelUpdate = z.object({
  name: ZText(PORTAL_NAME_MAX).pipe(z.string().trim().min(1)),
  enabled: z.boolean(),
  selection: z.enum(PORTAL_SELECTIONS),
  agencyId: ZText(PORTAL_AGENCY_ID_MAX).nullable().optional(),
  version: ZVersion,
});
export type TPortalChannelUpdate = z.input<typeof ZPortalChannelUpdate>;

export const ZPortalChannel = z.object({
  id: z.number().int(),
  kind: z.enum(PORTAL_KINDS),
  name: z.string(),
  enabled: z.boolean(),
  selection: z.enum(PORTAL_SELECTIONS),
  agencyId: z.string().nullable(),
  /** The feed's absolute address, given to the portal (it holds the secret). */
  feedUrl: z.string(),
  /** When the portal last fetched the feed (the agency's time), null: never. */
  lastFetchedOn: z.string().nullable(),
  /** Properties in the feed now. */
  included: z.number().int(),
  /** Where the portal posts its import's errors (it holds the secret). */
  reportUrl: z.string(),
  /** The properties the portal refused in its last report (the first PORTAL_REFUSED_SHOWN by reference) and how many in all. */
  refused: z.array(ZPortalReport),
  refusedCount: z.number().int(),
  version: z.number().int(),
});
export type TPortalChannel = z.infer<typeof ZPortalChannel>;
export const ZPortalChannelList = z.object({ items: z.array(ZPortalChannel) });
export const ZPortalChannelDeleteQuery = ZVersionQuery;

/** One channel as one property stands in it (the property's publishing card). */
export const ZPortalObjectStatus = z.object({
  channelId: z.number().int(),
  kind: z.enum(PORTAL_KINDS),
  name: z.string(),
  selection: z.enum(PORTAL_SELECTIONS),
  /** Sent by this channel if it can be: every published property, or chosen for it. */
  selected: z.boolean(),
  /** In the channel's feed now: on the website, selected, and nothing missing. */
  included: z.boolean(),
  /** What the channel needs and the property lacks, in the reader's language; empty: ready. */
  missing: z.array(z.string()),
  /** What the portal will not get though the property goes (a photo too small for it, photos past its count), in the reader's language. */
  notes: z.array(z.string()),
  /** What the portal reported of this property on its last import (its own words, with the time). */
  reports: z.array(ZPortalReport),
  lastFetchedOn: z.string().nullable(),
});
export type TPortalObjectStatus = z.infer<typeof ZPortalObjectStatus>;
export const ZPortalObjectStatusList = z.object({ items: z.array(ZPortalObjectStatus) });
/** POST /api/object/portals/{id}: the property chosen for a "chosen" channel, or not. */
export const ZPortalInclude = z.object({ channelId: ZId, included: z.boolean() });

/** The portal channels' calls (decision 083). */
export const PORTAL_API = {
  list: { answer: ZPortalChannelList },
  create: { body: ZPortalChannelCreate, answer: ZPortalChannel },
  update: { params: ZIdParam, body: ZPortalChannelUpdate, answer: ZPortalChannel },
  remove: { params: ZIdParam, query: ZPortalChannelDeleteQuery, answer: ZOk },
  objectStatus: byId(ZPortalObjectStatusList),
  include: { params: ZIdParam, body: ZPortalInclude, answer: ZPortalObjectStatusList },
  feed: {},
  report: { answer: ZPortalReportAnswer },
} satisfies Record<string, CallSchemas>;
