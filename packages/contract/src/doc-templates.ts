import { z } from 'zod';
import { ZIdParam, ZText, ZVersion } from './common.ts';
import { CULTURES } from './constants.ts';
import type { CallSchemas } from './call.ts';

/**
 * The agency's document templates (issue 47, decision 084): the mandate (simple and exclusive), the
 * offer and deposit agreement of a deal, and the handover protocol of a property. Each is, per
 * language, a title, a body (paragraphs split by a blank line; a line starting "## " is a heading)
 * and its signature blocks (one a line). Placeholders are `{group.name}` and are filled from the
 * records; the defaults are texts (doctemplates.default.<template>.<part>), an edited one is stored.
 */
export const DOC_TEMPLATES = ['mandateSimple', 'mandateExclusive', 'offer', 'handover'] as const;
export type TDocTemplateKind = (typeof DOC_TEMPLATES)[number];
export const DOC_TEMPLATE_PARTS = ['title', 'body', 'signatures'] as const;
export type TDocTemplatePart = (typeof DOC_TEMPLATE_PARTS)[number];
/** What a document is made from: a mandate (its kind picks the template), a deal, a property. */
export const DOC_SOURCES = ['mandate', 'offer', 'handover'] as const;
export type TDocSource = (typeof DOC_SOURCES)[number];

export const DOC_TITLE_MAX = 300;
export const DOC_BODY_MAX = 30000;
export const DOC_SIGNATURES_MAX = 1000;

const AGENCY = ['agency.name', 'agency.registry', 'agency.taxNumber', 'agency.taxOffice', 'agency.address', 'agency.phone', 'agency.email'];
const PROPERTY = ['property.ref', 'property.address', 'property.type', 'property.area', 'property.floor'];
const COMMON = ['document.date', 'agent.name', ...AGENCY, ...PROPERTY];
const MANDATE = ['mandate.owners', 'mandate.start', 'mandate.end', 'mandate.months', 'mandate.price', 'mandate.commission', 'mandate.notes'];

/** The placeholders each template may hold (without braces); any other is refused on save. */
export const DOC_PLACEHOLDERS: Record<TDocTemplateKind, readonly string[]> = {
  mandateSimple: [...COMMON, ...MANDATE],
  mandateExclusive: [...COMMON, ...MANDATE, 'mandate.exceptions', 'mandate.extendedUntil'],
  offer: [...COMMON, 'deal.buyers', 'deal.sellers', 'deal.purpose', 'deal.price', 'deal.askingPrice', 'deal.deposit', 'deal.depositDate', 'deal.commission', 'deal.signBy', 'deal.rentStart', 'deal.months', 'deal.notes'],
  handover: [...COMMON, 'handover.owners', 'handover.tenants', 'handover.keys', 'handover.rent', 'handover.leaseStart'],
};

/** The placeholders written in a text, each once, in the order they first appear. */
export const placeholdersIn = (text: string): string[] => [...new Set([...text.matchAll(/\{([^{}\s]{1,60})\}/g)].map((m) => m[1]!))];

export const ZDocCulture = z.enum(CULTURES);
export const ZDocTemplateKind = z.enum(DOC_TEMPLATES);

/** One template in one language: its texts, whether they are the agency's own (stored) or the default, and its version (0: the default, never saved). */
export const ZDocTemplateText = z.object({
  kind: ZDocTemplateKind,
  culture: ZDocCulture,
  title: z.string(),
  body: z.string(),
  signatures: z.string(),
  edited: z.boolean(),
  modifiedOn: z.string().nullable(),
  modifiedBy: z.string().nullable(),
  version: z.number().int(),
});
export type TDocTemplateText = z.infer<typeof ZDocTemplateText>;

/** GET /api/DocTemplate: every template in every language, and the placeholders each may hold. */
export const ZDocTemplateListAnswer = z.object({
  items: z.array(ZDocTemplateText),
  placeholders: z.record(z.string(), z.array(z.string())),
});
export type TDocTemplateListAnswer = z.infer<typeof ZDocTemplateListAnswer>;

/** POST /api/DocTemplate/update: a template's texts in one language, based on `version` (0: the default). */
export const ZDocTemplateEdit = z.object({
  kind: ZDocTemplateKind,
  culture: ZDocCulture,
  title: ZText(DOC_TITLE_MAX).refine((s) => s.trim() !== '', { message: 'validation.required' }),
  body: ZText(DOC_BODY_MAX).refine((s) => s.trim() !== '', { message: 'validation.required' }),
  signatures: ZText(DOC_SIGNATURES_MAX),
  version: ZVersion,
});
export type TDocTemplateEdit = z.input<typeof ZDocTemplateEdit>;

/** POST /api/DocTemplate/reset: back to the default texts (the stored ones dropped), based on `version`. */
export const ZDocTemplateReset = z.object({ kind: ZDocTemplateKind, culture: ZDocCulture, version: ZVersion });

/** GET /api/DocTemplate/pdf/:source/:id?culture=: the document of a mandate, a deal or a property, as a PDF download. */
export const ZDocPdfParams = ZIdParam.extend({ source: z.enum(DOC_SOURCES) });
export const ZDocPdfQuery = z.object({ culture: ZDocCulture });
/** POST /api/DocTemplate/save: the same document stored in the record's files (the mandate's, the deal's, the property's). */
export const ZDocSave = z.object({ source: z.enum(DOC_SOURCES), id: z.number().int().min(1).max(2147483647), culture: ZDocCulture });
export const ZDocSaved = z.object({ fileId: z.number().int(), name: z.string(), size: z.number().int(), parentType: z.number().int(), parentId: z.number().int() });
export type TDocSaved = z.infer<typeof ZDocSaved>;

/** The document templates' calls and their schemas (decision 057); their methods and paths: `doc-templates.resource.ts`. */
export const DOC_TEMPLATE_API = {
  list: { answer: ZDocTemplateListAnswer },
  update: { body: ZDocTemplateEdit, answer: ZDocTemplateText },
  reset: { body: ZDocTemplateReset, answer: ZDocTemplateText },
  pdf: { params: ZDocPdfParams, query: ZDocPdfQuery },
  save: { body: ZDocSave, answer: ZDocSaved },
} satisfies Record<string, CallSchemas>;
