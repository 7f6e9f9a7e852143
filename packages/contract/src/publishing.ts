import { z } from 'zod';
import { byId, listAnswer, MAX_ID, queryPaging } from './common.ts';
import type { CallSchemas } from './call.ts';
import { OBJECT_SUBTYPES } from './object-fields.ts';

/** GET /api/object/publishState/{id}: where the object's publishing stands (polled while it runs). */
export const ZObjectPublishState = z.object({
  id: z.number().int(),
  referenceNumber: z.string(),
  publishRequested: z.boolean(),
  published: z.boolean(),
  /** What is missing, in the reader's language; null when nothing is. */
  publishError: z.string().nullable(),
  /** The object's public page (relative), when it is published. */
  publicUrl: z.string().nullable(),
});
export type TObjectPublishState = z.infer<typeof ZObjectPublishState>;

/** The public site's addresses (no sign-in). */
export const PUBLIC_LISTINGS_PATH = '/listings';
export const PUBLIC_FEED_PATH = '/feed/listings.xml';
export const publicObjectPath = (referenceNumber: string) => `${PUBLIC_LISTINGS_PATH}/${referenceNumber}`;

export const PUBLIC_SERVICES = ['sale', 'rent', 'shortRent'] as const;
export const ZPublicService = z.enum(PUBLIC_SERVICES);
export type TPublicService = z.infer<typeof ZPublicService>;
export const PUBLIC_SORTS = ['new', 'priceAsc', 'priceDesc'] as const;

/** The public list's kinds: 't1'..'t4' an object type, 's1'..'s17' a subtype; nothing else is a kind. */
const PUBLIC_KINDS = new Set([...new Set(OBJECT_SUBTYPES.map((s) => `t${s.parent}`)), ...OBJECT_SUBTYPES.map((s) => `s${s.value}`)]);
export const isPublicKind = (kind: string) => PUBLIC_KINDS.has(kind);

/**
 * GET /api/public/listings (no sign-in): the published objects, filtered as the public list is.
 * kind: 't1'..'t4' an object type, 's1'.. a subtype; place: a place id (that place or inside it).
 */
export const ZPublicListQuery = z.object({
  service: ZPublicService.optional(),
  kind: z.string().refine(isPublicKind).optional(),
  place: z.coerce.number().int().min(1).max(MAX_ID).optional(),
  priceMin: z.coerce.number().int().min(0).max(1e10).optional(),
  priceMax: z.coerce.number().int().min(0).max(1e10).optional(),
  bedrooms: z.coerce.number().int().min(0).max(50).optional(),
  sort: z.enum(PUBLIC_SORTS).default('new'),
  lang: z.enum(['en', 'el', 'ru']).optional(),
  ...queryPaging(100, 12),
});
export type TPublicListQuery = z.infer<typeof ZPublicListQuery>;

export const ZPublicPrice = z.object({ service: ZPublicService, price: z.number(), was: z.number().nullable() });
export const ZPublicMap = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('point'), latitude: z.number(), longitude: z.number(), zoom: z.number().int() }),
  z.object({ kind: z.literal('circle'), latitude: z.number(), longitude: z.number(), radius: z.number() }),
]);

/**
 * A published object as anyone may see it: what the public site shows, nothing more. It carries
 * no internal id (the reference number is the public key), no owner, notes, keys or staff, and the
 * exact address or point only when the object says they may be shown.
 */
export const ZPublicObject = z.object({
  ref: z.string(),
  url: z.string(),
  title: z.string(),
  description: z.string(),
  type: z.string(),
  typeId: z.number().int().nullable(),
  subTypeId: z.number().int().nullable(),
  place: z.string(),
  services: z.array(ZPublicService),
  prices: z.array(ZPublicPrice),
  sharedExpenses: z.number().nullable(),
  facts: z.array(z.object({ key: z.string(), value: z.union([z.string(), z.number()]) })),
  features: z.array(z.string()),
  address: z.string().nullable(),
  map: ZPublicMap.nullable(),
  photos: z.array(z.object({ web: z.string(), thumb: z.string() })),
  videoURL: z.string().nullable(),
  featured: z.boolean(),
  reserved: z.boolean(),
  updated: z.string().nullable(),
});
export type TPublicObjectDto = z.infer<typeof ZPublicObject>;
export const ZPublicList = listAnswer(ZPublicObject);
export type TPublicListDto = z.infer<typeof ZPublicList>;
export const ZPublicRefParam = z.object({ ref: z.string().regex(/^\d{1,9}$/) });
export const ZPublicObjectQuery = z.object({ lang: z.enum(['en', 'el', 'ru']).optional() });

/** The publishing's call and its schemas (decision 057): an object's state on the website. */
export const PUBLISHING_API = {
  state: byId(ZObjectPublishState),
} satisfies Record<string, CallSchemas>;

/**
 * The public site's calls (decision 057; their methods and paths: `publishing.resource.ts`): the
 * published objects as JSON for the agency's own site or apps, and the site's pages, which read
 * their query, params and form (urlencoded) themselves and answer HTML, a script, a photo or the feed.
 */
export const PUBLIC_SITE_API = {
  listings: { query: ZPublicListQuery, answer: ZPublicList },
  listing: { params: ZPublicRefParam, query: ZPublicObjectQuery, answer: ZPublicObject },
  listPage: {},
  termsPage: {},
  objectPage: {},
  contactPage: {},
  contact: {},
  script: {},
  photo: {},
  feed: {},
} satisfies Record<string, CallSchemas>;
