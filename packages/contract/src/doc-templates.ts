import { z } from 'zod';
import { ZIdParam, ZText, ZVersion } from './common.ts';
import { CULTURES } from './constants.ts';
import type { CallSchemas } from './call.ts';
import { DOC_SOURCES, DOC_TEMPLATES, DOC_TITLE_MAX, DOC_BODY_MAX, DOC_SIGNATURES_MAX } from './doc-template-kinds.ts';

export * from './doc-template-kinds.ts';

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
