import { z } from 'zod';
import { byId, ZDate, ZDateTime, ZId, ZIdParam, ZIdString, ZOk, ZSaveKey, ZText, ZVersionQuery } from './common.ts';
import { MANDATE_KINDS, MANDATE_MAX_EXCEPTIONS, MANDATE_MAX_OWNERS } from './mandate-fields.ts';
import type { CallSchemas } from './call.ts';

export * from './mandate-fields.ts';

/** An exception of a mandate: a person the owner may sell or let to without the agency's fee, named, with a note. */
export const ZMandateException = z.object({ name: ZText(200).refine((s) => s.trim() !== '', { message: 'validation.required' }), note: ZText(1000).nullable().optional() });
export type TMandateException = z.infer<typeof ZMandateException>;

/**
 * An owner who gave the mandate: the account's identity as the form needs it (read from the
 * account: father's name is its middle name, the ID card and passport numbers, the ΑΦΜ, the
 * address), and the tax office (ΔΟΥ), which the mandate keeps.
 */
export const ZMandateOwner = z.object({
  accountId: z.number().int(),
  name: z.string(),
  fatherName: z.string().nullable(),
  idNumber: z.string().nullable(),
  passportNumber: z.string().nullable(),
  taxNumber: z.string().nullable(),
  address: z.string().nullable(),
  taxOffice: z.string().nullable(),
});
export type TMandateOwner = z.infer<typeof ZMandateOwner>;

/** A property's mandate (decision 079). */
export const ZMandate = z.object({
  id: z.number().int(),
  objectId: z.number().int(),
  kind: z.enum(MANDATE_KINDS),
  startDate: ZDate,
  endDate: ZDate,
  /** The one extension's last day; null: not extended. */
  extendedUntil: ZDate.nullable(),
  askingPrice: z.number().nullable(),
  commissionPercent: z.number().nullable(),
  commissionAmount: z.number().nullable(),
  exceptions: z.array(ZMandateException),
  notes: z.string().nullable(),
  owners: z.array(ZMandateOwner),
  /** In force today (the agency's day): started, and not past its end or its extension's. */
  inForce: z.boolean(),
  createdOn: ZDateTime,
  createdBy: z.string().nullable(),
  modifiedOn: ZDateTime,
  modifiedBy: z.string().nullable(),
  version: z.number().int(),
});
export type TMandate = z.infer<typeof ZMandate>;

/** GET /api/Mandate?objectId=: a property's mandates, newest first, and the one in force (null: none). */
export const ZMandateListQuery = z.object({ objectId: ZIdString });
export const ZMandateListAnswer = z.object({ items: z.array(ZMandate), inForce: ZMandate.nullable() });
export type TMandateListAnswer = z.infer<typeof ZMandateListAnswer>;

/**
 * POST /api/Mandate/update: a new mandate (no id) or a change (id and version). An exclusive one
 * longer than 8 months, extended more than once or by more than 4 months is refused (400, the
 * law's reason at the field), and nothing is stored.
 */
export const ZMandateEdit = z.object({
  ...ZSaveKey,
  objectId: ZId,
  kind: z.enum(MANDATE_KINDS),
  startDate: ZDate,
  endDate: ZDate,
  extendedUntil: ZDate.nullable().optional(),
  askingPrice: z.number().min(0).max(999999999999.99).nullable().optional(),
  commissionPercent: z.number().min(0).max(100).nullable().optional(),
  commissionAmount: z.number().min(0).max(999999999999.99).nullable().optional(),
  exceptions: z.array(ZMandateException).max(MANDATE_MAX_EXCEPTIONS).default([]),
  notes: ZText(4000).nullable().optional(),
  owners: z.array(z.object({ accountId: ZId, taxOffice: ZText(100).nullable().optional() })).max(MANDATE_MAX_OWNERS).default([]),
});
export type TMandateEdit = z.input<typeof ZMandateEdit>;
export const ZMandateDeleteQuery = ZVersionQuery;

/** A mandate ending soon, as the agents' list shows it. */
export const ZMandateEnding = z.object({
  id: z.number().int(),
  objectId: z.number().int(),
  referenceNumber: z.string(),
  objectTitle: z.string().nullable(),
  kind: z.enum(MANDATE_KINDS),
  endsOn: ZDate,
  daysLeft: z.number().int(),
  owners: z.string().nullable(),
  agents: z.string().nullable(),
});
export type TMandateEnding = z.infer<typeof ZMandateEnding>;
/** GET /api/Mandate/endingSoon?mine=: mandates in force ending within 30 days, soonest first; `mine=1` those of the caller's properties. */
export const ZMandateEndingQuery = z.object({ mine: z.enum(['0', '1']).optional() });
export const ZMandateEndingAnswer = z.object({ items: z.array(ZMandateEnding) });
export type TMandateEndingAnswer = z.infer<typeof ZMandateEndingAnswer>;

/** The mandates' calls and their schemas (decision 057); their methods and paths: `mandates.resource.ts`. */
export const MANDATE_API = {
  list: { query: ZMandateListQuery, answer: ZMandateListAnswer },
  edit: byId(ZMandate),
  update: { body: ZMandateEdit, answer: ZMandate },
  remove: { params: ZIdParam, query: ZMandateDeleteQuery, answer: ZOk },
  endingSoon: { query: ZMandateEndingQuery, answer: ZMandateEndingAnswer },
} satisfies Record<string, CallSchemas>;
