import { z } from 'zod';
import { ZId, ZIdParam, ZOk, ZText, ZVersion, ZVersionString } from './common.ts';
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
  version: z.number().int(),
});
export type TPortalChannel = z.infer<typeof ZPortalChannel>;
export const ZPortalChannelList = z.object({ items: z.array(ZPortalChannel) });
export const ZPortalChannelDeleteQuery = z.object({ version: ZVersionString });

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
  objectStatus: { params: ZIdParam, answer: ZPortalObjectStatusList },
  include: { params: ZIdParam, body: ZPortalInclude, answer: ZPortalObjectStatusList },
  feed: {},
} satisfies Record<string, CallSchemas>;
