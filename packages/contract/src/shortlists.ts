import { z } from 'zod';
import { byId, ZDateTime, ZId, ZIdParam, ZIdString } from './common.ts';
import type { CallSchemas } from './call.ts';
import { SHORTLIST_MAX_OBJECTS } from './constants.ts';

/**
 * Shortlists: the properties an agent chose for a lead, sent to the client as a link (by e-mail or
 * copied into a chat). The link opens /Shortlist/{token} without a sign-in; the client marks each
 * property "Interested" or "Not for me".
 */

/** How long a shortlist's link works after it was sent. */
export const SHORTLIST_LINK_DAYS = 30;

export const SHORTLIST_CHANNELS = ['email', 'link'] as const;
export type TShortlistChannel = (typeof SHORTLIST_CHANNELS)[number];
export const SHORTLIST_ANSWERS = ['interested', 'notForMe'] as const;
export type TShortlistAnswer = (typeof SHORTLIST_ANSWERS)[number];

/** A link's token: 256 random bits, base64url (43 characters). */
export const ZShortlistToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'shortlist.linkInvalid');
export const ZShortlistTokenParam = z.object({ token: ZShortlistToken });
export const ZShortlistPhotoParams = z.object({ token: ZShortlistToken, objectId: ZIdString });
/** POST /api/lead/{id}/shortlist/{shortlistId}/withdraw: the lead and one of its shortlists. */
export const ZShortlistWithdrawParams = z.object({ id: ZIdString, shortlistId: ZIdString });

/** POST /api/lead/{id}/shortlist: which offered properties, and how the client gets them. */
export const ZShortlistSend = z.object({
  objectIds: z.array(ZId).min(1, 'shortlist.noneChosen').max(SHORTLIST_MAX_OBJECTS, 'shortlist.tooMany'),
  channel: z.enum(SHORTLIST_CHANNELS),
});
export type TShortlistSend = z.infer<typeof ZShortlistSend>;

export const ZShortlistSent = z.object({
  /** The client's link (shown once: only its hash is kept). */
  url: z.string(),
  /** Where it was mailed (channel email), else null. */
  email: z.string().nullable(),
  message: z.string(),
});
export type TShortlistSent = z.infer<typeof ZShortlistSent>;

/** A shortlist as the lead's page lists it. */
export const ZShortlistSummary = z.object({
  id: ZId,
  sentOn: ZDateTime,
  sentBy: z.string().nullable(),
  channel: z.enum(SHORTLIST_CHANNELS),
  email: z.string().nullable(),
  language: z.string(),
  expiresOn: ZDateTime,
  expired: z.boolean(),
  /** When the client first opened it; null while not opened. */
  openedOn: ZDateTime.nullable(),
  /** When the office withdrew the link, and who; null while it works. */
  withdrawnOn: ZDateTime.nullable(),
  withdrawnBy: z.string().nullable(),
  items: z.array(
    z.object({
      objectId: ZId,
      objectReferenceNumber: z.string(),
      title: z.string().nullable(),
      answer: z.enum(SHORTLIST_ANSWERS).nullable(),
      answeredOn: ZDateTime.nullable(),
    }),
  ),
});
export type TShortlistSummary = z.infer<typeof ZShortlistSummary>;
export const ZShortlistList = z.object({ items: z.array(ZShortlistSummary) });
export type TShortlistList = z.infer<typeof ZShortlistList>;

/** One property as the client's page shows it: public facts only. */
export const ZShortlistProperty = z.object({
  objectId: ZId,
  ref: z.string(),
  title: z.string(),
  type: z.string(),
  /** The public place (area, town), never the address. */
  place: z.string(),
  price: z.object({ service: z.enum(['sale', 'rent', 'shortRent']), price: z.number(), was: z.number().nullable() }).nullable(),
  bedrooms: z.number().nullable(),
  area: z.number().nullable(),
  description: z.string(),
  /** The main photo (through the link), or null. */
  photo: z.string().nullable(),
  /** Its page on the public site when published, else null. */
  publicUrl: z.string().nullable(),
  /** False once sold, let or taken off the market: shown without price or answers, answers refused. */
  available: z.boolean(),
  answer: z.enum(SHORTLIST_ANSWERS).nullable(),
});
export type TShortlistProperty = z.infer<typeof ZShortlistProperty>;

/** GET /api/shortlist/{token}: the client's page. */
export const ZShortlistPublic = z.object({
  language: z.enum(['en', 'el', 'ru']),
  clientName: z.string().nullable(),
  agentName: z.string().nullable(),
  expiresOn: ZDateTime,
  agency: z.object({ name: z.string(), logo: z.string().nullable(), address: z.string().nullable(), phone: z.string().nullable(), email: z.string().nullable() }),
  items: z.array(ZShortlistProperty),
});
export type TShortlistPublic = z.infer<typeof ZShortlistPublic>;

/** POST /api/shortlist/{token}/answer: the client's answer on one property (null takes it back). */
export const ZShortlistAnswerBody = z.object({ objectId: ZId, answer: z.enum(SHORTLIST_ANSWERS).nullable() });
export type TShortlistAnswerBody = z.infer<typeof ZShortlistAnswerBody>;

/** The shortlists' calls and their schemas (decision 057); their methods and paths: `shortlists.resource.ts`. */
export const SHORTLIST_API = {
  send: { params: ZIdParam, body: ZShortlistSend, answer: ZShortlistSent },
  list: byId(ZShortlistList),
  again: { params: ZShortlistWithdrawParams, answer: ZShortlistSent },
  withdraw: { params: ZShortlistWithdrawParams, answer: ZShortlistList },
  view: { params: ZShortlistTokenParam, answer: ZShortlistPublic },
  answer: { params: ZShortlistTokenParam, body: ZShortlistAnswerBody, answer: ZShortlistPublic },
  photo: { params: ZShortlistPhotoParams },
} satisfies Record<string, CallSchemas>;
