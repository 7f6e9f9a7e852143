import { z } from 'zod';
import { ZChangeKey, ZDateTime, ZId, ZIdString, ZText } from './common.ts';
import { CULTURES } from './constants.ts';
import { DOC_SOURCES } from './doc-template-kinds.ts';
import type { CallSchemas } from './call.ts';

/**
 * Documents sent for signature by link (issue 47, decision 086): staff send a record's document (the
 * mandate, the offer agreement, the handover protocol) to a signer; the signer opens /Sign/{token}
 * without a sign-in, reads the PDF, types the name, draws a signature, accepts and signs. A simple
 * electronic signature (e-mail-grade written form), not an eIDAS qualified one.
 */

/** How long a link works after it was sent. */
export const SIGN_LINK_DAYS = 14;
/** The drawn signature as the page sends it: a PNG data URL, at most this many characters (about 150 KB of image). */
export const SIGN_IMAGE_MAX_CHARS = 200_000;
/** The drawn signature's largest width and height in pixels. */
export const SIGN_IMAGE_MAX_SIDE = 2000;
export const SIGN_NAME_MAX = 200;

/** A link's token: 256 random bits, base64url (43 characters). */
export const ZSignToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'signing.linkInvalid');
export const ZSignTokenParam = z.object({ token: ZSignToken });

export const SIGN_STATUSES = ['sent', 'signed', 'voided', 'expired', 'revoked'] as const;
export type TSignStatus = (typeof SIGN_STATUSES)[number];

const ZSignerName = ZText(SIGN_NAME_MAX).transform((s) => s.trim().replace(/\s+/g, ' ')).refine((s) => s.length >= 2, { message: 'signing.nameRequired' });

/** POST /api/SignRequest/send: a record's document in a language, sent to a signer. */
export const ZSignSend = z.object({
  source: z.enum(DOC_SOURCES),
  id: ZId,
  culture: z.enum(CULTURES),
  name: ZSignerName,
  email: z.string().trim().toLowerCase().email('signing.emailInvalid').max(254),
  /** A handover protocol sent from a deal's page (a deal of that property): the deal's own, its parties the signers. */
  dealId: ZId.optional(),
});
export type TSignSend = z.input<typeof ZSignSend>;

/** One request as the record's page lists it. */
export const ZSignRequest = z.object({
  id: ZId,
  source: z.enum(DOC_SOURCES),
  sourceId: ZId,
  status: z.enum(SIGN_STATUSES),
  signerName: z.string(),
  signerEmail: z.string(),
  culture: z.enum(CULTURES),
  documentName: z.string(),
  sha256: z.string(),
  sentOn: ZDateTime,
  sentBy: z.string().nullable(),
  expiresOn: ZDateTime,
  revokedOn: ZDateTime.nullable(),
  signedOn: ZDateTime.nullable(),
  signedName: z.string().nullable(),
  signedFileId: ZId.nullable(),
  /** The signed copy among the record's files (its stored and own names), while it is there. */
  signedFile: z.object({ systemName: z.string(), userName: z.string() }).nullable(),
  version: z.number().int(),
});
export type TSignRequest = z.infer<typeof ZSignRequest>;

/** POST /api/SignRequest/send: the request, and its link (shown once: only its hash is kept). */
export const ZSignSent = z.object({ request: ZSignRequest, url: z.string(), message: z.string() });
export type TSignSent = z.infer<typeof ZSignSent>;

/**
 * GET /api/SignRequest?source=&id=: a record's requests, newest first, and who may sign it: the
 * mandate's owners, the offer's sellers and buyers, the handover protocol's owners and tenant, or
 * with `dealId` (the deal of that property) the deal's sellers and buyers.
 */
export const ZSignListQuery = z.object({ source: z.enum(DOC_SOURCES), id: ZIdString, dealId: ZIdString.optional() });
/** The roles a proposed signer has on the record. */
export const SIGNER_ROLES = ['owner', 'seller', 'buyer', 'tenant'] as const;
export const ZSigner = z.object({ accountId: ZId, name: z.string(), email: z.string().nullable(), role: z.enum(SIGNER_ROLES) });
export type TSigner = z.infer<typeof ZSigner>;
export const ZSignList = z.object({
  items: z.array(ZSignRequest),
  /** The first of `signers` (with an e-mail when one has it): the dialog's default. */
  signer: z.object({ name: z.string(), email: z.string().nullable() }).nullable(),
  /** Everyone who may sign it, in the document's order, those with an e-mail first. */
  signers: z.array(ZSigner),
});
export type TSignList = z.infer<typeof ZSignList>;

/** POST /api/SignRequest/revoke: the link stops working, based on the request's version. */
export const ZSignRevoke = z.object(ZChangeKey);

/** GET /api/sign/{token}: what the signer's page shows. */
export const ZSignPublic = z.object({
  status: z.enum(SIGN_STATUSES),
  language: z.enum(CULTURES),
  documentName: z.string(),
  sha256: z.string(),
  signerName: z.string(),
  agencyName: z.string(),
  /** The agency's logo (its address on this server), or null when it has none. */
  agencyLogo: z.string().nullable(),
  expiresOn: ZDateTime,
  signedOn: ZDateTime.nullable(),
  /** Whether the PDF can be opened through the link: the document while it may be signed, the signed copy once signed. */
  pdfAvailable: z.boolean(),
});
export type TSignPublic = z.infer<typeof ZSignPublic>;

/** POST /api/sign/{token}: the typed full name, the acceptance and the drawn signature (a PNG data URL; empty: typed name alone). */
export const ZSignBody = z.object({
  name: ZSignerName,
  accept: z.literal(true, { message: 'signing.acceptRequired' }),
  signature: z
    .string()
    .max(SIGN_IMAGE_MAX_CHARS, 'signing.signatureTooLarge')
    .refine((s) => s === '' || /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/.test(s), { message: 'signing.signatureInvalid' }),
});
export type TSignBody = z.input<typeof ZSignBody>;

/** The signing calls and their schemas (decision 057); their methods and paths: `signing.resource.ts`. */
export const SIGN_API = {
  send: { body: ZSignSend, answer: ZSignSent },
  list: { query: ZSignListQuery, answer: ZSignList },
  revoke: { body: ZSignRevoke, answer: ZSignRequest },
  view: { params: ZSignTokenParam, answer: ZSignPublic },
  pdf: { params: ZSignTokenParam },
  sign: { params: ZSignTokenParam, body: ZSignBody, answer: ZSignPublic },
} satisfies Record<string, CallSchemas>;
